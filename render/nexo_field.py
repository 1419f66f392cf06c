"""The Nexohominis battlefield's static layer: grid, labels, deployment zones, terrain and depots.

The battlefield is ``width`` × ``length`` inches (44" × 60"), drawn landscape: the engine's
``y`` (the long axis, player 1 deploys at small ``y``) runs left to right and its ``x``
runs bottom to top, so the picture is the battlefield turned a quarter, never mirrored.
Grid squares are 2": columns A–V along ``x`` (A at the bottom), rows 1–30 along ``y``::

    >>> geo = Geometry(44, 60)
    >>> geo.to_px(0, 0) == (geo.left, geo.top + geo.field_h)
    True
    >>> geo.cell(1.0, 1.0), geo.cell(43.9, 59.9)
    ('A1', 'V30')

The layer is built once per battlefield content (:func:`static_layer`, cached on a key made
of the size, zone, terrain and depots) and copied for each picture.

Texts drawn on every picture go through :func:`draw_text` and :func:`write`, which keep each
text's glyph mask (per font size, stroke, anchor and sub-pixel start) and ink box, so a tag
that did not change is blitted rather than rasterised again; the pixels are ``ImageDraw.text``'s::

    >>> a, b = Image.new("RGB", (90, 40)), Image.new("RGB", (90, 40))
    >>> ImageDraw.Draw(a).text((5.3, 20.6), "a12", font=font(30), fill=INK, anchor="lm", stroke_width=2,
    ...                        stroke_fill=(0, 0, 0))
    >>> draw_text(ImageDraw.Draw(b), (5.3, 20.6), "a12", 30, INK, anchor="lm", stroke=2, stroke_fill=(0, 0, 0))
    >>> a.tobytes() == b.tobytes() and a.getbbox() is not None
    True
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from render.common import BACKGROUND, INK, MUTED, PANEL, Box, Colour, Label, Labels, font, ink_box, note, player_style

SCALE = 18
"""Picture pixels per battlefield inch: the picture is 1489 px wide, the battlefield 1080 of them.

Discord's preview shows it 550 px wide, so a text reads the same at any scale if it scales
with the picture; a larger scale only costs bytes and time (at 24 px per inch it was 1.3×
the bytes and 1.5× the time of this one)."""
DESIGN = 24
"""Pixels per inch the picture's fixed sizes (fonts, the panel's spacing) are written for (:func:`px`)."""


def px(size: float) -> int:
    """Returns a size written for :data:`DESIGN` pixels per inch in this picture's pixels.

    >>> px(48)
    36
    """
    return round(size * SCALE / DESIGN)


GRID = 2.0
"""Grid square, inches."""
GRID_SIZE = px(48)
"""Font size of the grid's letters and numbers and of depots' ids (≥ 9 px tall in the 550-px preview)."""
DEPOT_HALF = 0.9
"""Half the diagonal of a depot's diamond, inches."""
FIELD: Colour = (58, 64, 56)
GRID_LINE: Colour = (74, 81, 72)
GRID_MAJOR: Colour = (92, 100, 90)
HATCH: Colour = (236, 226, 200)
DEPOT: Colour = (64, 224, 208)
DEPOT_RIM: Colour = (8, 70, 70)

TERRAIN_STYLES: dict[str, tuple[Colour, Colour]] = {
    "ruin": ((112, 100, 88), (196, 180, 160)),
    "crater": ((62, 48, 40), (128, 100, 80)),
    "rubble": ((96, 88, 78), (150, 140, 126)),
    "debris": ((86, 86, 92), (170, 170, 180)),
    "wreckage": ((92, 56, 44), (170, 110, 90)),
    "hill": ((78, 108, 66), (150, 186, 122)),
    "sealed": ((28, 30, 36), (150, 156, 170)),
    "barricade": ((196, 150, 70), (90, 64, 20)),
    "pipe": ((120, 150, 176), (40, 56, 72)),
}
"""Terrain type → (fill, outline); lines (barricade, pipe) use (line, casing)."""
DEFAULT_STYLE: tuple[Colour, Colour] = ((100, 100, 100), (180, 180, 180))

DATA = Path(__file__).resolve().parents[1] / "data" / "nexo"


@lru_cache(maxsize=1)
def terrain_types() -> dict[str, dict[str, Any]]:
    """Returns the terrain type table of ``data/nexo/terrain.json`` (empty when unreadable)."""
    try:
        return dict(json.loads((DATA / "terrain.json").read_text())["types"])
    except (OSError, ValueError, KeyError):
        return {}


@lru_cache(maxsize=8)
def zone_depth(battlefield: str) -> float:
    """Returns the deployment zone depth of a preset (generated battlefields copy crossroads)."""
    name = battlefield if (DATA / "battlefields" / f"{battlefield}.json").exists() else "crossroads"
    try:
        return float(json.loads((DATA / "battlefields" / f"{name}.json").read_text())["zone"])
    except (OSError, ValueError, KeyError):
        return 12.0


@lru_cache(maxsize=1)
def faction() -> dict[str, Any]:
    """Returns ``data/nexo/faction_default.json`` (units and buildings), empty when unreadable."""
    try:
        return dict(json.loads((DATA / "faction_default.json").read_text()))
    except (OSError, ValueError):
        return {}


def base_radius(m: dict[str, Any]) -> float:
    """Returns the radius in inches of a model's base (its unit type's, else 0.5")."""
    try:
        return float(faction().get("units", {}).get(str(m.get("type")), {}).get("base_radius", 0.5))
    except (TypeError, ValueError):
        return 0.5


def token_radius(m: dict[str, Any], geo: Geometry) -> float:
    """Returns the radius in picture pixels of a model's disc (its base, at least 0.55")."""
    return max(base_radius(m), 0.55) * geo.s


def obscuring(piece: dict[str, Any]) -> bool:
    """Returns True when the piece's type is Obscuring (hatched)."""
    return bool(terrain_types().get(str(piece.get("type")), {}).get("obscuring"))


def blocks_sight(piece: dict[str, Any]) -> bool:
    """Returns True when the piece blocks sight (its own flag, else its type's)."""
    own = piece.get("blocks_sight")
    return bool(terrain_types().get(str(piece.get("type")), {}).get("blocks_sight") if own is None else own)


# -- cached text ------------------------------------------------------------------------

@lru_cache(maxsize=8192)
def _glyphs(text: str, size: int, stroke: int, anchor: str, start: tuple[float, float]
            ) -> tuple[Image.Image, tuple[int, int]]:
    """Returns the coverage mask of ``text`` drawn from the sub-pixel ``start``, and its offset.

    The mask is drawn by ``ImageDraw.text`` itself at the same fraction of a pixel, so pasting
    the ink through it at the whole-pixel point plus the offset gives ``ImageDraw.text``'s pixels.
    With ``stroke`` the mask covers the stroke and the letters, as the stroke's pass does.
    """
    left, top, right, bottom = font(size).getbbox(text, anchor=anchor, stroke_width=stroke)
    # the mask's origin is at or left of and above the anchor, so the text is drawn at a positive
    # point and keeps the fraction of ``start`` (a negative point's fraction would be negative)
    x0, y0 = min(math.floor(left) - 1, 0), min(math.floor(top) - 1, 0)
    mask = Image.new("L", (math.ceil(right) - x0 + 2, math.ceil(bottom) - y0 + 2), 0)
    ImageDraw.Draw(mask).text((start[0] - x0, start[1] - y0), text, font=font(size), fill=255, anchor=anchor,
                              stroke_width=stroke, stroke_fill=255)
    return mask, (x0, y0)


@lru_cache(maxsize=4096)
def text_length(text: str, size: int) -> float:
    """Returns ``ImageDraw.textlength`` of ``text`` at ``size`` on an RGB picture (cached)."""
    return font(size).getlength(text, "L")


def draw_text(pen: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: Colour, *,
              anchor: str = "la", stroke: int = 0, stroke_fill: Colour | None = None) -> None:
    """Draws ``text`` exactly like ``pen.text(xy, text, font=font(size), ...)``, from a cached glyph mask.

    A stroke is drawn first in ``stroke_fill``, then the letters in ``fill``, as ``ImageDraw.text``
    does; each pass through ``ImageDraw.bitmap``, the call ``ImageDraw.text`` ends in.
    """
    x, y = xy
    if x < 0 or y < 0:  # a fraction of a pixel left of or above the picture: as drawn, uncached
        pen.text(xy, text, font=font(size), fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=stroke_fill)
        return
    whole, start = (int(x), int(y)), (math.modf(x)[0], math.modf(y)[0])
    passes = [(fill, 0)]
    if stroke:
        edge = fill if stroke_fill is None else stroke_fill
        passes = [(edge, stroke)] + ([(fill, 0)] if fill != edge else [])
    for colour, width in passes:
        mask, (dx, dy) = _glyphs(text, size, width, anchor, start)
        pen.bitmap((whole[0] + dx, whole[1] + dy), mask, fill=colour)


def write(pen: ImageDraw.ImageDraw, labels: Labels | None, roles: str | tuple[str, ...], xy: tuple[float, float],
          text: str, size: int, fill: Colour, *, anchor: str = "la", stroke: int = 0,
          stroke_fill: Colour | None = None) -> Label:
    """:func:`render.common.write` with cached glyphs (:func:`draw_text`)."""
    draw_text(pen, xy, text, size, fill, anchor=anchor, stroke=stroke, stroke_fill=fill if stroke_fill is None
              else stroke_fill)
    return note(labels, Label.at(roles, text, size, xy, anchor=anchor, stroke=stroke))


def grid_labels(geo: Geometry) -> list[tuple[tuple[float, float], str, Label]]:
    """Returns the grid's column letters (left edge) and row numbers, odd ones above the battlefield, even below.

    Each comes as (point, anchor, label), as drawn. Each is at least 9 px tall in the 550-px
    preview; two-digit numbers that tall are wider than a 2" square, so the rows alternate
    between the edges and each row is named once::

        >>> texts = [label.text for _, _, label in grid_labels(Geometry(44, 60))]
        >>> texts[:3], texts[22:25], len(texts)
        (['A', 'B', 'C'], ['1', '2', '3'], 52)
    """
    s = geo.s
    cols, rows = round(geo.width / GRID), round(geo.length / GRID)
    out = []
    for c in range(cols):
        _, cy = geo.to_px((c + 0.5) * GRID, 0)
        out.append(((geo.left - 0.35 * s, cy), "rm", chr(ord("A") + c), ("cell", "column")))
    for r in range(rows):
        above = r % 2 == 0
        y = geo.top - 0.15 * s if above else geo.top + geo.field_h + 0.15 * s
        out.append(((geo.left + (r + 0.5) * GRID * s, y), "ms" if above else "ma", str(r + 1), ("cell", "row")))
    return [(xy, anchor, Label.at(roles, text, GRID_SIZE, xy, anchor=anchor)) for xy, anchor, text, roles in out]


def depot_label_box(geo: Geometry, d: dict[str, Any]) -> Box:
    """Returns the box of a depot's diamond and of its id under it (what tags keep clear of)."""
    cx, cy = geo.to_px(float(d["x"]), float(d["y"]))
    half = DEPOT_HALF * geo.s
    left, _, right, bottom = ink_box(str(d.get("id", "")), GRID_SIZE, "ma", 2)
    return min(cx - half, cx + left), cy - half, max(cx + half, cx + right), cy + half + 2 + bottom


def depot_labels(geo: Geometry, depots: list[dict[str, Any]]) -> list[Label]:
    """Returns each depot's id as drawn under its diamond (role ``depot``)."""
    out = []
    for d in depots:
        cx, cy = geo.to_px(float(d["x"]), float(d["y"]))
        text = str(d.get("id", ""))
        out.append(Label.at(("depot", "id"), text, GRID_SIZE, (cx, cy + DEPOT_HALF * geo.s + 2), anchor="ma"))
    return out


class Geometry:
    """Where things go in the picture: the battlefield's box, the side panel and the strip below."""

    def __init__(self, width: float = 44.0, length: float = 60.0) -> None:
        self.width, self.length, self.s = float(width), float(length), SCALE
        self.left, self.top = 2.4 * SCALE, 2.0 * SCALE
        self.field_w, self.field_h = self.length * SCALE, self.width * SCALE
        self.panel_x = self.left + self.field_w + 1.0 * SCALE
        self.panel_w = 18.5 * SCALE
        self.picture_w = round(self.panel_x + self.panel_w + 0.8 * SCALE)
        self.strip_y = self.top + self.field_h + 2.3 * SCALE
        self.picture_h = round(self.picture_w / 1.40)

    def to_px(self, x: float, y: float) -> tuple[float, float]:
        """Returns the picture pixel of battlefield inches ``(x, y)`` (``y`` → right, ``x`` → up)."""
        return self.left + y * self.s, self.top + (self.width - x) * self.s

    def cell(self, x: float, y: float) -> str:
        """Returns the grid square's name (column letter of ``x``, row number of ``y``)."""
        col = min(int(x // GRID), round(self.width / GRID) - 1)
        row = min(int(y // GRID), round(self.length / GRID) - 1)
        return f"{chr(ord('A') + col)}{row + 1}"

    def poly(self, points: Any) -> list[tuple[float, float]]:
        """Returns a battlefield polygon in picture pixels."""
        return [self.to_px(float(x), float(y)) for x, y in points]


def _hatch(image: Image.Image, pts: list[tuple[float, float]], colour: Colour, step: int) -> None:
    """Hatches the polygon ``pts`` with diagonal lines of ``colour``."""
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    box = (int(min(xs)), int(min(ys)), int(max(xs)) + 2, int(max(ys)) + 2)
    w, h = box[2] - box[0], box[3] - box[1]
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).polygon([(x - box[0], y - box[1]) for x, y in pts], fill=255)
    lines = Image.new("L", (w, h), 0)
    pen = ImageDraw.Draw(lines)
    for k in range(-h, w, step):
        pen.line((k, h, k + h, 0), fill=255, width=2)
    lines.paste(0, mask=Image.eval(mask, lambda v: 255 - v))
    image.paste(colour, box, lines)


def _terrain(image: Image.Image, pen: ImageDraw.ImageDraw, geo: Geometry, piece: dict[str, Any]) -> None:
    """Draws one terrain piece by type."""
    kind = str(piece.get("type"))
    fill, rim = TERRAIN_STYLES.get(kind, DEFAULT_STYLE)
    s = geo.s
    if piece.get("line"):
        pts = geo.poly(piece["line"])
        width = max(6, round(float(piece.get("width") or 0.25) * s) + 4)
        pen.line(pts, fill=rim, width=width + 4)
        pen.line(pts, fill=fill, width=width)
        if kind == "pipe":
            for x, y in (pts[0], pts[-1]):
                pen.rectangle((x - width, y - width, x + width, y + width), fill=fill, outline=rim, width=2)
        elif piece.get("cover") == "heavy":
            pen.line(pts, fill=rim, width=2)
        return
    pts = geo.poly(piece.get("poly") or [])
    if len(pts) < 3:
        return
    pen.polygon(pts, fill=fill, outline=rim, width=3)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    if kind == "crater":
        inner = [(cx + (x - cx) * 0.6, cy + (y - cy) * 0.6) for x, y in pts]
        pen.polygon(inner, fill=(44, 34, 28), outline=rim, width=2)
    elif kind == "hill":
        for f in (0.72, 0.44):
            ring = [(cx + (x - cx) * f, cy + (y - cy) * f) for x, y in pts]
            pen.polygon(ring, outline=rim, width=2)
        height = piece.get("height") or terrain_types().get("hill", {}).get("height") or 0
        pen.text((cx, cy), f'{float(height):g}"', font=font(round(0.95 * s)), fill=INK, anchor="mm",
                 stroke_width=2, stroke_fill=(40, 60, 34))
    elif kind in ("rubble", "debris", "wreckage"):
        step = round(0.8 * s)
        for gx in range(int(min(xs)) + step // 2, int(max(xs)), step):
            for gy in range(int(min(ys)) + step // 2, int(max(ys)), step):
                if _inside(gx, gy, pts):
                    d = 3 if kind == "rubble" else 4
                    if kind == "rubble":
                        pen.ellipse((gx - d, gy - d, gx + d, gy + d), fill=rim)
                    else:
                        pen.line((gx - d, gy - d, gx + d, gy + d), fill=rim, width=2)
                        pen.line((gx - d, gy + d, gx + d, gy - d), fill=rim, width=2)
    elif kind == "sealed":
        pen.line((min(xs) + 4, min(ys) + 4, max(xs) - 4, max(ys) - 4), fill=rim, width=3)
        pen.line((min(xs) + 4, max(ys) - 4, max(xs) - 4, min(ys) + 4), fill=rim, width=3)
    for feature in piece.get("features") or []:
        fp = geo.poly(feature.get("poly") or [])
        if len(fp) >= 3:
            pen.polygon(fp, fill=(60, 52, 44), outline=(230, 220, 200), width=2)
    if obscuring(piece):
        _hatch(image, pts, HATCH, round(0.5 * s))
        pen.polygon(pts, outline=HATCH, width=3)
    if blocks_sight(piece) and kind != "sealed":
        pen.polygon(pts, outline=(20, 20, 24), width=5)
        pen.polygon(pts, outline=rim, width=2)


def _inside(x: float, y: float, pts: list[tuple[float, float]]) -> bool:
    """Returns True when ``(x, y)`` lies inside the polygon ``pts`` (even-odd rule)."""
    inside = False
    for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def field_key(view: dict[str, Any]) -> str:
    """Returns the cache key of a view's static battlefield: size, zone, terrain and depots."""
    width, length = (view.get("size") or [44, 60])[:2]
    return json.dumps([width, length, zone_depth(str(view.get("battlefield", ""))), view.get("terrain") or [],
                       view.get("depots") or []], sort_keys=True, separators=(",", ":"))


def static_layer(view: dict[str, Any]) -> Image.Image:
    """Returns the cached static picture of the view's battlefield (do not draw on it: copy it)."""
    return _layer(field_key(view))


@lru_cache(maxsize=16)
def _layer(key: str) -> Image.Image:
    width, length, zone, terrain, depots = json.loads(key)
    geo = Geometry(width, length)
    image = Image.new("RGB", (geo.picture_w, geo.picture_h), BACKGROUND)
    pen = ImageDraw.Draw(image)
    s = geo.s
    x0, y0 = geo.to_px(width, 0)
    x1, y1 = geo.to_px(0, length)
    pen.rectangle((x0, y0, x1, y1), fill=FIELD)
    for i, lo, hi in ((0, 0, zone), (1, length - zone, length)):
        a, b = geo.to_px(width, lo), geo.to_px(0, hi)
        tint = tuple(round(0.78 * f + 0.22 * c) for f, c in zip(FIELD, player_style(i).fill, strict=True))
        pen.rectangle((a[0], a[1], b[0], b[1]), fill=tint)
    cols, rows = round(width / GRID), round(length / GRID)
    for r in range(rows + 1):
        x = geo.left + r * GRID * s
        pen.line((x, y0, x, y1), fill=GRID_MAJOR if r % 5 == 0 else GRID_LINE, width=1)
    for c in range(cols + 1):
        y = geo.top + c * GRID * s
        pen.line((x0, y, x1, y), fill=GRID_MAJOR if c % 5 == 0 else GRID_LINE, width=1)
    for i in range(2):
        edge = zone if i == 0 else length - zone
        a, b = geo.to_px(width, edge), geo.to_px(0, edge)
        pen.line((a[0], a[1], b[0], b[1]), fill=player_style(i).fill, width=3)
    for xy, anchor, label in grid_labels(geo):
        pen.text(xy, label.text, font=font(GRID_SIZE), fill=MUTED, anchor=anchor)
    for piece in terrain:
        _terrain(image, pen, geo, piece)
    for d in depots:
        cx, cy = geo.to_px(float(d["x"]), float(d["y"]))
        half = DEPOT_HALF * s
        diamond = [(cx, cy - half), (cx + half, cy), (cx, cy + half), (cx - half, cy)]
        pen.polygon(diamond, fill=DEPOT, outline=DEPOT_RIM, width=3)
        pen.text((cx, cy + half + 2), str(d.get("id", "")), font=font(GRID_SIZE), fill=DEPOT, anchor="ma",
                 stroke_width=2, stroke_fill=DEPOT_RIM)
    pen.rectangle((x0, y0, x1, y1), outline=(20, 22, 26), width=3)
    pen.rectangle((geo.panel_x, geo.top, geo.panel_x + geo.panel_w, geo.picture_h - 0.8 * s), fill=PANEL)
    return image
