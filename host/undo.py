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

An undo is logged as an entry of its own, :data:`UNDO`; replaying a log drops each
undone move with it (:func:`effective_moves`), so the log stays the truth.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from engines.core import Game
from host.store import MoveRow

UNDO = "undo"
"""The log entry of a move taken back."""


def effective_moves(log: list[MoveRow]) -> list[MoveRow]:
    """Returns the moves that stand: each ``undo`` entry removes the latest standing move.

    >>> rows = [MoveRow(n, "u", m, "", None) for n, m in enumerate(["a", "b", "undo", "c"], 1)]
    >>> [r.move for r in effective_moves(rows)]
    ['a', 'c']
    """
    standing: list[MoveRow] = []
    for row in log:
        if row.move == UNDO:
            if standing:
                standing.pop()
        else:
            standing.append(row)
    return standing


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
