"""Provably fair randomness: a server seed sealed before anyone joins, players' entropy, keyed draws.

The scheme (``hmac-sha256``, every table opened since keyed draws):

1. When a table opens, the bot draws a 256-bit **server seed** with :mod:`secrets` and posts
   its **commitment**, ``SHA-256(<the seed's 64 hex digits>)``, before anyone has joined.
2. Each seat adds its part of the **entropy**: the Discord id of the interaction that seated
   it (``bot`` for a bot seat, ``-`` for a seat taken without one), and the player's own text
   if they gave some (``/game join entropy:``, or the lobby's "Add my own randomness" button),
   as ``<id>:<text>``. At the start the parts are joined with ``|`` in seat order: the game's
   entropy is fixed, and shown in full on the start board and in every board's footer.
3. Draw ``n`` of the game is ``HMAC-SHA256(seed, "<entropy>:<n>")`` (:mod:`engines.core.rng`).
4. When the game ends the bot reveals the seed: anyone can hash it against the commitment and
   redo every draw the export lists (``tools/check_draws.py``), and ``bot.py --verify`` replays
   the game on those draws.

The host fixed the seed before the joins, so it could not fit the seed to the entropy. A
player's own text is out of the host's reach; a join's interaction id is Discord's, but the host
could fish for one by delaying a join, so it counts for less. Games started before keyed draws
(``splitmix64``) keep their old scheme: an integer seed sealed with a salt at the start.

    >>> seal("ab" * 32) == hashlib.sha256(b"ab" * 32).hexdigest()
    True
    >>> game_entropy([join_part("1183", "lucky  words|7"), join_part(None, None), join_part("bot", "")])
    '1183:lucky words/7|-|bot'
    >>> digest({"b": 1, "a": [2]}) == digest({"a": [2], "b": 1})
    True
"""

from __future__ import annotations

import hashlib
import json
import secrets
import unicodedata
from typing import Any

SALT_BYTES = 16
SEED_BYTES = 32
"""A server seed's size: 256 bits."""
OWN_TEXT = 64
"""The most characters of a player's own text that count."""
NO_JOIN = "-"
"""A seat's part when it was taken without an interaction (the console, a rematch)."""
BOT_JOIN = "bot"
"""A bot seat's part: the host chose it, so it adds nothing a player could rely on."""

def new_server_seed() -> str:
    """Returns a fresh secret server seed: 256 random bits from the OS, as 64 hex digits."""
    return secrets.token_hex(SEED_BYTES)


def seal(server_seed: str) -> str:
    """Returns the commitment to a server seed: the hex SHA-256 of its 64 hex digits (as ASCII text)."""
    return hashlib.sha256(server_seed.encode()).hexdigest()


def own_text(text: str | None) -> str:
    """Returns a player's own randomness as it counts: NFC, one space between words, ``/`` for ``|``, ``'`` for a
    backtick, at most 64 characters.

    >>> own_text("  héllo\\n\\tworld | x "), own_text(None), len(own_text("z" * 100))
    ('héllo world / x', '', 64)
    """
    if not text:
        return ""
    clean = "".join(ch for ch in unicodedata.normalize("NFC", text) if ch.isprintable() or ch.isspace())
    return " ".join(clean.replace("|", "/").replace("`", "'").split())[:OWN_TEXT].strip()


def join_part(joined: str | None, text: str | None) -> str:
    """Returns one seat's part of the entropy: ``<join id>`` or ``<join id>:<own text>``."""
    own = own_text(text)
    return f"{joined or NO_JOIN}:{own}" if own else (joined or NO_JOIN)


def game_entropy(parts: list[str]) -> str:
    """Returns a game's entropy: the seats' parts in seat order, joined with ``|``."""
    return "|".join(parts)


def new_salt() -> str:
    """Returns a fresh secret salt (32 hex digits), for a game started on the old scheme (tests)."""
    return secrets.token_hex(SALT_BYTES)


def commitment(seed: int, salt: str) -> str:
    """Returns an old-scheme commitment: the hex SHA-256 of ``"<seed>:<salt>"``.

    >>> commitment(42, "00ff") == hashlib.sha256(b"42:00ff").hexdigest()
    True
    """
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def digest(state: Any) -> str:
    """Returns the hex SHA-256 of a game state (its ``dump_state``), in canonical JSON."""
    text = json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


# -- what the players read --------------------------------------------------------------


def open_line(sealed: str) -> str:
    """Returns the line a table's opening posts: the commitment, before anyone joins."""
    return (f"🎲 Fair dice: this table's server seed is sealed as SHA-256 {sealed}. Add your own randomness as you"
            " join (`/game join entropy:`, or the button): the seed is revealed when the game ends.")


def start_line(entropy: str) -> str:
    """Returns the start's line: the game's entropy in full, where each player finds their part."""
    return (f"🎲 Fair dice: this game's entropy is \"{entropy}\" (each seat's join, in seat order). Draw n is"
            " HMAC-SHA256(server seed, \"<entropy>:<n>\").")


def sealed_line(sealed: str, entropy: str | None = None) -> str:
    """Returns the line every board carries: the full commitment (and the entropy), all game long.

    >>> sealed_line("ab" * 32) == "🎲 Fair dice: sealed as SHA-256 " + "ab" * 32
    True
    >>> sealed_line("ab" * 32, "1183|bot").endswith("· entropy 1183|bot")
    True
    """
    return f"🎲 Fair dice: sealed as SHA-256 {sealed}" + (f" · entropy {entropy}" if entropy is not None else "")


def reveal_line(server_seed: str, sealed: str, entropy: str) -> str:
    """Returns the line that reveals a finished game's server seed."""
    return (f"🎲 Fair dice revealed: server seed {server_seed}; its SHA-256 is {sealed}, the commitment posted when"
            f" the table opened and on every board. Entropy \"{entropy}\". /table export lists every draw;"
            " tools/check_draws.py or tasks.py run --verify checks them.")


def old_commit_line(seed: int, salt: str) -> str:
    """Returns the start's line of a game on the old scheme: its integer seed's commitment."""
    return (f"🎲 Fair dice: this game's seed is sealed as SHA-256 {commitment(seed, salt)};"
            " seed and salt are revealed when it ends.")


def old_reveal_line(seed: int, salt: str) -> str:
    """Returns the reveal of a game on the old scheme (started before keyed draws)."""
    return (f"🎲 Fair dice revealed: seed {seed}, salt {salt}; SHA-256 of \"{seed}:{salt}\" is"
            f" {commitment(seed, salt)}, the commitment on every board of this game. /table export, then"
            " tasks.py run --verify, checks every roll.")
