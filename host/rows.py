"""The rows the store hands out (games, seats, live boards, moves) and how they are read from the database."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from engines.core.rng import keyed_seed
from host.db import Row
from host.fairness import commitment as old_commitment
from host.fairness import join_part


class Status(StrEnum):
    """Where a game is in its life."""

    LOBBY = "lobby"
    """Seats are open; the game has not started."""
    RUNNING = "running"
    """Moves are being played."""
    FINISHED = "finished"
    """The engine says the game is over."""
    ABORTED = "aborted"
    """Stopped by its creator or a channel manager."""


ACTIVE = (Status.LOBBY, Status.RUNNING)


@dataclass(frozen=True)
class GameRow:
    """One row of ``games`` (``snapshot`` is None when it was not read, or before the start)."""

    id: int
    guild_id: str | None
    channel_id: str
    game: str
    status: Status
    creator_id: str
    options: dict[str, Any]
    seed: int | None
    snapshot: str | None
    version: int
    broken: str | None
    created_at: str
    updated_at: str
    salt: str | None = field(default=None, repr=False)
    """The fair-dice salt: secret while the game runs (see :mod:`host.fairness`)."""
    winners: list[str] | None = None
    """Seat names of the winners once finished (``[]``: a draw); None while running, or aborted."""
    rematch_of: int | None = None
    server_seed: str | None = field(default=None, repr=False)
    """The keyed draws' server seed (see :mod:`host.fairness`): secret until the game ends."""
    commitment: str | None = None
    """The keyed draws' commitment, exactly as posted when the table opened."""
    commitment_message: str | None = None
    """The id of the message that posted the commitment (None until it was delivered, or on the console)."""
    entropy: str | None = None
    """The game's entropy, fixed at the start from every seat's join (None: not started, or the old scheme)."""
    parent_id: str | None = None
    """The channel the game's own thread was opened from (None: the game is in the channel itself)."""

    @property
    def keyed(self) -> bool:
        """True for a game on keyed draws; False for one started on the old scheme (an integer seed)."""
        return self.seed is None and self.server_seed is not None

    @property
    def started(self) -> bool:
        """True once the game has its seed (keyed: its entropy; old scheme: its integer seed)."""
        return self.seed is not None or (self.server_seed is not None and self.entropy is not None)

    @property
    def engine_seed(self) -> int | str:
        """The seed the engine was built with: ``"<server seed>:<entropy>"``, or the old scheme's integer."""
        if self.seed is not None:
            return self.seed
        if self.server_seed is None or self.entropy is None:
            raise ValueError(f"game {self.id} has not started: it has no seed yet")
        return keyed_seed(self.server_seed, self.entropy)

    @property
    def sealed(self) -> str | None:
        """The commitment the players were shown (None: a game from before fair dice)."""
        if self.seed is not None:
            return old_commitment(self.seed, self.salt) if self.salt else None
        return self.commitment


@dataclass(frozen=True)
class Seat:
    """One seated player: ``name`` is what the engine calls them.

    ``joined`` is the id of the interaction that seated them (``bot`` for a bot), ``entropy`` the
    text they added of their own (see :mod:`host.fairness`).
    """

    seat: int
    player_id: str
    name: str
    joined: str | None = None
    entropy: str | None = None

    @property
    def part(self) -> str:
        """This seat's part of the game's entropy."""
        return join_part(self.joined, self.entropy)


@dataclass(frozen=True)
class Board:
    """A game's live board: the message of the current turn, what the turn is, and its recap so far.

    ``actors`` is the turn's key: who must act in it, or the game's own key (a phase, say).
    """

    message_id: str
    actors: tuple[str, ...]
    recap: tuple[str, ...]
    events: tuple[dict[str, Any], ...] = ()
    """The turn's public events so far, kept for a game that sums a turn up from them (else empty)."""
    last_turn: str = ""
    """The summary of the turn before this one, which the board shows all its turn long ("": none)."""
    shown: dict[str, Any] | None = None
    """Its embed as Discord last returned it, so closing the board needs no fetch (None: not known)."""


@dataclass(frozen=True)
class MoveRow:
    """One accepted move of the log."""

    seq: int
    player_id: str
    move: str
    at: str
    interaction_id: str | None
    origin: str | None = None
    """None for the player's own move; ``clock`` for one the turn clock played for them."""
    events: str | None = None
    """The public events the move announced (JSON), as recorded; None for moves from before records."""
    digest: str | None = None
    """SHA-256 of the game's state after the move (:func:`host.fairness.digest`)."""


def now() -> str:
    """Returns the current UTC time as ISO 8601 text."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def _game_row(row: Row) -> GameRow:
    try:
        options = json.loads(row["options"])
    except (ValueError, RecursionError):
        options = {}
    return GameRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        status=Status(row["status"]),
        creator_id=row["creator_id"],
        options=options if isinstance(options, dict) else {},
        seed=row["seed"],
        snapshot=row["snapshot"],
        version=row["version"],
        broken=row["broken"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        salt=row["salt"],
        winners=_names(row["winners"]),
        rematch_of=row["rematch_of"],
        server_seed=_column(row, "server_seed"),
        commitment=_column(row, "commitment"),
        commitment_message=_column(row, "commitment_message"),
        entropy=_column(row, "entropy"),
        parent_id=_column(row, "parent_id"),
    )


def _column(row: Row, name: str) -> Any:
    """Returns a column a query may leave out (None then)."""
    return row[name] if name in row.keys() else None  # noqa: SIM118 (a sqlite3.Row's "in" looks at values)


def _names(text: str | None) -> list[str] | None:
    """Reads a stored JSON list of names (None when absent or damaged)."""
    if text is None:
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return [str(v) for v in value] if isinstance(value, list) else None


def _move_row(r: Row) -> MoveRow:
    keys = set(r.keys())
    return MoveRow(r["seq"], r["player_id"], r["move"], r["at"], r["interaction_id"], r["origin"],
                   r["events"] if "events" in keys else None, r["digest"] if "digest" in keys else None)
