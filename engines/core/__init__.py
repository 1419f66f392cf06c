"""Mechanisms every game shares: the Game contract, errors, events, RNG, dice, cards."""

from engines.core.errors import BadNotation, GameError, GameOver, IllegalMove, NotAPlayer, NotYourTurn, shown
from engines.core.events import Event, event, is_public
from engines.core.game import JSON, Game
from engines.core.rng import KeyedDraws, Rng, SplitMix64

__all__ = [
    "JSON",
    "BadNotation",
    "Event",
    "Game",
    "GameError",
    "GameOver",
    "IllegalMove",
    "KeyedDraws",
    "NotAPlayer",
    "NotYourTurn",
    "Rng",
    "SplitMix64",
    "event",
    "is_public",
    "shown",
]
