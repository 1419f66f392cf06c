"""A finite, representative sample of the legal orders (the contract's ``legal_moves``).

The battlefield is continuous, so the sample holds every order of each kind that is legal
now except moves: every ``done``, shot, fight, Overwatch, harvest, build, repair and
production, plus a few moves per piece (towards the nearest depot, enemy and own site)
and a few building sites. Every order in the sample is accepted by ``play``.

Readings chosen here:

- Moves in the sample go straight towards a goal (nearest depots and own site for workers,
  nearest enemy unit and building for others; the battlefield's centre when none of these
  gives a move), as far as the allowance and the terrain permit (the full step, else half
  of it), and stop short of the goal; one Dash, towards the first goal beyond the Move.
  A piece hemmed in towards every goal gets a 2" step in the first open compass direction.
- :func:`toward_forms` offers, per unit, "toward" forms (:mod:`engines.nexo.toward`): workers
  toward their three nearest depots and nearest own site, other units toward their three
  nearest enemy units and nearest enemy building; each as a Move, and as a Dash when the
  Dash ends further on; and one ``cover`` form, a Dash only when no Move reaches cover.
  The sample itself holds only canonical orders, never these forms.
- ``scrap`` appears once (the player's cheapest unit, else a site), ``concede`` always;
  ``harvest all`` whenever some worker of the player can harvest this activation.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

from shapely.geometry import Point

from engines.core.errors import IllegalMove
from engines.nexo import economy, production, toward
from engines.nexo.activation import DASH, allowance, move_problem
from engines.nexo.attacks import attack_problem, weapons_of
from engines.nexo.geometry import EPS, Body, check_move, edge_distance, plan_move
from engines.nexo.layout import DEPOT_RADIUS
from engines.nexo.moves import Toward, fmt_pos
from engines.nexo.state import Building, Model, Phase, other
from engines.nexo.world import World

SITES_PER_TYPE = 2
"""How many building sites the sample offers per affordable building type."""


def sample(w: World, seat: str) -> list[str]:
    """Returns the sampled legal orders of ``seat`` (who must be the one to act)."""
    s = w.state
    if s.over:
        return []
    if s.phase == Phase.INITIATIVE:
        return ["first me", "first them", "concede"]
    out: list[str] = []
    if s.phase == Phase.PRODUCTION:
        out += _production(w, seat)
        out.append("end")
    else:
        bodies = w.bodies()
        pieces = [w.piece(s.active)] if s.active else w.eligible(seat, s.phase.value)
        for p in pieces:
            out += _activation(w, p, bodies)
        if s.phase == Phase.WORKER and harvest_all(w, seat):
            out.append("harvest all")
        if (not s.active and s.sides[seat].passes > 0 and w.eligible(seat, s.phase.value)
                and w.eligible(other(seat), s.phase.value)):
            out.append("pass")
    if s.active is None:
        out += _scrap(w, seat)
    out.append("concede")
    return out


def harvest_plan(w: World, m: Model) -> list[str] | None:
    """Returns the orders that take worker ``m`` to its nearest depot with room and harvest, or None.

    Ruling 16 (``harvest all``): depots are tried nearest first; the worker moves only when
    it is not already within reach, to the reachable spot nearest to it beside the depot.
    """
    if m.attacked:
        return None
    s, body = w.state, w.body(m)
    params = w.faction.abilities["harvest"].params
    reach, cap = float(params.get("reach", 1)), int(params.get("per_depot", 2))
    ut = w.unit_type(m)
    reach_now = allowance(w, m)
    bodies = w.bodies()
    for d in sorted(s.depots, key=lambda d: (math.dist((m.x, m.y), (d.x, d.y)), d.id)):
        if s.harvests.get(f"{m.owner}:{d.id}", 0) >= cap:
            continue
        if edge_distance(body, Point(d.x, d.y).buffer(DEPOT_RADIUS)) <= reach + EPS:
            return [f"harvest {m.id} {d.id}"]
        if m.moved or math.dist((m.x, m.y), (d.x, d.y)) > reach_now + DEPOT_RADIUS + reach + ut.base_radius:
            continue
        ring = DEPOT_RADIUS + ut.base_radius + reach / 2
        spots = [(round(d.x + ring * math.cos(k * math.pi / 8), 2),
                  round(d.y + ring * math.sin(k * math.pi / 8), 2)) for k in range(16)]
        for end in sorted(spots, key=lambda q: math.dist(q, (m.x, m.y))):
            try:
                check_move(plan_move(w.terrain, body, [end], bodies), reach_now, m.id)
            except IllegalMove:
                continue
            return [f"move {m.id} {fmt_pos(end)}", f"harvest {m.id} {d.id}"]
    return None


def harvest_all(w: World, seat: str) -> tuple[Model, list[str]] | None:
    """Returns the first of the seat's workers (in id order) that can harvest now, and its orders."""
    pieces = [w.piece(w.state.active)] if w.state.active else w.eligible(seat, "worker")
    for p in sorted(pieces, key=lambda p: p.id):
        if isinstance(p, Model) and "harvest" in w.unit_type(p).abilities:
            plan = harvest_plan(w, p)
            if plan:
                return p, plan
    return None


def only_done(w: World, piece: Model | Building) -> bool:
    """True when ``done`` is the only order left to an active piece (house ruling 16)."""
    if isinstance(piece, Model) and not w.unit_type(piece).is_worker and not piece.attacked \
            and not piece.dashed and any(not wp.melee for wp in weapons_of(w, piece)):
        return False  # Overwatch is always open to it
    return _activation(w, piece, w.bodies()) == [f"done {piece.id}"]


def toward_forms(w: World, seat: str, unit_id: str) -> list[tuple[str, str]]:
    """Returns (label, order) pairs of the "toward" forms ``seat`` may order ``unit_id`` now.

    Each order (``move a1 toward K1``, ``dash a5 cover``) is accepted by the game in this
    position; its label says where it ends (:func:`engines.nexo.toward.label`). Empty when
    the unit cannot move now (not ``seat``'s turn, not eligible, already moved, unknown).
    """
    s = w.state
    if s.over or s.phase not in (Phase.WORKER, Phase.ACTION) or s.turn != seat:
        return []
    try:
        m = w.model(unit_id)
    except IllegalMove:
        return []
    if m.owner != seat or (s.active is not None and s.active != m.id):
        return []
    if s.active is None and m not in w.eligible(seat, s.phase.value):
        return []
    out: list[tuple[str, str]] = []
    verbs = [v for v in ("move", "dash") if move_problem(w, m, dash=v == "dash") is None]
    for gid in _toward_goals(w, m):
        goal = toward.find_goal(w, gid)
        assert goal is not None
        reached = 0.0
        for verb in verbs:
            try:
                r = toward.resolve_full(w, seat, Toward(verb, m.id, gid))
            except IllegalMove:
                continue
            if r.distance > reached + EPS:  # a Dash only when it goes further than the Move
                out.append((toward.label(w, r, goal), f"{verb} {m.id} toward {gid}"))
                reached = r.distance
    for verb in verbs:
        try:
            r = toward.resolve_full(w, seat, Toward(verb, m.id))
        except IllegalMove:
            continue
        out.append((toward.label(w, r), f"{verb} {m.id} cover"))
        break  # a Dash into cover only when no Move reaches any
    return out


def _toward_goals(w: World, m: Model) -> list[str]:
    """Returns the goals :func:`toward_forms` offers: for workers the three nearest depots and the
    nearest own site; for other units the three nearest enemy units and the nearest enemy building."""
    s = w.state

    def near(items: Iterable[Model | Building]) -> list[Model | Building]:
        return sorted(items, key=lambda p: (math.dist((m.x, m.y), (p.x, p.y)), p.id))

    if w.unit_type(m).is_worker:
        depots = sorted(s.depots, key=lambda d: (math.dist((m.x, m.y), (d.x, d.y)), d.id))
        sites = near(b for b in s.buildings.values() if b.owner == m.owner and not b.complete and not b.wreck)
        return [d.id for d in depots[:3]] + [b.id for b in sites[:1]]
    units = near(e for e in s.models.values() if e.owner != m.owner)
    buildings = near(b for b in s.buildings.values() if b.owner != m.owner and not b.wreck)
    return [e.id for e in units[:3]] + [b.id for b in buildings[:1]]


def _scrap(w: World, seat: str) -> list[str]:
    models = sorted((m for m in w.state.models.values() if m.owner == seat),
                    key=lambda m: (w.unit_type(m).carbonite, m.id))
    if models:
        return [f"scrap {models[0].id}"]
    sites = sorted(b.id for b in w.state.buildings.values() if b.owner == seat and not b.wreck)
    return [f"scrap {sites[0]}"] if sites else []


def _activation(w: World, p: Model | Building, bodies: list[Body]) -> list[str]:
    out = [f"done {p.id}"]
    pieces: list[Model | Building] = [*w.state.models.values(), *w.state.buildings.values()]
    enemies = [e for e in pieces if e.owner != p.owner and not (isinstance(e, Building) and e.wreck)]
    if isinstance(p, Model):
        ut = w.unit_type(p)
        if ut.is_worker:
            if not p.attacked:
                out += _abilities(w, p)
                if not p.moved:
                    out += _moves(w, p, bodies, enemies)
            return out
        if not p.moved:
            out += _moves(w, p, bodies, enemies)
    if p.attacked:
        return out
    targets = enemies
    if w.blackout(p.owner):  # core §7.5: own pieces demanding Energy may be attacked too
        targets = [*enemies, *(o for o in pieces if o.owner == p.owner and o is not p
                               and economy.demand_of(o, w.faction) > 0)]
    dashed = isinstance(p, Model) and p.dashed
    for wp in weapons_of(w, p):
        if not wp.melee and dashed:
            continue
        verb = "fight" if wp.melee else "shoot"
        for e in targets:
            if attack_problem(w, p, e, wp, bodies) is None:
                out.append(f"{verb} {p.id} {e.id} {wp.name}")
    if not dashed and any(not wp.melee for wp in weapons_of(w, p)):
        out.append(f"overwatch {p.id}")
    return out


def _abilities(w: World, p: Model) -> list[str]:
    out = []
    ut, s, body = w.unit_type(p), w.state, w.body(p)
    params = {a: w.faction.abilities[a].params for a in ut.abilities}
    if "harvest" in params:
        reach, cap = float(params["harvest"].get("reach", 1)), int(params["harvest"].get("per_depot", 2))
        for d in s.depots:
            if (s.harvests.get(f"{p.owner}:{d.id}", 0) < cap
                    and edge_distance(body, Point(d.x, d.y).buffer(DEPOT_RADIUS)) <= reach + EPS):
                out.append(f"harvest {p.id} {d.id}")
    for b in s.buildings.values():
        if b.owner != p.owner or b.wreck:
            continue
        bt = w.faction.buildings[b.type]
        near = edge_distance(body, w.body(b)) <= 1 + EPS
        if "build" in params and near and not b.complete and b.build_points < (bt.build_points or 0):
            out.append(f"build {p.id} {b.id}")
        cost = int(params.get("repair", {}).get("carbonite_cost", 10))
        if "repair" in params and near and b.hp < bt.hp and s.sides[p.owner].carbonite >= cost:
            out.append(f"repair {p.id} {b.id}")
    return out


def _goals(w: World, p: Model, enemies: list[Model | Building]) -> Iterator[tuple[float, float, float]]:
    """Yields (x, y, stop) goals and where to stop short of them.

    Workers: the two nearest depots and the nearest own site; other units: the nearest
    enemy unit and enemy building.
    """
    r = w.unit_type(p).base_radius
    if w.unit_type(p).is_worker:
        depots = sorted(w.state.depots, key=lambda d: math.dist((p.x, p.y), (d.x, d.y)))
        for d in depots[:2]:
            yield d.x, d.y, r + DEPOT_RADIUS + 0.5
        sites = [b for b in w.state.buildings.values()
                 if b.owner == p.owner and not b.complete and not b.wreck]
        if sites:
            b = min(sites, key=lambda b: math.dist((p.x, p.y), (b.x, b.y)))
            bt = w.faction.buildings[b.type]
            yield b.x, b.y, r + max(bt.width, bt.depth) / 2 + 0.5
        return
    models: list[Model | Building] = [e for e in enemies if isinstance(e, Model)]
    buildings: list[Model | Building] = [e for e in enemies if isinstance(e, Building)]
    for group in (models, buildings):
        if group:
            e = min(group, key=lambda e: math.dist((p.x, p.y), (e.x, e.y)))
            size = w.unit_type(e).base_radius if isinstance(e, Model) else 2.0
            yield e.x, e.y, r + size + 0.6


def _moves(w: World, p: Model, bodies: list[Body], enemies: list[Model | Building]) -> list[str]:
    ut = w.unit_type(p)
    move = allowance(w, p)
    verbs = [("move", move)] + ([] if ut.is_worker or p.shot else [("dash", move + DASH)])
    out: list[str] = []

    def attempt(verb: str, reach: float, end: tuple[float, float]) -> bool:
        if toward.end_problem(w, p, end, reach, bodies) is not None:
            return False
        text = f"{verb} {p.id} {fmt_pos(end)}"
        if text not in out:
            out.append(text)
        return True

    def towards(goals: Iterable[tuple[float, float, float]]) -> None:
        for gx, gy, stop in goals:
            dist = math.dist((p.x, p.y), (gx, gy)) - stop
            if dist <= toward.BESIDE:
                continue
            for verb, reach in verbs:
                if verb == "dash" and (dist <= move or any(o.startswith("dash ") for o in out)):
                    continue
                end, _ = toward.straight_end(w, p, bodies, reach, gx, gy, dist)
                if end is not None and f"{verb} {p.id} {fmt_pos(end)}" not in out:
                    out.append(f"{verb} {p.id} {fmt_pos(end)}")

    towards(_goals(w, p, enemies))
    if not out:
        towards([(w.state.width / 2, w.state.length / 2, 1.0)])
    for verb, reach in verbs:  # hemmed in towards every goal: a short step in any direction
        if reach <= 0 or any(o.startswith(verb + " ") for o in out):
            continue
        step = min(reach, 2.0)
        for k in range(8):
            a = k * math.pi / 4
            if attempt(verb, reach, (round(p.x + step * math.cos(a), 2), round(p.y + step * math.sin(a), 2))):
                break
    return out


def _production(w: World, seat: str) -> list[str]:
    s, f = w.state, w.faction
    out: list[str] = []
    side = s.sides[seat]
    spare = economy.spare_energy(s, seat, f)
    for b in s.buildings.values():
        if b.owner != seat or b.id in s.produced:
            continue
        for ut_name in f.buildings[b.type].produces:
            ut = f.units[ut_name]
            if (b in production.producers(w, seat, ut_name) and side.carbonite >= ut.carbonite
                    and spare >= ut.energy):
                out.append(f"produce {b.id} {ut_name}")
    ctx: production.SiteContext | None = None
    for bt in f.buildings.values():
        if bt.carbonite is None or side.carbonite < bt.carbonite:
            continue
        if not production.energy_allows_site(w, seat, bt.name):
            continue
        ctx = ctx or production.SiteContext(w, seat)
        out += [f"construct {bt.name} {fmt_pos(pos)}" + (" r90" if rot else "")
                for pos, rot in _sites(w, seat, bt.name, ctx)]
    return out


def _sites(w: World, seat: str, btype: str,
           ctx: production.SiteContext) -> list[tuple[tuple[float, float], int]]:
    """Returns up to SITES_PER_TYPE legal sites for ``btype`` around the seat's range sources."""
    found: list[tuple[tuple[float, float], int]] = []
    sources = [b for b in w.state.buildings.values()
               if b.owner == seat and w.intact(b) and w.faction.buildings[b.type].building_range > 0]
    cx, cy = w.state.width / 2, w.state.length / 2
    for src in sources:
        cands = [(round(src.x + dx, 1), round(src.y + dy, 1)) for dx in range(-12, 13, 3)
                 for dy in range(-12, 13, 3)]
        cands.sort(key=lambda q: (math.dist(q, (cx, cy)), q))
        bt = w.faction.buildings[btype]
        fits = ctx.fits(w, [production.site_shape(bt, x, y, 0) for x, y in cands])
        for pos, ok in zip(cands, fits, strict=True):
            if ok:
                found.append((pos, 0))
                if len(found) >= SITES_PER_TYPE:
                    return found
    return found
