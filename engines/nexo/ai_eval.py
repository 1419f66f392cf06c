"""What the Nexohominis bots weigh: worth, attack value, danger and reach (see :mod:`engines.nexo.ai`).

Everything is measured in Carbonite worth (house "Victory": what a piece counts for when the
round limit ends the game), on the bot's own :class:`~engines.nexo.world.World` rebuilt from
the view (:mod:`engines.nexo.ai_world`), with the engine's own helpers: the exact damage law
(:func:`engines.nexo.combat.damage_distribution`), sight and cover
(:mod:`engines.nexo.sight`), attack checks (:func:`engines.nexo.attacks.attack_problem`) and
reach (:func:`engines.nexo.reach.costs`).

- :func:`attack_value`: the worth an attack is expected to destroy: the chance to destroy
  times the target's worth, plus a share for damage short of that (it makes the next kill
  easier), plus a bonus for a building knocked below half HP (it stops producing, and an
  Energy building may black its owner out).
- :func:`danger`: the worth a unit standing at a spot is expected to lose before it acts
  again: enemy Overwatch that would fire at once at the end of the move, enemy units that
  can move and shoot it, turrets in range; cover from where each enemy stands now counts.
- :func:`spots`: where a unit can end a Move or Dash, with the waypoints the game accepts.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import shapely

from engines.nexo import economy
from engines.nexo.activation import DASH, allowance, move_problem
from engines.nexo.ai_world import round_limit, seats_of, world_from_view
from engines.nexo.attacks import defender, profile, weapons_of
from engines.nexo.combat import Defender, Profile, cover_applies, damage_distribution
from engines.nexo.datatypes import Weapon
from engines.nexo.geometry import EPS, Body, fight_reach, in_range, model_body
from engines.nexo.moves import MAX_WAYPOINTS, fmt_pos
from engines.nexo.reach import costs
from engines.nexo.sight import Cover, cover, in_the_way, sample_points
from engines.nexo.state import Building, Model, Phase, other
from engines.nexo.world import World

Piece = Model | Building
Pos = tuple[float, float]

DAMAGE_SHARE = 0.5
"""The share of a target's worth per HP lost that an attack short of destroying it earns."""
ARMED_BONUS = 1.25
"""Armed enemy units are worth this much more as targets (each one removed shoots no more)."""
SPOTS = 120
"""The squares weighed in one decision, over all the bot's units (a deeper search, 200 over 6
units, was measured no stronger and slower)."""
WORKER_BONUS = 1.3
"""Enemy workers are worth this much more as targets (each one removed harvests no more)."""


@dataclass
class Ctx:
    """One decision: the rebuilt world, whose seat decides, the legal orders and the deadline."""

    view: dict[str, Any]
    seat_name: str
    rng: random.Random
    legal: list[str]
    deadline: float = math.inf
    """A ``time.perf_counter()`` value: past it, the pieces not yet planned are left out."""
    w: World = field(init=False)
    me: str = field(init=False)
    foe: str = field(init=False)
    legal_set: set[str] = field(init=False)
    memo: dict[tuple[object, ...], float] = field(init=False, default_factory=dict)
    cache: dict[tuple[object, ...], Any] = field(init=False, default_factory=dict)
    sharing: int = field(init=False, default=1)
    """How many pieces share this decision's work (the spots per unit shrink as they grow)."""

    def __post_init__(self) -> None:
        self.w = world_from_view(self.view, self.rng.getrandbits(63))
        self.me = seats_of(self.view)[self.seat_name]
        self.foe = other(self.me)
        self.legal_set = set(self.legal)
        self._bodies: list[Body] | None = None

    @property
    def spot_limit(self) -> int:
        """How many squares per unit the bot weighs: :data:`SPOTS`, split among its units."""
        return max(16, min(45, SPOTS // max(1, self.sharing)))

    def out_of_time(self) -> bool:
        """True once the deadline has passed (the best plan so far is played)."""
        return time.perf_counter() > self.deadline

    @property
    def phase(self) -> Phase:
        return self.w.state.phase

    def bodies(self) -> list[Body]:
        """Returns the bodies on the battlefield (cached: models never block sight, and the bot moves
        only models on its copy, to weigh spots)."""
        if self._bodies is None:
            self._bodies = self.w.bodies()
        return self._bodies

    def rounds_left(self) -> int | None:
        """Returns how many rounds remain, this one included, when the round limit is known."""
        limit = round_limit(self.view)
        return None if limit is None else max(1, limit - self.w.state.round + 1)

    def my_models(self) -> list[Model]:
        return [m for m in self.w.state.models.values() if m.owner == self.me]

    def my_buildings(self) -> list[Building]:
        return [b for b in self.w.state.buildings.values() if b.owner == self.me and not b.wreck]

    def foe_models(self) -> list[Model]:
        return [m for m in self.w.state.models.values() if m.owner == self.foe]

    def foe_buildings(self) -> list[Building]:
        return [b for b in self.w.state.buildings.values() if b.owner == self.foe and not b.wreck]

    def foes(self) -> list[Piece]:
        return [*self.foe_models(), *self.foe_buildings()]


# -- worth --------------------------------------------------------------------------------


def worth(w: World, p: Piece) -> float:
    """Returns what a piece counts for at the round limit (house "Victory")."""
    if isinstance(p, Model):
        return float(w.unit_type(p).carbonite)
    return float(w.faction.buildings[p.type].value)


def max_hp(w: World, p: Piece) -> int:
    if isinstance(p, Model):
        return w.unit_type(p).hp
    return w.faction.buildings[p.type].hp


def is_worker(w: World, p: Piece) -> bool:
    return isinstance(p, Model) and w.unit_type(p).is_worker


def ranged(w: World, p: Piece) -> list[Weapon]:
    return [wp for wp in weapons_of(w, p) if not wp.melee]


def armed(w: World, p: Piece) -> bool:
    """True for a piece that can attack at all (a unit with weapons, a defensive building)."""
    return bool(weapons_of(w, p))


def target_weight(w: World, p: Piece) -> float:
    """Returns a target's worth with the bonuses for armed units and workers."""
    v = worth(w, p)
    if is_worker(w, p):
        return v * WORKER_BONUS
    if isinstance(p, Model) and armed(w, p):
        return v * ARMED_BONUS
    return v


# -- attacks ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shot:
    """One attack weighed: its order, the worth it should destroy, and its exact odds."""

    verb: str
    attacker: str
    target: str
    weapon: str
    value: float
    kill: float
    mean: float

    def order(self) -> str:
        return f"{self.verb} {self.attacker} {self.target} {self.weapon}"


Law = tuple[tuple[int, float], ...]
"""A damage law as (damage, probability) pairs, in floats (exact laws summed once)."""


@lru_cache(maxsize=4096)
def float_law(prof: Profile, target: Defender, claimed: Cover) -> Law:
    """Returns :func:`engines.nexo.combat.damage_distribution` of an attack, in floats (cached)."""
    law = damage_distribution(prof, target, cover_applies(prof, claimed))
    return tuple((d, float(p)) for d, p in sorted(law.items()))


def _law(w: World, a: Piece, t: Piece, wp: Weapon, claimed: Cover, *, overwatch: bool) -> Law:
    return float_law(profile(w, a, wp, overwatch=overwatch), defender(w, t), claimed)


def law_value(w: World, t: Piece, law: Law, *, weight: float | None = None) -> tuple[float, float, float]:
    """Returns (value, chance to destroy, mean damage) of a damage law against ``t``."""
    hp = max(t.hp, 0)
    kill = sum(p for d, p in law if d >= hp)
    mean = sum(min(d, hp) * p for d, p in law)
    full = max_hp(w, t)
    base = target_weight(w, t) if weight is None else weight
    short = mean - kill * hp  # the damage dealt when the target survives, times its chance
    value = base * kill + base * DAMAGE_SHARE * short / max(full, 1)
    if isinstance(t, Building) and w.intact(t):
        bt = w.faction.buildings[t.type]
        # knocked below half HP: it stops working (core §7.6)
        cross = sum(p for d, p in law if 2 * (hp - d) < bt.hp and d < hp)
        bonus = 0.0
        if bt.energy_production:
            deficit = economy.energy_demand(w.state, t.owner, w.faction) > \
                economy.energy_production(w.state, t.owner, w.faction) - bt.energy_production
            bonus = 120.0 if deficit else 25.0
        elif bt.produces:
            bonus = 40.0
        elif bt.weapons:
            bonus = 0.4 * worth(w, t)
        elif bt.building_range:
            bonus = 10.0
        value += bonus * cross
    return value, kill, mean


def sees(ctx: Ctx, a: Body, b: Body) -> bool:
    """True when ``a`` and ``b`` see each other (:func:`engines.nexo.sight.in_the_way`; sight is
    symmetric, so one answer serves both ways; memoised per decision)."""
    key = _sees_key(a, b.id, b.x, b.y)
    if key not in ctx.cache:
        ctx.cache[key] = in_the_way(ctx.w.terrain, a, b, ctx.bodies()) is None
    return bool(ctx.cache[key])


def prime_sight(ctx: Ctx, m: Model, pts: list[Pos]) -> None:
    """Answers :func:`sees` in bulk for ``m`` standing at each of ``pts`` and every enemy piece.

    The engine's rules (:func:`engines.nexo.sight.in_the_way`) with fewer lines: the
    centre-to-centre line decides when it is clear; when it is blocked, 24 of the engine's
    81 sampled lines are tried (rim to rim at one angle, centre to rim, rim to centre; from
    a building, its corners and edge midpoints), and the spot counts as hidden when all are
    blocked. A spot it calls visible always is; about 1 in 200 it calls hidden is not.
    """
    if not pts:
        return
    w, r = ctx.w, ctx.w.unit_type(m).base_radius
    arr = np.array(pts, dtype=float)
    points = shapely.points(arr)
    elev = np.array([w.terrain.elevation(x, y) for x, y in pts])
    box = shapely.box(float(arr[:, 0].min()), float(arr[:, 1].min()), float(arr[:, 0].max()), float(arr[:, 1].max()))
    for e in ctx.foes():
        eb = w.body(e)
        todo = [i for i, (x, y) in enumerate(pts) if _sees_key(eb, m.id, x, y) not in ctx.cache]
        if not todo:
            continue
        hull = shapely.convex_hull(shapely.union(box.buffer(r), eb.shape))
        e_elev = w.terrain.elevation(e.x, e.y) if isinstance(e, Model) else 0.0
        blockers: list[tuple[Any, Any]] = []  # (shape, spots exempt from it)
        for piece in w.terrain.near(hull):
            t = piece.traits
            if t.blocks_sight:
                blockers.append((piece.shape, None))
            elif t.height > 0 and t.height > e_elev:
                blockers.append((piece.shape, elev >= t.height - EPS))
            elif t.obscuring and not piece.shape.covers(eb.centre):
                blockers.append((piece.shape, shapely.covers(piece.shape, points)))
        blockers += [(b.shape, None) for b in ctx.bodies()
                     if b.blocks and b.id not in (e.id, m.id) and b.shape.intersects(hull)]
        solid = [shape for shape, exempt in blockers if exempt is None]
        if len(solid) > 1:  # one prepared union for the blockers no spot is exempt from
            union = shapely.union_all(solid)
            shapely.prepare(union)
            blockers = [(union, None), *((sh, ex) for sh, ex in blockers if ex is not None)]
        idx = np.array(todo)
        open_ = np.ones(len(idx), dtype=bool)
        if blockers:
            starts = np.repeat([[e.x, e.y]], len(idx), axis=0)
            open_ = ~_blocked(starts, arr[idx], blockers, idx)
            shut = np.flatnonzero(~open_)
            if len(shut):
                open_[shut] = _rim_lines_clear(w, e, r, arr, idx[shut], blockers)
        for i, ok in zip(idx, open_, strict=True):
            x, y = pts[int(i)]
            ctx.cache[_sees_key(eb, m.id, x, y)] = bool(ok)


def _rim_lines_clear(w: World, e: Piece, r: float, arr: np.ndarray, k: np.ndarray,
                     blockers: list[tuple[Any, Any]]) -> np.ndarray:
    """Returns, per spot in ``k``, whether some other sampled line to ``e`` is clear.

    A unit: rim to rim at the same angle, centre to rim and rim to centre (24 of the
    engine's 81 lines); a building: from each of its sampled points (centre, corners, edge
    midpoints) to the spot's centre and four rim points.
    """
    angles = np.arange(8) * (math.pi / 4)
    rim = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    zero = np.zeros(2)
    if isinstance(e, Model):
        re = w.unit_type(e).base_radius
        here = np.array([e.x, e.y])
        pairs = [(here + re * n, r * n) for n in rim] + [(here, r * n) for n in rim] + \
            [(here + re * n, zero) for n in rim]
    else:
        pairs = [(pt, off) for pt in sample_points(w.body(e)) for off in (zero, *(r * n for n in rim[::2]))]
    ok = np.zeros(len(k), dtype=bool)
    for start, db in pairs:
        live = np.flatnonzero(~ok)
        if not len(live):
            break
        starts = np.repeat([start], len(live), axis=0)
        ok[live] = ~_blocked(starts, arr[k[live]] + db, blockers, k[live])
    return ok


def _blocked(starts: np.ndarray, ends: np.ndarray, blockers: list[tuple[Any, Any]], idx: np.ndarray) -> np.ndarray:
    lines = shapely.linestrings(np.stack([starts, ends], axis=1))
    hit = np.zeros(len(lines), dtype=bool)
    for shape, exempt in blockers:
        h = shapely.intersects(lines, shape)
        if h.any():
            h[h] = shapely.relate_pattern(lines[h], shape, "1********")
        if exempt is not None:
            h &= ~exempt[idx]
        hit |= h
    return hit


def _sees_key(a: Body, mid: str, x: float, y: float) -> tuple[object, ...]:
    ka, kb = (a.id, a.x, a.y), (mid, x, y)
    return ("sees", *(ka + kb if ka <= kb else kb + ka))


def may_attack(ctx: Ctx, a: Piece, t: Piece, wp: Weapon) -> bool:
    """True when ``a`` may attack the enemy ``t`` with ``wp`` from where it stands now.

    The questions of :func:`engines.nexo.attacks.attack_problem` for an enemy target (the
    orders the bot plays are the legal ones; this weighs spots it might move to).
    """
    w = ctx.w
    if t.owner == a.owner or (isinstance(t, Building) and t.wreck):
        return False
    if wp.powered and w.blackout(a.owner):
        return False
    ba, bt = w.body(a), w.body(t)
    if wp.melee:
        return fight_reach(w.terrain, ba, bt)
    assert wp.range is not None
    return in_range(ba, bt, wp.range) and sees(ctx, ba, bt)


def attack_value(ctx: Ctx, a: Piece, t: Piece, wp: Weapon, *,
                 overwatch: bool = False) -> tuple[float, float, float] | None:
    """Returns (value, kill chance, mean damage) of ``a`` attacking the enemy ``t`` with ``wp``
    from where ``a`` stands now, or None when the attack is not allowed."""
    if not may_attack(ctx, a, t, wp):
        return None
    w = ctx.w
    claimed = Cover.NONE if wp.melee else cover(w.terrain, w.body(a), w.body(t), ctx.bodies())
    return law_value(w, t, _law(w, a, t, wp, claimed, overwatch=overwatch))


def best_attacks(ctx: Ctx, a: Piece, *, melee: bool = True, shoot: bool = True) -> list[Shot]:
    """Returns every attack ``a`` may make on an enemy from where it stands now, best first.

    In Blackout too only enemies are weighed: attacking one's own pieces is never chosen.
    """
    out: list[Shot] = []
    for wp in weapons_of(ctx.w, a):
        if (wp.melee and not melee) or (not wp.melee and not shoot):
            continue
        for t in ctx.foes():
            r = attack_value(ctx, a, t, wp)
            if r is not None:
                out.append(Shot("fight" if wp.melee else "shoot", a.id, t.id, wp.name, *r))
    out.sort(key=lambda s: (-s.value, s.target, s.weapon))
    return out


# -- danger -------------------------------------------------------------------------------


def _threat_weapons(w: World, e: Piece) -> list[Weapon]:
    if isinstance(e, Building) and not w.turret_ready(e):
        return []
    wps = list(weapons_of(w, e))
    if w.blackout(e.owner):
        wps = [wp for wp in wps if not wp.powered]
    return wps


def danger(ctx: Ctx, m: Model, x: float, y: float, *, moving: bool, acted: bool = True) -> float:
    """Returns the worth ``m`` is expected to lose standing at ``(x, y)`` (memoised per decision).

    See :func:`_danger`.
    """
    key = (m.id, m.hp, round(x, 2), round(y, 2), moving, acted)
    if key not in ctx.memo:
        ctx.memo[key] = _danger(ctx, m, x, y, moving=moving, acted=acted)
    return ctx.memo[key]


def _danger(ctx: Ctx, m: Model, x: float, y: float, *, moving: bool, acted: bool = True) -> float:
    """Returns the worth ``m`` is expected to lose standing at ``(x, y)`` before it acts again.

    ``moving``: it ends a move there, so enemy Overwatch in sight and range fires at once
    (−1 Aim). ``acted``: its activation is spent (else it is only weighed as a threat spot).
    """
    w = ctx.w
    ut = w.unit_type(m)
    body = model_body(m.id, x, y, ut.base_radius)
    bodies = ctx.bodies()
    hp, full = max(m.hp, 1), ut.hp
    base = worth(w, m) * (1.4 if ut.is_worker else 1.0)
    total = 0.0
    phase = ctx.phase
    for e in ctx.foes():
        wps = _threat_weapons(w, e)
        if not wps:
            continue
        eb = w.body(e)
        d = float(eb.shape.distance(body.shape))
        if isinstance(e, Model):
            eut = w.unit_type(e)
            if eut.is_worker:
                continue
            move = allowance(w, e)
            can_act_now = phase == Phase.ACTION and not e.activated and not e.fresh and e.wia != "pinned"
        else:
            move = 0.0
            can_act_now = phase == Phase.ACTION and not e.activated
        longest = max((wp.range or 1.0) for wp in wps)
        if d > longest + move + DASH + 0.5:
            continue
        seen: bool | None = None
        best = 0.0
        for wp in wps:
            reach = wp.range if wp.range is not None else 1.0
            if e.overwatch and moving and not wp.melee and d <= reach + EPS:
                if seen is None:
                    seen = sees(ctx, eb, body)
                if seen:
                    claimed = cover(w.terrain, eb, body, bodies)
                    law = float_law(profile(w, e, wp, overwatch=True), defender(w, m), claimed)
                    best = max(best, _loss(law, hp, full, base))
                    continue
            limit = reach + move + (DASH if wp.melee else 0.0)
            if d > limit + EPS:
                continue
            if wp.melee:
                chance = 0.45
                claimed = Cover.NONE
            else:
                if d <= reach + EPS:
                    if seen is None:
                        seen = sees(ctx, eb, body)
                    chance = 0.75 if seen else 0.4
                else:
                    chance = 0.45  # it must move first: where to, and what it will see, is open
                claimed = cover(w.terrain, eb, body, bodies)
            chance *= 1.0 if (can_act_now or not acted) else 0.7
            law = float_law(profile(w, e, wp), defender(w, m), claimed)
            best = max(best, chance * _loss(law, hp, full, base))
        total += best
    return total


def _loss(law: Law, hp: int, full: int, base: float) -> float:
    kill = sum(p for d, p in law if d >= hp)
    mean = sum(min(d, hp) * p for d, p in law)
    return base * kill + base * 0.35 * (mean - kill * hp) / max(full, 1)


# -- reach --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spot:
    """Where a unit can end a Movement Action: the verb, the end, its cost and the waypoints."""

    verb: str
    x: float
    y: float
    cost: float
    path: tuple[Pos, ...]

    def order(self, unit: str) -> str:
        return f"{self.verb} {unit} " + " ".join(fmt_pos(p) for p in self.path)


def spots(ctx: Ctx, m: Model, *, dash: bool = True, most: int | None = None) -> list[Spot]:
    """Returns the squares ``m`` can end a Move (and a Dash, when allowed and ``dash``) on now.

    With ``most``, one square in 2 (or 3, …) along each axis is kept, the finest spacing that
    keeps at most ``most`` squares, to bound the work.
    """
    w = ctx.w
    if move_problem(w, m, dash=False) is not None:
        return []
    move = allowance(w, m)
    may_dash = dash and move_problem(w, m, dash=True) is None
    budget = allowance(w, m, dash=True) if may_dash else move
    if budget <= 0:
        return []
    key = ("spots", m.id, m.x, m.y, budget)
    if key not in ctx.cache:
        found = costs(w, m, budget)
        out: list[Spot] = []
        for (cx, cy), (cost, path) in sorted(found.items()):
            if len(path) > MAX_WAYPOINTS or math.dist((cx, cy), (m.x, m.y)) < 0.9:
                continue
            verb = "move" if cost <= move + EPS else "dash"
            out.append(Spot(verb, cx, cy, cost, tuple(path)))
        ctx.cache[key] = out
    every: list[Spot] = ctx.cache[key]
    return thinned(every, most)


def thinned(cands: list[Spot], most: int | None) -> list[Spot]:
    """Returns ``cands``, or one square in 2 (3, …) along each axis: the finest spacing that keeps
    at most ``most``."""
    if most is None or len(cands) <= most:
        return list(cands)
    kept = cands
    for thin in range(2, 8):
        kept = [sp for sp in cands if int(sp.x) % thin == 0 and int(sp.y) % thin == 0]
        if len(kept) <= most:
            break
    return kept
