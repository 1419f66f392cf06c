"""The XISK picture's panel below the map: phase, whose turn, players, supply, cards, the last attack.

Everything comes from the spectator view; a player's hand is never read, only the
public count of cards each player holds. The panel is a strip as wide as the map, in
three columns: what a player needs at a glance (the phase and who is to act, in type
legible in Discord's 550-px preview), the players, and the last attack.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, MUTED, NEUTRAL, Colour, Label, Labels, font, note, player_style
from render.xisk_layers import (
    NEUTRAL_OWNER,
    OUTLINE,
    RULE,
    SCALE,
    DiscStyle,
    disc_sprite,
    neutral_style,
    px,
    text_px,
)

ACTING_ROW: Colour = (72, 80, 100)
DIM: Colour = (110, 115, 126)
GOLD: Colour = (250, 205, 70)
STRIKE: Colour = (200, 90, 90)
HEADLINE = 28
"""Font size of the phase and of who is to act (over 9 px tall at 550 px wide)."""
HEADLINE_W = 307
"""Width of the headline column: the phase, who is to act and the figures keep within it."""
SLOT_W, SLOT_H = 231, 43
"""A player's slot in the players' grid (three rows, two columns)."""
COLUMNS = (16, 333, 811)
"""Left edges of the panel's three columns: headline, players, last attack."""
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
    """Draws on a panel image in design pixels (:data:`render.xisk_layers.DESIGN_WIDTH`), scaled to the picture.

    Every position, length and font size the panel's code gives is a design size: the pen
    scales it (:func:`render.xisk_layers.px`, :func:`render.xisk_layers.text_px`), and
    :meth:`length` answers in design pixels too, so the layout reads the same at any
    picture width. Text masks are rendered once and reused, since text dominates the cost.

    ``labels`` (when a list) receives each text's box in picture pixels: the panel's own
    coordinates moved down by ``top``, where the panel sits in the picture.
    """

    def __init__(self, image: Image.Image, labels: Labels | None = None, top: int = 0) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.labels = labels
        self.top = top

    @property
    def width(self) -> float:
        """Returns the panel's width in design pixels."""
        return self.image.width / SCALE

    @property
    def height(self) -> float:
        """Returns the panel's height in design pixels."""
        return self.image.height / SCALE

    def text(self, xy: tuple[float, float], text: str, *, size: int, fill: Colour, anchor: str = "la",
             stroke_width: int = 0, role: str | tuple[str, ...] = "detail") -> None:
        """Draws ``text`` like ``ImageDraw.text`` (the stroke, if any, in the fill colour) and notes its box."""
        if not text:
            return
        size = text_px(size)
        mask, (dx, dy) = _text_mask(text, font(size), anchor, px(stroke_width))
        left, top = round(xy[0] * SCALE) + dx, round(xy[1] * SCALE) + dy
        self.image.paste(fill, (left, top), mask)
        if self.labels is not None:
            note(self.labels, Label((role,) if isinstance(role, str) else role, text, size,
                                    (left, top + self.top, left + mask.width, top + self.top + mask.height)))

    def length(self, text: str, size: int) -> float:
        """Returns the advance width of ``text`` at ``size``, in design pixels."""
        return _length(text, size)

    def line(self, xy: tuple[float, float, float, float], *, fill: Colour, width: int = 1) -> None:
        """Draws a line between two design points."""
        self.draw.line(_scaled(xy), fill=fill, width=px(width))

    def rectangle(self, box: tuple[float, float, float, float], *, fill: Colour) -> None:
        """Fills a rectangle given in design pixels."""
        self.draw.rectangle(_scaled(box), fill=fill)

    def rounded_rectangle(self, box: tuple[float, float, float, float], *, radius: int, fill: Colour,
                          outline: Colour | None = None, width: int = 1) -> None:
        """Draws a rounded rectangle given in design pixels."""
        self.draw.rounded_rectangle(_scaled(box), radius=px(radius), fill=fill, outline=outline, width=px(width))

    def sprite(self, sprite: Image.Image, centre: tuple[float, float]) -> None:
        """Pastes an RGBA sprite (drawn in picture pixels) centred on a design point."""
        half = sprite.width // 2
        self.image.paste(sprite, (round(centre[0] * SCALE) - half, round(centre[1] * SCALE) - half), sprite)


def _scaled(box: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    """Returns a design box (or pair of points) in picture pixels."""
    return px(box[0]), px(box[1]), px(box[2]), px(box[3])


@lru_cache(maxsize=2048)
def _text_mask(text: str, face: Any, anchor: str, stroke: int) -> tuple[Image.Image, tuple[int, int]]:
    """Returns the coverage mask of ``text`` (its ``getbbox`` box) and its offset from the anchor point."""
    left, top, right, bottom = face.getbbox(text, anchor=anchor, stroke_width=stroke)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor, stroke_width=stroke,
                              stroke_fill=255)
    return mask, (left, top)


@lru_cache(maxsize=4096)
def _length(text: str, size: int) -> float:
    """Returns the advance width of ``text`` at the design size ``size``, in design pixels (cached: a panel
    measures the same texts each move)."""
    return font(text_px(size)).getlength(text) / SCALE


@lru_cache(maxsize=1024)
def _fit(text: str, size: int, width: float) -> str:
    """Returns ``text`` shortened with an ellipsis to fit ``width`` pixels at ``size``.

    It is cut at the end of a word when a word fits, else between letters (one long word).
    Only names are shortened: texts holding numbers are packed instead (:func:`_pack`).
    """
    if _length(text, size) <= width:
        return text
    words = text.split(" ")
    for n in range(len(words) - 1, 0, -1):
        head = " ".join(words[:n]).rstrip(",·- ")
        if head and _length(head + "…", size) <= width:
            return head + "…"
    while text and _length(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def _pack(parts: list[tuple[str, str]], size: int, width: float, lines: int) -> tuple[list[str], int]:
    """Returns ``parts`` joined by " · " into at most ``lines`` lines of ``width`` pixels, and the size used.

    Each part is (full, short): the full forms are tried first, then the short ones, then a
    smaller size; a part is never cut, so no number is lost (were nothing to fit, the last
    rows would be left out whole).
    """
    rows: list[str] = []
    for size_now in (size, size * 7 // 8, size * 3 // 4):
        for form in (0, 1):
            rows = []
            for part in (p[form] for p in parts):
                if rows and _length(f"{rows[-1]} · {part}", size_now) <= width:
                    rows[-1] = f"{rows[-1]} · {part}"
                else:
                    rows.append(part)
            if len(rows) <= lines and all(_length(r, size_now) <= width for r in rows):
                return rows, size_now
    return rows[:lines], size * 3 // 4


def claim_counter(view: dict[str, Any]) -> str:
    """Returns "Claim N of M" while claiming ("" when nothing is left to claim).

    The card being called is secret until its holder reveals it (the public view keeps
    the claims made and counts those left), so the picture shows how far the claiming is.
    """
    made, left = len(view.get("claims") or []), int(view.get("claims_left") or 0)
    return f"Claim {made + 1} of {made + left}" if left else ""


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


def _swatch(draw: Pen, x: int, y: int, index: int | None, *, radius: int = 14, size: int = 18,
            dim: bool = False, role: str = "player") -> None:
    """Pastes a seat's swatch (disc with its letter) centred on (x, y); None is neutral."""
    if index is None:
        style, mark, ink = neutral_style(), "N", (0, 0, 0)
        style = DiscStyle(style.fill, style.ring, "", ink, double_ring=True)
    else:
        st = player_style(index)
        fill = tuple(round(v * 0.4 + 50) for v in st.fill) if dim else st.fill
        style, mark, ink = DiscStyle(fill, OUTLINE, "", (0, 0, 0)), st.mark, st.ink  # type: ignore[arg-type]
    draw.sprite(disc_sprite(style, px(radius), 0), (x, y))
    draw.text((x, y + 1), mark, size=size, fill=ink, anchor="mm", stroke_width=1, role=role)


def _player_grid(draw: Pen, x0: int, view: dict[str, Any], players: list[str]) -> None:
    """Draws a slot per player, three to a column: letter, name, its tag, countries, chips and cards."""
    tally = _tally(view)
    acting = set(view.get("to_act") or [])
    out = set(view.get("eliminated") or [])
    winner = view.get("winner")
    cards = view.get("cards_held") or {}
    # Once the countries are dealt, a player who owns none is out, even before the view says so
    # (the conquest that ends the game defeats the last opponent without listing them).
    dealt = view.get("phase") != "claim" and bool(tally)
    for i, p in enumerate(players[:6]):
        x, y = x0 + (i // 3) * SLOT_W, 5 + (i % 3) * SLOT_H
        right = x + SLOT_W - 8
        n, chips = tally.get(p, (0, 0))
        gone = p in out or (dealt and n == 0)
        if p == winner:
            draw.rounded_rectangle((x, y, right, y + SLOT_H - 4), radius=7, fill=ACTING_ROW, outline=GOLD, width=2)
        elif p in acting:
            draw.rounded_rectangle((x, y, right, y + SLOT_H - 4), radius=7, fill=ACTING_ROW)
            draw.rectangle((x, y + 4, x + 3, y + SLOT_H - 8), fill=player_style(i).fill)
        _swatch(draw, x + 22, y + (SLOT_H - 4) // 2, i, dim=gone)
        tag, tag_colour = ("WINNER", GOLD) if p == winner else ("TO ACT", GOLD) if p in acting \
            else ("OUT", DIM) if gone else ("", INK)
        tag_w = draw.length(tag, 12) + 7 if tag else 0
        draw.text((right - 5, y + 5), tag, size=12, fill=tag_colour, anchor="ra")
        name = _fit(p, 18, right - x - 45 - tag_w)
        draw.text((x + 43, y + 3), name, size=18, fill=DIM if gone else INK, role="player")
        if gone:
            draw.line((x + 41, y + 14, x + 44 + draw.length(name, 18), y + 14), fill=STRIKE, width=2)
        held = cards.get(p, 0)
        rows, size = _pack([(f"{n} countries", f"{n} ctry"), (f"{chips} chips", f"{chips} ch"),
                            (f"{held} cards", f"{held} cards")], 12, right - x - 45, 1)
        draw.text((x + 43, y + 23), rows[0], size=size, fill=DIM if gone else MUTED, role="stats")


def _headline(draw: Pen, x0: int, view: dict[str, Any], players: list[str]) -> None:
    """Draws the phase and turn number, then who is to act (their letter and name), or the winner."""
    phase = str(view.get("phase") or "")
    label = PHASES.get(phase, phase.capitalize())
    claiming = claim_counter(view) if phase == "claim" else None
    if claiming:  # which card is called is secret until it is revealed, so: how far the claiming is
        label = claiming
    draw.text((x0, 37), label, size=HEADLINE, fill=INK, anchor="ls", role=("phase", "claim") if claiming else "phase")
    number = view.get("turn_number")
    if number:
        after = x0 + draw.length(label, HEADLINE) + 12
        turn = next((t for t in (f"turn {number}", f"#{number}") if after + draw.length(t, 18) <= x0 + HEADLINE_W),
                    "")
        draw.text((after, 37), turn, size=18, fill=MUTED, anchor="ls")
    winner = view.get("winner")
    if winner:
        draw.rounded_rectangle((x0 - 7, 48, x0 + 314, 88), radius=7, fill=GOLD)
        text = _fit(str(winner), HEADLINE, 289 - draw.length(" wins!", HEADLINE)) + " wins!"
        draw.text((x0 + 153, 68), text, size=HEADLINE, fill=(0, 0, 0), anchor="mm", stroke_width=1,
                  role="winner")
        return
    acting = list(view.get("to_act") or [])
    if not acting and view.get("turn"):
        acting = [view["turn"]]
    if not acting:
        return
    verb = " to claim" if phase == "claim" else " to act"
    who = _fit(", ".join(acting), HEADLINE, 275 - draw.length(verb, HEADLINE)) + verb
    x = x0
    if acting[0] in players:
        _swatch(draw, x0 + 18, 69, players.index(acting[0]), radius=19, size=HEADLINE, role="to_act")
        x += 44
    draw.text((x, 69), who, size=HEADLINE, fill=INK, anchor="lm", role="to_act")


def _figures(draw: Pen, x0: int, view: dict[str, Any]) -> None:
    """Draws the claims or supply left, the card sets and the neutral countries under the headline."""
    parts: list[tuple[str, str]] = []
    left = view.get("claims_left")
    if left and not (view.get("phase") == "claim" and claim_counter(view)):
        parts.append((f"Claims left {left}", f"Claims {left}"))
    supply = view.get("supply_left", 0)
    parts.append((f"Supply left {supply}", f"Supply {supply}"))
    tally = _tally(view)
    if NEUTRAL_OWNER in tally:
        n, chips = tally[NEUTRAL_OWNER]
        parts.append((f"Neutral {n} countries, {chips} chips", f"Neutral {n} ctry, {chips} ch"))
    nxt = view.get("next_set_value")
    if nxt is not None:
        done = view.get("sets_redeemed", 0)
        parts.append((f"Next card set {nxt} chips ({done} redeemed)", f"Next set {nxt} ch ({done} done)"))
    rows, size = _pack(parts, 15, HEADLINE_W - 11, 2)
    for k, row in enumerate(rows):
        draw.text((x0, 96 + 21 * k), row, size=size, fill=MUTED, role="figures")


def _die(draw: Pen, x: int, y: int, value: int, fill: Colour, ink: Colour) -> None:
    """Draws one die as a rounded square with its number."""
    draw.rounded_rectangle((x, y, x + 28, y + 28), radius=5, fill=fill, outline=OUTLINE, width=1)
    draw.text((x + 14, y + 15), str(value), size=19, fill=ink, anchor="mm", stroke_width=1, role="die")


def _side_colours(who: str | None, seat_of: dict[str, int]) -> tuple[Colour, Colour]:
    """Returns the die fill and ink for a side of a battle (grey for neutral or unknown)."""
    if who in seat_of:
        st = player_style(seat_of[who])
        return st.fill, st.ink
    return NEUTRAL, (0, 0, 0)


def _battle(draw: Pen, x0: int, view: dict[str, Any], names: dict[str, str], seat_of: dict[str, int],
            codes: dict[str, str]) -> None:
    """Draws the last attack (the countries, both sides' dice, the losses) and a pending invasion."""
    b = view.get("last_battle")
    width = draw.width - 16 - x0
    inv = view.get("invade")
    if inv:
        text = f"Invade: move 0 to {inv.get('most', 0)} more chips"
        draw.text((x0, 117), _fit(text, 15, width), size=15, fill=GOLD)
    if not b:
        draw.text((x0, 8), "No attack yet", size=15, fill=MUTED)
        return
    countries = view.get("countries") or {}
    attacker = b.get("attacker") or (countries.get(b.get("from")) or {}).get("owner")
    defender = b.get("defender")
    conquered = b.get("conquered")
    if conquered is None:
        conquered = (countries.get(b.get("to")) or {}).get("owner") == attacker and attacker is not None
    draw.text((x0, 7), "Last attack", size=15, fill=MUTED)
    src, dst = names.get(b.get("from"), str(b.get("from"))), names.get(b.get("to"), str(b.get("to")))
    line = f"{src} onto {dst}"
    if draw.length(line, 18) > width:  # the codes printed on the map, rather than names cut short
        line = f"{codes.get(b.get('from'), src)} onto {codes.get(b.get('to'), dst)}"
    draw.text((x0, 26), _fit(line, 18, width), size=18, fill=INK, role="attack")
    x, y = x0, 54
    a_fill, a_ink = _side_colours(attacker, seat_of)
    for v in b.get("attacker_dice") or []:
        _die(draw, x, y, int(v), a_fill, a_ink)
        x += 32
    draw.text((x + 3, y + 14), "vs", size=15, fill=MUTED, anchor="lm")
    x += 28
    d_fill, d_ink = _side_colours(defender, seat_of) if defender else ((235, 235, 235), (0, 0, 0))
    for v in b.get("defender_dice") or []:
        _die(draw, x, y, int(v), d_fill, d_ink)
        x += 32
    if conquered:
        draw.text((x + 10, y + 14), "Conquered", size=16, fill=GOLD, anchor="lm", role="attack")
    losses = f"Losses: attacker {b.get('attacker_losses', 0)}, defender {b.get('defender_losses', 0)}"
    draw.text((x0, 91), _fit(losses, 15, width), size=15, fill=INK)


def draw_panel(image: Image.Image, view: dict[str, Any], players: list[str], names: dict[str, str], *,
               labels: Labels | None = None, top: int = 0, codes: dict[str, str] | None = None) -> None:
    """Draws the panel's changing parts onto ``image``, a copy of the panel's empty background.

    ``labels`` (when a list) receives the texts drawn, placed as if the panel's top were at ``top``;
    ``codes`` (country → code) name the last attack's countries when their names are too long.
    """
    draw = Pen(image, labels, top)
    seat_of = {p: i for i, p in enumerate(players)}
    h = draw.height
    _headline(draw, COLUMNS[0], view, players)
    _figures(draw, COLUMNS[0], view)
    for x in (COLUMNS[1] - 10, COLUMNS[2] - 11):
        draw.line((x, 8, x, h - 8), fill=RULE, width=1)
    _player_grid(draw, COLUMNS[1], view, players)
    _battle(draw, COLUMNS[2], view, names, seat_of, codes or {})
