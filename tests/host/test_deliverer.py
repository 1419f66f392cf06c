"""The deliverer: each stored announcement sent once, in commit order per channel, retried from where it stopped."""

from __future__ import annotations

import asyncio

import pytest

from host.deliverer import MAX_TRIES, Deliverer, Unreachable
from host.outbox import Outbox
from host.tables import Tables
from tests.host.conftest import ANN, BOB, CHANNEL, started_tally

BACKENDS = ("sqlite", "postgres")
"""Every test here runs on a SQLite file and on a PostgreSQL database (tests/host/conftest.py)."""


class Channel:
    """Records what a deliverer sends; fails on demand."""

    def __init__(self) -> None:
        self.sent: list[tuple[int | None, bool]] = []
        self.fail_next = 0

    async def send(self, out: Outbox, late: bool) -> None:
        out.receipt.setdefault("parts", 0)
        out.receipt["parts"] += 1  # one part went out before the failure below
        if self.fail_next:
            self.fail_next -= 1
            raise ConnectionError("Discord is down")
        self.sent.append((out.version, late))


async def test_announcements_go_out_in_commit_order_and_each_once(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    first = await tables.act(CHANNEL, ANN.id, "add 1")  # its fast path never ran (say, its task was cancelled)
    second = await tables.act(CHANNEL, BOB.id, "add 1")
    channel = Channel()
    deliverer = Deliverer(tables.store, channel.send)
    assert await deliverer.deliver(second)
    # the lobby's three (open, join, start), then move 1, all late; then move 2 itself
    assert channel.sent == [(0, True)] * 3 + [(first.version, True), (second.version, False)]
    assert not await deliverer.deliver(first) and await deliverer.sweep() == 0  # never twice
    assert len(channel.sent) == 5


async def test_a_failed_delivery_keeps_its_receipt_and_is_retried_by_the_sweep(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    channel = Channel()
    deliverer = Deliverer(tables.store, channel.send)
    await deliverer.sweep()
    out = await tables.act(CHANNEL, ANN.id, "add 1")
    channel.fail_next = 1
    with pytest.raises(ConnectionError):
        await deliverer.deliver(out)
    [pending] = await tables.store.pending()
    assert pending.receipt == {"parts": 1, "tries": 1}  # what was sent is known to the retry
    assert await deliverer.sweep() == 1 and channel.sent[-1] == (out.version, True)
    assert await tables.store.pending() == []


async def test_an_announcement_that_always_fails_is_given_up_after_the_last_try(
    tables: Tables, caplog: pytest.LogCaptureFixture
) -> None:
    await started_tally(tables, ANN, BOB)
    channel = Channel()
    deliverer = Deliverer(tables.store, channel.send)
    channel.fail_next = MAX_TRIES  # the oldest (the lobby's opening) fails every time
    for _ in range(MAX_TRIES):
        assert await deliverer.sweep() == 0  # the channel's later ones wait behind it
    assert await deliverer.sweep() == 2 and await tables.store.pending() == []
    assert channel.sent == [(0, True), (0, True)] and "given up" in caplog.text


async def test_the_loop_sweeps_at_start_and_when_kicked(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    channel = Channel()
    deliverer = Deliverer(tables.store, channel.send, retry_every=60)
    loop = asyncio.create_task(deliverer.run())
    try:
        for _ in range(500):  # a loaded machine's PostgreSQL may take a while over the three
            if len(channel.sent) >= 3:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        assert channel.sent == [(0, True)] * 3  # pending at start: delivered at once
        await tables.act(CHANNEL, ANN.id, "add 1")
        deliverer.kick()  # a fresh one is left to its fast path for a few seconds
        await asyncio.sleep(0.1)
        assert len(channel.sent) == 3
    finally:
        loop.cancel()
        with pytest.raises(asyncio.CancelledError):
            await loop


async def test_an_outage_is_waited_out_however_long_it_lasts(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    down = {"left": MAX_TRIES * 3}

    async def send(out: Outbox, late: bool) -> None:
        if down["left"]:
            down["left"] -= 1
            raise Unreachable("Discord is down")

    deliverer = Deliverer(tables.store, send)
    while down["left"]:
        assert await deliverer.sweep() == 0
    assert await deliverer.sweep() == 3 and await tables.store.pending() == []  # nothing given up


@pytest.mark.postgres_only
async def test_on_a_shared_store_a_channel_is_delivered_by_one_process_at_a_time(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    out = await tables.act(CHANNEL, ANN.id, "add 1")
    holding, release = asyncio.Event(), asyncio.Event()
    first, second = Channel(), Channel()

    async def slow(o: Outbox, late: bool) -> None:  # the first process is mid-send
        holding.set()
        await release.wait()
        await first.send(o, late)

    one = Deliverer(tables.store, slow, owner="one")
    two = Deliverer(tables.store, second.send, owner="two")
    busy = asyncio.create_task(one.deliver(out))
    await holding.wait()
    assert not await two.deliver(out) and await two.sweep() == 0  # held by "one": "two" leaves the channel
    release.set()
    assert await busy
    assert await two.sweep() == 0 and second.sent == [] and len(first.sent) == 4  # each sent once, by "one"


@pytest.mark.postgres_only
async def test_on_a_shared_store_a_dead_process_s_claim_lapses_and_another_delivers(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    out = await tables.act(CHANNEL, ANN.id, "add 1")
    clock = [1000.0]
    assert await tables.store.claim_channel(CHANNEL, "dead", at=clock[0], until=clock[0] + 120)  # then it died
    channel = Channel()
    heir = Deliverer(tables.store, channel.send, owner="heir", clock=lambda: clock[0])
    assert not await heir.deliver(out) and channel.sent == []
    clock[0] += 121  # the dead process's claim lapses
    assert await heir.sweep() == 4 and len(channel.sent) == 4 and await tables.store.pending() == []
