"""Tests of the attack odds shown in suggestion labels (engines/nexo/odds.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engines.core.errors import IllegalMove
from engines.nexo.attacks import defender, profile
from engines.nexo.combat import damage_distribution
from engines.nexo.odds import Odds, attack_odds, odds_label
from engines.nexo.sight import Cover
from tests.engines.nexo.support import scenario_game, unit

BARRICADE = {"id": "B9", "type": "barricade", "line": [[18, 24], [26, 24]]}


def test_a_breachers_maul_against_a_drudge_by_hand() -> None:
    """Maul: 4 dice at Fight +2 against Defense 4 (1 misses, 2-5 hit, 6 is critical), 3 damage,
    critical 5; the drudge saves only on a 6 (a critical save, cancelling any hit) and has 5 HP.

    Per die, no damage is a miss or a saved hit: 1/6 + 5/6 · 1/6 = 11/36, so no damage at all is
    (11/36)^4. The drudge survives when all but one hit are saved and not every hit was critical
    (the saves go on the criticals): 4 · 25/36 · ((11/36)^3 − (7/36)^3 / 5), leaving 3 damage.
    Anything else deals 5 or more: destroyed.
    """
    g = scenario_game([unit("a4", "breacher", 20, 20)], [unit("b1", "drudge", 20, 21.5)], phase="action")
    o = attack_odds(g.world(), "a4", "b1", "maul")
    none = Fraction(11, 36) ** 4
    three = 4 * Fraction(25, 36) * (Fraction(11, 36) ** 3 - Fraction(7, 36) ** 3 / 5)
    assert three == Fraction(126240, 1679616)
    assert o.hit_chance == pytest.approx(float(1 - none), abs=1e-12)
    assert o.kills == pytest.approx(float(1 - none - three), abs=1e-12)
    assert o.expected_damage == pytest.approx(float(3 * three + 5 * (1 - none - three)), abs=1e-12)
    assert o.cover == "none" and odds_label(o) == "99% to hit, 4.8 dmg, 92% to destroy"


def test_the_odds_use_the_cover_the_target_would_claim() -> None:
    g = scenario_game([unit("a5", "trooper", 22, 20)], [unit("b5", "trooper", 22, 40)], phase="action",
                      terrain=[BARRICADE])
    w = g.world()
    a5, b5 = w.state.models["a5"], w.state.models["b5"]
    open_ = attack_odds(w, "b5", "a5")  # a5 stands 3.5" short of the barricade: no cover
    a5.y = 23.0
    behind = attack_odds(w, "b5", "a5", "rifle")
    law = damage_distribution(profile(w, b5, b5_rifle := w.unit_type(b5).weapons[0]), defender(w, a5), Cover.LIGHT)
    assert b5_rifle.name == "rifle" and open_.cover == "none" and behind.cover == "light"
    assert behind.hit_chance == pytest.approx(float(sum(p for d, p in law.items() if d > 0)))
    assert behind.hit_chance < open_.hit_chance and behind.expected_damage < open_.expected_damage
    assert "light cover" in odds_label(behind)
    assert attack_odds(w, "b5", "a5", "knife").cover == "none"  # no cover against a Fight


def test_wia_and_overwatch_change_the_odds() -> None:
    g = scenario_game([unit("a5", "trooper", 22, 20, wia="shaken")], [unit("b5", "trooper", 22, 30)],
                      phase="action")
    w = g.world()
    shaken = attack_odds(w, "a5", "b5")
    steady = attack_odds(w, "b5", "a5")
    assert shaken.hit_chance < steady.hit_chance
    assert attack_odds(w, "b5", "a5", overwatch=True) == shaken  # both at −1 Aim


def test_unknown_pieces_and_weapons_are_refused() -> None:
    g = scenario_game([unit("a5", "trooper", 22, 20)], [unit("b5", "trooper", 22, 30)], phase="action")
    with pytest.raises(IllegalMove, match="did you mean b5"):
        attack_odds(g.world(), "a5", "b55")
    with pytest.raises(IllegalMove, match="a5 has no weapon called 'rifel': did you mean rifle"):
        attack_odds(g.world(), "a5", "b5", "rifel")


def test_labels() -> None:
    assert odds_label(Odds(0.625, 1.4, "light", 0.0)) == "62% to hit, 1.4 dmg, light cover"
    assert odds_label(Odds(1.0, 6.0, "heavy", 1.0)) == "100% to hit, 6.0 dmg, heavy cover, 100% to destroy"
    assert odds_label(Odds(0.0, 0.0, "none", 0.0)) == "0% to hit, 0.0 dmg"
