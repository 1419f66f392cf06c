"""PostgreSQL's failures: a server down or read-only refuses changes in one sentence, and says where, not how.

Each test runs a server of its own (tests/support/postgres.py), so it may stop or change it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import asyncpg
import pytest

from host.db import PostgresDatabase, StorageUnavailable, redacted
from host.store import Store
from host.tables import Tables, Unavailable
from tests.host.conftest import ANN, BOB, CHANNEL, started_tally
from tests.support.postgres import PostgresServer, PostgresUnavailable, make_root, unavailable


@pytest.fixture
def server(postgres_server: PostgresServer) -> Iterator[PostgresServer]:
    """A server of the test's own (the session's server must stay up for the other tests)."""
    try:
        own = PostgresServer.start(make_root())
    except PostgresUnavailable as err:
        unavailable(err.reason)
    yield own
    own.stop()


@pytest.fixture
async def tables(server: PostgresServer, tally_registered: type) -> AsyncIterator[Tables]:
    store = await Store.open(await server.create_database())
    yield Tables(store)
    await store.close()


async def test_an_unreachable_server_is_refused_at_start_without_its_password(postgres_server: PostgresServer) -> None:
    dsn = f"postgresql://bot:hunter2@127.0.0.1:{postgres_server.port + 1}/nowhere"  # nothing listens there
    with pytest.raises(StorageUnavailable) as err:
        await Store.open(dsn, timeout=2)
    assert err.value.reason == "the bot's database cannot be reached"
    assert "hunter2" not in str(err.value) and redacted(dsn) in str(err.value)


async def test_a_server_that_goes_down_refuses_the_move_in_one_sentence(
    server: PostgresServer, tables: Tables, caplog: pytest.LogCaptureFixture
) -> None:
    await started_tally(tables, ANN, BOB)
    server.stop()
    with pytest.raises(Unavailable, match=r"^I can't save moves right now: the bot's database cannot be reached\."
                                          r" Nothing was changed\.$"):
        await tables.act(CHANNEL, ANN.id, "add 1")
    assert tables.store.path in caplog.text  # the admin's log says which database


async def test_a_read_only_database_refuses_changes_and_changes_nothing(server: PostgresServer, tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    before = await tables.store.active_game(CHANNEL)
    conn = await asyncpg.connect(server.dsn())
    await conn.execute(f'ALTER DATABASE "{tables.store.path.rsplit("/", 1)[1]}" SET default_transaction_read_only = on')
    await conn.close()
    db = tables.store.db
    assert isinstance(db, PostgresDatabase)
    await db._pool.expire_connections()  # the pool's next connections are read-only
    with pytest.raises(Unavailable, match=r"the bot's database is read-only\. Nothing was changed\.$"):
        await tables.act(CHANNEL, ANN.id, "add 1")
    after = await tables.store.active_game(CHANNEL)
    assert (after.version, after.snapshot) == (before.version, before.snapshot)
    assert len(await tables.store.moves(after.id)) == 0
