"""The PostgreSQL backend (asyncpg): a pool, each transaction a shielded task of its own.

See :mod:`host.db` for the guarantees both backends give.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from host.db_base import Conflict, Database, Migration, Row, Step, StorageUnavailable, StoreError, T, Tx, retrieve

log = logging.getLogger("host.db")


# -- PostgreSQL -----------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"\?")
NO_GRANTS = ("on PostgreSQL 15 and later, as the database's owner: GRANT CREATE, USAGE ON SCHEMA public TO"
             " the bot's user, or make it the database's owner; see the README, Operating")
"""What a missing privilege's sentence tells the admin to do (``GRANT ALL ON DATABASE`` is not enough since 15)."""


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

    async def notify(self, channel: str) -> None:
        await self.execute("SELECT pg_notify(?, '')", channel)


class PostgresDatabase(Database):
    """A PostgreSQL database shared by several processes, through a pool of asyncpg connections."""

    dialect = "postgres"
    shared = True
    RETRIES = 3
    """Times a transaction is run again after a deadlock or serialisation failure (nothing was committed)."""

    def __init__(self, pool: Any, dsn: str) -> None:
        self._pool = pool
        self._dsn = dsn
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
        except asyncpg.TooManyConnectionsError as err:  # before its parent, InsufficientResourcesError
            raise self._down("the bot's database has no free connections", err) from err
        except (asyncpg.DiskFullError, asyncpg.InsufficientResourcesError) as err:
            raise self._down("the bot's database is full", err) from err
        except asyncpg.ReadOnlySQLTransactionError as err:
            raise self._down("the bot's database is read-only", err) from err
        except asyncpg.InsufficientPrivilegeError as err:
            raise self._down(f"the bot's database user may not do this ({NO_GRANTS})", err) from err
        except (TimeoutError, asyncpg.QueryCanceledError) as err:
            raise self._down("the bot's database did not answer in time", err) from err
        except (OSError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError,
                asyncpg.OperatorInterventionError) as err:
            raise self._down("the bot's database cannot be reached", err) from err

    def _down(self, reason: str, err: BaseException) -> StorageUnavailable:
        failure = StorageUnavailable(self.name, reason, _pg_detail(err))
        log.error("storage failure: %s", failure)
        return failure

    async def listen(self, channel: str, wake: Callable[[], None]) -> Callable[[], Coroutine[Any, Any, None]]:
        """Listens on a connection of its own (kept out of the pool), connected again if it drops."""
        import asyncpg

        def heard(*_: Any) -> None:
            wake()

        async def hold() -> None:
            wait = 0.5
            while True:
                try:
                    conn = await asyncpg.connect(self._dsn, timeout=10)
                except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as err:
                    log.info("listening on %s: cannot connect yet (%s); again in %.0f s", channel, _pg_detail(err),
                             wait)
                    await asyncio.sleep(wait)
                    wait = min(wait * 2, 15.0)
                    continue
                wait = 0.5
                try:
                    await conn.add_listener(channel, heard)
                    wake()  # what was notified while not listening is looked at now
                    while not conn.is_closed():
                        await asyncio.sleep(1.0)
                finally:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(conn.close(), 5)

        task = asyncio.create_task(hold(), name=f"listen-{channel}")

        async def stop() -> None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

        return stop

    async def read(self, step: Step[T]) -> T:
        async with self._connection() as conn:
            return await step(_PgTx(self, conn))

    @contextlib.asynccontextmanager
    async def _connection(self) -> Any:
        conn = await self.call(self._pool.acquire())
        try:
            yield conn
        finally:
            try:
                await self._pool.release(conn)
            except Exception as err:  # a connection the server dropped: the pool opens another next time
                log.info("a broken connection was released (%s)", _pg_detail(err))

    async def write(self, step: Step[T]) -> T:
        """Runs the transaction as a task of its own, which a cancelled caller leaves to finish."""
        task = asyncio.ensure_future(self._transaction(step))
        task.add_done_callback(retrieve)
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
