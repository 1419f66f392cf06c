"""The database under the store: one small interface, on SQLite (aiosqlite) or PostgreSQL (asyncpg).

The store and its siblings (clocks, spectators, rematches, ratings) write their queries
once, with ``?`` placeholders, as ``async`` functions of a :class:`Tx`; a :class:`Database`
runs them. :func:`open_database` picks the backend from ``TABLEHOST_DB``: a file path (or
``:memory:``) is SQLite, ``postgresql://…`` is PostgreSQL.

    >>> import asyncio
    >>> async def demo() -> list[int]:
    ...     db = await open_database(":memory:")
    ...     await db.write(lambda tx: tx.execute("CREATE TABLE t (n INTEGER)"))
    ...     await db.write(lambda tx: tx.executemany("INSERT INTO t (n) VALUES (?)", [(1,), (2,)]))
    ...     rows = await db.read(lambda tx: tx.fetch("SELECT n FROM t ORDER BY n"))
    ...     await db.close()
    ...     return [r["n"] for r in rows]
    >>> asyncio.run(demo())
    [1, 2]

Both backends give the same guarantees:

- :meth:`Database.write` is one transaction: all of it is committed, or none. A caller
  cancelled at any await leaves the transaction to finish (or roll back) whole (on
  SQLite's thread, or as a task of its own on PostgreSQL), and the database stays usable.
- A unique or foreign-key violation is :class:`Conflict`, whose text names the columns
  or the constraint; a storage that cannot be written or reached is
  :class:`StorageUnavailable`, one sentence for players and the details for the admin.
- Nothing here logs a statement or its parameters: snapshots and outboxes hold every hand.

SQLite has one writer: a connection whose own thread runs each read and each whole
transaction (``BEGIN IMMEDIATE`` … ``COMMIT``) as one function, steps included (they await
nothing but statements, which on SQLite never suspend). PostgreSQL has a pool; its
transactions run at READ COMMITTED, where a conditional ``UPDATE … WHERE version = ?``
re-checks its condition after waiting for a concurrent writer, so the version checks
hold across processes. :attr:`Tx.for_update` and :attr:`Tx.skip_locked` are the row-lock
clauses for queries that read before they write (empty on SQLite, which needs none).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import sqlite3
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any, Protocol, TypeVar, cast
from urllib.parse import urlsplit, urlunsplit

import aiosqlite

log = logging.getLogger(__name__)

# aiosqlite logs each call with its arguments at DEBUG: whole snapshots, every hand.
logging.getLogger("aiosqlite").setLevel(logging.WARNING)

T = TypeVar("T")


class StoreError(Exception):
    """The store could not do what was asked (a bug or a concurrent writer, not a player error)."""


class Conflict(StoreError):
    """A unique or foreign-key constraint refused a write; the text names its columns or constraint."""


class StorageUnavailable(StoreError):
    """The database cannot be written or reached (disk full, read-only, locked, down): nothing was changed.

    ``reason`` is a short phrase for players ("the bot's storage is full");
    ``str(error)`` names the file or server and the database's message, for the admin's log.
    """

    def __init__(self, path: str, reason: str, detail: str) -> None:
        super().__init__(f"{path}: {reason} ({detail})")
        self.path = path
        self.reason = reason


class Row(Protocol):
    """A result row: by column name or position (``sqlite3.Row`` and ``asyncpg.Record`` both are)."""

    def __getitem__(self, key: str | int, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def keys(self) -> Any: ...


class Tx(Protocol):
    """What a step of the store may do inside :meth:`Database.read` or :meth:`Database.write`."""

    dialect: str
    """``sqlite`` or ``postgres``."""
    for_update: str
    """`` FOR UPDATE`` on PostgreSQL (lock the rows read until the commit), empty on SQLite."""
    skip_locked: str
    """`` FOR UPDATE SKIP LOCKED`` on PostgreSQL (pass over rows another transaction holds), empty on SQLite."""

    async def execute(self, sql: str, *args: Any) -> int:
        """Runs one statement; returns the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Runs one statement once per row of parameters."""
        ...

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        """Returns every row of a query."""
        ...

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        """Returns the first row of a query, or None."""
        ...

    async def fetchval(self, sql: str, *args: Any) -> Any:
        """Returns the first column of the first row of a query, or None."""
        ...

    async def lock(self, key: int) -> None:
        """Holds the lock ``key`` until the transaction ends: others taking it wait (a no-op on SQLite)."""
        ...


Step = Callable[[Tx], Coroutine[Any, Any, T]]
"""A step of the store: an ``async`` function of a transaction that awaits only its statements."""


class Migration(Protocol):
    """One schema version: its script in each dialect."""

    @property
    def sqlite(self) -> str: ...

    @property
    def postgres(self) -> str: ...


class Database:
    """An open database; see the module's docstring. Subclasses are the backends."""

    dialect: str
    shared: bool
    """True when several processes may use this database at once (PostgreSQL)."""
    name: str
    """The file, or the server and database without its password: for errors and logs."""

    async def read(self, step: Step[T]) -> T:
        """Runs ``step`` outside a transaction (it sees only committed data) and returns its result."""
        raise NotImplementedError

    async def write(self, step: Step[T]) -> T:
        """Runs ``step`` as one transaction, shielded from the caller's cancellation; returns its result.

        ``step`` may raise to refuse (StaleVersion, say): the transaction rolls back.
        """
        raise NotImplementedError

    async def settled(self) -> None:
        """Waits until every transaction begun so far has committed or rolled back."""
        raise NotImplementedError

    async def schema_version(self) -> int:
        """Returns the version of the schema (0 for a new database)."""
        raise NotImplementedError

    async def migrate(self, migrations: Sequence[Migration]) -> None:
        """Runs the migrations the database lacks, each in its own transaction; refuses a newer schema."""
        raise NotImplementedError

    async def close(self) -> None:
        """Waits for the transactions under way, then closes; every committed change is durable."""
        raise NotImplementedError

    def _newer(self, current: int, known: int) -> StoreError:
        return StoreError(f"{self.name} has schema version {current}, newer than this bot ({known}).")


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Reads a shielded transaction's outcome, so one whose caller left logs no "never retrieved"."""
    if not task.cancelled():
        task.exception()


async def open_database(target: str, **options: Any) -> Database:
    """Opens the database ``target`` names: ``postgresql://…`` (or ``postgres://…``), else a SQLite file.

    Raises StorageUnavailable when it cannot be opened, written or reached.
    """
    if target.startswith(("postgresql://", "postgres://")):
        return await PostgresDatabase.open(target, **options)
    return await SqliteDatabase.open(target)


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


# -- PostgreSQL -----------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"\?")


@lru_cache(maxsize=512)
def to_dollars(sql: str) -> str:
    """Returns ``sql`` with its ``?`` placeholders numbered as PostgreSQL's ``$1, $2…``.

    >>> to_dollars("UPDATE games SET version = ? WHERE id = ? AND version = ?")
    'UPDATE games SET version = $1 WHERE id = $2 AND version = $3'
    """
    n = 0

    def number(_: re.Match[str]) -> str:
        nonlocal n
        n += 1
        return f"${n}"

    return _PLACEHOLDER.sub(number, sql)


def redacted(dsn: str) -> str:
    """Returns a connection string without its password, for messages.

    >>> redacted("postgresql://bot:secret@db.example:5432/tablehost")
    'postgresql://bot@db.example:5432/tablehost'
    """
    parts = urlsplit(dsn)
    if parts.password is None:
        return dsn
    host = parts.hostname or ""
    netloc = f"{parts.username}@{host}" if parts.username else host
    if parts.port:
        netloc += f":{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


class _PgTx:
    """Statements on one pooled connection."""

    dialect = "postgres"
    for_update = " FOR UPDATE"
    skip_locked = " FOR UPDATE SKIP LOCKED"

    def __init__(self, db: PostgresDatabase, conn: Any) -> None:
        self._db, self._conn = db, conn

    async def execute(self, sql: str, *args: Any) -> int:
        status = await self._db.call(self._conn.execute(to_dollars(sql), *args))
        tail = str(status).rsplit(" ", 1)[-1]
        return int(tail) if tail.isdigit() else 0

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = [tuple(r) for r in rows]
        if batch:
            await self._db.call(self._conn.executemany(to_dollars(sql), batch))

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return list(await self._db.call(self._conn.fetch(to_dollars(sql), *args)))

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        row: Row | None = await self._db.call(self._conn.fetchrow(to_dollars(sql), *args))
        return row

    async def fetchval(self, sql: str, *args: Any) -> Any:
        return await self._db.call(self._conn.fetchval(to_dollars(sql), *args))

    async def lock(self, key: int) -> None:
        await self.execute("SELECT pg_advisory_xact_lock(?)", key)


class PostgresDatabase(Database):
    """A PostgreSQL database shared by several processes, through a pool of asyncpg connections."""

    dialect = "postgres"
    shared = True
    RETRIES = 3
    """Times a transaction is run again after a deadlock or serialisation failure (nothing was committed)."""

    def __init__(self, pool: Any, dsn: str) -> None:
        self._pool = pool
        self.name = redacted(dsn)
        self._writing: set[asyncio.Future[Any]] = set()
        """The transactions under way (their callers may have left)."""

    @classmethod
    async def open(cls, dsn: str, *, min_size: int = 1, max_size: int = 10, timeout: float = 10.0) -> PostgresDatabase:
        """Connects a pool to ``dsn``; raises StorageUnavailable when the server cannot be reached."""
        import asyncpg  # only a PostgreSQL deployment needs it loaded

        try:
            pool = await asyncpg.create_pool(dsn, min_size=min_size, max_size=max_size, timeout=timeout,
                                             command_timeout=60)
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as err:
            raise StorageUnavailable(redacted(dsn), "the bot's database cannot be reached",
                                     _pg_detail(err)) from err
        return cls(pool, dsn)

    async def call(self, pending: Awaitable[T]) -> T:
        """Awaits one asyncpg call; maps its errors to Conflict and StorageUnavailable."""
        import asyncpg

        try:
            return await pending
        except asyncpg.IntegrityConstraintViolationError as err:
            raise Conflict(f"{getattr(err, 'constraint_name', '')}: {err}") from err
        except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError):
            raise
        except asyncpg.DataError as err:  # e.g. a NUL character, which PostgreSQL's text cannot hold
            raise StoreError(f"{self.name}: a value could not be stored ({type(err).__name__})") from err
        except (asyncpg.DiskFullError, asyncpg.InsufficientResourcesError) as err:
            raise self._down("the bot's database is full", err) from err
        except asyncpg.ReadOnlySQLTransactionError as err:
            raise self._down("the bot's database is read-only", err) from err
        except (TimeoutError, OSError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError,
                asyncpg.OperatorInterventionError) as err:
            raise self._down("the bot's database cannot be reached", err) from err

    def _down(self, reason: str, err: BaseException) -> StorageUnavailable:
        failure = StorageUnavailable(self.name, reason, _pg_detail(err))
        log.error("storage failure: %s", failure)
        return failure

    async def read(self, step: Step[T]) -> T:
        async with self._connection() as conn:
            return await step(_PgTx(self, conn))

    @contextlib.asynccontextmanager
    async def _connection(self) -> Any:
        conn = await self.call(self._pool.acquire())
        try:
            yield conn
        finally:
            await self._pool.release(conn)

    async def write(self, step: Step[T]) -> T:
        """Runs the transaction as a task of its own, which a cancelled caller leaves to finish."""
        task = asyncio.ensure_future(self._transaction(step))
        task.add_done_callback(_retrieve)
        self._writing.add(task)
        task.add_done_callback(self._writing.discard)
        return await asyncio.shield(task)

    async def settled(self) -> None:
        while self._writing:
            await asyncio.gather(*self._writing, return_exceptions=True)

    async def _transaction(self, step: Step[T]) -> T:
        import asyncpg

        for attempt in range(1, self.RETRIES + 1):
            try:
                async with self._connection() as conn:
                    transaction = conn.transaction()
                    await self.call(transaction.start())
                    try:
                        result = await step(_PgTx(self, conn))
                    except BaseException:
                        with contextlib.suppress(Exception):
                            await transaction.rollback()
                        raise
                    await self.call(transaction.commit())
                    return result
            except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError) as err:
                if attempt == self.RETRIES:
                    raise StoreError(f"{self.name}: a transaction kept colliding with others ({err})") from err
        raise AssertionError("unreachable")

    async def schema_version(self) -> int:
        async def step(tx: Tx) -> int:
            await tx.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            return int(await tx.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version") or 0)

        return await self.write(step)

    async def migrate(self, migrations: Sequence[Migration]) -> None:
        """Runs the missing migrations in one transaction (PostgreSQL's DDL is transactional), under an
        advisory lock, so processes that start together migrate one at a time and the later ones find
        nothing left to do."""

        async def step(tx: Tx) -> None:
            await tx.lock(MIGRATION_LOCK)
            await tx.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = int(await tx.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version") or 0)
            if current > len(migrations):
                raise self._newer(current, len(migrations))
            for version in range(current + 1, len(migrations) + 1):
                await tx.execute(migrations[version - 1].postgres)  # one simple-query call: many statements
                await tx.execute("DELETE FROM schema_version")
                await tx.execute("INSERT INTO schema_version (version) VALUES (?)", version)

        await self.write(step)

    async def close(self) -> None:
        await self.settled()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._pool.close(), 10)


MIGRATION_LOCK = 0x7AB1E405
"""The advisory lock PostgreSQL processes hold while migrating."""


def _pg_detail(err: BaseException) -> str:
    return f"{type(err).__name__}: {err}".strip().rstrip(":")
