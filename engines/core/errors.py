"""The error family every engine raises.

All of them are ``ValueError`` subclasses whose message is a sentence a player
understands and that names what they typed::

    >>> try:
    ...     raise BadNotation("I can't read 'atack alaska'.")
    ... except IllegalMove as err:
    ...     print(err)
    I can't read 'atack alaska'.

A message quotes what a player typed through :func:`shown`, so a refusal stays short
whatever was sent.
"""

from __future__ import annotations

SHOWN_LIMIT = 60
"""The most characters of a player's input that a message quotes."""


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


def shown(text: str, limit: int = SHOWN_LIMIT) -> str:
    r"""Returns ``text`` as a message may quote it: one line, at most ``limit`` characters.

    Runs of whitespace and control characters become one space, the ends are stripped,
    and a longer text is cut, ending with "…" (counted in the limit)::

        >>> shown("  place   alaska\n3 ")
        'place alaska 3'
        >>> shown("attack " + "x" * 100, limit=12)
        'attack xxxx…'
        >>> len(shown("z" * 100_000)), shown("\x00" * 500 + "end")
        (60, 'end')
    """
    out: list[str] = []
    gap = False
    for c in text:
        if c.isspace() or not c.isprintable():
            gap = bool(out)
            continue
        if gap:
            out.append(" ")
            gap = False
        out.append(c)
        if len(out) > limit:
            return "".join(out[: max(limit - 1, 0)]).rstrip() + "…"
    return "".join(out)
