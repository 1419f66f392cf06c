"""The turn clock, on a clock moved by hand: reminders once per window, timeouts once, restarts, pause."""

from __future__ import annotations

import asyncio

import pytest

from engines import GAMES
from host.clock import ClockSettings, will_do
from host.outbox import Outbox
from host.store import Status, Store
from host.tables import Person, Refusal, Tables
from host.timekeeper import Timekeeper
from tests.host.conftest import ANN, BOB, CHANNEL
from tests.support.clock import Clock

BACKENDS = ("sqlite", "postgres")
"""Every test here runs on a SQLite file and on a PostgreSQL database (tests/host/conftest.py)."""

START = 1_700_000_000.0


async def opened(db_path: str, clock: Clock) -> tuple[Store, Tables, Timekeeper]:
    store = await Store.open(db_path)
    tables = Tables(store, debug=True, clock=clock)
    return store, tables, Timekeeper(tables)


async def started(tables: Tables, settings: ClockSettings | None = None) -> None:
    """Starts a Tally game of Ann (to act first) and Bob in CHANNEL."""
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={}, clock=settings)
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN, seed=11)


def texts(outs: list[Outbox]) -> list[str]:
    return [line for out in outs for line in out.lines]


@pytest.fixture
def clock() -> Clock:
    return Clock(START)


@pytest.fixture
async def kept(db_path: str, clock: Clock, tally_registered: type) -> tuple[Store, Tables, Timekeeper]:
    store, tables, keeper = await opened(db_path, clock)
    yield store, tables, keeper
    await store.close()


async def test_reminders_fire_once_per_window_in_the_channel_and_by_dm(kept, clock: Clock) -> None:
    _, tables, keeper = kept
    await started(tables)
    clock.at(11.9)
    assert await keeper.tick() == []
    clock.at(12)
    (first,) = await keeper.tick()
    assert first.notice == "reminder" and first.mention == [ANN.id]
    assert "it is ann's move. 2 d 12 h left, then the clock skips the turn" in first.lines[0]
    assert list(first.private) == [ANN.id] and "2 d 12 h left" in first.private[ANN.id][0]
    clock.at(30)
    assert await keeper.tick() == []  # the same window: never twice
    clock.at(42)
    (second,) = await keeper.tick()
    assert "1 d 6 h left" in second.lines[0]
    assert await keeper.tick() == []


async def test_a_timeout_skips_exactly_once_and_says_so(kept, clock: Clock) -> None:
    store, tables, keeper = kept
    await started(tables)
    clock.at(72)
    (out,) = await keeper.tick()
    assert out.lines[0].startswith("⏰ ann's time ran out (3 d without a move): ann has the turn skipped by the clock")
    assert out.move == "add 1" and out.picture and out.mention == [BOB.id]
    assert await keeper.tick() == []
    moves = await store.moves((await tables.table(CHANNEL)).row.id)
    assert [(m.move, m.origin) for m in moves] == [("add 1", "clock")]
    table = await tables.table(CHANNEL)
    assert table.game.to_act() == ["bob"] and table.row.version == 1
    clock.at(72 + 11)
    assert await keeper.tick() == []  # Bob's windows started at the timeout
    clock.at(72 + 12)
    assert [o.mention for o in await keeper.tick()] == [[BOB.id]]


async def test_a_timeout_forfeits_once_and_ends_a_two_player_game(kept, clock: Clock) -> None:
    _, tables, keeper = kept
    await started(tables, ClockSettings(on_timeout="forfeit"))
    clock.at(80)
    (out,) = await keeper.tick()
    assert "ann forfeits by the clock (resign)" in out.lines[0]
    over = next(e for e in out.events if e["kind"] == "game_over")
    assert out.finished and over["winners"] == ["bob"]
    row = (await tables.table(CHANNEL)).row
    assert row.status is Status.FINISHED
    clock.at(500)
    assert await keeper.tick() == [] and await keeper.clocks.next_due() is None


async def test_acting_restarts_the_windows(kept, clock: Clock) -> None:
    _, tables, keeper = kept
    await started(tables)
    clock.at(11)
    await tables.act(CHANNEL, ANN.id, "add 2")
    clock.at(11 + 11.9)
    assert await keeper.tick() == []  # 22.9 h since the start, but 11.9 h since Ann moved
    clock.at(11 + 12)
    assert [o.mention for o in await keeper.tick()] == [[BOB.id]]
    await tables.act(CHANNEL, BOB.id, "add 1")
    clock.at(11 + 12 + 71.9)
    assert [o.notice for o in await keeper.tick()] == ["reminder"]  # Ann's second reminder, not a timeout


async def test_a_restart_past_the_deadline_times_out_once_even_with_two_starts(
    db_path: str, clock: Clock, tally_registered: type
) -> None:
    store, tables, _ = await opened(db_path, clock)
    await started(tables)
    await store.close()
    clock.at(100)  # the bot was down through both reminders and the timeout
    handled: list[Outbox] = []
    for _start in range(2):
        store, _, keeper = await opened(db_path, clock)
        handled += await keeper.tick()
        await store.close()
    assert texts(handled) == [t for t in texts(handled) if "time ran out" in t] and len(handled) == 1
    store, tables, _ = await opened(db_path, clock)
    moves = await store.moves((await tables.table(CHANNEL)).row.id)
    assert [m.origin for m in moves] == ["clock"]
    await store.close()


async def test_two_timekeepers_at_once_handle_a_deadline_once(
    db_path: str, clock: Clock, tally_registered: type
) -> None:
    store, tables, keeper = await opened(db_path, clock)
    other_store, _, other = await opened(db_path, clock)
    try:
        await started(tables)
        clock.at(12)
        results = await asyncio.gather(keeper.tick(), other.tick())
        assert sum(len(r) for r in results) == 1
        clock.at(72)
        results = await asyncio.gather(keeper.tick(), other.tick())
        assert sum(len(r) for r in results) == 1
        assert len(await store.moves((await tables.table(CHANNEL)).row.id)) == 1
    finally:
        await other_store.close()
        await store.close()


async def test_pause_stops_everything_and_resume_restarts_the_windows(kept, clock: Clock) -> None:
    _, tables, keeper = kept
    await started(tables)
    clock.at(10)
    paused = await keeper.pause(CHANNEL, ANN)
    assert isinstance(paused, Outbox) and "paused the clock" in paused.lines[0]
    with pytest.raises(Refusal, match="already paused"):
        await keeper.pause(CHANNEL, ANN)
    clock.at(500)
    assert await keeper.tick() == [] and await keeper.clocks.next_due() is None
    await tables.act(CHANNEL, ANN.id, "add 1")  # moves go on while paused; the clock stays stopped
    assert await keeper.clocks.next_due() is None
    resumed = await keeper.resume(CHANNEL, ANN)
    assert isinstance(resumed, Outbox) and "counted from now" in resumed.lines[0]
    clock.at(500 + 11.9)
    assert await keeper.tick() == []
    clock.at(500 + 12)
    assert [o.mention for o in await keeper.tick()] == [[BOB.id]]


async def test_a_player_s_pause_waits_for_every_player_and_others_may_not_ask(kept, clock: Clock) -> None:
    _, tables, keeper = kept
    await started(tables)
    with pytest.raises(Refusal, match="creator or its players"):
        await keeper.pause(CHANNEL, Person("999", "eve"))
    assert await keeper.pause(CHANNEL, BOB) == (1, 2)  # Bob asks; the clock runs on meanwhile
    clock.at(12)
    assert [o.notice for o in await keeper.tick()] == ["reminder"]
    paused = await keeper.pause(CHANNEL, ANN)
    assert isinstance(paused, Outbox) and await keeper.clocks.next_due() is None


async def test_reminder_dms_can_be_turned_off(kept, clock: Clock) -> None:
    _, tables, keeper = kept
    await keeper.clocks.set_dm_reminders(ANN.id, False)
    await started(tables)
    clock.at(12)
    (out,) = await keeper.tick()
    assert out.mention == [ANN.id] and out.private == {}


async def test_the_creator_changes_the_clock_and_bad_values_are_refused(kept, clock: Clock) -> None:
    _, tables, keeper = kept
    await started(tables)
    with pytest.raises(Refusal, match="Only the game's creator"):
        await keeper.configure(CHANNEL, BOB, timeout="1d")
    with pytest.raises(Exception, match="must come before the timeout"):
        await keeper.configure(CHANNEL, ANN, remind_after="2d", timeout="1d")
    out = await keeper.configure(CHANNEL, ANN, remind_after="1h", timeout="4h", on_timeout="forfeit")
    assert "reminders after 1 h, timeout after 4 h (forfeit)" in out.lines[0]
    clock.at(4)
    (done,) = await keeper.tick()
    assert "forfeits" in done.lines[0] and done.finished


async def test_the_clock_s_moves_cannot_be_taken_back(kept, clock: Clock) -> None:
    _, tables, keeper = kept
    await started(tables)
    clock.at(72)
    await keeper.tick()
    await tables.act(CHANNEL, BOB.id, "add 1")
    clock.at(72 + 72)
    await keeper.tick()  # Ann's turn skipped again: her last move is the clock's
    with pytest.raises(Refusal, match="played by the turn clock"):
        await tables.undo(CHANNEL, ANN)


@pytest.mark.parametrize(("game", "on_timeout", "words"), [
    ("xisk", "skip", "skips the turn"), ("xisk", "forfeit", "resigns for them"),
    ("nxs", "skip", "resigns for them"), ("nxs", "forfeit", "resigns for them"),  # NXS has no skip
    ("nexo", "skip", "skips the turn"), ("nexo", "forfeit", "concedes for them"),
    ("xisk", "bot-normal", "hands the turn to a bot (normal)"), ("nxs", "bot-easy", "hands the turn to a bot (easy)"),
])
def test_the_reminder_names_what_the_clock_will_do_in_each_game(game: str, on_timeout: str, words: str) -> None:
    assert will_do(GAMES[game].new(["ann", "bob"], seed=1), on_timeout) == words


async def test_an_nxs_timeout_on_skip_says_the_player_forfeits(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="nxs", creator=ANN, options={})
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN, seed=3)
    table = await tables.table(CHANNEL)
    out = await tables.time_out(table.row.id, table.row.version, ClockSettings(on_timeout="skip"))
    assert out is not None and "forfeits by the clock (resign)" in out.lines[0], out.lines[0]
    assert "skipped" not in out.lines[0] and (await tables.table(CHANNEL)).game.is_over
