"""Exact battle odds for the XISK bots, computed once from the dice rules.

One roll: the attacker rolls 3 dice with 4+ chips, 2 with 3, 1 with 2; the defender 2
with 2+ chips, 1 with 1 (:mod:`engines.xisk.battle`, the rulebook's "Selecting the number
of dice to roll"). :func:`roll_outcomes` enumerates every throw of the dice exactly::

    >>> [(a, d, str(p)) for a, d, p in roll_outcomes(3, 2)]
    [(0, 2, '1445/3888'), (1, 1, '2611/7776'), (2, 0, '2275/7776')]

A *battle* is attacking again and again from ``a`` chips against ``d`` until the country
falls or the attacker is down to 1 chip (it can attack no more). :func:`battle` gives its
exact odds, from a table built once by dynamic programming over (a, d)::

    >>> b = battle(2, 1)
    >>> round(b.win, 4), round(b.attacker_losses, 4)
    (0.4167, 0.5833)
    >>> round(battle(10, 5).win, 3), battle(5, 0).win, battle(1, 3).win
    (0.873, 1.0, 0.0)

Above :data:`TABLE_SIZE` chips a side, the battle is read at the same ratio of forces
scaled into the table (a close estimate: the odds then depend on the ratio almost alone).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product

from engines.xisk.battle import attacker_dice, defender_dice, resolve_battle

TABLE_SIZE = 120
"""Chips a side the exact table covers (1 to this); larger battles are scaled into it."""


@cache
def roll_outcomes(att_dice: int, def_dice: int) -> tuple[tuple[int, int, Fraction], ...]:
    """Returns (attacker losses, defender losses, probability) of one roll, each outcome once, exactly."""
    counts: dict[tuple[int, int], int] = {}
    for att in product(range(1, 7), repeat=att_dice):
        for dfn in product(range(1, 7), repeat=def_dice):
            key = resolve_battle(att, dfn)
            counts[key] = counts.get(key, 0) + 1
    total = 6 ** (att_dice + def_dice)
    return tuple((a, d, Fraction(n, total)) for (a, d), n in sorted(counts.items()))


@dataclass(frozen=True)
class Battle:
    """The odds of a battle fought to the end (conquest, or the attacker down to 1 chip)."""

    win: float
    """Probability of conquering the country."""
    attacker_losses: float
    """Expected chips the attacker loses."""
    defender_losses: float
    """Expected chips the defender loses."""
    left_if_won: float
    """Expected chips on the attacking country at the moment of conquest (given a conquest)."""


_Tables = tuple[list[list[float]], list[list[float]], list[list[float]], list[list[float]]]


@cache
def _tables() -> _Tables:
    """Returns the tables (win, attacker losses, defender losses, chips left × win) over 0..TABLE_SIZE."""
    n = TABLE_SIZE + 1
    win = [[0.0] * n for _ in range(n)]
    att = [[0.0] * n for _ in range(n)]
    dfn = [[0.0] * n for _ in range(n)]
    left = [[0.0] * n for _ in range(n)]
    outcomes = {(ad, dd): [(la, ld, float(p)) for la, ld, p in roll_outcomes(ad, dd)]
                for ad in (1, 2, 3) for dd in (1, 2)}
    for a in range(n):
        win[a][0], left[a][0] = 1.0, float(a)
    for a in range(2, n):
        ad = attacker_dice(a)
        wa, ta, fa, sa = win[a], att[a], dfn[a], left[a]
        for d in range(1, n):
            w = la_sum = ld_sum = s = 0.0
            for la, ld, p in outcomes[ad, defender_dice(d)]:
                a2, d2 = a - la, d - ld
                w += p * win[a2][d2]
                la_sum += p * (la + att[a2][d2])
                ld_sum += p * (ld + dfn[a2][d2])
                s += p * left[a2][d2]
            wa[d], ta[d], fa[d], sa[d] = w, la_sum, ld_sum, s
    return win, att, dfn, left


def _scaled(a: int, d: int) -> tuple[int, int, float]:
    """Returns (a, d) scaled into the table at the same ratio, and the factor to scale losses back."""
    top = max(a, d)
    if top <= TABLE_SIZE:
        return a, d, 1.0
    k = TABLE_SIZE / top
    return max(1, round(a * k)), max(0 if d == 0 else 1, round(d * k)), top / TABLE_SIZE


@cache
def battle(a: int, d: int) -> Battle:
    """Returns the odds of attacking from ``a`` chips against ``d`` until one side is done."""
    if d <= 0:
        return Battle(1.0, 0.0, 0.0, float(a))
    if a <= 1:
        return Battle(0.0, 0.0, 0.0, 0.0)
    win, att, dfn, left = _tables()
    sa, sd, k = _scaled(a, d)
    w = win[sa][sd]
    return Battle(w, att[sa][sd] * k, dfn[sa][sd] * k, left[sa][sd] * k / w if w > 0 else 0.0)


def win_chance(a: int, d: int) -> float:
    """Returns the probability that ``a`` chips attacking to the end conquer ``d`` defending chips."""
    return battle(a, d).win
