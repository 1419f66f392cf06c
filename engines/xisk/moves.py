"""XISK moves: small value types whose notation converts both ways.

What players type (case does not matter, extra spaces are ignored)::

    claim <country>                  claim a country with the card whose turn it is
    redeem <card> <card> <card>      redeem a cardset (cards like AS, 10H, TD, 2c)
    place <country> <n>              place n supply chips on one owned country
    attack <from> <to>               one roll of the dice against an adjacent country
    invade <n>                       move n extra chips after a conquest (0 allowed)
    adjust <from> <to> <n>           the one transfer of the adjust phase
    end                              end the attack phase, or skip the adjust

``parse`` returns a move; ``str`` gives the canonical form stored in the log::

    >>> str(parse("  PLACE   Alaska  3 "))
    'place alaska 3'
    >>> str(parse("redeem 2c th as"))
    'redeem AS 10H 2C'
    >>> parse("attack alaska kamchatka")
    Attack(source='alaska', target='kamchatka')
    >>> str(parse("Invade 0")), str(parse("end"))
    ('invade 0', 'end')
    >>> parse("atack alaska kamchatka")
    Traceback (most recent call last):
    ...
    engines.core.errors.BadNotation: I can't read 'atack alaska kamchatka': ...

Country ids are checked against the map by the rules, not here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.core import BadNotation, shown
from engines.core.deck import deck_order, parse_card

HELP = (
    "moves are claim <country>, redeem <card> <card> <card>, place <country> <n>, "
    "attack <from> <to>, invade <n>, adjust <from> <to> <n>, end"
)


@dataclass(frozen=True)
class Claim:
    """``claim <country>``: the holder of the next dealt card claims a free country."""

    country: str

    def __str__(self) -> str:
        return f"claim {self.country}"


@dataclass(frozen=True)
class Redeem:
    """``redeem <c1> <c2> <c3>``: a cardset, listed in deck order."""

    cards: tuple[str, str, str]

    def __str__(self) -> str:
        return "redeem " + " ".join(self.cards)


@dataclass(frozen=True)
class Place:
    """``place <country> <n>``: supply chips on one owned country."""

    country: str
    count: int

    def __str__(self) -> str:
        return f"place {self.country} {self.count}"


@dataclass(frozen=True)
class Attack:
    """``attack <from> <to>``: one roll of the combat dice."""

    source: str
    target: str

    def __str__(self) -> str:
        return f"attack {self.source} {self.target}"


@dataclass(frozen=True)
class Invade:
    """``invade <n>``: extra chips moved into the country just conquered."""

    count: int

    def __str__(self) -> str:
        return f"invade {self.count}"


@dataclass(frozen=True)
class Adjust:
    """``adjust <from> <to> <n>``: the single transfer of the adjust phase."""

    source: str
    target: str
    count: int

    def __str__(self) -> str:
        return f"adjust {self.source} {self.target} {self.count}"


@dataclass(frozen=True)
class End:
    """``end``: ends the attack phase, or skips the adjust phase."""

    def __str__(self) -> str:
        return "end"


Move = Claim | Redeem | Place | Attack | Invade | Adjust | End

_ARITY = {"claim": 1, "redeem": 3, "place": 2, "attack": 2, "invade": 1, "adjust": 3, "end": 0}


_COUNT = re.compile(r"[0-9]{1,4}")
"""A number of chips: ASCII digits only (``str.isdigit`` also accepts '²', which ``int`` refuses)."""


def _count(word: str, text: str) -> int:
    if not _COUNT.fullmatch(word):
        raise BadNotation(f"I can't read '{shown(text)}': '{shown(word, 20)}' should be a whole number of chips.")
    return int(word)


def parse(text: str) -> Move:
    """Returns the move written in ``text``; raises BadNotation when it is not one."""
    raw = text.split()
    words = [w.lower() for w in raw]
    if not words or words[0] not in _ARITY:
        raise BadNotation(f"I can't read '{shown(text)}': {HELP}.")
    verb, args = words[0], words[1:]
    if len(args) != _ARITY[verb]:
        example = {
            "claim": "claim alaska", "redeem": "redeem AS KS QS", "place": "place alaska 3",
            "attack": "attack alaska kamchatka", "invade": "invade 2",
            "adjust": "adjust alaska alberta 2", "end": "end",
        }[verb]
        raise BadNotation(f"I can't read '{shown(text)}': write it like '{example}'.")
    if verb == "claim":
        return Claim(args[0])
    if verb == "redeem":
        cards = [parse_card(a) for a in raw[1:]]
        if len(set(cards)) != 3:
            raise BadNotation(f"I can't read '{shown(text)}': a cardset is three different cards.")
        a, b, c = deck_order(cards)
        return Redeem((a, b, c))
    if verb == "place":
        return Place(args[0], _count(args[1], text))
    if verb == "attack":
        return Attack(args[0], args[1])
    if verb == "invade":
        return Invade(_count(args[0], text))
    if verb == "adjust":
        return Adjust(args[0], args[1], _count(args[2], text))
    return End()
