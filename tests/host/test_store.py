"""The store: schema migrations, WAL, one active game per channel, atomic versioned moves."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from host.outbox import Outbox
from host.store import MIGRATIONS, Board, DuplicateInteraction, StaleVersion, Status, Store, StoreError
from tests.host.conftest import tamper

BACKENDS = ("sqlite", "postgres")
"""Every test here runs on a SQLite file and on a PostgreSQL database (tests/host/conftest.py)."""


async def _running_game(store: Store) -> int:
    row = await store.create_game(guild_id="1", channel_id="c", game="tally", creator_id="u", options={})
    await store.add_seat(row.id, "u", "ann")
    await store.start_game(row.id, seed=1, snapshot="{}")
    return row.id


async def test_schema_is_versioned_and_migrations_run_once(db_path: str) -> None:
    first = await Store.open(db_path)
    assert await first.schema_version() == len(MIGRATIONS)
    await first.close()
    again = await Store.open(db_path)  # nothing left to migrate: must not fail
    assert await again.schema_version() == len(MIGRATIONS)
    await again.close()


@pytest.mark.sqlite_only
async def test_database_uses_wal(store: Store) -> None:
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal"


async def test_a_newer_schema_is_refused(db_path: str, backend: str) -> None:
    await (await Store.open(db_path)).close()
    newer = len(MIGRATIONS) + 1
    tamper(db_path, f"PRAGMA user_version = {newer}" if backend == "sqlite" else
           f"UPDATE schema_version SET version = {newer}")
    with pytest.raises(StoreError, match="newer than this bot"):
        await Store.open(db_path)


async def test_one_active_game_per_channel(store: Store) -> None:
    await store.create_game(guild_id="1", channel_id="c", game="tally", creator_id="u", options={})
    with pytest.raises(StoreError):
        await store.create_game(guild_id="1", channel_id="c", game="tally", creator_id="v", options={})
    other = await store.create_game(guild_id="1", channel_id="d", game="tally", creator_id="v", options={})
    assert other.status is Status.LOBBY


async def test_commit_writes_log_snapshot_and_version_together(store: Store) -> None:
    gid = await _running_game(store)
    v = await store.commit_move(
        gid, expected_version=0, player_id="u", move="add 1", snapshot="S1", interaction_id="i1", finished=False
    )
    row = await store.game(gid)
    assert (v, row.version, row.snapshot) == (1, 1, "S1")
    assert [m.move for m in await store.moves(gid)] == ["add 1"]


async def test_commit_with_a_stale_version_writes_nothing(store: Store) -> None:
    gid = await _running_game(store)
    await store.commit_move(
        gid, expected_version=0, player_id="u", move="add 1", snapshot="S1", interaction_id=None, finished=False
    )
    with pytest.raises(StaleVersion):
        await store.commit_move(
            gid, expected_version=0, player_id="u", move="add 2", snapshot="S2", interaction_id=None,
            finished=False,
        )
    row = await store.game(gid)
    assert (row.version, row.snapshot) == (1, "S1")
    assert len(await store.moves(gid)) == 1


async def test_moves_last_keeps_the_most_recent_in_order(store: Store) -> None:
    gid = await _running_game(store)
    for v in range(5):
        await store.commit_move(
            gid, expected_version=v, player_id="u", move=f"m{v}", snapshot="S", interaction_id=None,
            finished=False,
        )
    assert [m.move for m in await store.moves(gid, last=2)] == ["m3", "m4"]


async def test_a_lobby_and_its_creators_seat_are_written_together(store: Store) -> None:
    row = await store.create_game(
        guild_id="1", channel_id="c", game="tally", creator_id="u", options={}, creator_name="ann"
    )
    assert [(s.seat, s.player_id, s.name) for s in await store.seats(row.id)] == [(0, "u", "ann")]


async def test_the_last_seat_leaving_closes_the_lobby_in_the_same_transaction(store: Store) -> None:
    row = await store.create_game(
        guild_id="1", channel_id="c", game="tally", creator_id="u", options={}, creator_name="ann"
    )
    assert await store.remove_seat(row.id, "nobody") is None
    assert await store.remove_seat(row.id, "u") == 0
    assert (await store.game(row.id)).status is Status.ABORTED


async def test_a_log_ahead_of_the_version_is_stale_not_already_played(store: Store) -> None:
    gid = await _running_game(store)
    tamper(store.path, "INSERT INTO moves (game_id, seq, player_id, move, at) VALUES (?, 1, 'u', 'x', 'now')", gid)
    with pytest.raises(StaleVersion, match="log is ahead"):
        await store.commit_move(
            gid, expected_version=0, player_id="u", move="add 1", snapshot="S1", interaction_id="i1", finished=False
        )
    assert (await store.game(gid)).version == 0 and await store.move_by_interaction("i1") is None


async def test_a_repeated_interaction_id_is_a_duplicate_and_writes_nothing(store: Store) -> None:
    gid = await _running_game(store)
    await store.commit_move(
        gid, expected_version=0, player_id="u", move="add 1", snapshot="S1", interaction_id="i1", finished=False
    )
    with pytest.raises(DuplicateInteraction):
        await store.commit_move(
            gid, expected_version=1, player_id="u", move="add 1", snapshot="S2", interaction_id="i1", finished=False
        )
    assert (await store.game(gid)).snapshot == "S1"


async def test_an_announcement_is_written_with_its_move_and_delivered_once(store: Store) -> None:
    gid = await _running_game(store)
    out = Outbox(game_id=gid, game="tally", channel_id="c", lines=["ann adds 1."], secrets={"u": {"hand": ["AS"]}})
    await store.commit_move(
        gid, expected_version=0, player_id="u", move="add 1", snapshot="S1", interaction_id=None, finished=False,
        announce=out,
    )
    [pending] = await store.pending(channel_id="c")
    assert pending.id == out.id and pending.lines == ["ann adds 1."] and pending.secrets == out.secrets
    await store.delivered(out.id, {"channel": [123]})
    assert await store.pending() == [] and await store.is_delivered(out.id)
    row = await store.db.read(lambda tx: tx.fetchrow("SELECT payload, receipt FROM outbox"))
    assert tuple(row) == (None, '{"channel": [123]}')  # a delivered announcement keeps its receipt, not its secrets


async def test_processes_starting_together_on_a_new_database_migrate_it_once(db_path: str) -> None:
    stores = await asyncio.gather(*(Store.open(db_path) for _ in range(4)))  # four pools or connections at once
    assert [await s.schema_version() for s in stores] == [len(MIGRATIONS)] * 4
    await stores[0].create_game(guild_id="1", channel_id="c", game="tally", creator_id="u", options={})
    assert (await stores[3].active_game("c")).creator_id == "u"  # one database, seen by all
    for s in stores:
        await s.close()


async def test_idle_games_awaiting_a_kind_of_player_are_found_by_who_must_act(store: Store) -> None:
    gid = await _running_game(store)
    waiting = Outbox(game_id=gid, game="tally", channel_id="c", to_act=["bot:easy:1"])
    await store.commit_move(gid, expected_version=0, player_id="u", move="add 1", snapshot="S1", interaction_id=None,
                            finished=False, announce=waiting)
    later, earlier = "9999-01-01T00:00:00+00:00", "2000-01-01T00:00:00+00:00"
    assert await store.idle_awaiting("bot:", later) == ["c"]
    assert await store.idle_awaiting("bot:", earlier) == []  # it changed after that
    assert await store.idle_awaiting("%", later) == [] and await store.idle_awaiting("bot_", later) == []  # literal
    await store.commit_move(gid, expected_version=1, player_id="bot:easy:1", move="add 1", snapshot="S2",
                            interaction_id=None, finished=False,
                            announce=Outbox(game_id=gid, game="tally", channel_id="c", to_act=["u"]))
    assert await store.idle_awaiting("bot:", later) == []  # a person must act now


async def test_a_board_keeps_its_turn_s_events_and_the_summary_of_the_turn_before(store: Store) -> None:
    gid = await _running_game(store)
    board = Board("m1", ("u", "turn 2"), ("ann adds 1.",), ({"kind": "add", "text": "ann adds 1.", "n": 1},),
                  "bob adds 2.")
    await store.set_board(gid, board)
    assert await store.board(gid) == board
    plain = Board("m2", ("u",), ("ann adds 3.",))  # no events, no summary: stored as the plain list it always was
    await store.set_board(gid, plain)
    assert await store.board(gid) == plain


async def test_a_board_stored_as_a_list_of_lines_is_still_read_and_a_damaged_one_is_dropped(
    store: Store, db_path: str
) -> None:
    gid = await _running_game(store)
    await store.set_board(gid, Board("m1", ("u",), ()))
    tamper(db_path, "UPDATE boards SET recap = ? WHERE game_id = ?", '["ann adds 1.", "ann adds 2."]', gid)
    assert await store.board(gid) == Board("m1", ("u",), ("ann adds 1.", "ann adds 2."))  # a board from before
    tamper(db_path, "UPDATE boards SET recap = ? WHERE game_id = ?", '{"lines": 7}', gid)
    assert await store.board(gid) is None  # damaged: the next move posts a new board
