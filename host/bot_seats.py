"""A bot's seat: its player id (``bot:<level>:<n>``), its randomness, and the moves it plays in a turn.

Below both the table service (:mod:`host.tables`), which seats bots and lets one play a
timed-out turn, and the bots' service (:mod:`host.bots`), which plays their turns.
"""

from __future__ import annotations

import random
import secrets
from typing import TYPE_CHECKING

from engines.core.ai import LEVELS, think

if TYPE_CHECKING:
    from engines.core import Game

PREFIX = "bot:"


def is_bot(player_id: str) -> bool:
    """Returns whether a seat's player id is a bot's.

    >>> is_bot("bot:hard:1"), is_bot("123456789")
    (True, False)
    """
    return player_id.startswith(PREFIX)


def bot_id(level: str, n: int) -> str:
    """Returns the player id of a game's ``n``-th bot of ``level``."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}")
    return f"{PREFIX}{level}:{n}"


def level_of(player_id: str) -> str:
    """Returns a bot's level from its player id (``normal`` when unreadable).

    >>> level_of("bot:easy:2"), level_of("bot:??")
    ('easy', 'normal')
    """
    parts = player_id.split(":")
    return parts[1] if len(parts) == 3 and parts[1] in LEVELS else "normal"


def bot_rng() -> random.Random:
    """Returns a bot's own randomness, drawn apart from the game's seed (it tells nothing of the dice)."""
    return random.Random(secrets.randbits(64))


def bot_turn(game: Game, seat: str, level: str, *, most: int = 300) -> list[str]:
    """Returns the moves a bot of ``level`` plays for ``seat`` until its turn passes, on ``game`` (a copy)."""
    moves: list[str] = []
    rng = bot_rng()
    while len(moves) < most and not game.is_over and seat in game.to_act():
        move = think(game, seat, level, rng)
        game.play(seat, move)
        moves.append(game.last_move or move)
    return moves
