"""Line of sight, Obscuring and cover (core §5.3–5.14, house rulings 8–9).

Sight is sampled: lines from nine points of the shooter (a base: centre and eight rim
points; a building: centre, corners and edge midpoints) to nine of the target; the
target is visible when any line is clear. Cover uses the centre-to-centre line.

Readings chosen here:

- A line is blocked by a footprint only when a stretch of it runs through the footprint's
  interior (a line grazing a corner or running along an edge is clear).
- Blocking footprints that touch (two buildings built flush, two ruins edge to edge, a
  building against a sealed structure) are merged before the test: a line along their
  common edge runs through the merged interior and is blocked (core §5.7, §5.14). Pieces
  meeting only at a corner still leave the corner point open.
- Ruin features (heavy) and pieces that give cover when crossed count only when the
  centre line crosses them and they are within 1" of the target, edge to edge.
- A piece whose cover is set to heavy (a large barricade or debris) gives Heavy both when
  the target is inside it and when the line crosses it.
- Cover inside a ruin applies whoever shoots, the same ruin's occupants included.
- Elevation (house ruling 8) is the height of the hill under a model's centre; a hill
  blocks a line when it is higher than both ends; buildings stand at height 0.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from enum import IntEnum

import numpy as np
import shapely
from shapely.geometry import LineString

from engines.nexo.geometry import EPS, Body, edge_distance
from engines.nexo.terrain import Piece, Terrain


class Cover(IntEnum):
    """The cover a target claims against one ranged attack (core §5.4–5.6)."""

    NONE = 0
    """No cover: every save is rolled."""
    LIGHT = 1
    """Core §5.5: one guaranteed normal save."""
    HEAVY = 2
    """Core §5.6: one guaranteed critical save."""

    @classmethod
    def parse(cls, name: str | None) -> Cover:
        """Returns the cover named ``light``/``heavy``, NONE for None."""
        return cls[name.upper()] if name else cls.NONE


def sample_points(body: Body) -> np.ndarray:
    """Returns the points sight lines start or end at (house ruling 8), as an (n, 2) array."""
    if body.kind == "model":
        r = body.radius
        rim = [(body.x + r * math.cos(k * math.pi / 4), body.y + r * math.sin(k * math.pi / 4))
               for k in range(8)]
        pts = [(body.x, body.y), *rim]
        return np.array(pts)
    ring = list(body.shape.exterior.coords)[:-1]
    pairs = zip(ring, ring[1:] + ring[:1], strict=True)
    mids = [((ax + bx) / 2, (ay + by) / 2) for (ax, ay), (bx, by) in pairs]
    return np.array([(body.x, body.y), *ring, *mids])


def _sight_lines(a: Body, b: Body) -> np.ndarray:
    pa, pb = sample_points(a), sample_points(b)
    starts = np.repeat(pa, len(pb), axis=0)
    ends = np.tile(pb, (len(pa), 1))
    return shapely.linestrings(np.stack([starts, ends], axis=1))


def _runs_through(lines: np.ndarray, shape: shapely.Geometry) -> np.ndarray:
    hit = shapely.intersects(lines, shape)
    if hit.any():
        hit[hit] = shapely.relate_pattern(lines[hit], shape, "1********")
    return hit


def _blocking(terrain: Terrain, shooter: Body, target: Body, pieces: list[Piece]) -> list[Piece]:
    ea = terrain.elevation(shooter.x, shooter.y) if shooter.kind == "model" else 0.0
    eb = terrain.elevation(target.x, target.y) if target.kind == "model" else 0.0
    out = []
    for p in pieces:
        if p.traits.blocks_sight or (p.traits.height > max(ea, eb) and p.traits.height > 0):
            out.append(p)
        elif p.traits.obscuring:
            inside = p.shape.covers(shooter.centre) or p.shape.covers(target.centre)
            if not inside:
                out.append(p)
    return out


def _blockers(terrain: Terrain, shooter: Body, target: Body,
              bodies: Iterable[Body]) -> list[tuple[str, shapely.Geometry]]:
    hull = shapely.convex_hull(shapely.union(shooter.shape, target.shape))
    out = [(p.id, p.shape) for p in _blocking(terrain, shooter, target, terrain.near(hull))]
    out += [(b.id, b.shape) for b in bodies
            if b.blocks and b.id not in (shooter.id, target.id) and b.shape.intersects(hull)]
    return out


def _parts(geom: shapely.Geometry) -> list[shapely.Geometry]:
    return list(getattr(geom, "geoms", [geom]))


def in_the_way(terrain: Terrain, shooter: Body, target: Body, bodies: Iterable[Body] = ()) -> list[str] | None:
    """Returns the ids of what hides ``target`` from ``shooter``, or None when it is visible.

    Blockers: sight-blocking pieces, Obscuring footprints neither model is inside (no
    shooting through from outside to outside), hills higher than both, and standing
    buildings other than the two. Models never block. Blockers whose footprints touch
    block together (core §5.7, §5.14): their union is tested, so no line slips through
    the seam between two buildings built flush or two ruins set edge to edge. The ids
    named are those of the blockers forming the groups the centre line runs through.
    """
    found = _blockers(terrain, shooter, target, bodies)
    if not found:
        return None
    lines = _sight_lines(shooter, target)
    shapes = [shape for _, shape in found]
    groups = _parts(shapely.union_all(shapes)) if len(shapes) > 1 else shapes
    centre_line = lines[:1]  # both sample lists start with the centre
    hiding = [g for g in groups if _runs_through(centre_line, g)[0]]
    if not hiding:
        return None
    open_lines = lines
    for shape in groups:
        open_lines = open_lines[~_runs_through(open_lines, shape)]
        if len(open_lines) == 0:
            break
    else:
        return None
    return [pid for pid, shape in found
            if any(shape.intersection(g).area > EPS for g in hiding)]


def visible(terrain: Terrain, shooter: Body, target: Body, bodies: Iterable[Body] = ()) -> bool:
    """True when some sampled line from ``shooter`` to ``target`` is clear (core §5.3, §5.7).

    See :func:`in_the_way` for what blocks a line.
    """
    return in_the_way(terrain, shooter, target, bodies) is None


def _crosses(line: LineString, shape: shapely.Geometry) -> bool:
    return bool(line.intersects(shape)) and line.intersection(shape).length > EPS


def cover(terrain: Terrain, shooter: Body, target: Body, bodies: Iterable[Body] = ()) -> Cover:
    """Returns the best cover ``target`` claims against ``shooter`` (core §5.4–5.14, ruling 9).

    Buildings claim none. A shooter standing 5" or more above the target ignores Light.
    """
    if target.kind != "model":
        return Cover.NONE
    line = LineString([(shooter.x, shooter.y), (target.x, target.y)])
    reach = terrain.cover_reach
    best = Cover.NONE
    for p in terrain.near(line.union(target.centre)):
        if p.traits.cover_inside and p.shape.covers(target.centre):
            best = max(best, Cover.parse(p.traits.cover_inside))
        if p.traits.cover_crossed and _crosses(line, p.shape) and edge_distance(target, p.shape) <= reach + EPS:
            best = max(best, Cover.parse(p.traits.cover_crossed))
        for shape, kind in p.features:
            if _crosses(line, shape) and edge_distance(target, shape) <= reach + EPS:
                best = max(best, Cover.parse(kind))
    for b in bodies:
        if (b.kind != "model" and b.id not in (shooter.id, target.id) and _crosses(line, b.shape)
                and edge_distance(target, b) <= reach + EPS):
            best = max(best, Cover.LIGHT)
    if best == Cover.LIGHT and shooter.kind == "model":
        height = terrain.elevation(shooter.x, shooter.y) - terrain.elevation(target.x, target.y)
        if height >= terrain.high_ground - EPS:
            return Cover.NONE
    return best
