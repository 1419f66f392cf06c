"""Spectator channels: where a game's public posts are copied, and which copy is of which post.

A game may have several; each copy is remembered by (spectator channel, source message),
so an edit of the live board edits its copies, and a retry never copies twice.
"""

from __future__ import annotations

from host.store import Store


class Spectators:
    """The spectator channels of the games in a :class:`~host.store.Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def channels(self, game_id: int) -> list[str]:
        """Returns the channels that mirror a game, in the order they were added."""
        rows = await self.store._run(
            lambda db: db.execute(
                "SELECT channel_id FROM spectators WHERE game_id = ? ORDER BY rowid", (game_id,)
            ).fetchall()
        )
        return [str(r["channel_id"]) for r in rows]

    async def watched_in(self, channel_id: str) -> int | None:
        """Returns the newest game a channel mirrors, or None."""
        row = await self.store._run(
            lambda db: db.execute(
                "SELECT MAX(game_id) AS game_id FROM spectators WHERE channel_id = ?", (channel_id,)
            ).fetchone()
        )
        return None if row is None or row["game_id"] is None else int(row["game_id"])

    async def add(self, game_id: int, channel_id: str) -> bool:
        """Makes a channel mirror a game; False when it does already."""
        cur = await self.store._write(
            lambda db: db.execute(
                "INSERT INTO spectators (game_id, channel_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (game_id, channel_id),
            )
        )
        return bool(cur.rowcount)

    async def remove(self, game_id: int, channel_id: str) -> bool:
        """Stops a channel mirroring a game; False when it did not."""
        cur = await self.store._write(
            lambda db: db.execute(
                "DELETE FROM spectators WHERE game_id = ? AND channel_id = ?", (game_id, channel_id)
            )
        )
        return bool(cur.rowcount)

    async def copy_of(self, channel_id: str, source_id: str) -> str | None:
        """Returns the id of the copy of message ``source_id`` in a spectator channel, or None."""
        row = await self.store._run(
            lambda db: db.execute(
                "SELECT message_id FROM mirrors WHERE channel_id = ? AND source_id = ?", (channel_id, source_id)
            ).fetchone()
        )
        return None if row is None else str(row["message_id"])

    async def set_copy(self, game_id: int, channel_id: str, source_id: str, message_id: str) -> None:
        """Records the copy of a message in a spectator channel."""
        await self.store._write(
            lambda db: db.execute(
                "INSERT INTO mirrors (game_id, channel_id, source_id, message_id) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (channel_id, source_id) DO UPDATE SET message_id = excluded.message_id",
                (game_id, channel_id, source_id, message_id),
            )
        )
