"""A XISK hand as players read it: the cards by suit, and the cardsets it holds.

Any adapter (the console, a Discord DM) shows a hand with :func:`describe_hand`::

    >>> print(describe_hand(["AS", "KS", "QH", "2C"]))
    4 cards: ♠ A K · ♥ Q · ♣ 2
    2 possible sets: AS QH 2C; KS QH 2C
    >>> describe_hand(["AS", "KS", "QS", "JS", "2C"]).splitlines()[1]
    '4 possible sets, e.g. AS KS QS; AS KS JS; AS QS JS'
    >>> print(describe_hand([]))
    No cards.
    >>> print(describe_hand(["AS", "KH"]))
    2 cards: ♠ A · ♥ K
    No set yet.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core.deck import SUITS, deck_order, suit_of
from engines.core.words import plural
from engines.xisk.cards import redeemable

SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
"""How each suit letter is shown."""
EXAMPLE_SETS = 3
"""The most cardsets a description writes out."""


def describe_hand(hand: Sequence[str]) -> str:
    """Returns two lines: the cards grouped by suit, then how many sets and up to 3 of them.

    Cards are canonical names (``AS``, ``10H``); the sets are written as ``redeem`` takes them.
    """
    if not hand:
        return "No cards."
    cards = deck_order(list(hand))
    groups = [f"{SUIT_SIGNS[s]} " + " ".join(c[:-1] for c in cards if suit_of(c) == s)
              for s in SUITS if any(suit_of(c) == s for c in cards)]
    sets = redeemable(cards)
    if sets:
        shown = "; ".join(" ".join(cs) for cs in sets[:EXAMPLE_SETS])
        tail = f"{plural(len(sets), 'possible set')}{', e.g.' if len(sets) > EXAMPLE_SETS else ':'} {shown}"
    else:
        tail = "No set yet."
    return f"{plural(len(cards), 'card')}: {' · '.join(groups)}\n{tail}"
