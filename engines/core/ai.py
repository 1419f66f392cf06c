"""Bots: each game's policy picks a move for a seat from what that seat may see, and nothing else.

A game's policy is a function ``choose`` (see :data:`Choose`), usually in
``engines/<game>/ai.py``, that its kit names (``GameKit.ai``). The host asks it through
:func:`think`, which hands it only the seat's own view (``view(seat)``, the same as the
player's) and the seat's legal moves: never the state, so a bot cannot know another hand or a die to come. Levels:

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

import random
from typing import TYPE_CHECKING

from engines.core.kit import Choose
from engines.core.registry import KITS

if TYPE_CHECKING:
    from engines.core.game import Game

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
BUDGET = 2.0
"""Seconds a bot may think over a move, at most (the p99 goal is this)."""

__all__ = ["BUDGET", "LEVELS", "Choose", "has_bots", "policy", "think"]


def policy(game: str) -> Choose:
    """Returns a game's ``choose`` (its kit's ``ai``); raises LookupError when it has no bots."""
    kit = KITS.get(game)
    if kit is None or kit.ai is None:
        raise LookupError(f"{game} has no bots")
    return kit.ai


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
