"""What a typed ``move``/``dash`` position would do, worked out before the order is sent.

:func:`preview` reads the destination text as the game reads it (:func:`engines.nexo.moves.destination`)
and checks it as the game checks it when the order is played: whose turn and phase it is,
whether the unit may activate and take this Movement Action (:mod:`engines.nexo.activation`),
then the path itself (:func:`engines.nexo.geometry.plan_move` and ``check_move``). It says
where the unit lands and what the move costs, or why it cannot go there, in the game's words,
and then the legal move that gets nearest::

    >>> from engines.nexo.game import Nexo
    >>> g = Nexo.new(["ann", "bob"], seed=4)
    >>> seat = g.world().state.initiative  # the one to choose who activates first
    >>> p = preview(g.world(), seat, "move", "a1", "(13.5, 9)")
    >>> p.lands, p.problem
    (False, "choose who activates first: 'first me' or 'first them'")
    >>> _ = g.play(g.to_act()[0], "first me")
    >>> p = preview(g.world(), seat, "move", "a1", "(17, 13.5)")  # a1 stands at (17, 10)
    >>> p.lands, p.end, grid_cell(p.end), p.cost, p.allowance_text
    (True, (17.0, 13.5), 'I7', 3.5, '6" Move')
    >>> p = preview(g.world(), seat, "move", "a1", "17 20")
    >>> p.problem
    'that path costs 13.0" (3.0" of it through Difficult Ground); a1 can Move 6"'
    >>> p.order  # the legal move that gets nearest
    '17,15.5'
    >>> preview(g.world(), seat, "move", "a1", "toward K1") is None  # a goal, not a position
    True

Readings chosen here:

- A position form is anything :func:`~engines.nexo.moves.destination` reads as positions:
  ``x,y``, ``(x, y)``, ``x y``, a cell (``P9``, ``p 9``, ``9P``, ``cell P9``), or several of
  them (a path). A lone word that names a depot, unit or building is a goal, as in the game
  (:func:`engines.nexo.toward.find_goal`), so it is no position form; neither are
  ``toward``, ``cover`` or text that cannot be read.
- When the move is refused but the unit may move, the alternative is the legal move whose
  end is nearest the typed end: the longest legal part of the typed path
  (:func:`engines.nexo.toward.longest_step`), or, for a single position, of the shortest
  route around impassable terrain, buildings and models to it (:func:`engines.nexo.route.route`),
  as the "toward" forms go; a typed path of several positions keeps its waypoints. One that
  gets less than :data:`PROGRESS` nearer than the unit stands is not offered.
- Overwatch: the enemy pieces in Overwatch that could shoot the unit where it lands
  (:func:`engines.nexo.attacks.attack_problem` with the unit standing at its end), in id
  order; the game fires them in that order, and one may destroy it before the next fires.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, replace

from shapely.geometry.base import BaseGeometry

from engines.core.errors import BadNotation, IllegalMove
from engines.nexo import route
from engines.nexo.activation import allowance, move_problem, why_not_eligible
from engines.nexo.attacks import attack_problem, weapons_of
from engines.nexo.geometry import EPS, Body, MovePlan, check_move, plan_move
from engines.nexo.moves import Ambiguous, Go, Pos, destination, fmt_pos
from engines.nexo.state import SEATS, Building, Model, Phase
from engines.nexo.toward import find_goal, longest_step
from engines.nexo.world import World

PROGRESS = 0.05
"""An alternative must end at least this many inches nearer the typed end than the unit stands."""
COLUMNS, ROWS = 22, 30
"""The 2" grid the picture labels: columns A–V, rows 1–30."""
_LEG = re.compile(r"^\S+'s move from \(([^)]*)\) to \(([^)]*)\) (.*)$")
"""The start of :func:`~engines.nexo.geometry.plan_move`'s refusal of one leg of a path."""


def grid_cell(p: Pos) -> str:
    """Returns the 2" grid cell of a position, as the picture labels it.

    >>> grid_cell((5.0, 13.0)), grid_cell((0.0, 59.9)), grid_cell((43.9, 0.0))
    ('C7', 'A30', 'V1')
    """
    col = min(max(int(p[0] // 2), 0), COLUMNS - 1)
    row = min(max(int(p[1] // 2), 0), ROWS - 1)
    return f"{chr(ord('A') + col)}{row + 1}"


def inches(d: float, limit: float | None = None) -> str:
    """Returns a distance at one decimal; at two when one would hide that it is over ``limit``.

    >>> inches(4.21), inches(6.04, 6), inches(6.2, 6)
    ('4.2', '6.04', '6.2')
    """
    text = f"{d:.1f}"
    if limit is not None and d > limit + EPS and float(text) <= limit:
        text = f"{d:.2f}"
    return text


@dataclass(frozen=True)
class Preview:
    """What ``<verb> <unit> <path>`` would do now: it lands (``problem`` None) or why not.

    ``instead`` is the legal path whose end is nearest the typed end, when the move is refused
    and one gets nearer; ``watchers`` are the enemy pieces in Overwatch that could shoot the
    unit where it lands.
    """

    verb: str
    unit: str
    path: tuple[Pos, ...]
    allowance: float
    cost: float | None = None
    difficult: float = 0.0
    problem: str | None = None
    instead: tuple[Pos, ...] | None = None
    instead_cost: float = 0.0
    watchers: tuple[str, ...] = ()

    @property
    def lands(self) -> bool:
        """True when the game accepts the move as typed."""
        return self.problem is None

    @property
    def end(self) -> Pos:
        """Where the typed path ends."""
        return self.path[-1]

    @property
    def order(self) -> str:
        """The positions to send: the typed path when it lands, else ``instead`` (else the typed path)."""
        path = self.path if self.lands or self.instead is None else self.instead
        return " ".join(fmt_pos(p) for p in path)

    @property
    def allowance_text(self) -> str:
        """The allowance as a label says it: ``6" Move``, ``9" Dash``."""
        return f"{self.allowance:g}\" {self.verb.capitalize()}"


def preview(w: World, seat: str, verb: str, unit: str, text: str) -> Preview | None:
    """Returns what ``<verb> <unit> <text>`` would do for ``seat`` now, or None when ``text``
    is no position form (see the module's readings). Never raises for what a player types."""
    path = positions_of(w, verb, unit, text)
    if path is None:
        return None
    pid = unit
    with suppress(IllegalMove):
        pid = w.resolve(unit)
    m = w.state.models.get(pid)
    reach = allowance(w, m, dash=verb == "dash") if m is not None else 0.0
    known = Preview(verb, pid, path, reach)
    problem = mover_problem(w, seat, verb, unit)
    if problem is not None or m is None:
        return replace(known, problem=problem or f"{pid} is a building and cannot move")
    bodies = w.bodies()
    plan: MovePlan | None = None
    try:
        plan = plan_move(w.terrain, w.body(m), path, bodies, pathfinder="pathfinder" in w.unit_type(m).abilities)
        check_move(plan, reach, m.id)
    except IllegalMove as err:
        why = cost_problem(known, plan) if plan is not None else leg_problem(str(err), len(path))
        instead = nearest_legal(w, m, bodies, reach, path)
        cost, difficult = (plan.cost, plan.difficult) if plan is not None else (None, 0.0)
        return replace(known, cost=cost, difficult=difficult, problem=why, instead=instead,
                       instead_cost=_cost(w, m, bodies, instead) if instead else 0.0)
    return replace(known, cost=plan.cost, difficult=plan.difficult, watchers=watchers(w, m, plan.end, bodies))


def positions_of(w: World, verb: str, unit: str, text: str) -> tuple[Pos, ...] | None:
    """Returns the positions the game reads in ``text`` for a ``verb`` of ``unit``, or None
    when it reads no positions there (a goal, ``cover``, or text it cannot read)."""
    try:
        order = destination(verb, unit, text)
    except BadNotation:
        return None
    if isinstance(order, Ambiguous):
        if order.cell is None or find_goal(w, order.word) is not None:
            return None
        return (order.cell,)
    return order.path if isinstance(order, Go) else None


def mover_problem(w: World, seat: str, verb: str, unit: str) -> str | None:
    """Returns why ``seat`` may not give ``unit`` a Movement Action (a Dash for ``dash``) now,
    in the game's words, or None; checked in the order the game checks a ``move`` it plays."""
    s = w.state
    if s.over:
        return "the game is over"
    if ((s.initiative if s.phase == Phase.INITIATIVE else s.turn or s.first) or SEATS[0]) != seat:
        return "it is not your turn"
    if s.phase == Phase.INITIATIVE:
        return "choose who activates first: 'first me' or 'first them'"
    if s.phase not in (Phase.WORKER, Phase.ACTION):
        return "units activate in the Worker and Action Phases"
    try:
        pid = w.resolve(unit)
    except IllegalMove as err:
        return _clause(str(err))
    piece = w.piece(pid)
    if s.active is not None and s.active != pid:
        return f"{s.active} is activating: give it orders or 'done {s.active}' first"
    if s.active is None:
        if piece.owner != seat:
            return f"{pid} is not yours"
        if piece not in w.eligible(seat, s.phase.value):
            return f"{pid} {why_not_eligible(w, piece, s.phase.value)}"
    return move_problem(w, piece, dash=verb == "dash")


def cost_problem(p: Preview, plan: MovePlan) -> str:
    """Returns why a path is too long for its allowance: ``9.1" away; a3 can Move 6"``."""
    allowed = f"{p.unit} can {p.verb.capitalize()} {p.allowance:g}\""
    cost = inches(plan.cost, p.allowance)
    if plan.difficult:
        return f"that path costs {cost}\" ({plan.difficult:.1f}\" of it through Difficult Ground); {allowed}"
    if len(p.path) > 1:
        return f"that path is {cost}\"; {allowed}"
    return f"{cost}\" away; {allowed}"


def leg_problem(message: str, legs: int) -> str:
    """Returns a refusal of :func:`~engines.nexo.geometry.plan_move` without its "a3's move from
    (x, y) to (x, y)", naming the leg when the path has several.

    >>> leg_problem("a3's move from (20, 22) to (16, 29) crosses impassable terrain: the Sealed structure S1a.", 1)
    'crosses impassable terrain: the Sealed structure S1a'
    >>> leg_problem("a3's move from (9, 9) to (16, 29) runs into b3.", 2)
    'the leg to 16,29 runs into b3'
    >>> leg_problem("a3 cannot stop on the Barricade B1a: move across it.", 1)
    'a3 cannot stop on the Barricade B1a: move across it'
    """
    m = _LEG.match(_clause(message))
    if m is None:
        return _clause(message)
    if legs > 1:
        return f"the leg to {m.group(2).replace(' ', '')} {m.group(3)}"
    return m.group(3)


def nearest_legal(w: World, m: Model, bodies: list[Body], reach: float,
                  path: Sequence[Pos]) -> tuple[Pos, ...] | None:
    """Returns the legal path of ``m`` whose end is nearest ``path``'s end (see the module's
    readings), or None when none gets :data:`PROGRESS` nearer."""
    end, start = path[-1], (m.x, m.y)
    tried: list[tuple[Pos, ...]] = []
    straight, _ = longest_step(w, m, bodies, reach, path)
    if straight:
        tried.append(straight)
    around = route_to(w, m, bodies, end) if len(path) == 1 else None  # a typed path keeps its waypoints
    if around:
        routed, _ = longest_step(w, m, bodies, reach, around)
        if routed:
            tried.append(routed)
    best = min(tried, key=lambda p: (math.dist(p[-1], end), len(p)), default=None)
    if best is None or math.dist(best[-1], end) > math.dist(start, end) - PROGRESS:
        return None
    return best


def route_to(w: World, m: Model, bodies: list[Body], end: Pos) -> list[Pos] | None:
    """Returns the shortest route of ``m``'s centre around impassable terrain, buildings and
    other models to ``end`` (corners at two decimals), or None when there is none."""
    blocks: list[tuple[BaseGeometry, float | None]] = [(s, None) for s in route.obstacles(w.terrain, [])]
    blocks += [(b.shape, b.radius if b.kind == "model" else None) for b in bodies
               if b.id != m.id and b.kind != "wreckage"]
    path = route.route(w.terrain, (m.x, m.y), [end], w.unit_type(m).base_radius, blocks)
    if path is None:
        return None
    return [(round(x, 2), round(y, 2)) for x, y in path[:-1]] + [end]


def watchers(w: World, m: Model, end: Pos, bodies: list[Body]) -> tuple[str, ...]:
    """Returns the enemy pieces in Overwatch that could shoot ``m`` standing at ``end``, in id order."""
    there = replace(m, x=end[0], y=end[1])
    moved = [w.body(there) if b.id == m.id else b for b in bodies]
    pieces: list[Model | Building] = [*w.state.models.values(), *w.state.buildings.values()]
    out = []
    for p in sorted(pieces, key=lambda p: p.id):
        if p.owner == m.owner or not p.overwatch or (isinstance(p, Building) and not w.turret_ready(p)):
            continue
        if any(not wp.melee and attack_problem(w, p, there, wp, moved) is None for wp in weapons_of(w, p)):
            out.append(p.id)
    return tuple(out)


def _cost(w: World, m: Model, bodies: list[Body], path: Sequence[Pos]) -> float:
    """Returns what a legal path costs (its length, Difficult Ground counted twice)."""
    return plan_move(w.terrain, w.body(m), path, bodies, pathfinder="pathfinder" in w.unit_type(m).abilities).cost


def _clause(message: str) -> str:
    """Returns a sentence as a clause: no full stop, and a capital only on a name."""
    text = message.strip().rstrip(".")
    return text[:1].lower() + text[1:] if text[:1].isupper() and text[1:2].islower() else text
