"""The XISK picture: the felt with every country's owner and chips, and a side panel.

Drawn from the spectator view (``view(None)``) only, so it cannot show a hidden hand.
The felt comes from :func:`render.xisk_layers.static_layer` (drawn once per process);
each call copies it and draws the discs, the counts, the last attack and the panel.

Marks: ``highlight`` (country ids) rings those countries.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, Colour, font, player_style, to_png
from render.xisk_layers import (
    OUTLINE,
    RADIUS,
    DiscStyle,
    StaticLayer,
    disc_sprite,
    empty_style,
    is_wrapped,
    neutral_style,
    static_layer,
    wrap_stub,
)
from render.xisk_panel import NEUTRAL_OWNER, draw_panel, seats

ARROW: Colour = (255, 255, 255)

Point = tuple[float, float]


def owner_style(owner: str | None, seat_of: dict[str, int]) -> DiscStyle:
    """Returns the disc style for a country's owner (a player, neutral, or None)."""
    if owner is None:
        return empty_style()
    if owner == NEUTRAL_OWNER or owner not in seat_of:
        return neutral_style()
    st = player_style(seat_of[owner])
    return DiscStyle(st.fill, OUTLINE, st.mark, (0, 0, 0))


def count_ink(owner: str | None, seat_of: dict[str, int]) -> Colour:
    """Returns the ink of a chip count that contrasts with the disc under it."""
    if owner is None:
        return INK
    if owner == NEUTRAL_OWNER or owner not in seat_of:
        return (0, 0, 0)
    return player_style(seat_of[owner]).ink


def render(view: dict[str, Any], **marks: Any) -> bytes:
    """Returns the PNG picture of a spectator view of XISK; ``marks`` may name ``highlight``."""
    return to_png(draw_picture(view, **marks))


def draw_picture(view: dict[str, Any], *, highlight: Iterable[str] = (), **_: Any) -> Image.Image:
    """Returns the finished picture (not encoded) of ``view``; unknown marks are ignored."""
    layer = static_layer()
    image = layer.image.copy()
    draw = ImageDraw.Draw(image)
    players = seats(view)
    seat_of = {p: i for i, p in enumerate(players)}
    countries = view.get("countries") or {}
    for c in highlight:
        if c in layer.board.positions:
            x, y = layer.board.positions[c]
            r = RADIUS + 7
            draw.ellipse((x - r, y - r, x + r, y + r), outline=(255, 255, 255), width=4)
    _discs(layer, image, draw, countries, seat_of)
    battle = view.get("last_battle")
    if battle and battle.get("from") in layer.board.positions and battle.get("to") in layer.board.positions:
        _arrow(layer, draw, battle["from"], battle["to"])
    draw_panel(layer, image, draw, view, players)
    return image


def _discs(layer: StaticLayer, image: Image.Image, draw: ImageDraw.ImageDraw, countries: dict[str, Any],
           seat_of: dict[str, int]) -> None:
    """Pastes each country's disc and writes its chip count."""
    for c, (x, y) in layer.board.positions.items():
        info = countries.get(c) or {}
        owner = info.get("owner")
        chips = int(info.get("chips") or 0)
        sprite = disc_sprite(owner_style(owner, seat_of))
        half = sprite.width // 2
        image.paste(sprite, (x - half, y - half), sprite)
        if owner is None and chips == 0:
            continue
        text = str(chips)
        size = 28 if len(text) <= 2 else 22
        draw.text((x + 1, y + 2), text, font=font(size), fill=count_ink(owner, seat_of), anchor="mm",
                  stroke_width=1, stroke_fill=count_ink(owner, seat_of))


def _toward(a: Point, b: Point, dist: float) -> Point:
    """Returns the point ``dist`` pixels from ``a`` toward ``b``."""
    length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    return a[0] + (b[0] - a[0]) * dist / length, a[1] + (b[1] - a[1]) * dist / length


def _arrow_segment(draw: ImageDraw.ImageDraw, start: Point, end: Point, *, head: bool) -> None:
    """Draws one outlined arrow shaft, with a head at ``end`` when asked."""
    angle = math.atan2(end[1] - start[1], end[0] - start[0])
    shaft_end = _toward(end, start, 18) if head else end
    draw.line((*start, *shaft_end), fill=OUTLINE, width=11)
    draw.line((*start, *shaft_end), fill=ARROW, width=6)
    if head:
        wings = [(end[0] - 26 * math.cos(angle + s), end[1] - 26 * math.sin(angle + s)) for s in (0.45, -0.45)]
        pts = [end, *wings]
        draw.polygon(pts, fill=ARROW, outline=OUTLINE, width=3)


def _arrow(layer: StaticLayer, draw: ImageDraw.ImageDraw, src: str, dst: str) -> None:
    """Draws the last attack as a white arrow from ``src`` to ``dst`` (split at a wrapped line)."""
    board = layer.board
    if is_wrapped(board, src, dst):
        a0, a1 = wrap_stub(board, src, dst)
        b1, b0 = wrap_stub(board, dst, src)
        _arrow_segment(draw, _toward(a0, a1, RADIUS + 4), a1, head=False)
        _arrow_segment(draw, b0, _toward(b1, b0, RADIUS + 4), head=True)
        return
    a, b = board.positions[src], board.positions[dst]
    _arrow_segment(draw, _toward(a, b, RADIUS + 4), _toward(b, a, RADIUS + 4), head=True)
