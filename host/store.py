"""The store: games, seats and move logs in SQLite (aiosqlite, WAL).

The schema is versioned with ``PRAGMA user_version``; :data:`MIGRATIONS` holds
one script per version and :meth:`Store.open` runs the missing ones in order.
Every accepted move is one transaction: a log row, the new snapshot and a
version bump, checked against the version the move was computed from.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

import aiosqlite


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

MIGRATIONS: list[str] = [
    # 1: games, seats, the move log.
    """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY,
        guild_id    TEXT,
        channel_id  TEXT NOT NULL,
        game        TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'aborted')),
        creator_id  TEXT NOT NULL,
        options     TEXT NOT NULL DEFAULT '{}',
        seed        INTEGER,
        snapshot    TEXT,
        version     INTEGER NOT NULL DEFAULT 0,
        broken      TEXT,
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL
    );
    CREATE UNIQUE INDEX games_one_active_per_channel
        ON games (channel_id) WHERE status IN ('lobby', 'running');
    CREATE INDEX games_by_channel ON games (channel_id, id);
    CREATE TABLE seats (
        game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat       INTEGER NOT NULL,
        player_id  TEXT NOT NULL,
        name       TEXT NOT NULL,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, player_id),
        UNIQUE (game_id, name)
    );
    CREATE TABLE moves (
        game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq             INTEGER NOT NULL,
        player_id       TEXT NOT NULL,
        move            TEXT NOT NULL,
        at              TEXT NOT NULL,
        interaction_id  TEXT,
        PRIMARY KEY (game_id, seq)
    );
    CREATE UNIQUE INDEX moves_once_per_interaction
        ON moves (interaction_id) WHERE interaction_id IS NOT NULL;
    """,
]


class StoreError(Exception):
    """The store could not do what was asked (a bug or a concurrent writer, not a player error)."""


class StaleVersion(StoreError):
    """The game changed since it was loaded; the move was not written."""


class DuplicateInteraction(StoreError):
    """A move with this interaction id is already in the log."""


@dataclass(frozen=True)
class GameRow:
    """One row of ``games``."""

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


@dataclass(frozen=True)
class Seat:
    """One seated player: ``name`` is what the engine calls them."""

    seat: int
    player_id: str
    name: str


@dataclass(frozen=True)
class MoveRow:
    """One accepted move of the log."""

    seq: int
    player_id: str
    move: str
    at: str
    interaction_id: str | None


def now() -> str:
    """Returns the current UTC time as ISO 8601 text."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def _game_row(row: sqlite3.Row) -> GameRow:
    try:
        options = json.loads(row["options"])
    except ValueError:
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
    )


class Store:
    """An open database; create with :meth:`open`, finish with :meth:`close`."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.path = path

    @classmethod
    async def open(cls, path: str) -> Store:
        """Opens (or creates) the database at ``path`` and runs the missing migrations."""
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = sqlite3.Row
        await db.execute("PRAGMA foreign_keys = ON")
        await db.execute("PRAGMA busy_timeout = 5000")
        if path != ":memory:":
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = FULL")
        store = cls(db, path)
        try:
            await store._migrate()
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        """Closes the connection; every committed move is on disk."""
        await self._db.close()

    async def schema_version(self) -> int:
        """Returns ``PRAGMA user_version``."""
        async with self._db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def _migrate(self) -> None:
        current = await self.schema_version()
        if current > len(MIGRATIONS):
            raise StoreError(
                f"{self.path} has schema version {current}, newer than this bot ({len(MIGRATIONS)})."
            )
        for version in range(current + 1, len(MIGRATIONS) + 1):
            async with self.transaction():
                for statement in MIGRATIONS[version - 1].split(";"):
                    if statement.strip():
                        await self._db.execute(statement)
                await self._db.execute(f"PRAGMA user_version = {version}")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Runs the block in one write transaction: all of it is committed, or none."""
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise
        await self._db.execute("COMMIT")

    # -- games ------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: str | None,
        channel_id: str,
        game: str,
        creator_id: str,
        options: dict[str, Any],
        creator_name: str | None = None,
    ) -> GameRow:
        """Inserts a game in the lobby, with its creator in seat 0 when ``creator_name`` is given.

        Both happen in one transaction. Raises StoreError when the channel already has a game.
        """
        stamp = now()
        try:
            async with self.transaction() as db:
                cur = await db.execute(
                    "INSERT INTO games (guild_id, channel_id, game, status, creator_id, options,"
                    " created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?)",
                    (guild_id, channel_id, game, creator_id, json.dumps(options), stamp, stamp),
                )
                game_id = cur.lastrowid
                if creator_name is not None:
                    await db.execute(
                        "INSERT INTO seats (game_id, seat, player_id, name) VALUES (?, 0, ?, ?)",
                        (game_id, creator_id, creator_name),
                    )
        except sqlite3.IntegrityError as err:
            raise StoreError(f"channel {channel_id} already has an active game") from err
        row = await self.game(int(game_id or 0))
        assert row is not None
        return row

    async def game(self, game_id: int) -> GameRow | None:
        """Returns the game with this id, or None."""
        async with self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return _game_row(row) if row else None

    async def active_game(self, channel_id: str) -> GameRow | None:
        """Returns the channel's game in the lobby or running, or None."""
        async with self._db.execute(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'running')", (channel_id,)
        ) as cur:
            row = await cur.fetchone()
        return _game_row(row) if row else None

    async def latest_game(self, channel_id: str) -> GameRow | None:
        """Returns the channel's active game, else its most recent one, or None."""
        row = await self.active_game(channel_id)
        if row:
            return row
        async with self._db.execute(
            "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        ) as cur:
            found = await cur.fetchone()
        return _game_row(found) if found else None

    async def running_games(self) -> list[GameRow]:
        """Returns every running game."""
        async with self._db.execute("SELECT * FROM games WHERE status = 'running' ORDER BY id") as cur:
            rows = await cur.fetchall()
        return [_game_row(r) for r in rows]

    async def start_game(self, game_id: int, *, seed: int, snapshot: str) -> None:
        """Moves a lobby game to running with its seed and first snapshot."""
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE games SET status = 'running', seed = ?, snapshot = ?, version = 0, updated_at = ?"
                " WHERE id = ? AND status = 'lobby'",
                (seed, snapshot, now(), game_id),
            )
            if cur.rowcount != 1:
                raise StaleVersion(f"game {game_id} is no longer in its lobby")

    async def set_status(self, game_id: int, status: Status) -> None:
        """Sets a game's status."""
        async with self.transaction() as db:
            await db.execute(
                "UPDATE games SET status = ?, updated_at = ? WHERE id = ?", (status.value, now(), game_id)
            )

    async def mark_broken(self, game_id: int, reason: str) -> None:
        """Records why a game cannot be loaded; it stays so until aborted."""
        async with self.transaction() as db:
            await db.execute(
                "UPDATE games SET broken = ?, updated_at = ? WHERE id = ?", (reason, now(), game_id)
            )

    # -- seats ------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[Seat]:
        """Returns the seats in seat order."""
        async with self._db.execute(
            "SELECT seat, player_id, name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        ) as cur:
            rows = await cur.fetchall()
        return [Seat(r["seat"], r["player_id"], r["name"]) for r in rows]

    async def add_seat(self, game_id: int, player_id: str, name: str) -> Seat:
        """Seats a player after the last seat; raises StoreError if seated or the name is taken."""
        try:
            async with self.transaction() as db:
                async with db.execute(
                    "SELECT COALESCE(MAX(seat), -1) + 1 FROM seats WHERE game_id = ?", (game_id,)
                ) as cur:
                    row = await cur.fetchone()
                seat = int(row[0]) if row else 0
                await db.execute(
                    "INSERT INTO seats (game_id, seat, player_id, name) VALUES (?, ?, ?, ?)",
                    (game_id, seat, player_id, name),
                )
        except sqlite3.IntegrityError as err:
            raise StoreError(f"{player_id} or {name!r} is already seated in game {game_id}") from err
        return Seat(seat, player_id, name)

    async def remove_seat(self, game_id: int, player_id: str) -> int | None:
        """Removes a player's seat and returns how many seats are left (None: they had none).

        A lobby left empty is aborted in the same transaction.
        """
        async with self.transaction() as db:
            cur = await db.execute("DELETE FROM seats WHERE game_id = ? AND player_id = ?", (game_id, player_id))
            if cur.rowcount != 1:
                return None
            async with db.execute("SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,)) as count:
                found = await count.fetchone()
            left = int(found[0]) if found else 0
            if left == 0:
                await db.execute(
                    "UPDATE games SET status = 'aborted', updated_at = ? WHERE id = ? AND status = 'lobby'",
                    (now(), game_id),
                )
            return left

    # -- the move log -----------------------------------------------------------------

    async def commit_move(
        self,
        game_id: int,
        *,
        expected_version: int,
        player_id: str,
        move: str,
        snapshot: str,
        interaction_id: str | None,
        finished: bool,
    ) -> int:
        """Writes one move: log row, snapshot and version bump, atomically.

        Returns the new version. Raises StaleVersion when the game moved on since
        ``expected_version`` and DuplicateInteraction when the interaction id is
        already logged; in both cases nothing is written.
        """
        new_version = expected_version + 1
        stamp = now()
        status = Status.FINISHED if finished else Status.RUNNING
        try:
            async with self.transaction() as db:
                cur = await db.execute(
                    "UPDATE games SET snapshot = ?, version = ?, status = ?, updated_at = ?"
                    " WHERE id = ? AND version = ? AND status = 'running'",
                    (snapshot, new_version, status.value, stamp, game_id, expected_version),
                )
                if cur.rowcount != 1:
                    raise StaleVersion(f"game {game_id} is not at version {expected_version}")
                await db.execute(
                    "INSERT INTO moves (game_id, seq, player_id, move, at, interaction_id)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, new_version, player_id, move, stamp, interaction_id),
                )
        except sqlite3.IntegrityError as err:
            raise DuplicateInteraction(f"interaction {interaction_id} is already logged") from err
        return new_version

    async def moves(self, game_id: int, *, last: int | None = None) -> list[MoveRow]:
        """Returns the log in order; ``last`` keeps only the most recent moves."""
        query = "SELECT seq, player_id, move, at, interaction_id FROM moves WHERE game_id = ?"
        if last is not None:
            query = f"SELECT * FROM ({query} ORDER BY seq DESC LIMIT {int(last)})"
        async with self._db.execute(query + " ORDER BY seq", (game_id,)) as cur:
            rows = await cur.fetchall()
        return [MoveRow(r["seq"], r["player_id"], r["move"], r["at"], r["interaction_id"]) for r in rows]

    async def move_by_interaction(self, interaction_id: str) -> tuple[int, MoveRow] | None:
        """Returns (game id, move) logged under an interaction id, or None."""
        async with self._db.execute(
            "SELECT game_id, seq, player_id, move, at, interaction_id FROM moves WHERE interaction_id = ?",
            (interaction_id,),
        ) as cur:
            r = await cur.fetchone()
        if r is None:
            return None
        return r["game_id"], MoveRow(r["seq"], r["player_id"], r["move"], r["at"], r["interaction_id"])
