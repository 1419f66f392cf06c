"""The store's part of the coach (``/game hint``): whether a game allows hints, and whether one was taken.

Both are columns of ``games`` (migration 14): ``hints``, the table creator's switch (off by
default), and ``hinted``, set by the game's first hint and never cleared, so the ratings read it
(:mod:`host.ratings`) and a rebuild gives the same verdict. Each change is one transaction with
its announcement, as the store's other writes are.
"""

from __future__ import annotations

from dataclasses import dataclass

from host.db import Tx
from host.outbox import Outbox
from host.store import StaleVersion, Status, Store, _insert_outbox


@dataclass(frozen=True)
class HintState:
    """A game's hints: allowed by its creator (``allowed``), and whether one was taken (``hinted``)."""

    allowed: bool = False
    hinted: bool = False


class Hints:
    """Reads and changes the hint columns of a :class:`~host.store.Store`'s games."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def get(self, game_id: int) -> HintState:
        """Returns a game's hint state (both off for a game not found)."""
        row = await self.store.db.read(
            lambda tx: tx.fetchrow("SELECT hints, hinted FROM games WHERE id = ?", game_id))
        return HintState(bool(row["hints"]), bool(row["hinted"])) if row is not None else HintState()

    async def allow(self, game_id: int, allowed: bool, *, announce: Outbox | None = None) -> None:
        """Turns a game's hints on or off while it is in its lobby or running; raises StaleVersion once it ended."""

        async def work(tx: Tx) -> None:
            changed = await tx.execute(
                "UPDATE games SET hints = ? WHERE id = ? AND status IN (?, ?)",
                int(allowed), game_id, Status.LOBBY.value, Status.RUNNING.value,
            )
            if changed != 1:
                raise StaleVersion(f"game {game_id} has ended")
            await _insert_outbox(tx, game_id, announce)

        await self.store.db.write(work)

    async def mark(self, game_id: int, version: int, *, announce: Outbox | None = None) -> bool:
        """Marks a running game at ``version`` hinted, with ``announce``; returns False when it was already.

        Raises StaleVersion when the game has ended or moved on from ``version`` (nothing is written).
        """

        async def work(tx: Tx) -> bool:
            row = await tx.fetchrow(f"SELECT status, version, hinted FROM games WHERE id = ?{tx.for_update}", game_id)
            if row is None or row["status"] != Status.RUNNING.value or int(row["version"]) != version:
                raise StaleVersion(f"game {game_id} is no longer running at version {version}")
            if row["hinted"]:
                return False
            await tx.execute("UPDATE games SET hinted = 1 WHERE id = ?", game_id)
            await _insert_outbox(tx, game_id, announce)
            return True

        return await self.store.db.write(work)
