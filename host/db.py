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

from typing import Any

from host.db_base import Conflict, Database, Migration, Row, Step, StorageUnavailable, StoreError, Tx
from host.db_postgres import PostgresDatabase, redacted, to_dollars
from host.db_sqlite import SqliteDatabase

__all__ = ["Conflict", "Database", "Migration", "PostgresDatabase", "Row", "SqliteDatabase", "Step",
           "StorageUnavailable", "StoreError", "Tx", "open_database", "redacted", "to_dollars"]


async def open_database(target: str, **options: Any) -> Database:
    """Opens the database ``target`` names: ``postgresql://…`` (or ``postgres://…``), else a SQLite file.

    Raises StorageUnavailable when it cannot be opened, written or reached.
    """
    if target.startswith(("postgresql://", "postgres://")):
        return await PostgresDatabase.open(target, **options)
    return await SqliteDatabase.open(target)  # one connection: a pool size means nothing here
