"""Taking back a move: when it is allowed, decided for every game alike, and how the log replays it.

A player may take back their own last move while it revealed nothing that chance
or another player would now know: the host compares the game just before and just
after that move, and refuses the undo when

- the RNG state moved (a die was rolled, a card was dealt or drawn): the game keeps
  its seeded RNG under ``"rng"`` in ``dump_state()``;
- any other seat's private view changed (a card passed to them, say);
- something the mover held in secret became public, or left their hand (a card was
  shown or played: the others have seen it);
- something new came into the mover's own private view (a card drawn from the top of a
  deck shuffled long before, a tile turned up): they have seen it, and taking the move
  back would let them choose again knowing it. XISK's ``adjust`` that ends the turn and
  draws its card is the case: the deck was shuffled at the start, so the RNG did not move.

The mover's private view is compared value by value (texts and numbers, with how many of
each), so a hand of cards written as numbers counts as much as one written as names.

An undo is logged as an entry of its own, :data:`UNDO`; the moves that stand are the log
without each undone move (:func:`effective_moves`), so the log stays the truth.

**Takeback by agreement** (``/game takeback``, :mod:`host.tables_takeback`) goes further: the player
who made the game's last move asks, and when every other seated person accepts (bots accept
at once), the move is taken back even though it rolled dice or showed a card, since everyone has
seen it. It is logged as :data:`TAKEBACK`, and the game goes back to the state before the move
*except its RNG*, which stays where the move left it: the draw counter does not go back, so the
same dice are not rolled the same way again. A card the move drew into a hand goes back where it
came from (the hand is as before the move); a card drawn from a deck shuffled earlier, rather than
by the RNG, is on top of the deck again, and whoever saw it knows it; the others agreed to that.

Every replay of a log (:func:`play_log`) does the same: an undo puts back the whole state before
the move it takes back, a takeback all of it but the RNG. An undo is never allowed past a
takeback's draws: the RNG moved since the move it would take back, so :func:`refusal` says it used
chance (going back would roll those dice again).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from engines.core import Event, Game
from host.store import MoveRow

UNDO = "undo"
"""The log entry of a move taken back."""
TAKEBACK = "takeback"
"""The log entry of a move taken back by everyone's agreement (its draws stay drawn)."""
TAKING_BACK = frozenset({UNDO, TAKEBACK})
"""The log entries that take back the latest standing move."""


def effective_moves(log: list[MoveRow]) -> list[MoveRow]:
    """Returns the moves that stand: each ``undo`` or ``takeback`` entry removes the latest standing move.

    >>> rows = [MoveRow(n, "u", m, "", None) for n, m in enumerate(["a", "b", "undo", "c", "takeback"], 1)]
    >>> [r.move for r in effective_moves(rows)]
    ['a']
    """
    standing: list[MoveRow] = []
    for row in log:
        if row.move in TAKING_BACK:
            if standing:
                standing.pop()
        else:
            standing.append(row)
    return standing


def standing_count(moves: Iterable[str]) -> int:
    """Returns how many moves of a log (its move texts) stand: what "moves" means wherever a count is shown.

    Each ``undo`` or ``takeback`` entry is not a move and takes back the latest standing one, as
    :func:`effective_moves` (one with no standing move takes back nothing)::

        >>> standing_count(["a", "b", "undo", "c", "takeback"]), standing_count(["undo", "a"])
        (1, 1)
    """
    count = 0
    for move in moves:
        if move in TAKING_BACK:
            count = max(count - 1, 0)
        else:
            count += 1
    return count


def taken_back(before: dict[str, Any], after: dict[str, Any], entry: str) -> dict[str, Any]:
    """Returns the state an ``undo`` or ``takeback`` entry leaves, from the states before and after the move.

    An undo gives ``before`` whole; a takeback gives ``before`` with the RNG of ``after`` (a game's
    seeded RNG is ``"rng"`` in ``dump_state()``; a game without one is simply put back)::

        >>> taken_back({"x": 1, "rng": 5}, {"x": 2, "rng": 9}, "takeback"), taken_back({"x": 1, "rng": 5}, {}, "undo")
        ({'x': 1, 'rng': 9}, {'x': 1, 'rng': 5})
    """
    if entry == TAKEBACK and "rng" in after:
        return {**before, "rng": after["rng"]}
    return before


def play_log(game: Game, log: Sequence[tuple[str, str]]) -> Iterator[tuple[int, list[Event]]]:
    """Plays a whole log of (seat, move) on ``game`` as the live host did; yields each standing move's index
    and events once it is played.

    ``game`` is new from its seed and changes in place. A move that an undo or takeback later takes
    back is played (its draws are made) without being yielded, and the entry puts back the state
    before it (:func:`taken_back`). A log without such entries is played move by move. Raises
    GameError when the rules refuse a move (a damaged log).
    """
    doomed = _taken_back(log)
    saved: list[dict[str, Any]] = []
    for i, (player, move) in enumerate(log):
        if move in TAKING_BACK:
            if saved:  # an entry with no standing move takes back nothing (as effective_moves)
                game.load_state(taken_back(saved.pop(), game.dump_state(), move))
            continue
        if i in doomed:
            saved.append(game.dump_state())
            game.play(player, move)
        else:
            yield i, game.play(player, move)


def replayed(game: Game, log: Sequence[tuple[str, str]]) -> Game:
    """Returns ``game`` (new from its seed) after the whole log, undos and takebacks included (:func:`play_log`)."""
    for _ in play_log(game, log):
        pass
    return game


def _taken_back(log: Sequence[tuple[str, str]]) -> set[int]:
    """Returns the indices of the moves that a later undo or takeback takes back."""
    standing: list[int] = []
    doomed: set[int] = set()
    for i, (_, move) in enumerate(log):
        if move not in TAKING_BACK:
            standing.append(i)
        elif standing:
            doomed.add(standing.pop())
    return doomed


def refusal(before: Game, after: Game, mover: str) -> str | None:
    """Returns why the move from ``before`` to ``after`` cannot be taken back, or None when it can."""
    if before.dump_state().get("rng") != after.dump_state().get("rng"):
        return "it used chance (a die was rolled or a card was dealt or drawn)"
    for player in before.players:
        if player != mover and before.private_view(player) != after.private_view(player):
            return f"it changed what {player} holds"
    mine_before, mine_after = before.private_view(mover), after.private_view(mover)
    held, still = Counter(_values(mine_before)), Counter(_values(mine_after))
    shown_now = set(_words(after.view(None))) - set(_words(before.view(None)))
    if set(_words(mine_before)) & shown_now or held - still:  # shown to all, or played: seen either way
        return "it revealed something you held"
    if still - held:
        return "it put something new in your hand, which you have now seen (a card drawn, say)"
    return None


def _values(value: Any) -> Iterator[str | int | float]:
    """Yields every text and number inside a JSON value (a private view's cards, however written)."""
    if isinstance(value, dict):
        for v in value.values():
            yield from _values(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _values(v)
    elif isinstance(value, str | int | float) and not isinstance(value, bool):
        yield value


def _words(value: Any) -> Iterator[str]:
    """Yields every text inside a JSON value (numbers and keys say too little to count as a secret)."""
    return (v for v in _values(value) if isinstance(v, str))
