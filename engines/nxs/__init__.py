"""NXS ("nexus"): a two-player hex ship duel for territory.

Rules: the published summary, completed by the house rules (the board, roster, layouts
and readings). Modules: :mod:`~engines.nxs.board` (boards and cell names),
:mod:`~engines.nxs.hexes` (directions, corners, turning), :mod:`~engines.nxs.roster`
(``data/nxs/`` loading), :mod:`~engines.nxs.moves` (notation),
:mod:`~engines.nxs.position`, :mod:`~engines.nxs.territory`, :mod:`~engines.nxs.rules`,
:mod:`~engines.nxs.view` and :mod:`~engines.nxs.game` (the :class:`Nxs` engine).

Readings chosen here (where neither document decides):

- Seats: the first player given is White (board A, columns a–g) and moves first.
- A move or capture that reaches the target ends the game at once: no rotation follows.
  Rotation never changes territory, so a game is only ever won on the move step.
- Close call: after a move or capture, if the opponent holds at least their target the
  move is legal only when the mover holds strictly more, and then the mover wins, even
  below their own target. A tie is not "more", so such a move is illegal.
- The close call is part of legality: moves it forbids are not in ``legal_moves``, and a
  player whose every move or capture is forbidden has no legal move and loses.
- "No legal move" is checked when a turn passes, for the player about to move; it is
  checked before the stalemate guard. The rotation step always has a legal move.
- Stalemate guard: a "turn" is a full turn (move/capture + rotation); it is quiet when it
  had no capture and neither score changed. Positions are compared at the start of each
  turn (pieces, ship, facings, side to move); the start position counts once. Option
  ``quiet_turns`` (60) and ``repetitions`` (3) change the counts.
- Edge line (way 2) and piece-to-piece line (way 3) are checked in all six side
  directions; any enemy piece on the line breaks it, Merchants included.
- A slide may cross from one board to the other; it stops at the edge of the boards.
- ``resign`` is a move of the player to act, at either step.
- Handicap: option ``handicap`` maps a player name or a colour to that side's target;
  a player name wins over a colour, and both over ``target``.
- Corner names in views join the two sides' names: ``N-NE``, ``NE-SE`` (due east), ….
- ``piece_moves`` applies the close call but not the turn: any piece may be shown.
- ``rotate left|right`` with no cell turns the ship that made the turn's move or capture
  (the log keeps the full ``rotate <cell> left|right``).
- Stalemate guard adjudication counts "pieces captured" as enemy ships each side took.
- When a move or capture makes both sides reach their targets, the close call decides:
  the mover wins with strictly more hexes, otherwise the move is illegal.
- Black's layouts are stored as data beside White's (the half-turn mirror is checked by a
  test, not computed), so a group may add an asymmetric layout.
- The turn clock (``timeout_moves``): NXS has no skip, since both steps of a turn are
  compulsory and no move is the "least" one, so ``skip`` falls back to ``forfeit``, which is
  ``resign`` at either step: the game ends and the other player wins.
"""

from __future__ import annotations

from engines.nxs.game import Nxs, Outcome, Step, Termination
from engines.nxs.view import piece_moves

__all__ = ["Nxs", "Outcome", "Step", "Termination", "piece_moves"]
