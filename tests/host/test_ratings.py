"""Ratings: OpenSkill per server and game; which games count; once only; a rebuild gives the same table."""

from __future__ import annotations

import asyncio
import logging
import math

import pytest

import bot
from host.clock import ClockSettings
from host.db import Tx
from host.ratings import MODEL, PlayerRating, Ratings
from host.store import Store
from host.tables import Person, Tables
from tests.host.conftest import ANN, BOB, CHANNEL, CY

BACKENDS = ("sqlite", "postgres")
"""Every test here runs on a SQLite file and on a PostgreSQL database (tests/host/conftest.py)."""

DEE = Person("1004", "dee")
ROBO = Person("bot:easy:1", "robo")
START = MODEL.rating()
FRESH = START.mu - 3 * START.sigma


async def opened(tables: Tables, players: list[Person], *, channel: str = CHANNEL, guild: str | None = "1",
                 target: int = 21) -> int:
    """Opens and starts a Tally game of ``players`` (the first to act first); returns its id."""
    await tables.create(channel_id=channel, guild_id=guild, game="tally", creator=players[0],
                        options={"target": target})
    for p in players[1:]:
        await tables.join(channel, p)
    await tables.start(channel, players[0], seed=11)
    return (await tables.table(channel)).row.id


async def won(tables: Tables, players: list[Person], winner: Person, *, channel: str = CHANNEL,
              guild: str | None = "1") -> int:
    """Plays a whole Tally game that ``winner`` wins (everyone adds 1 in turn); returns its id."""
    at = players.index(winner)
    game_id = await opened(tables, players, channel=channel, guild=guild, target=at + 1)
    for p in players[: at + 1]:
        await tables.act(channel, p.id, "add 1")
    return game_id


async def table_of(store: Store) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Returns the whole ratings and rated tables, in a fixed order."""

    async def read(tx: Tx) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
        return (
            [tuple(r) for r in await tx.fetch("SELECT * FROM ratings ORDER BY guild_id, game, player_id")],
            [tuple(r) for r in await tx.fetch("SELECT * FROM rated ORDER BY game_id")],
        )

    return await store.db.read(read)


async def counted(store: Store, game_id: int) -> int | None:
    value = await store.db.read(lambda tx: tx.fetchval("SELECT counted FROM rated WHERE game_id = ?", game_id))
    return None if value is None else int(value)


async def rating(ratings: Ratings, player: Person, guild: str | None = "1") -> PlayerRating | None:
    return next(iter(await ratings.stats(guild, player.id)), None)


@pytest.fixture
def ratings(tables: Tables) -> Ratings:
    return Ratings(tables.store)


async def test_the_winner_gains_and_the_loser_drops(tables: Tables, ratings: Ratings) -> None:
    game_id = await won(tables, [ANN, BOB], BOB)
    assert await ratings.record(game_id)
    ann, bob = await rating(ratings, ANN), await rating(ratings, BOB)
    assert ann is not None and bob is not None
    assert bob.mu > START.mu > ann.mu
    assert bob.ordinal > FRESH > ann.ordinal
    assert (bob.games, bob.wins, ann.games, ann.wins) == (1, 1, 1, 0)
    assert bob.sigma < START.sigma and ann.sigma < START.sigma
    assert await counted(tables.store, game_id) == 1


async def test_in_a_three_player_game_the_winner_rises_and_both_losers_drop(tables: Tables, ratings: Ratings) -> None:
    game_id = await won(tables, [ANN, BOB, CY], CY)
    assert await ratings.record(game_id)
    ann, bob, cy = [await rating(ratings, p) for p in (ANN, BOB, CY)]
    assert cy is not None and ann is not None and bob is not None
    assert cy.mu > START.mu and ann.mu < START.mu and bob.mu < START.mu
    assert math.isclose(ann.mu, bob.mu) and math.isclose(ann.sigma, bob.sigma)  # losers are tied
    assert cy.wins == 1 and ann.wins == bob.wins == 0


async def test_more_wins_rate_higher_and_lead_the_leaderboard(tables: Tables, ratings: Ratings) -> None:
    for winner in (ANN, ANN, ANN, BOB, ANN):
        await ratings.record(await won(tables, [ANN, BOB], winner))
    for winner in (CY, DEE):
        await ratings.record(await won(tables, [CY, DEE], winner))
    ann, bob, cy = [await rating(ratings, p) for p in (ANN, BOB, CY)]
    assert ann is not None and bob is not None and cy is not None
    assert (ann.games, ann.wins, bob.wins) == (5, 4, 1)
    assert ann.ordinal > cy.ordinal > bob.ordinal
    board = await ratings.leaderboard("1", "tally")
    assert board[0].player_id == ANN.id and board[-1].player_id == BOB.id
    assert [r.ordinal for r in board] == sorted((r.ordinal for r in board), reverse=True)
    assert len(await ratings.leaderboard("1", "tally", limit=2)) == 2
    assert await ratings.leaderboard("1", "nxs") == []


async def test_an_aborted_game_does_not_count_and_is_marked(tables: Tables, ratings: Ratings, caplog) -> None:
    game_id = await opened(tables, [ANN, BOB])
    await tables.act(CHANNEL, ANN.id, "add 1")
    await tables.abort(CHANNEL, ANN, can_manage=True)
    with caplog.at_level(logging.INFO, logger="host.ratings"):
        assert not await ratings.record(game_id)
    assert await counted(tables.store, game_id) == 0
    assert await ratings.stats("1", ANN.id) == []
    assert f"game {game_id} (tally) does not count for ratings: it was aborted" in caplog.text


async def test_a_game_with_one_human_does_not_count(tables: Tables, ratings: Ratings) -> None:
    game_id = await won(tables, [ANN, ROBO], ANN)
    assert not await ratings.record(game_id)
    assert await counted(tables.store, game_id) == 0
    assert await ratings.stats("1", ANN.id) == []


async def test_a_bot_seat_is_left_out_and_the_humans_are_rated_among_themselves(
    tables: Tables, ratings: Ratings
) -> None:
    game_id = await won(tables, [ANN, ROBO, BOB], BOB)
    assert await ratings.record(game_id)
    assert await ratings.stats("1", ROBO.id) == []
    ann, bob = await rating(ratings, ANN), await rating(ratings, BOB)
    assert ann is not None and bob is not None and bob.mu > START.mu > ann.mu
    alone = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[2, 1])  # the same as a game of the two
    assert (ann.mu, bob.mu) == (alone[0][0].mu, alone[1][0].mu)


async def test_a_forfeit_at_the_start_does_not_count(tables: Tables, ratings: Ratings, caplog) -> None:
    first = await opened(tables, [ANN, BOB])
    await tables.act(CHANNEL, ANN.id, "resign")  # before anyone played
    three = await opened(tables, [ANN, BOB, CY])
    await tables.act(CHANNEL, ANN.id, "add 1")
    await tables.act(CHANNEL, BOB.id, "resign")  # a give-up is no move of one's own; Cy never moved
    with caplog.at_level(logging.INFO, logger="host.ratings"):
        assert not await ratings.record(first)
        assert not await ratings.record(three)
    assert [await counted(tables.store, g) for g in (first, three)] == [0, 0]
    assert await ratings.stats("1", CY.id) == []
    assert "a forfeit at the start (ann, bob had not made a move)" in caplog.text
    assert "a forfeit at the start (bob, cy had not made a move)" in caplog.text


async def test_the_clocks_forfeit_at_the_start_does_not_count(tables: Tables, ratings: Ratings) -> None:
    game_id = await opened(tables, [ANN, BOB])
    out = await tables.time_out(game_id, 0, ClockSettings(on_timeout="forfeit"))
    assert out is not None and out.finished
    assert not await ratings.record(game_id)
    assert await counted(tables.store, game_id) == 0


async def test_a_resignation_after_everyone_has_played_counts(tables: Tables, ratings: Ratings) -> None:
    game_id = await opened(tables, [ANN, BOB])
    await tables.act(CHANNEL, ANN.id, "add 1")
    await tables.act(CHANNEL, BOB.id, "add 1")
    await tables.act(CHANNEL, ANN.id, "resign")
    assert await ratings.record(game_id)
    bob = await rating(ratings, BOB)
    assert bob is not None and bob.wins == 1 and bob.mu > START.mu


async def test_a_game_still_running_is_not_marked(tables: Tables, ratings: Ratings) -> None:
    game_id = await opened(tables, [ANN, BOB])
    assert not await ratings.record(game_id)
    assert await counted(tables.store, game_id) is None
    assert not await ratings.record(12345)  # no such game


async def test_recording_twice_counts_once(tables: Tables, ratings: Ratings) -> None:
    game_id = await won(tables, [ANN, BOB], ANN)
    assert await ratings.record(game_id)
    once = await table_of(tables.store)
    assert not await ratings.record(game_id)
    assert await ratings.sweep() == 0
    assert await table_of(tables.store) == once
    ann = await rating(ratings, ANN)
    assert ann is not None and (ann.games, ann.wins) == (1, 1)


async def test_a_draw_counts_a_game_and_no_win(tables: Tables, ratings: Ratings) -> None:
    game_id = await won(tables, [ANN, BOB], ANN)
    await tables.store.db.write(lambda tx: tx.execute("UPDATE games SET winners = '[]' WHERE id = ?", game_id))
    assert await ratings.record(game_id)
    ann, bob = await rating(ratings, ANN), await rating(ratings, BOB)
    assert ann is not None and bob is not None
    assert (ann.games, ann.wins, bob.games, bob.wins) == (1, 0, 1, 0)
    assert ann.mu == bob.mu == START.mu and ann.sigma < START.sigma


async def test_a_game_from_before_recorded_winners_is_read_from_its_final_state(
    tables: Tables, ratings: Ratings
) -> None:
    game_id = await won(tables, [ANN, BOB], BOB)
    await tables.store.db.write(lambda tx: tx.execute("UPDATE games SET winners = NULL WHERE id = ?", game_id))
    assert await ratings.record(game_id)
    bob = await rating(ratings, BOB)
    assert bob is not None and bob.wins == 1


async def test_each_server_keeps_its_own_ratings(tables: Tables, ratings: Ratings) -> None:
    await ratings.record(await won(tables, [ANN, BOB], ANN, guild="1"))
    await ratings.record(await won(tables, [ANN, BOB], BOB, guild="2"))
    await ratings.record(await won(tables, [ANN, BOB], BOB, guild="2"))
    await ratings.record(await won(tables, [ANN, BOB], ANN, guild=None))
    here, there, nowhere = [await rating(ratings, ANN, g) for g in ("1", "2", None)]
    assert here is not None and there is not None and nowhere is not None
    assert (here.games, here.wins) == (1, 1) and (there.games, there.wins) == (2, 0)
    assert here.mu > START.mu > there.mu and nowhere == here
    assert [r.player_id for r in await ratings.leaderboard("2", "tally")] == [BOB.id, ANN.id]
    assert await rating(ratings, ANN, "") == nowhere  # no server: kept under ''
    assert await ratings.stats("3", ANN.id) == []


async def a_season(tables: Tables, ratings: Ratings | None) -> list[int]:
    """Plays games of every kind in two servers, recording each as it ends when ``ratings`` is given."""
    ids = []
    plays = [
        ([ANN, BOB], ANN, "1"), ([ANN, BOB, CY], BOB, "1"), ([CY, ANN], ANN, "1"), ([ANN, BOB], BOB, "2"),
        ([ANN, BOB, CY, DEE], DEE, "1"), ([ANN, ROBO], ANN, "1"), ([ANN, ROBO, BOB], ROBO, "1"),
        ([BOB, DEE], DEE, "2"), ([ANN, CY], CY, None),
    ]
    for players, winner, guild in plays:
        ids.append(await won(tables, players, winner, guild=guild))
        if ratings:
            await ratings.record(ids[-1])
    ids.append(await opened(tables, [ANN, BOB]))
    await tables.act(CHANNEL, ANN.id, "resign")
    ids.append(await opened(tables, [CY, DEE]))
    await tables.abort(CHANNEL, CY, can_manage=True)
    if ratings:
        for game_id in ids[-2:]:
            await ratings.record(game_id)
    return ids


async def test_a_rebuild_gives_exactly_the_table_of_the_records(tables: Tables, ratings: Ratings) -> None:
    await a_season(tables, ratings)
    incremental = await table_of(tables.store)
    assert len(incremental[0]) == 9 and sum(c for _, c in incremental[1]) == 8
    assert await ratings.rebuild() == 8
    assert await table_of(tables.store) == incremental  # floats compared exactly
    assert await ratings.rebuild("2") == 2
    assert await table_of(tables.store) == incremental


async def test_a_rebuild_from_nothing_and_a_sweep_agree(tables: Tables, ratings: Ratings) -> None:
    await a_season(tables, None)
    assert await table_of(tables.store) == ([], [])
    assert await ratings.sweep() == 8  # e.g. after a crash before each record
    swept = await table_of(tables.store)
    await tables.store.db.write(lambda tx: tx.execute("UPDATE ratings SET mu = 0"))  # damage
    assert await ratings.rebuild() == 8
    assert await table_of(tables.store) == swept


async def test_games_ending_out_of_order_still_match_a_rebuild(tables: Tables, ratings: Ratings, caplog) -> None:
    early = await opened(tables, [ANN, BOB], channel="601", target=2)
    late = await won(tables, [ANN, BOB], ANN, channel="602")
    another = await won(tables, [CY, DEE], CY, channel="603")
    assert await ratings.record(late) and await ratings.record(another)
    await tables.act("601", ANN.id, "add 1")
    await tables.act("601", BOB.id, "add 1")  # the game opened first ends last: Bob wins
    with caplog.at_level(logging.INFO, logger="host.ratings"):
        assert await ratings.record(early)
    assert f"game {early} ended after a later game was rated: recomputing tally ratings of server '1'" in caplog.text
    recorded = await table_of(tables.store)
    await ratings.rebuild()
    assert await table_of(tables.store) == recorded
    ann = await rating(ratings, ANN)
    assert ann is not None and (ann.games, ann.wins) == (2, 1)


def test_the_rating_shown_is_the_ordinal_to_one_decimal() -> None:
    r = PlayerRating("tally", "1", 30.0, 5.0, 4, 3)
    assert r.ordinal == 15.0 and r.rating == 15.0 and r.win_rate == 0.75
    assert PlayerRating("tally", "1", 25.0, 25 / 3, 0, 0).rating == 0.0
    assert PlayerRating("tally", "1", 20.01, 6.7, 1, 0).rating == -0.1
    assert PlayerRating("tally", "1", 1.0, 1.0, 0, 0).win_rate == 0.0


async def test_bot_rebuild_ratings_recomputes_the_table_and_says_how_many_counted(
    tables: Tables, ratings: Ratings, db_path: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    await a_season(tables, ratings)
    recorded = await table_of(tables.store)
    await tables.store.db.write(lambda tx: tx.execute("DELETE FROM ratings"))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("TABLEHOST_DB", db_path)
    assert await asyncio.to_thread(bot.main, ["--rebuild-ratings"]) == 0  # its own loop, as from the shell
    assert capsys.readouterr().out == f"Ratings rebuilt from {db_path}: 8 games counted.\n"
    assert await table_of(tables.store) == recorded
