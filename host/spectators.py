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
        rows = await self.store.db.read(
            lambda tx: tx.fetch("SELECT channel_id FROM spectators WHERE game_id = ? ORDER BY rowid", game_id)
        )
        return [str(r["channel_id"]) for r in rows]

    async def watched_in(self, channel_id: str) -> int | None:
        """Returns the newest game a channel mirrors, or None."""
        game_id = await self.store.db.read(
            lambda tx: tx.fetchval("SELECT MAX(game_id) FROM spectators WHERE channel_id = ?", channel_id)
        )
        return None if game_id is None else int(game_id)

    async def add(self, game_id: int, channel_id: str) -> bool:
        """Makes a channel mirror a game; False when it does already."""
        added = await self.store.db.write(
            lambda tx: tx.execute(
                "INSERT INTO spectators (game_id, channel_id) VALUES (?, ?) ON CONFLICT DO NOTHING", game_id, channel_id
            )
        )
        return bool(added)

    async def remove(self, game_id: int, channel_id: str) -> bool:
        """Stops a channel mirroring a game; False when it did not."""
        removed = await self.store.db.write(
            lambda tx: tx.execute("DELETE FROM spectators WHERE game_id = ? AND channel_id = ?", game_id, channel_id)
        )
        return bool(removed)

    async def copy_of(self, channel_id: str, source_id: str) -> str | None:
        """Returns the id of the copy of message ``source_id`` in a spectator channel, or None."""
        message_id = await self.store.db.read(
            lambda tx: tx.fetchval(
                "SELECT message_id FROM mirrors WHERE channel_id = ? AND source_id = ?", channel_id, source_id
            )
        )
        return None if message_id is None else str(message_id)

    async def set_copy(self, game_id: int, channel_id: str, source_id: str, message_id: str) -> None:
        """Records the copy of a message in a spectator channel."""
        await self.store.db.write(
            lambda tx: tx.execute(
                "INSERT INTO mirrors (game_id, channel_id, source_id, message_id) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (channel_id, source_id) DO UPDATE SET message_id = excluded.message_id",
                game_id, channel_id, source_id, message_id,
            )
        )
