"""The attack procedure of the house rules (core §10, house "Combat"), as pure functions.

Dice come only from the game's :class:`~engines.core.rng.Rng`. :func:`resolve_attack`
rolls attack dice, applies cover, rolls saves, allocates them to minimise damage and
reports everything; :func:`damage_distribution` computes the same attack's damage law
exactly, by enumeration::

    >>> rifle = Profile(dice=4, modifier=1, damage=2, crit_damage=3)
    >>> trooper = Defender(defense=5, save=4, armor=0)
    >>> round(float(expected_damage(rifle, trooper)), 3)
    2.631
    >>> allocate(normals=1, crits=1, normal_saves=2, crit_saves=0, damage=2, crit_damage=3)
    Allocation(normals_left=1, crits_left=0, damage=2)

Readings chosen here:

- ``hits`` in an attack event counts every hit, critical ones included; ``crits`` counts
  the critical ones. In a result, ``damage`` is what the uncancelled hits deal after
  Armor and ``dealt`` what the target actually lost (capped by its HP); an event's
  ``damage`` is the HP lost.
- Cover needs at least one hit: with no hit there is nothing to save.
- Among allocations with equal damage, the engine keeps the one that cancels critical hits
  first (it makes no difference to the result).
- A unit becomes WIA (core §12, ruling 10) after an attack that leaves it alive at or below
  half its starting HP, if it has never been WIA before.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

from engines.core.dice import roll
from engines.core.events import Event, event
from engines.core.rng import Rng
from engines.core.words import plural
from engines.nexo.datatypes import WiaResult
from engines.nexo.sight import Cover

OVERWATCH_AIM = -1
"""Core §11: an Overwatch attack suffers −1 Aim."""
MISS, NORMAL, CRIT = 0, 1, 2


@dataclass(frozen=True)
class Profile:
    """The attacking side of one attack: dice, Aim or Fight modifier, damage normal/critical."""

    dice: int
    modifier: int
    damage: int
    crit_damage: int
    ranged: bool = True
    ignores_cover: bool = False


@dataclass(frozen=True)
class Defender:
    """The defending side of one attack: Defense, Save and Armor (core §10.3–10.6)."""

    defense: int
    save: int
    armor: int


@dataclass(frozen=True)
class Allocation:
    """What is left after saves: uncancelled normal and critical hits and their damage."""

    normals_left: int
    crits_left: int
    damage: int


@dataclass(frozen=True)
class AttackResult:
    """Everything one attack rolled and did."""

    attack_dice: tuple[int, ...]
    hits: int
    crits: int
    cover: Cover
    save_dice: tuple[int, ...]
    normal_saves: int
    crit_saves: int
    damage: int
    dealt: int
    target_hp: int

    @property
    def destroyed(self) -> bool:
        """True when the target reached 0 HP (core §10.7)."""
        return self.target_hp == 0


def hit_kind(die: int, modifier: int, defense: int) -> int:
    """Returns MISS, NORMAL or CRIT for one attack die (core §10.3, house step 1)."""
    if die == 1:
        return MISS
    if die == 6:
        return CRIT
    return NORMAL if die + modifier >= defense else MISS


def save_kind(die: int, save: int) -> int:
    """Returns MISS, NORMAL or CRIT for one save die (core §10.4, house step 3)."""
    if die == 1:
        return MISS
    if die == 6:
        return CRIT
    return NORMAL if die >= save else MISS


def hit_damage(base: int, armor: int) -> int:
    """Returns one uncancelled hit's damage after Armor, at least 1 (core §10.6)."""
    return max(1, base - armor)


def allocate(normals: int, crits: int, normal_saves: int, crit_saves: int, damage: int,
             crit_damage: int) -> Allocation:
    """Returns the allocation of saves that leaves the least damage (house step 4).

    A critical save cancels any hit, a normal save a normal hit, two normal saves one
    critical hit. ``damage`` and ``crit_damage`` are per hit, after Armor.
    """
    best: Allocation | None = None
    for cs_on_crits in range(min(crit_saves, crits), -1, -1):
        crits_open = crits - cs_on_crits
        normals_open = max(0, normals - (crit_saves - cs_on_crits))
        for pairs in range(min(crits_open, normal_saves // 2), -1, -1):
            n_left = max(0, normals_open - (normal_saves - 2 * pairs))
            c_left = crits_open - pairs
            cand = Allocation(n_left, c_left, n_left * damage + c_left * crit_damage)
            if best is None or cand.damage < best.damage:
                best = cand
    assert best is not None
    return best


def cover_applies(profile: Profile, cover: Cover) -> Cover:
    """Returns the cover that counts against this attack: none for Fight or cover-ignoring weapons."""
    return Cover.NONE if not profile.ranged or profile.ignores_cover else cover


def resolve_attack(rng: Rng, profile: Profile, target: Defender, cover: Cover,
                   target_hp: int) -> AttackResult:
    """Rolls one attack and returns what happened (core §10.1–10.6, house steps 1–5)."""
    attack = roll(rng, profile.dice)
    kinds = [hit_kind(d, profile.modifier, target.defense) for d in attack]
    crits = kinds.count(CRIT)
    hits = crits + kinds.count(NORMAL)
    used = cover_applies(profile, cover) if hits else Cover.NONE
    saves = roll(rng, hits - (1 if used else 0))
    skinds = [save_kind(d, target.save) for d in saves]
    normal_saves = skinds.count(NORMAL) + (1 if used == Cover.LIGHT else 0)
    crit_saves = skinds.count(CRIT) + (1 if used == Cover.HEAVY else 0)
    left = allocate(hits - crits, crits, normal_saves, crit_saves,
                    hit_damage(profile.damage, target.armor), hit_damage(profile.crit_damage, target.armor))
    dealt = min(left.damage, target_hp)
    return AttackResult(tuple(attack), hits, crits, used, tuple(saves), normal_saves, crit_saves,
                        left.damage, dealt, target_hp - dealt)


def _probs(kind_of: list[int]) -> tuple[Fraction, Fraction, Fraction]:
    return tuple(Fraction(kind_of.count(k), 6) for k in (MISS, NORMAL, CRIT))  # type: ignore[return-value]


def _trinomial(n: int, p: tuple[Fraction, Fraction, Fraction]) -> list[tuple[int, int, Fraction]]:
    """Returns (normals, crits, probability) for n dice with category probabilities p."""
    out = []
    for c in range(n + 1):
        for k in range(n - c + 1):
            m = n - c - k
            out.append((k, c, comb(n, c) * comb(n - c, k) * p[0] ** m * p[1] ** k * p[2] ** c))
    return out


@cache
def damage_distribution(profile: Profile, target: Defender, cover: Cover = Cover.NONE) -> dict[int, Fraction]:
    """Returns the exact law of an attack's damage (before the HP cap), by enumeration."""
    hit_p = _probs([hit_kind(d, profile.modifier, target.defense) for d in range(1, 7)])
    save_p = _probs([save_kind(d, target.save) for d in range(1, 7)])
    dmg, cdmg = hit_damage(profile.damage, target.armor), hit_damage(profile.crit_damage, target.armor)
    out: dict[int, Fraction] = {}
    for normals, crits, p_hit in _trinomial(profile.dice, hit_p):
        hits = normals + crits
        used = cover_applies(profile, cover) if hits else Cover.NONE
        for ns, cs, p_save in _trinomial(hits - (1 if used else 0), save_p):
            ns += 1 if used == Cover.LIGHT else 0
            cs += 1 if used == Cover.HEAVY else 0
            d = allocate(normals, crits, ns, cs, dmg, cdmg).damage
            out[d] = out.get(d, Fraction(0)) + p_hit * p_save
    return out


def expected_damage(profile: Profile, target: Defender, cover: Cover = Cover.NONE) -> Fraction:
    """Returns the exact mean damage of an attack (before the HP cap)."""
    return sum((d * p for d, p in damage_distribution(profile, target, cover).items()), Fraction(0))


def becomes_wia(hp: int, max_hp: int, *, ever_wia: bool) -> bool:
    """True when a surviving unit at or below half its starting HP rolls WIA (core §12, ruling 10)."""
    return hp > 0 and 2 * hp <= max_hp and not ever_wia


def roll_wia(rng: Rng, table: dict[int, WiaResult]) -> WiaResult:
    """Rolls 1D6 on the WIA table (core §12)."""
    return table[roll(rng, 1)[0]]


def hit_text(hits: int, crits: int) -> str:
    """Returns an attack's hits as read aloud: critical ones are among them, so said in brackets.

    >>> hit_text(3, 1), hit_text(1, 0), hit_text(0, 0), hit_text(1, 1), hit_text(2, 2), hit_text(4, 4)
    ('3 hits (1 critical)', '1 hit', 'no hits', '1 hit (critical)', '2 hits (both critical)', '4 hits (all critical)')
    """
    if not hits:
        return "no hits"
    said = plural(hits, "hit")
    if not crits:
        return said
    if crits < hits:
        return f"{said} ({crits} critical)"
    return f"{said} ({'critical' if hits == 1 else 'both critical' if hits == 2 else 'all critical'})"


_VERBS = {"shoot": "shoots", "fight": "fights", "overwatch": "fires Overwatch at"}


def attack_event(attacker: str, target: str, weapon: str, result: AttackResult, *,
                 kind: str = "shoot") -> Event:
    """Returns the event of one attack with its dice, hits, cover, saves and damage.

    ``kind`` is ``shoot``, ``fight`` or ``overwatch``.
    """
    dice = "-".join(map(str, result.attack_dice)) or "no dice"
    verb = _VERBS.get(kind, f"attacks ({kind})")
    text = f"{attacker} {verb} {target} with {weapon} ({dice}): {hit_text(result.hits, result.crits)}"
    if result.cover:
        text += f", {result.cover.name.lower()} cover"
    if result.save_dice:
        text += f"; saves {'-'.join(map(str, result.save_dice))}"
    text += f"; {result.dealt} damage, {target} " + (
        "is destroyed." if result.destroyed else f"has {result.target_hp} HP left.")
    return event(
        kind, text, attacker=attacker, target=target, weapon=weapon,
        attack_dice=list(result.attack_dice), hits=result.hits, crits=result.crits,
        cover=result.cover.name.lower(), save_dice=list(result.save_dice), damage=result.dealt,
        target_hp=result.target_hp,
    )
