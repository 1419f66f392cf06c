"""Bots on Discord: /game addbot seats one that plays at once; on_timeout bot plays a missing player's turn."""

from __future__ import annotations

from cogs.client import Tablehost
from host.bots import is_bot
from host.clock import HOUR
from host.tables import Tables
from tests.discord.tablehost.helpers import said
from tests.fakediscord.api import DiscordTest


def boards(dt: DiscordTest) -> list:
    return [m for m in dt.messages("general") if m.embeds]


async def test_addbot_seats_a_bot_that_answers_each_move_on_the_live_board(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await dt.slash("game", "new", user="ann", game="tally", options="target=12")
    assert (await dt.slash("game", "addbot", user="bob", level="hard")).content.startswith("Only a seated player")
    await dt.slash("game", "addbot", user="ann", level="hard")
    assert "Ann seats Tally bot (hard) (2/4). It plays its turns at once." in dt.messages("general")[-1].content
    await dt.slash("game", "start", user="ann")
    await dt.slash("game", "play", user="ann", move="add 1")
    assert isinstance(dt.bot, Tablehost)
    await dt.bot.bots.settle()
    await dt.wait_until(lambda: "Tally bot (hard) adds 3: the total is 4." in said(boards(dt)[-1]))
    table = await tables.table(str(dt.channel("general").id))
    assert table.game.to_act() == ["Ann"]
    moves = await tables.store.moves(table.row.id)
    assert [is_bot(m.player_id) for m in moves] == [False, True]
    assert all("<@bot" not in m.content for m in dt.messages("general"))  # a bot is never pinged


async def test_a_timeout_hands_the_turn_to_a_bot_and_says_so(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    now = [1_900_000_000.0]
    tables.clock = lambda: now[0]
    await dt.slash("game", "new", user="ann", game="tally", on_timeout="bot-easy")
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    now[0] += 72 * HOUR
    assert isinstance(dt.bot, Tablehost)
    assert len(await dt.bot.timekeeper.tick()) == 1
    assert "a bot (easy) plays Ann's turn until they act again" in said(boards(dt)[-1])
    assert dt.user("bob").id in boards(dt)[-1].pinged
