"""The store: games, seats, move logs and the durable outbox, on SQLite or PostgreSQL (:mod:`host.db`).

The schema is versioned (SQLite's ``PRAGMA user_version``, PostgreSQL's ``schema_version``
table); :data:`MIGRATIONS` holds one script per version, in each dialect, and
:meth:`Store.open` runs the missing ones in order.

Every write is one transaction (:meth:`host.db.Database.write`): a change is there
entirely or not at all, even when its caller is cancelled at any await, and the store
stays usable. Every accepted move is one such transaction: a log row, the new snapshot, a
version bump checked against the version the move was computed from, and the move's
announcement (its outbox row), which a deliverer later marks delivered. On PostgreSQL,
where several processes share the database, the version-checked ``UPDATE`` locks the game's
row, so two processes' moves of one game are one after the other and the second finds the
version moved on: it is refused, and nothing of it is written.

Nothing here logs a statement or its parameters: snapshots and outboxes hold every hand.

The store's parts are in modules of their own, each mixed into :class:`Store` over its one
database: the schema (:mod:`host.schema`), the rows it returns (:mod:`host.rows`) and its
errors (:mod:`host.store_errors`); games and seats (:mod:`host.store_games`), the move log
(:mod:`host.store_moves`), the outbox and delivery claims (:mod:`host.store_outbox`), live
boards and hand messages (:mod:`host.store_boards`). Every name callers import from here is
still here.
"""

from __future__ import annotations

from typing import Any

from host.db import Conflict, Database, StorageUnavailable, StoreError, open_database
from host.rows import ACTIVE, Board, GameRow, MoveRow, Seat, Status, _move_row, now
from host.schema import MIGRATIONS, Migration, postgres_of
from host.store_boards import StoreBoards
from host.store_errors import ChannelTaken, DuplicateInteraction, SeatTaken, StaleVersion
from host.store_games import NewSeat, StoreGames
from host.store_moves import StoreMoves
from host.store_outbox import StoreOutbox, _insert_outbox


class Store(StoreGames, StoreMoves, StoreOutbox, StoreBoards):
    """An open database; create with :meth:`open`, finish with :meth:`close`.

    Reads see only committed data, and each write is one whole transaction. ``db`` is
    the database underneath (:mod:`host.db`), for the store's siblings (clocks,
    spectators, rematches, ratings), which write their own steps.
    """

    def __init__(self, db: Database) -> None:
        self.db = db
        self.path = db.name

    @classmethod
    async def open(cls, target: str, **options: Any) -> Store:
        """Opens (or creates) the database ``target`` names, checks it can be written, runs the migrations.

        ``target`` is a SQLite file (or ``:memory:``) or a ``postgresql://`` address. Raises
        StorageUnavailable (naming the file or server) when it cannot be opened, written or
        reached, and StoreError when its schema is newer than this bot.
        """
        db = await open_database(target, **options)
        try:
            await db.migrate(MIGRATIONS)
        except BaseException:
            await db.close()
            raise
        return cls(db)

    @property
    def shared(self) -> bool:
        """True when other processes may use the same database (PostgreSQL)."""
        return self.db.shared

    async def close(self) -> None:
        """Closes once the transactions under way are done; every committed move is durable."""
        await self.db.close()

    async def schema_version(self) -> int:
        """Returns the schema's version."""
        return await self.db.schema_version()


__all__ = [
    "ACTIVE",
    "MIGRATIONS",
    "Board",
    "ChannelTaken",
    "Conflict",
    "DuplicateInteraction",
    "GameRow",
    "Migration",
    "MoveRow",
    "NewSeat",
    "Seat",
    "SeatTaken",
    "StaleVersion",
    "Status",
    "StorageUnavailable",
    "Store",
    "StoreError",
    "_insert_outbox",
    "_move_row",
    "now",
    "postgres_of",
]
