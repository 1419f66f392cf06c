"""The economy of the Nexohominis bots: the Worker Phase and the Production Phase.

Worker Phase (core §8). Each worker is given next round's depot (:func:`assignment`: the
ones beside a depot keep it, the others take the nearest depot with a place left, two per
depot, a depot that armed enemies reach counting as further). Each way to spend its
activation is worth what it gains now plus the outlook of where it ends
(:func:`outlook`: 50 Carbonite per round its next harvest is delayed, the inches still
to go, the danger there):

- harvest now (50), without moving or after a move to a spot beside a depot with room
  (exact spots on the ring just within reach, so a move is never an inch short);
- build an own site (:func:`site_value`: a Foundry while none works, a Generator when
  Energy is short, then turrets and relays), which wins when the site is on its way;
- repair a building knocked below half HP;
- walk toward its depot, out of danger.

Workers that can harvest go first (the one with the fewest choices first, so two never
count on the last place at one depot), then the one that gains most over standing idle.

Production Phase (core §13). Carbonite banked counts for nothing at the round limit, so
the bot spends it every round, in this order:

1. a Foundry site early, when there is none (the army comes from it);
2. the Headquarters produces a worker while there are fewer than ``WORKERS`` (placed on
   the side of the depot it will harvest), else an Outrider;
3. each Foundry produces the strongest unit the Carbonite and spare Energy allow (a
   Strider when rich, a Gunner while Energy is spare, else a Trooper or a Breacher);
4. a Generator when spare Energy runs short (it demands nothing, so it never causes
   Blackout); once a Foundry works, up to two Turrets near the depots and a second
   Foundry when the workers are many; what is left goes into Generators (worth, and
   Energy once built).

Nothing the bot buys leaves it in Blackout: a powered unit or a site needs spare Energy at
least its demand (the engine checks it too), and the bot keeps 10 Energy spare when an
enemy can reach its Energy buildings. Sites are placed by the bot's own search (a 1" grid
around each Headquarters and Relay, checked with the engine's placement rules, the best
few tried with :func:`engines.nexo.production.construct_problem`): Energy and production
buildings beside the workers' first steps from where they appear, never across their way
to the two nearest depots; turrets about 6" from those depots.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely.geometry import LineString, Point

from engines.nexo import economy, production, toward
from engines.nexo.activation import allowance, move_problem
from engines.nexo.ai_eval import Ctx, Spot, danger, spots
from engines.nexo.datatypes import Depot
from engines.nexo.geometry import EPS
from engines.nexo.layout import DEPOT_RADIUS
from engines.nexo.moves import fmt_pos
from engines.nexo.state import Building, Model

WORKERS = 7
"""How many workers the bot keeps (2 per depot it can use; more would wait)."""
HARVEST = 50.0


# -- Worker Phase ---------------------------------------------------------------------------


def _harvest_reach(ctx: Ctx) -> float:
    return float(ctx.w.faction.abilities["harvest"].params.get("reach", 1))


def _cap(ctx: Ctx) -> int:
    return int(ctx.w.faction.abilities["harvest"].params.get("per_depot", 2))


def room(ctx: Ctx) -> dict[str, int]:
    """Returns how many more of the bot's workers may harvest each depot this phase."""
    s = ctx.w.state
    return {d.id: _cap(ctx) - s.harvests.get(f"{ctx.me}:{d.id}", 0) for d in s.depots}


def _beside(ctx: Ctx, m: Model, x: float, y: float, depot_xy: tuple[float, float]) -> bool:
    r = ctx.w.unit_type(m).base_radius
    return math.dist((x, y), depot_xy) - DEPOT_RADIUS - r <= _harvest_reach(ctx) - 0.02


def eta(ctx: Ctx, m: Model, x: float, y: float, depot: Depot | None) -> int:
    """Returns in how many rounds after this one ``m`` standing at ``(x, y)`` could harvest ``depot``
    (0: next round; the way is taken as straight)."""
    if depot is None:
        return 9
    move = max(allowance(ctx.w, m), 1.0)
    gap = _gap(ctx, m, x, y, depot)
    return 0 if gap <= move else math.ceil((gap - move) / move)


def _gap(ctx: Ctx, m: Model, x: float, y: float, depot: Depot) -> float:
    """Returns how far ``m`` at ``(x, y)`` is from the nearest spot where it could harvest ``depot``."""
    r = ctx.w.unit_type(m).base_radius
    return max(0.0, math.dist((x, y), (depot.x, depot.y)) - DEPOT_RADIUS - r - _harvest_reach(ctx) + 0.05)


def outlook(ctx: Ctx, m: Model, x: float, y: float, depot: Depot | None, *, moving: bool) -> float:
    """Returns the worth of ``m`` ending its activation at ``(x, y)``: the harvests its way to
    ``depot`` delays (HARVEST per round), the inches of that way, and the danger there."""
    return _cheap(ctx, m, x, y, depot) - danger(ctx, m, x, y, moving=moving)


def _cheap(ctx: Ctx, m: Model, x: float, y: float, depot: Depot | None) -> float:
    if depot is None:
        return -HARVEST * 9
    return -HARVEST * eta(ctx, m, x, y, depot) - 0.5 * _gap(ctx, m, x, y, depot)


@dataclass(frozen=True)
class Option:
    """One way a worker may spend its activation: its worth, its orders, the depot it harvests."""

    value: float
    orders: tuple[str, ...]
    depot: str | None = None


def worker_spots(ctx: Ctx, m: Model, goal: Depot | None) -> list[Spot]:
    """Returns where worker ``m`` may end a Move: the squares of :func:`spots`, plus exact
    ends: the furthest straight step toward ``goal`` and, around every depot in reach, the
    ring of spots just within harvesting reach (so a move is never an inch short)."""
    w = ctx.w
    cands = list(spots(ctx, m, dash=False))
    if move_problem(w, m, dash=False) is not None:
        return cands
    move = allowance(w, m)
    bodies = ctx.bodies()
    ends: list[tuple[float, float]] = []
    r = w.unit_type(m).base_radius
    for d in w.state.depots:
        far = math.dist((m.x, m.y), (d.x, d.y))
        if far > move + 4.0:
            continue
        ring = DEPOT_RADIUS + r + _harvest_reach(ctx) - 0.05
        for k in range(16):
            a = k * math.pi / 8
            ends.append((round(d.x + ring * math.cos(a), 2), round(d.y + ring * math.sin(a), 2)))
    if goal is not None:
        far = math.dist((m.x, m.y), (goal.x, goal.y))
        stop = DEPOT_RADIUS + r + _harvest_reach(ctx) - 0.05
        if far > stop:
            for step in (move, move * 0.75, move * 0.5):
                t = min(step, far - stop) / far
                ends.append((round(m.x + (goal.x - m.x) * t, 2), round(m.y + (goal.y - m.y) * t, 2)))
    for end in ends:
        cost = math.dist((m.x, m.y), end)
        if cost > move + EPS or cost < 0.3:
            continue
        if toward.end_problem(w, m, end, move, bodies) is None:
            cands.append(Spot("move", end[0], end[1], cost, (end,)))
    return cands


def worker_options(ctx: Ctx, m: Model, free: dict[str, int], goal: Depot | None) -> list[Option]:
    """Returns every sensible activation of worker ``m``, best first.

    Harvest now (without moving, or after a move beside a depot with room), build an own site
    (without moving or after a move), repair, or walk toward ``goal``, next round's depot;
    each is worth what it gains now plus :func:`outlook` of where the worker ends.
    """
    w = ctx.w
    out: list[Option] = []
    here_moving = m.moved
    idle = outlook(ctx, m, m.x, m.y, goal, moving=here_moving)
    out.append(Option(idle, (f"done {m.id}",)))
    for d in w.state.depots:
        if f"harvest {m.id} {d.id}" in ctx.legal_set:
            out.append(Option(HARVEST + outlook(ctx, m, m.x, m.y, d, moving=here_moving),
                              (f"harvest {m.id} {d.id}",), d.id))
    may_move = not m.moved and not m.attacked
    cands = worker_spots(ctx, m, goal) if may_move else []

    def best_of(group: list[Spot], depot: Depot | None) -> Spot:
        top = sorted(group, key=lambda sp: (-_cheap(ctx, m, sp.x, sp.y, depot), sp.cost, sp.x, sp.y))[:10]
        return max(top, key=lambda sp: (outlook(ctx, m, sp.x, sp.y, depot, moving=True) - 0.05 * sp.cost,
                                        -sp.x, -sp.y))

    if may_move and not any(o.depot for o in out):
        for d in w.state.depots:
            if free.get(d.id, 0) <= 0 or math.dist((m.x, m.y), (d.x, d.y)) > allowance(w, m) + 4.0:
                continue
            beside = [sp for sp in cands if _beside(ctx, m, sp.x, sp.y, (d.x, d.y))]
            if beside:
                sp = best_of(beside, d)
                out.append(Option(HARVEST + outlook(ctx, m, sp.x, sp.y, d, moving=True),
                                  (sp.order(m.id), f"harvest {m.id} {d.id}"), d.id))
    r = w.unit_type(m).base_radius
    for b in ctx.my_buildings():
        v = site_value(ctx, b)
        if v <= 0:
            continue
        order = f"build {m.id} {b.id}"
        if order in ctx.legal_set:
            out.append(Option(v + outlook(ctx, m, m.x, m.y, goal, moving=here_moving), (order,)))
        elif may_move:
            shape = w.body(b).shape
            near = [sp for sp in cands if float(shape.distance(Point(sp.x, sp.y))) - r <= 1.0 - 0.02]
            if near:
                sp = best_of(near, goal)
                out.append(Option(v + outlook(ctx, m, sp.x, sp.y, goal, moving=True), (sp.order(m.id), order)))
    carb = w.state.sides[ctx.me].carbonite
    for b in ctx.my_buildings():
        order = f"repair {m.id} {b.id}"
        if order not in ctx.legal_set:
            continue
        bt = w.faction.buildings[b.type]
        broken = 2 * b.hp < bt.hp
        v = 35.0 if broken and 2 * (b.hp + 3) >= bt.hp else 18.0 if broken else 3.0
        if carb >= 60 or broken:
            out.append(Option(v + idle, (order,)))
    if may_move and goal is not None and cands:
        sp = best_of(cands, goal)
        out.append(Option(outlook(ctx, m, sp.x, sp.y, goal, moving=True), (sp.order(m.id),)))
    out.sort(key=lambda o: (-o.value, o.orders))
    return out


def site_value(ctx: Ctx, b: Building) -> float:
    """Returns what one Build activation on an own site is worth to the bot now."""
    w = ctx.w
    bt = w.faction.buildings[b.type]
    need = bt.build_points or 0
    if b.complete or b.build_points >= need:
        return 0.0
    spare = economy.spare_energy(w.state, ctx.me, w.faction)
    working = [o for o in ctx.my_buildings() if o.complete and w.intact(o)]
    if bt.produces:
        v = 40.0 if not any(o.type == b.type for o in working) else 15.0
    elif bt.energy_production:
        v = 30.0 if spare < 30 else 8.0
    elif bt.weapons:
        v = 20.0
    else:
        v = 10.0
    return v + 5.0 * b.build_points / max(need, 1)


def assignment(ctx: Ctx) -> dict[str, str]:
    """Returns worker id → the depot it should harvest next: workers beside a depot keep it, the
    others take the nearest depot with a place left (2 per depot), nearest pairs first; a depot
    that armed enemies watch counts as further off."""
    w = ctx.w
    cap = _cap(ctx)
    workers = sorted((m for m in ctx.my_models() if w.unit_type(m).is_worker), key=lambda m: m.id)
    depots = w.state.depots
    load: dict[str, int] = {d.id: 0 for d in depots}
    out: dict[str, str] = {}
    for m in workers:
        for d in depots:
            if _beside(ctx, m, m.x, m.y, (d.x, d.y)) and load[d.id] < cap:
                out[m.id] = d.id
                load[d.id] += 1
                break
    risk = {d.id: _depot_risk(ctx, d.x, d.y) for d in depots}
    pairs = sorted((math.dist((m.x, m.y), (d.x, d.y)) + risk[d.id], m.id, d.id)
                   for m in workers if m.id not in out for d in depots)
    for _dist, mid, did in pairs:
        if mid not in out and load[did] < cap:
            out[mid] = did
            load[did] += 1
    return out


def _depot_risk(ctx: Ctx, x: float, y: float) -> float:
    """Returns a depot's risk in inches of detour: armed enemy units and turrets that reach it."""
    w = ctx.w
    risk = 0.0
    for e in ctx.foes():
        wps = [wp for wp in (w.unit_type(e).weapons if isinstance(e, Model) else
                              w.faction.buildings[e.type].weapons) if not wp.melee]
        if not wps or (isinstance(e, Building) and not w.turret_ready(e)):
            continue
        reach = max(wp.range or 0.0 for wp in wps) + (w.unit_type(e).move if isinstance(e, Model) else 0.0)
        d = math.dist((x, y), (e.x, e.y))
        if d <= reach:
            risk += 6.0 if d <= reach - 6 else 3.0
    return risk


def worker_move(ctx: Ctx) -> str | None:
    """Returns the bot's Worker Phase order, or None to leave it to the fallback.

    Workers that can harvest go first (the one with fewest choices first, one that need not
    move before those that must), then the one whose best option gains most over idling.
    """
    w, s = ctx.w, ctx.w.state
    free = room(ctx)
    goals = assignment(ctx)
    depots = {d.id: d for d in s.depots}
    if s.active is not None:
        m = w.piece(s.active)
        assert isinstance(m, Model)
        mine = worker_options(ctx, m, free, depots.get(goals.get(m.id, "")))
        return next((o.orders[0] for o in mine if o.orders[0] in ctx.legal_set), f"done {m.id}")
    workers = [p for p in w.eligible(ctx.me, "worker") if isinstance(p, Model)]
    if not workers:
        return None
    ctx.sharing = len(workers)
    opts = {m.id: worker_options(ctx, m, free, depots.get(goals.get(m.id, ""))) for m in workers}
    harvesters = [m for m in workers if opts[m.id][0].depot is not None]
    if harvesters:
        def key(m: Model) -> tuple[bool, int, float, str]:
            ways = [o for o in opts[m.id] if o.depot is not None]
            return (len(ways[0].orders) > 1, len({o.depot for o in ways}), -ways[0].value, m.id)
        return opts[min(harvesters, key=key).id][0].orders[0]
    best = max(workers, key=lambda m: (opts[m.id][0].value - _idle(opts[m.id]), m.id))
    return opts[best.id][0].orders[0]


def _idle(opts: list[Option]) -> float:
    return next(o.value for o in opts if o.orders[0].startswith("done "))


# -- Production Phase -----------------------------------------------------------------------


def _spare(ctx: Ctx) -> int:
    return economy.spare_energy(ctx.w.state, ctx.me, ctx.w.faction)


def _energy_margin(ctx: Ctx) -> int:
    """Returns the spare Energy the bot keeps: enough to survive losing one Energy building when
    an armed enemy can reach it soon."""
    w = ctx.w
    makers = [b for b in ctx.my_buildings() if w.faction.buildings[b.type].energy_production and w.intact(b)]
    for b in makers:
        for e in ctx.foe_models():
            ut = w.unit_type(e)
            reach = max((wp.range or 1.0) for wp in ut.weapons) if ut.weapons else 0.0
            if reach and math.dist((b.x, b.y), (e.x, e.y)) <= reach + ut.move + 6.0:
                return 10
    return 0


def production_move(ctx: Ctx) -> str:
    """Returns the bot's next Production Phase order (``end`` when nothing is left to buy)."""
    for order in _wishes(ctx):
        if order in ctx.legal_set or order.startswith(("construct ", "produce ")):
            return order
    return "end"


def _wishes(ctx: Ctx) -> list[str]:
    w, s, f = ctx.w, ctx.w.state, ctx.w.faction
    carb = s.sides[ctx.me].carbonite
    spare = _spare(ctx) - _energy_margin(ctx)
    mine = ctx.my_buildings()
    foundries = [b for b in mine if b.type == "foundry"]
    workers = [m for m in ctx.my_models() if w.unit_type(m).is_worker]
    reserve_workers = sum(1 for r in s.sides[ctx.me].reserve if f.units[r.type].is_worker)
    out: list[str] = []

    def can_produce(bid: str, unit: str) -> bool:
        return f"produce {bid} {unit}" in ctx.legal_set

    # 1. a Foundry site first, when there is none
    foundry = f.buildings["foundry"]
    if not foundries and carb >= (foundry.carbonite or 0) and spare >= foundry.energy:
        site = find_site(ctx, "foundry")
        if site:
            return [site]
    # 2. the Headquarters
    for b in mine:
        if f.buildings[b.type].produces and "drudge" in f.buildings[b.type].produces:
            left = ctx.rounds_left()
            late = left is not None and left <= 2  # a new worker would harvest no more: worth only
            if len(workers) + reserve_workers < WORKERS and can_produce(b.id, "drudge") \
                    and not (late and can_produce(b.id, "outrider")):
                out.append(_worker_spawn(ctx, b, "drudge"))
                continue
            keep = 100 if not foundries and left != 1 else 0  # for the Foundry to come
            if (late or len(workers) + reserve_workers >= WORKERS) and can_produce(b.id, "outrider") \
                    and carb >= 75 + keep:
                out.append(f"produce {b.id} outrider")
    # 3. each Foundry: the strongest unit it can afford
    for b in foundries:
        for unit in _army_choice(ctx, carb, spare):
            if can_produce(b.id, unit):
                out.append(f"produce {b.id} {unit}")
                break
    if out:
        return out
    # 4. buildings
    spare_now = _spare(ctx)
    gens = [b for b in mine if f.buildings[b.type].energy_production and not b.complete]
    if carb >= 100 and spare_now < 30 and not gens:
        site = find_site(ctx, "generator")
        if site:
            return [site]
    turrets = [b for b in mine if b.type == "turret"]
    working = any(b.complete for b in foundries)
    if working and carb >= 125 and spare >= 20 + 10 and len(turrets) < 2 and len(workers) >= 4:
        site = find_site(ctx, "turret")
        if site:
            return [site]
    if working and carb >= 150 and spare >= 30 + 10 and len(foundries) < 2 and len(workers) >= 5:
        site = find_site(ctx, "foundry")
        if site:
            return [site]
    if carb >= 100:
        site = find_site(ctx, "generator")
        if site:
            return [site]
    if ctx.rounds_left() == 1 and carb >= 75:  # the last round, when the view tells: worth is all
        site = find_site(ctx, "relay")
        if site:
            return [site]
    return []


def _worker_spawn(ctx: Ctx, b: Building, unit: str) -> str:
    """Returns the order producing a worker at ``b``, placed on the side of the depot it will
    harvest (the nearest one its fellows leave a place at)."""
    w = ctx.w
    cap = _cap(ctx)
    load: dict[str, int] = {}
    for did in assignment(ctx).values():
        load[did] = load.get(did, 0) + 1
    free = [d for d in w.state.depots if load.get(d.id, 0) < cap]
    order = f"produce {b.id} {unit}"
    if not free:
        return order
    goal = min(free, key=lambda d: (math.dist((b.x, b.y), (d.x, d.y)), d.id))
    radius = w.faction.units[unit].base_radius
    places = sorted(production.spots(w, b, radius), key=lambda p: (math.dist(p, (goal.x, goal.y)), p))
    for pos in places[:12]:
        if production.place_problem(w, b, ctx.me, radius, pos) is None:
            return f"{order} {fmt_pos(pos)}"
    return order


def _army_choice(ctx: Ctx, carb: int, spare: int) -> list[str]:
    """Returns the Foundry's units in the bot's order of preference for what it has now."""
    f = ctx.w.faction
    out = []
    if carb >= f.units["strider"].carbonite + 100 and spare >= f.units["strider"].energy + 10:
        out.append("strider")
    if spare >= f.units["gunner"].energy:
        out.append("gunner")
    out += ["trooper", "breacher"]
    return out


# -- sites ------------------------------------------------------------------------------------


def _along(a: tuple[float, float], b: tuple[float, float], dist: float) -> tuple[float, float]:
    """Returns the point ``dist`` inches from ``a`` toward ``b`` (``b`` when nearer)."""
    full = math.dist(a, b)
    if full <= dist:
        return b
    t = dist / full
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def find_site(ctx: Ctx, btype: str) -> str | None:
    """Returns a ``construct`` order for ``btype`` at the bot's best legal site, or None."""
    w = ctx.w
    bt = w.faction.buildings[btype]
    if bt.carbonite is None or w.state.sides[ctx.me].carbonite < bt.carbonite:
        return None
    if not production.energy_allows_site(w, ctx.me, btype):
        return None
    sources = [b for b in ctx.my_buildings() if w.intact(b) and w.faction.buildings[b.type].building_range > 0]
    if not sources:
        return None
    hq = sources[0]
    cx, cy = w.state.width / 2, w.state.length / 2
    back = 1.0 if hq.y < cy else -1.0  # toward the own edge is -back along y
    ctxs = production.SiteContext(w, ctx.me)
    cands: list[tuple[float, float, int]] = []
    for src in sources:
        rng = w.faction.buildings[src.type].building_range
        span = int(rng + 4)
        for dx in range(-span, span + 1):
            for dy in range(-span, span + 1):
                for rot in (0, 90):
                    cands.append((round(src.x + dx + 0.5 * (bt.width % 2 == 0), 1),
                                  round(src.y + dy + 0.5 * (bt.depth % 2 == 0), 1), rot))
    cands = sorted(set(cands))
    shapes = [production.site_shape(bt, x, y, rot) for x, y, rot in cands]
    ok = ctxs.fits(w, shapes)
    others = [o for o in w.bodies() if o.kind != "model"]
    depots = [(d.x, d.y) for d in w.state.depots]
    foes = ctx.foes()
    spawn = production.free_spot(w, hq, ctx.me, 0.5) or (hq.x, hq.y)
    near_depots = sorted(w.state.depots, key=lambda d: (math.dist((d.x, d.y), spawn), d.id))[:2]
    # the workers' ways from where they appear to the nearest depots stay open
    lanes = [LineString([spawn, (d.x, d.y)]).buffer(1.4) for d in near_depots]
    first_steps = [LineString([spawn, _along(spawn, (d.x, d.y), 7.0)]) for d in near_depots]
    scored: list[tuple[float, float, float, int]] = []
    for (x, y, rot), shape, good in zip(cands, shapes, ok, strict=True):
        if not good:
            continue
        gap = min((float(shape.distance(o.shape)) for o in others), default=9.0)
        if gap < 1.6:
            continue  # leave lanes between buildings (and room for units produced beside them)
        hq_gap = float(shape.distance(w.body(hq).shape))
        if hq_gap < 2.6:
            continue  # the Headquarters' ring of spots for new units stays free
        depot_gap = min((math.dist((x, y), d) for d in depots), default=20.0)
        if depot_gap < 4.0 or any(shape.intersects(lane) for lane in lanes):
            continue
        foe_d = min((math.dist((x, y), (e.x, e.y)) for e in foes), default=40.0)
        if btype == "turret":
            mine_depots = sorted(depots, key=lambda d: math.dist(d, (hq.x, hq.y)))[:2]
            to_depot = min((math.dist((x, y), d) for d in mine_depots), default=0.0)
            score = -abs(to_depot - 6.0) - 0.2 * abs(x - cx) + 0.05 * min(foe_d, 20.0)
        else:
            # beside the workers' first steps toward the depots, so they build it on their way
            reach = float(shape.distance(Point(*spawn)))
            if reach > 6.0:
                continue
            beside = min((float(shape.distance(step)) for step in first_steps), default=3.0)
            forward = (y - spawn[1]) * back
            score = -1.5 * beside - 0.3 * reach - 0.2 * max(0.0, forward) + 0.1 * min(foe_d, 25.0)
        scored.append((score, x, y, rot))
    if not scored:
        return None
    scored.sort(key=lambda t: (-t[0], t[1], t[2], t[3]))
    for _score, x, y, rot in scored[:8]:
        if production.construct_problem(w, ctx.me, btype, (x, y), rot) is None:
            return f"construct {btype} {fmt_pos((x, y))}" + (" r90" if rot else "")
    return None


