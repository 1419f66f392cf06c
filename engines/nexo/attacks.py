"""Attacks on the battlefield: who may shoot or fight whom, and what a hit does (core §10–12).

:func:`attack_problem` says why an attack is not allowed (or None), :func:`resolve` rolls it
through :mod:`engines.nexo.combat` and applies damage, destruction and WIA, and
:func:`overwatch_reactions` fires every waiting Overwatch at a unit that has just moved.

Readings chosen here:

- A player may attack enemy pieces, and in Blackout also their own pieces that demand
  Energy (core §7.5: destroying them reduces Energy Demand); ``scrap`` remains too.
- Standing buildings, finished or under construction, can be attacked; wreckage cannot.
- A unit's Aim is its datasheet Aim plus the weapon's, plus WIA effects; a Turret's is its
  weapon's. Overwatch takes the first ranged weapon that can reach the mover.
- An Overwatch reaction fires at the mover's end position, after the whole move.
- Every attack rolled, Overwatch reactions included, becomes the state's ``last_attack``.
- A unit Pinned before it has activated in its own phase skips that activation (its next
  one); otherwise it skips its activation in the next phase of its kind.
"""

from __future__ import annotations

from engines.core.events import Event, event
from engines.core.rng import Rng
from engines.nexo import economy
from engines.nexo.combat import (
    OVERWATCH_AIM,
    AttackResult,
    Defender,
    Profile,
    attack_event,
    becomes_wia,
    resolve_attack,
    roll_wia,
)
from engines.nexo.datatypes import Weapon
from engines.nexo.geometry import Body, fight_reach, in_range
from engines.nexo.sight import Cover, cover, in_the_way
from engines.nexo.state import Building, LastAttack, Model
from engines.nexo.world import World

Piece = Model | Building


def weapons_of(w: World, p: Piece) -> tuple[Weapon, ...]:
    """Returns the weapons on a unit's or building's datasheet."""
    if isinstance(p, Model):
        return w.unit_type(p).weapons
    return w.faction.buildings[p.type].weapons


def pick_weapon(w: World, p: Piece, verb: str, name: str | None) -> Weapon | None:
    """Returns the named weapon, or the first ranged (shoot) or melee (fight) one."""
    melee = verb == "fight"
    for wp in weapons_of(w, p):
        if wp.melee == melee and (name is None or wp.name == name.lower()):
            return wp
    return None


def profile(w: World, p: Piece, wp: Weapon, *, overwatch: bool = False) -> Profile:
    """Returns the attack profile of a piece's weapon with WIA and Overwatch modifiers."""
    mod = wp.aim
    if isinstance(p, Model):
        ut, eff = w.unit_type(p), w.wia(p)
        mod += ut.fight if wp.melee else ut.aim
        if eff is not None:
            mod += eff.fight if wp.melee else eff.aim
    if overwatch:
        mod += OVERWATCH_AIM
    return Profile(wp.dice, mod, wp.damage, wp.crit_damage, ranged=not wp.melee, ignores_cover=wp.no_cover)


def defender(w: World, p: Piece) -> Defender:
    """Returns the Defense, Save and Armor of a target."""
    if isinstance(p, Model):
        ut = w.unit_type(p)
        return Defender(ut.defense, ut.save, ut.armor)
    bt = w.faction.buildings[p.type]
    return Defender(bt.defense, bt.save, bt.armor)


def _named(w: World, ids: list[str]) -> str:
    """Returns "the ruin R1 is" / "the ruin R1 and the Foundry A2 are" for what blocks a line."""
    names = []
    for pid in ids:
        if pid in w.terrain.by_id:
            names.append(f"the {w.terrain.by_id[pid].traits.title} {pid}")
        elif pid in w.state.buildings:
            names.append(f"the {w.faction.buildings[w.state.buildings[pid].type].title} {pid}")
        else:
            names.append(pid)
    if len(names) == 1:
        return f"{names[0]} is"
    return f"{', '.join(names[:-1])} and {names[-1]} are"


def attack_problem(w: World, attacker: Piece, target: Piece, wp: Weapon,
                   bodies: list[Body] | None = None) -> str | None:
    """Returns why ``attacker`` cannot attack ``target`` with ``wp`` now, or None.

    ``bodies`` may pass :meth:`World.bodies` when the caller already has them.
    """
    if target is attacker:
        return f"{attacker.id} cannot attack itself"
    if target.owner == attacker.owner and not (
            w.blackout(attacker.owner) and economy.demand_of(target, w.faction) > 0):
        return f"{target.id} is on your side (only a piece demanding Energy, and only in Blackout)"
    if isinstance(target, Building) and target.wreck:
        return f"{target.id} is already wreckage"
    if wp.powered and w.blackout(attacker.owner):
        return f"{wp.title} is powered and you are in Blackout"
    a, t = w.body(attacker), w.body(target)
    if wp.melee:
        if not fight_reach(w.terrain, a, t):
            return f"{target.id} is not within 1\" of {attacker.id}"
        return None
    assert wp.range is not None
    if not in_range(a, t, wp.range):
        return f"{target.id} is beyond the {wp.range:g}\" range of {wp.title}"
    hidden_by = in_the_way(w.terrain, a, t, w.bodies() if bodies is None else bodies)
    if hidden_by is not None:
        return f"{attacker.id} cannot see {target.id}: {_named(w, hidden_by)} in the way"
    return None


def result_text(result: AttackResult) -> str:
    """Returns an attack's result in a few words: ``destroyed``, ``2 dmg``, ``saved`` or ``miss``."""
    if result.destroyed:
        return "destroyed"
    if result.dealt:
        return f"{result.dealt} dmg"
    return "saved" if result.hits else "miss"


def resolve(w: World, rng: Rng, attacker: Piece, target: Piece, wp: Weapon, kind: str) -> list[Event]:
    """Rolls one attack and applies damage, destruction and WIA (core §10.1–10.7, §12)."""
    prof = profile(w, attacker, wp, overwatch=kind == "overwatch")
    cov = Cover.NONE
    if not wp.melee:
        cov = cover(w.terrain, w.body(attacker), w.body(target), w.bodies())
    result = resolve_attack(rng, prof, defender(w, target), cov, target.hp)
    events = [attack_event(attacker.id, target.id, wp.title, result, kind=kind)]
    w.state.last_attack = LastAttack(attacker.id, target.id, kind, wp.name, result_text(result),
                                     (attacker.x, attacker.y), (target.x, target.y))
    if result.dealt:
        w.state.progress = True
    target.hp = result.target_hp
    if isinstance(target, Model):
        if result.destroyed:
            del w.state.models[target.id]
            if w.state.active == target.id:
                w.state.active = None
        elif becomes_wia(target.hp, w.unit_type(target).hp, ever_wia=target.ever_wia):
            eff = roll_wia(rng, w.rules.wia)
            target.wia, target.ever_wia = eff.name, True
            target.wia_until = w.state.round + 1 if eff.lasts == "next_round" else None
            events.append(event("wia", f"{target.id} is Wounded in Action: {eff.title} ({eff.text})",
                                unit=target.id, result=eff.name))
            events += _pinned_now(w, target)
    elif result.destroyed:
        target.overwatch = False
        events.append(event("wreck", f"{target.id} is destroyed and left as wreckage.", building=target.id))
    return events


def _pinned_now(w: World, m: Model) -> list[Event]:
    """Spends a fresh Pinned at once when the unit could still activate in the current phase."""
    phase = w.state.phase.value
    if m.wia != "pinned" or m.activated or m.fresh or phase not in ("worker", "action"):
        return []
    if w.unit_type(m).is_worker != (phase == "worker"):
        return []
    m.activated, m.overwatch, m.wia = True, False, None
    return [event("pinned", f"{m.id} is Pinned and skips its activation.", unit=m.id)]


def overwatch_reactions(w: World, rng: Rng, mover: Model) -> list[Event]:
    """Fires every enemy Overwatch that can reach ``mover`` now, in id order (ruling 6)."""
    events: list[Event] = []
    s = w.state
    watchers: list[Piece] = [*s.models.values(), *s.buildings.values()]
    for p in sorted(watchers, key=lambda p: p.id):
        if mover.id not in s.models:
            break
        if p.owner == mover.owner or not p.overwatch:
            continue
        if isinstance(p, Building) and not w.turret_ready(p):
            continue
        for wp in weapons_of(w, p):
            if not wp.melee and attack_problem(w, p, mover, wp) is None:
                p.overwatch = False
                events += resolve(w, rng, p, mover, wp, "overwatch")
                break
    return events
