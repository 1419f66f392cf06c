"""The coach in the table service: who may have a hint, the hinted mark, the board's note, the ratings' verdict,
and the hint's honesty (it comes from the seat's own view)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import host.thinker
from engines import KITS
from engines.xisk.ai import choose
from host.db import Tx
from host.ratings import HINTED, Ratings, _judge, _Verdict
from host.store import Store
from host.table import Table
from host.tables import Refusal, Tables
from host.tables_hints import HINTED_LINE, HINTS_OFF, TAKEN
from tests.engines.xisk.test_ai import twin
from tests.host.conftest import ANN, BOB, CHANNEL, CY, started_tally
from tests.support.tally import KIT

BACKENDS = ("sqlite", "postgres")
"""Every test here runs on a SQLite file and on a PostgreSQL database (tests/host/conftest.py)."""


async def verdict(store: Store, game_id: int) -> _Verdict | None:
    async def work(tx: Tx) -> _Verdict | None:
        return await _judge(tx, game_id)

    return await store.db.read(work)


async def test_a_hint_needs_hints_on_in_a_game_of_two_people_and_then_it_is_unrated(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={"target": 6})
    with pytest.raises(Refusal, match="has not started"):
        await tables.hint(CHANNEL, ANN)
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN, seed=3)
    with pytest.raises(Refusal) as off:
        await tables.hint(CHANNEL, ANN)
    assert str(off.value) == HINTS_OFF
    with pytest.raises(Refusal, match="Only the game's creator"):
        await tables.set_hints(CHANNEL, BOB, True)
    on = await tables.set_hints(CHANNEL, BOB, True, manager=True)  # a channel manager may, too
    assert on.lines == ["Hints are on: a hint makes the game unrated."] and not on.picture
    with pytest.raises(Refusal, match="It is ann's turn, not yours"):
        await tables.hint(CHANNEL, BOB)
    with pytest.raises(Refusal, match="You are not playing"):
        await tables.hint(CHANNEL, CY)
    row = (await tables.table(CHANNEL)).row
    assert not (await tables.hints.get(row.id)).hinted

    first = await tables.hint(CHANNEL, ANN)
    assert (first.move, first.unrated) == ("add 3", True) and first.why
    assert first.out is not None and first.out.lines == [TAKEN] and first.out.picture
    assert first.out.version == row.version and first.out.mention == [] and first.out.move is None
    assert (await tables.hints.get(row.id)).hinted  # committed before the hint was returned
    assert first.out.id in [o.id for o in await tables.store.pending()]  # its board note, durable
    assert await tables.unrated_note(first.out) == HINTED_LINE
    second = await tables.hint(CHANNEL, ANN)
    assert (second.move, second.unrated, second.out) == ("add 3", False, None)

    await tables.act(CHANNEL, ANN.id, "add 3")
    await tables.act(CHANNEL, BOB.id, "add 3")  # 6: bob wins
    ratings = Ratings(tables.store)
    assert not await ratings.record(row.id)
    assert (await verdict(tables.store, row.id)).reason == HINTED == "a hint was taken"
    assert await ratings.rebuild() == 0  # read from the games table alone: the same verdict
    with pytest.raises(Refusal, match="has ended"):
        await tables.hint(CHANNEL, ANN)


async def test_an_unhinted_game_counts_and_its_board_has_no_note(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    row = (await tables.table(CHANNEL)).row
    await tables.set_hints(CHANNEL, ANN, True)  # allowed, never taken
    for _ in range(7):
        out = await tables.act(CHANNEL, ANN.id, "add 3")
        if out.finished:
            break
        out = await tables.act(CHANNEL, BOB.id, "add 3")
        if out.finished:
            break
        assert await tables.unrated_note(out) is None
    assert (await verdict(tables.store, row.id)).reason is None
    assert await Ratings(tables.store).rebuild() == 1


async def test_one_person_with_bots_gets_hints_without_the_switch(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={})
    await tables.add_bot(CHANNEL, ANN, "easy")
    await tables.start(CHANNEL, ANN, seed=3)
    hint = await tables.hint(CHANNEL, ANN)
    assert hint.move == "add 3" and not hint.unrated and hint.out is None  # not rated anyway: no board note
    row = (await tables.table(CHANNEL)).row
    assert (await tables.hints.get(row.id)).hinted and not (await tables.hints.get(row.id)).allowed
    with pytest.raises(Refusal, match="already off"):
        await tables.set_hints(CHANNEL, ANN, False)


async def test_a_game_without_a_coach_has_no_hints(tables: Tables) -> None:
    KITS.add(replace(KIT, ai=None))  # Tally without its bot (the fixture takes the kit away after the test)
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={})
    await tables.join(CHANNEL, BOB)
    with pytest.raises(Refusal, match="Tally has no coach yet"):
        await tables.set_hints(CHANNEL, ANN, True)
    await tables.start(CHANNEL, ANN, seed=3)
    with pytest.raises(Refusal, match="Tally has no coach yet"):
        await tables.hint(CHANNEL, ANN)


async def test_a_game_that_moves_on_while_the_coach_thinks_gives_no_hint(tables: Tables,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    await started_tally(tables, ANN, BOB)
    await tables.set_hints(CHANNEL, ANN, True)
    think = tables.thinker.hint

    async def slow(game, seat):  # ann clicks a move while her hint is thought over
        choice = await think(game, seat)
        await tables.act(CHANNEL, ANN.id, "add 1")
        return choice

    monkeypatch.setattr(tables.thinker, "hint", slow)
    with pytest.raises(Refusal, match="moved on while the coach thought"):
        await tables.hint(CHANNEL, ANN)
    assert not (await tables.hints.get((await tables.table(CHANNEL)).row.id)).hinted


async def test_the_hint_comes_from_the_seats_own_view(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two XISK games alike in the seat's view, but not in the other hands, the deck or the dice to come, get the
    same hint through the table service (the coach's own randomness fixed)."""
    monkeypatch.setattr(host.thinker, "bot_rng", lambda: random.Random(9))
    tables = Tables(store)
    await tables.create(channel_id=CHANNEL, guild_id="1", game="xisk", creator=ANN, options={})
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN, seed=4)
    await tables.set_hints(CHANNEL, ANN, True)
    people, rng, rnd, compared = {"ann": ANN, "bob": BOB}, random.Random(2), random.Random(5), 0
    for moves in range(120):
        table = await tables.table(CHANNEL)
        game = table.game
        seat = game.to_act()[0]
        if moves % 20 == 7:
            real = await tables.hint(CHANNEL, people[seat])
            other = twin(game, rnd)
            hands_differ = any(other.state.hands[p] != game.state.hands[p] for p in game.players if p != seat)
            tables._cache[CHANNEL] = Table(table.row, table.seats, other)  # the twin in the engine's place
            try:
                again = await tables.hint(CHANNEL, people[seat])
                assert (again.move, again.why) == (real.move, real.why), moves
            finally:
                tables._cache[CHANNEL] = table
            assert real.move in game.legal_moves(seat)
            compared += hands_differ
        await tables.act(CHANNEL, people[seat].id, choose(game.view(seat), game.legal_moves(seat), seat, "easy", rng))
    assert compared >= 3
