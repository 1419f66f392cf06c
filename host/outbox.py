"""What a table tells the world after something happened.

An :class:`Outbox` is adapter-neutral: the Discord cogs and the console both
deliver it. Public parts may go to a channel; ``private`` goes to one player each.
It is written to the store in the same transaction as the change it announces
(so it holds secrets, and is never logged), and marked delivered once sent.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
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
    ``actor_id`` is who made the change: told on the channel post when the
    announcement comes late (after a restart) and they never got their reply.
    ``id`` is the stored announcement's id (None for one that was never stored,
    e.g. "already played"); ``receipt`` is what a deliverer already sent of it.
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
    to_act: list[str] = field(default_factory=list)
    """User ids of everyone who must act after the change (all of them, not only the new ones)."""
    actor_id: str | None = None
    away: list[str] = field(default_factory=list)
    """Of ``to_act``, the user ids who have not moved in this game lately (or not since a restart):
    an adapter that spares present players a ping on every change still pings these."""
    guild_id: str | None = None
    notice: str | None = None
    """What kind of notice this is when it is not a move or lobby change: ``reminder`` (the turn clock)."""
    commitment: str | None = None
    """The game's fair-dice commitment (:func:`host.fairness.commitment`), shown on every board so that it stays
    in sight all game long; None for a game older than fair dice."""
    seals: bool = False
    """True for a table's opening, which posts the commitment: its channel message's id is stored with it."""
    reply: str | None = None
    """What only the actor is told besides "Done." (their part of the entropy, say)."""
    entropy: str | None = None
    """The game's entropy (keyed draws, :mod:`host.fairness`), on every board beside the commitment; None before
    the start, or for a game on the old scheme."""
    id: int | None = None
    receipt: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        """Returns the public lines and event texts joined for one channel post."""
        return "\n".join([*self.lines, *(e["text"] for e in self.events)])

    def to_json(self) -> str:
        """Returns the stored form (the store keeps ``id``, ``game_id``, ``channel_id`` and ``receipt`` aside).

        >>> out = Outbox(game_id=3, game="tally", channel_id="9", lines=["ann joins."])
        >>> back = Outbox.from_json(out.to_json(), game_id=3, channel_id="9")
        >>> back == out
        True
        """
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in _KEPT_ASIDE}
        return json.dumps(data, separators=(",", ":"))  # not asdict(): it deep-copies the view first

    @classmethod
    def from_json(cls, text: str, *, game_id: int, channel_id: str) -> Outbox:
        """Reads :meth:`to_json`'s form back; raises ValueError (or KeyError, TypeError) when damaged."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("an outbox is a JSON object")
        known = {f.name for f in fields(cls)} - _KEPT_ASIDE
        return cls(game_id=game_id, channel_id=channel_id, **{k: v for k, v in data.items() if k in known})


_KEPT_ASIDE = frozenset({"id", "game_id", "channel_id", "receipt", "duplicate"})
