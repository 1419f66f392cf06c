"""What a table tells the world after something happened.

An :class:`Outbox` is adapter-neutral: the Discord cogs and the console both
deliver it. Public parts may go to a channel; ``private`` goes to one player each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.core import Event


@dataclass
class Outbox:
    """The result of a lobby action or a move, ready to deliver.

    ``events`` are public events only (private ones are already in ``private``),
    ``view`` is the spectator view to draw when ``picture`` is set, ``mention``
    holds the user ids who must act now and were not already acting, and
    ``private`` maps a user id to what only they may read (``secrets`` keeps the
    raw private part of their view for adapters that format hands themselves).
    """

    game_id: int
    game: str
    channel_id: str
    lines: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    picture: bool = False
    view: dict[str, Any] | None = None
    mention: list[str] = field(default_factory=list)
    private: dict[str, list[str]] = field(default_factory=dict)
    secrets: dict[str, dict[str, Any]] = field(default_factory=dict)
    finished: bool = False
    duplicate: bool = False
    move: str | None = None
    version: int = 0
    names: dict[str, str] = field(default_factory=dict)
    """User id → seat name, for adapters that must name a player (e.g. a closed-DM notice)."""

    def text(self) -> str:
        """Returns the public lines and event texts joined for one channel post."""
        return "\n".join([*self.lines, *(e["text"] for e in self.events)])
