"""What one piece can do from where it stands, for the ``/nexo show <unit>`` picture.

:func:`overlay` returns JSON-able marks: the 1" squares a unit can end a Move in (and those
only a Dash reaches), its weapons' ranges, and the enemy pieces it can see, with their
cover and whether a weapon reaches them::

    >>> from engines.nexo.game import Nexo
    >>> marks = overlay(Nexo.new(["ann", "bob"], seed=1).world(), "a3")
    >>> sorted(marks), marks["unit"], marks["cell"], len(marks["move"]) > 100
    (['cell', 'dash', 'move', 'ranges', 'sight', 'unit'], 'a3', 1.0, True)
    >>> marks["ranges"], marks["sight"]
    ([{'weapon': 'carbine', 'range': 18.0, 'melee': False}], [])

Readings chosen here:

- A square counts when the unit's centre can end on the square's centre. Straight moves
  are judged exactly as ``plan_move`` and ``check_move`` judge them; squares beyond an
  obstacle count too when a path of waypoints through the centres of neighbouring squares
  (steps of up to 2.2") reaches them within the allowance. Every square shown is a legal
  end; a cleverer path may reach a few more.
- "Now": a unit that has moved, whose activation is over, that was produced this round or
  is Pinned gets no squares; whose turn or phase it is does not matter, so a player can see
  an enemy's reach. ``dash`` is empty for a unit that may not Dash (a worker, or a unit
  that shot). Buildings never move.
- A melee weapon's range is its Fight reach, 1" (2" across a barricade is not shown).
- ``sight`` lists the enemy pieces (units and standing buildings) the piece can see
  (:func:`engines.nexo.sight.visible`), by id; ``cover`` is what the target would claim
  against a shot from here, ``in_range`` whether one of the piece's weapons reaches it
  (range edge to edge, or Fight reach).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from engines.core.errors import IllegalMove
from engines.nexo.activation import allowance, move_problem
from engines.nexo.attacks import weapons_of
from engines.nexo.geometry import EPS, FIGHT_REACH, check_move, fight_reach, in_range, plan_move
from engines.nexo.sight import cover, in_the_way
from engines.nexo.state import Building, Model
from engines.nexo.world import World

CELL = 1.0
"""The side of the squares of ``move`` and ``dash``, in inches."""
MARGIN = 0.01
"""Lines this close to the edge of an obstacle's clearance are checked exactly."""
STEPS = ((1, 0), (0, 1), (1, 1), (1, -1), (1, 2), (2, 1), (1, -2), (2, -1))
"""The steps between square centres a path may take (and their reverses)."""

Pos = tuple[float, float]


def overlay(w: World, unit_id: str) -> dict[str, Any]:
    """Returns what ``unit_id`` can reach, shoot at and see now (see the module's readings).

    ``{"unit", "cell", "move": [[x, y], ...], "dash": [[x, y], ...], "ranges": [{"weapon",
    "range", "melee"}], "sight": [{"target", "cover", "in_range"}]}``. Raises IllegalMove for
    an unknown id.
    """
    pid = w.resolve(unit_id)
    p = w.piece(pid)
    move, dash = reach(w, p) if isinstance(p, Model) else ([], [])
    weapons = weapons_of(w, p)
    return {
        "unit": pid, "cell": CELL,
        "move": [list(c) for c in move], "dash": [list(c) for c in dash],
        "ranges": [{"weapon": wp.name, "range": float(FIGHT_REACH if wp.range is None else wp.range),
                    "melee": wp.melee} for wp in weapons],
        "sight": sight(w, p),
    }


def sight(w: World, p: Model | Building) -> list[dict[str, Any]]:
    """Returns the enemy pieces ``p`` can see, by id: ``{"target", "cover", "in_range"}``."""
    me, bodies = w.body(p), w.bodies()
    pieces: list[Model | Building] = [*w.state.models.values(), *w.state.buildings.values()]
    out = []
    for e in sorted(pieces, key=lambda e: e.id):
        if e.owner == p.owner or (isinstance(e, Building) and e.wreck):
            continue
        them = w.body(e)
        if in_the_way(w.terrain, me, them, bodies) is not None:
            continue
        reaches = any(fight_reach(w.terrain, me, them) if wp.range is None else in_range(me, them, wp.range)
                      for wp in weapons_of(w, p))
        out.append({"target": e.id, "cover": cover(w.terrain, me, them, bodies).name.lower(),
                    "in_range": reaches})
    return out


def may_move(w: World, m: Model) -> bool:
    """True when ``m`` can still take a Movement Action this round (see the module's readings)."""
    if w.state.active == m.id:
        return move_problem(w, m, dash=False) is None
    return not m.activated and not m.fresh and m.wia != "pinned" and move_problem(w, m, dash=False) is None


def reach(w: World, m: Model, *, waypoints: bool = True) -> tuple[list[Pos], list[Pos]]:
    """Returns the square centres ``m`` can end a Move in now, and those only a Dash reaches.

    With ``waypoints`` false only straight moves count: exactly the squares whose centre
    ``plan_move`` and ``check_move`` accept as a one-position move.
    """
    if not may_move(w, m):
        return [], []
    move = allowance(w, m)
    budget = allowance(w, m, dash=True) if move_problem(w, m, dash=True) is None else move
    found = costs(w, m, budget, waypoints=waypoints)
    inside = sorted(c for c, (cost, _) in found.items() if cost <= move + EPS)
    beyond = sorted(c for c, (cost, _) in found.items() if cost > move + EPS)
    return inside, beyond


@dataclass
class _Field:
    """The squares near a mover and what stands in their way, as arrays."""

    cells: list[Pos]
    points: np.ndarray
    in_box: np.ndarray
    near_box: np.ndarray
    end_ok: np.ndarray
    end_near: np.ndarray
    clear: BaseGeometry
    blocked: BaseGeometry


def _field(w: World, m: Model, budget: float) -> _Field:
    t, r = w.terrain, w.unit_type(m).base_radius
    lo_x, hi_x = math.floor((m.x - budget) / CELL), math.ceil((m.x + budget) / CELL)
    lo_y, hi_y = math.floor((m.y - budget) / CELL), math.ceil((m.y + budget) / CELL)
    cells = [((i + 0.5) * CELL, (j + 0.5) * CELL) for i in range(max(lo_x, 0), min(hi_x, int(t.width / CELL)))
             for j in range(max(lo_y, 0), min(hi_y, int(t.length / CELL)))]
    cells = [c for c in cells if math.dist(c, (m.x, m.y)) <= budget + EPS]
    pts = np.array(cells, dtype=float).reshape(-1, 2)
    room = np.minimum.reduce([pts[:, 0], t.width - pts[:, 0], pts[:, 1], t.length - pts[:, 1]]) - r if len(cells) \
        else np.zeros(0)
    area = Point(m.x, m.y).buffer(budget + r + 1)
    solid = [b.shape for b in w.bodies() if b.id != m.id and b.kind != "wreckage" and b.shape.intersects(area)]
    solid += [p.shape for p in t.touching(area) if p.traits.impassable]
    lines = [p.shape for p in t.touching(area) if p.traits.no_stopping]
    union = shapely.union_all(solid) if solid else None
    clear = union.buffer(r + MARGIN) if union is not None else Point()
    blocked = union.buffer(r - MARGIN) if union is not None else Point()
    shapely.prepare(clear)
    shapely.prepare(blocked)
    points = shapely.points(pts) if len(cells) else np.array([], dtype=object)
    if lines and len(cells):
        gap = shapely.distance(points, shapely.union_all(lines)) - r
    else:
        gap = np.full(len(cells), np.inf)
    return _Field(cells, points, room >= MARGIN, room >= -MARGIN, gap >= MARGIN, gap >= -MARGIN, clear, blocked)


def _exact(w: World, m: Model, path: list[Pos], budget: float) -> float | None:
    """Returns the cost of moving ``m`` along ``path`` when ``plan_move`` accepts it within ``budget``."""
    try:
        plan = plan_move(w.terrain, w.body(m), path, w.bodies(), pathfinder="pathfinder" in w.unit_type(m).abilities)
        check_move(plan, budget, m.id)
    except IllegalMove:
        return None
    return plan.cost


def _costs(w: World, m: Model, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Returns what each straight segment costs (length, plus its Difficult Ground part again)."""
    lines = shapely.linestrings(np.stack([starts, ends], axis=1))
    cost = np.asarray(shapely.length(lines), dtype=float)
    difficult = w.terrain.difficult
    if "pathfinder" not in w.unit_type(m).abilities and not difficult.is_empty:
        hit = shapely.intersects(lines, difficult)
        if hit.any():
            cost[hit] += shapely.length(shapely.intersection(lines[hit], difficult))
    return cost


def costs(w: World, m: Model, budget: float, *, waypoints: bool = True) -> dict[Pos, tuple[float, list[Pos]]]:
    """Returns the square centres ``m`` can end on within ``budget`` inches: what it costs and a path.

    The path (the positions of a ``move``) is one the game accepts: every segment clears the
    obstacles, the end is not on a barricade or pipe, and the cost is ``plan_move``'s.
    Lines near an obstacle's clearance, the edge or a barricade are checked with ``plan_move``.
    """
    f = _field(w, m, budget)
    if not f.cells:
        return {}
    ends = np.array(f.cells)
    starts = np.repeat(np.array([[m.x, m.y]]), len(f.cells), axis=0)
    lines = shapely.linestrings(np.stack([starts, ends], axis=1))
    cost = _costs(w, m, starts, ends)
    affordable = cost <= budget + EPS
    via = f.in_box & ~shapely.intersects(lines, f.clear) & affordable  # a sure straight segment
    sure = via & f.end_ok
    unsure = affordable & ~sure & f.near_box & f.end_near & ~shapely.intersects(lines, f.blocked)
    out: dict[Pos, tuple[float, list[Pos]]] = {f.cells[i]: (float(cost[i]), [f.cells[i]]) for i in np.flatnonzero(sure)}
    for i in np.flatnonzero(unsure):
        exact = _exact(w, m, [f.cells[i]], budget)
        if exact is not None:
            out[f.cells[i]] = (exact, [f.cells[i]])
    if not waypoints:
        return out
    best = _paths(w, m, f, {int(i): (float(cost[i]), [f.cells[i]]) for i in np.flatnonzero(via)}, budget)
    for k, (c, path) in best.items():
        cell = f.cells[k]
        if cell in out and out[cell][0] <= c + EPS:
            continue
        if f.end_ok[k] or (f.end_near[k] and _exact(w, m, path, budget) is not None):
            out[cell] = (c, path)
    return out


def _paths(w: World, m: Model, f: _Field, best: dict[int, tuple[float, list[Pos]]],
           budget: float) -> dict[int, tuple[float, list[Pos]]]:
    """Extends straight reach by paths through neighbouring square centres (Dijkstra)."""
    index = {c: i for i, c in enumerate(f.cells)}
    pairs = [(i, index[(x + dx * CELL, y + dy * CELL)]) for i, (x, y) in enumerate(f.cells) if f.in_box[i]
             for dx, dy in STEPS if (x + dx * CELL, y + dy * CELL) in index]
    pairs = [(a, b) for a, b in pairs if f.in_box[b]]
    if not pairs:
        return best
    a_idx = np.array([a for a, _ in pairs])
    b_idx = np.array([b for _, b in pairs])
    pts = np.array(f.cells)
    seg = shapely.linestrings(np.stack([pts[a_idx], pts[b_idx]], axis=1))
    ok = ~shapely.intersects(seg, f.clear)
    step_cost = _costs(w, m, pts[a_idx], pts[b_idx])
    edges: dict[int, list[tuple[int, float]]] = {}
    for a, b, good, c in zip(a_idx, b_idx, ok, step_cost, strict=True):
        if good:
            edges.setdefault(int(a), []).append((int(b), float(c)))
            edges.setdefault(int(b), []).append((int(a), float(c)))
    heap = [(c, i) for i, (c, _) in best.items()]
    heapq.heapify(heap)
    done: set[int] = set()
    while heap:
        c, i = heapq.heappop(heap)
        if i in done:
            continue
        done.add(i)
        for j, step in edges.get(i, ()):
            total = c + step
            if total <= budget + EPS and (j not in best or total < best[j][0] - EPS):
                best[j] = (total, [*best[i][1], f.cells[j]])
                heapq.heappush(heap, (total, j))
    return best

