"""Bots in seats: seated in a lobby, playing their turns through the host path, seeing only their seat."""

from __future__ import annotations

import asyncio
import random

import pytest

from engines.core.ai import think
from host.bots import Bots, is_bot
from host.clock import HOUR, ClockSettings
from host.outbox import Outbox
from host.store import Store
from host.tables import Refusal, Tables
from host.timekeeper import Timekeeper
from tests.host.conftest import ANN, BOB, CHANNEL

BACKENDS = ("sqlite", "postgres")
"""Every test here runs on a SQLite file and on a PostgreSQL database (tests/host/conftest.py)."""


@pytest.fixture
async def served(store: Store, tally_registered: type) -> tuple[Tables, Bots, list[Outbox]]:
    delivered: list[Outbox] = []

    async def deliver(out: Outbox) -> None:
        delivered.append(out)

    tables = Tables(store, debug=True)
    return tables, Bots(tables, deliver=deliver), delivered


async def test_a_bot_takes_a_seat_and_plays_its_turns_through_the_log(served) -> None:
    tables, bots, delivered = served
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={"target": 30})
    seated = await tables.add_bot(CHANNEL, ANN, "hard")
    assert "ann seats Tally bot (hard) (2/4)" in seated.lines[0]
    await tables.start(CHANNEL, ANN, seed=3)
    await tables.act(CHANNEL, ANN.id, "add 1")
    await bots.settle()
    table = await tables.table(CHANNEL)
    moves = await tables.store.moves(table.row.id)
    assert [(is_bot(m.player_id), m.move) for m in moves] == [(False, "add 1"), (True, "add 3")]
    assert table.game.to_act() == ["ann"] and delivered and delivered[-1].move == "add 3"
    assert all(not is_bot(uid) for out in delivered for uid in [*out.private, *out.secrets, *out.mention])


async def test_bots_alone_cannot_start_and_a_lobby_of_bots_closes(served) -> None:
    tables, _, _ = served
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={})
    await tables.add_bot(CHANNEL, ANN, "easy")
    await tables.add_bot(CHANNEL, ANN, "normal")
    with pytest.raises(Refusal, match="Only a seated player"):
        await tables.add_bot(CHANNEL, BOB, "hard")
    with pytest.raises(Refusal, match="level is easy, normal, hard"):
        await tables.add_bot(CHANNEL, ANN, "godlike")
    left = await tables.leave(CHANNEL, ANN)
    assert "only bots are left, so the table closes" in left.lines[0] and left.finished
    assert await tables.store.active_game(CHANNEL) is None


async def test_bots_never_start_a_game_among_themselves(served) -> None:
    tables, _, _ = served
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={})
    await tables.add_bot(CHANNEL, ANN, "easy")
    await tables.add_bot(CHANNEL, ANN, "easy")
    await tables.leave(CHANNEL, ANN)  # closes: bots alone never play
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={})
    await tables.add_bot(CHANNEL, ANN, "easy")
    await tables.add_bot(CHANNEL, ANN, "hard")
    row = await tables.store.active_game(CHANNEL, snapshot=False)
    await tables.store.remove_seat(row.id, ANN.id)  # behind the service's back: two bots and the creator outside
    with pytest.raises(Refusal, match="at least one person"):
        await tables.start(CHANNEL, ANN)


async def test_on_timeout_bot_plays_the_turn_for_the_player_who_takes_it_back_by_acting(
    store: Store, tally_registered: type
) -> None:
    now = [0.0]
    tables = Tables(store, debug=True, clock=lambda: now[0])
    keeper = Timekeeper(tables)
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={},
                        clock=ClockSettings.parse(on_timeout="bot"))
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN, seed=3)
    now[0] = 72 * HOUR
    (out,) = await keeper.tick()
    assert "a bot (normal) plays ann's turn until they act again (add 3)." in out.lines[0]
    await tables.act(CHANNEL, BOB.id, "add 1")
    await tables.act(CHANNEL, ANN.id, "add 2")  # her seat is hers again
    moves = await tables.store.moves((await tables.table(CHANNEL)).row.id)
    assert [(m.move, m.origin) for m in moves] == [("add 3", "clock"), ("add 1", None), ("add 2", None)]


def test_a_bot_is_asked_with_its_seat_s_view_only(tally_registered: type) -> None:
    seen: list[dict] = []
    game = tally_registered.new(["ann", "bob"], 5)

    class Watching:
        def view(self, seat: str | None) -> dict:
            view = game.view(seat)
            seen.append(view)
            return view

        def __getattr__(self, name: str) -> object:
            return getattr(game, name)

    think(Watching(), "ann", "hard", random.Random(1))  # type: ignore[arg-type]
    assert seen == [game.view("ann")] and "secret" in seen[0] and seen[0]["secret"] == game.view("ann")["secret"]


@pytest.mark.postgres_only
async def test_a_bot_left_to_play_by_a_process_that_stopped_is_played_by_another_s_watch(
    served, db_path: str
) -> None:
    tables, _, _ = served
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={"target": 30})
    await tables.add_bot(CHANNEL, ANN, "easy")
    await tables.start(CHANNEL, ANN, seed=3)
    tables.listeners.clear()  # this process stops before its bots see the move
    await tables.act(CHANNEL, ANN.id, "add 1")
    other = await Store.open(db_path)  # another process on the same database
    watcher = Bots(Tables(other))
    assert await watcher.sweep(idle_for=3600) == 0  # a game that just moved is left to its own process
    watch = asyncio.create_task(watcher.watch(every=0.05, idle_for=0.0))
    try:
        for _ in range(200):
            await asyncio.sleep(0.05)
            if len(await other.moves((await other.active_game(CHANNEL)).id)) == 2:
                break
    finally:
        watch.cancel()
        await watcher.settle()
    moves = await other.moves((await other.active_game(CHANNEL)).id)
    assert [(is_bot(m.player_id), m.move.split()[0]) for m in moves] == [(False, "add"), (True, "add")]
    await other.close()
