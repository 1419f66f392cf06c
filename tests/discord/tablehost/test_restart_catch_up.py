"""SIGKILL and restart on PostgreSQL: every board caught up within 20 s, and the right players told.

Two channels are at work when the process is killed: in ``answered`` Discord is refusing the
board with 429s, and the player has been told (after ``TABLEHOST_BUSY_AFTER``) that it will be
late; in ``unanswered`` the board's post is held, so the player got no reply at all. The dead
process's claims on both channels last their 15 s lease. The restarted process shows both boards
within 20 s of its start, with "your reply was lost" for the unanswered player only.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.fakediscord.api import DiscordTest
from tests.fakediscord.faults import CREATE_MESSAGE
from tests.fakediscord.server import FakeDiscord
from tests.support.bot_process import running_bot

EDIT_MESSAGE = "PATCH /channels/{channel_id}/messages/{message_id}"
CAUGHT_UP_WITHIN = 20.0
LOST = "my reply to you was lost"


async def turn_end(dt: DiscordTest, channel: str) -> tuple[str, str]:
    """Starts NXS in ``channel`` and plays the first step; returns the player and the move that ends the turn."""
    await dt.slash("game", "new", user="ann", game="nxs", channel=channel)
    await dt.slash("game", "join", user="bob", channel=channel)
    await dt.slash("game", "start", user="ann", channel=channel)
    player, move = await first_autocompleted(dt, channel, "ann", "bob")
    await dt.slash("game", "play", user=player, move=move, channel=channel)
    return await first_autocompleted(dt, channel, player)


async def first_autocompleted(dt: DiscordTest, channel: str, *players: str) -> tuple[str, str]:
    for player in players:
        moves = [m for m in await dt.autocomplete("game", "play", focused="move", user=player, move="",
                                                  channel=channel) if m != "resign"]
        if moves:
            return player, moves[0]
    raise AssertionError(f"none of {players} has a legal move in {channel}")


async def test_after_sigkill_every_board_is_caught_up_within_20_s_of_the_restart(
    fake_discord: FakeDiscord, pg_dsn: str, tmp_path
) -> None:
    answered, unanswered = fake_discord.add_channel("answered"), fake_discord.add_channel("unanswered")
    env = {"TABLEHOST_THREADS": "0", "TABLEHOST_BUSY_AFTER": "0.5"}
    async with running_bot(fake_discord, tmp_path, db_path=pg_dsn, env=env) as bot:
        dt = bot.test
        ends = {name: await turn_end(dt, name) for name in ("answered", "unanswered")}
        before = {name: len(dt.messages(name)) for name in ends}

        in_answered = lambda request: request.match_info.get("channel_id") == str(answered.id)  # noqa: E731
        for route in (CREATE_MESSAGE, EDIT_MESSAGE):
            dt.faults.rate_limit(route, retry_after=1.0, times=None, match=in_answered)
        player, move = ends["answered"]
        told = await dt.slash("game", "play", user=player, move=move, channel="answered", wait_quiet=False)
        assert told.content.startswith(f"Played `{move}`. Discord is busy"), told.content

        dt.faults.hold(where="channel", channel_id=unanswered.id)
        player, move = ends["unanswered"]
        playing = asyncio.create_task(dt.slash("game", "play", user=player, move=move, channel="unanswered"))
        held = await dt.faults.held(timeout=10)
        assert await bot.kill() == -9  # before TABLEHOST_BUSY_AFTER: that player has had no answer at all
        await held.finished(timeout=5)
        playing.cancel()
        with pytest.raises((asyncio.CancelledError, TimeoutError)):
            await playing
        dt.faults.clear()

        await bot.start(bot_args=[])
        restarted = time.monotonic()
        boards: dict[str, list] = {}
        while time.monotonic() - restarted < CAUGHT_UP_WITHIN + 10:
            boards = {name: [m for m in dt.messages(name)[before[name]:] if m.files] for name in ends}
            if all(boards.values()):
                break
            await asyncio.sleep(0.1)
        took = time.monotonic() - restarted
        assert all(len(b) == 1 for b in boards.values()), {k: [m.content for m in v] for k, v in boards.items()}
        assert took <= CAUGHT_UP_WITHIN, f"caught up {took:.1f} s after the restart"
        await asyncio.sleep(0.5)
        texts = {name: [m.content for m in dt.messages(name)[before[name]:]] for name in ends}
        assert not any(LOST in t for t in texts["answered"]), texts["answered"]  # she had been told
        assert sum(LOST in t for t in texts["unanswered"]) == 1, texts["unanswered"]
        assert dt.user(ends["unanswered"][0]).id in boards["unanswered"][0].pinged
        assert bot.errors() == [], bot.stderr
