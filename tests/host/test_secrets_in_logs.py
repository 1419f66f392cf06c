"""No held card reaches a log record, at any level, over thirty seeded XISK games (bench/ soaks longer)."""

from __future__ import annotations

import logging
import random
import re

import pytest

from host.store import Store
from host.tables import Person, Tables
from tests.support.logs import Everything

BACKENDS = ("sqlite", "postgres")
"""Every test here runs on a SQLite file and on a PostgreSQL database (tests/host/conftest.py)."""

GAMES_PLAYED = 30
MOVES_EACH = 70  # the claims, the deal, and into the first turns: redeems, battles, cards drawn


@pytest.fixture
def everything() -> Everything:
    handler, root = Everything(), logging.getLogger()
    old = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)  # LOG_LEVEL=DEBUG
    yield handler
    root.removeHandler(handler)
    root.setLevel(old)


async def test_thirty_xisk_games_at_debug_log_no_held_card(db_path: str, everything: Everything) -> None:
    store = await Store.open(db_path)
    tables = Tables(store, debug=True)  # debug: every load replays the log too
    held: set[str] = set()
    people = [Person(str(9000 + n), name) for n, name in enumerate(["ann", "bob", "cy"])]
    for n in range(GAMES_PLAYED):
        rng, channel = random.Random(n), str(n)
        seated = people[: 2 + n % 2]
        await tables.create(channel_id=channel, guild_id="1", game="xisk", creator=seated[0], options={})
        for p in seated[1:]:
            await tables.join(channel, p)
        await tables.start(channel, seated[0], seed=n)
        for k in range(MOVES_EACH):
            table = await tables.table(channel)
            game = table.game
            assert game is not None
            if game.is_over:
                break
            name = game.to_act()[0]
            for p in seated:
                held.update(game.view(table.name_of(p.id))["hand"])
            mover = next(p for p in seated if table.name_of(p.id) == name)
            moves = game.legal_moves(name)
            move = next((m for m in moves if m.startswith("redeem")), rng.choice(moves))
            await tables.act(channel, mover.id, move, interaction_id=f"{n}-{k}")
            if k % 7 == 0:
                tables.forget(table.row.id)  # reloads from the store and replays, as after a restart
    await store.close()
    logging.getLogger("tests.secrets").debug("a DEBUG record is caught")

    assert len(held) >= 40  # the games dealt cards
    assert everything.lines[-1].endswith("a DEBUG record is caught")  # and DEBUG records were being kept
    words = re.compile(r"\b(" + "|".join(sorted(held, key=len, reverse=True)) + r")\b")
    leaks = [line[:200] for line in everything.lines if words.search(line) or '"hands"' in line]
    assert leaks == []
