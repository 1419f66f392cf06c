"""The database interface the store is written against: errors, rows, transactions, :class:`Database`.

The backends are :mod:`host.db_sqlite` and :mod:`host.db_postgres`; :mod:`host.db` opens one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

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

    async def notify(self, channel: str) -> None:
        """Tells the processes listening on ``channel`` (:meth:`Database.listen`) once the transaction commits
        (PostgreSQL's NOTIFY; a no-op on SQLite, whose one process has its own in-process signals)."""
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

    async def listen(self, channel: str, wake: Callable[[], None]) -> Callable[[], Coroutine[Any, Any, None]]:
        """Calls ``wake`` whenever a transaction that notified ``channel`` commits (in any process);
        returns the coroutine function that stops listening. The default, one process's database,
        never calls it."""

        async def stop() -> None:
            return None

        return stop

    def _newer(self, current: int, known: int) -> StoreError:
        return StoreError(f"{self.name} has schema version {current}, newer than this bot ({known}):"
                          " upgrade the bot to use it (a database is never migrated back).")


def retrieve(task: asyncio.Future[Any]) -> None:
    """Reads a shielded transaction's outcome, so one whose caller left logs no "never retrieved"."""
    if not task.cancelled():
        task.exception()
