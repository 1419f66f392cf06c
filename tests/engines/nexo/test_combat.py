"""Tests of the attack procedure (core §10, §12, house "Combat")."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import pytest

from engines.core.rng import Rng, SplitMix64
from engines.nexo.combat import (
    CRIT,
    MISS,
    NORMAL,
    OVERWATCH_AIM,
    Allocation,
    Defender,
    Profile,
    allocate,
    attack_event,
    becomes_wia,
    damage_distribution,
    expected_damage,
    hit_kind,
    hit_text,
    resolve_attack,
    roll_wia,
    save_kind,
)
from engines.nexo.data import default_ruleset
from engines.nexo.sight import Cover

RULES = default_ruleset()
UNITS = RULES.faction.units


class FixedRng(SplitMix64):
    """An Rng whose d6 results are given in advance (for exact tests)."""

    def __init__(self, dice: list[int]) -> None:
        super().__init__(0)
        self.dice = list(dice)

    def randint(self, low: int, high: int) -> int:
        assert (low, high) == (1, 6)
        return self.dice.pop(0)


def profile(unit: str, weapon: str, *, overwatch: bool = False) -> Profile:
    """Returns the attack profile of a unit's weapon from the datasheets."""
    u = UNITS[unit]
    w = u.weapon(weapon)
    assert w is not None
    mod = (u.fight if w.melee else u.aim + w.aim) + (OVERWATCH_AIM if overwatch else 0)
    return Profile(w.dice, mod, w.damage, w.crit_damage, ranged=not w.melee, ignores_cover=w.no_cover)


def defender(unit: str) -> Defender:
    """Returns the defending profile of a unit from the datasheets."""
    u = UNITS[unit]
    return Defender(u.defense, u.save, u.armor)


def test_10_3_natural_six_is_a_critical_hit_and_natural_one_fails() -> None:
    assert hit_kind(6, -5, 6) == CRIT
    assert hit_kind(1, 9, 2) == MISS
    assert hit_kind(4, 1, 5) == NORMAL
    assert hit_kind(3, 1, 5) == MISS


def test_10_4_save_dice() -> None:
    assert [save_kind(d, 4) for d in range(1, 7)] == [MISS, MISS, MISS, NORMAL, NORMAL, CRIT]
    assert save_kind(1, 1) == MISS


def test_10_4_save_allocation_minimises_damage() -> None:
    # A critical save on the critical hit, normal saves on normal hits.
    assert allocate(2, 1, 2, 1, 2, 5) == Allocation(0, 0, 0)
    # Two normal saves: pairing them on a 5-damage critical beats two 2-damage normals.
    assert allocate(2, 1, 2, 0, 2, 5) == Allocation(2, 0, 4)
    # ... but not when the critical deals less than the two normals together.
    assert allocate(2, 1, 2, 0, 2, 3) == Allocation(0, 1, 3)
    # A critical save goes on a critical hit rather than a normal one.
    assert allocate(1, 1, 0, 1, 2, 3) == Allocation(1, 0, 2)
    # Saves beyond the hits cancel nothing more; an odd normal save can't touch a crit.
    assert allocate(0, 1, 1, 0, 2, 3) == Allocation(0, 1, 3)
    assert allocate(1, 0, 3, 2, 2, 3) == Allocation(0, 0, 0)


def test_10_4_allocation_matches_brute_force() -> None:
    def brute(n: int, c: int, ns: int, cs: int, d: int, cd: int) -> int:
        best = n * d + c * cd
        # Each critical save: on a crit, on a normal or unused; normal saves: on normals or pairs.
        for cs_c in range(cs + 1):
            for cs_n in range(cs - cs_c + 1):
                for ns_n in range(ns + 1):
                    for pairs in range((ns - ns_n) // 2 + 1):
                        nl = max(0, n - cs_n - ns_n)
                        cl = max(0, c - cs_c - pairs)
                        best = min(best, nl * d + cl * cd)
        return best

    for n, c, ns, cs, d, cd in product(range(4), range(4), range(5), range(3), (1, 2, 3), (2, 3, 5, 8)):
        assert allocate(n, c, ns, cs, d, cd).damage == brute(n, c, ns, cs, d, cd)


def test_10_exact_attack_on_hand_picked_dice() -> None:
    # Trooper's Rifle (+1 Aim) at a Breacher (Def 5, Save 4+, Armor 1) in Light cover.
    # Attack 6, 4, 2, 5: crit, normal (4+1), miss, normal. Light cover: one normal save,
    # two save dice rolled for the three hits: 6 (critical save), 3 (fails).
    rng = FixedRng([6, 4, 2, 5, 6, 3])
    result = resolve_attack(rng, profile("trooper", "rifle"), defender("breacher"), Cover.LIGHT, 10)
    assert result.attack_dice == (6, 4, 2, 5)
    assert (result.hits, result.crits) == (3, 1)
    assert result.save_dice == (6, 3)
    assert (result.normal_saves, result.crit_saves) == (1, 1)
    # Saves cancel the critical (crit save) and one normal; the last normal deals 2 - 1 = 1.
    assert (result.damage, result.dealt, result.target_hp) == (1, 1, 9)
    assert rng.dice == []


def test_10_5_heavy_cover_is_a_guaranteed_critical_save() -> None:
    rng = FixedRng([6, 1, 1, 1])  # one critical hit, no save die left to roll
    result = resolve_attack(rng, profile("trooper", "rifle"), defender("trooper"), Cover.HEAVY, 8)
    assert result.save_dice == () and result.damage == 0


def test_10_5_cover_does_not_apply_to_fight_attacks() -> None:
    rng = FixedRng([6, 1, 1, 2])  # Knife: crit, miss, miss; one save die: 2 fails
    result = resolve_attack(rng, profile("trooper", "knife"), defender("trooper"), Cover.HEAVY, 8)
    assert result.cover == Cover.NONE and result.save_dice == (2,) and result.damage == 3


def test_10_6_armor_never_reduces_a_hit_below_one() -> None:
    rng = FixedRng([5, 1, 1, 1, 2])  # Knife (+1 Fight) vs Def 4: one normal hit
    tough = Defender(defense=4, save=6, armor=5)
    result = resolve_attack(rng, profile("trooper", "knife"), tough, Cover.NONE, 8)
    assert result.damage == 1


def test_10_7_damage_stops_at_zero_hp() -> None:
    rng = FixedRng([6, 6, 1, 1, 2, 2])  # two critical Lascannon hits, both saves fail
    result = resolve_attack(rng, profile("strider", "lascannon"), defender("trooper"), Cover.NONE, 5)
    assert (result.damage, result.dealt, result.target_hp, result.destroyed) == (16, 5, 0, True)


def test_11_overwatch_suffers_minus_one_aim() -> None:
    assert profile("trooper", "rifle", overwatch=True).modifier == 0
    assert expected_damage(profile("trooper", "rifle", overwatch=True), defender("trooper")) < (
        expected_damage(profile("trooper", "rifle"), defender("trooper")))


def test_exact_distribution_sums_to_one() -> None:
    for cover in Cover:
        law = damage_distribution(profile("gunner", "autocannon"), defender("strider"), cover)
        assert sum(law.values()) == 1


def test_exact_mean_of_a_one_die_attack_by_hand() -> None:
    # One die, +0 vs Def 4, 1 damage / 2 crit, Save 6+: P(normal)=2/6, P(crit)=1/6.
    # A normal is saved only on a 6 (1/6); a crit likewise.
    p = Profile(dice=1, modifier=0, damage=1, crit_damage=2)
    d = Defender(defense=4, save=6, armor=0)
    assert expected_damage(p, d) == Fraction(2, 6) * Fraction(5, 6) * 1 + Fraction(1, 6) * Fraction(5, 6) * 2


@pytest.mark.parametrize(
    ("attacker", "weapon", "target", "cover"),
    [
        ("trooper", "rifle", "trooper", Cover.NONE),
        ("gunner", "autocannon", "breacher", Cover.LIGHT),
        ("strider", "lascannon", "strider", Cover.HEAVY),
        ("breacher", "maul", "outrider", Cover.HEAVY),  # Fight: cover ignored
    ],
)
def test_average_damage_matches_exact_enumeration(attacker: str, weapon: str, target: str,
                                                  cover: Cover) -> None:
    prof, dfd = profile(attacker, weapon), defender(target)
    law = damage_distribution(prof, dfd, cover)
    mean = sum(d * p for d, p in law.items())
    var = sum((d - mean) ** 2 * p for d, p in law.items())
    rng = Rng.from_seed(2024)
    n = 20_000
    total = sum(resolve_attack(rng, prof, dfd, cover, 1000).damage for _ in range(n))
    assert abs(total / n - float(mean)) < 4.5 * math.sqrt(float(var) / n)


def test_12_wia_when_at_or_below_half_hp_once() -> None:
    assert becomes_wia(4, 8, ever_wia=False)
    assert not becomes_wia(5, 8, ever_wia=False)
    assert not becomes_wia(0, 8, ever_wia=False)  # destroyed instead
    assert not becomes_wia(3, 8, ever_wia=True)


def test_12_wia_roll_reads_the_table() -> None:
    assert roll_wia(FixedRng([2]), RULES.wia).name == "shaken"
    assert roll_wia(FixedRng([6]), RULES.wia).fight == 1


def test_attack_event_carries_the_dice() -> None:
    rng = FixedRng([6, 4, 2, 5, 6, 3])
    result = resolve_attack(rng, profile("trooper", "rifle"), defender("breacher"), Cover.LIGHT, 10)
    ev = attack_event("a5", "b2", "Rifle", result)
    assert ev["kind"] == "shoot"
    keys = ("attack_dice", "hits", "crits", "cover", "save_dice", "damage", "target_hp")
    assert {k: ev[k] for k in keys} == {
        "attack_dice": [6, 4, 2, 5], "hits": 3, "crits": 1, "cover": "light", "save_dice": [6, 3],
        "damage": 1, "target_hp": 9}
    assert ev["text"].startswith("a5 shoots b2 with Rifle (6-4-2-5): 3 hits (1 critical), light cover")


def test_11_overwatch_event_reads_well() -> None:
    result = resolve_attack(FixedRng([1, 1, 1, 1]), profile("trooper", "rifle", overwatch=True),
                            defender("trooper"), Cover.NONE, 8)
    ev = attack_event("a5", "b2", "Rifle", result, kind="overwatch")
    assert ev["text"] == (
        "a5 fires Overwatch at b2 with Rifle (1-1-1-1): no hits; 0 damage, b2 has 8 HP left.")


def test_5_5_light_cover_cancels_a_lone_normal_hit() -> None:
    rng = FixedRng([4, 1, 1, 1])  # Rifle (+1) at Def 5: one normal hit; Light saves it, no die rolled
    result = resolve_attack(rng, profile("trooper", "rifle"), defender("trooper"), Cover.LIGHT, 8)
    assert (result.hits, result.normal_saves, result.save_dice, result.damage) == (1, 1, (), 0)


def test_5_5_light_cover_is_one_normal_save_before_the_other_dice() -> None:
    rng = FixedRng([6, 1, 1, 1, 1])  # one critical hit; Light's normal save cannot cancel it alone
    result = resolve_attack(rng, profile("trooper", "rifle"), defender("trooper"), Cover.LIGHT, 8)
    assert result.save_dice == () and result.damage == 3


def test_5_4_a_weapon_may_deny_cover_saves() -> None:
    p = Profile(dice=1, modifier=1, damage=2, crit_damage=3, ranged=True, ignores_cover=True)
    result = resolve_attack(FixedRng([6, 2]), p, defender("trooper"), Cover.HEAVY, 8)
    assert result.cover == Cover.NONE and result.save_dice == (2,) and result.damage == 3


def test_an_attack_says_how_many_hits_and_which_of_them_were_critical() -> None:
    # "1 hit(s), 1 critical" read as two hits to some players: criticals are among the hits
    assert hit_text(1, 1) == "1 hit (critical)"
    assert hit_text(3, 1) == "3 hits (1 critical)"
    assert hit_text(2, 0) == "2 hits" and hit_text(0, 0) == "no hits"
    assert hit_text(3, 3) == "3 hits (all critical)"
