"""Taking back a move: when it is allowed, decided for every game alike, and how the log replays it.

A player may take back their own last move while it revealed nothing that chance
or another player would now know: the host compares the game just before and just
after that move, and refuses the undo when

- the RNG state moved (a die was rolled, a card was dealt or drawn): the game keeps
  its seeded RNG under ``"rng"`` in ``dump_state()``;
- any other seat's private view changed (a card passed to them, say);
- something the mover held in secret became public, or left their hand (a card was
  shown or played: the others have seen it).

An undo is logged as an entry of its own, :data:`UNDO`; replaying a log drops each
undone move with it (:func:`effective_moves`), so the log stays the truth.
"""

from __future__ import annotations

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
    held, still = set(_words(before.private_view(mover))), set(_words(after.private_view(mover)))
    shown_now = set(_words(after.view(None))) - set(_words(before.view(None)))
    if held & shown_now or held - still:  # shown to all, or played out of your hand: seen either way
        return "it revealed something you held"
    return None


def _words(value: Any) -> Iterator[str]:
    """Yields every text inside a JSON value (numbers and keys say too little to count as a secret)."""
    if isinstance(value, dict):
        for v in value.values():
            yield from _words(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _words(v)
    elif isinstance(value, str):
        yield value
