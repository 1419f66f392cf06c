"""Many tables at once: concurrent channels, cancellation at every await, bounded memory."""

from __future__ import annotations

import asyncio
import gc
import random
from contextvars import ContextVar
from typing import Any

import pytest

from engines import GameError
from host.outbox import Outbox
from host.store import Store
from host.tables import Person, Tables
from tests.host.conftest import ANN, BOB

BACKENDS = ("sqlite", "postgres")
"""Every test here runs on a SQLite file and on a PostgreSQL database (tests/host/conftest.py)."""

CHANNELS = 100


async def open_tally(tables: Tables, channel: str, *, target: int = 500) -> None:
    """Opens and starts a two-player Tally race in ``channel`` (ann first)."""
    await tables.create(channel_id=channel, guild_id="1", game="tally", creator=ANN, options={"target": target})
    await tables.join(channel, BOB)
    await tables.start(channel, ANN, seed=int(channel))


async def test_a_hundred_channels_of_concurrent_moves_apply_each_once_or_refuse_it_clearly(tables: Tables) -> None:
    channels = [str(1000 + n) for n in range(CHANNELS)]
    await asyncio.gather(*(open_tally(tables, c) for c in channels))
    rng = random.Random(7)
    sends: list[tuple[str, Person, str]] = []
    for c in channels:
        for k in range(6):  # several per channel, in a shuffled order, some sent twice
            sends.append((c, rng.choice([ANN, BOB]), f"{c}-{k}"))
            if k % 3 == 0:
                sends.append((c, rng.choice([ANN, BOB]), f"{c}-{k}"))  # a repeated interaction id
    rng.shuffle(sends)
    results = await asyncio.gather(
        *(tables.act(c, p.id, "add 1", interaction_id=i) for c, p, i in sends), return_exceptions=True
    )

    failures = [r for r in results if isinstance(r, BaseException) and not isinstance(r, GameError)]
    assert failures == []
    refusals = {str(r) for r in results if isinstance(r, GameError)}
    assert refusals <= {"It is not your turn, ann: waiting for bob.", "It is not your turn, bob: waiting for ann."}
    played = [r for r in results if isinstance(r, Outbox) and not r.duplicate]
    for c in channels:
        row = await tables.store.active_game(c)
        assert row is not None
        log = await tables.store.moves(row.id)
        ids = [m.interaction_id for m in log]
        assert len(ids) == len(set(ids)) == row.version  # applied once each, none lost
        assert sorted(o.version for o in played if o.channel_id == c) == list(range(1, row.version + 1))
        assert (await tables.replay(row.id)).to_json() == row.snapshot
    pending = await tables.store.pending()
    assert len(pending) == len(played) + 3 * CHANNELS  # every move's announcement is stored, with the lobby's


MARKED: ContextVar[bool] = ContextVar("marked", default=False)
"""Set in the task to cancel; the transactions it begins run as their own tasks and inherit it."""


class CancelAt:
    """Cancels one task at its ``n``-th await of the database, or of a transaction it began (0 = the first).

    The awaits are the database's ``call``: SQLite's hops to its thread (each read, each whole
    transaction), PostgreSQL's pool, statements and commits.
    """

    def __init__(self, store: Store, n: int) -> None:
        self.n, self.calls = n, 0
        self.task: asyncio.Task[Any] | None = None
        self.forward = store.db.call  # type: ignore[attr-defined]

    async def __call__(self, step: Any) -> Any:
        if MARKED.get() and self.task is not None:
            if self.calls == self.n:
                self.task.cancel()  # lands on the await just below, while the step still runs
            self.calls += 1
        return await self.forward(step)

    async def act(self, tables: Tables, channel: str, player_id: str, move: str, interaction_id: str) -> Outbox:
        """Plays a move in a task this cancels."""
        MARKED.set(True)
        return await tables.act(channel, player_id, move, interaction_id=interaction_id)


async def test_a_move_cancelled_at_any_await_is_wholly_there_or_wholly_absent(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    await open_tally(tables, "1")
    await open_tally(tables, "2")
    store, seen_absent, seen_there = tables.store, False, False
    n = 0
    while True:
        tables.forget((await store.active_game("1")).id)  # also cancel within the load path
        row = await store.active_game("1")
        mover = ANN if row.version % 2 == 0 else BOB
        cancel = CancelAt(store, n)
        monkeypatch.setattr(store.db, "call", cancel)
        cancel.task = task = asyncio.create_task(cancel.act(tables, "1", mover.id, "add 1", f"c{n}"))
        try:
            await task
            finished = True
        except asyncio.CancelledError:
            finished = False
        monkeypatch.setattr(store.db, "call", cancel.forward)
        await store.db.settled()  # the transaction the cancelled task began, if any, has ended

        after = await store.active_game("1")
        log = await store.moves(after.id)
        there = any(m.interaction_id == f"c{n}" for m in log)
        assert after.version == len(log) == row.version + there  # the log, snapshot and version agree
        assert (await tables.replay(after.id)).to_json() == after.snapshot
        announced = {o.version for o in await store.pending(channel_id="1") if o.move}
        assert there == (row.version + 1 in announced)  # a committed move's announcement is stored with it
        seen_there |= there and not finished
        seen_absent |= not there
        # the store is usable: the next move in another channel, and in this one, succeed
        other = await store.active_game("2")
        await tables.act("2", (ANN if other.version % 2 == 0 else BOB).id, "add 1")
        again = ANN if after.version % 2 == 0 else BOB
        assert (await tables.act("1", again.id, "add 1")).version == after.version + 1
        if finished:
            break
        n += 1
    assert n >= 4 and seen_absent and seen_there  # cancelled before, during and after the commit


async def test_the_engine_cache_is_bounded_and_finished_games_leave_it(store: Store, tally_registered: type) -> None:
    tables = Tables(store, cache_size=10)
    for n in range(25):
        await open_tally(tables, str(n), target=3)
    assert tables.cached == 10
    await tables.act("24", ANN.id, "add 3")  # wins: the game is over
    assert tables.cached == 9
    assert (await tables.table("0")).game is not None  # an evicted game loads again on demand
    await tables.act("0", ANN.id, "add 1")


async def test_channel_locks_are_not_kept_once_nobody_holds_them(tables: Tables) -> None:
    for n in range(50):
        await open_tally(tables, str(n))
    gc.collect()
    assert len(tables._locks) == 0
    held = tables.lock("7")
    async with held:
        assert tables.lock("7") is held  # one lock per channel while it is in use
    await tables.act("8", ANN.id, "add 1")
