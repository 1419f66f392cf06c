"""The clocks' rows and the players' reminder choices, kept in the game store.

Every change that announces something writes its announcement in the same transaction
(as the store does for moves), and every stage is claimed by (game, version, stage), so
each reminder is written once. See :mod:`host.clock` for the stages.
"""

from __future__ import annotations

import sqlite3

from host import clock
from host.clock import ClockRow, ClockSettings
from host.outbox import Outbox
from host.store import Store, _insert_outbox


class Clocks:
    """Reads and changes the turn clocks of a :class:`~host.store.Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def get(self, game_id: int) -> ClockRow | None:
        """Returns a game's clock, or None (a game from before clocks)."""
        return await self.store._run(lambda db: clock.read(db, game_id))

    async def due(self, now: float, *, limit: int = 100) -> list[ClockRow]:
        """Returns the clocks whose next stage is due at ``now``, the most overdue first."""

        def step(db: sqlite3.Connection) -> list[ClockRow]:
            ids = db.execute(
                "SELECT game_id FROM clocks WHERE next_due IS NOT NULL AND next_due <= ? ORDER BY next_due LIMIT ?",
                (now, limit),
            ).fetchall()
            rows = [clock.read(db, int(r["game_id"])) for r in ids]
            return [r for r in rows if r is not None]

        return await self.store._run(step)

    async def next_due(self) -> float | None:
        """Returns when the next stage of any clock falls due, or None when none will."""
        row = await self.store._run(
            lambda db: db.execute("SELECT MIN(next_due) AS due FROM clocks WHERE next_due IS NOT NULL").fetchone()
        )
        return None if row is None or row["due"] is None else float(row["due"])

    async def remind(self, row: ClockRow, reached: int, announce: Outbox | None) -> bool:
        """Claims reminder stage ``reached`` of ``row`` and writes its announcement; False when it was claimed."""

        def work(db: sqlite3.Connection) -> bool:
            if not clock.claim(db, row.game_id, row.version, reached):
                return False
            _insert_outbox(db, row.game_id, announce)
            return True

        return await self.store._write(work)

    async def stop(self, game_id: int, version: int, stage: int) -> bool:
        """Stops a clock still at (version, stage), so nothing falls due; False when it has moved on."""
        cur = await self.store._write(
            lambda db: db.execute(
                "UPDATE clocks SET next_due = NULL WHERE game_id = ? AND version = ? AND stage = ?",
                (game_id, version, stage),
            )
        )
        return bool(cur.rowcount)

    async def configure(self, game_id: int, settings: ClockSettings, announce: Outbox | None = None) -> None:
        """Changes a game's clock settings; the current windows keep their start."""

        def work(db: sqlite3.Connection) -> None:
            row = clock.read(db, game_id)
            due = None
            if row is not None and row.started_at is not None and row.paused_at is None and row.next_due is not None:
                due = settings.due(row.started_at, row.stage)
            db.execute(
                "UPDATE clocks SET remind_after = ?, timeout = ?, on_timeout = ?, next_due = ? WHERE game_id = ?",
                (settings.remind_after, settings.timeout, settings.on_timeout, due, game_id),
            )
            _insert_outbox(db, game_id, announce)

        await self.store._write(work)

    async def pause(self, game_id: int, at: float, announce: Outbox | None = None) -> bool:
        """Stops a running clock at ``at``; False when it was paused already (or has no clock)."""

        def work(db: sqlite3.Connection) -> bool:
            cur = db.execute(
                "UPDATE clocks SET paused_at = ?, next_due = NULL WHERE game_id = ? AND paused_at IS NULL",
                (at, game_id),
            )
            if cur.rowcount != 1:
                return False
            _insert_outbox(db, game_id, announce)
            return True

        return await self.store._write(work)

    async def resume(self, game_id: int, version: int, at: float, announce: Outbox | None = None) -> bool:
        """Restarts a paused clock with fresh windows from ``at``; False when it was not paused."""

        def work(db: sqlite3.Connection) -> bool:
            cur = db.execute(
                "UPDATE clocks SET paused_at = NULL WHERE game_id = ? AND paused_at IS NOT NULL", (game_id,)
            )
            if cur.rowcount != 1:
                return False
            clock.restart(db, game_id, version, at)
            _insert_outbox(db, game_id, announce)
            return True

        return await self.store._write(work)

    async def dm_reminders(self, player_id: str) -> bool:
        """Returns whether a player gets reminders by DM (yes unless they turned them off)."""
        row = await self.store._run(
            lambda db: db.execute("SELECT dm_reminders FROM players WHERE player_id = ?", (player_id,)).fetchone()
        )
        return row is None or bool(row["dm_reminders"])

    async def set_dm_reminders(self, player_id: str, on: bool) -> None:
        """Records whether a player wants reminders by DM."""
        await self.store._write(
            lambda db: db.execute(
                "INSERT INTO players (player_id, dm_reminders) VALUES (?, ?)"
                " ON CONFLICT (player_id) DO UPDATE SET dm_reminders = excluded.dm_reminders",
                (player_id, int(on)),
            )
        )
