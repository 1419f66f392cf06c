"""Shared fixtures: the Tally test game for the tests that ask for it, and a PostgreSQL server.

The games offered are the three built-in ones (``TABLEHOST_GAMES``, for this process and the bot
processes tests start), so an installed test game's package (``tests/games/``) changes nothing
until a test asks for it.

``pg_dsn`` is a fresh empty database on a server started once per pytest process (each xdist
worker runs its own). Without PostgreSQL those tests skip, or fail when ``TABLEHOST_PG_REQUIRED=1``
(``tasks.py test`` sets it when the server binaries are there); see tests/support/postgres.py.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator, Iterator

import pytest

from engines.core.registry import ONLY

os.environ.setdefault(ONLY, "nexo,nxs,xisk")  # the built-in games: an installed test game is offered on request
from engines import KITS
from tests.support.postgres import PostgresServer, PostgresUnavailable, make_root, unavailable
from tests.support.tally import KIT, Tally


@pytest.fixture
def tally_registered() -> Iterator[type[Tally]]:
    """Offers the Tally test game (its kit, ``engines.KITS``) for one test."""
    KITS.add(KIT)
    yield Tally
    KITS.remove(Tally.NAME)


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
