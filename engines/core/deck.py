"""The standard 52-card deck shared by card-driven games.

A card is written rank then suit letter (``AS``, ``10H``, ``QD``, ``2C``); ``T``
is accepted for 10 and case does not matter. Deck order is spades A→2, then
hearts, diamonds, clubs::

    >>> parse_card("th")
    '10H'
    >>> STANDARD_DECK[:3], STANDARD_DECK[-1]
    (['AS', 'KS', 'QS'], '2C')
    >>> Deck.fresh().size
    52
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.core.errors import BadNotation, shown
from engines.core.rng import Rng

RANKS: tuple[str, ...] = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
STANDARD_DECK: list[str] = [rank + suit for suit in SUITS for rank in RANKS]
DECK_INDEX: dict[str, int] = {card: i for i, card in enumerate(STANDARD_DECK)}


def parse_card(text: str) -> str:
    """Returns the canonical name of a card; raises BadNotation for anything else."""
    t = text.strip().upper()
    if t.startswith("T"):
        t = "10" + t[1:]
    if t not in DECK_INDEX:
        raise BadNotation(f"'{shown(text)}' is not a card: write rank then suit, like AS, 10H, QD or 2C.")
    return t


def suit_of(card: str) -> str:
    """Returns the suit letter of a canonical card name."""
    return card[-1]


def deck_order(cards: list[str]) -> list[str]:
    """Returns the cards sorted in deck order (spades A→2, hearts, diamonds, clubs)."""
    return sorted(cards, key=DECK_INDEX.__getitem__)


@dataclass
class Deck:
    """A draw pile; ``cards[0]`` is the top."""

    cards: list[str] = field(default_factory=list)

    @classmethod
    def fresh(cls) -> Deck:
        """Returns the full 52-card deck in deck order."""
        return cls(cards=list(STANDARD_DECK))

    @property
    def size(self) -> int:
        """The number of cards left to draw."""
        return len(self.cards)

    def shuffle(self, rng: Rng) -> None:
        """Shuffles the pile with the game's RNG."""
        rng.shuffle(self.cards)

    def draw(self) -> str | None:
        """Removes and returns the top card, or None when the pile is empty."""
        return self.cards.pop(0) if self.cards else None

    def deal(self, hands: int, per_hand: int) -> list[list[str]]:
        """Deals ``per_hand`` cards to each of ``hands`` hands, one at a time in turn."""
        dealt: list[list[str]] = [[] for _ in range(hands)]
        for _ in range(per_hand):
            for hand in dealt:
                card = self.draw()
                if card is not None:
                    hand.append(card)
        return dealt

    def put_back(self, cards: list[str]) -> None:
        """Returns cards to the bottom of the pile (shuffle afterwards if needed)."""
        self.cards.extend(cards)
