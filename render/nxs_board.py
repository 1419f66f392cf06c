"""The unchanging parts of the NXS picture: geometry, the static board layer and ship tiles.

Everything here is a pure function of its arguments and cached, so a process draws the
boards once and each kind of ship tile once, whatever the number of renders::

    >>> g = Geometry(1.0)
    >>> g.width, g.height, g.centre("d4") == g.centre("D4")
    (1504, 1158, True)

The picture is near 4:3 (the panel above the boards, the legend of the marks below), so
Discord's 550-px preview is not a strip.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.core.hexgrid import to_pixel
from engines.nxs.board import CELL_NAMES, CELLS, COLUMN_LENGTH, COLUMNS, FIRST_Q, cell_hex, home_of
from engines.nxs.hexes import DIRECTIONS
from render.common import BACKGROUND, MUTED, Colour, Label, font, player_style
from render.nxs_marks import draw_legend, hex_points, legend_labels

RADIUS = 64
"""Circumradius of a board hex at scale 1 (the default picture is about 1500 px wide)."""
HEADER = 140
"""Height of the player panel above the boards, at scale 1."""
FOOTER = 74
"""Height of the legend strip below the boards, at scale 1."""
EDGE_SIZE = 0.75
"""Font size of the column letters and rank numbers, as a fraction of the hex radius.

Players type cells by these (``move d4 d5``): at 0.75 even an x-height letter (a, c, e, m, n)
is 27 px tall at scale 1, over 9 px in Discord's 550-px preview (9 × 1504 / 550 = 24.6)."""
TOP_BASELINE = -6.45
"""Baseline of the top column letters from hex d4's centre, in hex radii (negative: above; clear of the panel)."""
BOTTOM_BASELINE = 7.56
"""Baseline of the bottom column letters below hex d4's centre, in hex radii (clear of the legend)."""
SUPERSAMPLE = 2
"""Static layer and tiles are drawn this many times larger, then box-reduced (anti-aliasing).

A box filter keeps few distinct edge shades, so the PNG stays small (Lanczos doubled it)."""

SIDE_ANGLE = {d: 270 + 60 * i for i, d in enumerate(DIRECTIONS)}
"""Angle (degrees, y down) from a hex centre to the middle of each side."""
CORNER_ANGLE = {f"{d}-{DIRECTIONS[(i + 1) % 6]}": 300 + 60 * i for i, d in enumerate(DIRECTIONS)}
"""Angle (degrees, y down) from a hex centre to each corner (``'NE-SE'`` is 0°, due east)."""

BOARD_TINTS: dict[str, tuple[Colour, Colour]] = {
    "white": ((196, 200, 207), (156, 161, 170)),
    "black": ((86, 93, 107), (62, 68, 80)),
}
"""Board colour → (cell fill, cell outline) for a board owned by that colour."""


@dataclass(frozen=True)
class TileStyle:
    """How one side's ships are drawn: tile fill, ink (arrows, dots, corners) and border."""

    fill: Colour
    ink: Colour
    border: Colour


WHITE_TILE = TileStyle((250, 250, 246), (24, 24, 28), (24, 24, 28))
BLACK_TILE = TileStyle((26, 26, 30), (244, 244, 240), (226, 226, 222))


def _polar(x: float, y: float, radius: float, degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    return (x + radius * math.cos(a), y + radius * math.sin(a))


@dataclass(frozen=True)
class Geometry:
    """Places the 74 hexes, labels and panel on a picture drawn at ``scale``."""

    scale: float

    @property
    def radius(self) -> float:
        """Returns the hex circumradius in pixels."""
        return RADIUS * self.scale

    @property
    def header(self) -> int:
        """Returns the panel height in pixels."""
        return round(HEADER * self.scale)

    @property
    def footer(self) -> int:
        """Returns the legend strip's height in pixels."""
        return round(FOOTER * self.scale)

    @property
    def origin(self) -> tuple[float, float]:
        """Returns the pixel position of hex (0, 0)."""
        r = self.radius
        return (6.5 * r, self.header + 6.95 * r)

    @property
    def width(self) -> int:
        """Returns the picture width in pixels."""
        return round(23.5 * self.radius)

    @property
    def height(self) -> int:
        """Returns the picture height in pixels."""
        return round(self.header + 14.75 * self.radius) + self.footer

    def point(self, h: tuple[float, float]) -> tuple[float, float]:
        """Returns the pixel position of a (possibly fractional) axial coordinate."""
        x, y = to_pixel(h, self.radius)  # type: ignore[arg-type]
        ox, oy = self.origin
        return (ox + x, oy + y)

    def centre(self, cell: str) -> tuple[float, float]:
        """Returns the pixel centre of a named cell; raises BadNotation for a name off the boards."""
        return self.point(cell_hex(cell))


def board_colours(colours: tuple[str, str]) -> tuple[tuple[Colour, Colour], tuple[Colour, Colour]]:
    """Returns (fill, outline) of board A and board B for their owners' colours.

    White and black boards are light and dark grey; any other colour tints the board with a
    muted version of that seat's player colour (board A light, board B dark).
    """

    def tint(seat: int) -> tuple[Colour, Colour]:
        if colours[seat] in BOARD_TINTS:
            return BOARD_TINTS[colours[seat]]
        base = BOARD_TINTS["white" if seat == 0 else "black"]
        hue = player_style(seat).fill
        return (_mix(base[0], hue, 0.3), _mix(base[1], hue, 0.3))

    return (tint(0), tint(1))


def _mix(a: Colour, b: Colour, t: float) -> Colour:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


RANK_SIDES: tuple[tuple[int, tuple[int, int]], ...] = ((0, (-1, 0)), (1, (1, -1)))
"""Each board and the way its ranks leave it: board A's to the NW (left), board B's to the NE (right).

A rank zigzags across a board (down to the right along ``r`` over columns a–d, up along
``q + r`` over d–g, and likewise on board B), so only its outer arm leaves the boards: its
label sits there, on the arm's line, where the rank's next hex would be."""


@dataclass(frozen=True)
class EdgeMark:
    """An edge label: its role (``column`` or ``rank``), its text, where it goes and what it names.

    ``at`` is an axial position for a rank number; for a column letter its ``q`` and, as ``r``,
    ``-1`` (above the boards) or ``+1`` (below). ``cells`` are the cells it names: a column's
    every cell, or a rank's cells on one board ordered from the label inwards.
    """

    role: str
    text: str
    at: tuple[float, float]
    cells: tuple[str, ...]


def rank_cells(board: int, rank: int) -> tuple[str, ...]:
    """Returns the cells of ``rank`` on ``board``, from its outer end inwards (left to right on A)."""
    row = sorted((h for h, name in CELL_NAMES.items() if home_of(h) == board and name[1:] == str(rank)),
                 key=lambda h: h[0], reverse=board == 1)
    return tuple(CELL_NAMES[h] for h in row)


def edge_marks() -> list[EdgeMark]:
    """Returns the column letters (above and below each column) and both boards' rank numbers,
    each rank number one hex past its rank's outer end cell, on the line of the rank's outer arm."""
    marks: list[EdgeMark] = []
    for i, letter in enumerate(COLUMNS):
        cells = tuple(name for name in CELLS if name[0] == letter)
        marks += [EdgeMark("column", letter, (FIRST_Q + i, side), cells) for side in (-1, 1)]
    for board, (dq, dr) in RANK_SIDES:
        for rank in range(1, max(COLUMN_LENGTH.values()) + 1):
            cells = rank_cells(board, rank)
            if cells:
                q, r = CELLS[cells[0]]
                marks.append(EdgeMark("rank", str(rank), (q + dq, r + dr), cells))
    return marks


def placed_edge_marks(geo: Geometry) -> list[tuple[EdgeMark, tuple[float, float], str]]:
    """Returns each edge mark with its pixel anchor point and Pillow anchor at ``geo``.

    Column letters share a baseline above and one below the boards (``ms``: centred over
    their column); rank numbers are centred (``mm``) on their rank's line.
    """
    r, (_, oy) = geo.radius, geo.origin
    out = []
    for mark in edge_marks():
        if mark.role == "column":
            x = geo.point((mark.at[0], 0))[0]
            out.append((mark, (x, oy + (TOP_BASELINE if mark.at[1] < 0 else BOTTOM_BASELINE) * r), "ms"))
        else:
            out.append((mark, geo.point(mark.at), "mm"))
    return out


def edge_labels(geo: Geometry) -> list[Label]:
    """Returns the edge labels as the static layer draws them at ``geo`` (roles ``edge`` and the mark's)."""
    size = round(EDGE_SIZE * geo.radius)
    return [Label.at(("edge", mark.role), mark.text, size, xy, anchor=anchor)
            for mark, xy, anchor in placed_edge_marks(geo)]


@lru_cache(maxsize=8)
def static_layer(scale: float, colours: tuple[str, str] = ("white", "black")) -> Image.Image:
    """Returns the background, both boards' hexes, their tints, the edge labels and the legend (cached).

    Callers must copy the image before drawing on it.
    """
    small = Geometry(scale)
    geo = Geometry(scale * SUPERSAMPLE)
    big = Image.new("RGB", (small.width * SUPERSAMPLE, small.height * SUPERSAMPLE), BACKGROUND)
    draw = ImageDraw.Draw(big)
    r = geo.radius
    tints = board_colours(colours)
    for h in CELL_NAMES:
        fill, outline = tints[home_of(h)]
        x, y = geo.point(h)
        draw.polygon(hex_points(x, y, r), fill=outline)
        draw.polygon(hex_points(x, y, r - 2.2 * geo.scale), fill=fill)
    label_font = font(round(EDGE_SIZE * r))
    for mark, xy, anchor in placed_edge_marks(geo):  # no names in the cells: unreadable in the preview
        draw.text(xy, mark.text, fill=MUTED, font=label_font, anchor=anchor)
    draw_legend(big, geo.width, geo.height - geo.footer, geo.footer, r, 0.48 * r,
                (WHITE_TILE.fill, WHITE_TILE.border), tints[0][0])
    return big.reduce(SUPERSAMPLE)


def legend_labels_big(scale: float) -> list[Label]:
    """Returns the legend's words as the static layer draws them, before it is reduced."""
    geo = Geometry(scale * SUPERSAMPLE)
    return [label for _, _, label in legend_labels(geo.width, geo.height - geo.footer, geo.footer, geo.radius)]


def static_labels_big(scale: float) -> list[Label]:
    """Returns every text of the static layer (edge labels, then the legend's words), before it is reduced."""
    return [*edge_labels(Geometry(scale * SUPERSAMPLE)), *legend_labels_big(scale)]


@lru_cache(maxsize=512)
def tile(
    style: TileStyle,
    scale: float,
    facing: str,
    arrows: tuple[str, ...],
    dots: int,
    corners: tuple[str, ...],
    immune: bool,
) -> Image.Image:
    """Returns an RGBA ship tile centred in a square of one hex diameter (cached per kind).

    Arrows point out of their sides (the front one larger, with a bar: the facing notch),
    ``dots`` pips spread over the other sides, bold wedges at ``corners``, and a ring for an
    immune ship (the Merchant). The middle is left clear for the ship's letter, which the
    picture writes over the tile (:func:`render.nxs.draw`).
    """
    s = SUPERSAMPLE * 2
    r = RADIUS * scale * s
    size = math.ceil(2 * RADIUS * scale) * s
    c = size / 2
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    t = 0.88 * r  # tile circumradius
    a = t * math.sqrt(3) / 2  # tile apothem
    draw.polygon(hex_points(c, c, t), fill=style.border)
    draw.polygon(hex_points(c, c, t - 0.05 * r), fill=style.fill)
    for name in corners:
        ang = CORNER_ANGLE[name]
        outer = t - 0.04 * r
        draw.polygon(
            [
                _polar(c, c, outer, ang),
                _along(c, outer, ang, ang + 60, 0.34),
                _polar(c, c, 0.6 * t, ang),
                _along(c, outer, ang, ang - 60, 0.34),
            ],
            fill=style.ink,
        )
    for name in arrows:
        ang = SIDE_ANGLE[name]
        front = name == facing
        base, half = (0.56 * a, 0.19 * t) if front else (0.6 * a, 0.14 * t)
        bx, by = _polar(c, c, base, ang)
        draw.polygon(
            [_polar(c, c, 0.93 * a, ang), _polar(bx, by, half, ang + 90), _polar(bx, by, half, ang - 90)],
            fill=style.ink,
        )
        if front:  # the facing mark: a shaft behind the front arrow
            draw.line(  # clear of the ship's letter in the middle
                [_polar(c, c, 0.46 * a, ang), _polar(c, c, 0.62 * a, ang)], fill=style.ink, width=round(0.09 * t)
            )
    plain = [d for d in DIRECTIONS if d not in arrows]
    pips = [0] * len(plain)
    for i in range(dots):
        if plain:
            pips[i % len(plain)] += 1
    for name, n in zip(plain, pips, strict=True):
        ang = SIDE_ANGLE[name]
        px, py = _polar(c, c, 0.72 * a, ang)
        for k in range(n):
            off = (k - (n - 1) / 2) * 0.17 * t
            x, y = _polar(px, py, off, ang + 90)
            d = 0.075 * t
            draw.ellipse((x - d, y - d, x + d, y + d), fill=style.ink)
    if immune:  # a ring round the ship's letter
        rad = 0.44 * t
        draw.ellipse((c - rad, c - rad, c + rad, c + rad), outline=style.ink, width=round(0.05 * t))
    return img.reduce(s)


def _along(c: float, radius: float, a0: float, a1: float, frac: float) -> tuple[float, float]:
    """Returns the point ``frac`` of the way along the hex edge from corner ``a0`` to corner ``a1``."""
    x0, y0 = _polar(c, c, radius, a0)
    x1, y1 = _polar(c, c, radius, a1)
    return (x0 + (x1 - x0) * frac, y0 + (y1 - y0) * frac)
