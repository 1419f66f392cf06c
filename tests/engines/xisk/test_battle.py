"""Dice counts and the resolution of one roll, checked by full enumeration."""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest

from engines.xisk.battle import attacker_dice, defender_dice, resolve_battle


@pytest.mark.parametrize(("chips", "dice"), [(1, 0), (2, 1), (3, 2), (4, 3), (9, 3)])
def test_attacker_dice_by_chips(chips: int, dice: int) -> None:
    assert attacker_dice(chips) == dice


@pytest.mark.parametrize(("chips", "dice"), [(1, 1), (2, 2), (7, 2)])
def test_defender_dice_by_chips(chips: int, dice: int) -> None:
    assert defender_dice(chips) == dice


def _outcomes(att: int, dfn: int) -> Counter[tuple[int, int]]:
    counts: Counter[tuple[int, int]] = Counter()
    for dice in product(range(1, 7), repeat=att + dfn):
        counts[resolve_battle(dice[:att], dice[att:])] += 1
    return counts


# (attacker losses, defender losses) -> count, from the house rules' known facts.
KNOWN = {
    (3, 2): {(0, 2): 2890, (1, 1): 2611, (2, 0): 2275},
    (2, 2): {(0, 2): 295, (1, 1): 420, (2, 0): 581},
    (1, 2): {(0, 1): 55, (1, 0): 161},
    (3, 1): {(0, 1): 855, (1, 0): 441},
    (2, 1): {(0, 1): 125, (1, 0): 91},
    (1, 1): {(0, 1): 15, (1, 0): 21},
}


@pytest.mark.parametrize(("att", "dfn"), sorted(KNOWN))
def test_single_roll_outcomes_match_the_house_counts(att: int, dfn: int) -> None:
    assert dict(_outcomes(att, dfn)) == KNOWN[(att, dfn)]


def test_ties_go_to_the_defender() -> None:
    assert resolve_battle([6, 6, 6], [6, 6]) == (2, 0)
    assert resolve_battle([1], [1]) == (1, 0)


def test_dice_are_compared_sorted_high_to_low() -> None:
    assert resolve_battle([1, 6, 2], [5, 1]) == (0, 2)
