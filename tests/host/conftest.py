"""Fixtures for host tests: a temporary SQLite file and a table service over it."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from host.store import Store
from host.tables import Person, Tables

ANN = Person("1001", "ann")
BOB = Person("1002", "bob")
CY = Person("1003", "cy")
CHANNEL = "500"


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    """Returns the path of a fresh database file."""
    return str(tmp_path / "tablehost.db")


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
    """Changes the database from outside the bot, as damage or another program would."""
    with sqlite3.connect(db_path) as db:
        db.execute(sql, params)
    db.close()
