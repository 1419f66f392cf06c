"""Many channels at once through the real bot: every move played once and announced once, none fails."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import pytest

from cogs.client import APOLOGY, Tablehost
from tests.discord.tablehost.helpers import field
from tests.fakediscord.api import DiscordTest

CHANNELS = 24


async def test_concurrent_moves_in_many_channels_are_each_played_and_posted_once(
    discord_test: DiscordTest, bot_factory: Callable[[], Tablehost], caplog: pytest.LogCaptureFixture
) -> None:
    dt = discord_test
    names = [f"table-x{n}" for n in range(CHANNELS)]
    for name in names:
        dt.fake.add_channel(name)
    await dt.restart(bot_factory)  # the bot sees the new channels
    for name in names:
        await dt.slash("game", "new", user="ann", game="tally", channel=name, options="target=99")
        await dt.slash("game", "join", user="bob", channel=name)
        await dt.slash("game", "start", user="ann", channel=name)

    first = await asyncio.gather(*(dt.slash("game", "play", user="ann", move="add 1", channel=n) for n in names))
    # at the same moment: bob's answer everywhere, and ann again (out of turn) in half the channels
    second = await asyncio.gather(
        *(dt.slash("game", "play", user="bob", move="add 2", channel=n) for n in names),
        *(dt.slash("game", "play", user="ann", move="add 3", channel=n) for n in names[::2]),
    )
    await asyncio.gather(*(dt.redeliver(r) for r in first[:6]))  # interactions delivered twice
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert errors == []  # a second delivery is answered by the first, quietly

    replies = [r.content for r in [*first, *second]]
    assert APOLOGY not in replies and not [r for r in replies if "went wrong" in r]
    assert [r.content for r in first] == ["Played `add 1`."] * CHANNELS
    assert [r.content for r in second[:CHANNELS]] == ["Played `add 2`."] * CHANNELS
    third = dict(zip(names[::2], second[CHANNELS:], strict=True))  # played if it came after bob's, else refused
    assert all(r.content in {"Played `add 3`.", "It is not your turn, Ann: waiting for Bob."} for r in third.values())
    for name in names:
        posts = [field(m, "Last turn") for m in dt.messages(name)]
        assert posts.count("Ann adds 1: the total is 1.") == 1, posts  # each turn's board, once
        assert posts.count("Bob adds 2: the total is 3.") == 1, posts
        played = name in third and third[name].content == "Played `add 3`."
        assert posts.count("Ann adds 3: the total is 6.") == played, posts
