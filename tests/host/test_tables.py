"""Tables: lobby, moves committed before replies, refusals, idempotency, damage isolation."""

from __future__ import annotations

import asyncio

import pytest

from engines import GameError, IllegalMove, NotYourTurn
from host.fairness import commitment
from host.store import Status, Store
from host.tables import AWAY, Person, Refusal, Stale, Tables
from tests.host.conftest import ANN, BOB, CHANNEL, CY, started_tally, tamper

BACKENDS = ("sqlite", "postgres")
"""Every test here runs on a SQLite file and on a PostgreSQL database (tests/host/conftest.py)."""


async def test_lobby_join_start_seats_players_in_join_order(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={})
    await tables.join(CHANNEL, BOB)
    out = await tables.start(CHANNEL, BOB, seed=1)
    table = await tables.table(CHANNEL)
    assert table.game is not None and table.game.players == ["ann", "bob"]
    assert out.picture and out.mention == [ANN.id]


async def test_start_needs_enough_players(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={})
    with pytest.raises(Refusal, match="needs 2–4 players; 1 seated"):
        await tables.start(CHANNEL, ANN)


async def test_a_full_table_refuses_another_player(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={})
    for i in range(3):
        await tables.join(CHANNEL, Person(str(i), f"p{i}"))
    with pytest.raises(Refusal, match="full"):
        await tables.join(CHANNEL, CY)


async def test_joining_twice_is_refused_and_same_names_are_told_apart(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={})
    with pytest.raises(Refusal, match="already seated"):
        await tables.join(CHANNEL, ANN)
    await tables.join(CHANNEL, Person("77", "Ann"))
    assert [s.name for s in (await tables.table(CHANNEL)).seats] == ["ann", "Ann (2)"]


async def test_unknown_game_and_unknown_option_are_refused(tables: Tables) -> None:
    with pytest.raises(Refusal, match="no game called 'chess'"):
        await tables.create(channel_id=CHANNEL, guild_id="1", game="chess", creator=ANN, options={})
    with pytest.raises(GameError, match="no option 'speed'"):
        await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={"speed": 2})
    assert await tables.store.active_game(CHANNEL) is None


async def test_the_last_player_leaving_closes_the_lobby(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={})
    await tables.leave(CHANNEL, ANN)
    assert await tables.store.active_game(CHANNEL) is None


async def test_leaving_a_running_game_is_refused(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    with pytest.raises(Refusal, match="running"):
        await tables.leave(CHANNEL, ANN)


async def test_moves_before_start_are_refused(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={})
    with pytest.raises(Refusal, match="not started"):
        await tables.act(CHANNEL, ANN.id, "add 1")


async def test_a_non_player_is_refused(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    with pytest.raises(Refusal, match="not playing"):
        await tables.act(CHANNEL, CY.id, "add 1")


async def test_a_player_out_of_turn_is_refused(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    with pytest.raises(NotYourTurn, match="waiting for ann"):
        await tables.act(CHANNEL, BOB.id, "add 1")
    assert (await tables.store.active_game(CHANNEL)).version == 0


async def test_outbox_mentions_the_next_player_and_keeps_secrets_private(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    out = await tables.act(CHANNEL, ANN.id, "add 2")
    assert out.mention == [BOB.id]
    assert out.text() == "ann adds 2: the total is 2."
    assert set(out.private) == {ANN.id} and "secret" in out.private[ANN.id][0]
    assert set(out.secrets) == {ANN.id}
    assert "secret" not in out.view


async def test_a_game_continues_after_the_store_is_closed_and_reopened(db_path: str, tally_registered) -> None:
    store = await Store.open(db_path)
    tables = Tables(store, debug=True)
    await started_tally(tables, ANN, BOB)
    await tables.act(CHANNEL, ANN.id, "add 3")
    await tables.act(CHANNEL, BOB.id, "roll")
    before = (await tables.table(CHANNEL)).game.to_json()
    await store.close()

    store = await Store.open(db_path)
    tables = Tables(store, debug=True)
    table = await tables.table(CHANNEL)
    assert table.game.to_json() == before
    out = await tables.act(CHANNEL, ANN.id, "add 1")
    assert out.text() == "ann adds 1: the total is 4."
    await store.close()


async def test_fifty_concurrent_moves_apply_one_at_a_time(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={"target": 500})
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN, seed=5)
    players = [ANN, BOB] * 25
    results = await asyncio.gather(
        *(tables.act(CHANNEL, p.id, "add 1", interaction_id=f"i{n}") for n, p in enumerate(players)),
        return_exceptions=True,
    )
    assert not [r for r in results if isinstance(r, BaseException)]
    assert sorted(r.version for r in results) == list(range(1, 51))
    log = await tables.store.moves((await tables.store.active_game(CHANNEL)).id)
    assert [m.seq for m in log] == list(range(1, 51))
    assert len({m.interaction_id for m in log}) == 50
    assert (await tables.table(CHANNEL)).game.view(None)["total"] == 50


async def test_fifty_concurrent_moves_out_of_order_lose_and_double_nothing(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={"target": 500})
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN, seed=5)
    players = [ANN] * 25 + [BOB] * 25  # most of these arrive out of turn
    results = await asyncio.gather(
        *(tables.act(CHANNEL, p.id, "add 1", interaction_id=f"j{n}") for n, p in enumerate(players)),
        return_exceptions=True,
    )
    accepted = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert all(isinstance(r, NotYourTurn) for r in refused)
    assert len(accepted) + len(refused) == 50
    game = (await tables.table(CHANNEL)).game
    log = await tables.store.moves((await tables.store.active_game(CHANNEL)).id)
    assert game.view(None)["total"] == len(accepted) == len(log)


async def test_the_same_interaction_id_applies_once(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    first = await tables.act(CHANNEL, ANN.id, "add 1", interaction_id="abc")
    second = await tables.act(CHANNEL, ANN.id, "add 1", interaction_id="abc")
    assert not first.duplicate and second.duplicate
    table = await tables.table(CHANNEL)
    assert table.game.view(None)["total"] == 1
    assert len(await tables.store.moves(table.row.id)) == 1


async def test_a_move_that_fails_midway_changes_nothing(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    await tables.act(CHANNEL, ANN.id, "add 1")
    row = await tables.store.active_game(CHANNEL)
    game_json = (await tables.table(CHANNEL)).game.to_json()
    with pytest.raises(RuntimeError, match="boom"):
        await tables.act(CHANNEL, BOB.id, "boom")
    after = await tables.store.active_game(CHANNEL)
    assert (after.snapshot, after.version) == (row.snapshot, row.version)
    assert len(await tables.store.moves(row.id)) == 1
    assert (await tables.table(CHANNEL)).game.to_json() == game_json
    tables.forget(row.id)
    assert (await tables.table(CHANNEL)).game.to_json() == game_json


async def test_an_illegal_move_changes_nothing(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    row = await tables.store.active_game(CHANNEL)
    with pytest.raises(IllegalMove, match="1, 2 or 3, not 9"):
        await tables.act(CHANNEL, ANN.id, "add 9")
    after = await tables.store.active_game(CHANNEL)
    assert (after.snapshot, after.version) == (row.snapshot, row.version)


async def test_a_corrupted_snapshot_breaks_only_its_own_game(tables: Tables, backend: str) -> None:
    await started_tally(tables, ANN, BOB)
    other = "501"
    await tables.create(channel_id=other, guild_id="1", game="tally", creator=CY, options={})
    await tables.join(other, BOB)
    await tables.start(other, CY, seed=2)
    row = await tables.store.active_game(CHANNEL)
    junk = "\x00junk{" if backend == "sqlite" else "\x01junk{"  # PostgreSQL's text holds no NUL at all
    tamper(tables.store.path, "UPDATE games SET snapshot = ? WHERE id = ?", junk, row.id)
    tables.forget(row.id)

    with pytest.raises(Refusal, match="cannot be loaded") as err:
        await tables.act(CHANNEL, ANN.id, "add 1")
    assert "abort" in str(err.value)
    assert (await tables.store.game(row.id)).broken
    with pytest.raises(Refusal, match="cannot be loaded"):
        await tables.table(CHANNEL)

    out = await tables.act(other, CY.id, "add 2")  # the other game plays on
    assert out.text() == "cy adds 2: the total is 2."

    await tables.abort(CHANNEL, ANN, can_manage=False)  # the creator can still clear it
    assert (await tables.store.game(row.id)).status is Status.ABORTED


async def test_a_snapshot_that_disagrees_with_the_log_is_caught_in_debug_mode(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    await tables.act(CHANNEL, ANN.id, "add 1")
    row = await tables.store.active_game(CHANNEL)
    forged = row.snapshot.replace('"total":1', '"total":3')
    tamper(tables.store.path, "UPDATE games SET snapshot = ? WHERE id = ?", forged, row.id)
    tables.forget(row.id)
    with pytest.raises(Refusal, match="cannot be loaded") as err:
        await tables.act(CHANNEL, BOB.id, "add 1")
    assert "GameError" not in str(err.value)  # the detail goes to the log and the row, not the player
    assert "does not give the saved snapshot" in ((await tables.store.game(row.id)).broken or "")


async def test_replaying_the_log_equals_the_snapshot(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB, CY, seed=99)
    people = [ANN, BOB, CY]
    for n in range(12):
        await tables.act(CHANNEL, people[n % 3].id, "roll" if n % 4 == 0 else "add 1")
    row = await tables.store.active_game(CHANNEL)
    assert (await tables.replay(row.id)).to_json() == row.snapshot


async def test_a_finished_game_refuses_moves_but_still_shows(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={"target": 3})
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN, seed=1)
    out = await tables.act(CHANNEL, ANN.id, "add 3")
    kinds = [e["kind"] for e in out.events]
    assert out.finished and kinds[-2:] == ["game_over", "fair_dice"]  # after the winning move, then the seed
    assert out.events[-2]["text"] == "Game over: ann wins!" and "seed 1, salt" in out.events[-1]["text"]
    with pytest.raises(Refusal, match="no game running"):
        await tables.act(CHANNEL, BOB.id, "add 1")
    table = await tables.table(CHANNEL)
    assert table.row.status is Status.FINISHED and table.game.view(None)["total"] == 3


async def test_only_the_creator_or_a_manager_can_abort(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    with pytest.raises(Refusal, match="creator or someone with Manage Channels"):
        await tables.abort(CHANNEL, BOB, can_manage=False)
    await tables.abort(CHANNEL, BOB, can_manage=True)
    assert await tables.store.active_game(CHANNEL) is None


async def test_two_services_on_one_database_never_lose_a_move(db_path: str, tally_registered) -> None:
    s1, s2 = await Store.open(db_path), await Store.open(db_path)
    t1, t2 = Tables(s1), Tables(s2)
    await started_tally(t1, ANN, BOB)
    await t1.act(CHANNEL, ANN.id, "add 1")
    await t2.act(CHANNEL, BOB.id, "add 1")  # t2 loads fresh
    await t1.act(CHANNEL, ANN.id, "add 1")  # t1's cache is stale: it must reload
    assert (await t2.table(CHANNEL)).game.view(None)["total"] == 3
    await s1.close()
    await s2.close()


async def test_drain_waits_for_a_move_in_progress_then_refuses_new_ones(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    lock = tables.lock(CHANNEL)
    await lock.acquire()  # a move is "in progress"
    drained = asyncio.create_task(tables.drain())
    await asyncio.sleep(0.01)
    assert not drained.done()
    lock.release()
    await asyncio.wait_for(drained, 1)
    with pytest.raises(Refusal, match="restarting"):
        await tables.act(CHANNEL, ANN.id, "add 1")


async def test_start_announces_the_opening_and_sends_each_secret_to_its_owner(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={})
    await tables.join(CHANNEL, BOB)
    out = await tables.start(CHANNEL, ANN, seed=8)
    game = (await tables.table(CHANNEL)).game
    head, sealed, race = out.text().splitlines()
    assert (head, race) == ("Tally begins: ann, bob.", "The race to 21 begins.")
    salt = (await tables.store.game(out.game_id, snapshot=False)).salt
    assert sealed.startswith(f"🎲 Fair dice: this game's seed is sealed as SHA-256 {commitment(8, salt)};")
    assert out.private == {
        ANN.id: [f"Your secret is {game.view('ann')['secret']}."],
        BOB.id: [f"Your secret is {game.view('bob')['secret']}."],
    }
    assert set(out.secrets) == {ANN.id, BOB.id} and out.names == {ANN.id: "ann", BOB.id: "bob"}


async def test_a_move_command_of_another_game_is_refused(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    with pytest.raises(Refusal, match="a Tally game, not a XISK game"):
        await tables.act(CHANNEL, ANN.id, "add 1", for_game="xisk")
    assert (await tables.table(CHANNEL)).row.version == 0
    out = await tables.act(CHANNEL, ANN.id, "add 1", for_game="tally")
    assert out.version == 1


async def test_a_move_for_a_position_already_played_past_is_refused_under_the_lock(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    game_id = (await tables.table(CHANNEL)).row.id
    first, second = await asyncio.gather(  # two clicks on buttons of the same message, at once
        tables.act(CHANNEL, ANN.id, "add 1", position=(game_id, 0)),
        tables.act(CHANNEL, BOB.id, "add 1", position=(game_id, 0)),
        return_exceptions=True,
    )
    assert not isinstance(first, BaseException) and first.version == 1
    assert isinstance(second, Stale) and "out of date" in str(second)
    with pytest.raises(Stale, match="has ended"):
        await tables.act(CHANNEL, BOB.id, "add 1", position=(game_id + 1, 1))
    assert (await tables.table(CHANNEL)).row.version == 1


async def test_a_read_racing_a_move_neither_breaks_the_game_nor_serves_the_old_position(
    tables: Tables, store: Store
) -> None:
    await started_tally(tables, ANN, BOB)
    latest_game = store.latest_game

    async def read_then_a_move_lands(channel_id: str, **kwargs):  # type: ignore[no-untyped-def]
        row = await latest_game(channel_id, **kwargs)
        store.latest_game = latest_game  # type: ignore[method-assign]
        await tables.act(CHANNEL, ANN.id, "add 1")
        return row

    store.latest_game = read_then_a_move_lands  # type: ignore[method-assign]
    table = await tables.table(CHANNEL)
    assert table.row.version == 1 and table.game is not None and table.game.view(None)["total"] == 1
    row = await store.active_game(CHANNEL)
    assert row is not None and row.broken is None


async def test_an_engine_fault_logs_the_kind_of_move_but_not_its_words(
    tables: Tables, caplog: pytest.LogCaptureFixture
) -> None:
    await started_tally(tables, ANN, BOB)
    with pytest.raises(RuntimeError):
        await tables.act(CHANNEL, ANN.id, "boom AS KS QS")
    assert "'boom' move" in caplog.text and "AS KS QS" not in caplog.text


async def test_the_repeat_of_the_move_that_ended_the_game_is_already_played(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={"target": 3})
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN, seed=1)
    assert (await tables.act(CHANNEL, ANN.id, "add 3", interaction_id="last")).finished
    again = await tables.act(CHANNEL, ANN.id, "add 3", interaction_id="last")
    assert again.duplicate and again.lines == ["That move was already played."]


async def test_a_version_behind_its_log_is_rebuilt_from_the_log_not_stuck_on_already_played(
    tables: Tables,
) -> None:
    await started_tally(tables, ANN, BOB)
    await tables.act(CHANNEL, ANN.id, "add 1")
    await tables.act(CHANNEL, BOB.id, "add 2")
    row = await tables.store.active_game(CHANNEL)
    first = (await tables.replay(row.id)).to_json()
    tamper(tables.store.path, "UPDATE games SET version = 1 WHERE id = ?", row.id)  # the log is ahead
    tables.forget(row.id)
    out = await tables.act(CHANNEL, ANN.id, "add 3")
    assert not out.duplicate and out.version == 3 and out.text() == "ann adds 3: the total is 6."
    after = await tables.store.active_game(CHANNEL)
    assert after.version == len(await tables.store.moves(row.id)) == 3 and first != after.snapshot


async def test_a_lobby_closed_by_another_process_while_starting_is_refused_clearly(
    db_path: str, tally_registered
) -> None:
    s1, s2 = await Store.open(db_path), await Store.open(db_path)
    t1, t2 = Tables(s1), Tables(s2)
    await t1.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={})
    await t1.join(CHANNEL, BOB)
    start_game = s1.start_game

    async def the_other_process_aborts_first(*args, **kwargs):  # type: ignore[no-untyped-def]
        await t2.abort(CHANNEL, ANN, can_manage=False)
        return await start_game(*args, **kwargs)

    s1.start_game = the_other_process_aborts_first  # type: ignore[method-assign]
    with pytest.raises(Refusal, match="already started, or its table was closed"):
        await t1.start(CHANNEL, ANN, seed=1)
    assert await s1.active_game(CHANNEL) is None and t1.cached == 0
    await s1.close()
    await s2.close()


async def test_away_lists_who_must_act_and_has_not_moved_lately(store: Store, tally_registered: type) -> None:
    now = [5_000.0]
    tables = Tables(store, debug=True, clock=lambda: now[0])
    await started_tally(tables, ANN, BOB)
    first = await tables.act(CHANNEL, ANN.id, "add 1")
    assert first.to_act == [BOB.id] and first.away == [BOB.id]  # Bob has not moved yet
    back = await tables.act(CHANNEL, BOB.id, "add 1")
    assert back.away == []  # Ann moved a moment ago: she is at the table
    now[0] += AWAY - 1
    assert (await tables.act(CHANNEL, ANN.id, "add 1")).away == []  # Bob, 599 s ago
    now[0] += AWAY
    assert (await tables.act(CHANNEL, BOB.id, "add 1")).away == [ANN.id]  # Ann, 1,199 s ago
