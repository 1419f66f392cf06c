"""One channel's table as adapters see it: who sits where, what each may see, and the refusals.

The table service (:mod:`host.tables`) hands these out; the cogs and the console read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines import GAMES, GameError
from engines.core import Game
from host.store import GameRow, Seat

MAX_NAME = 32
"""Longest seat name, in characters."""


class Refusal(GameError):
    """A table action that is not allowed now; the message is for the player."""


class Stale(Refusal):
    """A move chosen at a position (e.g. a button) that the game has since left."""


class NoGame(Refusal):
    """The channel has no game for this (adapters may point the player to their games elsewhere)."""


class Unavailable(Refusal):
    """The store cannot save anything now (disk full, read-only, locked); nothing was changed."""


@dataclass(frozen=True)
class Person:
    """Someone at the table: a stable id (a Discord user id) and a display name."""

    id: str
    name: str


@dataclass
class Table:
    """A channel's game as read commands see it: its row, seats and engine (None in the lobby)."""

    row: GameRow
    seats: list[Seat]
    game: Game | None
    secrets: dict[str, dict[str, Any]] | None = None
    """Each seat's private view as of ``row.version`` (filled after a move, to compare with the next)."""
    acted: dict[str, float] = field(default_factory=dict)
    """User id → when they last moved here (the Tables clock), while the engine stays cached."""

    def name_of(self, user_id: str) -> str | None:
        """Returns the seat name of a user, or None when they are not seated."""
        return next((s.name for s in self.seats if s.player_id == user_id), None)

    def user_of(self, name: str) -> str | None:
        """Returns the user id seated under an engine name, or None."""
        return next((s.player_id for s in self.seats if s.name == name), None)

    @property
    def title(self) -> str:
        """The game's title, e.g. ``XISK``."""
        cls = GAMES.get(self.row.game)
        return cls.TITLE if cls else self.row.game


def seat_name(display: str, taken: set[str]) -> str:
    """Returns a clean, unused engine name for a display name.

    >>> seat_name("  Ann   Lee ", set()), seat_name("ann", {"ann"})
    ('Ann Lee', 'ann (2)')
    """
    base = " ".join(display.split())[:MAX_NAME] or "player"
    name, n = base, 2
    while name.casefold() in {t.casefold() for t in taken}:
        name, n = f"{base} ({n})", n + 1
    return name


def secret_part(game: Game, player: str) -> dict[str, Any]:
    """Returns what ``view(player)`` holds that the spectator view does not."""
    return game.private_view(player) if game.HAS_SECRETS else {}
