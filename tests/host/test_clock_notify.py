"""Two processes on one PostgreSQL database: a clock one of them sets wakes the other's timekeeper at once.

Process A's timekeeper sleeps a minute at most; process B (another store and table service on the
same database) changes a game's clock so that a reminder is due now. A's timekeeper hears B's
NOTIFY and handles it within a second, not at the end of its sleep.
"""

from __future__ import annotations

import asyncio
import time

from host.outbox import Outbox
from host.store import Store
from host.tables import Person, Tables
from host.timekeeper import Timekeeper
from tests.support.clock import Clock

ANN, BOB = Person("1", "Ann"), Person("2", "Bob")


async def test_a_clock_set_by_another_process_wakes_this_timekeeper(pg_dsn: str, tally_registered: type) -> None:
    clock = Clock(1_700_000_000.0)
    first, second = await Store.open(pg_dsn), await Store.open(pg_dsn)
    here, there = Tables(first, clock=clock), Tables(second, clock=clock)
    heard: list[Outbox] = []

    async def deliver(out: Outbox) -> None:
        heard.append(out)

    keeper = Timekeeper(here, deliver=deliver, max_sleep=60.0)
    running = asyncio.create_task(keeper.run())
    try:
        await there.create(channel_id="c", guild_id="1", game="tally", creator=ANN, options={})
        await there.join("c", BOB)
        await there.start("c", ANN, seed=5)
        await asyncio.sleep(0.5)  # A has read the clocks and sleeps: the first reminder is 12 h away
        assert heard == []
        clock.at(2)  # two hours on, B sets a one-hour reminder: due at once
        await Timekeeper(there).configure("c", ANN, remind_after="1h")
        began = time.monotonic()
        while not heard and time.monotonic() - began < 5:
            await asyncio.sleep(0.05)
        assert [o.notice for o in heard] == ["reminder"]
        assert time.monotonic() - began < 1.0
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
        await first.close()
        await second.close()
