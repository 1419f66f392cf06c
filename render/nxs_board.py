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
from engines.nxs.board import CELL_NAMES, CELLS, COLUMNS, FIRST_Q, cell_hex, home_of
from engines.nxs.hexes import DIRECTIONS
from render.common import BACKGROUND, MUTED, Colour, Label, font, player_style
from render.nxs_marks import draw_legend, hex_points, legend_labels

RADIUS = 64
"""Circumradius of a board hex at scale 1 (the default picture is about 1500 px wide)."""
HEADER = 140
"""Height of the player panel above the boards, at scale 1."""
FOOTER = 74
"""Height of the legend strip below the boards, at scale 1."""
EDGE_SIZE = 0.56
"""Font size of the column letters and rank numbers, as a fraction of the hex radius."""
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


def _edge_labels(geo: Geometry) -> list[tuple[tuple[float, float], str]]:
    """Returns column letters (top and bottom rows) and ranks (outer sides) with positions."""
    r = geo.radius
    labels: list[tuple[tuple[float, float], str]] = []
    top = geo.origin[1] - 6.55 * r
    bottom = geo.origin[1] + 7.4 * r
    for i, letter in enumerate(COLUMNS):
        x = geo.point((FIRST_Q + i, 0))[0]
        labels += [((x, top), letter), ((x, bottom), letter)]
    # A rank runs along r (left half of A: continue NW) or along q + r (right half of B:
    # continue NE), so each rank is labelled just past its outermost hex on that line.
    for columns, pick, step in (("abcd", min, (-1, 0)), ("klmn", max, (1, -1))):
        for rank in range(1, 8):
            row = [CELLS[f"{col}{rank}"] for col in columns if f"{col}{rank}" in CELLS]
            h = pick(row, key=lambda hx: hx[0])
            labels.append((geo.point((h[0] + 0.66 * step[0], h[1] + 0.66 * step[1])), str(rank)))
    return labels


@lru_cache(maxsize=8)
def static_layer(scale: float, colours: tuple[str, str] = ("white", "black")) -> Image.Image:
    """Returns the background, both boards' hexes, their tints and all cell names (cached).

    Callers must copy the image before drawing on it.
    """
    small = Geometry(scale)
    geo = Geometry(scale * SUPERSAMPLE)
    big = Image.new("RGB", (small.width * SUPERSAMPLE, small.height * SUPERSAMPLE), BACKGROUND)
    draw = ImageDraw.Draw(big)
    r = geo.radius
    tints = board_colours(colours)
    for h, name in CELL_NAMES.items():
        fill, outline = tints[home_of(h)]
        x, y = geo.point(h)
        draw.polygon(hex_points(x, y, r), fill=outline)
        draw.polygon(hex_points(x, y, r - 2.2 * geo.scale), fill=fill)
        ink = tuple(int(c * 0.72) for c in fill) if home_of(h) == 0 else tuple(min(255, c + 52) for c in fill)
        draw.text((x, y + 0.5 * r), name, fill=ink, font=font(round(0.22 * r)), anchor="mm")
    label_font = font(round(EDGE_SIZE * r))
    for (x, y), text in _edge_labels(geo):
        draw.text((x, y), text, fill=MUTED, font=label_font, anchor="mm")
    draw_legend(big, geo.width, geo.height - geo.footer, geo.footer, r, 0.48 * r,
                (WHITE_TILE.fill, WHITE_TILE.border), tints[0][0])
    return big.reduce(SUPERSAMPLE)


def legend_labels_big(scale: float) -> list[Label]:
    """Returns the legend's words as the static layer draws them, before it is reduced."""
    geo = Geometry(scale * SUPERSAMPLE)
    return [label for _, _, label in legend_labels(geo.width, geo.height - geo.footer, geo.footer, geo.radius)]


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
