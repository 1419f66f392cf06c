"""The XISK picture's side panel: players, phase, supply, cards, the last attack and the winner.

Everything comes from the spectator view; a player's hand is never read, only the
public count of cards each player holds.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, MUTED, NEUTRAL, Colour, font, player_style
from render.xisk_layers import NEUTRAL_OWNER, OUTLINE, PANEL_WIDTH, RULE, DiscStyle, disc_sprite, neutral_style

ACTING_ROW: Colour = (72, 80, 100)
DIM: Colour = (110, 115, 126)
GOLD: Colour = (250, 205, 70)
STRIKE: Colour = (200, 90, 90)
ROW = 68
PHASES = {
    "claim": "Claiming countries",
    "supply": "Supply phase",
    "attack": "Attack phase",
    "invade": "Invading",
    "cardset": "Cardset phase",
    "adjust": "Adjust phase",
    "over": "Game over",
}


class Pen:
    """Draws on a panel image; text masks are rendered once and reused, since text dominates the cost."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)

    def text(self, xy: tuple[float, float], text: str, *, font: Any, fill: Colour, anchor: str = "la",
             stroke_width: int = 0, stroke_fill: Colour | None = None) -> None:
        """Draws ``text`` like ``ImageDraw.text`` (the stroke, if any, in the fill colour)."""
        if not text:
            return
        mask, (dx, dy) = _text_mask(text, font, anchor, stroke_width)
        self.image.paste(fill, (round(xy[0]) + dx, round(xy[1]) + dy), mask)

    def __getattr__(self, name: str) -> Any:
        """Returns the ``ImageDraw`` attribute of that name (shapes are drawn as usual)."""
        return getattr(self.draw, name)


@lru_cache(maxsize=2048)
def _text_mask(text: str, face: Any, anchor: str, stroke: int) -> tuple[Image.Image, tuple[int, int]]:
    """Returns the coverage mask of ``text`` and its offset from the anchor point."""
    left, top, right, bottom = face.getbbox(text, anchor=anchor, stroke_width=stroke)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor, stroke_width=stroke,
                              stroke_fill=255)
    return mask, (left, top)


@lru_cache(maxsize=1024)
def _fit(text: str, size: int, width: float) -> str:
    """Returns ``text`` shortened with an ellipsis to fit ``width`` pixels at ``size``."""
    face = font(size)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def seats(view: dict[str, Any]) -> list[str]:
    """Returns the players in seat order (seat i wears colour i for the whole game)."""
    return list(view.get("players") or view.get("cards_held") or [])


def _tally(view: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Returns owner → (countries, chips) over the view's countries."""
    out: dict[str, tuple[int, int]] = {}
    for info in (view.get("countries") or {}).values():
        owner = info.get("owner")
        if owner is None:
            continue
        n, chips = out.get(owner, (0, 0))
        out[owner] = (n + 1, chips + int(info.get("chips") or 0))
    return out


def _swatch(draw: Pen, x: int, y: int, index: int | None, *, dim: bool = False) -> None:
    """Pastes a seat's swatch (disc with its letter) centred on (x, y); None is neutral."""
    if index is None:
        style, mark, ink = neutral_style(), "N", (0, 0, 0)
        style = DiscStyle(style.fill, style.ring, "", ink, double_ring=True)
    else:
        st = player_style(index)
        fill = tuple(round(v * 0.4 + 50) for v in st.fill) if dim else st.fill
        style, mark, ink = DiscStyle(fill, OUTLINE, "", (0, 0, 0)), st.mark, st.ink  # type: ignore[arg-type]
    sprite = disc_sprite(style, 21, 0)
    half = sprite.width // 2
    draw.image.paste(sprite, (x - half, y - half), sprite)
    draw.text((x, y + 1), mark, font=font(26), fill=ink, anchor="mm", stroke_width=1, stroke_fill=ink)


def _player_rows(draw: Pen, x0: int, y: int, view: dict[str, Any], players: list[str]) -> int:
    """Draws one row per player (and one for the neutral chips); returns the y below them."""
    tally = _tally(view)
    acting = set(view.get("to_act") or [])
    out = set(view.get("eliminated") or [])
    winner = view.get("winner")
    cards = view.get("cards_held") or {}
    right = x0 + PANEL_WIDTH - 12
    # Once the countries are dealt, a player who owns none is out, even before the view says so
    # (the conquest that ends the game defeats the last opponent without listing them).
    dealt = view.get("phase") != "claim" and bool(tally)
    for i, p in enumerate(players):
        n, chips = tally.get(p, (0, 0))
        gone = p in out or (dealt and n == 0)
        if p == winner:
            draw.rounded_rectangle((x0 + 10, y, right, y + ROW - 6), radius=10, fill=ACTING_ROW, outline=GOLD, width=3)
        elif p in acting:
            draw.rounded_rectangle((x0 + 10, y, right, y + ROW - 6), radius=10, fill=ACTING_ROW)
            draw.rectangle((x0 + 10, y + 6, x0 + 15, y + ROW - 12), fill=player_style(i).fill)
        _swatch(draw, x0 + 44, y + (ROW - 6) // 2, i, dim=gone)
        tag, tag_colour = ("WINNER", GOLD) if p == winner else ("TO ACT", GOLD) if p in acting \
            else ("OUT", DIM) if gone else ("", INK)
        tag_w = draw.textlength(tag, font=font(20)) + 10 if tag else 0
        if tag:
            draw.text((right - 8, y + 8), tag, font=font(20), fill=tag_colour, anchor="ra")
        name = _fit(p, 28, right - x0 - 76 - tag_w)
        ink = DIM if gone else INK
        draw.text((x0 + 74, y + 4), name, font=font(28), fill=ink)
        if gone:
            width = draw.textlength(name, font=font(28))
            draw.line((x0 + 72, y + 24, x0 + 76 + width, y + 24), fill=STRIKE, width=3)
        stats = f"{n} countries · {chips} chips · {cards.get(p, 0)} cards"
        draw.text((x0 + 74, y + 36), _fit(stats, 22, right - x0 - 78), font=font(22),
                  fill=DIM if gone else MUTED)
        y += ROW
    if NEUTRAL_OWNER in tally:
        n, chips = tally[NEUTRAL_OWNER]
        _swatch(draw, x0 + 44, y + 24, None)
        draw.text((x0 + 74, y + 24), f"Neutral · {n} countries · {chips} chips", font=font(22), fill=MUTED,
                  anchor="lm")
        y += 56
    return y


def _status(draw: Pen, x0: int, y: int, view: dict[str, Any], names: dict[str, str]) -> int:
    """Draws the supply, card-set and claim figures (and a pending invasion); returns the y below."""
    rows: list[tuple[str, str]] = []
    if view.get("phase") == "claim" or view.get("claims_left"):
        rows.append(("Claims left", str(view.get("claims_left", 0))))
    rows.append(("Supply left", str(view.get("supply_left", 0))))
    nxt, done = view.get("next_set_value"), view.get("sets_redeemed", 0)
    if nxt is not None:
        rows.append(("Next card set", f"{nxt} chips"))
        rows.append(("Sets redeemed", str(done)))
    for key, value in rows:
        draw.text((x0 + 24, y), key, font=font(24), fill=MUTED)
        draw.text((x0 + 212, y), _fit(value, 24, PANEL_WIDTH - 230), font=font(24), fill=INK)
        y += 34
    inv = view.get("invade")
    if inv:
        src, dst = names.get(inv.get("from"), inv.get("from")), names.get(inv.get("to"), inv.get("to"))
        draw.text((x0 + 24, y), "Invade", font=font(24), fill=GOLD)
        draw.text((x0 + 212, y), f"0 to {inv.get('most', 0)} more chips", font=font(24), fill=INK)
        draw.text((x0 + 24, y + 32), _fit(f"{src} to {dst}", 22, PANEL_WIDTH - 48), font=font(22), fill=INK)
        y += 66
    return y


def _die(draw: Pen, x: int, y: int, value: int, fill: Colour, ink: Colour) -> None:
    """Draws one die as a rounded square with its number."""
    draw.rounded_rectangle((x, y, x + 38, y + 38), radius=7, fill=fill, outline=OUTLINE, width=2)
    draw.text((x + 19, y + 20), str(value), font=font(26), fill=ink, anchor="mm", stroke_width=1, stroke_fill=ink)


def _side_colours(who: str | None, seat_of: dict[str, int]) -> tuple[Colour, Colour]:
    """Returns the die fill and ink for a side of a battle (grey for neutral or unknown)."""
    if who in seat_of:
        st = player_style(seat_of[who])  # type: ignore[index]
        return st.fill, st.ink
    return NEUTRAL, (0, 0, 0)


def _battle(draw: Pen, x0: int, y: int, view: dict[str, Any], names: dict[str, str],
            seat_of: dict[str, int]) -> int:
    """Draws the last attack: the countries, both sides' dice and the losses; returns the y below."""
    b = view.get("last_battle")
    if not b:
        return y
    countries = view.get("countries") or {}
    attacker = b.get("attacker") or (countries.get(b.get("from")) or {}).get("owner")
    defender = b.get("defender")
    conquered = b.get("conquered")
    if conquered is None:
        conquered = (countries.get(b.get("to")) or {}).get("owner") == attacker and attacker is not None
    draw.text((x0 + 24, y), "Last attack", font=font(24), fill=MUTED)
    y += 32
    src, dst = names.get(b.get("from"), str(b.get("from"))), names.get(b.get("to"), str(b.get("to")))
    draw.text((x0 + 24, y), _fit(f"{src} onto {dst}", 24, PANEL_WIDTH - 48), font=font(24), fill=INK)
    y += 36
    x = x0 + 24
    a_fill, a_ink = _side_colours(attacker, seat_of)
    for v in b.get("attacker_dice") or []:
        _die(draw, x, y, int(v), a_fill, a_ink)
        x += 44
    draw.text((x + 6, y + 20), "vs", font=font(22), fill=MUTED, anchor="lm")
    x += 42
    d_fill, d_ink = _side_colours(defender, seat_of) if defender else ((235, 235, 235), (0, 0, 0))
    for v in b.get("defender_dice") or []:
        _die(draw, x, y, int(v), d_fill, d_ink)
        x += 44
    y += 48
    losses = f"Losses: attacker {b.get('attacker_losses', 0)}, defender {b.get('defender_losses', 0)}"
    draw.text((x0 + 24, y), _fit(losses, 22, PANEL_WIDTH - 48), font=font(22), fill=INK)
    y += 30
    if conquered:
        draw.text((x0 + 24, y), "Conquered", font=font(22), fill=GOLD)
        y += 30
    return y


def _headline(draw: Pen, x0: int, view: dict[str, Any]) -> None:
    """Draws the phase, the turn number and whose turn it is under the title."""
    phase = str(view.get("phase") or "")
    number = view.get("turn_number")
    if number:
        draw.text((x0 + PANEL_WIDTH - 24, 40), f"turn {number}", font=font(24), fill=MUTED, anchor="rs")
    winner = view.get("winner")
    if winner:
        draw.rounded_rectangle((x0 + 14, 78, x0 + PANEL_WIDTH - 14, 128), radius=10, fill=GOLD)
        text = _fit(f"{winner} wins!", 32, PANEL_WIDTH - 56)
        draw.text((x0 + PANEL_WIDTH // 2, 104), text, font=font(32), fill=(0, 0, 0), anchor="mm",
                  stroke_width=1, stroke_fill=(0, 0, 0))
        return
    label = PHASES.get(phase, phase.capitalize())
    turn = view.get("turn")
    draw.text((x0 + 24, 80), label, font=font(30), fill=INK)
    acting = ", ".join(view.get("to_act") or [])
    who = f"{turn}'s turn" if turn else f"{acting} to claim" if phase == "claim" and acting else acting
    if who:
        draw.text((x0 + 24, 116), _fit(who, 22, PANEL_WIDTH - 48), font=font(22), fill=MUTED)


def draw_panel(image: Image.Image, view: dict[str, Any], players: list[str], names: dict[str, str]) -> None:
    """Draws the panel's changing parts onto ``image``, a copy of the panel's empty background."""
    draw = Pen(image)
    x0 = 0
    seat_of = {p: i for i, p in enumerate(players)}
    _headline(draw, x0, view)
    y = _player_rows(draw, x0, 152, view, players)
    draw.line((x0 + 20, y + 4, x0 + PANEL_WIDTH - 20, y + 4), fill=RULE, width=2)
    y = _status(draw, x0, y + 16, view, names)
    draw.line((x0 + 20, y + 4, x0 + PANEL_WIDTH - 20, y + 4), fill=RULE, width=2)
    _battle(draw, x0, y + 16, view, names, seat_of)
