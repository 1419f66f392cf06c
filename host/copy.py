"""Copies a whole store into an empty one: SQLite to PostgreSQL when one process is outgrown (or back).

    python bot.py --copy-db tablehost.db postgresql://tablehost:…@db.example/tablehost

Both stores are opened (and so migrated) to this bot's schema; the target must hold no game
yet. Every table is copied in one transaction of the target, so a copy that fails leaves the
target as empty as it was. Delivery claims (``deliveries``) belong to the running processes
and are not copied. Stop the bot before copying, and start it on the target afterwards.
"""

from __future__ import annotations

import logging

from host.db import Row, Tx
from host.store import Store, StoreError

log = logging.getLogger(__name__)

TABLES = (
    "games", "seats", "moves", "outbox", "boards", "hands", "clocks", "players", "spectators", "mirrors",
    "rematch_votes", "ratings", "rated",
)
"""Every table of the schema but the delivery claims, parents before the rows that refer to them."""
IDENTITIES = ("games", "outbox")
"""Tables whose ``id`` the database numbers: PostgreSQL's counters are moved past the copied ids."""
BATCH = 1000


class NotEmpty(StoreError):
    """The target store already holds games: a copy would mix two histories."""


async def copy_store(source: Store, target: Store) -> dict[str, int]:
    """Copies every row of ``source`` into the empty ``target``; returns how many rows each table had.

    Raises NotEmpty when the target has a game, StoreError when the two schemas differ.
    """
    if await source.schema_version() != await target.schema_version():
        raise StoreError(f"{source.path} and {target.path} have different schema versions")
    async def read(tx: Tx) -> dict[str, list[Row]]:
        found = {}
        for table in TABLES:
            order = "rowid" if tx.dialect == "sqlite" or table == "spectators" else "1"
            found[table] = await tx.fetch(f"SELECT * FROM {table} ORDER BY {order}")
        return found

    tables = await source.db.read(read)

    async def work(tx: Tx) -> None:
        if await tx.fetchval("SELECT COUNT(*) FROM games"):
            raise NotEmpty(f"{target.path} already has games: copy into an empty database")
        for table, rows in tables.items():
            if not rows:
                continue
            columns = list(rows[0].keys())
            marks = ", ".join("?" for _ in columns)
            sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
            for start in range(0, len(rows), BATCH):
                await tx.executemany(sql, [tuple(r) for r in rows[start:start + BATCH]])
        if tx.dialect == "postgres":
            for table in (*IDENTITIES, "spectators"):
                column = "rowid" if table == "spectators" else "id"
                await tx.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                    f" COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)"
                )

    await target.db.write(work)
    counts = {table: len(rows) for table, rows in tables.items()}
    log.info("copied %s into %s: %s", source.path, target.path, counts)
    return counts
