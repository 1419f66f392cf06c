"""The bots' battle odds: one roll enumerated exactly, whole battles by a table built once."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from engines.xisk.ai_odds import TABLE_SIZE, battle, roll_outcomes, win_chance
from engines.xisk.battle import attacker_dice, defender_dice


def _counts(att: int, dfn: int) -> dict[tuple[int, int], int]:
    total = 6 ** (att + dfn)
    return {(a, d): int(p * total) for a, d, p in roll_outcomes(att, dfn)}


def test_one_roll_matches_the_known_facts_of_the_house_rules() -> None:
    """House rules, "Known facts to test against": single-roll outcome counts over all dice."""
    assert _counts(3, 2) == {(0, 2): 2890, (1, 1): 2611, (2, 0): 2275}
    assert _counts(2, 2) == {(0, 2): 295, (1, 1): 420, (2, 0): 581}
    assert _counts(3, 1)[(0, 1)] == 855
    assert _counts(2, 1)[(0, 1)] == 125
    assert _counts(1, 2)[(0, 1)] == 55
    assert _counts(1, 1)[(0, 1)] == 15
    for att in (1, 2, 3):
        for dfn in (1, 2):
            assert sum(p for _, _, p in roll_outcomes(att, dfn)) == 1


@cache
def _exact(a: int, d: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """(win, attacker losses, defender losses, chips left × win) by plain recursion over the dice rules."""
    if d == 0:
        return Fraction(1), Fraction(0), Fraction(0), Fraction(a)
    if a <= 1:
        return Fraction(0), Fraction(0), Fraction(0), Fraction(0)
    w = la = ld = left = Fraction(0)
    for lose_a, lose_d, p in roll_outcomes(attacker_dice(a), defender_dice(d)):
        w2, la2, ld2, left2 = _exact(a - lose_a, d - lose_d)
        w += p * w2
        la += p * (lose_a + la2)
        ld += p * (lose_d + ld2)
        left += p * left2
    return w, la, ld, left


@pytest.mark.parametrize("a", range(1, 11))
def test_the_battle_table_matches_an_exact_recursion(a: int) -> None:
    for d in range(0, 9):
        w, la, ld, left = _exact(a, d)
        b = battle(a, d)
        assert b.win == pytest.approx(float(w), abs=1e-12)
        assert b.attacker_losses == pytest.approx(float(la), abs=1e-12)
        assert b.defender_losses == pytest.approx(float(ld), abs=1e-12)
        if w:
            assert b.left_if_won == pytest.approx(float(left / w), abs=1e-9)


def test_simple_battles() -> None:
    assert win_chance(2, 1) == pytest.approx(15 / 36)  # one roll of 1 die against 1, then no more
    assert win_chance(5, 0) == 1.0 and win_chance(1, 5) == 0.0
    assert battle(4, 1).left_if_won <= 4
    assert 0.7 < win_chance(10, 5) < 0.95


def test_more_attackers_win_more_and_more_defenders_hold_more() -> None:
    for a in range(2, 40, 3):
        for d in range(1, 40, 3):
            assert win_chance(a + 1, d) >= win_chance(a, d) - 1e-12
            assert win_chance(a, d + 1) <= win_chance(a, d) + 1e-12


def test_battles_beyond_the_table_are_read_at_the_same_ratio() -> None:
    big = TABLE_SIZE * 3
    assert win_chance(big, big // 2) == win_chance(TABLE_SIZE, TABLE_SIZE // 2)
    b = battle(big, big)
    assert 0 < b.win < 1
    assert 0 < b.attacker_losses < big and 0 < b.defender_losses <= big
    assert win_chance(10_000, 1) == pytest.approx(win_chance(TABLE_SIZE, 1))
