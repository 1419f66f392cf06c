"""Bodies on the battlefield, distances, movement paths and engagement (core §5, §9, §10.2).

A :class:`Body` is anything with a footprint: a model's round base or a building. All
distances between bodies are edge to edge; movement follows the centre's path::

    >>> a, b = model_body("a", 10, 10, 0.5), model_body("b", 13, 10, 0.5)
    >>> edge_distance(a, b), engaged(a, b)
    (2.0, False)

Readings chosen here:

- A move is checked segment by segment on the area its base sweeps: it must stay on the
  battlefield and may not overlap an impassable footprint, a building (wreckage excepted)
  or another model's base; touching is allowed.
- Only the part of the centre's path inside Difficult Ground costs double (core §5.13).
- A move may cross a barricade or pipe but may not end with the base overlapping one; a
  produced unit may not be placed overlapping one either (core §13.3: it must stand there).
- Engagement range (house ruling 7) is 1" edge to edge, inclusive; so is Fight reach.
- The 2" Fight across a barricade (core §5.10) needs the centre-to-centre line to cross the
  barricade and both bases within 1" of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from engines.core.errors import IllegalMove
from engines.nexo.data import building_shape
from engines.nexo.datatypes import BuildingType
from engines.nexo.terrain import Terrain

ENGAGEMENT = 1.0
"""House ruling 7: engagement range, edge to edge."""
FIGHT_REACH = 1.0
"""Core §10.2: a Fight target within 1"."""
BARRICADE_FIGHT = 2.0
"""Core §5.10: across a barricade, Fight reaches 2"."""
EPS = 1e-7


@dataclass(frozen=True, eq=False)
class Body:
    """A footprint on the battlefield: ``kind`` is ``model``, ``building`` or ``wreckage``."""

    id: str
    x: float
    y: float
    shape: Polygon
    kind: str = "model"
    radius: float = 0.0

    @property
    def centre(self) -> Point:
        """The body's centre point."""
        return Point(self.x, self.y)

    @property
    def blocks(self) -> bool:
        """True for a standing building: it blocks moves and sight (house ruling 2)."""
        return self.kind == "building"


def base(x: float, y: float, radius: float) -> Polygon:
    """Returns a round base of ``radius`` centred on ``(x, y)``."""
    return Point(x, y).buffer(radius, quad_segs=16)


def model_body(id: str, x: float, y: float, radius: float) -> Body:
    """Returns a model's body: a round base."""
    shape = base(x, y, radius)
    shapely.prepare(shape)
    return Body(id, x, y, shape, "model", radius)


def building_body(id: str, btype: BuildingType, x: float, y: float, rot: int = 0, *,
                  wreck: bool = False) -> Body:
    """Returns a building's body: its footprint (wreckage when destroyed, house ruling 14)."""
    shape = building_shape(btype, x, y, rot)
    shapely.prepare(shape)
    return Body(id, x, y, shape, "wreckage" if wreck else "building")


def edge_distance(a: Body | BaseGeometry, b: Body | BaseGeometry) -> float:
    """Returns the edge-to-edge distance between two bodies or shapes (0 when they overlap)."""
    sa = a.shape if isinstance(a, Body) else a
    sb = b.shape if isinstance(b, Body) else b
    return float(sa.distance(sb))


def engaged(a: Body, b: Body) -> bool:
    """True when two bodies are within engagement range, 1" edge to edge (house ruling 7)."""
    return edge_distance(a, b) <= ENGAGEMENT + EPS


def in_range(shooter: Body, target: Body, reach: float) -> bool:
    """True when ``target`` is within ``reach`` inches of ``shooter``, edge to edge."""
    return edge_distance(shooter, target) <= reach + EPS


def fight_reach(terrain: Terrain, a: Body, b: Body) -> bool:
    """True when ``a`` may Fight ``b``: within 1", or 2" across a barricade (core §5.10)."""
    d = edge_distance(a, b)
    if d <= FIGHT_REACH + EPS:
        return True
    if d > BARRICADE_FIGHT + EPS:
        return False
    line = LineString([(a.x, a.y), (b.x, b.y)])
    return any(
        p.is_line and p.shape.intersects(line)
        and edge_distance(a, p.shape) <= 1 + EPS and edge_distance(b, p.shape) <= 1 + EPS
        for p in terrain.near(line)
    )


@dataclass(frozen=True)
class MovePlan:
    """A checked path: its length, the part in Difficult Ground, and its movement cost."""

    path: tuple[tuple[float, float], ...]
    length: float
    difficult: float
    cost: float

    @property
    def end(self) -> tuple[float, float]:
        """Where the centre stops."""
        return self.path[-1]


def _overlaps(a: BaseGeometry, b: BaseGeometry) -> bool:
    return bool(a.intersects(b)) and a.intersection(b).area > EPS


def plan_move(terrain: Terrain, mover: Body, waypoints: Sequence[tuple[float, float]],
              others: Iterable[Body], *, pathfinder: bool = False) -> MovePlan:
    """Returns the plan of moving ``mover`` through ``waypoints`` (the last is the end).

    Raises IllegalMove when the base would leave the battlefield, cross an impassable
    footprint, a building or another model, or stop on a barricade (core §5, house table).
    """
    if not waypoints:
        raise IllegalMove(f"Say where {mover.id} moves.")
    path = ((mover.x, mover.y), *((float(x), float(y)) for x, y in waypoints))
    solid = [o for o in others if o.id != mover.id and o.kind != "wreckage"]
    length = difficult = 0.0
    for (x0, y0), (x1, y1) in pairwise(path):
        seg = LineString([(x0, y0), (x1, y1)]) if (x0, y0) != (x1, y1) else Point(x0, y0)
        swept = seg.buffer(mover.radius, quad_segs=16)
        where = f"{mover.id}'s move from ({x0:g}, {y0:g}) to ({x1:g}, {y1:g})"
        if not terrain.bounds.covers(swept.buffer(-EPS)):
            raise IllegalMove(f"{where} leaves the battlefield.")
        for p in terrain.touching(swept):
            if p.traits.impassable and _overlaps(swept, p.shape):
                raise IllegalMove(f"{where} crosses impassable terrain: the {p.traits.title} {p.id}.")
        for o in solid:
            if _overlaps(swept, o.shape):
                raise IllegalMove(f"{where} runs into {o.id}.")
        length += seg.length
        if not pathfinder and not terrain.difficult.is_empty and seg.length > 0:
            difficult += seg.intersection(terrain.difficult).length
    end = base(*path[-1], mover.radius)
    for p in terrain.touching(end):
        if p.traits.no_stopping and _overlaps(end, p.shape):
            raise IllegalMove(f"{mover.id} cannot stop on the {p.traits.title} {p.id}: move across it.")
    return MovePlan(path, length, difficult, length + difficult)


def check_move(plan: MovePlan, allowance: float, mover_id: str) -> None:
    """Raises IllegalMove when the plan costs more than ``allowance`` inches (core §5.13)."""
    if plan.cost > allowance + EPS:
        extra = f" ({plan.difficult:.1f}\" of it through Difficult Ground)" if plan.difficult else ""
        raise IllegalMove(
            f"{mover_id} can move {allowance:g}\", and that path costs {plan.cost:.1f}\"{extra}.")


def placement_problem(terrain: Terrain, shape: Polygon, others: Iterable[Body],
                      enemies: Iterable[Body], *, avoid: Iterable[BaseGeometry] = ()) -> str | None:
    """Returns why ``shape`` cannot be placed (core §5.15, §13.3), or None when it can.

    Nothing may be placed where a move may not end: off the battlefield, on impassable
    terrain, on a barricade or pipe, or overlapping one of ``others``; nor overlapping
    ``avoid``, nor within engagement range (1") of one of ``enemies``.
    """
    if not terrain.bounds.covers(shape.buffer(-EPS)):
        return "it would leave the battlefield"
    for p in terrain.touching(shape):
        if p.traits.impassable and _overlaps(shape, p.shape):
            return f"it would stand on impassable terrain {p.id}"
        if p.traits.no_stopping and _overlaps(shape, p.shape):
            return f"it would stand on the {p.traits.title} {p.id}, where no move may end"
    for o in others:
        if _overlaps(shape, o.shape):
            return f"it would overlap {o.id}"
    for a in avoid:
        if _overlaps(shape, a):
            return "it would overlap a Carbonite depot"
    for e in enemies:
        if edge_distance(shape, e) <= ENGAGEMENT + EPS:
            return f"it would be within engagement range of {e.id}"
    return None
