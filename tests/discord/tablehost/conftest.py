"""Fixtures that run the real Tablehost bot (all cogs) on the fake Discord server."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from cogs.client import Tablehost
from host.store import Store
from host.tables import Tables

SEED = 20261130
"""The seed of every game in these tests, so each run plays the same dice."""


@pytest.fixture
def db_file(tmp_path: Path) -> str:
    """Returns the path of the bot's database for one test."""
    return str(tmp_path / "tablehost.db")


@pytest.fixture
async def tables(db_file: str, tally_registered: type) -> AsyncIterator[Tables]:
    """Yields the table service on a temporary database: debug (every load replays the log), fixed seed."""
    store = await Store.open(db_file)
    yield Tables(store, debug=True, seeds=lambda: SEED)
    await store.close()


@pytest.fixture(name="bot_factory")
def tablehost_factory(tables: Tables) -> Callable[[], Tablehost]:
    """Builds the real bot over the test's table service."""
    return lambda: Tablehost(tables=tables)


