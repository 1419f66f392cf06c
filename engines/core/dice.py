"""Dice rolled from a game's stored RNG.

    >>> from engines.core.rng import Rng
    >>> rolls = roll(Rng.from_seed(1), 3)
    >>> len(rolls), all(1 <= r <= 6 for r in rolls)
    (3, True)
"""

from __future__ import annotations

from engines.core.rng import Rng


def roll(rng: Rng, count: int, sides: int = 6) -> list[int]:
    """Returns ``count`` dice of ``sides`` faces, in the order rolled."""
    return [rng.randint(1, sides) for _ in range(count)]


def roll_sorted(rng: Rng, count: int, sides: int = 6) -> list[int]:
    """Returns ``count`` dice sorted from high to low."""
    return sorted(roll(rng, count, sides), reverse=True)
