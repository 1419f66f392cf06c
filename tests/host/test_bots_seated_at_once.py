"""Several bots seated at once: one change, one announcement line, all of them or none."""

from __future__ import annotations

import pytest

from host.bots import is_bot
from host.store import NewSeat, SeatTaken, Store
from host.tables import Refusal, Tables
from tests.host.conftest import ANN, BOB, CHANNEL

BACKENDS = ("sqlite", "postgres")
"""Every test here runs on a SQLite file and on a PostgreSQL database (tests/host/conftest.py)."""


async def lobby(tables: Tables) -> int:
    """Opens a XISK lobby (six seats) by ann in CHANNEL and returns its game id."""
    await tables.create(channel_id=CHANNEL, guild_id="1", game="xisk", creator=ANN, options={})
    row = await tables.store.active_game(CHANNEL, snapshot=False)
    assert row is not None
    return row.id


async def test_three_bots_are_seated_in_one_change_with_one_line(tables: Tables) -> None:
    game_id = await lobby(tables)
    before = len(await tables.store.pending())
    out = await tables.add_bot(CHANNEL, ANN, "hard", 3)
    assert out.lines == ["ann seats 3 XISK bots (hard): XISK bot (hard), XISK bot (hard) (2), XISK bot (hard) (3)"
                         " (4/6). They play their turns at once."]
    assert len(await tables.store.pending()) == before + 1  # one announcement
    seats = await tables.store.seats(game_id)
    assert [(s.seat, s.player_id) for s in seats] == [(0, ANN.id), (1, "bot:hard:1"), (2, "bot:hard:2"),
                                                      (3, "bot:hard:3")]
    await tables.add_bot(CHANNEL, ANN, "easy", 2)  # numbered on after the bots already seated
    assert [s.player_id for s in await tables.store.seats(game_id)][4:] == ["bot:easy:4", "bot:easy:5"]


async def test_bots_that_do_not_fit_are_refused_and_none_is_seated(tables: Tables) -> None:
    game_id = await lobby(tables)
    await tables.join(CHANNEL, BOB)
    await tables.add_bot(CHANNEL, BOB, "normal", 2)
    pending = len(await tables.store.pending())
    with pytest.raises(Refusal, match=r"^The table has room for 2 more players; 3 bots asked\. Nothing was changed\.$"):
        await tables.add_bot(CHANNEL, ANN, "normal", 3)
    with pytest.raises(Refusal, match="at least one bot"):
        await tables.add_bot(CHANNEL, ANN, "normal", 0)
    assert len(await tables.store.seats(game_id)) == 4 and len(await tables.store.pending()) == pending
    await tables.add_bot(CHANNEL, ANN, "normal", 2)
    with pytest.raises(Refusal, match=r"table is full \(6 players\)"):
        await tables.add_bot(CHANNEL, ANN, "normal", 1)


async def test_one_person_and_bots_start_a_game(tables: Tables) -> None:
    await lobby(tables)
    await tables.add_bot(CHANNEL, ANN, "easy", 5)
    await tables.start(CHANNEL, ANN, seed=4)
    table = await tables.table(CHANNEL)
    assert table.game is not None and len(table.game.players) == 6
    assert [is_bot(s.player_id) for s in table.seats] == [False] + [True] * 5


async def test_seats_added_together_are_all_or_none_in_the_store(store: Store, tables: Tables) -> None:
    game_id = await lobby(tables)
    with pytest.raises(SeatTaken):  # the second name is ann's: the first seat is not kept either
        await store.add_seats(game_id, [NewSeat("bot:easy:1", "XISK bot (easy)"), NewSeat("bot:easy:2", "ann")])
    assert [s.player_id for s in await store.seats(game_id)] == [ANN.id]
    added = await store.add_seats(game_id, [NewSeat("bot:easy:1", "one"), NewSeat("bot:easy:2", "two")])
    assert [(s.seat, s.name) for s in added] == [(1, "one"), (2, "two")] == [
        (s.seat, s.name) for s in (await store.seats(game_id))[1:]]
