"""Climb's picture, drawn from the public view only: the pile's top card, the deck, each player's cards.

It never sees a hand: the view it is given is ``view(None)``, which holds how many cards
each player has, not which::

    >>> from tablehost_climb.engine import Climb
    >>> image = draw(Climb.new(["ann", "bob"], seed=1).view(None))
    >>> image.size, image.mode
    ((800, 360), 'RGB')
    >>> render(Climb.new(["ann", "bob"], seed=1).view(None))[:4]
    b'\\x89PNG'
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.common import BACKGROUND, INK, MUTED, PANEL, fit, font, player_style, to_png

WIDTH, HEIGHT = 800, 360
MARGIN = 24
CARD_FACE = (246, 241, 228)
CARD_INK = (34, 36, 44)
CARD_BACK = (72, 96, 150)
PILE_BOX = (40, 76, 200, 316)
"""Where the pile's top card is drawn (left, top, right, bottom)."""
DECK_BOX = (252, 116, 352, 266)
ROWS_LEFT, ROWS_TOP, ROW_HEIGHT = 410, 76, 62


def render(view: dict[str, Any], **marks: Any) -> bytes:
    """Returns the PNG picture of a public view (``marks`` are accepted and ignored: Climb has none)."""
    return to_png(draw(view))


def draw(view: dict[str, Any]) -> Image.Image:
    """Returns the picture of a public view as an RGB image, 800 × 360."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    pen = ImageDraw.Draw(image)
    _title(pen, view)
    _pile(pen, view)
    _deck(pen, view)
    _players(pen, view)
    _last(pen, view)
    return image


def _title(pen: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    pen.text((MARGIN, 18), "Climb", fill=INK, font=font(32))
    turn = view.get("turn_number")
    if view.get("winner"):
        pen.text((140, 28), "game over", fill=MUTED, font=font(20))
    elif isinstance(turn, int):
        pen.text((140, 28), f"turn {turn}", fill=MUTED, font=font(20))


def _pile(pen: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    left, top, right, bottom = PILE_BOX
    middle = ((left + right) / 2, (top + bottom) / 2)
    top_card = view.get("pile_top")
    if top_card is None:
        pen.rounded_rectangle(PILE_BOX, radius=14, outline=MUTED, width=3)
        pen.text(middle, "empty", fill=MUTED, font=font(28), anchor="mm")
        pen.text((middle[0], middle[1] + 34), "any card", fill=MUTED, font=font(20), anchor="mm")
    else:
        pen.rounded_rectangle(PILE_BOX, radius=14, fill=CARD_FACE, outline=INK, width=2)
        pen.text(middle, str(top_card), fill=CARD_INK, font=font(150), anchor="mm")
        pen.text((left + 14, top + 10), str(top_card), fill=CARD_INK, font=font(26))
    size = int(view.get("pile_size") or 0)
    label = f"pile: {size} card{'s' if size != 1 else ''}" if size else "pile"
    pen.text(((left + right) / 2, bottom + 22), label, fill=INK, font=font(20), anchor="mm")


def _deck(pen: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    left, top, right, bottom = DECK_BOX
    count = int(view.get("deck") or 0)
    if count:
        for shift in (8, 4, 0):  # a small stack of card backs
            pen.rounded_rectangle((left + shift, top - shift, right + shift, bottom - shift), radius=10,
                                  fill=CARD_BACK, outline=INK, width=2)
        pen.text(((left + right) / 2, (top + bottom) / 2), str(count), fill=INK, font=font(48), anchor="mm")
    else:
        pen.rounded_rectangle(DECK_BOX, radius=10, outline=MUTED, width=3)
        pen.text(((left + right) / 2, (top + bottom) / 2), "0", fill=MUTED, font=font(48), anchor="mm")
    pen.text(((left + right) / 2, bottom + 22), "deck" if count else "deck: empty", fill=INK, font=font(20),
             anchor="mm")


def _players(pen: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    hands: dict[str, int] = view.get("hands") or {}
    resigned = set(view.get("resigned") or [])
    for seat, name in enumerate(view.get("players") or []):
        style = player_style(seat)
        top = ROWS_TOP + seat * ROW_HEIGHT
        box = (ROWS_LEFT, top, WIDTH - MARGIN, top + ROW_HEIGHT - 10)
        acting = name == view.get("turn")
        if acting:
            pen.rounded_rectangle(box, radius=10, fill=PANEL, outline=style.fill, width=3)
            arrow_x, arrow_y = ROWS_LEFT - 22, top + (ROW_HEIGHT - 10) / 2
            pen.polygon([(arrow_x, arrow_y - 11), (arrow_x, arrow_y + 11), (arrow_x + 16, arrow_y)], fill=style.fill)
        centre_y = top + (ROW_HEIGHT - 10) / 2
        pen.ellipse((ROWS_LEFT + 12, centre_y - 16, ROWS_LEFT + 44, centre_y + 16), fill=style.fill)
        pen.text((ROWS_LEFT + 28, centre_y), style.mark, fill=style.ink, font=font(20), anchor="mm")
        ink = MUTED if name in resigned else INK
        pen.text((ROWS_LEFT + 58, centre_y), fit(str(name), pen, 24, 150), fill=ink, font=font(24), anchor="lm")
        count = int(hands.get(name, 0))
        if name in resigned:
            status = "resigned"
        elif name == view.get("winner"):
            status = "wins!"
        else:
            status = f"{count} card{'s' if count != 1 else ''}"
        if acting:
            status += ", to play"
        pen.text((WIDTH - MARGIN - 14, centre_y), status, fill=ink, font=font(22), anchor="rm")


def _last(pen: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    last = view.get("last_move")
    if not isinstance(last, dict):
        return
    text = f"last move: {last.get('player')}, {last.get('move')}"
    pen.text((ROWS_LEFT, HEIGHT - 34), fit(text, pen, 20, WIDTH - MARGIN - ROWS_LEFT), fill=MUTED, font=font(20))
