"""LOG_LEVEL=DEBUG through the real bot: no hand, no card and no move's words in any log record."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator

import pytest

import bot
from host.tables import Tables
from tests.discord.tablehost.test_xisk_cog import CARD, choose, held_cards, play, table_of
from tests.fakediscord.api import DiscordTest
from tests.support.logs import Everything


@pytest.fixture
def debug_logs() -> Iterator[Everything]:
    """Logs everything at DEBUG, as bot.py does with LOG_LEVEL=DEBUG."""
    root, handler = logging.getLogger(), Everything()
    levels = {name: logging.getLogger(name).level for name in ["", *bot.QUIET]}
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    bot.quiet_loggers()
    yield handler
    root.removeHandler(handler)
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


async def test_a_xisk_game_at_debug_logs_no_card_no_hand_and_no_typed_move(
    debug_logs: Everything, discord_test: DiscordTest, tables: Tables
) -> None:
    dt, rng = discord_test, random.Random(3)
    await dt.slash("xisk", "new", user="ann")
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    held: set[str] = set()
    typed: list[str] = []
    for _ in range(50):  # the claims, the deal, a first turn: DMs, buttons, slash commands
        table = await table_of(dt, tables)
        assert table.game is not None
        held |= held_cards(table)
        name = table.game.to_act()[0]
        user = next(s.player_id for s in table.seats if s.name == name)
        move = choose(table.game.legal_moves(name), rng)
        await play(dt, next(u.name for u in dt.fake.users.values() if str(u.id) == user), move, table)
        typed.append(move)
    await dt.slash("game", "hand", user="ann")
    logging.getLogger("tests.logs").debug("a DEBUG record is caught")

    assert held and dt.dms("ann") and dt.dms("bob")  # cards were dealt, and hands sent
    assert debug_logs.lines[-1].endswith("a DEBUG record is caught")
    assert any(line.startswith("discord.") for line in debug_logs.lines)  # discord.py was logging too
    words = [m for m in typed if " " in m]  # "claim alaska", not a bare "end"
    leaks = [line[:160] for line in debug_logs.lines if CARD.search(line) or any(m in line for m in words)]
    assert leaks == []
