"""The store's durable outbox: announcements written with their change, read back until delivered.

Also the claims that give one deliverer at a time a channel's deliveries.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from host.db import Database, Tx
from host.outbox import Outbox
from host.rows import now

log = logging.getLogger("host.store")  # the store's records, whichever of its parts writes them


CHANGED = "tablehost_games"
"""The channel every transaction that writes an announcement notifies: a game changed (the web table's
live pages listen, in every process; :mod:`web.hub`)."""


async def _insert_outbox(tx: Tx, game_id: int, announce: Outbox | None) -> None:
    """Writes an announcement in the caller's transaction, gives it its id, and notifies :data:`CHANGED`."""
    if announce is None:
        return
    await tx.notify(CHANGED)
    announce.game_id = game_id
    announce.id = int(await tx.fetchval(
        "INSERT INTO outbox (game_id, channel_id, payload, created_at) VALUES (?, ?, ?, ?) RETURNING id",
        game_id, announce.channel_id, announce.to_json(), now(),
    ))


def _to_act(announce: Outbox | None) -> str | None:
    """Who must act after a change, as its announcement says (None: not known)."""
    return None if announce is None else json.dumps(announce.to_act)


class StoreOutbox:
    """The store's announcements and delivery claims (a part of :class:`host.store.Store`)."""

    db: Database

    async def pending(
        self, *, channel_id: str | None = None, before: int | None = None, older_than: float | None = None
    ) -> list[Outbox]:
        """Returns the announcements not yet delivered, oldest first.

        ``channel_id`` keeps one channel's, ``before`` those with a smaller id, and
        ``older_than`` those written at least that many seconds ago.
        """
        query = "SELECT id, game_id, channel_id, payload, receipt FROM outbox WHERE delivered_at IS NULL"
        params: list[Any] = []
        if older_than is not None:
            query += " AND created_at <= ?"
            params.append((datetime.now(UTC) - timedelta(seconds=older_than)).isoformat(timespec="seconds"))
        if channel_id is not None:
            query += " AND channel_id = ?"
            params.append(channel_id)
        if before is not None:
            query += " AND id < ?"
            params.append(before)
        rows = await self.db.read(lambda tx: tx.fetch(query + " ORDER BY id", *params))
        found = []
        for r in rows:
            try:
                out = Outbox.from_json(r["payload"] or "{}", game_id=r["game_id"], channel_id=r["channel_id"])
            except (ValueError, TypeError, KeyError, RecursionError):
                log.error("outbox %s of game %s cannot be read; it is skipped", r["id"], r["game_id"])
                await self.delivered(r["id"], {"unreadable": True})
                continue
            out.id, out.receipt = r["id"], json.loads(r["receipt"] or "{}")
            found.append(out)
        return found

    async def is_delivered(self, outbox_id: int) -> bool:
        """Returns whether an announcement is marked delivered (an unknown id counts as delivered)."""
        row = await self.db.read(lambda tx: tx.fetchrow("SELECT delivered_at FROM outbox WHERE id = ?", outbox_id))
        return row is None or row["delivered_at"] is not None

    async def save_receipt(self, outbox_id: int, receipt: dict[str, Any]) -> None:
        """Records what part of an announcement was delivered (message ids), so a retry does not repeat it."""
        text = json.dumps(receipt)
        await self.db.write(lambda tx: tx.execute("UPDATE outbox SET receipt = ? WHERE id = ?", text, outbox_id))

    async def delivered(self, outbox_id: int, receipt: dict[str, Any]) -> None:
        """Marks an announcement delivered with its message ids and drops its payload (it holds hands).

        A receipt's ``seal`` is the id of the message that posted the game's commitment (a table's
        opening): the game keeps it, once.
        """
        text, stamp, seal = json.dumps(receipt), now(), receipt.get("seal")

        async def work(tx: Tx) -> None:
            await tx.execute(
                "UPDATE outbox SET receipt = ?, payload = NULL, delivered_at = ? WHERE id = ?", text, stamp, outbox_id
            )
            if seal is not None:
                await tx.execute(
                    "UPDATE games SET commitment_message = ? WHERE commitment_message IS NULL"
                    " AND id = (SELECT game_id FROM outbox WHERE id = ?)", str(seal), outbox_id,
                )

        await self.db.write(work)

    async def answered(self, outbox_id: int) -> None:
        """Records that the player whose interaction wrote the announcement got an answer."""
        await self.db.write(lambda tx: tx.execute(
            "UPDATE outbox SET answered_at = ? WHERE id = ? AND answered_at IS NULL", now(), outbox_id))

    async def was_answered(self, outbox_id: int) -> bool:
        """Returns whether the player whose interaction wrote the announcement got an answer."""
        row = await self.db.read(lambda tx: tx.fetchrow("SELECT answered_at FROM outbox WHERE id = ?", outbox_id))
        return row is not None and row["answered_at"] is not None

    async def claim_channel(self, channel_id: str, owner: str, *, at: float, until: float) -> bool:
        """Claims a channel's deliveries for ``owner`` until ``until``; False while another owner's claim holds.

        A claim is a row of ``deliveries``, read with ``FOR UPDATE SKIP LOCKED`` on
        PostgreSQL: of two processes claiming at once, one skips the row the other holds
        and is refused. A claim that lapsed (its owner died) is taken over.
        """

        async def work(tx: Tx) -> bool:
            await tx.execute(
                "INSERT INTO deliveries (channel_id, owner, until) VALUES (?, '', 0) ON CONFLICT DO NOTHING", channel_id
            )
            held = await tx.fetchrow(f"SELECT owner, until FROM deliveries WHERE channel_id = ?{tx.skip_locked}",
                                     channel_id)
            if held is None or (held["owner"] not in ("", owner) and held["until"] > at):
                return False
            await tx.execute("UPDATE deliveries SET owner = ?, until = ? WHERE channel_id = ?", owner, until,
                             channel_id)
            return True

        return await self.db.write(work)

    async def release_channel(self, channel_id: str, owner: str) -> None:
        """Gives up ``owner``'s claim on a channel's deliveries."""
        await self.db.write(
            lambda tx: tx.execute("DELETE FROM deliveries WHERE channel_id = ? AND owner = ?", channel_id, owner)
        )
