"""Pure game rules. Nothing here imports Discord, Pillow, the database or an upper layer.

``GAMES`` maps a game's short name to its class (see ``engines.core.game.Game``)::

    >>> sorted(GAMES) == sorted(cls.NAME for cls in GAMES.values())
    True
"""

from __future__ import annotations

from engines.core import BadNotation, GameError, GameOver, IllegalMove, NotAPlayer, NotYourTurn
from engines.core.game import Game

GAMES: dict[str, type[Game]] = {}
"""The registry: game name → Game subclass. Each game package adds itself below."""


def register(cls: type[Game]) -> type[Game]:
    """Adds a game class to :data:`GAMES` under its ``NAME`` and returns it."""
    GAMES[cls.NAME] = cls
    return cls


__all__ = [
    "GAMES",
    "BadNotation",
    "Game",
    "GameError",
    "GameOver",
    "IllegalMove",
    "NotAPlayer",
    "NotYourTurn",
    "register",
]

# The games, registered in the order /game help lists them.
from engines.nexo import Nexo  # noqa: E402
from engines.nxs import Nxs  # noqa: E402
from engines.xisk import Xisk  # noqa: E402

register(Xisk)
register(Nxs)
register(Nexo)
