"""The clocks' rows and the players' reminder choices, kept in the game store.

Every change that announces something writes its announcement in the same transaction
(as the store does for moves), and every stage is claimed by (game, version, stage), so
each reminder is written once. See :mod:`host.clock` for the stages.

Several timekeepers (one per process) share the due clocks: :meth:`Clocks.due` leases
each clock it returns to its caller for ``lease`` seconds, and on PostgreSQL passes over
the rows another timekeeper is leasing at that moment (``FOR UPDATE SKIP LOCKED``). The
lease only spares duplicate work; the claim by (game, version, stage) is what makes a
stage happen once. A timekeeper that dies holding a lease delays its clocks by the lease.
"""

from __future__ import annotations

from host import clock
from host.clock import ClockRow, ClockSettings
from host.db import Tx
from host.outbox import Outbox
from host.store import Store, _insert_outbox

LEASE = 60.0
"""Seconds a timekeeper has to handle the clocks it took from :meth:`Clocks.due`, before another may."""


class Clocks:
    """Reads and changes the turn clocks of a :class:`~host.store.Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def get(self, game_id: int) -> ClockRow | None:
        """Returns a game's clock, or None (a game from before clocks)."""
        return await self.store.db.read(lambda tx: clock.read(tx, game_id))

    async def due(self, now: float, *, limit: int = 100, lease: float = LEASE) -> list[ClockRow]:
        """Returns the clocks whose next stage is due at ``now``, the most overdue first, leased to the caller.

        A clock leased to another caller until after ``now`` is left out.
        """

        async def work(tx: Tx) -> list[ClockRow]:
            rows = await tx.fetch(
                f"UPDATE clocks SET claimed_until = ? WHERE game_id IN (SELECT game_id FROM clocks"
                f" WHERE next_due IS NOT NULL AND next_due <= ? AND (claimed_until IS NULL OR claimed_until <= ?)"
                f" ORDER BY next_due LIMIT ?{tx.skip_locked}) RETURNING {clock.COLUMNS}",
                now + lease, now, now, limit,
            )
            return sorted((clock.row_of(r) for r in rows), key=lambda r: (r.next_due or 0.0, r.game_id))

        return await self.store.db.write(work)

    async def next_due(self) -> float | None:
        """Returns when the next stage of any clock falls due (or its lease lapses), or None when none will."""
        due = await self.store.db.read(
            lambda tx: tx.fetchval(
                "SELECT MIN(CASE WHEN claimed_until > next_due THEN claimed_until ELSE next_due END)"
                " FROM clocks WHERE next_due IS NOT NULL"
            )
        )
        return None if due is None else float(due)

    async def remind(self, row: ClockRow, reached: int, announce: Outbox | None) -> bool:
        """Claims reminder stage ``reached`` of ``row`` and writes its announcement; False when it was claimed."""

        async def work(tx: Tx) -> bool:
            if not await clock.claim(tx, row.game_id, row.version, reached):
                return False
            await _insert_outbox(tx, row.game_id, announce)
            return True

        return await self.store.db.write(work)

    async def stop(self, game_id: int, version: int, stage: int) -> bool:
        """Stops a clock still at (version, stage), so nothing falls due; False when it has moved on."""
        changed = await self.store.db.write(
            lambda tx: tx.execute(
                "UPDATE clocks SET next_due = NULL WHERE game_id = ? AND version = ? AND stage = ?",
                game_id, version, stage,
            )
        )
        return bool(changed)

    async def configure(self, game_id: int, settings: ClockSettings, announce: Outbox | None = None) -> None:
        """Changes a game's clock settings; the current windows keep their start."""

        async def work(tx: Tx) -> None:
            row = await clock.read(tx, game_id)
            due = None
            if row is not None and row.started_at is not None and row.paused_at is None and row.next_due is not None:
                due = settings.due(row.started_at, row.stage)
            await tx.execute(
                "UPDATE clocks SET remind_after = ?, timeout = ?, on_timeout = ?, next_due = ? WHERE game_id = ?",
                settings.remind_after, settings.timeout, settings.on_timeout, due, game_id,
            )
            if due is not None:
                await tx.notify(clock.CHANGED)
            await _insert_outbox(tx, game_id, announce)

        await self.store.db.write(work)

    async def pause(self, game_id: int, at: float, announce: Outbox | None = None) -> bool:
        """Stops a running clock at ``at``; False when it was paused already (or has no clock)."""

        async def work(tx: Tx) -> bool:
            changed = await tx.execute(
                "UPDATE clocks SET paused_at = ?, next_due = NULL WHERE game_id = ? AND paused_at IS NULL", at, game_id
            )
            if changed != 1:
                return False
            await _insert_outbox(tx, game_id, announce)
            return True

        return await self.store.db.write(work)

    async def resume(self, game_id: int, version: int, at: float, announce: Outbox | None = None) -> bool:
        """Restarts a paused clock with fresh windows from ``at``; False when it was not paused."""

        async def work(tx: Tx) -> bool:
            changed = await tx.execute(
                "UPDATE clocks SET paused_at = NULL WHERE game_id = ? AND paused_at IS NOT NULL", game_id
            )
            if changed != 1:
                return False
            await clock.restart(tx, game_id, version, at)
            await _insert_outbox(tx, game_id, announce)
            return True

        return await self.store.db.write(work)

    async def dm_reminders(self, player_id: str) -> bool:
        """Returns whether a player gets reminders by DM (yes unless they turned them off)."""
        on = await self.store.db.read(
            lambda tx: tx.fetchval("SELECT dm_reminders FROM players WHERE player_id = ?", player_id)
        )
        return on is None or bool(on)

    async def set_dm_reminders(self, player_id: str, on: bool) -> None:
        """Records whether a player wants reminders by DM."""
        await self.store.db.write(
            lambda tx: tx.execute(
                "INSERT INTO players (player_id, dm_reminders) VALUES (?, ?)"
                " ON CONFLICT (player_id) DO UPDATE SET dm_reminders = excluded.dm_reminders",
                player_id, int(on),
            )
        )
