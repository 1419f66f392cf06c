"""The XISK state: one dataclass of plain values, and the phases of play.

The state converts to a JSON-safe dict and back without loss::

    >>> s = XiskState.blank()
    >>> XiskState.from_json(s.to_json()) == s
    True
    >>> Phase.SUPPLY.value
    'supply'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from engines.core import JSON, Rng

NEUTRAL = "neutral"
"""The owner of a country that no player claimed (Setup: neutral white chips)."""


class Phase(Enum):
    """Where the game stands; the view shows ``value``."""

    CLAIM = "claim"
    """Claiming Countries: dealt cards claim one country each, in deck order."""
    SUPPLY = "supply"
    """A. The Supply Phase: redeem cardsets, then place supply chips one country at a time."""
    ATTACK = "attack"
    """B. The Attack Phase: attack from an owned country with 2+ chips, or end."""
    INVADE = "invade"
    """Invading the Conquered Country: after a conquest, move 0 or more extra chips."""
    CARDSET = "cardset"
    """Conquering an Opponent: the interim cardset supply phase after defeating a player."""
    ADJUST = "adjust"
    """C. The Adjust Phase: one transfer between adjacent owned countries, or end."""
    OVER = "over"
    """Ending the Game: one player owns all 42 countries."""


@dataclass
class XiskState:
    """Everything that changes during a game (the board itself is data, not state)."""

    phase: Phase
    rng: Rng
    deck: list[str]
    """The draw pile, top first."""
    hands: dict[str, list[str]]
    """Secret: each player's cards, kept in deck order."""
    owner: dict[str, str | None]
    """Country → player, ``NEUTRAL``, or None (unclaimed while claiming)."""
    chips: dict[str, int]
    claim_queue: list[list[str]] = field(default_factory=list)
    """Secret: the ``[card, player]`` claims still to come, in deck order."""
    claims: list[dict[str, str]] = field(default_factory=list)
    """Public: the claims made so far (card, player, country)."""
    order: list[str] = field(default_factory=list)
    turn_index: int = 0
    supply_left: int = 0
    supply_base: int = 0
    """Country supply plus continent bonuses granted at the start of this turn."""
    sets_redeemed: int = 0
    conquered: bool = False
    """True once the player whose turn it is has conquered a country this turn."""
    invade: list[str] | None = None
    """``[from, to]`` while an ``invade`` answer is awaited."""
    defeated_pending: str | None = None
    """A player whose last country fell, to be defeated once ``invade`` is answered."""
    eliminated: list[str] = field(default_factory=list)
    winner: str | None = None
    last_battle: dict[str, Any] | None = None
    turn_number: int = 0

    @classmethod
    def blank(cls) -> XiskState:
        """Returns an empty claiming state (a starting point for tests and setup)."""
        return cls(phase=Phase.CLAIM, rng=Rng.from_seed(0), deck=[], hands={}, owner={}, chips={})

    @property
    def turn(self) -> str | None:
        """The player whose turn it is; None while claiming or once over."""
        if self.phase in (Phase.CLAIM, Phase.OVER) or not self.order:
            return None
        return self.order[self.turn_index]

    def countries_of(self, player: str) -> list[str]:
        """Returns the countries ``player`` owns, in map order."""
        return [c for c, o in self.owner.items() if o == player]

    def to_json(self) -> JSON:
        """Returns a fresh JSON-safe dict of the state."""
        return {
            "phase": self.phase.value,
            "rng": self.rng.saved(),
            "deck": list(self.deck),
            "hands": {p: list(h) for p, h in self.hands.items()},
            "owner": dict(self.owner),
            "chips": dict(self.chips),
            "claim_queue": [list(c) for c in self.claim_queue],
            "claims": [dict(c) for c in self.claims],
            "order": list(self.order),
            "turn_index": self.turn_index,
            "supply_left": self.supply_left,
            "supply_base": self.supply_base,
            "sets_redeemed": self.sets_redeemed,
            "conquered": self.conquered,
            "invade": list(self.invade) if self.invade else None,
            "defeated_pending": self.defeated_pending,
            "eliminated": list(self.eliminated),
            "winner": self.winner,
            "last_battle": _copy(self.last_battle),
            "turn_number": self.turn_number,
        }

    @classmethod
    def from_json(cls, data: JSON) -> XiskState:
        """Returns the state stored by :meth:`to_json`; raises KeyError/ValueError when damaged."""
        return cls(
            phase=Phase(data["phase"]),
            rng=Rng.load(data["rng"]),
            deck=[str(c) for c in data["deck"]],
            hands={str(p): [str(c) for c in h] for p, h in data["hands"].items()},
            owner={str(c): (None if o is None else str(o)) for c, o in data["owner"].items()},
            chips={str(c): int(n) for c, n in data["chips"].items()},
            claim_queue=[[str(a), str(b)] for a, b in data["claim_queue"]],
            claims=[{str(k): str(v) for k, v in c.items()} for c in data["claims"]],
            order=[str(p) for p in data["order"]],
            turn_index=int(data["turn_index"]),
            supply_left=int(data["supply_left"]),
            supply_base=int(data["supply_base"]),
            sets_redeemed=int(data["sets_redeemed"]),
            conquered=bool(data["conquered"]),
            invade=[str(x) for x in data["invade"]] if data["invade"] else None,
            defeated_pending=data["defeated_pending"],
            eliminated=[str(p) for p in data["eliminated"]],
            winner=data["winner"],
            last_battle=_copy(data["last_battle"]),
            turn_number=int(data["turn_number"]),
        )


def _copy(value: Any) -> Any:
    """Returns a deep copy of a JSON-safe value."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
