"""Fixtures for host tests: a fresh database and a table service over it, on one backend or both.

A test module that sets ``BACKENDS = ("sqlite", "postgres")`` runs each of its tests that use
a database (``db_path``, ``store``, ``tables``) twice: on a SQLite file and on a fresh
PostgreSQL database of the test server (``postgres_server``, tests/conftest.py). A test that
needs SQLite itself (its PRAGMAs, its file) is marked ``@pytest.mark.sqlite_only``, one of what
only a database shared by processes does ``@pytest.mark.postgres_only``.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from host.db import to_dollars
from host.store import Store
from host.tables import Person, Tables

ANN = Person("1001", "ann")
BOB = Person("1002", "bob")
CY = Person("1003", "cy")
CHANNEL = "500"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: the test needs the SQLite backend itself")
    config.addinivalue_line("markers", "postgres_only: the test is of what only a shared database does")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Runs a module's database tests on each of its ``BACKENDS``."""
    backends = getattr(metafunc.module, "BACKENDS", None)
    if metafunc.definition.get_closest_marker("postgres_only"):
        backends = ("postgres",)
    if backends and "backend" in metafunc.fixturenames and not metafunc.definition.get_closest_marker("sqlite_only"):
        metafunc.parametrize("backend", backends, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The backend under test: ``sqlite`` unless the module runs on several."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
async def db_path(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[str]:
    """Yields what ``Store.open`` takes for a fresh database: a SQLite file, or a PostgreSQL address."""
    if backend == "sqlite":
        yield str(tmp_path / "tablehost.db")
        return
    server = request.getfixturevalue("postgres_server")
    dsn = await server.create_database()
    yield dsn
    await server.drop_database(dsn)


@pytest.fixture
async def store(db_path: str) -> AsyncIterator[Store]:
    """Yields an open store on a temporary file."""
    s = await Store.open(db_path)
    yield s
    await s.close()


@pytest.fixture
async def tables(store: Store, tally_registered: type) -> Tables:
    """Returns a table service in debug mode (every load replays the log)."""
    return Tables(store, debug=True)


async def started_tally(tables: Tables, *players: Person, seed: int = 11) -> None:
    """Opens and starts a Tally game in CHANNEL with the given players."""
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=players[0], options={})
    for p in players[1:]:
        await tables.join(CHANNEL, p)
    await tables.start(CHANNEL, players[0], seed=seed)


def tamper(db_path: str, sql: str, *params: object) -> None:
    """Changes the database from outside the bot, as damage or another program would (either backend)."""
    if db_path.startswith("postgresql://"):
        _outside(_pg_tamper(db_path, sql, params))
        return
    with sqlite3.connect(db_path) as db:
        db.execute(sql, params)
    db.close()


async def _pg_tamper(dsn: str, sql: str, params: tuple[object, ...]) -> None:
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(to_dollars(sql), *params)
    finally:
        await conn.close()


def _outside(work: Any) -> None:
    """Runs a coroutine to its end on a loop of its own, in a thread: the test's loop may be running."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(work)
        except BaseException as err:
            failure.append(err)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
