"""A graceful stop (what SIGTERM calls): no new interaction is taken, every one in flight is answered.

The moves' posts are held by the fake for a second each, so the interactions are still at work
when the stop begins; one more arrives during the stop and is told to try again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from cogs.client import RESTARTING, Tablehost
from host.tables import Tables
from tests.discord.tablehost.helpers import field
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.faults import CREATE_MESSAGE

CHANNELS = 3


async def test_a_graceful_stop_answers_every_interaction_in_flight_and_takes_no_new_one(
    discord_test: DiscordTest, bot_factory: Callable[[], Tablehost], tables: Tables
) -> None:
    dt = discord_test
    names = [f"stop-{n}" for n in range(CHANNELS)]
    for name in names:
        dt.fake.add_channel(name)
    await dt.restart(bot_factory)
    for name in names:
        await dt.slash("game", "new", user="ann", game="tally", channel=name, options="target=99")
        await dt.slash("game", "join", user="bob", channel=name)
        await dt.slash("game", "start", user="ann", channel=name)
    bot = dt.bot
    assert isinstance(bot, Tablehost)

    dt.faults.delay(CREATE_MESSAGE, seconds=1.0, times=None)  # each move's new board takes a second to post
    moves = [asyncio.create_task(dt.slash("game", "play", user="ann", move="add 1", channel=name, wait_quiet=False))
             for name in names]
    await asyncio.sleep(0.3)  # the moves are committed and their boards on their way
    assert not any(m.done() for m in moves)
    stopping = asyncio.create_task(bot.stop_gracefully())
    await asyncio.sleep(0.05)
    late = await dt.slash("game", "play", user="bob", move="add 2", channel=names[0], wait_quiet=False)
    assert late.ephemeral and late.content == RESTARTING

    answers = await asyncio.gather(*moves)
    await asyncio.wait_for(stopping, timeout=10)
    assert [a.content for a in answers] == ["Played `add 1`."] * CHANNELS
    assert bot.is_closed()
    for name in names:  # shown once each, and Bob's refused move not played
        shown = [field(m, "Last turn") for m in dt.messages(name)]
        assert shown.count("Ann adds 1: the total is 1.") == 1
        assert "Bob adds 2: the total is 3." not in shown
    assert await tables.store.pending() == []
