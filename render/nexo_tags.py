"""Where the Nexohominis picture's tags go: beside their piece, never over another tag or piece.

A tag names a piece as players type it: a model's ``[id|HP]`` (and its Wounded-in-Action
letter), a building's ``[id|HP]``, a wreck's ``[id|wreck]``: in type at least 9 px tall in
Discord's 550-px preview (the word "wreck" smaller). Depots' ids are drawn with the
battlefield (:mod:`render.nexo_field`) and only kept clear of.

:func:`layout` places every tag greedily, the most crowded pieces first: the first free
spot of eight around the piece (above first), else the free spot nearest the piece anywhere
on the battlefield, joined to it by a leader line. A spot is free when its box stays on the battlefield and
meets no other tag, no model (disc and HP bar), no building and no depot with its id::

    >>> geo = Geometry(44, 60)
    >>> view = {"models": {"a1": {"x": 10, "y": 10, "hp": 5, "owner": "ann"},
    ...                    "a2": {"x": 10, "y": 10.9, "hp": 5, "owner": "ann"}}}
    >>> placed = layout(view, geo)
    >>> first, second = placed["a1"].box, placed["a2"].box
    >>> first[2] <= second[0] or second[2] <= first[0] or first[3] <= second[1] or second[3] <= first[1]
    True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from render.common import Box
from render.nexo_field import Geometry, depot_label_box, faction, px, text_length, token_radius

ID_SIZE = px(48)
"""Font size of a tag's id: its ink is ≥ 9 px tall in the 550-px preview of the 1489-px picture."""
DETAIL_SIZE = px(36)
"""Font size of a wreck's word "wreck" (its HP and Wounded-in-Action letter are as large as its id)."""
PAD = px(5)
"""Pixels each side of a chip's text."""
TAG_H = round(ID_SIZE * 0.82)
"""Height of a tag, pixels."""
GAP = px(3)
"""Pixels between a piece and a tag beside it."""
CELL = px(8)
"""Side in pixels of the cells :class:`_Room` counts boxes in."""
NEAR = px(240)
"""Pixels around a piece searched for a free spot before the whole battlefield is."""


@dataclass(frozen=True)
class Chip:
    """One part of a tag: its text, font size and role (``id`` is what players type)."""

    text: str
    size: int
    role: str

    @property
    def width(self) -> float:
        """Returns the chip's width: its text and padding."""
        return text_length(self.text, self.size) + 2 * PAD


@dataclass(frozen=True)
class Placed:
    """Where a tag went: its box, the piece's centre and whether a leader line joins them."""

    box: Box
    centre: tuple[float, float]
    leader: bool


def model_chips(mid: str, m: dict[str, Any]) -> list[Chip]:
    """Returns a model's chips: id, HP and, when Wounded in Action, its result's letter."""
    chips = [Chip(mid, ID_SIZE, "id"), Chip(str(m.get("hp", "?")), ID_SIZE, "hp")]
    if m.get("wia"):
        chips.append(Chip(str(m["wia"])[:1].upper(), ID_SIZE, "wia"))
    return chips


def building_chips(ident: str, b: dict[str, Any]) -> list[Chip]:
    """Returns a building's chips: id, then HP (and build points while it is being built), or "wreck"."""
    if b.get("wreck"):
        return [Chip(ident, ID_SIZE, "id"), Chip("wreck", DETAIL_SIZE, "wreck")]
    kind = faction().get("buildings", {}).get(str(b.get("type")), {})
    text = str(int(b.get("hp") or 0))
    if not b.get("complete", True) and kind.get("build_points"):
        text += f" {int(b.get('build_points') or 0)}/{int(kind['build_points'])}"
    return [Chip(ident, ID_SIZE, "id"), Chip(text, ID_SIZE, "hp")]


def building_box(geo: Geometry, b: dict[str, Any]) -> Box:
    """Returns a building's footprint in picture pixels (its type's width and depth, turned by ``rot``)."""
    kind = faction().get("buildings", {}).get(str(b.get("type")), {})
    w, d = float(kind.get("width", 3)), float(kind.get("depth", 3))
    if int(b.get("rot") or 0) % 180 == 90:
        w, d = d, w
    x, y = float(b["x"]), float(b["y"])
    (ax, ay), (bx, by) = geo.to_px(x + w / 2, y - d / 2), geo.to_px(x - w / 2, y + d / 2)
    return min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)


def model_box(geo: Geometry, m: dict[str, Any]) -> Box:
    """Returns what a model covers: its disc and the HP bar under it."""
    x, y = geo.to_px(float(m["x"]), float(m["y"]))
    r = token_radius(m, geo)
    half = max(r, 0.9 * geo.s)
    return x - half, y - r, x + half, y + r + 3 + 0.38 * geo.s


def building_id(ident: str, b: dict[str, Any], marks: dict[str, str]) -> str:
    """Returns a building's id as tagged (as typed: the owner's letter, then its number)."""
    mark = marks.get(str(b.get("owner")), "")
    return f"{mark}{ident[1:]}" if mark and ident[:1].upper() == mark else ident


def layout(view: dict[str, Any], geo: Geometry, marks: dict[str, str] | None = None) -> dict[str, Placed]:
    """Returns each model's and building's tag place (keyed by its id), none over another (see the module)."""
    models = {k: m for k, m in (view.get("models") or {}).items() if _placed(m)}
    buildings = {k: b for k, b in (view.get("buildings") or {}).items() if _placed(b)}
    pieces: dict[str, Box] = {}
    sizes: dict[str, float] = {}
    for bid, b in buildings.items():
        pieces[bid] = building_box(geo, b)
        sizes[bid] = sum(c.width for c in building_chips(building_id(bid, b, marks or {}), b))
    for mid, m in models.items():
        pieces[mid] = model_box(geo, m)
        sizes[mid] = sum(c.width for c in model_chips(mid, m))
    room = _Room((geo.left, geo.top, geo.left + geo.field_w, geo.top + geo.field_h))
    for box in pieces.values():
        room.take(box)
    for d in view.get("depots") or []:
        room.take(depot_label_box(geo, d))
    near = _crowding(pieces, 3 * geo.s)
    placed: dict[str, Placed] = {}
    for key in sorted(pieces, key=lambda k: (-near[k], k)):
        box, w = pieces[key], sizes[key]
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        room.take(box, -1)  # the piece's own footprint, which its tag may cover
        spot = next((b for b in _beside(box, w, TAG_H) if room.fits(b)), None)
        where = Placed(spot, centre, False) if spot else Placed(room.nearest(centre, w, TAG_H), centre, True)
        room.take(box)
        room.take(where.box)
        placed[key] = where
    return placed


def _placed(piece: Any) -> bool:
    """Returns True for a piece with a position on the battlefield."""
    return isinstance(piece, dict) and isinstance(piece.get("x"), (int, float)) and isinstance(piece.get("y"),
                                                                                             (int, float))


def _beside(piece: Box, w: float, h: float) -> list[Box]:
    """Returns the eight boxes a ``w`` × ``h`` tag may take beside ``piece``, above first."""
    left, top, right, bottom = piece
    cx, cy = (left + right) / 2, (top + bottom) / 2
    corners = [
        (cx - w / 2, top - GAP - h), (cx - w / 2, bottom + GAP),  # above, below
        (right + GAP, cy - h / 2), (left - GAP - w, cy - h / 2),  # right, left
        (right - w / 3, top - GAP - h), (left - 2 * w / 3, top - GAP - h),  # above, aside
        (right - w / 3, bottom + GAP), (left - 2 * w / 3, bottom + GAP),  # below, aside
    ]
    return [(x, y, x + w, y + h) for x, y in corners]


def _crowding(boxes: dict[str, Box], within: float) -> dict[str, int]:
    """Returns, per piece, how many other pieces' centres lie within ``within`` pixels of its own."""
    centres = {k: ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for k, b in boxes.items()}
    return {k: sum(1 for j, d in centres.items() if j != k and math.dist(c, d) <= within) for k, c in centres.items()}


TOUCH = 1e-6
"""Pixels two boxes may share from rounding alone and still only touch."""


def area(a: Box, b: Box) -> float:
    """Returns the area two boxes share (0 when apart or only touching)."""
    dx, dy = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
    return dx * dy if dx > TOUCH and dy > TOUCH else 0.0


class _Room:
    """The battlefield in square cells of :data:`CELL` pixels, each counting the boxes that touch it.

    A box fits when every cell it touches is empty, so a box that fits meets no box taken
    (the test is safe: a spot closer than a cell to a taken box may be passed over).
    """

    def __init__(self, field: Box) -> None:
        self.field = field
        shape = (math.ceil((field[3] - field[1]) / CELL), math.ceil((field[2] - field[0]) / CELL))
        self.counts = np.zeros(shape, dtype=np.int32)

    def _cells(self, box: Box) -> tuple[slice, slice] | None:
        """Returns the rows and columns of the cells ``box`` touches (None when it leaves the battlefield)."""
        f = self.field
        if box[0] < f[0] or box[1] < f[1] or box[2] > f[2] or box[3] > f[3]:
            return None
        return (slice(int((box[1] - f[1]) // CELL), math.ceil((box[3] - f[1]) / CELL)),
                slice(int((box[0] - f[0]) // CELL), math.ceil((box[2] - f[0]) / CELL)))

    def take(self, box: Box, count: int = 1) -> None:
        """Counts ``box`` in the cells it touches (the part on the battlefield); ``count=-1`` takes it back out."""
        f = self.field
        clipped = (max(box[0], f[0]), max(box[1], f[1]), min(box[2], f[2]), min(box[3], f[3]))
        if clipped[0] < clipped[2] and clipped[1] < clipped[3]:
            rows, cols = self._cells(clipped)  # type: ignore[misc]
            self.counts[rows, cols] += count

    def fits(self, box: Box) -> bool:
        """Returns True when ``box`` lies on the battlefield and touches only empty cells."""
        cells = self._cells(box)
        return cells is not None and not self.counts[cells].any()

    def nearest(self, centre: tuple[float, float], w: float, h: float) -> Box:
        """Returns the free ``w`` × ``h`` box, on cell corners, whose centre is nearest ``centre``.

        It looks within :data:`NEAR` pixels first, then over the whole battlefield; should no
        spot be free, the one touching the fewest taken cells is returned.
        """
        cw, ch = math.ceil(w / CELL), math.ceil(h / CELL)
        rows, cols = self.counts.shape
        row, col = (centre[1] - self.field[1]) / CELL, (centre[0] - self.field[0]) / CELL
        reach = math.ceil(NEAR / CELL)
        near = (max(0, int(row) - reach - ch), min(rows, int(row) + reach + ch),
                max(0, int(col) - reach - cw), min(cols, int(col) + reach + cw))
        for r0, r1, c0, c1 in (near, (0, rows, 0, cols)):
            found = self._nearest_in(r0, r1, c0, c1, centre, cw, ch, w, h)
            if found is not None and (found[0] or (r0, r1, c0, c1) == (0, rows, 0, cols)):
                return found[1]
        x, y = self.field[:2]
        return x, y, x + w, y + h

    def _nearest_in(self, r0: int, r1: int, c0: int, c1: int, centre: tuple[float, float], cw: int, ch: int,
                    w: float, h: float) -> tuple[bool, Box] | None:
        """Returns (free, box) of the best ``cw`` × ``ch``-cell spot within rows r0:r1 and columns c0:c1."""
        taken = (self.counts[r0:r1, c0:c1] > 0).astype(np.int32)
        if taken.shape[0] < ch or taken.shape[1] < cw:
            return None
        sums = np.pad(taken, ((1, 0), (1, 0))).cumsum(0).cumsum(1)
        window = sums[ch:, cw:] - sums[:-ch, cw:] - sums[ch:, :-cw] + sums[:-ch, :-cw]
        ys = self.field[1] + (r0 + np.arange(window.shape[0])) * CELL + h / 2 - centre[1]
        xs = self.field[0] + (c0 + np.arange(window.shape[1])) * CELL + w / 2 - centre[0]
        distance = ys[:, None] ** 2 + xs[None, :] ** 2
        free = window == 0
        score = np.where(free, distance, distance.max() + 1 + window * 1e9)
        best = int(np.argmin(score))
        row, col = divmod(best, window.shape[1])
        x, y = self.field[0] + (c0 + col) * CELL, self.field[1] + (r0 + row) * CELL
        return bool(free.flat[best]), (x, y, x + w, y + h)
