"""The timekeeper: the one place the turn clocks' deadlines are handled (reminders, timeouts).

It wakes at the next due deadline (read from the store, never held in memory alone), or
after :data:`MAX_SLEEP` at most, or as soon as a clock is set: by a game of this process (the
table service's listeners) or of another (PostgreSQL's NOTIFY on :data:`host.clock.CHANGED`),
handles every clock that is due, and sleeps again. A failed read is retried within seconds,
doubling from :data:`RETRY_FIRST`. Each stage is claimed in the store by (game, version, stage)
in the transaction that writes its announcement, so a deadline is
handled once however many timekeepers run, and however often the bot restarts:

- A clock overdue by several stages (the bot was down) is handled once, at its latest
  stage: a timeout without the reminders before it, or only the latest reminder.
- A reminder pings the players to act in the game's channel and, unless they turned it
  off (``/table notify``), DMs them; the clock's windows are described in :mod:`host.clock`.
- Pause and resume (the creator, or every seated player agreeing) stop and restart it.

Times come from the table service's clock, so tests move time by hand and call
:meth:`Timekeeper.tick` instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from host import clock, metrics
from host.clock import ClockRow, ClockSettings, span_text, will_do
from host.clock_store import Clocks
from host.deliverer import expected
from host.logs import game_context
from host.outbox import Outbox
from host.store import GameRow, Status, StoreError
from host.table import Person, Refusal
from host.tables import Tables

log = logging.getLogger(__name__)

MAX_SLEEP = 15.0
"""The longest the timekeeper sleeps before looking at the store again (another process may have written)."""
RETRY_FIRST = 0.5
"""Seconds before the first retry of a failed read of the clocks; each further failure doubles it, to MAX_SLEEP."""

Deliver = Callable[[Outbox], Awaitable[object]]


class Timekeeper:
    """Handles the turn clocks of a table service's games."""

    def __init__(self, tables: Tables, *, deliver: Deliver | None = None, max_sleep: float = MAX_SLEEP,
                 retry_first: float = RETRY_FIRST) -> None:
        """``deliver`` sends each announcement written (the deliverer's); None leaves them to its sweeps.

        ``max_sleep`` and ``retry_first`` are the longest sleep and the first retry's wait (see the module).
        """
        self.tables = tables
        self.clocks = Clocks(tables.store)
        self.deliver = deliver
        self.max_sleep = max_sleep
        self.retry_first = retry_first
        self._kick = asyncio.Event()
        self._sending: set[asyncio.Task[None]] = set()
        self.alive_at: float | None = None
        """When the timekeeper last read the clocks (its loop's clock), for the health check; None before."""
        self.fired = 0
        """Deadlines handled so far (reminders and timeouts written)."""
        tables.listeners.append(lambda _channel: self.kick())  # a move started or moved a clock on
        self._votes: dict[tuple[int, str], set[str]] = {}
        """(game id, "pause"|"resume") → the players who agreed so far (held in memory: a restart forgets)."""

    # -- deadlines --------------------------------------------------------------------

    async def tick(self, *, wait: bool = True) -> list[Outbox]:
        """Handles every clock due now; returns the announcements written (and delivered, if it delivers).

        ``wait`` False leaves their delivery running in the background (as :meth:`run` does).
        """
        now = self.tables.clock()
        written: list[Outbox] = []
        started: list[asyncio.Task[None]] = []
        for row in await self.clocks.due(now):
            try:
                with game_context(row.game_id):
                    out = await self._handle(row, now)
            except (Refusal, StoreError) as err:  # this game's trouble must not stop the others
                log.warning("clock of game %s at version %s not handled: %s", row.game_id, row.version, err)
                continue
            if out is not None:
                written.append(out)
                self.fired += 1
                metrics.deadline_fired("reminder" if out.notice == "reminder" else "timeout")
                if (task := self._start_sending(out)) is not None:
                    started.append(task)
        if wait and started:
            await asyncio.gather(*started)
        return written

    async def run(self) -> None:
        """Handles deadlines until cancelled: at each due time, every ``max_sleep`` seconds, and when kicked.

        A read that fails is tried again after ``retry_first`` seconds, then twice as long each
        time, never longer than ``max_sleep``; the first failure of a spell is logged, and its end.
        """
        failures = 0
        stop_listening = await self.tables.store.db.listen(clock.CHANGED, self.kick)  # clocks set elsewhere
        try:
            while True:
                try:
                    await self.tick(wait=False)
                    due = await self.clocks.next_due()
                except Exception as err:  # the storage down, or any surprise: the clocks must keep being read
                    if failures == 0:
                        log.warning("the timekeeper could not read the clocks (%s); retrying", err,
                                    exc_info=not isinstance(err, StoreError))
                    failures += 1
                    wait = min(self.retry_first * 2 ** (failures - 1), self.max_sleep)
                else:
                    if failures:
                        log.info("the timekeeper reads the clocks again, after %s failed tries", failures)
                    failures = 0
                    self.alive_at = asyncio.get_running_loop().time()
                    wait = self.max_sleep if due is None else min(max(due - self.tables.clock(), 0.0), self.max_sleep)
                with contextlib.suppress(TimeoutError):  # asyncio.timeout, not wait_for: a cancel is never lost
                    async with asyncio.timeout(wait):
                        await self._kick.wait()
                self._kick.clear()
        finally:
            await asyncio.shield(stop_listening())
            for task in list(self._sending):
                task.cancel()

    def kick(self) -> None:
        """Wakes the timekeeper to look at the clocks again (one changed)."""
        self._kick.set()

    async def _handle(self, row: ClockRow, now: float) -> Outbox | None:
        reached = clock.reached_by(row, now)
        if reached >= clock.TIMED_OUT:
            out = await self.tables.time_out(row.game_id, row.version, row.settings)
        elif reached > row.stage:
            out = await self._remind(row, reached, now)
        else:
            return None
        if out is None:
            await self._settle(row)
        return out

    async def _settle(self, row: ClockRow) -> None:
        """Stops a clock left due with nothing to do (say, its game ended before clocks stopped with it)."""
        if await self.clocks.stop(row.game_id, row.version, row.stage):
            log.warning("clock of game %s was due at version %s with nothing to do: stopped", row.game_id,
                        row.version)

    async def _remind(self, row: ClockRow, reached: int, now: float) -> Outbox | None:
        game = await self.tables.store.game(row.game_id, snapshot=False)
        if game is None or game.status is not Status.RUNNING or game.version != row.version:
            return None
        table = await self.tables.table(game.channel_id)
        if table.row.id != game.id or table.game is None:
            return None
        names = table.game.to_act()
        users = [uid for name in names if (uid := table.user_of(name))]
        if not users or row.started_at is None:
            return None
        left = span_text(row.started_at + row.settings.timeout - now)
        then = will_do(table.game, row.settings.on_timeout)
        out = _notice(game, {s.player_id: s.name for s in table.seats}, [
            f"⏰ Reminder: it is {' and '.join(names)}'s move. {left} left, then the clock {then}.",
        ])
        out.mention, out.to_act, out.notice = users, users, "reminder"
        title = table.title
        for uid in users:
            if await self.clocks.dm_reminders(uid):
                out.private[uid] = [f"⏰ It's your move in {title}: {left} left, then the clock {then}."]
        return out if await self.clocks.remind(row, reached, out) else None

    def _start_sending(self, out: Outbox) -> asyncio.Task[None] | None:
        """Delivers ``out`` in the background (a busy Discord never holds up the other clocks); returns the task."""
        if self.deliver is None:
            return None
        task = asyncio.create_task(self._send(out), name=f"clock-{out.game_id}")
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)
        return task

    async def _send(self, out: Outbox) -> None:
        assert self.deliver is not None
        try:
            await self.deliver(out)
        except Exception as err:  # written and durable: the deliverer's sweeps retry it
            log.warning("announcement %s of game %s is left to the retries", out.id, out.game_id,
                        exc_info=not expected(err))

    # -- players' commands ------------------------------------------------------------

    async def configure(
        self,
        channel_id: str,
        person: Person,
        *,
        remind_after: str | None = None,
        timeout: str | None = None,
        on_timeout: str | None = None,
    ) -> Outbox:
        """Changes the channel's game clock (its creator only); raises Refusal or GameError."""
        game, row = await self._clock_of(channel_id)
        if person.id != game.creator_id:
            raise Refusal("Only the game's creator can change its clock.")
        settings = ClockSettings.parse(remind_after=remind_after, timeout=timeout, on_timeout=on_timeout,
                                       base=row.settings)
        out = _notice(game, {}, [f"{person.name} set the clock: {settings.describe()}."], actor=person)
        await self.clocks.configure(game.id, settings, out)
        self.kick()
        return out

    async def pause(self, channel_id: str, person: Person) -> Outbox | tuple[int, int]:
        """Pauses the clock: at once for the creator, else once every seated player has asked.

        Returns the announcement, or (players who agreed, players needed) while votes are missing.
        """
        return await self._switch(channel_id, person, "pause")

    async def resume(self, channel_id: str, person: Person) -> Outbox | tuple[int, int]:
        """Resumes the clock with fresh windows, as :meth:`pause` decides who may."""
        return await self._switch(channel_id, person, "resume")

    async def _switch(self, channel_id: str, person: Person, action: str) -> Outbox | tuple[int, int]:
        game, row = await self._clock_of(channel_id)
        seats = await self.tables.store.seats(game.id)
        seated = {s.player_id for s in seats}
        if person.id != game.creator_id and person.id not in seated:
            raise Refusal(f"Only the game's creator or its players can {action} the clock.")
        if (action == "pause") == (row.paused_at is not None):
            raise Refusal("The clock is already paused." if action == "pause" else "The clock is not paused.")
        votes = self._votes.setdefault((game.id, action), set())
        votes.add(person.id)
        if person.id != game.creator_id and not seated <= votes:
            return len(votes & seated), len(seated)
        self._votes.pop((game.id, action), None)
        who = person.name if person.id == game.creator_id or len(seated) == 1 else "every player"
        now = self.tables.clock()
        if action == "pause":
            line = f"⏸ {who} paused the clock: no reminders and no timeouts until it is resumed."
            out = _notice(game, {}, [line], actor=person)
            done = await self.clocks.pause(game.id, now, out)
        else:
            line = f"▶ {who} resumed the clock: {row.settings.describe()}, counted from now."
            out = _notice(game, {}, [line], actor=person)
            done = await self.clocks.resume(game.id, game.version, now, out)
        if not done:
            raise Refusal("The clock changed meanwhile: look at /game status. Nothing was changed.")
        self.kick()
        return out

    async def _clock_of(self, channel_id: str) -> tuple[GameRow, ClockRow]:
        game = await self.tables.store.active_game(channel_id, snapshot=False)
        if game is None:
            raise Refusal("There is no game in this channel.")
        row = await self.clocks.get(game.id)
        if row is None:
            raise Refusal("This game has no turn clock (it was started before clocks existed).")
        return game, row


def _notice(game: GameRow, names: dict[str, str], lines: list[str], *, actor: Person | None = None) -> Outbox:
    """Returns a plain announcement of a game (no picture) in its channel."""
    return Outbox(game_id=game.id, game=game.game, channel_id=game.channel_id, guild_id=game.guild_id,
                  names=names, lines=lines, actor_id=actor.id if actor else None)
