"""The error family every engine raises.

All of them are ``ValueError`` subclasses whose message is a sentence a player
understands and that names what they typed::

    >>> try:
    ...     raise BadNotation("I can't read 'atack alaska'.")
    ... except IllegalMove as err:
    ...     print(err)
    I can't read 'atack alaska'.
"""

from __future__ import annotations


class GameError(ValueError):
    """Base of every error a game or the table service reports to a player."""


class IllegalMove(GameError):
    """A move that the rules forbid now (the contract's name for every rejected move)."""


class BadNotation(IllegalMove):
    """Text that is not a move in the game's notation."""


class NotYourTurn(IllegalMove):
    """A seated player moved while someone else must act."""


class NotAPlayer(IllegalMove):
    """Someone who holds no seat in the game tried to move."""


class GameOver(IllegalMove):
    """A move was sent to a game that has ended."""
