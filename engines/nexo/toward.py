"""The "toward" forms of ``move``/``dash``: a goal typed instead of positions (house "Notation").

``move a1 toward K1`` goes straight toward a Carbonite depot, a unit or a building and stops
short of it; ``move a1 cover`` goes straight to the nearest spot where the unit claims
cover. :func:`resolve` turns either into the plain :class:`~engines.nexo.moves.Go` the game
plays and logs, so a replay never resolves a form again::

    >>> from engines.nexo.data import default_ruleset
    >>> from engines.nexo.scenario import load_scenario
    >>> from engines.nexo.world import World
    >>> w = World(load_scenario(None, default_ruleset(), seed=1), default_ruleset())
    >>> str(resolve(w, "p1", Toward("move", "a1", "k1")))
    'move a1 15.02,12.26'

Readings chosen here:

- ``toward <id>``: the id is a depot (any case) or a unit or building of either side,
  wreckage included. The unit heads for the goal's centre and stops short of its body:
  0.5" from a depot's or building's edge (within Harvest, Build and Repair reach), 0.6"
  from a model's base (within Fight reach). It goes the whole way its allowance permits,
  else half of that, whichever is legal first (the stepping of the sampled moves in
  :mod:`engines.nexo.legal`); when neither is, the form is refused with the reason.
- ``cover``: the threat is the enemy piece with a ranged weapon nearest to the unit now,
  centre to centre (a model, or a defensive building that may attack). A spot is in cover
  when the unit standing there would claim Light or Heavy cover against the threat
  (:func:`engines.nexo.sight.cover`): inside a ruin, crater or rubble, or within 1" of a
  barricade, pipe, debris, sealed structure, ruin feature or building the threat's line
  crosses. Sight is not considered. The spots tried lie on a 0.5" lattice around the unit,
  nearest first (ties by x, then y); the first in cover that a straight move reaches is
  the end. A unit already in cover where it stands, or with no armed enemy, is refused.
- Only what the unit has done is checked here (a second Movement Action, a Dash after
  shooting, a worker's Dash); eligibility and the turn are checked when the move is played.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from engines.core.errors import IllegalMove, shown
from engines.core.words import nearest
from engines.nexo.activation import allowance, move_problem
from engines.nexo.attacks import weapons_of
from engines.nexo.geometry import EPS, Body, check_move, model_body, plan_move
from engines.nexo.layout import DEPOT_RADIUS
from engines.nexo.moves import Go, Pos, Toward, fmt_pos
from engines.nexo.sight import Cover, cover
from engines.nexo.state import Building, Model
from engines.nexo.world import World

EDGE_GAP = 0.5
"""How far short of a depot's or building's edge a ``toward`` move stops."""
MODEL_GAP = 0.6
"""How far short of a model's base a ``toward`` move stops (inside Fight reach)."""
BESIDE = 0.3
"""A unit with no more than this to go toward its goal is already beside it."""
LATTICE = 0.5
"""The spacing of the spots ``cover`` tries."""


@dataclass(frozen=True)
class Goal:
    """What a ``toward`` form heads for: ``kind`` is ``depot``, ``unit`` or ``building``."""

    kind: str
    id: str
    x: float
    y: float
    shape: BaseGeometry
    radius: float | None = None
    """The radius of a round goal (a depot, a model's base); None for a footprint."""


@dataclass(frozen=True)
class Resolved:
    """A form resolved: the move to play, how far it goes, and the cover it ends in (``cover``)."""

    go: Go
    distance: float
    cover: Cover = Cover.NONE
    threat: str | None = None

    @property
    def end(self) -> Pos:
        """Where the unit ends."""
        return self.go.path[-1]


def resolve(w: World, seat: str, order: Toward) -> Go:
    """Returns the plain move ``order`` stands for, for ``seat``; raises IllegalMove.

    See the module's readings for where each form ends.
    """
    return resolve_full(w, seat, order).go


def resolve_full(w: World, seat: str, order: Toward) -> Resolved:
    """Returns :func:`resolve`'s move with its distance and, for ``cover``, the cover and threat."""
    m = w.model(order.unit)
    if m.owner != seat:
        raise IllegalMove(f"{m.id} is not yours.")
    problem = move_problem(w, m, dash=order.verb == "dash")
    if problem:
        raise IllegalMove(problem + ".")
    what = f"toward {order.goal}" if order.goal else "into cover"
    reach = allowance(w, m, dash=order.verb == "dash")
    bodies = w.bodies()
    try:
        if order.goal is None:
            return _into_cover(w, m, order.verb, reach, bodies)
        return _toward(w, m, order.verb, reach, bodies, order.goal)
    except _Refused as why:
        raise IllegalMove(f"{m.id} cannot {order.verb} {what}: {why}.") from None


class _Refused(Exception):
    """Why a form resolves to nothing legal (becomes the IllegalMove's reason)."""


def find_goal(w: World, name: str) -> Goal | None:
    """Returns the depot, unit or building ``name`` names (ids resolved as :meth:`World.resolve`), or None."""
    for d in w.state.depots:
        if d.id.lower() == name.lower():
            return Goal("depot", d.id, d.x, d.y, Point(d.x, d.y).buffer(DEPOT_RADIUS), DEPOT_RADIUS)
    try:
        pid = w.resolve(name)
    except IllegalMove:
        return None
    p = w.piece(pid)
    body = w.body(p)
    if isinstance(p, Model):
        return Goal("unit", pid, p.x, p.y, body.shape, w.unit_type(p).base_radius)
    return Goal("building", pid, p.x, p.y, body.shape)


def room(m: Model, radius: float, goal: Goal) -> float:
    """Returns how far ``m`` (base ``radius``) may go straight toward ``goal`` before it is its gap away.

    The gap is :data:`MODEL_GAP` from a model's base, :data:`EDGE_GAP` from other edges.
    """
    full = math.dist((m.x, m.y), (goal.x, goal.y))
    need = radius + (MODEL_GAP if goal.kind == "unit" else EDGE_GAP)
    if goal.radius is not None:
        return full - goal.radius - need
    if full <= EPS or Point(m.x, m.y).distance(goal.shape) < need:
        return 0.0
    lo, hi = 0.0, full  # the distance to a convex footprint only falls toward its centre
    for _ in range(40):
        mid = (lo + hi) / 2
        t = mid / full
        if Point(m.x + (goal.x - m.x) * t, m.y + (goal.y - m.y) * t).distance(goal.shape) >= need:
            lo = mid
        else:
            hi = mid
    return lo


def end_problem(w: World, m: Model, end: Pos, reach: float, bodies: list[Body]) -> str | None:
    """Returns why a straight move of ``m`` to ``end`` is not legal within ``reach``, or None."""
    try:
        plan = plan_move(w.terrain, w.body(m), [end], bodies,
                         pathfinder="pathfinder" in w.unit_type(m).abilities)
        check_move(plan, reach, m.id)
    except IllegalMove as err:
        return str(err).rstrip(".")
    return None


def straight_end(w: World, m: Model, bodies: list[Body], reach: float, gx: float, gy: float,
                 dist: float) -> tuple[Pos | None, str | None]:
    """Returns the end of the longest legal straight step of ``m`` toward ``(gx, gy)``, or why none is.

    The step is ``min(reach, dist)``, else half of it (positions at two decimals); the
    reason given is the full step's.
    """
    full = math.dist((m.x, m.y), (gx, gy))
    step = min(reach, dist)
    first: str | None = None
    for frac in (1.0, 0.5):
        t = step * frac / full
        end = (round(m.x + (gx - m.x) * t, 2), round(m.y + (gy - m.y) * t, 2))
        problem = end_problem(w, m, end, reach, bodies)
        if problem is None:
            return end, None
        first = first or problem
    return None, first


def _toward(w: World, m: Model, verb: str, reach: float, bodies: list[Body], name: str) -> Resolved:
    goal = find_goal(w, name)
    if goal is None:
        near = nearest(name, [*(d.id for d in w.state.depots), *w.state.models, *w.state.buildings])
        raise _Refused(f"there is no depot, unit or building '{shown(name, 20)}'"
                       + (f" (did you mean {near}?)" if near else ""))
    if goal.id == m.id:
        raise _Refused("a unit cannot move toward itself")
    dist = room(m, w.unit_type(m).base_radius, goal)
    if dist <= BESIDE:
        raise _Refused(f"it is already beside {goal.id}")
    if reach <= 0:
        raise _Refused(f"it can move {reach:g}\" now")
    end, problem = straight_end(w, m, bodies, reach, goal.x, goal.y, dist)
    if end is None:
        raise _Refused(str(problem))
    return Resolved(Go(verb, m.id, (end,)), math.dist((m.x, m.y), end))


def threat(w: World, m: Model) -> Model | Building | None:
    """Returns the enemy piece with a ranged weapon nearest to ``m`` (centre to centre, then id), or None.

    Buildings count while they may attack (:meth:`World.turret_ready`).
    """
    pieces: list[Model | Building] = [*w.state.models.values(), *w.state.buildings.values()]
    armed = [p for p in pieces if p.owner != m.owner and any(not wp.melee for wp in weapons_of(w, p))
             and (isinstance(p, Model) or w.turret_ready(p))]
    return min(armed, key=lambda p: (math.dist((m.x, m.y), (p.x, p.y)), p.id), default=None)


def lattice(x: float, y: float, reach: float) -> list[Pos]:
    """Returns the spots :data:`LATTICE` apart around ``(x, y)`` within ``reach``, nearest first.

        >>> lattice(10, 10, 0.5)
        [(9.5, 10.0), (10.0, 9.5), (10.0, 10.5), (10.5, 10.0)]
    """
    n = int(reach / LATTICE + EPS) + 1
    out = []
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            px, py = round(x + LATTICE * i, 2), round(y + LATTICE * j, 2)
            d = math.dist((x, y), (px, py))
            if (i or j) and d <= reach + EPS:
                out.append((d, px, py))
    out.sort()
    return [(px, py) for _, px, py in out]


def _cover_sources(w: World, radius: float, bodies: list[Body], shooter: str) -> BaseGeometry:
    """Returns where a centre must lie to claim any cover at all: a cheap filter of the spots."""
    reach = w.terrain.cover_reach + radius + EPS
    parts: list[BaseGeometry] = []
    for p in w.terrain.pieces:
        if p.traits.cover_inside:
            parts.append(p.shape.buffer(EPS))
        if p.traits.cover_crossed:
            parts.append(p.shape.buffer(reach))
        parts += [shape.buffer(reach) for shape, _ in p.features]
    parts += [b.shape.buffer(reach) for b in bodies if b.kind != "model" and b.id != shooter]
    return shapely.union_all(parts) if parts else Point()


def _into_cover(w: World, m: Model, verb: str, reach: float, bodies: list[Body]) -> Resolved:
    foe = threat(w, m)
    if foe is None:
        raise _Refused("no enemy piece has a ranged weapon to take cover from")
    seen_from = w.body(foe)
    radius = w.unit_type(m).base_radius
    here = cover(w.terrain, seen_from, w.body(m), bodies)
    if here:
        raise _Refused(f"it already has {here.name.lower()} cover from {foe.id} where it stands")
    if reach <= 0:
        raise _Refused(f"it can move {reach:g}\" now")
    spots = lattice(m.x, m.y, reach)
    sources = _cover_sources(w, radius, bodies, foe.id)
    near = shapely.intersects(shapely.points(np.array(spots)), sources) if spots else np.array([], bool)
    for (x, y), ok in zip(spots, near, strict=True):
        if not ok:
            continue
        got = cover(w.terrain, seen_from, model_body(m.id, x, y, radius), bodies)
        if got and end_problem(w, m, (x, y), reach, bodies) is None:
            return Resolved(Go(verb, m.id, ((x, y),)), math.dist((m.x, m.y), (x, y)), got, foe.id)
    raise _Refused(f"no spot within {reach:g}\" gives it cover from {foe.id}")


def label(w: World, r: Resolved, goal: Goal | None = None) -> str:
    """Returns how a suggestion names a resolved form (``goal`` None: ``cover``).

    For example ``toward depot K1 (ends 12.5,30, 6")``, ``toward enemy trooper b3 (…)`` or
    ``into cover (ends 9,22, 2.5", light vs b3)``; the label of a Dash reads the same (its
    order says ``dash``).
    """
    ends = f"ends {fmt_pos(r.end)}, {round(r.distance, 1):g}\""
    if goal is None:
        return f"into cover ({ends}, {r.cover.name.lower()} vs {r.threat})"
    if goal.kind == "depot":
        what = f"depot {goal.id}"
    else:
        p = w.piece(goal.id)
        title = (w.unit_type(p).title if isinstance(p, Model) else w.faction.buildings[p.type].title).lower()
        side = "own" if p.owner == w.piece(r.go.unit).owner else "enemy"
        what = f"{side} {title} {goal.id}"
    return f"toward {what} ({ends})"
