"""Bots in seats: a bot plays its turns promptly, through the same path as a person's move.

A bot's seat has the player id ``bot:<level>:<n>``; its moves go in the log under that id,
so the log says whose they are. It is asked through :func:`engines.core.ai.think`, which
hands it only its seat's view and legal moves; its private messages go nowhere (the
table service leaves bots out of DMs and pings).

After every change of a channel's game, the table service tells its listeners; the
:class:`Bots` service then plays, one move at a time, as long as a bot is to act. The
thinking runs on a copy of the game in the table service's :class:`~host.thinker.Thinker`
(worker threads, within the bots' budget), so the event loop keeps answering.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from engines import GameError
from host.bot_seats import PREFIX, bot_id, bot_rng, bot_turn, is_bot, level_of
from host.deliverer import expected
from host.outbox import Outbox
from host.store import Status, StoreError

if TYPE_CHECKING:
    from host.tables import Tables

log = logging.getLogger(__name__)

MAX_MOVES = 2_000
WATCH_EVERY = 60.0
"""Seconds between a shared store's sweeps for bots left to play by a process that stopped."""
WATCH_IDLE = 30.0
"""A game with a bot seat and no change for this long is looked at by the watch."""
"""The most moves bots play in a row in one channel before handing back (a guard, never reached in play)."""

Deliver = Callable[[Outbox], Awaitable[object]]


class Bots:
    """Plays the bots' turns of a table service's games."""

    def __init__(self, tables: Tables, *, deliver: Deliver | None = None) -> None:
        self.tables = tables
        self.deliver = deliver
        self._running: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        tables.listeners.append(self.nudge)

    def nudge(self, channel_id: str) -> None:
        """Looks at a channel's game soon: if a bot is to act, it plays."""
        task = self._running.get(channel_id)
        if task is not None and not task.done():
            self._again.add(channel_id)
            return
        self._running[channel_id] = asyncio.get_running_loop().create_task(
            self._play(channel_id), name=f"tablehost-bots-{channel_id}"
        )

    async def settle(self) -> None:
        """Waits until no bot is thinking or playing (tests and shutdown)."""
        while any(not t.done() for t in self._running.values()):
            await asyncio.gather(*[t for t in self._running.values() if not t.done()], return_exceptions=True)

    async def sweep(self, *, idle_for: float | None = None) -> int:
        """Nudges every running game with a bot seat (after a restart); returns how many.

        ``idle_for`` keeps the games where a bot must act and nothing changed in that many
        seconds: those whose bot another process was to play when it stopped.
        """
        if idle_for is not None:
            since = (datetime.now(UTC) - timedelta(seconds=idle_for)).isoformat(timespec="seconds")
            idle = await self.tables.store.idle_awaiting(PREFIX, since)
            for channel_id in idle:
                self.nudge(channel_id)
            return len(idle)
        count = 0
        for row in await self.tables.store.running_games():
            seats = await self.tables.store.seats(row.id)
            if any(is_bot(s.player_id) for s in seats):
                self.nudge(row.channel_id)
                count += 1
        return count

    async def watch(self, *, every: float = WATCH_EVERY, idle_for: float = WATCH_IDLE) -> None:
        """Sweeps for idle games with a bot seat every ``every`` seconds, until cancelled.

        For several processes on one database: a bot's turn is played by the process whose
        change gave it the turn; if that process died first, another one's watch plays it.
        Two processes playing one bot at once is harmless: the version check keeps one move.
        """
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep(idle_for=idle_for)
            except StoreError as err:
                log.warning("the bots' watch could not read the games: %s", err)

    async def _play(self, channel_id: str) -> None:
        try:
            for _ in range(MAX_MOVES):
                out = await self.play_one(channel_id)
                if out is None:
                    if channel_id in self._again:
                        self._again.discard(channel_id)
                        continue
                    return
                if self.deliver is not None:
                    try:
                        await self.deliver(out)
                    except Exception as err:  # stored: the deliverer's sweeps retry it
                        log.warning("bot move of game %s: its announcement is left to the retries (%s)", out.game_id,
                                    err, exc_info=not expected(err))
            log.error("bots in channel %s played %d moves in a row: stopped", channel_id, MAX_MOVES)
        except (StoreError, GameError) as err:
            log.warning("bots in channel %s stopped: %s", channel_id, err)
        except Exception:  # a policy's bug: the turn clock still moves the game on
            log.exception("a bot in channel %s failed", channel_id)

    async def play_one(self, channel_id: str) -> Outbox | None:
        """Plays one move of the bot to act in a channel's game; None when no bot is to act."""
        try:
            table = await self.tables.table(channel_id)
        except GameError:
            return None
        game = table.game
        if game is None or table.row.status is not Status.RUNNING or game.is_over:
            return None
        acting = [(name, uid) for name in game.to_act() if (uid := table.user_of(name)) and is_bot(uid)]
        if not acting:
            return None
        name, uid = acting[0]
        version = table.row.version
        move = await self.tables.thinker.move(game, name, level_of(uid))  # on a copy: the game stays as it is
        try:
            return await self.tables.act(channel_id, uid, move, position=(table.row.id, version))
        except GameError as err:  # the position moved on meanwhile, or a policy bug: look again once
            log.warning("bot move %r in game %s refused: %s", move[:40], table.row.id, err)
            return None


__all__ = ["MAX_MOVES", "PREFIX", "WATCH_EVERY", "WATCH_IDLE", "Bots", "Deliver", "bot_id", "bot_rng", "bot_turn",
           "is_bot", "level_of"]
