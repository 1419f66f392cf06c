"""XISK moves: small value types whose notation converts both ways.

What players type (case does not matter, extra spaces are ignored)::

    claim <country>                  claim a country with the card whose turn it is
    redeem <card> <card> <card>      redeem a cardset (cards like AS, 10H, TD, 2c)
    place <country> <n>              place n supply chips on one owned country
    attack <from> <to>               one roll of the dice against an adjacent country
    invade <n>                       move n extra chips after a conquest (0 allowed)
    adjust <from> <to> <n>           the one transfer of the adjust phase
    end                              end the attack phase, or skip the adjust
    resign                           leave the game: your countries turn neutral

A country is its id, its name (spaces and all) or a unique prefix of its words, exactly
as the ``/xisk`` commands take it (:func:`engines.xisk.board.resolve_country`); how two
countries in one move are told apart is :func:`split_countries`. ``parse`` returns a move
naming countries by id; ``str`` gives the canonical form stored in the log::

    >>> str(parse("  PLACE   Alaska  3 "))
    'place alaska 3'
    >>> str(parse("claim Great Britain")), str(parse("attack North Africa Egypt"))
    ('claim great-britain', 'attack north-africa egypt')
    >>> str(parse("redeem 2c th as"))
    'redeem AS 10H 2C'
    >>> parse("attack alaska kamchatka")
    Attack(source='alaska', target='kamchatka')
    >>> str(parse("Invade 0")), str(parse("end")), str(parse(" RESIGN "))
    ('invade 0', 'end', 'resign')
    >>> parse("atack alaska kamchatka")
    Traceback (most recent call last):
    ...
    engines.core.errors.BadNotation: I can't read 'atack alaska kamchatka': did you mean attack?
    >>> parse("claim Alsaka")
    Traceback (most recent call last):
    ...
    engines.core.errors.IllegalMove: 'Alsaka' is not a country on the map: did you mean Alaska?

A typo in a country is an IllegalMove (the move was read; the country is not on the map);
anything else unreadable is a BadNotation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.core import BadNotation, IllegalMove, shown
from engines.core.deck import deck_order, parse_card
from engines.core.words import did_you_mean
from engines.xisk.board import Board, exact_country, load_board, resolve_country

SHAPES: dict[str, str] = {
    "claim": "claim <country>", "redeem": "redeem <card> <card> <card>", "place": "place <country> <n>",
    "attack": "attack <from> <to>", "invade": "invade <n>", "adjust": "adjust <from> <to> <n>", "end": "end",
    "resign": "resign",
}
"""How each kind of move is written, by its first word."""
HELP = "moves are " + ", ".join(SHAPES.values())


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


@dataclass(frozen=True)
class Resign:
    """``resign``: the player to act leaves the game (any phase); their countries turn neutral."""

    def __str__(self) -> str:
        return "resign"


Move = Claim | Redeem | Place | Attack | Invade | Adjust | End | Resign

_EXAMPLE = {
    "claim": "claim alaska", "redeem": "redeem AS KS QS", "place": "place alaska 3",
    "attack": "attack alaska kamchatka", "invade": "invade 2", "adjust": "adjust alaska alberta 2", "end": "end",
    "resign": "resign",
}
_ARITY = {"claim": 1, "redeem": 3, "place": 2, "attack": 2, "invade": 1, "adjust": 3, "end": 0, "resign": 0}
"""How many words each move takes at least (exactly, for redeem, invade, end and resign)."""
_EXACT = {"redeem", "invade", "end", "resign"}


_COUNT = re.compile(r"[0-9]{1,4}")
"""A number of chips: ASCII digits only (``str.isdigit`` also accepts '²', which ``int`` refuses)."""


def _count(word: str, text: str) -> int:
    if not _COUNT.fullmatch(word):
        raise BadNotation(f"I can't read '{shown(text)}': '{shown(word, 20)}' should be a whole number of chips.")
    return int(word)


def _resolves(text: str, board: Board, *, exact: bool) -> str | None:
    if exact:
        return exact_country(text, board)
    try:
        return resolve_country(text, board)
    except IllegalMove:
        return None


def split_countries(words: list[str], board: Board) -> tuple[str, str]:
    """Returns the ids of the two countries that ``words`` name one after the other.

    The rule: the words are cut in two at every place, the longest first part first; the
    first cut where both parts are an id or a whole name wins, else the first where both
    are a name or a unique prefix (:func:`~engines.xisk.board.resolve_country`). So ids and
    whole names always read as written, and "north africa egypt" is North Africa, Egypt::

        >>> b = load_board()
        >>> split_countries("North Africa Egypt".split(), b)
        ('north-africa', 'egypt')
        >>> split_countries("w eur great britain".split(), b)
        ('western-europe', 'great-britain')
        >>> split_countries(["east-africa", "egypt"], b)
        ('east-africa', 'egypt')

    When no cut works, raises IllegalMove about the part that fails: the second when the
    first part reads, else the first (with the nearest name)::

        >>> split_countries("north africa egpyt".split(), b)
        Traceback (most recent call last):
        ...
        engines.core.errors.IllegalMove: 'egpyt' is not a country on the map: did you mean Egypt?
    """
    cuts = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(len(words) - 1, 0, -1)]
    for exact in (True, False):
        for first, second in cuts:
            a = _resolves(first, board, exact=exact)
            b = _resolves(second, board, exact=exact) if a else None
            if a and b:
                return a, b
    for first, second in cuts:
        if _resolves(first, board, exact=False):
            resolve_country(second, board)
    for first, second in reversed(cuts):
        if _resolves(second, board, exact=False):
            resolve_country(first, board)
    resolve_country(cuts[-1][0] if cuts else " ".join(words), board)
    raise IllegalMove(f"'{shown(' '.join(words))}' does not name two countries.")  # not reached


def parse(text: str, board: Board | None = None) -> Move:
    """Returns the move written in ``text``, countries resolved to ids on ``board``.

    ``board`` defaults to the standard map. Raises BadNotation when ``text`` is not a
    move, IllegalMove when a country it names is not on the map (or is ambiguous).
    """
    raw = text.split()
    words = [w.lower() for w in raw]
    if not words or words[0] not in _ARITY:
        guess = did_you_mean(words[0], list(_ARITY)) if words else ""
        raise BadNotation(f"I can't read '{shown(text)}'{guess or '.'}")
    verb, args = words[0], words[1:]
    least = _ARITY[verb]
    if len(args) < least or (verb in _EXACT and len(args) != least):
        raise BadNotation(f"I can't read '{shown(text)}': write it like '{_EXAMPLE[verb]}'.")
    if verb == "redeem":
        cards = [parse_card(a) for a in raw[1:]]
        if len(set(cards)) != 3:
            raise BadNotation(f"I can't read '{shown(text)}': a cardset is three different cards.")
        a, b, c = deck_order(cards)
        return Redeem((a, b, c))
    if verb == "invade":
        return Invade(_count(args[0], text))
    if verb == "end":
        return End()
    if verb == "resign":
        return Resign()
    board = board or load_board()
    if verb == "claim":
        return Claim(resolve_country(" ".join(raw[1:]), board))
    if verb == "place":
        n = _count(args[-1], text)
        return Place(resolve_country(" ".join(raw[1:-1]), board), n)
    if verb == "attack":
        return Attack(*split_countries(raw[1:], board))
    n = _count(args[-1], text)
    return Adjust(*split_countries(raw[1:-1], board), n)
