"""Bots fill a XISK table: one person and bots of mixed levels play through the table service to game over.

The person's moves are a bot policy's too (``normal``, asked here in the test), played through
:meth:`host.tables.Tables.act` like anyone's; the bots play theirs through :class:`host.bots.Bots`.
"""

from __future__ import annotations

import logging
import random
import time

import pytest

from engines.core.ai import think
from host.bots import Bots, is_bot, level_of
from host.store import Status, Store
from host.tables import Tables
from host.thinker import Thinker
from tests.host.conftest import ANN, CHANNEL

BUDGET = 0.05
"""Seconds each think may take here (the bots' and the person's): a whole game stays within seconds."""
MOST_MOVES = 20_000
"""Moves after which the test gives up: no XISK game of six comes near it."""


async def play_to_the_end(store: Store, levels: list[str], seed: int, caplog: pytest.LogCaptureFixture) -> None:
    """Seats ann and one bot per level, plays the game out, and checks every seat played only legal moves."""
    thinker = Thinker(budget=BUDGET)
    tables = Tables(store, thinker=thinker)
    bots = Bots(tables)
    try:
        await tables.create(channel_id=CHANNEL, guild_id="1", game="xisk", creator=ANN, options={})
        for level in levels:
            await tables.add_bot(CHANNEL, ANN, level)
        await tables.start(CHANNEL, ANN, seed=seed)
        rng = random.Random(seed)
        caplog.set_level(logging.WARNING, logger="host.bots")
        for _ in range(MOST_MOVES):
            await bots.settle()
            table = await tables.table(CHANNEL)
            game = table.game
            assert game is not None
            if game.is_over:
                break
            if "ann" in game.to_act():
                await tables.act(CHANNEL, ANN.id, think(game, "ann", "normal", rng, budget=BUDGET))
            else:  # ann is out: the bots play on alone, past the guard on moves in a row if need be
                assert "played" in caplog.text and "in a row" in caplog.text, caplog.text
                caplog.clear()
                bots.nudge(CHANNEL)
        row = await store.game(table.row.id, snapshot=False)
        assert row is not None and row.status is Status.FINISHED
        assert game is not None and game.is_over and len(game.winners) == 1
        assert not [r for r in caplog.records if "refused" in r.getMessage() or "failed" in r.getMessage()]
        moves = await store.moves(table.row.id)
        assert {m.player_id for m in moves} == {s.player_id for s in table.seats}  # every seat played
        assert sorted(level_of(s.player_id) for s in table.seats if is_bot(s.player_id)) == sorted(levels)
        assert (await tables.replay(table.row.id)).to_json() == game.to_json()  # the log alone gives the end
    finally:
        await bots.settle()
        thinker.close()


async def test_six_seats_one_person_and_five_bots_of_mixed_levels_play_to_game_over(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    began = time.perf_counter()
    await play_to_the_end(store, ["easy", "normal", "hard", "normal", "easy"], 7, caplog)
    assert time.perf_counter() - began < 60  # measured at a few seconds; a slow host must not hang the suite


@pytest.mark.parametrize("levels", [["hard"], ["easy", "hard"]], ids=["2-seats", "3-seats"])
async def test_smaller_tables_of_one_person_and_bots_play_to_game_over(
    store: Store, caplog: pytest.LogCaptureFixture, levels: list[str]
) -> None:
    await play_to_the_end(store, levels, 3, caplog)
