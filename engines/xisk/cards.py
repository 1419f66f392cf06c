"""Cardsets: three cards all of one suit, or of three different suits.

    >>> is_set(["AS", "KS", "2S"]), is_set(["AS", "KH", "2D"]), is_set(["AS", "KS", "2D"])
    (True, True, False)
    >>> redeemable(["AS", "KS", "QH", "2C"])
    [('AS', 'QH', '2C'), ('KS', 'QH', '2C')]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from engines.core.deck import deck_order, suit_of

MUST_REDEEM_AT = 5
"""Holding this many cards or more in a supply or cardset phase, redeeming is compulsory."""


def is_set(cards: Sequence[str]) -> bool:
    """Returns True when three cards share one suit or show three different suits."""
    suits = {suit_of(c) for c in cards}
    return len(cards) == 3 and len(set(cards)) == 3 and len(suits) in (1, 3)


def redeemable(hand: Sequence[str]) -> list[tuple[str, str, str]]:
    """Returns every cardset in ``hand``, each in deck order, the list in deck order too."""
    return list(_cardsets(tuple(sorted(hand))))


@lru_cache(maxsize=4096)
def _cardsets(hand: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    """The cardsets of a hand (given sorted): a hand changes rarely and is asked for after every move."""
    cards = deck_order(list(hand))
    suit = {c: suit_of(c) for c in cards}
    return tuple(
        combo
        for combo in combinations(cards, 3)
        if len({suit[c] for c in combo}) in (1, 3) and len(set(combo)) == 3
    )
