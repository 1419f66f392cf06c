"""The ``/nexo show <unit>`` overlay: one unit's Move and Dash reach, weapon ranges and sight lines.

The engine describes what to show as a dict (every key optional; unknown ids, malformed
entries and missing keys draw nothing, so a stale overlay never breaks a picture)::

    {"unit": "a3", "cell": 1.0,
     "move": [[x, y], ...],   # centres (inches) of cell × cell squares a Move can end in
     "dash": [[x, y], ...],   # centres of squares only a Dash reaches
     "ranges": [{"weapon": "rifle", "range": 24.0, "melee": False}, ...],
     "sight": [{"target": "b2", "cover": "none" | "light" | "heavy", "in_range": True}, ...]}

Drawn in three passes by :mod:`render.nexo`: :func:`draw_under` (above the terrain, below
buildings: Move squares shaded in the owner's colour, Dash squares lighter and hatched, the
Move area's outline, each weapon's range as a dashed ring of radius range + base radius, a
melee reach solid), :func:`draw_lines` (below tags and tokens: sight lines coloured by
cover, dotted when out of range, and a gold ring round the unit) and :func:`draw_labels`
(above everything: the rings' ``rifle 24"`` labels and ``light``/``heavy`` at the targets'
ends), plus :func:`draw_key` in the side panel. The shading is one alpha mask on a layer of
the owner's colour, alpha-composited onto the squares' bounding box only (the rest of the RGB
picture is never converted).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from render.common import INK, MUTED, Box, Colour, Labels, PlayerStyle, ink_box, player_style
from render.nexo_field import FIELD, Geometry, base_radius, px, text_length, token_radius, write

__all__ = ["COVER", "Shown", "draw_key", "draw_labels", "draw_lines", "draw_under", "shown"]

COVER: dict[str, Colour] = {"none": (90, 220, 110), "light": (255, 196, 40), "heavy": (240, 64, 56)}
"""Sight line colour by the target's cover (green none, amber light, red heavy)."""
REACH: Colour = (232, 64, 214)
"""The shown unit's Move and Dash shading and its rings: magenta, apart from both deployment zones'
tints (amber and sky blue), the field, the depots' turquoise and the cover colours."""
RING = REACH
"""The shown unit's highlight rings."""
RANGE_INK: Colour = (236, 238, 242)
CASING: Colour = (0, 0, 0)
MOVE_ALPHA = 110
"""Opacity (of 255) of a Move square's tint."""
DASH_ALPHA = 45
"""Opacity of a Dash square's tint, under its hatching."""
HATCH_ALPHA = 200
"""Opacity of the Dash hatching's lines (the mask :func:`_hatching` draws them at)."""
EDGE_ALPHA = 235
"""Opacity of the Move area's outline."""
HATCH_STEP = 7
"""Pixels between the Dash hatching's diagonals."""
MELEE_REACH = 1.0
"""Fight reach (house ruling 7: 1" edge to edge) when a melee weapon gives no range."""
RANGE_SIZE = px(40)
"""Font size of a range ring's label: its digits are ≥ 9 px tall in the 550-px preview."""
COVER_SIZE = px(36)
KEY_SIZE = px(30)
KEY_HEIGHT = px(56 + 5 * 44)
"""Height in pixels of the panel's caption (:func:`draw_key`)."""
@dataclass
class Shown:
    """An overlay checked against the view: only what can be drawn."""

    unit: str
    centre: tuple[float, float]
    """The unit's centre, picture pixels."""
    token: float
    """The unit's disc radius, picture pixels."""
    base: float
    """The unit's base radius, inches."""
    style: PlayerStyle
    cell: float
    move: list[tuple[float, float]] = field(default_factory=list)
    dash: list[tuple[float, float]] = field(default_factory=list)
    ranges: list[tuple[str, float, bool]] = field(default_factory=list)
    """(weapon, range in inches, melee)."""
    sight: list[tuple[tuple[float, float], float, str, bool]] = field(default_factory=list)
    """(target centre px, target disc radius px or 0, cover, in range)."""
    obstacles: list[Box] = field(default_factory=list)
    """Where the tags and the models are (labels avoid them); set by :func:`render.nexo.draw`."""


def _number(value: Any) -> float | None:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def _points(raw: Any) -> list[tuple[float, float]]:
    out = []
    for item in raw if isinstance(raw, (list, tuple)) else ():
        if isinstance(item, (list, tuple)) and len(item) >= 2:
            x, y = _number(item[0]), _number(item[1])
            if x is not None and y is not None:
                out.append((x, y))
    return out


def shown(view: dict[str, Any], overlay: Any, geo: Geometry,
          styles: dict[str, tuple[int, PlayerStyle]]) -> Shown | None:
    """Returns the drawable part of ``overlay``, or None when it names no model of the view."""
    if not isinstance(overlay, dict):
        return None
    models = view.get("models") or {}
    unit = overlay.get("unit")
    m = models.get(unit) if isinstance(unit, str) else None
    if not isinstance(m, dict) or _number(m.get("x")) is None or _number(m.get("y")) is None:
        return None
    cell = _number(overlay.get("cell"))
    st = styles.get(str(m.get("owner")), (0, player_style(0)))[1]
    out = Shown(str(unit), geo.to_px(float(m["x"]), float(m["y"])), token_radius(m, geo), base_radius(m), st,
                cell if cell and cell > 0 else 1.0, _points(overlay.get("move")), _points(overlay.get("dash")))
    for r in overlay.get("ranges") or ():
        if not isinstance(r, dict):
            continue
        melee = bool(r.get("melee"))
        reach = _number(r.get("range"))
        reach = MELEE_REACH if reach is None and melee else reach
        if reach is not None and reach >= 0:
            out.ranges.append((str(r.get("weapon") or ("melee" if melee else "weapon")), reach, melee))
    buildings = view.get("buildings") or {}
    for s in overlay.get("sight") or ():
        target = s.get("target") if isinstance(s, dict) else None
        thing = models.get(target) or buildings.get(target) if isinstance(target, str) else None
        if not isinstance(thing, dict) or _number(thing.get("x")) is None or _number(thing.get("y")) is None:
            continue
        cover = str(s.get("cover") or "none")
        end = token_radius(thing, geo) if target in models else 0.0
        out.sight.append((geo.to_px(float(thing["x"]), float(thing["y"])), end, cover if cover in COVER else "none",
                          s.get("in_range", True) is not False))
    return out


# -- under buildings and tokens: reach and ranges ----------------------------------------

def _square(geo: Geometry, x: float, y: float, half: float) -> tuple[int, int, int, int]:
    """Returns a square's pixel box (left, top, right, bottom; right and bottom exclusive)."""
    (left, top), (right, bottom) = geo.to_px(x + half, y - half), geo.to_px(x - half, y + half)
    return round(left), round(top), round(right), round(bottom)


@lru_cache(maxsize=4)
def _hatching(width: int, height: int) -> Image.Image:
    """Returns a picture-sized mask of diagonal lines at :data:`HATCH_ALPHA` (lining up across squares)."""
    mask = Image.new("L", (width, height), 0)
    pen = ImageDraw.Draw(mask)
    for k in range(-height, width, HATCH_STEP):
        pen.line((k, height, k + height, 0), fill=HATCH_ALPHA, width=2)
    return mask


def _reach(image: Image.Image, geo: Geometry, sh: Shown) -> None:
    """Tints the Move squares, outlines their area and hatches the Dash squares in the owner's colour.

    One alpha mask of the squares' bounding box, put on a layer of the owner's colour and
    alpha-composited onto that box of the picture (the rest of the picture is not converted).
    The layer is cached per squares, cell, colour and battlefield (:func:`_reach_layer`), so
    showing the same unit again, or redrawing it, only composites.
    """
    made = _reach_layer(geo.width, geo.length, image.size, sh.cell, tuple(sh.move), tuple(sh.dash), REACH)
    if made is None:
        return
    region, layer = made
    base = image.crop(region).convert("RGBA")
    base.alpha_composite(layer)
    image.paste(base.convert("RGB"), region[:2])


@lru_cache(maxsize=32)
def _reach_layer(width: float, length: float, size: tuple[int, int], cell: float,
                 move_at: tuple[tuple[float, float], ...], dash_at: tuple[tuple[float, float], ...],
                 fill: Colour) -> tuple[tuple[int, int, int, int], Image.Image] | None:
    """Returns the reach's box in the picture and its RGBA layer (do not draw on it), or None when empty."""
    geo = Geometry(width, length)
    half = cell / 2
    move = [_square(geo, x, y, half) for x, y in move_at]
    dash = [_square(geo, x, y, half) for x, y in dash_at]
    boxes = move + dash
    if not boxes:
        return None
    x0, y0, x1, y1 = round(geo.left), round(geo.top), round(geo.left + geo.field_w), round(geo.top + geo.field_h)
    region = (max(x0, min(b[0] for b in boxes)), max(y0, min(b[1] for b in boxes)),
              min(x1, max(b[2] for b in boxes)), min(y1, max(b[3] for b in boxes)))
    w, h = region[2] - region[0], region[3] - region[1]
    if w <= 0 or h <= 0:
        return None
    ox, oy = region[:2]
    alpha = Image.new("L", (w, h), 0)
    pen = ImageDraw.Draw(alpha)
    if dash:
        for a, t, r, b in dash:
            pen.rectangle((a - ox, t - oy, r - ox - 1, b - oy - 1), fill=255)
        lines = ImageChops.multiply(alpha, _hatching(*size).crop(region))
        for a, t, r, b in dash:
            pen.rectangle((a - ox, t - oy, r - ox - 1, b - oy - 1), fill=DASH_ALPHA)
        alpha = ImageChops.lighter(alpha, lines)
        pen = ImageDraw.Draw(alpha)
    for a, t, r, b in move:
        pen.rectangle((a - ox, t - oy, r - ox - 1, b - oy - 1), fill=MOVE_ALPHA)
    keys = {_key(x, y, cell) for x, y in move_at}
    for (x, y), (a, t, r, b) in zip(move_at, move, strict=True):
        i, j = _key(x, y, cell)
        a, t, r, b = a - ox, t - oy, r - ox - 1, b - oy - 1
        for (di, dj), seg in (((1, 0), (a, t, r, t)), ((-1, 0), (a, b, r, b)),
                              ((0, -1), (a, t, a, b)), ((0, 1), (r, t, r, b))):
            if (i + di, j + dj) not in keys:
                pen.line(seg, fill=EDGE_ALPHA, width=2)
    layer = Image.new("RGB", (w, h), fill)
    layer.putalpha(alpha)
    return region, layer


def _key(x: float, y: float, cell: float) -> tuple[int, int]:
    return math.floor(x / cell + 1e-6), math.floor(y / cell + 1e-6)


def _mix(a: Colour, b: Colour, t: float) -> Colour:
    return tuple(round(x * (1 - t) + y * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def _inside(geo: Geometry, x: float, y: float) -> bool:
    return geo.left <= x <= geo.left + geo.field_w and geo.top <= y <= geo.top + geo.field_h


def _ring(pen: ImageDraw.ImageDraw, geo: Geometry, centre: tuple[float, float], radius: float,
          dashed: bool) -> None:
    """Draws a ring (dashed: 18-px dashes every 30 px) clipped to the battlefield, cased in black."""
    cx, cy = centre
    n = max(12, round(2 * math.pi * radius / 30)) if dashed else max(24, round(2 * math.pi * radius / 12))
    step = 2 * math.pi / n
    on = 0.6 * step if dashed else step
    strokes = []
    for i in range(n):
        a0 = i * step
        pts = [(cx + radius * math.cos(a0 + on * k / 3), cy - radius * math.sin(a0 + on * k / 3)) for k in range(4)]
        if all(_inside(geo, x, y) for x, y in (pts[0], pts[-1])):
            strokes.append(pts)
    for width, ink in ((7, CASING), (3, RANGE_INK)):
        for pts in strokes:
            pen.line(pts, fill=ink, width=width)


def draw_under(image: Image.Image, pen: ImageDraw.ImageDraw, geo: Geometry, sh: Shown) -> None:
    """Draws the reach squares and the range rings (above the terrain, below buildings and tokens)."""
    _reach(image, geo, sh)
    for _, reach, melee in sh.ranges:
        _ring(pen, geo, sh.centre, (reach + sh.base) * geo.s, dashed=not melee)


# -- below tags and tokens: sight lines and the unit's ring ----------------------------------

def _ends(sh: Shown, target: tuple[float, float], end: float) -> tuple[tuple[float, float], tuple[float, float]] | None:
    (ax, ay), (bx, by) = sh.centre, target
    span = math.dist(sh.centre, target)
    a, b = sh.token + 8, (end + 8) if end else 0.0
    if span <= a + b + 4:
        return None
    ux, uy = (bx - ax) / span, (by - ay) / span
    return (ax + ux * a, ay + uy * a), (bx - ux * b, by - uy * b)


def draw_lines(pen: ImageDraw.ImageDraw, geo: Geometry, sh: Shown) -> None:
    """Draws a line to each sighted target in its cover's colour (dotted when out of range) and the unit's ring."""
    for target, end, cover, in_range in sh.sight:
        ends = _ends(sh, target, end)
        if ends is None:
            continue
        (ax, ay), (bx, by) = ends
        colour = COVER[cover]
        if in_range:
            pen.line(ends, fill=CASING, width=8)
            pen.line(ends, fill=colour, width=4)
            continue
        span = math.dist(*ends)
        for k in range(int(span // 16) + 1):
            t = k * 16 / span
            x, y = ax + (bx - ax) * t, ay + (by - ay) * t
            pen.ellipse((x - 4, y - 4, x + 4, y + 4), fill=colour, outline=CASING, width=1)
    x, y = sh.centre
    for r in (sh.token + 8, sh.token + 8 + 0.9 * geo.s):  # two rings: the unit stands out in a cluster
        pen.ellipse((x - r - 2, y - r - 2, x + r + 2, y + r + 2), outline=CASING, width=8)
        pen.ellipse((x - r, y - r, x + r, y + r), outline=RING, width=4)


# -- above everything: labels -----------------------------------------------------------------

def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _fits(geo: Geometry, box: Box, taken: list[Box]) -> bool:
    return (_inside(geo, box[0], box[1]) and _inside(geo, box[2], box[3])
            and not any(_overlaps(box, o) for o in taken))


def _extent(text: str, size: int) -> Box:
    return ink_box(text, size, "mm", 3)


def _place(geo: Geometry, sh: Shown, text: str, radius: float, melee: bool, taken: list[Box]) -> tuple[float, float]:
    """Returns where a ring's label goes: on the ring (outside it for melee), clear of tags and labels."""
    left, top, right, bottom = _extent(text, RANGE_SIZE)
    order = (180, 0, 270, 225, 315, 135, 45, 90) if melee else (90, 270, 0, 180, 60, 120, 300, 240, 30, 150,
                                                                330, 210, 75, 105, 285, 255)
    fallback = None
    for deg in order:
        c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
        out = radius + (abs(c) * (right - left) / 2 + abs(s) * (bottom - top) / 2 + 6 if melee else 0)
        x, y = sh.centre[0] + out * c, sh.centre[1] - out * s
        box = (x + left, y + top, x + right, y + bottom)
        if fallback is None and _fits(geo, box, []):
            fallback = (x, y)
        if _fits(geo, box, taken):
            taken.append(box)
            return x, y
    return fallback or (sh.centre[0], sh.centre[1] + radius)


def _along(geo: Geometry, ends: tuple[tuple[float, float], tuple[float, float]], text: str,
           taken: list[Box]) -> tuple[float, float]:
    """Returns where a cover label goes: on its line, as near the target as is clear of tags and labels."""
    (ax, ay), (bx, by) = ends
    span = math.dist(*ends)
    left, top, right, bottom = _extent(text, COVER_SIZE)
    first = None
    for back in range(px(62), max(px(62) + 1, int(span) - px(40)), px(24)):
        x, y = bx + (ax - bx) * back / span, by + (ay - by) * back / span
        box = (x + left, y + top, x + right, y + bottom)
        first = first or (x, y)
        if _fits(geo, box, taken):
            taken.append(box)
            return x, y
    near = min(span / 2, px(62))
    return first or (bx + (ax - bx) * near / span, by + (ay - by) * near / span)


def draw_labels(pen: ImageDraw.ImageDraw, geo: Geometry, sh: Shown, labels: Labels | None) -> None:
    """Writes each ring's ``weapon range"`` and ``light``/``heavy`` near each covered target."""
    taken = list(sh.obstacles)
    for weapon, reach, melee in sorted(sh.ranges, key=lambda r: -r[1]):
        text = f'{weapon} {reach:g}"'
        xy = _place(geo, sh, text, (reach + sh.base) * geo.s, melee, taken)
        write(pen, labels, ("overlay", "range"), xy, text, RANGE_SIZE, RANGE_INK, anchor="mm", stroke=3,
              stroke_fill=CASING)
    for target, end, cover, _ in sh.sight:
        ends = _ends(sh, target, end)
        if ends is None or cover == "none":
            continue
        write(pen, labels, ("overlay", "cover"), _along(geo, ends, cover, taken), cover, COVER_SIZE, COVER[cover],
              anchor="mm", stroke=3, stroke_fill=CASING)


def draw_key(pen: ImageDraw.ImageDraw, sh: Shown, x0: float, y: float, labels: Labels | None) -> None:
    """Writes the panel's caption: ``Showing a3: move (shaded), dash (hatched), ranges, sight lines (cover)``."""
    write(pen, labels, ("overlay", "caption"), (x0, y), f"Showing {sh.unit}:", px(40), INK)
    y += px(56)
    tint = _mix(FIELD, REACH, MOVE_ALPHA / 255)
    light = _mix(FIELD, REACH, DASH_ALPHA / 255)
    hatch = _mix(light, REACH, HATCH_ALPHA / 255)
    rows: list[tuple[str, str]] = [("move", "move (shaded),"), ("dash", "dash (hatched),"), ("range", "ranges,"),
                                   ("sight", "sight lines (cover):")]
    for kind, text in rows:
        box = (x0 + px(8), y, x0 + px(40), y + px(32))
        if kind == "move":
            pen.rectangle(box, fill=tint, outline=REACH, width=2)
        elif kind == "dash":
            pen.rectangle(box, fill=light)
            for k in range(0, px(32), HATCH_STEP):
                pen.line((box[0] + k, box[3], box[2], box[1] + k), fill=hatch, width=2)
                pen.line((box[0], box[3] - k, box[2] - k, box[1]), fill=hatch, width=2)
        elif kind == "range":
            for a in (box[0], box[0] + px(12), box[0] + px(24)):
                pen.line((a, y + px(16), a + px(7), y + px(16)), fill=RANGE_INK, width=3)
        else:
            for k, colour in enumerate(COVER.values()):
                pen.line((box[0], y + px(6 + 10 * k), box[2], y + px(6 + 10 * k)), fill=colour, width=3)
        write(pen, labels, ("overlay", "legend"), (x0 + px(52), y + px(16)), text, KEY_SIZE, MUTED, anchor="lm")
        y += px(44)
    x = x0 + px(52)
    for cover, colour in COVER.items():
        write(pen, labels, ("overlay", "legend"), (x, y + px(16)), cover, KEY_SIZE, colour, anchor="lm")
        x += text_length(cover, KEY_SIZE) + px(24)
