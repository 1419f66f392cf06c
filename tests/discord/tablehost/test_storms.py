"""Discord's bad minutes through the real bot: a storm of 429s or 503s, moves played all through it.

Time runs 40 times fast: a 120 s storm lasts 3 s, Discord's ``retry_after`` is 50 ms instead of
2 s, the bot's own waits after a 5xx start at 50 ms, and a player is told that Discord is busy
after a quarter of a second instead of ten. What must hold is the same at any speed: when the
storm ends every announcement has been delivered exactly once, and no player was told anything
false (no "could not post", no "your reply was lost" to a player who was answered).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest

from cogs.client import Tablehost
from host.tables import Tables
from tests.discord.tablehost.helpers import field
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.faults import CREATE_MESSAGE

EDIT_MESSAGE = "PATCH /channels/{channel_id}/messages/{message_id}"
SCALE = 1 / 40
"""Test seconds per real second of the scenario."""
CHANNELS = 4
BUSY = "Discord is busy, so the channel will show it a little late; nothing is lost."


@pytest.fixture(name="fast_time")
def fast_time_fixture(monkeypatch: pytest.MonkeyPatch) -> float:
    """Shortens the deliverer's own waits after a 5xx (1 s doubling to 60 s) forty times."""
    monkeypatch.setattr("host.deliverer.BUSY_FIRST", 1.0 * SCALE)
    monkeypatch.setattr("host.deliverer.BUSY_MOST", 60.0 * SCALE)
    return SCALE


async def tables_in(dt: DiscordTest, bot_factory: Callable[[], Tablehost]) -> list[str]:
    """Opens a started Tally table for Ann and Bob in each of :data:`CHANNELS` new channels."""
    names = [f"storm-{n}" for n in range(CHANNELS)]
    for name in names:
        dt.fake.add_channel(name)
    await dt.restart(bot_factory)
    dt.bot.busy_after = 10.0 * SCALE
    for name in names:
        await dt.slash("game", "new", user="ann", game="tally", channel=name, options="target=99")
        await dt.slash("game", "join", user="bob", channel=name)
        await dt.slash("game", "start", user="ann", channel=name)
    return names


async def play_through(dt: DiscordTest, names: list[str], seconds: float) -> list[tuple[str, str, str]]:
    """Plays Ann's and Bob's moves in turn in every channel for ``seconds``; returns (channel, move, reply)."""
    replies: list[tuple[str, str, str]] = []

    async def one(name: str) -> None:
        end, n = time.monotonic() + seconds, 0
        while time.monotonic() < end or n < 2:
            user = ("ann", "bob")[n % 2]
            move = f"add {n % 2 + 1}"
            record = await dt.slash("game", "play", user=user, move=move, channel=name, wait_quiet=False)
            replies.append((name, move, record.content))
            n += 1

    await asyncio.gather(*(one(name) for name in names))
    return replies


async def settled(dt: DiscordTest, tables: Tables, timeout: float = 20.0) -> None:
    """Waits until nothing is pending in the outbox and no delivery is running in the background."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not dt.bot.background and not await tables.store.pending():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("announcements still pending after the storm")


def check_told_once(dt: DiscordTest, names: list[str], replies: list[tuple[str, str, str]]) -> None:
    """Every move played is on exactly one board, in order; every reply is true; no lost-reply note."""
    for name in names:
        played = [move for channel, move, reply in replies if channel == name]
        shown = [field(m, "Last turn") for m in dt.messages(name)]
        boards = [s for s in shown if s is not None and " adds " in s]
        assert len(boards) == len(played), (name, played, boards)
        totals = [int(s.rsplit(" ", 1)[1].rstrip(".")) for s in boards]
        assert totals == sorted(totals) and len(set(totals)) == len(totals)  # once each, in order
        texts = [m.content for m in dt.messages(name)]
        assert not [t for t in texts if "reply to you was lost" in t or "could not post" in t]
    for _, move, reply in replies:
        assert reply in {f"Played `{move}`.", f"Played `{move}`. {BUSY}"}, reply


async def test_a_120_s_storm_of_429s_ends_with_every_announcement_delivered_once(
    discord_test: DiscordTest, bot_factory: Callable[[], Tablehost], tables: Tables, fast_time: float
) -> None:
    dt = discord_test
    names = await tables_in(dt, bot_factory)
    storm = [dt.faults.rate_limit(route, retry_after=2.0 * SCALE, times=None) for route in (CREATE_MESSAGE,
                                                                                            EDIT_MESSAGE)]
    replies = await play_through(dt, names, 120.0 * SCALE)
    assert len(replies) >= 4 * CHANNELS  # moves went on all through the storm
    dt.faults.clear()
    await settled(dt, tables)
    assert sum(f.hits for f in storm) > 5 * CHANNELS  # Discord refused, and discord.py gave up waiting, often
    assert any(BUSY in reply for _, _, reply in replies)  # a player waiting past the bound was told, once
    assert dt.bot.deliverer.busy_waits > 0
    check_told_once(dt, names, replies)
    assert await dt.bot.deliverer.sweep() == 0


async def test_a_60_s_storm_of_503s_ends_with_every_announcement_delivered_once(
    discord_test: DiscordTest, bot_factory: Callable[[], Tablehost], tables: Tables, fast_time: float,
    quick_backoff: float,
) -> None:
    dt = discord_test
    names = await tables_in(dt, bot_factory)
    storm = [dt.faults.fail(route, status=503, times=None) for route in (CREATE_MESSAGE, EDIT_MESSAGE)]
    replies = await play_through(dt, names, 60.0 * SCALE)
    dt.faults.clear()
    await settled(dt, tables)
    assert sum(f.hits for f in storm) > 5 * CHANNELS
    assert dt.bot.deliverer.busy_waits > 0
    check_told_once(dt, names, replies)
    assert await dt.bot.deliverer.sweep() == 0
