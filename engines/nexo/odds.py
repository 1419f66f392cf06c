"""The odds of an attack, for suggestion labels: exact, from :func:`engines.nexo.combat.damage_distribution`.

:func:`attack_odds` takes the attack profile (WIA included), the target's Defense, Save,
Armor and HP, and the cover the target would claim now; :func:`odds_label` says it in a
few words::

    >>> odds_label(Odds(hit_chance=0.625, expected_damage=1.4, cover="light", kills=0.0))
    '62% to hit, 1.4 dmg, light cover'
    >>> odds_label(Odds(hit_chance=0.9996, expected_damage=4.81, cover="none", kills=0.004))
    '>99% to hit, 4.8 dmg, <1% to destroy'

Readings chosen here:

- "To hit" is the chance of at least 1 damage (a hit every save cancels is no hit here);
  ``expected_damage`` is the mean HP the target loses (capped by its HP); ``kills`` the
  chance it is destroyed (reaches 0 HP; Wounded in Action is not counted).
- The odds are those of the attack if it were made now: whether it is allowed (range,
  sight, Blackout) is :func:`engines.nexo.attacks.attack_problem`'s question, not this one.
- Without a weapon named, the unit's first ranged weapon is used, else its first melee one.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engines.core.errors import IllegalMove, shown
from engines.core.words import did_you_mean
from engines.nexo.attacks import defender, pick_weapon, profile, weapons_of
from engines.nexo.combat import cover_applies, damage_distribution
from engines.nexo.sight import Cover, cover
from engines.nexo.world import World


@dataclass(frozen=True)
class Odds:
    """The law of one attack, summed up."""

    hit_chance: float
    """The chance of at least 1 damage."""
    expected_damage: float
    """The mean HP lost, capped by the target's HP."""
    cover: str
    """The cover that counts against this attack: ``none``, ``light`` or ``heavy``."""
    kills: float
    """The chance the target is destroyed."""


def attack_odds(w: World, attacker_id: str, target_id: str, weapon: str | None = None, *,
                overwatch: bool = False) -> Odds:
    """Returns the exact odds of ``attacker_id`` attacking ``target_id`` with ``weapon`` now.

    Raises IllegalMove for an unknown piece or a weapon the attacker does not carry.
    ``overwatch`` adds Overwatch's −1 Aim (core §11).
    """
    a, t = w.piece(w.resolve(attacker_id)), w.piece(w.resolve(target_id))
    if weapon is None:
        wp = pick_weapon(w, a, "shoot", None) or pick_weapon(w, a, "fight", None)
    else:
        wp = next((x for x in weapons_of(w, a) if x.name == weapon.lower()), None)
    if wp is None:
        named = f" called '{shown(weapon, 20)}'" if weapon else ""
        near = did_you_mean(weapon, [x.name for x in weapons_of(w, a)]) if weapon else ""
        raise IllegalMove(f"{a.id} has no weapon{named}{near or '.'}")
    prof = profile(w, a, wp, overwatch=overwatch)
    claimed = Cover.NONE if wp.melee else cover(w.terrain, w.body(a), w.body(t), w.bodies())
    used = cover_applies(prof, claimed)
    law = damage_distribution(prof, defender(w, t), used)
    hp = max(t.hp, 0)
    hit = sum((p for d, p in law.items() if d > 0), Fraction(0))
    mean = sum((min(d, hp) * p for d, p in law.items()), Fraction(0))
    kills = sum((p for d, p in law.items() if d >= hp), Fraction(0)) if hp > 0 else Fraction(0)
    return Odds(float(hit), float(mean), used.name.lower(), float(kills))


def percent(p: float) -> str:
    """Returns a chance as a whole percentage, never rounding a possibility to 0% or 100%.

        >>> percent(0.625), percent(0.0004), percent(0.9996), percent(1.0), percent(0.0)
        ('62%', '<1%', '>99%', '100%', '0%')
    """
    if p <= 0 or p >= 1:
        return "0%" if p <= 0 else "100%"
    v = round(100 * p)
    return "<1%" if v == 0 else ">99%" if v == 100 else f"{v}%"


def odds_label(o: Odds) -> str:
    """Returns the odds in a few words: ``62% to hit, 1.4 dmg, light cover, 5% to destroy``.

    The cover is named only when there is some, the chance to destroy only when there is one.
    """
    out = f"{percent(o.hit_chance)} to hit, {o.expected_damage:.1f} dmg"
    if o.cover != "none":
        out += f", {o.cover} cover"
    if o.kills > 0:
        out += f", {percent(o.kills)} to destroy"
    return out
