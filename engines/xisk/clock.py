"""The turn clock's skip: the least a player whose time ran out does, one move at a time.

:func:`skip_step` returns the next move of the skip (readings 16–19 in :mod:`engines.xisk`);
:meth:`engines.xisk.Xisk.skip_moves` plays it on a copy until the turn has passed::

    >>> from engines.xisk import Xisk
    >>> g = Xisk.new(["ann", "bob"], seed=3)
    >>> claimant = g.to_act()[0]
    >>> str(skip_step(g.state, g.board, claimant))
    'claim alaska'
"""

from __future__ import annotations

from engines.xisk.board import Board
from engines.xisk.cards import MUST_REDEEM_AT, redeemable
from engines.xisk.moves import Claim, End, Invade, Move, Place, Redeem
from engines.xisk.state import Phase, XiskState


def largest_stack(s: XiskState, board: Board, player: str) -> str:
    """Returns the country of ``player`` with the most chips; on a tie, the first in map order."""
    return max((c for c in board.countries if s.owner[c] == player), key=lambda c: s.chips[c])


def skip_step(s: XiskState, board: Board, player: str) -> Move:
    """Returns the skip's next move for ``player``, who is to act in a running game.

    Claiming: the first unclaimed country in map order. Supply or cardset phase: the first
    cardset in deck order while the redeem is compulsory (5 cards or more), else one chip on
    the largest stack. Attack phase: ``end``; invade: ``invade 0``; adjust: ``end``.
    """
    if s.phase is Phase.CLAIM:
        return Claim(next(c for c in board.countries if s.owner[c] is None))
    if s.phase in (Phase.SUPPLY, Phase.CARDSET):
        hand = s.hands[player]
        if len(hand) >= MUST_REDEEM_AT:
            return Redeem(redeemable(hand)[0])
        return Place(largest_stack(s, board, player), 1)
    if s.phase is Phase.INVADE:
        return Invade(0)
    if s.phase in (Phase.ATTACK, Phase.ADJUST):
        return End()
    raise ValueError(f"No skip in the {s.phase.value} phase.")
