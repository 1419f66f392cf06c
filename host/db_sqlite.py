"""The SQLite backend (aiosqlite): one connection whose own thread runs each read and whole transaction.

See :mod:`host.db` for the guarantees both backends give.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Coroutine, Iterable, Sequence
from typing import Any, cast

import aiosqlite

from host.db_base import Conflict, Database, Migration, Row, Step, StorageUnavailable, T, Tx

log = logging.getLogger("host.db")

# aiosqlite logs each call with its arguments at DEBUG: whole snapshots, every hand.
logging.getLogger("aiosqlite").setLevel(logging.WARNING)


# -- SQLite ---------------------------------------------------------------------------

# SQLite's primary result codes that mean "the storage, not the request, is at fault".
_SQLITE_REASONS = {
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


def _sqlite_error(path: str, err: sqlite3.Error) -> StorageUnavailable:
    code = getattr(err, "sqlite_errorcode", sqlite3.SQLITE_CANTOPEN) & 0xFF
    return StorageUnavailable(path, _SQLITE_REASONS.get(code, "the bot's storage failed"), str(err))


class _SqliteTx:
    """Statements on the sqlite3 connection, run where the step runs: on the connection's own thread.

    Each method completes without suspending, so a whole step is driven to its end there in
    one go (:func:`_drive`).
    """

    dialect = "sqlite"
    for_update = ""
    skip_locked = ""

    def __init__(self, db: SqliteDatabase, conn: sqlite3.Connection) -> None:
        self._db, self._conn = db, conn

    async def execute(self, sql: str, *args: Any) -> int:
        return self._db.run(lambda: self._conn.execute(sql, args).rowcount)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = [tuple(r) for r in rows]
        self._db.run(lambda: self._conn.executemany(sql, batch))

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return self._db.run(lambda: self._conn.execute(sql, args).fetchall())

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        return self._db.run(lambda: self._conn.execute(sql, args).fetchone())

    async def fetchval(self, sql: str, *args: Any) -> Any:
        row = await self.fetchrow(sql, *args)
        return None if row is None else row[0]

    async def lock(self, key: int) -> None:
        """Nothing to do: a SQLite transaction already has the database to itself."""

    async def notify(self, channel: str) -> None:
        """Nothing to do: one process uses the file, and tells itself in memory."""


def _patiently(statement: Callable[[], object], within: float = 5.0) -> None:
    """Runs a statement that SQLite may refuse as busy without waiting (switching a new file to WAL while
    another connection opens it), again until it passes or ``within`` seconds are up."""
    deadline = time.monotonic() + within
    while True:
        try:
            statement()
            return
        except sqlite3.OperationalError as err:
            if getattr(err, "sqlite_errorcode", 0) & 0xFF != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _drive(step: Coroutine[Any, Any, T]) -> T:
    """Runs a step whose only awaits are SQLite statements (which never suspend) to its end, here and now."""
    try:
        step.send(None)
    except StopIteration as done:
        return cast(T, done.value)
    step.close()
    raise RuntimeError("a SQLite step awaited something other than its statements")


class SqliteDatabase(Database):
    """One SQLite file in WAL mode and one connection, whose own thread (aiosqlite's) runs every step.

    A read or a whole transaction is one function handed to that thread (one hop), so two
    coroutines' steps never interleave and a read never sees uncommitted work; a caller
    cancelled at its await leaves the step to run to its end on the thread.
    """

    dialect = "sqlite"
    shared = False

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self.path = self.name = path

    @classmethod
    async def open(cls, path: str) -> SqliteDatabase:
        """Opens (or creates) the file and checks it can be written."""
        try:
            conn = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as err:
            raise _sqlite_error(path, err) from err
        conn.row_factory = sqlite3.Row
        db = cls(conn, path)
        try:
            await db.call(db._prepare)
        except BaseException:
            await conn.close()
            raise
        return db

    def _prepare(self, c: sqlite3.Connection) -> None:
        c.execute("PRAGMA foreign_keys = ON")
        c.execute("PRAGMA busy_timeout = 5000")
        if self.path != ":memory:":
            _patiently(lambda: c.execute("PRAGMA journal_mode = WAL"))
            c.execute("PRAGMA synchronous = FULL")
        c.execute("BEGIN IMMEDIATE")  # a read-only or locked file is found now, not at the first move
        c.execute("ROLLBACK")

    async def call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Runs ``fn`` on the connection's thread (one hop) and returns its result; maps SQLite's errors.

        Every step goes this way; PRAGMAs and tests' damage call it directly.

        aiosqlite's ``_execute`` is the one call that hands its thread a function; the
        function runs to its end even when the awaiting coroutine is cancelled.
        """
        conn = self._conn
        try:
            return await conn._execute(lambda: fn(conn._conn))
        except (sqlite3.Error, ValueError) as err:  # ValueError: aiosqlite's "Connection closed"
            raise self._mapped(err) from err

    def run(self, fn: Callable[[], T]) -> T:
        """Runs one statement of a step (on the connection's thread); maps SQLite's errors."""
        try:
            return fn()
        except sqlite3.Error as err:
            raise self._mapped(err) from err

    def _mapped(self, err: sqlite3.Error | ValueError) -> Exception:
        """Returns the store's error for a SQLite one (or the error itself: a bug)."""
        if isinstance(err, sqlite3.IntegrityError):
            return Conflict(str(err))
        if isinstance(err, ValueError) or (isinstance(err, sqlite3.ProgrammingError) and "closed" in str(err)):
            return StorageUnavailable(self.path, "the bot's storage is closed", str(err))
        code = getattr(err, "sqlite_errorcode", None)
        if code is not None and code & 0xFF in _SQLITE_REASONS:
            failure = _sqlite_error(self.path, err)
            log.error("storage failure: %s", failure)
            return failure
        return err

    async def read(self, step: Step[T]) -> T:
        return await self.call(lambda c: _drive(step(_SqliteTx(self, c))))

    async def write(self, step: Step[T]) -> T:
        """One hop: the transaction runs whole on the connection's thread, whatever befalls the caller."""

        def transaction(c: sqlite3.Connection) -> T:
            c.execute("BEGIN IMMEDIATE")
            try:
                result = _drive(step(_SqliteTx(self, c)))
                c.execute("COMMIT")
            except BaseException:
                if c.in_transaction:  # SQLite may have rolled back already (a full disk does)
                    c.execute("ROLLBACK")
                raise
            return result

        return await self.call(transaction)

    async def settled(self) -> None:
        """Waits for the steps handed to the thread so far (it runs them in order)."""
        await self.call(lambda c: None)

    async def schema_version(self) -> int:
        return await self.call(lambda c: int(c.execute("PRAGMA user_version").fetchone()[0]))

    async def migrate(self, migrations: Sequence[Migration]) -> None:
        current = await self.schema_version()
        if current > len(migrations):
            raise self._newer(current, len(migrations))
        for version in range(current + 1, len(migrations) + 1):
            script = migrations[version - 1].sqlite

            async def step(tx: Tx, script: str = script, version: int = version) -> None:
                if int(await tx.fetchval("PRAGMA user_version")) >= version:
                    return  # another connection migrated it meanwhile (its BEGIN IMMEDIATE came first)
                for statement in script.split(";"):
                    if statement.strip():
                        await tx.execute(statement)
                await tx.execute(f"PRAGMA user_version = {version}")

            await self.write(step)

    async def close(self) -> None:
        await self._conn.close()
