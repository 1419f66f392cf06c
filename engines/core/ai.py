"""Bots: each game's policy picks a move for a seat from what that seat may see, and nothing else.

A game's policy lives in ``engines/<game>/ai.py`` as a function ``choose`` (see
:data:`Choose`). The host asks it through :func:`think`, which hands it only the seat's
own view (``view(seat)``, the same as the player's) and the seat's legal moves: never the
state, so a bot cannot know another hand or a die to come. Levels:

- ``easy``: close to random, but never absurd (no giving up, no pointless move when a
  sensible one exists);
- ``normal``: plays the game's plain good sense;
- ``hard``: as strong as fits the think-time budget (p99 ≤ 2 s a move on 2 cores).

``rng`` is the bot's own randomness, drawn apart from the game's seed, so its choices
reveal nothing of the dice.

    >>> LEVELS
    ('easy', 'normal', 'hard')
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from engines.core.game import JSON

if TYPE_CHECKING:
    from engines.core.game import Game

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
BUDGET = 2.0
"""Seconds a bot may think over a move, at most (the p99 goal is this)."""

Choose = Callable[[JSON, list[str], str, str, random.Random], str]
"""``choose(view, legal, seat, level, rng) -> move``: one of ``legal`` (or a move ``play`` accepts)."""


def policy(game: str) -> Choose:
    """Returns a game's ``choose`` (its class's ``AI`` module, else ``engines.<game>.ai``); LookupError if none."""
    from engines import GAMES

    cls = GAMES.get(game)
    name = getattr(cls, "AI", None) or f"engines.{game}.ai"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name != name:
            raise
        raise LookupError(f"{game} has no bots") from err
    choose: Choose = module.choose
    return choose


def has_bots(game: str) -> bool:
    """Returns whether a game has a bot policy."""
    try:
        policy(game)
    except LookupError:
        return False
    return True


def think(game: Game, seat: str, level: str, rng: random.Random) -> str:
    """Returns the bot's move for ``seat`` (who must act), from the seat's own view and legal moves only."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    legal = game.legal_moves(seat)
    if not legal:
        raise LookupError(f"{seat} has no legal move")
    return policy(game.NAME)(game.view(seat), legal, seat, level, rng)
