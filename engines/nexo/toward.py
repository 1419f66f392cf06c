"""The "toward" forms of ``move``/``dash``: a goal typed instead of positions (house "Notation").

``move a1 toward K1`` goes toward a Carbonite depot, a unit or a building and stops short
of it, around whatever is in the way; ``move a1 cover`` goes straight to the nearest spot
where the unit claims cover. :func:`resolve` turns either into the plain
:class:`~engines.nexo.moves.Go` the game plays and logs, so a replay never resolves a form
again::

    >>> from engines.nexo.data import default_ruleset
    >>> from engines.nexo.scenario import load_scenario
    >>> from engines.nexo.world import World
    >>> w = World(load_scenario(None, default_ruleset(), seed=1), default_ruleset())
    >>> str(resolve(w, "p1", Toward("move", "a1", "k1")))
    'move a1 13.05,14.51'

Readings chosen here:

- ``toward <id>``: the id is a depot (any case) or a unit or building of either side,
  wreckage included. A goal may be named in words instead (:func:`named_goal`; the rulebook
  is silent, this is our reading): an optional ``the``; an owner, ``enemy``/``their`` (the
  opponent), ``my``/``own``/``our`` (the mover's side) or a player's name, with ``'s`` or
  not; then what it is: a unit or building type by its title or key in any case
  (``Headquarters``, ``drudge``, or an alias of :data:`ALIASES` such as ``hq``),
  ``unit``, ``building``, ``depot`` (any depot: depots belong to no one) or an id
  (``the enemy b3``). ``nearest``/``closest`` may come before or after the owner and
  change nothing. An owner alone (``enemy``, ``nearest enemy``) is any of that side's units and
  buildings; no owner is either side's. Of all that match, the unit heads for the one
  whose centre is nearest its own (ties by id), never itself; wreckage is named by id
  only. An id always wins over a name (``toward b3`` is the piece b3); words that match
  nothing are refused, naming what there is (``There is no enemy Foundry; enemy
  buildings: B1 Headquarters, B2 Generator.``).
- The unit heads for the goal's centre and stops short of its body:
  0.5" from a depot's or building's edge (within Harvest, Build and Repair reach), 0.6"
  from a model's base (within Fight reach).
- It goes straight when it can: the longest legal step along the line, up to its
  allowance or its stop (:func:`longest_step`, tried every 0.01"; ends on a barricade or
  pipe are skipped). When that straight step falls short of both by more than 0.02"
  (:data:`ROUTE_SLACK`), the unit takes the shortest route around impassable terrain,
  buildings and other models (:mod:`engines.nexo.route`) to its stop, or to a spot beside
  the goal when its centre cannot be reached, and goes the longest legal part of it when
  that goes further than the straight step; the route's corners become waypoints. When no
  step is legal, the form is refused with the full straight step's reason.
- Positions are worked out at full precision and played at two decimals: the end is
  rounded toward the waypoint before it (:func:`toward_start`), so the printed move is
  never longer than the one checked; route corners are rounded to the nearest 0.01", as
  they lie 0.05" clear of the obstacles (:data:`engines.nexo.route.CLEARANCE`).
- ``cover``: the threat is the enemy piece with a ranged weapon nearest to the unit now,
  centre to centre (a model, or a defensive building that may attack). A spot is in cover
  when the unit standing there would claim Light or Heavy cover against the threat
  (:func:`engines.nexo.sight.cover`): inside a ruin, crater or rubble, or within 1" of a
  barricade, pipe, debris, sealed structure, ruin feature or building the threat's line
  crosses. Sight is not considered. The spots tried lie on a 0.5" lattice around the unit,
  nearest first (ties by x, then y); the first in cover that a straight move reaches is
  the end. When none is, the shortest route around the obstacles to one of the nearest
  :data:`ROUTED_COVER` spots in cover is the move, if it is within reach. A unit already
  in cover where it stands, or with no armed enemy, is refused.
- Only what the unit has done is checked here (a second Movement Action, a Dash after
  shooting, a worker's Dash); eligibility and the turn are checked when the move is played.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

import numpy as np
import shapely
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from engines.core.errors import IllegalMove, shown
from engines.core.words import nearest
from engines.nexo import route
from engines.nexo.activation import allowance, move_problem
from engines.nexo.attacks import weapons_of
from engines.nexo.geometry import EPS, Body, check_move, model_body, plan_move
from engines.nexo.layout import DEPOT_RADIUS
from engines.nexo.moves import (
    APOSTROPHES,
    DECIMALS,
    ENEMY_WORDS,
    KIND_WORDS,
    NAME_LEADS,
    NEAREST_WORDS,
    OWN_WORDS,
    Go,
    Pos,
    Toward,
    fmt_pos,
)
from engines.nexo.sight import Cover, cover
from engines.nexo.state import Building, Model, other
from engines.nexo.terrain import Terrain
from engines.nexo.world import World

EDGE_GAP = 0.5
"""How far short of a depot's or building's edge a ``toward`` move stops."""
MODEL_GAP = 0.6
"""How far short of a model's base a ``toward`` move stops (inside Fight reach)."""
BESIDE = 0.3
"""A unit with no more than this to go toward its goal is already beside it."""
LATTICE = 0.5
"""The spacing of the spots ``cover`` tries."""
ROUTED_COVER = 40
"""Spots in cover, nearest first, that ``cover`` may route to when no straight move reaches one."""
STEP_GRAIN = 0.01
"""How finely :func:`longest_step` tries the steps along a path."""
ROUTE_SLACK = 0.02
"""A straight step shorter than the allowance (or the room) by more than this looks for a route."""
ALIASES: dict[str, str] = {"hq": "headquarters"}
"""Names players write for a unit or building type besides its title and key, by the type's
key (the ruleset has no place for them): ``toward the enemy HQ`` is ``toward the enemy
headquarters``."""
LISTED = 8
"""A refusal of a goal named in words lists at most this many of the pieces there are."""


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
class Name:
    """A goal named in words, read (:func:`read_name`): whose it is and what it is.

    ``owner`` is a seat (None: either side's) and ``whose`` how it was said: ``enemy``,
    ``own``, a player's name, or None. ``kind`` is ``depot``, ``unit``, ``building`` or
    None (any unit or building); ``type`` a unit or building type's key; ``id`` a goal's id.
    """

    owner: str | None = None
    whose: str | None = None
    kind: str | None = None
    type: str | None = None
    id: str | None = None


@dataclass(frozen=True)
class Resolved:
    """A form resolved: the move to play, how far it goes, the goal it heads for (``toward``)
    and the cover it ends in (``cover``)."""

    go: Go
    distance: float
    cover: Cover = Cover.NONE
    threat: str | None = None
    goal: Goal | None = None

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
    """Returns the depot, unit or building ``name`` names (ids resolved as :meth:`World.resolve`), or None.

    Only ids: a name in words is read by :func:`named_goal`, which needs the mover.
    """
    for d in w.state.depots:
        if d.id.lower() == name.lower():
            return Goal("depot", d.id, d.x, d.y, Point(d.x, d.y).buffer(DEPOT_RADIUS), DEPOT_RADIUS)
    try:
        pid = w.resolve(name)
    except IllegalMove:
        return None
    return goal_of(w, w.piece(pid))


def goal_of(w: World, p: Model | Building) -> Goal:
    """Returns the unit or building ``p`` as a goal."""
    body = w.body(p)
    if isinstance(p, Model):
        return Goal("unit", p.id, p.x, p.y, body.shape, w.unit_type(p).base_radius)
    return Goal("building", p.id, p.x, p.y, body.shape)


_WORD = re.compile(r"'|[^\s']+")


def _words(text: str) -> list[str]:
    """Returns the words of ``text``, each apostrophe a word of its own (``bob's``: bob ' s)."""
    for mark in APOSTROPHES:
        text = text.replace(mark, "'")
    return _WORD.findall(text)


def _flat(text: str) -> str:
    """Returns ``text`` as :func:`read_name` compares it: its words, case-folded, one space apart."""
    return " ".join(_words(text.casefold()))


def _unsaid(words: list[str], said: frozenset[str]) -> list[str]:
    """Returns ``words`` without the leading ones in ``said``."""
    while words and words[0].casefold() in said:
        words = words[1:]
    return words


def _possessive(words: list[str]) -> list[str]:
    """Returns ``words`` without a leading ``'s`` (or ``'``, as in ``james'``)."""
    if words[:2] == ["'", "s"] or words[:2] == ["'", "S"]:
        return words[2:]
    return words[1:] if words[:1] == ["'"] else words


def _thing(w: World, words: list[str]) -> tuple[str | None, str | None, str | None] | None:
    """Returns the (kind, type, id) ``words`` name (all None: nothing said), or None when they name nothing."""
    low = [t.casefold() for t in words]
    if not low:
        return None, None, None
    if low in (["depot"], ["carbonite", "depot"]):
        return "depot", None, None
    if low in (["unit"], ["building"]):
        return low[0], None, None
    if len(low) == 1 or (len(low) == 2 and low[0] in KIND_WORDS):
        goal = find_goal(w, words[-1])
        if goal is not None and (len(low) == 1 or goal.kind == low[0]):
            return goal.kind, None, goal.id
    phrase = " ".join(low)
    phrase = ALIASES.get(phrase, phrase)
    for key, ut in w.faction.units.items():
        if phrase in (key, _flat(ut.title)):
            return "unit", key, None
    for key, bt in w.faction.buildings.items():
        if phrase in (key, _flat(bt.title)):
            return "building", key, None
    return None


def read_name(w: World, seat: str, text: str) -> Name | None:
    """Returns what ``text`` names for the player at ``seat`` (see the module's readings), or None.

    An owner word comes first; a player's name is tried only when the words do not name
    something without it, seat by seat::

        >>> from engines.nexo.data import default_ruleset
        >>> from engines.nexo.scenario import load_scenario
        >>> rules = default_ruleset()
        >>> w = World(load_scenario(None, rules, seed=1), rules, names={"p1": "ann", "p2": "bob"})
        >>> read_name(w, "p1", "the nearest enemy HQ")
        Name(owner='p2', whose='enemy', kind='building', type='headquarters', id=None)
        >>> read_name(w, "p1", "Bob's drudge"), read_name(w, "p1", "the big rock")
        (Name(owner='p2', whose='bob', kind='unit', type='drudge', id=None), None)
    """
    words = _unsaid(_words(text), frozenset({"the"}))
    words = _unsaid(words, NEAREST_WORDS)
    head = words[0].casefold() if words else ""
    tries: list[tuple[str | None, str | None, list[str]]] = []
    if head in ENEMY_WORDS:
        tries.append((other(seat), "enemy", _possessive(words[1:])))
    elif head in OWN_WORDS:
        tries.append((seat, "own", words[1:]))
    else:
        tries.append((None, None, words))
        for seat_of, player in w.names.items():
            said = _flat(player).split()
            if said and [t.casefold() for t in words[:len(said)]] == said:
                tries.append((seat_of, player, _possessive(words[len(said):])))
    for owner, whose, rest in tries:
        thing = _thing(w, _unsaid(rest, NEAREST_WORDS))
        if thing is not None and (owner is not None or thing != (None, None, None)):
            return Name(owner, whose, *thing)
    return None


def named_goal(w: World, m: Model, text: str) -> Goal:
    """Returns the goal ``text`` names for ``m``: an id (:func:`find_goal`), else the nearest
    match of a name in words (:func:`read_name`; centre to centre, then by id).

    Raises IllegalMove when the words name something there is none of (naming what there
    is), and :class:`_Refused` when they name nothing.
    """
    goal = find_goal(w, text)
    if goal is not None:
        return goal
    name = read_name(w, m.owner, text)
    if name is None:
        raise _Refused(_unknown(w, text))

    def far(x: float, y: float, pid: str) -> tuple[float, str]:
        return math.dist((m.x, m.y), (x, y)), pid

    if name.kind == "depot":
        if name.owner is not None:
            raise IllegalMove("A depot belongs to no one: write toward depot, or a depot's id like K1.")
        d = min(w.state.depots, key=lambda d: far(d.x, d.y, d.id), default=None)
        if d is None:
            raise IllegalMove("There is no depot.")
        found = find_goal(w, name.id or d.id)
        assert found is not None
        return found
    pieces = [p for p in _pieces(w) if _fits(p, name)]
    if name.id is not None and pieces:  # toward itself is refused by the caller
        return goal_of(w, pieces[0])
    others = [p for p in pieces if p.id != m.id]
    if not others:
        raise IllegalMove(_none_there(w, m, name, also_mover=bool(pieces)))
    return goal_of(w, min(others, key=lambda p: far(p.x, p.y, p.id)))


def _pieces(w: World) -> list[Model | Building]:
    return [*w.state.models.values(), *w.state.buildings.values()]


def _fits(p: Model | Building, name: Name) -> bool:
    """True when ``p`` is what ``name`` names (wreckage only by its id)."""
    if name.owner is not None and p.owner != name.owner:
        return False
    if name.id is not None:
        return p.id == name.id
    if isinstance(p, Building) and p.wreck:
        return False
    if name.kind is not None and name.kind != ("unit" if isinstance(p, Model) else "building"):
        return False
    return name.type is None or p.type == name.type


def _title(w: World, p: Model | Building) -> str:
    return w.unit_type(p).title if isinstance(p, Model) else w.faction.buildings[p.type].title


def _id_order(pid: str) -> tuple[str, int, str]:
    """Sorts ids as players count them: ``b2`` before ``b10``."""
    digits = re.search(r"[0-9]+", pid)
    return re.sub(r"[0-9]+", "", pid), int(digits.group()) if digits else 0, pid


def _none_there(w: World, m: Model, name: Name, *, also_mover: bool) -> str:
    """Returns the refusal of ``name`` matching nothing: what was not found, then what there is."""
    if name.id is not None:
        what = name.id
    elif name.type is not None:
        ut = w.faction.units.get(name.type)
        what = ut.title if ut else w.faction.buildings[name.type].title
    else:
        what = name.kind or "piece"
    what = ("other " if also_mover else "") + what
    kind = name.kind if name.id is None else ("unit" if name.id in w.state.models else "building")
    kinds = {"unit": "units", "building": "buildings"}.get(kind or "", "units and buildings")
    there = sorted((p for p in _pieces(w) if p.id != m.id and _fits(p, Name(name.owner, kind=kind))),
                   key=lambda p: _id_order(p.id))
    items = [f"{p.id} {_title(w, p)}" for p in there[:LISTED]]
    listed = ", ".join(items) + (f" and {len(there) - LISTED} more" if len(there) > LISTED else "") or "none"
    if name.whose == "enemy":
        return f"There is no enemy {what}; enemy {kinds}: {listed}."
    if name.whose == "own":
        return f"You have no {what}; your {kinds}: {listed}."
    if name.whose is not None:
        who = shown(name.whose, 20)
        return f"{who} has no {what}; {who}'s {kinds}: {listed}."
    return f"There is no {what}; {kinds}: {listed}."


def _unknown(w: World, text: str) -> str:
    """Returns why ``text`` names no goal, with the nearest word it may have meant."""
    words = text.split()
    choices = [*(d.id for d in w.state.depots), *w.state.models, *w.state.buildings] if len(words) == 1 else []
    choices += [*w.faction.units, *w.faction.buildings, *ALIASES, *KIND_WORDS]
    near = nearest(words[-1], choices) if words else None
    meant = " ".join([*words[:-1], near]) if near else None
    bare = len(words) == 1 and words[0].casefold() not in NAME_LEADS  # a mistyped id, as before names
    hint = (f" (did you mean {meant}?)" if meant else
            "" if bare else " (name it by its id, like K1 or b3, or in words, like the enemy HQ)")
    return f"there is no depot, unit or building '{shown(text, 20)}'{hint}"


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
    return path_problem(w, m, [end], reach, bodies)


def straight_end(w: World, m: Model, bodies: list[Body], reach: float, gx: float, gy: float,
                 dist: float) -> tuple[Pos | None, str | None]:
    """Returns the end of a straight step of ``m`` toward ``(gx, gy)``, or why none is.

    The step is ``min(reach, dist)``, else half of it (positions at two decimals); the
    reason given is the full step's. This is the stepping of the sampled moves
    (:mod:`engines.nexo.legal`); the forms take :func:`longest_step`.
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


def path_problem(w: World, m: Model, path: Sequence[Pos], reach: float, bodies: list[Body]) -> str | None:
    """Returns why moving ``m`` along the waypoints ``path`` is not legal within ``reach``, or None."""
    try:
        plan = plan_move(w.terrain, w.body(m), list(path), bodies,
                         pathfinder="pathfinder" in w.unit_type(m).abilities)
        check_move(plan, reach, m.id)
    except IllegalMove as err:
        return str(err).rstrip(".")
    return None


def toward_start(start: Pos, end: Pos) -> Pos:
    """Returns ``end`` at two decimals, each coordinate rounded toward ``start``: the leg never grows.

        >>> toward_start((0, 0), (3.4567, -1.2345))
        (3.45, -1.23)
    """
    def one(s: float, e: float) -> float:
        scaled = e * 10 ** DECIMALS
        near = round(scaled)
        if abs(near - scaled) > 1e-6:  # not already on the grid
            near = math.floor(scaled) if e >= s else math.ceil(scaled)
        return near / 10 ** DECIMALS + 0.0

    return one(start[0], end[0]), one(start[1], end[1])


def along(start: Pos, path: Sequence[Pos], t: float) -> list[Pos]:
    """Returns the waypoints of the first ``t`` inches of ``path`` from ``start``.

    Waypoints before the end are as given; the end is the point ``t`` along, at two decimals
    rounded toward the waypoint before it (:func:`toward_start`).
    """
    out: list[Pos] = []
    here = start
    left = t
    for p in path:
        leg = math.dist(here, p)
        if leg >= left - EPS:
            f = left / leg if leg > EPS else 1.0
            end = toward_start(here, (here[0] + (p[0] - here[0]) * f, here[1] + (p[1] - here[1]) * f))
            return [*out, end]
        out.append(p)
        left -= leg
        here = p
    return out


def longest_step(w: World, m: Model, bodies: list[Body], reach: float,
                 path: Sequence[Pos]) -> tuple[tuple[Pos, ...] | None, str | None]:
    """Returns the waypoints of the longest legal part of ``path`` (waypoints at two decimals,
    the last being the goal's stop), at most ``reach`` long, or None and why the whole is not legal.

    Steps are tried every :data:`STEP_GRAIN` inches along the path; those whose base would
    stand on a barricade or pipe are left out, and of the others the longest legal one is
    found by bisection: a shorter step of the same path is legal whenever a longer one is.
    """
    start = (m.x, m.y)
    total = _length(start, path)
    step = min(reach, total)
    first = path_problem(w, m, along(start, path, step), reach, bodies)
    if first is None:
        return tuple(along(start, path, step)), None
    ts = np.arange(int(step / STEP_GRAIN + EPS), 0, -1) * STEP_GRAIN  # longest first
    zone = no_stop_zone(w.terrain, w.unit_type(m).base_radius)
    if not zone.is_empty and len(ts):
        line = LineString([start, *path])
        ts = ts[~shapely.intersects(zone, shapely.line_interpolate_point(line, ts))]
    lo, hi = len(ts), 0  # ts[lo] legal (lo == len: none yet); ts[:hi] not legal
    while hi < lo:
        mid = (hi + lo) // 2
        if path_problem(w, m, along(start, path, float(ts[mid])), reach, bodies) is None:
            lo = mid
        else:
            hi = mid + 1
    if lo == len(ts):
        return None, first
    return tuple(along(start, path, float(ts[lo]))), None


@lru_cache(maxsize=32)
def no_stop_zone(terrain: Terrain, radius: float) -> BaseGeometry:
    """Returns where a centre may not stop: a base of ``radius`` there would overlap a barricade
    or pipe (grown a little, as a base is drawn inside its circle)."""
    lines = [p.shape.buffer(radius + 0.005) for p in terrain.pieces if p.traits.no_stopping]
    zone = shapely.union_all(lines) if lines else Point()
    shapely.prepare(zone)
    return zone


def stop_short(start: Pos, path: Sequence[Pos], goal: Goal, need: float) -> list[Pos]:
    """Returns ``path`` cut where the centre first comes within ``need`` of the goal's body."""
    out: list[Pos] = []
    here = start
    for p in path:
        leg = LineString([here, p]) if here != p else None
        if leg is not None and leg.distance(goal.shape) < need:
            lo, hi = 0.0, leg.project(nearest_points(leg, goal.shape)[0])
            for _ in range(40):  # the distance to a convex body falls, then rises, along a leg
                mid = (lo + hi) / 2
                if leg.interpolate(mid).distance(goal.shape) >= need:
                    lo = mid
                else:
                    hi = mid
            q = leg.interpolate(lo)
            return [*out, (q.x, q.y)]
        out.append(p)
        here = p
    return out


def routed_path(w: World, m: Model, bodies: list[Body], goal: Goal) -> list[Pos] | None:
    """Returns the shortest path of ``m``'s centre around the obstacles to its stop short of ``goal``
    (:func:`engines.nexo.route.route`, toward the goal's centre, else a spot beside it), or None."""
    radius = w.unit_type(m).base_radius
    need = radius + (MODEL_GAP if goal.kind == "unit" else EDGE_GAP)
    blocks = _blocks(w, m, bodies, goal.id)
    start = (m.x, m.y)
    path = route.route(w.terrain, start, [(goal.x, goal.y)], radius, blocks)
    if path is None:
        ring = goal.shape.buffer(need + 2 * route.CLEARANCE, quad_segs=8).exterior.coords[:-1]
        path = route.route(w.terrain, start, [(float(x), float(y)) for x, y in ring], radius, blocks)
    if path is None:
        return None
    path = [(round(x, DECIMALS), round(y, DECIMALS)) for x, y in path[:-1]] + [path[-1]]
    return stop_short(start, path, goal, need)


def _blocks(w: World, m: Model, bodies: list[Body], goal: str | None = None) -> list[tuple[BaseGeometry, float | None]]:
    """Returns what a route of ``m`` goes around: impassable terrain, and every body but its own,
    the goal's and wreckage's (each with its base radius, None for a footprint)."""
    blocks: list[tuple[BaseGeometry, float | None]] = [(s, None) for s in route.obstacles(w.terrain, [])]
    blocks += [(b.shape, b.radius if b.kind == "model" else None) for b in bodies
               if b.id not in (m.id, goal) and b.kind != "wreckage"]
    return blocks


def _toward(w: World, m: Model, verb: str, reach: float, bodies: list[Body], name: str) -> Resolved:
    goal = named_goal(w, m, name)
    if goal.id == m.id:
        raise _Refused("a unit cannot move toward itself")
    dist = room(m, w.unit_type(m).base_radius, goal)
    if dist <= BESIDE:
        raise _Refused(f"it is already beside {goal.id}")
    if reach <= 0:
        raise _Refused(f"it can move {reach:g}\" now")
    t = dist / math.dist((m.x, m.y), (goal.x, goal.y))
    stop = (m.x + (goal.x - m.x) * t, m.y + (goal.y - m.y) * t)
    best, problem = longest_step(w, m, bodies, reach, [stop])
    gone = _length((m.x, m.y), best)
    if gone < min(reach, dist) - ROUTE_SLACK:  # the straight line is blocked (or costs too much)
        path = routed_path(w, m, bodies, goal)
        if path is not None:
            way, _ = longest_step(w, m, bodies, reach, path)
            if _length((m.x, m.y), way) > gone + ROUTE_SLACK:
                best, gone = way, _length((m.x, m.y), way)
    if best is None:
        raise _Refused(str(problem))
    return Resolved(Go(verb, m.id, best), gone, goal=goal)


def _length(start: Pos, path: Sequence[Pos] | None) -> float:
    return sum(math.dist(a, b) for a, b in pairwise([start, *path])) if path else 0.0


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
    behind: dict[Pos, Cover] = {}  # spots in cover that no straight move reaches: routed to
    for (x, y), ok in zip(spots, near, strict=True):
        if not ok:
            continue
        got = cover(w.terrain, seen_from, model_body(m.id, x, y, radius), bodies)
        if got and end_problem(w, m, (x, y), reach, bodies) is None:
            return Resolved(Go(verb, m.id, ((x, y),)), math.dist((m.x, m.y), (x, y)), got, foe.id)
        if got:
            behind[(x, y)] = got
    blocks = _blocks(w, m, bodies)
    if behind:  # only spots a base may stand on, the nearest first
        taken = shapely.union_all([no_stop_zone(w.terrain, radius), *(route.grow(s, radius, r) for s, r in blocks)])
        free = ~shapely.intersects(taken, shapely.points(np.array(list(behind))))
        behind = dict([spot for spot, ok in zip(behind.items(), free, strict=True) if ok][:ROUTED_COVER])
    path = route.route(w.terrain, (m.x, m.y), list(behind), radius, blocks) if behind else None
    if path is not None and path[-1] in behind:
        path = [(round(x, DECIMALS), round(y, DECIMALS)) for x, y in path]
        if path_problem(w, m, path, reach, bodies) is None:
            return Resolved(Go(verb, m.id, tuple(path)), _length((m.x, m.y), path), behind[path[-1]], foe.id)
    raise _Refused(f"no spot within {reach:g}\" gives it cover from {foe.id}")


def label(w: World, r: Resolved, goal: Goal | None = None) -> str:
    """Returns how a suggestion names a resolved form (``goal`` None: the goal ``r`` heads
    for, or ``cover`` when it has none).

    For example ``toward depot K1 (ends 12.5,30, 6")``, ``toward enemy trooper b3 (via
    12.55,13.45, ends 14,17.2, 6")`` (a route around obstacles) or ``into cover (ends 9,22,
    2.5", light vs b3)``; the label of a Dash reads the same (its order says ``dash``). A goal
    named in words is labelled by the piece picked: ``toward the enemy HQ`` reads ``toward
    enemy headquarters B1 (ends …)``.
    """
    goal = goal or r.goal
    ends = f"ends {fmt_pos(r.end)}, {round(r.distance, 1):g}\""
    if len(r.go.path) > 1:  # a route around obstacles: its waypoints first
        ends = "via " + " ".join(fmt_pos(p) for p in r.go.path[:-1]) + ", " + ends
    if goal is None:
        return f"into cover ({ends}, {r.cover.name.lower()} vs {r.threat})"
    if goal.kind == "depot":
        what = f"depot {goal.id}"
    else:
        p = w.piece(goal.id)
        title = _title(w, p).lower()
        side = "own" if p.owner == w.piece(r.go.unit).owner else "enemy"
        what = f"{side} {title} {goal.id}"
    return f"toward {what} ({ends})"
