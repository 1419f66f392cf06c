"""One sentence per database fault, named after what happened, and one log line without a traceback.

Unreachable and read-only are held to real servers in :mod:`tests.host.test_postgres_failures`;
here: out of connections and missing privileges on the test server, a full disk and a timeout
as asyncpg raises them, and a database newer than the bot in a process of its own.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import asyncpg
import pytest

from host.db import PostgresDatabase, StorageUnavailable
from host.schema import MIGRATIONS
from host.store import Store
from host.tables import Tables, Unavailable
from tests.host.conftest import ANN, BOB, CHANNEL, started_tally
from tests.support.postgres import PostgresServer

ROOT = Path(__file__).resolve().parents[2]


async def own_role(server: PostgresServer, *, owner: bool) -> tuple[str, str]:
    """Creates a login role and a database (owned by it, or by postgres with ``GRANT ALL`` only); returns
    (role, its DSN)."""
    role, name = f"r{uuid.uuid4().hex[:10]}", f"d{uuid.uuid4().hex[:10]}"
    conn = await asyncpg.connect(server.dsn(), timeout=30)
    try:
        await conn.execute(f'CREATE ROLE "{role}" LOGIN')
        if owner:
            await conn.execute(f'CREATE DATABASE "{name}" OWNER "{role}" TEMPLATE template0')
        else:  # as an older README said: not enough on PostgreSQL 15, whose schema public is the owner's
            await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
            await conn.execute(f'GRANT ALL ON DATABASE "{name}" TO "{role}"')
    finally:
        await conn.close()
    return role, f"postgresql://{role}@127.0.0.1:{server.port}/{name}"


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Returns the log records that carry a traceback (an expected fault must have none)."""
    return [r.getMessage() for r in caplog.records if r.exc_info]


async def test_out_of_connections_is_said_as_such_not_as_a_full_database(
    postgres_server: PostgresServer, tally_registered: type, caplog: pytest.LogCaptureFixture
) -> None:
    role, dsn = await own_role(postgres_server, owner=True)
    store = await Store.open(dsn, min_size=0, max_size=2)
    try:
        tables = Tables(store)
        await started_tally(tables, ANN, BOB)
        admin = await asyncpg.connect(postgres_server.dsn())
        await admin.execute(f'ALTER ROLE "{role}" CONNECTION LIMIT 0')  # as when max_connections is reached
        await admin.close()
        db = store.db
        assert isinstance(db, PostgresDatabase)
        await db._pool.expire_connections()
        with pytest.raises(Unavailable, match=r"^I can't save moves right now: the bot's database has no free"
                                              r" connections\. Nothing was changed\.$"):
            await tables.act(CHANNEL, ANN.id, "add 1")
    finally:
        await store.close()
    assert no_tracebacks(caplog) == []
    assert sum("no free connections" in r.getMessage() for r in caplog.records) == 1  # one line


async def test_missing_schema_privileges_say_what_to_grant(postgres_server: PostgresServer) -> None:
    _, dsn = await own_role(postgres_server, owner=False)
    with pytest.raises(StorageUnavailable) as err:
        await Store.open(dsn)
    assert err.value.reason.startswith("the bot's database user may not do this")
    assert "GRANT CREATE, USAGE ON SCHEMA public" in err.value.reason


@pytest.mark.parametrize(("raised", "reason"), [
    (asyncpg.DiskFullError("could not extend file: No space left on device"), "the bot's database is full"),
    (asyncpg.QueryCanceledError("canceling statement due to statement timeout"),
     "the bot's database did not answer in time"),
    (TimeoutError(), "the bot's database did not answer in time"),
    (asyncpg.TooManyConnectionsError("sorry, too many clients already"), "the bot's database has no free connections"),
    (asyncpg.ReadOnlySQLTransactionError("cannot execute INSERT in a read-only transaction"),
     "the bot's database is read-only"),
    (ConnectionRefusedError(111, "Connection refused"), "the bot's database cannot be reached"),
], ids=["full", "statement-timeout", "timeout", "connections", "read-only", "unreachable"])
async def test_each_postgres_fault_has_its_own_sentence(raised: BaseException, reason: str) -> None:
    db = PostgresDatabase(pool=None, dsn="postgresql://bot:hunter2@db.example/tablehost")

    async def failing() -> None:
        raise raised

    with pytest.raises(StorageUnavailable) as err:
        await db.call(failing())
    assert err.value.reason == reason
    assert "hunter2" not in str(err.value)


def test_a_bot_older_than_its_database_exits_2_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 3}")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TABLEHOST_", "DISCORD_", "SHARD_"))}
    env.update(DISCORD_TOKEN="not-a-real-token", TABLEHOST_DB=str(path), PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    lines = [line for line in done.stderr.splitlines() if line.strip() and " INFO " not in line]  # the start's notes
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: ") and "newer than this bot" in lines[0] and str(path) in lines[0]
    assert lines[0].endswith("upgrade the bot to use it (a database is never migrated back).")
    assert "Traceback" not in done.stderr + done.stdout


async def test_a_read_that_fails_in_an_outage_tells_the_player_and_logs_no_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from cogs.client import apologise

    told: list[str] = []

    class Response:
        def is_done(self) -> bool:
            return False

        async def send_message(self, text: str, *, ephemeral: bool) -> None:
            told.append(text)

    class Interaction:
        id, data, response = 1, {"name": "game"}, Response()

    down = StorageUnavailable("postgresql://db.example/tablehost", "the bot's database cannot be reached", "refused")
    await apologise(Interaction(), down)  # type: ignore[arg-type]
    await asyncio.sleep(0)
    assert told == ["I can't reach the saved games right now: the bot's database cannot be reached. Nothing was"
                    " changed; try again soon."]
    assert no_tracebacks(caplog) == []
