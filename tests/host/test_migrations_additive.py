"""Migrations from 13 on are additive: a process that knows only the schema before keeps working.

A rolling deploy migrates while older processes still run, so a new migration may add tables,
columns (nullable or with a default) and indexes, never drop, rename or retype what an older
process reads or writes. An older process that *starts* on the newer schema exits 2 instead
(``tests/host/test_fault_sentences.py``).
"""

from __future__ import annotations

import re

import pytest

from host.schema import MIGRATIONS, Migration
from host.store import Store
from tests.host.conftest import ANN, BOB, CHANNEL

FIRST_ADDITIVE = 13
"""The first migration written under this rule (numbers count from 1)."""
ADDITIVE = re.compile(
    r"(CREATE TABLE \w+ \(.*?\)"
    r"|CREATE (UNIQUE )?INDEX (IF NOT EXISTS )?\w+ ON \w+ \([^;]*?\)( WHERE [^;]*)?"
    r"|ALTER TABLE \w+ ADD COLUMN \w+ [A-Z ]+?(DEFAULT [^;]+)?)\s*;",
    re.DOTALL,
)
"""The statements an additive migration may hold (a new column is nullable unless it has a default)."""


def statements_left(script: str) -> str:
    """Returns what is left of a script once its additive statements are taken out (only blanks, if additive)."""
    return ADDITIVE.sub("", script).strip()


@pytest.mark.parametrize("number", range(FIRST_ADDITIVE, len(MIGRATIONS) + 1))
def test_each_new_migration_only_adds(number: int) -> None:
    migration: Migration = MIGRATIONS[number - 1]
    for script in (migration.sqlite, migration.postgres):
        assert statements_left(script) == "", f"migration {number} is not additive: {statements_left(script)!r}"
        assert "NOT NULL" not in script or "DEFAULT" in script or "CREATE TABLE" in script


def test_the_check_refuses_a_drop_and_a_rename() -> None:
    assert statements_left("ALTER TABLE outbox DROP COLUMN receipt;") != ""
    assert statements_left("ALTER TABLE outbox RENAME COLUMN receipt TO r;") != ""
    assert statements_left("ALTER TABLE outbox ADD COLUMN answered_at TEXT;") == ""


async def test_an_older_process_keeps_playing_while_a_newer_one_migrates(db_path: str, tally_registered: type) -> None:
    from host.db import open_database
    from host.tables import Tables

    db = await open_database(db_path)  # a process of the release before: its schema stops before 13
    await db.migrate(MIGRATIONS[:FIRST_ADDITIVE - 1])
    old = Store(db)
    tables = Tables(old)
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={})
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN, seed=3)
    new = await Store.open(db_path)  # the newer process starts beside it and migrates
    try:
        assert await new.schema_version() == len(MIGRATIONS) > FIRST_ADDITIVE - 1
        await tables.act(CHANNEL, ANN.id, "add 1")  # the older one plays on, on its open connections
        await tables.act(CHANNEL, BOB.id, "add 2")
        assert (await new.active_game(CHANNEL)).version == 2
        assert len(await old.pending()) == len(await new.pending()) >= 2  # both read the outbox
    finally:
        await new.close()
        await old.close()
