"""A game in a thread of its own knows the channel it was opened from, so that channel can point to it."""

from __future__ import annotations

from host.db import open_database
from host.rematch import Rematches
from host.store import MIGRATIONS, GameRow, Status, Store
from host.tables import Tables
from tests.host.conftest import ANN, BOB

BACKENDS = ("sqlite", "postgres")
"""Every test here runs on a SQLite file and on a PostgreSQL database (tests/host/conftest.py)."""

PARENT = "700"
"""The channel the threads are opened from."""


def _before_parents() -> int:
    """Returns how many migrations there were before the one that adds ``games.parent_id``."""
    return next(n for n, m in enumerate(MIGRATIONS) if "parent_id" in m.sqlite)


async def test_the_parent_migration_keeps_an_existing_database_s_games(db_path: str) -> None:
    db = await open_database(db_path)
    await db.migrate(MIGRATIONS[:_before_parents()])  # a database of the bot before threads were known
    await db.write(lambda tx: tx.execute(
        "INSERT INTO games (guild_id, channel_id, game, status, creator_id, created_at, updated_at)"
        " VALUES ('1', ?, 'tally', 'lobby', 'u', 'then', 'then')", PARENT))
    await db.close()
    store = await Store.open(db_path)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        old = await store.active_game(PARENT, snapshot=False)
        assert old is not None and old.parent_id is None  # it is in the channel itself
        assert await store.games_in_threads_of(PARENT) == []
        new = await store.create_game(guild_id="1", channel_id="701", game="tally", creator_id="u", options={},
                                      parent_id=PARENT)
        assert new.parent_id == PARENT
        assert [g.id for g in await store.games_in_threads_of(PARENT)] == [new.id]
    finally:
        await store.close()


async def test_games_in_threads_of_lists_the_channel_s_active_thread_games_newest_first(store: Store) -> None:
    async def game(channel: str, parent: str | None) -> GameRow:
        return await store.create_game(guild_id="1", channel_id=channel, game="tally", creator_id="u", options={},
                                 parent_id=parent)

    first = await game("t1", PARENT)
    aborted = await game("t2", PARENT)
    running = await game("t3", PARENT)
    finished = await game("t4", PARENT)
    await game(PARENT, None)  # the channel's own game is not in a thread
    await game("t5", "other")  # a thread of another channel
    await store.set_status(aborted.id, Status.ABORTED)
    await store.start_game(running.id, snapshot="{}", seed=1)
    await store.set_status(finished.id, Status.FINISHED)
    found = await store.games_in_threads_of(PARENT)
    assert [(g.channel_id, g.status) for g in found] == [("t3", Status.RUNNING), ("t1", Status.LOBBY)]
    assert found[1].id == first.id and all(g.snapshot is None for g in found)
    assert [g.channel_id for g in await store.games_in_threads_of(PARENT, limit=1)] == ["t3"]


async def test_a_table_opened_in_a_thread_records_its_parent(tables: Tables) -> None:
    await tables.create(channel_id="t1", guild_id="1", game="tally", creator=ANN, options={}, parent_id=PARENT)
    await tables.create(channel_id=PARENT, guild_id="1", game="tally", creator=BOB, options={})
    in_thread = await tables.store.active_game("t1", snapshot=False)
    in_channel = await tables.store.active_game(PARENT, snapshot=False)
    assert in_thread is not None and in_thread.parent_id == PARENT
    assert in_channel is not None and in_channel.parent_id is None


async def test_a_rematch_in_a_thread_keeps_its_parent(tables: Tables) -> None:
    await tables.create(channel_id="t1", guild_id="1", game="tally", creator=ANN, options={"target": 3},
                        parent_id=PARENT)
    await tables.join("t1", BOB)
    await tables.start("t1", ANN)
    out = await tables.act("t1", ANN.id, "add 3")
    assert out.finished
    await Rematches(tables).ready(out.game_id, ANN)
    [rematch] = await tables.store.games_in_threads_of(PARENT)
    assert rematch.rematch_of == out.game_id and rematch.channel_id == "t1" and rematch.status is Status.LOBBY
