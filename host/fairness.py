"""Provably fair randomness: a commitment to each game's seed, revealed when the game ends.

Every die and every deal of a game comes from its seed (the engines' ``Rng`` is seeded with
it and its state is stored). The seed is drawn with :mod:`secrets`, so nothing public
predicts it. At the start the bot posts ``SHA-256("<seed>:<salt>")`` with a secret random
salt; at the end it reveals both. Anyone can then hash them to check the commitment, and
replay the log from the seed (``python bot.py --verify FILE``) to check that every roll and
deal is the one the seed gives: the seed was fixed before the first move, and no one could
have known it.

    >>> c = commitment(42, "00ff")
    >>> c == hashlib.sha256(b"42:00ff").hexdigest(), len(c)
    (True, 64)
    >>> digest({"b": 1, "a": [2]}) == digest({"a": [2], "b": 1})
    True
"""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any

SALT_BYTES = 16


def new_salt() -> str:
    """Returns a fresh secret salt (32 hex digits)."""
    return secrets.token_hex(SALT_BYTES)


def new_seed() -> int:
    """Returns a fresh secret seed (62 random bits from the OS)."""
    return secrets.randbits(62)


def commitment(seed: int, salt: str) -> str:
    """Returns the commitment to a seed: the hex SHA-256 of ``"<seed>:<salt>"``."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def digest(state: Any) -> str:
    """Returns the hex SHA-256 of a game state (its ``dump_state``), in canonical JSON."""
    text = json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def commit_line(seed: int, salt: str) -> str:
    """Returns the line that posts a game's commitment at its start."""
    return (f"🎲 Fair dice: this game's seed is sealed as SHA-256 {commitment(seed, salt)};"
            " seed and salt are revealed when it ends.")


def sealed_line(sealed: str) -> str:
    """Returns the line every board carries: the full commitment, so it stays in sight all game long.

    >>> sealed_line("ab" * 32) == "🎲 Fair dice: sealed as SHA-256 " + "ab" * 32
    True
    """
    return f"🎲 Fair dice: sealed as SHA-256 {sealed}"


def reveal_line(seed: int, salt: str) -> str:
    """Returns the line that reveals a finished game's seed and salt."""
    return (f"🎲 Fair dice revealed: seed {seed}, salt {salt}; SHA-256 of \"{seed}:{salt}\" is"
            f" {commitment(seed, salt)}, the commitment on every board of this game. /table export, then"
            " bot.py --verify, checks every roll.")
