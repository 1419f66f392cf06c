"""The XISK picture's pieces that never change: the felt, its labels and the disc sprites.

Everything here is built once per process and cached, in full colour;
:mod:`render.xisk_palette` maps it to the shared palette once, and :mod:`render.xisk`
copies that for each picture. The map's own coordinates are scaled to a picture
:data:`PICTURE_WIDTH` wide (:func:`picture_board`), and the panel lies below it, so that the
whole is near 4:3 and Discord's narrow preview is not a strip::

    >>> layer = static_layer()
    >>> layer.image.size == (PICTURE_WIDTH, layer.board.canvas[1] + PANEL_HEIGHT) == (800, 600)
    True

Sizes are written as they were designed, for a picture :data:`DESIGN_WIDTH` wide, and
scaled to the picture with :func:`px` (lengths) and :func:`text_px` (font sizes, rounded up
so a text never reads smaller than designed)::

    >>> px(21), text_px(27)
    (15, 20)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations

from PIL import Image, ImageDraw, ImageFilter

from engines.xisk.board import Board, load_board
from render.common import BACKGROUND, INK, MUTED, NEUTRAL, PANEL, Colour, Label, font, player_style

DESIGN_WIDTH = 1100
"""Width of the picture the sizes in this module and :mod:`render.xisk_panel` are written for."""
PICTURE_WIDTH = 800
"""Width of the picture as sent: Discord shows it about 550 px wide, so drawn 800 px wide it is
shrunk by a third, and every text keeps the size it was designed to have there.

A wider picture reads no better in the preview (its texts grow with it) but costs more bytes and
time: drawn 1100 px wide each move was 1.8× the bytes (``bench/bytes.py``), at 1600 px 3×."""
SCALE = PICTURE_WIDTH / DESIGN_WIDTH
"""Picture pixels per design pixel."""


def px(length: float) -> int:
    """Returns a design length in picture pixels, rounded (never below one for a positive length)."""
    return max(1, round(length * SCALE)) if length > 0 else round(length * SCALE)


def text_px(size: float) -> int:
    """Returns a design font size in picture pixels, rounded up (a text may read larger, never smaller)."""
    return math.ceil(size * SCALE - 1e-9)


PANEL_HEIGHT = px(137)
"""Height of the panel below the map (a 1600×1000 map, drawn 800×500, makes an 800×600 picture, 4:3)."""
RADIUS = px(21)
"""Radius of a country's disc, in pixels (room for a two-digit count legible in the preview)."""
BADGE = text_px(10)
"""Radius of the owner's letter badge on a disc's upper left (rounded up like a font size: it holds a letter)."""
BADGE_OFFSET = 0.8
"""The badge's centre lies this fraction of the radius left of and above the disc's centre."""
CHIP_SIZE = text_px(27)
"""Font size of a chip count of one or two digits (at 550 px wide its digits are over 9 px tall)."""
NAME_SIZE = text_px(11)
"""Font size of the country's full name, under its code (a key for the eye; moves take the code)."""
CODE_SIZE = text_px(27)
"""Font size of a country's code (its capitals are over 9 px tall at 550 px wide)."""
CODE_BOLD = 1
"""Stroke, in the code's own ink, that makes it bold."""
CODE_HALO = px(3)
"""Width of the dark halo around a code, so it reads over any tint, line or arrow."""
SUPERSAMPLE = 4
"""Sprites are drawn this many times larger, then shrunk, for smooth edges."""
REGION_LEVELS = 1
"""Steps of a continent's edge: one, a flat tint with a smooth outline (each soft step cost about 4% of the bytes)."""
REGION_ALPHA = 64
"""Opacity (of 255) of a continent's tint at its core."""
NEUTRAL_OWNER = "neutral"
"""The owner name the engine gives neutral countries."""

OUTLINE: Colour = (14, 16, 20)
EMPTY_RING: Colour = (190, 196, 206)
UNCLAIMED: Colour = (26, 29, 36)
NEUTRAL_RING: Colour = (250, 250, 250)
INTER_EDGE: Colour = (128, 134, 146)
RULE: Colour = (70, 76, 90)
LABEL: Colour = (225, 228, 234)
CODE_INK: Colour = (250, 250, 250)
LEGEND: Colour = (215, 218, 226)

CONTINENT_COLOURS: dict[str, Colour] = {
    "yellow": (214, 180, 40),
    "cyan": (40, 178, 200),
    "blue": (70, 110, 225),
    "red": (210, 64, 64),
    "green": (60, 170, 80),
    "magenta": (190, 70, 180),
}
"""The continents' colour names (from the map file) as RGB."""


def continent_colour(name: str) -> Colour:
    """Returns the RGB colour for a continent colour name (grey for an unknown name)."""
    return CONTINENT_COLOURS.get(name, (150, 150, 150))


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """Returns the colour ``t`` of the way from ``a`` to ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


@dataclass(frozen=True)
class StaticLayer:
    """The felt drawn once: the image, the board, and where each name went."""

    board: Board
    image: Image.Image
    labels: dict[str, tuple[int, int, int, int]]
    """Country → the box (left, top, right, bottom) of its code and name, halo included."""
    texts: tuple[Label, ...]
    """Each country's code (role ``code``) and name (role ``name``) as drawn: ink boxes without the halo."""
    label_mask: Image.Image
    """Where the names are (white), to lay them back over a mark drawn across them."""

    @property
    def map_width(self) -> int:
        """Returns the width of the map (and of the picture)."""
        return self.board.canvas[0]

    @property
    def map_height(self) -> int:
        """Returns the height of the map part (the panel starts there)."""
        return self.board.canvas[1]


def chip_point(xy: tuple[float, float]) -> tuple[float, float]:
    """Returns where a chip count is anchored (``mm``) on the disc centred at ``xy``: a pixel right and down,
    which centres the digits' ink."""
    return xy[0] + 1, xy[1] + 1


def chip_label(xy: tuple[float, float], text: str) -> Label:
    """Returns the chip count ``text`` as drawn on the disc centred at ``xy`` (three digits shrink)."""
    size = CHIP_SIZE if len(text) <= 2 else text_px(20)
    return Label.at("chips", text, size, chip_point(xy), anchor="mm", stroke=1)


def is_wrapped(board: Board, a: str, b: str) -> bool:
    """Returns True for a line that leaves one map edge and comes back at the other."""
    return abs(board.positions[a][0] - board.positions[b][0]) > board.canvas[0] / 2


def wrap_stub(board: Board, a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """Returns the stub of the wrapped line ``a``–``b`` that leaves ``a`` for the map edge."""
    (ax, ay), (bx, by) = board.positions[a], board.positions[b]
    width = board.canvas[0]
    bx = bx - width if bx > ax else bx + width
    edge = 0.0 if bx < ax else float(width)
    t = (edge - ax) / (bx - ax)
    return (ax, ay), (edge, ay + (by - ay) * t)


def _regions(board: Board, base: Image.Image) -> None:
    """Shades each continent softly: a blurred union of its discs, inner lines and triangles."""
    scale = 4
    w, h = board.canvas
    for cont in board.continents.values():
        mask = Image.new("L", (w // scale, h // scale), 0)
        draw = ImageDraw.Draw(mask)
        r = px(43) / scale
        for c in cont.countries:
            x, y = board.positions[c]
            draw.ellipse((x / scale - r, y / scale - r, x / scale + r, y / scale + r), fill=255)
        for a, b in board.edges:
            if board.continent_of[a] == board.continent_of[b] == cont.id:
                (ax, ay), (bx, by) = board.positions[a], board.positions[b]
                draw.line((ax / scale, ay / scale, bx / scale, by / scale), fill=255, width=round(px(48) / scale))
        for a, b, c in combinations(cont.countries, 3):
            if board.adjacent(a, b) and board.adjacent(b, c) and board.adjacent(a, c):
                draw.polygon([(board.positions[k][0] / scale, board.positions[k][1] / scale) for k in (a, b, c)],
                             fill=255)
        mask = mask.filter(ImageFilter.GaussianBlur(px(15) / scale)).resize((w, h), Image.Resampling.BILINEAR)
        mask = mask.point(lambda v: min(REGION_LEVELS, v * (REGION_LEVELS + 1) // 256) * REGION_ALPHA // REGION_LEVELS)
        tint = Image.new("RGB", (w, h), continent_colour(cont.colour))
        region = base.crop((0, 0, w, h))
        region.paste(tint, (0, 0), mask)
        base.paste(region, (0, 0))


def _edges(board: Board, draw: ImageDraw.ImageDraw) -> None:
    """Draws the lines: a continent's colour inside it, grey between continents."""
    inner = [(a, b) for a, b in board.edges if board.continent_of[a] == board.continent_of[b]]
    between = [(a, b) for a, b in board.edges if board.continent_of[a] != board.continent_of[b]]
    for a, b in between + inner:
        same = board.continent_of[a] == board.continent_of[b]
        colour = mix(continent_colour(board.continents[board.continent_of[a]].colour), (255, 255, 255), 0.15) \
            if same else INTER_EDGE
        width = px(3) if same else px(2)
        if is_wrapped(board, a, b):
            for src, dst in ((a, b), (b, a)):
                start, end = wrap_stub(board, src, dst)
                draw.line((*start, *end), fill=colour, width=width)
                _chevron(draw, start, end, colour)
        else:
            draw.line((*board.positions[a], *board.positions[b]), fill=colour, width=width)


def _chevron(draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float], colour: Colour) -> None:
    """Draws a small arrowhead at a stub's end, so the line reads as going on."""
    angle = math.atan2(end[1] - start[1], end[0] - start[0])
    back, wing = px(3), px(11)
    tip = (end[0] - back * math.cos(angle), end[1] - back * math.sin(angle))
    pts = [tip] + [(tip[0] - wing * math.cos(angle + s), tip[1] - wing * math.sin(angle + s)) for s in (0.5, -0.5)]
    draw.polygon(pts, fill=colour)


def _wrap_name(name: str, draw: ImageDraw.ImageDraw) -> str:
    """Returns the name split over two lines at the space nearest its middle when it is long."""
    if draw.textlength(name, font=font(NAME_SIZE)) <= px(90) or " " not in name:
        return name
    spaces = [i for i, ch in enumerate(name) if ch == " "]
    cut = min(spaces, key=lambda i: abs(i - len(name) / 2))
    return name[:cut] + "\n" + name[cut + 1:]


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """Returns the area two boxes share (0 when apart)."""
    dx = min(a[2], b[2]) - max(a[0], b[0])
    dy = min(a[3], b[3]) - max(a[1], b[1])
    return dx * dy if dx > 0 and dy > 0 else 0.0


def _code_block(board: Board, c: str, draw: ImageDraw.ImageDraw) -> tuple[str, tuple[int, int, int, int],
                                                                        str, tuple[int, int, int, int]]:
    """Returns a country's code and name (wrapped) with their boxes, halos included, at the origin."""
    code = board.codes[c]
    cb = font(CODE_SIZE).getbbox(code, stroke_width=CODE_HALO)
    name = _wrap_name(board.names[c], draw)
    nb = draw.multiline_textbbox((0, 0), name, font=font(NAME_SIZE), spacing=0, align="center", stroke_width=2)
    return code, cb, name, nb  # type: ignore[return-value]


def place_labels(board: Board, draw: ImageDraw.ImageDraw, mask: ImageDraw.ImageDraw | None = None
                 ) -> tuple[dict[str, tuple[int, int, int, int]], tuple[Label, ...]]:
    """Writes each country's code, its name small below, where they hide no disc or other code (greedily).

    Returns each country's block box, and the labels of the codes and names (ink boxes, without halo).
    ``mask``, when given, receives the blocks' coverage (with their dark halo) in white.
    """
    obstacles: list[tuple[float, float, float, float]] = []
    for x, y in board.positions.values():
        obstacles.append((x - RADIUS - 2, y - RADIUS - 2, x + RADIUS + 2, y + RADIUS + 2))
    for a, b in board.edges:
        if is_wrapped(board, a, b):
            for src, dst in ((a, b), (b, a)):
                (sx, sy), (ex, ey) = wrap_stub(board, src, dst)
                obstacles.append((min(sx, ex), min(sy, ey) - px(10), max(sx, ex), max(sy, ey) + px(7)))
    w, h = board.canvas
    placed: dict[str, tuple[int, int, int, int]] = {}
    texts: list[Label] = []
    gap = 1
    for c in board.countries:
        x, y = board.positions[c]
        own = (x - RADIUS - 2, y - RADIUS - 2, x + RADIUS + 2, y + RADIUS + 2)
        bx = by = RADIUS * BADGE_OFFSET
        badge = (x - bx - BADGE - 2, y - by - BADGE - 2, x - bx + BADGE + 2, y - by + BADGE + 2)
        code, cb, name, nb = _code_block(board, c, draw)
        cw, ch = cb[2] - cb[0], cb[3] - cb[1]
        nw, nh = nb[2] - nb[0], nb[3] - nb[1]
        tw, th = max(cw, nw), ch + nh - px(3)
        r = RADIUS + gap
        candidates = [
            (x + r, y - th / 2), (x + r, y - ch / 2 - px(3)), (x + r, y - th + ch / 2 + px(3)),  # right
            (x - tw / 2, y + r),  # below
            (x - r - tw, y - th / 2), (x - r - tw, y - ch / 2 - px(3)), (x - r - tw, y - th + ch / 2 + px(3)),  # left
            (x - tw / 2, y - r - th),  # above
            (x + RADIUS * 0.6, y + RADIUS * 0.75), (x - RADIUS * 0.6 - tw, y + RADIUS * 0.75),  # below, aside
            (x + RADIUS * 0.6, y - RADIUS * 0.75 - th), (x - RADIUS * 0.6 - tw, y - RADIUS * 0.75 - th),
        ]
        best, best_cost = candidates[0], math.inf
        for cx, cy in candidates:
            box = (cx, cy, cx + tw, cy + th)
            cost = sum(_overlap(box, o) for o in obstacles if o != own) + _overlap(box, badge)
            if box[0] < 2 or box[1] < 2 or box[2] > w - 2 or box[3] > h - px(43):
                cost += 1e6
            if cost < best_cost:
                best, best_cost = (cx, cy), cost
            if cost == 0:
                break
        left, top = best
        obstacles.append((left, top, left + tw, top + th))
        placed[c] = (math.floor(left), math.floor(top), math.ceil(left + tw), math.ceil(top + th))
        code_xy = (left + (tw - cw) / 2 - cb[0], top - cb[1])
        name_xy = (left + (tw - nw) / 2 - nb[0], top + ch - px(3) - nb[1])
        for pen, ink, halo in ((draw, CODE_INK, OUTLINE), (mask, 255, 255)):
            if pen is None:
                continue
            pen.multiline_text(name_xy, name, font=font(NAME_SIZE), fill=LABEL if pen is draw else 255, spacing=0,
                               align="center", stroke_width=2, stroke_fill=BACKGROUND if pen is draw else 255)
            pen.text(code_xy, code, font=font(CODE_SIZE), fill=halo, stroke_width=CODE_HALO, stroke_fill=halo)
            pen.text(code_xy, code, font=font(CODE_SIZE), fill=ink, stroke_width=CODE_BOLD, stroke_fill=ink)
        texts.append(Label.at(("code", c), code, CODE_SIZE, code_xy, stroke=CODE_BOLD))
        name_box = draw.multiline_textbbox(name_xy, name, font=font(NAME_SIZE), spacing=0, align="center")
        texts.append(Label(("name", c), name, NAME_SIZE, name_box))
    return placed, tuple(texts)


def _legend(board: Board, draw: ImageDraw.ImageDraw) -> None:
    """Draws the continents with their bonus along the map's foot."""
    w, h = board.canvas
    conts = list(board.continents.values())
    step = (w - px(28)) / len(conts)
    for i, cont in enumerate(conts):
        x, y = px(16) + i * step, h - px(32)
        draw.rounded_rectangle((x, y, x + px(21), y + px(21)), radius=px(4), fill=continent_colour(cont.colour))
        draw.text((x + px(28), y + px(10)), f"{cont.name} +{cont.bonus}", font=font(text_px(17)), fill=LEGEND,
                  anchor="lm")


def build_static_layer(board: Board) -> StaticLayer:
    """Returns the felt for ``board`` drawn from scratch: regions, lines, names, legend, panel."""
    w, h = board.canvas
    image = Image.new("RGB", (w, h + PANEL_HEIGHT), BACKGROUND)
    _regions(board, image)
    draw = ImageDraw.Draw(image)
    _edges(board, draw)
    label_mask = Image.new("L", (w, h), 0)
    labels, texts = place_labels(board, draw, ImageDraw.Draw(label_mask))
    _legend(board, draw)
    draw.rectangle((0, h, w, h + PANEL_HEIGHT), fill=PANEL)
    draw.line((0, h, w, h), fill=RULE, width=1)
    return StaticLayer(board, image, labels, texts, label_mask)


@lru_cache(maxsize=1)
def static_layer() -> StaticLayer:
    """Returns the felt of the standard map, drawn once per process (never modify its image)."""
    return build_static_layer(picture_board(load_board()))


def picture_board(board: Board, width: int = PICTURE_WIDTH) -> Board:
    """Returns ``board`` with its positions and canvas scaled to a picture ``width`` pixels wide.

    >>> picture_board(load_board()).canvas
    (800, 500)
    """
    k = width / board.canvas[0]
    return replace(board, positions={c: (round(x * k), round(y * k)) for c, (x, y) in board.positions.items()},
                   canvas=(width, round(board.canvas[1] * k)))


@dataclass(frozen=True)
class DiscStyle:
    """How a disc looks: fill (None for an empty ring), ring colour, badge letter and shape."""

    fill: Colour | None
    ring: Colour
    mark: str
    mark_ink: Colour
    square: bool = False
    double_ring: bool = False


def neutral_style() -> DiscStyle:
    """Returns the neutral disc: grey with a white double ring and a square 'N' badge."""
    return DiscStyle(NEUTRAL, NEUTRAL_RING, "N", (20, 20, 20), square=True, double_ring=True)


def empty_style() -> DiscStyle:
    """Returns the unclaimed country: a dark disc in a dashed ring, with no badge."""
    return DiscStyle(None, EMPTY_RING, "", MUTED)


@lru_cache(maxsize=64)
def disc_sprite(style: DiscStyle, radius: int = RADIUS, badge: int = BADGE) -> Image.Image:
    """Returns an antialiased RGBA sprite of a disc; its centre is the sprite's centre."""
    s = SUPERSAMPLE
    half = radius + badge // 2 + 3
    size = 2 * half
    big = Image.new("RGBA", (size * s, size * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c = half * s
    r = radius * s
    if style.fill is None:
        draw.ellipse((c - r, c - r, c + r, c + r), fill=(*UNCLAIMED, 255))
        dash = 12
        for k in range(dash):
            start = k * 360 / dash
            draw.arc((c - r + s, c - r + s, c + r - s, c + r - s), start, start + 360 / dash * 0.6,
                     fill=(*style.ring, 255), width=round(3 * SCALE * s))
    else:
        draw.ellipse((c - r, c - r, c + r, c + r), fill=(*OUTLINE, 255))
        if style.double_ring:
            ring = round(1.5 * SCALE * s)
            draw.ellipse((c - r + ring, c - r + ring, c + r - ring, c + r - ring), fill=(*style.ring, 255))
            inner = round(4 * SCALE * s)
        else:
            inner = round(2 * SCALE * s)
        draw.ellipse((c - r + inner, c - r + inner, c + r - inner, c + r - inner), fill=(*style.fill, 255))
    if style.mark:
        bx = by = c - round(radius * BADGE_OFFSET * s)
        b = badge * s
        box = (bx - b, by - b, bx + b, by + b)
        edge = round(1.5 * SCALE * s)
        if style.square:
            draw.rectangle(box, fill=(*OUTLINE, 255))
            draw.rectangle((box[0] + edge, box[1] + edge, box[2] - edge, box[3] - edge), fill=(*style.ring, 255))
        else:
            draw.ellipse(box, fill=(*OUTLINE, 255))
            draw.ellipse((box[0] + edge, box[1] + edge, box[2] - edge, box[3] - edge), fill=(250, 250, 250, 255))
        ink = (*style.mark_ink, 255)  # a half-pixel stroke keeps the small letter bold
        draw.text((bx, by + s), style.mark, font=font(round(badge * 1.45) * s), fill=ink, anchor="mm",
                  stroke_width=s // 2, stroke_fill=ink)
    return big.reduce(s)


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
