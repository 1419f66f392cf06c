"""Fixtures that run the real Tablehost bot (all cogs) on the fake Discord server."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from cogs.client import Tablehost
from cogs.surface import Surface
from engines import KITS
from host.store import Store
from host.tables import Table, Tables
from tests.support.tally import KIT, Tally

SEED = "20261130" * 8
"""The server seed of every table in these tests (join ids stay out of the entropy), so each run plays the same dice."""
SIGNING_KEY = "7e" * 32
"""The bot's signing key in these tests (Ed25519 signs deterministically: each run's exports are the same bytes)."""


def tally_buttons(table: Table, player: str) -> list[tuple[str, str]]:
    """Tally's quick moves: its moves never name its secret, so every one may be a button."""
    assert table.game is not None
    return [(m.capitalize(), m) for m in table.game.legal_moves(player)]


@pytest.fixture
def tally_registered() -> Iterator[type[Tally]]:
    """Offers the Tally test game for one test, with buttons of its own, as each game's surface gives."""
    KITS.add(replace(KIT, surface=Surface(quick_moves=tally_buttons)))
    yield Tally
    KITS.remove(Tally.NAME)


@pytest.fixture
def db_file(tmp_path: Path) -> str:
    """Returns the path of the bot's database for one test."""
    return str(tmp_path / "tablehost.db")


@pytest.fixture
async def tables(db_file: str, tally_registered: type) -> AsyncIterator[Tables]:
    """Yields the table service on a temporary database: debug (every load replays the log), fixed seed."""
    store = await Store.open(db_file)
    await store.db.write(lambda tx: tx.execute("INSERT INTO signing_key (id, private) VALUES (1, ?)", SIGNING_KEY))
    yield Tables(store, debug=True, seeds=lambda: SEED, join_ids=False)
    await store.close()


@pytest.fixture(name="bot_factory")
def tablehost_factory(tables: Tables) -> Callable[[], Tablehost]:
    """Builds the real bot over the test's table service."""
    # Boards are edited at each move (edit_every=0): tests read each board right after its move;
    # tests/discord/tablehost/test_pace.py plays with the production pace.
    return lambda: Tablehost(tables=tables, threads_by_default=False, edit_every=0.0)  # test_threads.py: threads


