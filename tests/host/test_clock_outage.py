"""A PostgreSQL outage and the turn clock: every deadline that fell due meanwhile fires soon after it ends.

The timekeeper runs as in the bot (its own loop, real waits), with time ten times fast: it sleeps
1.5 s at most (15 s in the bot) and retries a failed read from 0.05 s (0.5 s), doubling. The game
time is moved by hand. The server is stopped for 2 s (20 s), during which reminders and a timeout
fall due; once it is back every deadline is handled within 2 s (20 s), once. Time enters the
timekeeper only through those two settings, so the figures scale.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator

import pytest

from host.clock import ClockSettings
from host.outbox import Outbox
from host.store import Store
from host.tables import Person, Tables
from host.timekeeper import MAX_SLEEP, RETRY_FIRST, Timekeeper
from tests.support.clock import Clock
from tests.support.postgres import PostgresServer, PostgresUnavailable, make_root, unavailable

SCALE = 0.1
"""Test seconds per second of the bot's."""
OUTAGE = 20.0 * SCALE
WITHIN = 20.0 * SCALE
ANN, BOB = Person("1", "Ann"), Person("2", "Bob")


@pytest.fixture
def server(postgres_server: PostgresServer) -> Iterator[PostgresServer]:
    """A server of the test's own (the session's server must stay up for the other tests)."""
    try:
        own = PostgresServer.start(make_root())
    except PostgresUnavailable as err:
        unavailable(err.reason)
    yield own
    own.stop()


@pytest.fixture
async def tables(server: PostgresServer, tally_registered: type) -> AsyncIterator[Tables]:
    store = await Store.open(await server.create_database())
    yield Tables(store, clock=Clock(1_700_000_000.0))
    await store.close()


async def test_a_20_s_outage_ends_with_every_reminder_and_timeout_fired_within_20_s_of_its_end(
    server: PostgresServer, tables: Tables, caplog: pytest.LogCaptureFixture
) -> None:
    clock = tables.clock
    assert isinstance(clock, Clock)
    settings = [ClockSettings.parse(remind_after="12h", timeout="2d")] * 3 + [ClockSettings.parse(timeout="6h")]
    for n, clock_settings in enumerate(settings):
        channel = f"c{n}"
        await tables.create(channel_id=channel, guild_id="1", game="tally", creator=ANN, options={},
                            clock=clock_settings)
        await tables.join(channel, BOB)
        await tables.start(channel, ANN, seed=11)
    written: list[Outbox] = []

    async def deliver(out: Outbox) -> None:
        written.append(out)

    keeper = Timekeeper(tables, deliver=deliver, max_sleep=MAX_SLEEP * SCALE, retry_first=RETRY_FIRST * SCALE)
    running = asyncio.create_task(keeper.run())
    try:
        await asyncio.sleep(0.3)
        assert written == []  # nothing due yet
        server.pause()
        clock.at(13)  # three reminders and one timeout are due, while the database is down
        keeper.kick()
        await asyncio.sleep(OUTAGE)
        assert written == []
        server.resume()
        back = time.monotonic()
        while len(written) < 4 and time.monotonic() - back < WITHIN + 5:  # (5 s to see a failure, not a scale)
            await asyncio.sleep(0.1)
        took = time.monotonic() - back
        assert sorted(o.notice or "timeout" for o in written) == ["reminder", "reminder", "reminder", "timeout"]
        assert took <= WITHIN, took
        await asyncio.sleep(MAX_SLEEP * SCALE)
        assert len(written) == 4  # each once
    finally:
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running
    failures = [r for r in caplog.records if "could not read the clocks" in r.getMessage()]
    assert len(failures) == 1  # one line for the spell, not one per retry
