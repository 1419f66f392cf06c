"""The Action Phase of the Nexohominis bots: whom to activate, where to go, what to attack.

Each eligible piece gets its best plan (at most a Movement Action and an Attack Action, in
either order), scored in worth (:mod:`engines.nexo.ai_eval`)::

    score = attack value + Overwatch value + position value − danger at the end spot

- Attacks: every target the piece may Shoot or Fight from a spot, by the exact damage law
  (best expected worth destroyed, which favours a likely kill).
- Overwatch (when nothing is worth shooting): the best reaction it could get at the spot,
  at −1 Aim, at the enemies that must still move before it acts again — enemy units still to
  activate, and enemy workers that will walk to a depot in the next Worker Phase (the
  lanes they must cross).
- Position: armed units close in on the enemy until their weapon reaches it; the danger of
  a spot (enemy Overwatch firing at once, enemy units and turrets that can reach it) pulls
  them into cover and out of reach.

The piece whose best plan gains most over standing idle activates first; the bot plays its
first order, and plans again from the new position for the next one (an activation is
several orders). The squares weighed are bounded per decision (:attr:`Ctx.spot_limit`: the
level's budget split among the units planned, one square in 2 or 3 along each axis when a
unit reaches more), and the squares next to the best spots are weighed too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engines.core.errors import IllegalMove
from engines.nexo import toward
from engines.nexo.activation import allowance
from engines.nexo.ai_eval import (
    Ctx,
    Shot,
    Spot,
    armed,
    attack_value,
    best_attacks,
    danger,
    is_worker,
    prime_sight,
    ranged,
    spots,
    target_weight,
)
from engines.nexo.attacks import weapons_of
from engines.nexo.layout import DEPOT_RADIUS
from engines.nexo.moves import Toward
from engines.nexo.state import Building, Model

PLANNED = 4
"""At most this many units are planned in full in one decision (the most urgent)."""
ADVANCE = 2.0
"""Worth per inch for an armed unit closing in on the enemy beyond its reach."""


@dataclass(frozen=True)
class Plan:
    """A piece's plan: its score, its gain over standing idle, and its first order."""

    score: float
    gain: float
    order: str


def action_move(ctx: Ctx) -> str | None:
    """Returns the bot's Action Phase order, or None to leave it to the fallback."""
    s, w = ctx.w.state, ctx.w
    if s.active is not None:
        return continue_activation(ctx, w.piece(s.active))
    plans: list[tuple[float, str, Plan]] = []
    pieces = _shortlist(ctx, w.eligible(ctx.me, "action"))
    ctx.sharing = sum(1 for p in pieces if isinstance(p, Model))
    for p in pieces:
        if plans and ctx.out_of_time():
            break  # the best plan so far
        plan = plan_piece(ctx, p)
        if plan is not None and (plan.order in ctx.legal_set or _plausible(plan.order)):
            plans.append((plan.gain, p.id, plan))
    if not plans:
        return None
    plans.sort(key=lambda t: (-t[0], t[1]))
    return plans[0][2].order


def _shortlist(ctx: Ctx, pieces: list[Model | Building]) -> list[Model | Building]:
    """Returns the pieces worth planning now (all turrets, and at most ``PLANNED`` units).

    A unit's urgency: the best attack it has from where it stands, the danger it stands in,
    and how close the nearest enemy is. The others are planned when their turn comes.
    """
    units = [p for p in pieces if isinstance(p, Model)]
    most = PLANNED
    if len(units) <= most:
        return pieces
    foes = ctx.foes()

    def urgency(m: Model) -> float:
        shots = best_attacks(ctx, m)
        near = min((math.dist((m.x, m.y), (e.x, e.y)) for e in foes), default=60.0)
        return (shots[0].value if shots else 0.0) + danger(ctx, m, m.x, m.y, moving=False) - 0.5 * near

    keep = {m.id for m in sorted(units, key=lambda m: (-urgency(m), m.id))[:most]}
    return [p for p in pieces if isinstance(p, Building) or p.id in keep]


def _plausible(order: str) -> bool:
    """True for an order the bot makes up rather than picks from the legal sample: a move along
    waypoints from :func:`spots`, or ``done`` for an eligible piece (its empty activation)."""
    return order.startswith(("move ", "dash ", "done "))


# -- one piece ----------------------------------------------------------------------------


def plan_piece(ctx: Ctx, p: Model | Building) -> Plan | None:
    """Returns the best plan of an eligible piece that has not started its activation."""
    if isinstance(p, Building):
        return _turret_plan(ctx, p)
    w = ctx.w
    here = (p.x, p.y)
    idle = position_value(ctx, p, *here) - danger(ctx, p, *here, moving=False)
    best = Plan(idle, 0.0, f"done {p.id}")

    def offer(score: float, order: str) -> None:
        nonlocal best
        if score > best.score + 1e-9:
            best = Plan(score, score - idle, order)

    cands = spots(ctx, p, most=ctx.spot_limit) + cover_spots(ctx, p)
    prime_sight(ctx, p, [(sp.x, sp.y) for sp in cands])
    based = [(_spot_base(ctx, p, sp), sp) for sp in cands]
    after_move = max((v for v, sp in based if sp.verb == "move"), default=-math.inf)
    after_any = max((v for v, _ in based), default=-math.inf)
    # attack first from here, then move (re-planned after the attack)
    for shot in best_attacks(ctx, p)[:3]:
        rest = after_move if shot.verb == "shoot" else after_any
        offer(shot.value + max(rest, idle), shot.order())
    # Overwatch where it stands
    if ranged(w, p):
        offer(idle + overwatch_value(ctx, p), f"overwatch {p.id}")
    # move (or dash) to a spot, then attack or Overwatch there: every spot from which an enemy
    # may be in reach, and the best few others by position, are weighed in full ...
    full = 12
    based.sort(key=lambda t: (-t[0], t[1].x, t[1].y))
    moves = [t for t in based if t[1].verb == "move"]
    watch = {id(sp) for _, sp in moves[:full]}
    scored: list[tuple[float, Spot]] = []
    for base, sp in based:
        score = base + _spot_extra(ctx, p, sp, watch=id(sp) in watch)
        scored.append((score, sp))
        offer(score, sp.order(p.id))
    # ... then the squares next to the best ones (the thinned grid may step over the spot
    # where a target comes into reach)
    if len(cands) < len(spots(ctx, p)) and not ctx.out_of_time():
        seen = {(sp.x, sp.y) for sp in cands}
        scored.sort(key=lambda t: (-t[0], t[1].x, t[1].y))
        tops = [sp for _, sp in scored[:3]] + [sp for _, sp in moves[:1]]
        extra = [sp for sp in spots(ctx, p) if (sp.x, sp.y) not in seen
                 and any(abs(sp.x - t.x) <= 1.01 and abs(sp.y - t.y) <= 1.01 for t in tops)]
        extra = extra[:24]
        prime_sight(ctx, p, [(sp.x, sp.y) for sp in extra])
        for sp in extra:
            offer(_spot_base(ctx, p, sp) + _spot_extra(ctx, p, sp, watch=True), sp.order(p.id))
    return best


def _spot_extra(ctx: Ctx, p: Model, sp: Spot, *, watch: bool) -> float:
    """Returns the best attack ``p`` could make after ending a move at ``sp`` (or its Overwatch
    value there, for a Move and when ``watch``)."""
    w = ctx.w
    wps = weapons_of(w, p)
    if not wps:
        return 0.0
    reach = max((wp.range or 1.0) for wp in wps)
    near = any(math.dist((sp.x, sp.y), (e.x, e.y)) <= reach + 4.0 for e in ctx.foes())
    if not near and not (watch and sp.verb == "move"):
        return 0.0
    x0, y0 = p.x, p.y
    p.x, p.y = sp.x, sp.y
    try:
        shots = best_attacks(ctx, p, shoot=sp.verb == "move") if near else []
        extra = shots[0].value if shots else 0.0
        if sp.verb == "move" and watch and ranged(w, p):
            extra = max(extra, overwatch_value(ctx, p))
    finally:
        p.x, p.y = x0, y0
    return extra


def cover_spots(ctx: Ctx, m: Model) -> list[Spot]:
    """Returns the ends of the engine's ``move|dash <unit> cover`` forms (the nearest spot in cover
    from the nearest armed enemy, :mod:`engines.nexo.toward`), as spots to weigh with the rest."""
    out = []
    for verb in ("move", "dash"):
        try:
            r = toward.resolve_full(ctx.w, ctx.me, Toward(verb, m.id))
        except IllegalMove:
            continue
        (x, y), = r.go.path
        out.append(Spot(verb, x, y, r.distance, ((x, y),)))
    return out


def _spot_base(ctx: Ctx, p: Model, sp: Spot) -> float:
    """Returns a spot's position value minus its danger, for ``p`` ending a move there."""
    return position_value(ctx, p, sp.x, sp.y) - danger(ctx, p, sp.x, sp.y, moving=True)


def _turret_plan(ctx: Ctx, b: Building) -> Plan:
    shots = best_attacks(ctx, b)
    ow = overwatch_value(ctx, b)
    if shots and shots[0].value >= ow:
        return Plan(shots[0].value, shots[0].value, shots[0].order())
    if f"overwatch {b.id}" in ctx.legal_set:
        return Plan(ow, ow, f"overwatch {b.id}")
    return Plan(0.0, 0.0, f"done {b.id}")


def continue_activation(ctx: Ctx, p: Model | Building) -> str:
    """Returns the next order of the piece whose activation is under way."""
    if isinstance(p, Building):
        return _turret_plan(ctx, p).order
    w = ctx.w
    here = (p.x, p.y)
    if p.moved:
        shots: list[Shot] = [] if p.attacked else best_attacks(ctx, p, shoot=not p.dashed)
        ow = overwatch_value(ctx, p) if (not p.attacked and not p.dashed and ranged(w, p)) else -1.0
        if shots and shots[0].value >= ow and shots[0].order() in ctx.legal_set:
            return shots[0].order()
        if ow >= 0 and f"overwatch {p.id}" in ctx.legal_set:
            return f"overwatch {p.id}"
        return f"done {p.id}"
    # attacked, not moved: the best spot to end in, or stay
    stay = position_value(ctx, p, *here) - danger(ctx, p, *here, moving=False)
    best, order = stay, f"done {p.id}"
    after = spots(ctx, p, most=ctx.spot_limit)
    prime_sight(ctx, p, [(sp.x, sp.y) for sp in after])
    for sp in after:
        v = _spot_base(ctx, p, sp)
        if v > best + 1e-9:
            best, order = v, sp.order(p.id)
    return order


# -- position and Overwatch --------------------------------------------------------------


def position_value(ctx: Ctx, m: Model, x: float, y: float) -> float:
    """Returns how good a spot is for closing in: minus ADVANCE per inch beyond the unit's reach
    of the nearest enemy unit (or building, when no enemy unit is left)."""
    w = ctx.w
    wps = weapons_of(w, m)
    if not wps:
        return 0.0
    reach = max((wp.range or 1.0) for wp in wps)
    units = [e for e in ctx.foe_models()]
    goals: list[Model | Building] = list(units) or list(ctx.foe_buildings())
    if not goals:
        return 0.0
    best = math.inf
    for e in goals:
        d = math.dist((x, y), (e.x, e.y))
        if isinstance(e, Building):
            d = max(0.0, d - 2.5)
        # an enemy worth more is worth closing in on from further off
        d -= 0.02 * target_weight(w, e)
        best = min(best, d)
    return -ADVANCE * max(0.0, best - reach * 0.8)


def overwatch_value(ctx: Ctx, p: Model | Building) -> float:
    """Returns the expected worth an Overwatch from where ``p`` stands would destroy.

    The enemies that must still move before ``p`` acts again: units not yet activated this
    phase (likely), other units (next round), and workers, at the depot they are likely to walk
    to in the next Worker Phase (they stay put when they already stand at one).
    """
    w = ctx.w
    wps = [wp for wp in ranged(w, p) if not (wp.powered and w.blackout(p.owner))]
    if not wps:
        return 0.0
    reach = max(wp.range or 0.0 for wp in wps)
    best = 0.0
    for e in ctx.foe_models():
        ut = w.unit_type(e)
        if is_worker(w, e):
            spot, chance = _worker_goal(ctx, e)
        else:
            spot = (e.x, e.y)
            acts_now = not e.activated and not e.fresh
            chance = 0.45 if acts_now else 0.25
            if not armed(w, e):
                chance *= 0.8
        if math.dist((p.x, p.y), spot) > reach + ut.move + 3.0:
            continue
        x0, y0 = e.x, e.y
        e.x, e.y = spot
        try:
            for wp in wps:
                r = attack_value(ctx, p, e, wp, overwatch=True)
                if r is not None:
                    best = max(best, chance * r[0])
                    break
        finally:
            e.x, e.y = x0, y0
    return best


def _worker_goal(ctx: Ctx, m: Model) -> tuple[tuple[float, float], float]:
    """Returns where an enemy worker is likely to stand after its next move, and the chance it moves."""
    w = ctx.w
    depots = sorted(w.state.depots, key=lambda d: (math.dist((m.x, m.y), (d.x, d.y)), d.id))
    if not depots:
        return (m.x, m.y), 0.2
    d = depots[0]
    dist = math.dist((m.x, m.y), (d.x, d.y))
    room = DEPOT_RADIUS + w.unit_type(m).base_radius + 0.5
    if dist <= room + 0.6:
        return (m.x, m.y), 0.15
    step = min(allowance(w, m), dist - room)
    t = step / dist
    return (m.x + (d.x - m.x) * t, m.y + (d.y - m.y) * t), 0.7
