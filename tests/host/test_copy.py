"""Copying a store: SQLite to PostgreSQL and back, every row, and the games go on."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import bot
from host.copy import TABLES, NotEmpty, copy_store
from host.ratings import Ratings
from host.spectators import Spectators
from host.store import Store
from host.tables import Tables
from tests.host.conftest import ANN, BOB, CY, started_tally
from tests.support.postgres import PostgresServer


async def contents(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows (spectators without PostgreSQL's explicit rowid), in a fixed order."""
    found = {}
    for table in TABLES:
        rows = await store.db.read(lambda tx, t=table: tx.fetch(f"SELECT * FROM {t}"))
        found[table] = sorted(tuple(v for k, v in zip(r.keys(), tuple(r), strict=True) if k != "rowid") for r in rows)
    return found


async def filled(path: str) -> Store:
    """A SQLite store with a running game, a finished one, a lobby, a clock, a rating and a spectator channel."""
    store = await Store.open(path)
    tables = Tables(store)
    await started_tally(tables, ANN, BOB)  # CHANNEL: running, one move in
    await tables.act("500", ANN.id, "add 1")
    await tables.create(channel_id="501", guild_id="1", game="tally", creator=BOB, options={"target": 3})
    await tables.join("501", CY)
    await tables.start("501", BOB, seed=4)
    await tables.act("501", BOB.id, "add 3")  # finished
    await Ratings(store).record((await store.latest_game("501")).id)
    await tables.create(channel_id="502", guild_id="1", game="tally", creator=CY, options={})  # a lobby
    await Spectators(store).add((await store.active_game("500")).id, "900")
    await Spectators(store).add((await store.active_game("500")).id, "901")
    return store


async def test_sqlite_to_postgres_copies_every_row_and_the_games_go_on(
    tmp_path: Path, pg_dsn: str, tally_registered: type
) -> None:
    source = await filled(str(tmp_path / "old.db"))
    target = await Store.open(pg_dsn)
    counts = await copy_store(source, target)
    assert counts["games"] == 3 and counts["moves"] == 2 and counts["ratings"] == 2
    assert await contents(target) == await contents(source)
    running = await target.active_game("500")
    assert await Spectators(target).channels(running.id) == ["900", "901"]  # in the order added

    tables = Tables(target)  # the running game continues on the copy, and new games get new ids
    assert (await tables.act("500", BOB.id, "add 2")).version == running.version + 1
    await tables.create(channel_id="503", guild_id="1", game="tally", creator=ANN, options={})
    assert (await target.active_game("503")).id == 4
    await source.close()
    await target.close()


async def test_a_copy_into_a_store_with_games_is_refused_and_changes_nothing(
    tmp_path: Path, pg_dsn: str, tally_registered: type
) -> None:
    source = await filled(str(tmp_path / "old.db"))
    target = await Store.open(pg_dsn)
    await Tables(target).create(channel_id="700", guild_id="1", game="tally", creator=ANN, options={})
    before = await contents(target)
    with pytest.raises(NotEmpty, match="already has games"):
        await copy_store(source, target)
    assert await contents(target) == before
    await source.close()
    await target.close()


async def test_postgres_back_to_sqlite_gives_the_same_rows(tmp_path: Path, pg_dsn: str, tally_registered: type) -> None:
    source = await filled(str(tmp_path / "old.db"))
    middle = await Store.open(pg_dsn)
    await copy_store(source, middle)
    back = await Store.open(str(tmp_path / "back.db"))
    await copy_store(middle, back)
    assert await contents(back) == await contents(source)
    for store in (source, middle, back):
        await store.close()


def test_bot_copy_db_copies_a_file_into_postgres_and_refuses_a_second_time(
    tmp_path: Path, postgres_server: PostgresServer, tally_registered: type, capsys: pytest.CaptureFixture[str]
) -> None:
    source = str(tmp_path / "old.db")
    asyncio.run(_fill_and_close(source))
    target = postgres_server.create_database_sync()
    assert bot.main(["--copy-db", source, target]) == 0
    assert capsys.readouterr().out == f"Copied {source} into {target}: 3 games, 2 moves.\n"
    assert bot.main(["--copy-db", source, target]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: nothing was copied: ") and "already has games" in err


async def _fill_and_close(path: str) -> None:
    await (await filled(path)).close()
