"""The NXS highlights, each told by its shape as well as its colour, and their legend.

``/nxs show`` marks a selected ship's options; a reader who cannot tell the colours apart
still tells the marks apart by shape:

- a cell the ship may **move to**: filled yellow, with a dark ring round its name;
- a ship it may **capture**: a cross-hatched red band round the cell, with ticks at its corners;
- the **selected** ship: a thick solid blue outline;
- the **last move**: corner brackets in orange on both cells, joined by an arrow.

The legend strip below the boards shows each mark beside its name (drawn once, in the
static layer, by :func:`draw_legend`).
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import INK, Colour, Label
from render.nxs_canvas import Canvas, RgbCanvas

MOVE: Colour = (240, 228, 66)
"""Okabe–Ito yellow: cells the selected ship may move to."""
CAPTURE: Colour = (226, 52, 32)
"""Red: enemy ships the selected ship may capture."""
SELECTED: Colour = (86, 180, 233)
"""Okabe–Ito sky blue: the selected ship."""
LAST: Colour = (230, 159, 0)
"""Okabe–Ito orange: the last move's two cells and the arrow between them."""
CASING: Colour = (20, 20, 24)
BAND = (1.0, 0.8)
"""Outer and inner circumradius (of the cell's) of the selection and capture bands."""
LEGEND_SIZE = 0.5
"""Font size of the legend's words, as a fraction of the hex radius."""
LEGEND = ("move to", "capture", "selected", "last move", "held hex")
"""The legend's entries, left to right."""

Point = tuple[float, float]


def hex_points(x: float, y: float, radius: float) -> list[Point]:
    """Returns the six corners of a flat-topped hex, clockwise from due east."""
    return [(x + radius * math.cos(math.radians(60 * i)), y + radius * math.sin(math.radians(60 * i)))
            for i in range(6)]


def _ring(pen: Canvas | ImageDraw.ImageDraw, centre: Point, outer: float, inner: float, colour: Colour) -> None:
    """Draws a hexagonal ring between circumradii ``outer`` and ``inner``."""
    x, y = centre
    out, inn = hex_points(x, y, outer), hex_points(x, y, inner)
    for i in range(6):
        j = (i + 1) % 6
        pen.polygon([out[i], out[j], inn[j], inn[i]], fill=colour)


def move_mark(pen: Canvas, centre: Point, r: float) -> None:
    """Marks a cell to move to: a yellow hex with a dark ring (the cell's name goes inside)."""
    x, y = centre
    pen.polygon(hex_points(x, y, 0.9 * r), fill=MOVE, outline=CASING, width=max(1, round(0.03 * r)))
    d = 0.56 * r
    pen.ellipse((x - d, y - d, x + d, y + d), outline=CASING, width=max(1, round(0.07 * r)))


def selected_mark(pen: Canvas, centre: Point, r: float) -> None:
    """Marks the selected ship: a thick solid blue outline, cased in dark on both edges."""
    outer, inner = BAND[0] * r, BAND[1] * r
    _ring(pen, centre, outer, inner, CASING)
    _ring(pen, centre, outer - 0.035 * r, inner + 0.035 * r, SELECTED)


@lru_cache(maxsize=16)
def _hatched_band(r: float) -> Image.Image:
    """Returns an RGBA sprite of the capture band: red, cross-hatched in dark, cased on both edges."""
    size = math.ceil(2 * BAND[0] * r) + 2
    c = size / 2
    band = Image.new("L", (size, size), 0)
    draw = ImageDraw.Draw(band)
    draw.polygon(hex_points(c, c, BAND[0] * r), fill=255)
    draw.polygon(hex_points(c, c, BAND[1] * r), fill=0)
    colour = Image.new("RGBA", (size, size), (*CAPTURE, 255))
    pen = ImageDraw.Draw(colour)
    step, width = 0.2 * r, max(1, round(0.06 * r))
    k: float = -size
    while k < 2 * size:  # two families of diagonals: a cross-hatch
        pen.line((k, 0, k + size, size), fill=(*CASING, 255), width=width)
        pen.line((k + size, 0, k, size), fill=(*CASING, 255), width=width)
        k += step
    _ring(pen, (c, c), BAND[0] * r, (BAND[0] - 0.03) * r, CASING)
    _ring(pen, (c, c), (BAND[1] + 0.03) * r, BAND[1] * r, CASING)
    colour.putalpha(band)
    return colour


def capture_mark(pen: Canvas, centre: Point, r: float) -> None:
    """Marks a ship to capture: a cross-hatched red band round the cell and red ticks at its corners."""
    sprite = _hatched_band(r)
    x, y = centre
    pen.sprite(sprite, (round(x - sprite.width / 2), round(y - sprite.height / 2)), on=CASING)  # never see-through
    for ang in range(0, 360, 60):
        a = math.radians(ang)
        p0 = (x + 0.9 * r * math.cos(a), y + 0.9 * r * math.sin(a))
        p1 = (x + 0.6 * r * math.cos(a), y + 0.6 * r * math.sin(a))
        pen.line([p0, p1], fill=CASING, width=round(0.15 * r))
        pen.line([p0, p1], fill=CAPTURE, width=round(0.08 * r))


def last_mark(pen: Canvas, centre: Point, r: float) -> None:
    """Marks a cell of the last move: orange brackets on its six corners (a broken outline)."""
    x, y = centre
    outer, inner = hex_points(x, y, 0.99 * r), hex_points(x, y, 0.86 * r)

    def at(pts: list[Point], i: int, t: float) -> Point:
        a, b = pts[i], pts[(i + 1) % 6]
        return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)

    for i in range(6):
        for t0, t1 in ((0.0, 0.3), (0.7, 1.0)):
            pen.polygon([at(outer, i, t0), at(outer, i, t1), at(inner, i, t1), at(inner, i, t0)], fill=LAST)


def arrow(pen: Canvas, a: Point, b: Point, r: float, *, tip_gap: float = 0.72) -> None:
    """Draws the last move's arrow from cell centre ``a`` to ``b``, outlined for contrast."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    dist = math.hypot(dx, dy) or 1.0
    ux, uy = dx / dist, dy / dist  # along the arrow
    nx, ny = -uy, ux  # across it

    def at(along: float, across: float) -> Point:
        return (a[0] + ux * along + nx * across, a[1] + uy * along + ny * across)

    start, tip = 0.25 * r, dist - tip_gap * r  # the tip stops at the moved ship's tile
    neck, shaft, head = tip - 0.34 * r, 0.06 * r, 0.19 * r
    outline = [
        at(start, shaft), at(neck, shaft), at(neck, head), at(tip, 0),
        at(neck, -head), at(neck, -shaft), at(start, -shaft),
    ]
    pen.polygon(outline, fill=LAST, outline=CASING, width=max(1, round(0.035 * r)))


def legend_labels(width: float, top: float, height: float, r: float) -> list[tuple[str, Point, Label]]:
    """Returns each legend entry's kind, icon centre and word, laid out across a strip ``width`` wide."""
    size = round(LEGEND_SIZE * r)
    step = width / len(LEGEND)
    y = top + height / 2
    out = []
    for i, word in enumerate(LEGEND):
        x = step * i + 0.5 * r + 0.1 * step
        out.append((word, (x, y), Label.at("legend", word, size, (x + 0.7 * r, y), anchor="lm")))
    return out


def draw_legend(image: Image.Image, width: float, top: float, height: float, r: float, icon: float,
                held: tuple[Colour, Colour], cell: Colour) -> None:
    """Draws the legend strip: each mark on a small cell of radius ``icon``, and its name."""
    pen = RgbCanvas(image)
    for word, (x, y), label in legend_labels(width, top, height, r):
        pen.polygon(hex_points(x, y, icon), fill=cell)
        if word == "move to":
            move_mark(pen, (x, y), icon)
        elif word == "capture":
            capture_mark(pen, (x, y), icon)
        elif word == "selected":
            selected_mark(pen, (x, y), icon)
        elif word == "last move":
            last_mark(pen, (x, y), icon)
            arrow(pen, (x - 1.4 * icon, y + 0.2 * icon), (x, y), icon, tip_gap=0.2)
        else:
            d = 0.3 * icon
            pen.ellipse((x - d, y - d, x + d, y + d), fill=held[0], outline=held[1], width=max(1, round(0.06 * icon)))
        pen.write(None, "legend", (x + 0.7 * r, y), word, label.size, INK, anchor="lm")
