"""Shortest routes around obstacles for the "toward" forms (house "Notation", core §5).

:func:`route` finds the shortest path of a model's centre from where it stands to any of
several targets, going around impassable terrain, standing buildings and other models::

    >>> from engines.nexo.data import default_ruleset
    >>> from engines.nexo.datatypes import Preset
    >>> from shapely.geometry import box
    >>> open_field = Preset("open", "Open", 44, 60, 12, (), (), (), ())
    >>> t = Terrain(open_field, default_ruleset())
    >>> [(round(x, 2), round(y, 2)) for x, y in route(t, (10, 10), [(10, 20)], 0.5, [(box(5, 14, 12, 16), None)])]
    [(12.55, 13.45), (12.55, 16.55), (10.0, 20.0)]

Readings chosen here:

- The obstacles are the footprints :func:`engines.nexo.geometry.plan_move` refuses to
  cross (impassable terrain, standing buildings, other models' bases), grown by the
  mover's base radius plus :data:`CLEARANCE`: the centre may go anywhere outside them.
  Polygons grow with mitred corners and bases become circumscribed octagons, so every
  edge of the grown shape stays at least the clearance away from the footprint.
- The path is the shortest one in the visibility graph of the grown shapes' corners (with
  the start and the targets), found with Dijkstra's algorithm; edges are straight lines
  that keep clear of the obstacles grown by the radius plus half the clearance, inside the
  battlefield. The length counted is the centre's path; Difficult Ground (which costs
  double) is not weighed here: the caller trims the path by its cost.
- Corners lie :data:`CLEARANCE` out so that waypoints rounded to two decimals
  (:data:`engines.nexo.moves.DECIMALS`) still keep the base off the footprints.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Sequence

import numpy as np
import shapely
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from engines.nexo.geometry import EPS, Body
from engines.nexo.terrain import Terrain

Pos = tuple[float, float]
CLEARANCE = 0.05
"""How far beyond the base's radius the route's corners keep from an obstacle."""


def obstacles(terrain: Terrain, bodies: Iterable[Body], skip: Iterable[str] = ()) -> list[Polygon]:
    """Returns the footprints a move may not cross: impassable terrain, standing buildings and
    models' bases, except the bodies whose ids are in ``skip`` (the mover, the goal)."""
    skipped = set(skip)
    out: list[Polygon] = [p.shape for p in terrain.pieces if p.traits.impassable]
    out += [b.shape for b in bodies if b.id not in skipped and b.kind != "wreckage"]
    return out


def grow(shape: BaseGeometry, by: float, radius: float | None = None) -> BaseGeometry:
    """Returns ``shape`` grown by ``by``: a base (``radius`` given) as a circumscribed octagon,
    a footprint with mitred corners, so no edge of the result comes nearer than ``by``."""
    if radius is not None:
        c = shape.centroid
        return Point(c.x, c.y).buffer((radius + by) / math.cos(math.pi / 8), quad_segs=2)
    return shape.buffer(by, join_style="mitre", mitre_limit=4.0)


def route(terrain: Terrain, start: Pos, targets: Sequence[Pos], radius: float,
          blocks: Sequence[tuple[BaseGeometry, float | None]]) -> list[Pos] | None:
    """Returns the shortest path from ``start`` to one of ``targets`` (start excluded), or None.

    ``blocks`` holds each obstacle's footprint with its base radius (None for a polygon);
    ``radius`` is the mover's base radius.
    """
    corners = [grow(s, radius + CLEARANCE, r) for s, r in blocks]
    near = [grow(s, radius + CLEARANCE / 2, r) for s, r in blocks]
    blocked = shapely.union_all(near) if near else Polygon()
    shapely.prepare(blocked)
    inside = terrain.bounds.buffer(-(radius + CLEARANCE / 4), join_style="mitre")
    shapely.prepare(inside)
    nodes: list[Pos] = [start]
    for g in corners:
        for part in getattr(g, "geoms", [g]):
            nodes += [(float(x), float(y)) for x, y in part.exterior.coords[:-1]]
    first_target = len(nodes)
    nodes += [(float(x), float(y)) for x, y in targets]
    pts = shapely.points(np.array(nodes))
    ok = shapely.covers(inside, pts) & ~shapely.intersects(blocked, pts)
    ok[0] = True  # the mover stands where it stands
    keep = np.flatnonzero(ok)
    if not (keep >= first_target).any():
        return None
    ia, ib = np.triu_indices(len(keep), k=1)
    a, b = keep[ia], keep[ib]
    wanted = a < first_target  # no edge between two targets: the search stops at the first
    a, b = a[wanted], b[wanted]
    xy = np.array(nodes)
    lines = shapely.linestrings(np.stack([xy[a], xy[b]], axis=1))
    free = ~shapely.intersects(blocked, lines)
    here = Point(start)
    around = shapely.union_all([g for g in near if not g.covers(here)]) if near else Polygon()
    from_start = a == 0  # a base touching the mover's does not hold it in place
    free[from_start] = ~shapely.intersects(around, lines[from_start])
    a, b = a[free], b[free]
    lengths = np.hypot(*(xy[a] - xy[b]).T)
    graph: dict[int, list[tuple[int, float]]] = {int(i): [] for i in keep}
    for i, j, d in zip(a.tolist(), b.tolist(), lengths.tolist(), strict=True):
        graph[i].append((j, d))
        graph[j].append((i, d))
    best: dict[int, float] = {0: 0.0}
    back: dict[int, int] = {}
    heap = [(0.0, 0)]
    while heap:
        d, i = heapq.heappop(heap)
        if d > best.get(i, math.inf) + EPS:
            continue
        if i >= first_target:
            path = [nodes[i]]
            while i in back:
                i = back[i]
                path.append(nodes[i])
            return path[::-1][1:]
        for j, dj in graph[i]:
            if d + dj < best.get(j, math.inf) - EPS:
                best[j] = d + dj
                back[j] = i
                heapq.heappush(heap, (d + dj, j))
    return None
