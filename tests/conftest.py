"""Shared fixtures: the Tally test game for the tests that ask for it, and a PostgreSQL server.

``pg_dsn`` is a fresh empty database on a server started once per pytest process (each xdist
worker runs its own). Without PostgreSQL those tests skip, or fail when ``TABLEHOST_PG_REQUIRED=1``
(``tasks.py test`` sets it when the server binaries are there); see tests/support/postgres.py.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator

import pytest

from engines import GAMES
from tests.support.postgres import PostgresServer, PostgresUnavailable, make_root, unavailable
from tests.support.tally import Tally


@pytest.fixture
def tally_registered() -> Iterator[type[Tally]]:
    """Registers the Tally test game in ``engines.GAMES`` for one test."""
    GAMES[Tally.NAME] = Tally
    yield Tally
    GAMES.pop(Tally.NAME, None)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for this pytest process, stopped (and its folder removed) at the end."""
    try:  # not under tmp_path_factory: /tmp/pytest-of-root is 0700, and the server runs as nobody
        server = PostgresServer.start(make_root())  # removes the folder itself if it fails
    except PostgresUnavailable as exc:
        reason = exc.reason
    else:
        yield server
        server.stop()
        return
    unavailable(reason)  # outside the except: the skip or failure shows no chained traceback


@pytest.fixture
async def pg_dsn(postgres_server: PostgresServer) -> AsyncIterator[str]:
    """The DSN of a fresh empty database for one test; dropped afterwards."""
    dsn = await postgres_server.create_database()
    yield dsn
    with contextlib.suppress(Exception):
        await postgres_server.drop_database(dsn)
