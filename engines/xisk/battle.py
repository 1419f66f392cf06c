"""Combat: how many dice each side rolls, and what one roll costs each side.

    >>> dice_counts(attacking_chips=4, defending_chips=1)
    (3, 1)
    >>> resolve_battle([6, 3, 1], [5, 3])
    (1, 1)
"""

from __future__ import annotations

from collections.abc import Sequence


def attacker_dice(chips: int) -> int:
    """Returns the attacker's dice: 3 with 4+ chips, 2 with 3, 1 with 2 (0: cannot attack)."""
    return max(0, min(3, chips - 1))


def defender_dice(chips: int) -> int:
    """Returns the defender's dice: 2 with 2+ chips, 1 with 1."""
    return max(0, min(2, chips))


def dice_counts(*, attacking_chips: int, defending_chips: int) -> tuple[int, int]:
    """Returns (attacker dice, defender dice) for the chips on each country."""
    return attacker_dice(attacking_chips), defender_dice(defending_chips)


def resolve_battle(attacker: Sequence[int], defender: Sequence[int]) -> tuple[int, int]:
    """Returns (attacker losses, defender losses) for one roll.

    Both sides are sorted high to low and matched pair by pair; ties go to the defender.
    """
    att = sorted(attacker, reverse=True)
    dfn = sorted(defender, reverse=True)
    att_losses = def_losses = 0
    for a, d in zip(att, dfn, strict=False):
        if a > d:
            def_losses += 1
        else:
            att_losses += 1
    return att_losses, def_losses
