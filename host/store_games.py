"""The store's games and their seats: a game's row from its lobby to its end, and who sits where."""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

from host import clock
from host.clock import ClockSettings
from host.db import Conflict, Database, Tx
from host.outbox import Outbox
from host.rows import ACTIVE, GameRow, Seat, Status, _game_row, now
from host.store_errors import ChannelTaken, SeatTaken, StaleVersion
from host.store_outbox import _insert_outbox, _to_act


class NewSeat(NamedTuple):
    """A seat to add to a lobby (:meth:`StoreGames.add_seats`): who, under which name, and their part of the entropy."""

    player_id: str
    name: str
    joined: str | None = None
    entropy: str | None = None

_HEAD = (
    "id, guild_id, channel_id, game, status, creator_id, options, seed, NULL AS snapshot, version, broken,"
    " created_at, updated_at, salt, winners, rematch_of, server_seed, commitment, commitment_message, entropy,"
    " parent_id"
)
"""Every column of ``games`` but the snapshot, which is read only when an engine must be loaded."""


class StoreGames:
    """The store's games and seats (a part of :class:`host.store.Store`)."""

    db: Database

    # -- games ------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: str | None,
        channel_id: str,
        game: str,
        creator_id: str,
        options: dict[str, Any],
        creator_name: str | None = None,
        announce: Outbox | None = None,
        clock_settings: ClockSettings | None = None,
        rematch_of: int | None = None,
        server_seed: str | None = None,
        sealed: str | None = None,
        joined: str | None = None,
        entropy: str | None = None,
        parent_id: str | None = None,
    ) -> GameRow:
        """Inserts a game in the lobby with its clock, and its creator in seat 0 when ``creator_name`` is given.

        ``server_seed`` and ``sealed`` (its commitment, as ``announce`` posts it) are the keyed draws'
        (see :mod:`host.fairness`); ``joined`` and ``entropy`` are the creator's part of the entropy.
        ``parent_id`` is the channel whose thread ``channel_id`` is, when the table opened a thread of its own.
        All happens in one transaction, with ``announce`` if given. Raises ChannelTaken
        when the channel already has a game.
        """
        stamp = now()

        async def work(tx: Tx) -> int:
            game_id = int(await tx.fetchval(
                "INSERT INTO games (guild_id, channel_id, game, status, creator_id, options, created_at, updated_at,"
                " rematch_of, server_seed, commitment, parent_id) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?)"
                " RETURNING id",
                guild_id, channel_id, game, creator_id, json.dumps(options), stamp, stamp, rematch_of, server_seed,
                sealed, parent_id,
            ))
            if creator_name is not None:
                await tx.execute(
                    "INSERT INTO seats (game_id, seat, player_id, name, joined, entropy) VALUES (?, 0, ?, ?, ?, ?)",
                    game_id, creator_id, creator_name, joined, entropy or None,
                )
            await clock.insert(tx, game_id, clock_settings or ClockSettings())
            await _insert_outbox(tx, game_id, announce)
            return game_id

        try:
            game_id = await self.db.write(work)
        except Conflict as err:
            raise ChannelTaken(f"channel {channel_id} already has an active game") from err
        row = await self.game(game_id)
        assert row is not None
        return row

    async def game(self, game_id: int, *, snapshot: bool = True) -> GameRow | None:
        """Returns the game with this id, or None (without its snapshot unless ``snapshot``)."""
        columns = "*" if snapshot else _HEAD
        return await self._one(f"SELECT {columns} FROM games WHERE id = ?", game_id)

    async def active_game(self, channel_id: str, *, snapshot: bool = True) -> GameRow | None:
        """Returns the channel's game in the lobby or running, or None."""
        columns = "*" if snapshot else _HEAD
        return await self._one(
            f"SELECT {columns} FROM games WHERE channel_id = ? AND status IN ('lobby', 'running')", channel_id
        )

    async def latest_game(self, channel_id: str, *, snapshot: bool = True) -> GameRow | None:
        """Returns the channel's active game, else its most recent one, or None."""
        columns = "*" if snapshot else _HEAD
        return await self._one(
            f"SELECT {columns} FROM games WHERE channel_id = ?"
            " ORDER BY status IN ('lobby', 'running') DESC, id DESC LIMIT 1",
            channel_id,
        )

    async def _one(self, query: str, *args: Any) -> GameRow | None:
        row = await self.db.read(lambda tx: tx.fetchrow(query, *args))
        return _game_row(row) if row else None

    async def _games(self, query: str, *args: Any) -> list[GameRow]:
        rows = await self.db.read(lambda tx: tx.fetch(query, *args))
        return [_game_row(r) for r in rows]

    async def running_games(self) -> list[GameRow]:
        """Returns every running game (without snapshots)."""
        return await self._games(f"SELECT {_HEAD} FROM games WHERE status = 'running' ORDER BY id")

    async def idle_awaiting(self, prefix: str, idle_since: str) -> list[str]:
        """Returns the channels of running games where a player whose id starts with ``prefix`` must act
        and nothing changed since ``idle_since`` (ISO time), the longest idle first."""
        pattern = '%"' + re.sub(r"([\\%_])", r"\\\1", prefix) + "%"
        rows = await self.db.read(lambda tx: tx.fetch(
            "SELECT channel_id FROM games WHERE status = 'running' AND updated_at <= ? AND to_act LIKE ? ESCAPE '\\'"
            " ORDER BY updated_at", idle_since, pattern,
        ))
        return [str(r["channel_id"]) for r in rows]

    async def games_of(self, player_id: str) -> list[GameRow]:
        """Returns the games in a lobby or running where a player is seated (without snapshots)."""
        return await self._games(
            f"SELECT {_HEAD} FROM games WHERE status IN ('lobby', 'running')"
            " AND id IN (SELECT game_id FROM seats WHERE player_id = ?) ORDER BY updated_at DESC",
            player_id,
        )

    async def games_in_threads_of(self, parent_id: str, *, limit: int = 5) -> list[GameRow]:
        """Returns the games in a lobby or running in threads opened from channel ``parent_id``, the newest
        first (without snapshots)."""
        return await self._games(
            f"SELECT {_HEAD} FROM games WHERE parent_id = ? AND status IN ('lobby', 'running')"
            " ORDER BY id DESC LIMIT ?",
            parent_id, limit,
        )

    async def past_games(self, channel_id: str, *, limit: int = 10) -> list[GameRow]:
        """Returns a channel's finished and aborted games, the newest first (without snapshots)."""
        return await self._games(
            f"SELECT {_HEAD} FROM games WHERE channel_id = ? AND status IN ('finished', 'aborted')"
            " ORDER BY id DESC LIMIT ?",
            channel_id, limit,
        )

    async def start_game(
        self,
        game_id: int,
        *,
        snapshot: str,
        entropy: str | None = None,
        server_seed: str | None = None,
        sealed: str | None = None,
        seed: int | None = None,
        salt: str | None = None,
        announce: Outbox | None = None,
        clock_at: float | None = None,
    ) -> None:
        """Moves a lobby game to running with its first snapshot; its clock starts.

        A keyed game fixes its ``entropy`` (and, for a lobby opened before keyed draws, takes its
        ``server_seed`` and ``sealed`` commitment now); a game on the old scheme gets its integer
        ``seed`` and ``salt`` instead.
        """

        async def work(tx: Tx) -> None:
            changed = await tx.execute(
                "UPDATE games SET status = 'running', seed = ?, salt = ?, entropy = ?,"
                " server_seed = COALESCE(?, server_seed), commitment = COALESCE(?, commitment), snapshot = ?,"
                " version = 0, updated_at = ?, to_act = ? WHERE id = ? AND status = 'lobby'",
                seed, salt, entropy, server_seed, sealed, snapshot, now(), _to_act(announce), game_id,
            )
            if changed != 1:
                raise StaleVersion(f"game {game_id} is no longer in its lobby")
            if clock_at is not None:
                await clock.restart(tx, game_id, 0, clock_at)
            await _insert_outbox(tx, game_id, announce)

        await self.db.write(work)

    async def set_status(
        self, game_id: int, status: Status, *, expect: tuple[Status, ...] = ACTIVE, announce: Outbox | None = None
    ) -> None:
        """Sets a game's status when it is one of ``expect``; raises StaleVersion otherwise."""

        async def work(tx: Tx) -> None:
            marks = ", ".join("?" for _ in expect)
            changed = await tx.execute(
                f"UPDATE games SET status = ?, updated_at = ? WHERE id = ? AND status IN ({marks})",
                status.value, now(), game_id, *(s.value for s in expect),
            )
            if changed != 1:
                raise StaleVersion(f"game {game_id} is no longer {' or '.join(expect)}")
            if status in (Status.FINISHED, Status.ABORTED):
                await clock.stop(tx, game_id)
            await _insert_outbox(tx, game_id, announce)

        await self.db.write(work)

    async def mark_broken(self, game_id: int, reason: str) -> None:
        """Records why a game cannot be loaded; it stays so until aborted."""
        await self.db.write(
            lambda tx: tx.execute("UPDATE games SET broken = ?, updated_at = ? WHERE id = ?", reason, now(), game_id)
        )

    async def repair(self, game_id: int, *, from_version: int, version: int, snapshot: str) -> None:
        """Rewrites a snapshot and version rebuilt from the log (the log is the truth)."""

        async def work(tx: Tx) -> None:
            changed = await tx.execute(
                "UPDATE games SET snapshot = ?, version = ?, updated_at = ? WHERE id = ? AND version = ?",
                snapshot, version, now(), game_id, from_version,
            )
            if changed != 1:
                raise StaleVersion(f"game {game_id} is not at version {from_version}")

        await self.db.write(work)

    # -- seats ------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[Seat]:
        """Returns the seats in seat order."""
        rows = await self.db.read(
            lambda tx: tx.fetch(
                "SELECT seat, player_id, name, joined, entropy FROM seats WHERE game_id = ? ORDER BY seat", game_id)
        )
        return [Seat(r["seat"], r["player_id"], r["name"], r["joined"], r["entropy"]) for r in rows]

    async def add_seat(
        self, game_id: int, player_id: str, name: str, *, announce: Outbox | None = None, joined: str | None = None,
        entropy: str | None = None,
    ) -> Seat:
        """Seats a player after the last seat in a lobby; raises SeatTaken if seated or the name is taken.

        ``joined`` (the join's interaction id) and ``entropy`` (the player's own text) are their part
        of the game's entropy.
        """
        (seat,) = await self.add_seats(game_id, [NewSeat(player_id, name, joined, entropy)], announce=announce)
        return seat

    async def add_seats(self, game_id: int, new: list[NewSeat], *, announce: Outbox | None = None) -> list[Seat]:
        """Seats players after the last seat in a lobby, in order, all in one transaction (all or none).

        Raises SeatTaken if one is seated already or a name is taken, StaleVersion when the lobby is
        gone; either way no seat is added and ``announce`` is not written.
        """

        async def work(tx: Tx) -> int:
            lobby = await tx.fetchrow(f"SELECT status FROM games WHERE id = ?{tx.for_update}", game_id)
            if lobby is None or lobby["status"] != Status.LOBBY:
                raise StaleVersion(f"game {game_id} is no longer in its lobby")
            first = int(await tx.fetchval("SELECT COALESCE(MAX(seat), -1) + 1 FROM seats WHERE game_id = ?", game_id))
            for seat, s in enumerate(new, start=first):
                await tx.execute(
                    "INSERT INTO seats (game_id, seat, player_id, name, joined, entropy) VALUES (?, ?, ?, ?, ?, ?)",
                    game_id, seat, s.player_id, s.name, s.joined, s.entropy or None,
                )
            await _insert_outbox(tx, game_id, announce)
            return first

        try:
            first = await self.db.write(work)
        except Conflict as err:
            who = ", ".join(f"{s.player_id} ({s.name!r})" for s in new)
            raise SeatTaken(f"one of {who} is already seated in game {game_id}") from err
        return [Seat(first + i, s.player_id, s.name, s.joined, s.entropy or None) for i, s in enumerate(new)]

    async def set_seat_entropy(
        self, game_id: int, player_id: str, *, joined: str | None, entropy: str, announce: Outbox | None = None
    ) -> None:
        """Replaces a seated player's part of the entropy while the lobby is open; raises StaleVersion otherwise."""

        async def work(tx: Tx) -> None:
            lobby = await tx.fetchrow(f"SELECT status FROM games WHERE id = ?{tx.for_update}", game_id)
            if lobby is None or lobby["status"] != Status.LOBBY:
                raise StaleVersion(f"game {game_id} is no longer in its lobby")
            changed = await tx.execute(
                "UPDATE seats SET joined = COALESCE(?, joined), entropy = ? WHERE game_id = ? AND player_id = ?",
                joined, entropy or None, game_id, player_id,
            )
            if changed != 1:
                raise StaleVersion(f"{player_id} is not seated in game {game_id}")
            await _insert_outbox(tx, game_id, announce)

        await self.db.write(work)

    async def remove_seat(
        self, game_id: int, player_id: str, *, announce: Outbox | None = None, close: bool = False
    ) -> int | None:
        """Removes a player's seat and returns how many seats are left (None: they had none).

        A lobby left empty, or any with ``close``, is aborted in the same transaction.
        """

        async def work(tx: Tx) -> int | None:
            await tx.fetchrow(f"SELECT status FROM games WHERE id = ?{tx.for_update}", game_id)
            if await tx.execute("DELETE FROM seats WHERE game_id = ? AND player_id = ?", game_id, player_id) != 1:
                return None
            left = int(await tx.fetchval("SELECT COUNT(*) FROM seats WHERE game_id = ?", game_id))
            if left == 0 or close:
                await tx.execute(
                    "UPDATE games SET status = 'aborted', updated_at = ? WHERE id = ? AND status = 'lobby'",
                    now(), game_id,
                )
            await _insert_outbox(tx, game_id, announce)
            return left

        return await self.db.write(work)
