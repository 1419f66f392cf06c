"""Pure game rules. Nothing here imports Discord, Pillow, the database or an upper layer.

``GAMES`` maps a game's short name to its class (see ``engines.core.game.Game``), for every
game this process offers: each comes from its kit (:mod:`engines.core.kit`), found through the
entry-point group ``tablehost.games`` (:mod:`engines.core.registry`)::

    >>> sorted(GAMES) == sorted(cls.NAME for cls in GAMES.values())
    True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from engines.core import BadNotation, GameError, GameOver, IllegalMove, NotAPlayer, NotYourTurn
from engines.core.game import Game
from engines.core.kit import GameKit
from engines.core.registry import KITS


class Engines(Mapping[str, type[Game]]):
    """Game name → engine class, read from the kits (:data:`~engines.core.registry.KITS`)."""

    def __getitem__(self, name: str) -> type[Game]:
        return KITS[name].engine

    def __iter__(self) -> Iterator[str]:
        return iter(KITS)

    def __len__(self) -> int:
        return len(KITS)


GAMES: Mapping[str, type[Game]] = Engines()
"""The engine contract's registry: game name → Game subclass."""

__all__ = [
    "GAMES",
    "KITS",
    "BadNotation",
    "Game",
    "GameError",
    "GameKit",
    "GameOver",
    "IllegalMove",
    "NotAPlayer",
    "NotYourTurn",
]
