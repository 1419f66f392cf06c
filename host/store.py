"""The store: games, seats, move logs and the durable outbox in SQLite (aiosqlite, WAL).

The schema is versioned with ``PRAGMA user_version``; :data:`MIGRATIONS` holds
one script per version and :meth:`Store.open` runs the missing ones in order.

One writer. aiosqlite runs every call on the connection's own thread, one after
another; the store hands that thread a whole transaction at a time (``BEGIN
IMMEDIATE`` … ``COMMIT`` in one function, :meth:`Store._write`), so two
coroutines' transactions can never interleave, a read never sees another's
uncommitted work, and a caller cancelled at any await leaves the transaction
to finish or roll back whole on that thread: a change is there entirely or not
at all, and the store stays usable.

Every accepted move is one such transaction: a log row, the new snapshot, a
version bump checked against the version the move was computed from, and the
move's announcement (its outbox row), which a deliverer later marks delivered.

Nothing here logs a statement or its parameters: snapshots and outboxes hold
every hand. aiosqlite's own statement logging is silenced below.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any, TypeVar

import aiosqlite

from host import clock
from host.clock import ClockSettings
from host.outbox import Outbox

log = logging.getLogger(__name__)

# aiosqlite logs each call with its arguments at DEBUG: whole snapshots, every hand.
logging.getLogger("aiosqlite").setLevel(logging.WARNING)

T = TypeVar("T")


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
    # 2: the durable outbox: each announcement, written with the change it announces.
    """
    CREATE TABLE outbox (
        id            INTEGER PRIMARY KEY,
        game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        channel_id    TEXT NOT NULL,
        payload       TEXT,
        receipt       TEXT NOT NULL DEFAULT '{}',
        created_at    TEXT NOT NULL,
        delivered_at  TEXT
    );
    CREATE INDEX outbox_pending ON outbox (channel_id, id) WHERE delivered_at IS NULL;
    """,
    # 3: where each game's live board and each player's hand message are (the adapter's ids).
    """
    CREATE TABLE boards (
        game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        message_id  TEXT NOT NULL,
        actors      TEXT NOT NULL,
        recap       TEXT NOT NULL,
        updated_at  TEXT NOT NULL
    );
    CREATE TABLE hands (
        game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        player_id   TEXT NOT NULL,
        channel_id  TEXT NOT NULL,
        message_id  TEXT NOT NULL,
        PRIMARY KEY (game_id, player_id)
    );
    """,
    # 4: the turn clock (host/clock.py), who plays by post how, spectator channels and their copies.
    """
    CREATE TABLE clocks (
        game_id       INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        remind_after  REAL NOT NULL,
        timeout       REAL NOT NULL,
        on_timeout    TEXT NOT NULL CHECK (on_timeout IN ('skip', 'forfeit')),
        version       INTEGER NOT NULL,
        started_at    REAL,
        stage         INTEGER NOT NULL DEFAULT 0,
        paused_at     REAL,
        next_due      REAL
    );
    CREATE INDEX clocks_due ON clocks (next_due) WHERE next_due IS NOT NULL;
    ALTER TABLE moves ADD COLUMN origin TEXT;
    CREATE TABLE players (
        player_id     TEXT PRIMARY KEY,
        dm_reminders  INTEGER NOT NULL DEFAULT 1
    );
    CREATE TABLE spectators (
        game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        channel_id  TEXT NOT NULL,
        PRIMARY KEY (game_id, channel_id)
    );
    CREATE TABLE mirrors (
        game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        channel_id  TEXT NOT NULL,
        source_id   TEXT NOT NULL,
        message_id  TEXT NOT NULL,
        PRIMARY KEY (channel_id, source_id)
    );
    """,
    # 5: records and fair play: the dice commitment's salt, the result, rematches, what each move
    # announced and the state it left (for export and --verify), the ratings.
    """
    ALTER TABLE games ADD COLUMN salt TEXT;
    ALTER TABLE games ADD COLUMN winners TEXT;
    ALTER TABLE games ADD COLUMN rematch_of INTEGER;
    ALTER TABLE moves ADD COLUMN events TEXT;
    ALTER TABLE moves ADD COLUMN digest TEXT;
    CREATE INDEX games_finished ON games (channel_id, id) WHERE status IN ('finished', 'aborted');
    CREATE TABLE rematch_votes (
        game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        player_id  TEXT NOT NULL,
        PRIMARY KEY (game_id, player_id)
    );
    CREATE TABLE ratings (
        guild_id   TEXT NOT NULL,
        game       TEXT NOT NULL,
        player_id  TEXT NOT NULL,
        mu         REAL NOT NULL,
        sigma      REAL NOT NULL,
        games      INTEGER NOT NULL,
        wins       INTEGER NOT NULL,
        PRIMARY KEY (guild_id, game, player_id)
    );
    CREATE TABLE rated (
        game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        counted  INTEGER NOT NULL
    );
    """,
    # 6: a timeout may hand the turn to a bot (the clocks' check widened: SQLite rebuilds the table).
    """
    CREATE TABLE clocks_new (
        game_id       INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        remind_after  REAL NOT NULL,
        timeout       REAL NOT NULL,
        on_timeout    TEXT NOT NULL CHECK (on_timeout IN ('skip', 'forfeit', 'bot-easy', 'bot-normal', 'bot-hard')),
        version       INTEGER NOT NULL,
        started_at    REAL,
        stage         INTEGER NOT NULL DEFAULT 0,
        paused_at     REAL,
        next_due      REAL
    );
    INSERT INTO clocks_new SELECT game_id, remind_after, timeout, on_timeout, version, started_at, stage, paused_at,
        next_due FROM clocks;
    DROP TABLE clocks;
    ALTER TABLE clocks_new RENAME TO clocks;
    CREATE INDEX clocks_due ON clocks (next_due) WHERE next_due IS NOT NULL;
    """,
]


class StoreError(Exception):
    """The store could not do what was asked (a bug or a concurrent writer, not a player error)."""


class StaleVersion(StoreError):
    """The game changed since it was loaded (another writer got there first); nothing was written."""


class DuplicateInteraction(StoreError):
    """A move with this interaction id is already in the log."""


class ChannelTaken(StoreError):
    """The channel already has a game in its lobby or running."""


class SeatTaken(StoreError):
    """The player is already seated, or another player has the same seat name."""


class StorageUnavailable(StoreError):
    """The database cannot be written (disk full, read-only, locked): nothing was changed.

    ``reason`` is a short phrase for players ("the bot's storage is full");
    ``str(error)`` names the file and SQLite's message, for the admin's log.
    """

    def __init__(self, path: str, reason: str, detail: str) -> None:
        super().__init__(f"{path}: {reason} ({detail})")
        self.path = path
        self.reason = reason


# SQLite's primary result codes that mean "the storage, not the request, is at fault".
_STORAGE_REASONS = {
    sqlite3.SQLITE_FULL: "the bot's storage is full",
    sqlite3.SQLITE_READONLY: "the bot's storage is read-only",
    sqlite3.SQLITE_BUSY: "the bot's storage is locked by another program",
    sqlite3.SQLITE_LOCKED: "the bot's storage is locked by another program",
    sqlite3.SQLITE_IOERR: "the bot's storage cannot be written (a disk error)",
    sqlite3.SQLITE_CANTOPEN: "the bot's storage cannot be opened",
    sqlite3.SQLITE_PERM: "the bot may not write its storage",
    sqlite3.SQLITE_CORRUPT: "the bot's storage is damaged",
    sqlite3.SQLITE_NOTADB: "the bot's storage is not a database",
}


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


@dataclass(frozen=True)
class Seat:
    """One seated player: ``name`` is what the engine calls them."""

    seat: int
    player_id: str
    name: str


@dataclass(frozen=True)
class Board:
    """A game's live board: the message of the current turn, what the turn is, and its recap so far.

    ``actors`` is the turn's key: who must act in it, or the game's own key (a phase, say).
    """

    message_id: str
    actors: tuple[str, ...]
    recap: tuple[str, ...]


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


_HEAD = (
    "id, guild_id, channel_id, game, status, creator_id, options, seed, NULL AS snapshot, version, broken,"
    " created_at, updated_at, salt, winners, rematch_of"
)
"""Every column of ``games`` but the snapshot, which is read only when an engine must be loaded."""


def _game_row(row: sqlite3.Row) -> GameRow:
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
    )


def _names(text: str | None) -> list[str] | None:
    """Reads a stored JSON list of names (None when absent or damaged)."""
    if text is None:
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return [str(v) for v in value] if isinstance(value, list) else None


def _move_row(r: sqlite3.Row) -> MoveRow:
    keys = r.keys()
    return MoveRow(r["seq"], r["player_id"], r["move"], r["at"], r["interaction_id"], r["origin"],
                   r["events"] if "events" in keys else None, r["digest"] if "digest" in keys else None)


def _insert_outbox(db: sqlite3.Connection, game_id: int, announce: Outbox | None) -> None:
    """Writes an announcement in the caller's transaction and gives it its id."""
    if announce is None:
        return
    announce.game_id = game_id
    cur = db.execute(
        "INSERT INTO outbox (game_id, channel_id, payload, created_at) VALUES (?, ?, ?, ?)",
        (game_id, announce.channel_id, announce.to_json(), now()),
    )
    announce.id = int(cur.lastrowid or 0)


class Store:
    """An open database; create with :meth:`open`, finish with :meth:`close`.

    Every method is one step on the connection's thread: reads see only
    committed data, and each write is one whole transaction.
    """

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.path = path

    @classmethod
    async def open(cls, path: str) -> Store:
        """Opens (or creates) the database at ``path``, checks it can be written, runs the migrations.

        Raises StorageUnavailable (naming the file) when it cannot be opened or written,
        and StoreError when its schema is newer than this bot.
        """
        try:
            db = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as err:
            raise _storage_error(path, err) from err
        db.row_factory = sqlite3.Row
        store = cls(db, path)
        try:
            await store._run(store._prepare)
            await store._migrate()
        except BaseException:
            await db.close()
            raise
        return store

    def _prepare(self, db: sqlite3.Connection) -> None:
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA busy_timeout = 5000")
        if self.path != ":memory:":
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
        db.execute("BEGIN IMMEDIATE")  # a read-only or locked file is found now, not at the first move
        db.execute("ROLLBACK")

    async def close(self) -> None:
        """Closes the connection once the steps already queued are done; every committed move is on disk."""
        await self._db.close()

    async def schema_version(self) -> int:
        """Returns ``PRAGMA user_version``."""
        return await self._run(lambda db: int(db.execute("PRAGMA user_version").fetchone()[0]))

    async def _migrate(self) -> None:
        current = await self.schema_version()
        if current > len(MIGRATIONS):
            raise StoreError(
                f"{self.path} has schema version {current}, newer than this bot ({len(MIGRATIONS)})."
            )
        for version in range(current + 1, len(MIGRATIONS) + 1):

            def migrate(db: sqlite3.Connection, version: int = version) -> None:
                for statement in MIGRATIONS[version - 1].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {version}")

            await self._write(migrate)

    # -- the one way in ------------------------------------------------------------------

    async def _run(self, step: Callable[[sqlite3.Connection], T]) -> T:
        """Runs ``step`` on the connection's thread and returns its result.

        The step runs to its end even when the awaiting coroutine is cancelled.
        aiosqlite's ``_execute`` is the one call that hands its thread a function;
        its public calls each hand it one statement, which would split a transaction.
        """
        conn = self._db

        def call() -> T:
            return step(conn._conn)

        try:
            return await conn._execute(call)
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as err:
            code = getattr(err, "sqlite_errorcode", None)
            if code is not None and code & 0xFF in _STORAGE_REASONS:
                failure = _storage_error(self.path, err)
                log.error("storage failure: %s", failure)
                raise failure from err
            if isinstance(err, sqlite3.ProgrammingError) and "closed" in str(err):
                raise StorageUnavailable(self.path, "the bot's storage is closed", str(err)) from err
            raise
        except ValueError as err:  # aiosqlite: "Connection closed"
            raise StorageUnavailable(self.path, "the bot's storage is closed", str(err)) from err

    async def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Runs ``work`` as one transaction: all of it is committed, or none of it.

        ``work`` may raise to refuse (e.g. StaleVersion): the transaction rolls back.
        """

        def transaction(db: sqlite3.Connection) -> T:
            db.execute("BEGIN IMMEDIATE")
            try:
                result = work(db)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:  # SQLite may have rolled back already (a full disk does)
                    db.execute("ROLLBACK")
                raise
            return result

        return await self._run(transaction)

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
        announce: Outbox | None = None,
        clock_settings: ClockSettings | None = None,
        rematch_of: int | None = None,
    ) -> GameRow:
        """Inserts a game in the lobby with its clock, and its creator in seat 0 when ``creator_name`` is given.

        All happens in one transaction, with ``announce`` if given. Raises ChannelTaken
        when the channel already has a game.
        """
        stamp = now()

        def work(db: sqlite3.Connection) -> int:
            cur = db.execute(
                "INSERT INTO games (guild_id, channel_id, game, status, creator_id, options,"
                " created_at, updated_at, rematch_of) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?)",
                (guild_id, channel_id, game, creator_id, json.dumps(options), stamp, stamp, rematch_of),
            )
            game_id = int(cur.lastrowid or 0)
            if creator_name is not None:
                db.execute(
                    "INSERT INTO seats (game_id, seat, player_id, name) VALUES (?, 0, ?, ?)",
                    (game_id, creator_id, creator_name),
                )
            clock.insert(db, game_id, clock_settings or ClockSettings())
            _insert_outbox(db, game_id, announce)
            return game_id

        try:
            game_id = await self._write(work)
        except sqlite3.IntegrityError as err:
            raise ChannelTaken(f"channel {channel_id} already has an active game") from err
        row = await self.game(game_id)
        assert row is not None
        return row

    async def game(self, game_id: int, *, snapshot: bool = True) -> GameRow | None:
        """Returns the game with this id, or None (without its snapshot unless ``snapshot``)."""
        columns = "*" if snapshot else _HEAD
        return await self._one(f"SELECT {columns} FROM games WHERE id = ?", (game_id,))

    async def active_game(self, channel_id: str, *, snapshot: bool = True) -> GameRow | None:
        """Returns the channel's game in the lobby or running, or None."""
        columns = "*" if snapshot else _HEAD
        return await self._one(
            f"SELECT {columns} FROM games WHERE channel_id = ? AND status IN ('lobby', 'running')", (channel_id,)
        )

    async def latest_game(self, channel_id: str, *, snapshot: bool = True) -> GameRow | None:
        """Returns the channel's active game, else its most recent one, or None."""
        columns = "*" if snapshot else _HEAD
        return await self._one(
            f"SELECT {columns} FROM games WHERE channel_id = ?"
            " ORDER BY status IN ('lobby', 'running') DESC, id DESC LIMIT 1",
            (channel_id,),
        )

    async def _one(self, query: str, params: tuple[Any, ...]) -> GameRow | None:
        row = await self._run(lambda db: db.execute(query, params).fetchone())
        return _game_row(row) if row else None

    async def running_games(self) -> list[GameRow]:
        """Returns every running game (without snapshots)."""
        rows = await self._run(
            lambda db: db.execute(f"SELECT {_HEAD} FROM games WHERE status = 'running' ORDER BY id").fetchall()
        )
        return [_game_row(r) for r in rows]

    async def games_of(self, player_id: str) -> list[GameRow]:
        """Returns the games in a lobby or running where a player is seated (without snapshots)."""
        rows = await self._run(
            lambda db: db.execute(
                f"SELECT {_HEAD} FROM games WHERE status IN ('lobby', 'running')"
                " AND id IN (SELECT game_id FROM seats WHERE player_id = ?) ORDER BY updated_at DESC",
                (player_id,),
            ).fetchall()
        )
        return [_game_row(r) for r in rows]

    async def past_games(self, channel_id: str, *, limit: int = 10) -> list[GameRow]:
        """Returns a channel's finished and aborted games, the newest first (without snapshots)."""
        rows = await self._run(
            lambda db: db.execute(
                f"SELECT {_HEAD} FROM games WHERE channel_id = ? AND status IN ('finished', 'aborted')"
                " ORDER BY id DESC LIMIT ?",
                (channel_id, limit),
            ).fetchall()
        )
        return [_game_row(r) for r in rows]

    async def start_game(
        self,
        game_id: int,
        *,
        seed: int,
        snapshot: str,
        announce: Outbox | None = None,
        clock_at: float | None = None,
        salt: str | None = None,
    ) -> None:
        """Moves a lobby game to running with its seed, its dice salt and first snapshot; its clock starts."""

        def work(db: sqlite3.Connection) -> None:
            cur = db.execute(
                "UPDATE games SET status = 'running', seed = ?, salt = ?, snapshot = ?, version = 0, updated_at = ?"
                " WHERE id = ? AND status = 'lobby'",
                (seed, salt, snapshot, now(), game_id),
            )
            if cur.rowcount != 1:
                raise StaleVersion(f"game {game_id} is no longer in its lobby")
            if clock_at is not None:
                clock.restart(db, game_id, 0, clock_at)
            _insert_outbox(db, game_id, announce)

        await self._write(work)

    async def set_status(
        self, game_id: int, status: Status, *, expect: tuple[Status, ...] = ACTIVE, announce: Outbox | None = None
    ) -> None:
        """Sets a game's status when it is one of ``expect``; raises StaleVersion otherwise."""

        def work(db: sqlite3.Connection) -> None:
            marks = ", ".join("?" for _ in expect)
            cur = db.execute(
                f"UPDATE games SET status = ?, updated_at = ? WHERE id = ? AND status IN ({marks})",
                (status.value, now(), game_id, *(s.value for s in expect)),
            )
            if cur.rowcount != 1:
                raise StaleVersion(f"game {game_id} is no longer {' or '.join(expect)}")
            if status in (Status.FINISHED, Status.ABORTED):
                clock.stop(db, game_id)
            _insert_outbox(db, game_id, announce)

        await self._write(work)

    async def mark_broken(self, game_id: int, reason: str) -> None:
        """Records why a game cannot be loaded; it stays so until aborted."""
        await self._write(
            lambda db: db.execute(
                "UPDATE games SET broken = ?, updated_at = ? WHERE id = ?", (reason, now(), game_id)
            )
        )

    async def repair(self, game_id: int, *, from_version: int, version: int, snapshot: str) -> None:
        """Rewrites a snapshot and version rebuilt from the log (the log is the truth)."""

        def work(db: sqlite3.Connection) -> None:
            cur = db.execute(
                "UPDATE games SET snapshot = ?, version = ?, updated_at = ? WHERE id = ? AND version = ?",
                (snapshot, version, now(), game_id, from_version),
            )
            if cur.rowcount != 1:
                raise StaleVersion(f"game {game_id} is not at version {from_version}")

        await self._write(work)

    # -- seats ------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[Seat]:
        """Returns the seats in seat order."""
        rows = await self._run(
            lambda db: db.execute(
                "SELECT seat, player_id, name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            ).fetchall()
        )
        return [Seat(r["seat"], r["player_id"], r["name"]) for r in rows]

    async def add_seat(self, game_id: int, player_id: str, name: str, *, announce: Outbox | None = None) -> Seat:
        """Seats a player after the last seat in a lobby; raises SeatTaken if seated or the name is taken."""

        def work(db: sqlite3.Connection) -> int:
            if db.execute("SELECT 1 FROM games WHERE id = ? AND status = 'lobby'", (game_id,)).fetchone() is None:
                raise StaleVersion(f"game {game_id} is no longer in its lobby")
            seat = int(
                db.execute("SELECT COALESCE(MAX(seat), -1) + 1 FROM seats WHERE game_id = ?", (game_id,)).fetchone()[0]
            )
            db.execute(
                "INSERT INTO seats (game_id, seat, player_id, name) VALUES (?, ?, ?, ?)",
                (game_id, seat, player_id, name),
            )
            _insert_outbox(db, game_id, announce)
            return seat

        try:
            seat = await self._write(work)
        except sqlite3.IntegrityError as err:
            raise SeatTaken(f"{player_id} or {name!r} is already seated in game {game_id}") from err
        return Seat(seat, player_id, name)

    async def remove_seat(self, game_id: int, player_id: str, *, announce: Outbox | None = None) -> int | None:
        """Removes a player's seat and returns how many seats are left (None: they had none).

        A lobby left empty is aborted in the same transaction.
        """

        def work(db: sqlite3.Connection) -> int | None:
            cur = db.execute("DELETE FROM seats WHERE game_id = ? AND player_id = ?", (game_id, player_id))
            if cur.rowcount != 1:
                return None
            left = int(db.execute("SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,)).fetchone()[0])
            if left == 0:
                db.execute(
                    "UPDATE games SET status = 'aborted', updated_at = ? WHERE id = ? AND status = 'lobby'",
                    (now(), game_id),
                )
            _insert_outbox(db, game_id, announce)
            return left

        return await self._write(work)

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
        announce: Outbox | None = None,
        clock_at: float | None = None,
        record: tuple[str, str] | None = None,
        winners: list[str] | None = None,
    ) -> int:
        """Writes one move: log row, snapshot, version bump, clock and announcement, atomically.

        Returns the new version. Raises StaleVersion when the game moved on since
        ``expected_version`` (or its log is ahead of it), and DuplicateInteraction
        when the interaction id is already logged; in every case nothing is written.
        ``clock_at`` restarts the game's clock windows then (None leaves the clock alone);
        ``record`` is what the move announced and the digest of the state it left (events JSON,
        digest), ``winners`` the result of a move that finished the game.
        """
        return await self.commit_moves(
            game_id, expected_version=expected_version, player_id=player_id, moves=[move], snapshot=snapshot,
            interaction_id=interaction_id, finished=finished, announce=announce, clock_at=clock_at,
            records=[record] if record else None, winners=winners,
        )

    async def commit_moves(
        self,
        game_id: int,
        *,
        expected_version: int,
        player_id: str,
        moves: list[str],
        snapshot: str,
        finished: bool,
        interaction_id: str | None = None,
        announce: Outbox | None = None,
        clock_at: float | None = None,
        timed_out: bool = False,
        records: list[tuple[str, str]] | None = None,
        winners: list[str] | None = None,
    ) -> int:
        """Writes moves of one player in a row, as :meth:`commit_move` writes one.

        ``timed_out`` marks them as the turn clock's (``origin`` = ``clock``) and claims the
        clock's timeout for ``expected_version`` in the same transaction: when it was
        claimed already (handled once, by another start or process) StaleVersion is raised
        and nothing is written.
        """
        new_version = expected_version + len(moves)
        stamp = now()
        status = Status.FINISHED if finished else Status.RUNNING
        origin = "clock" if timed_out else None

        def work(db: sqlite3.Connection) -> None:
            if timed_out and not clock.claim(db, game_id, expected_version, clock.TIMED_OUT):
                raise StaleVersion(f"game {game_id}'s timeout at version {expected_version} is handled")
            cur = db.execute(
                "UPDATE games SET snapshot = ?, version = ?, status = ?, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'running'",
                (snapshot, new_version, status.value, stamp, game_id, expected_version),
            )
            if cur.rowcount != 1:
                raise StaleVersion(f"game {game_id} is not at version {expected_version}")
            blank: list[tuple[str | None, str | None]] = [(None, None)] * len(moves)
            kept: list[tuple[str | None, str | None]] = list(records) if records else blank
            db.executemany(
                "INSERT INTO moves (game_id, seq, player_id, move, at, interaction_id, origin, events, digest)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(game_id, expected_version + n, player_id, move, stamp, interaction_id if n == 1 else None, origin,
                  *kept[n - 1]) for n, move in enumerate(moves, 1)],
            )
            if finished:
                clock.stop(db, game_id)
                db.execute("UPDATE games SET winners = ? WHERE id = ?", (json.dumps(winners or []), game_id))
            elif clock_at is not None:
                clock.restart(db, game_id, new_version, clock_at)
            _insert_outbox(db, game_id, announce)

        try:
            await self._write(work)
        except sqlite3.IntegrityError as err:
            if "interaction_id" in str(err):
                raise DuplicateInteraction(f"interaction {interaction_id} is already logged") from err
            if "moves.game_id, moves.seq" in str(err):
                raise StaleVersion(f"game {game_id}'s log is ahead of its version {expected_version}") from err
            raise
        return new_version

    async def moves(self, game_id: int, *, last: int | None = None) -> list[MoveRow]:
        """Returns the log in order; ``last`` keeps only the most recent moves."""
        query = "SELECT seq, player_id, move, at, interaction_id, origin, events, digest FROM moves WHERE game_id = ?"
        if last is not None:
            query = f"SELECT * FROM ({query} ORDER BY seq DESC LIMIT {int(last)})"
        rows = await self._run(lambda db: db.execute(query + " ORDER BY seq", (game_id,)).fetchall())
        return [_move_row(r) for r in rows]

    async def last_seq(self, game_id: int) -> int:
        """Returns the number of the last logged move (0 when none)."""
        return await self._run(
            lambda db: int(
                db.execute("SELECT COALESCE(MAX(seq), 0) FROM moves WHERE game_id = ?", (game_id,)).fetchone()[0]
            )
        )

    async def move_by_interaction(self, interaction_id: str) -> tuple[int, MoveRow] | None:
        """Returns (game id, move) logged under an interaction id, or None."""
        r = await self._run(
            lambda db: db.execute(
                "SELECT game_id, seq, player_id, move, at, interaction_id, origin FROM moves WHERE interaction_id = ?",
                (interaction_id,),
            ).fetchone()
        )
        return (r["game_id"], _move_row(r)) if r else None

    # -- the outbox -------------------------------------------------------------------

    async def pending(
        self, *, channel_id: str | None = None, before: int | None = None, older_than: float | None = None
    ) -> list[Outbox]:
        """Returns the announcements not yet delivered, oldest first.

        ``channel_id`` keeps one channel's, ``before`` those with a smaller id, and
        ``older_than`` those written at least that many seconds ago.
        """
        query = "SELECT id, game_id, channel_id, payload, receipt FROM outbox WHERE delivered_at IS NULL"
        params: list[Any] = []
        if older_than is not None:
            query += " AND created_at <= ?"
            params.append((datetime.now(UTC) - timedelta(seconds=older_than)).isoformat(timespec="seconds"))
        if channel_id is not None:
            query += " AND channel_id = ?"
            params.append(channel_id)
        if before is not None:
            query += " AND id < ?"
            params.append(before)
        rows = await self._run(lambda db: db.execute(query + " ORDER BY id", params).fetchall())
        found = []
        for r in rows:
            try:
                out = Outbox.from_json(r["payload"] or "{}", game_id=r["game_id"], channel_id=r["channel_id"])
            except (ValueError, TypeError, KeyError, RecursionError):
                log.error("outbox %s of game %s cannot be read; it is skipped", r["id"], r["game_id"])
                await self.delivered(r["id"], {"unreadable": True})
                continue
            out.id, out.receipt = r["id"], json.loads(r["receipt"] or "{}")
            found.append(out)
        return found

    async def is_delivered(self, outbox_id: int) -> bool:
        """Returns whether an announcement is marked delivered (an unknown id counts as delivered)."""
        row = await self._run(
            lambda db: db.execute("SELECT delivered_at FROM outbox WHERE id = ?", (outbox_id,)).fetchone()
        )
        return row is None or row["delivered_at"] is not None

    async def save_receipt(self, outbox_id: int, receipt: dict[str, Any]) -> None:
        """Records what part of an announcement was delivered (message ids), so a retry does not repeat it."""
        text = json.dumps(receipt)
        await self._write(lambda db: db.execute("UPDATE outbox SET receipt = ? WHERE id = ?", (text, outbox_id)))

    async def delivered(self, outbox_id: int, receipt: dict[str, Any]) -> None:
        """Marks an announcement delivered with its message ids and drops its payload (it holds hands)."""
        text, stamp = json.dumps(receipt), now()
        await self._write(
            lambda db: db.execute(
                "UPDATE outbox SET receipt = ?, payload = NULL, delivered_at = ? WHERE id = ?",
                (text, stamp, outbox_id),
            )
        )


    # -- live boards and hand messages ----------------------------------------------

    async def board(self, game_id: int) -> Board | None:
        """Returns the game's live board, or None before its first."""
        row = await self._run(
            lambda db: db.execute("SELECT message_id, actors, recap FROM boards WHERE game_id = ?", (game_id,))
            .fetchone()
        )
        if row is None:
            return None
        try:
            actors, recap = json.loads(row["actors"]), json.loads(row["recap"])
        except ValueError:
            return None  # damaged: the next move posts a new board
        return Board(row["message_id"], tuple(map(str, actors)), tuple(map(str, recap)))

    async def set_board(self, game_id: int, board: Board) -> None:
        """Records the game's live board."""
        actors, recap, stamp = json.dumps(list(board.actors)), json.dumps(list(board.recap)), now()
        await self._write(
            lambda db: db.execute(
                "INSERT INTO boards (game_id, message_id, actors, recap, updated_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET message_id = excluded.message_id, actors = excluded.actors,"
                " recap = excluded.recap, updated_at = excluded.updated_at",
                (game_id, board.message_id, actors, recap, stamp),
            )
        )

    async def hand_message(self, game_id: int, player_id: str) -> tuple[str, str] | None:
        """Returns (DM channel id, message id) of a player's hand message in a game, or None."""
        row = await self._run(
            lambda db: db.execute(
                "SELECT channel_id, message_id FROM hands WHERE game_id = ? AND player_id = ?", (game_id, player_id)
            ).fetchone()
        )
        return (row["channel_id"], row["message_id"]) if row else None

    async def set_hand_message(self, game_id: int, player_id: str, channel_id: str, message_id: str) -> None:
        """Records a player's hand message in a game."""
        await self._write(
            lambda db: db.execute(
                "INSERT INTO hands (game_id, player_id, channel_id, message_id) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, player_id) DO UPDATE SET channel_id = excluded.channel_id,"
                " message_id = excluded.message_id",
                (game_id, player_id, channel_id, message_id),
            )
        )


def _storage_error(path: str, err: sqlite3.Error) -> StorageUnavailable:
    code = getattr(err, "sqlite_errorcode", sqlite3.SQLITE_CANTOPEN) & 0xFF
    return StorageUnavailable(path, _STORAGE_REASONS.get(code, "the bot's storage failed"), str(err))

