"""Gateway life: heartbeats, resuming after a dropped connection, the 3 s deadline, restarts."""

from __future__ import annotations

import asyncio

from tests.discord.probe_bot import make_probe_bot
from tests.fakediscord.api import DiscordTest


async def test_heartbeats_are_acknowledged(discord_test: DiscordTest) -> None:
    gateway = discord_test.fake.gateway
    for _ in range(40):
        if gateway.heartbeats >= 2:
            break
        await asyncio.sleep(0.05)
    assert gateway.heartbeats >= 2
    assert discord_test.bot.latency < 1.0


async def test_dropped_gateway_resumes_and_next_command_works(discord_test: DiscordTest) -> None:
    gateway = discord_test.fake.gateway
    await discord_test.drop_gateway()
    record = await discord_test.slash("probe", "secret", user="ann", text="still here")
    assert record.content == "Secret: still here"
    assert (gateway.drops, gateway.resumes, gateway.identifies) == (1, 1, 1)
    assert gateway.replayed >= 1  # the command was sent while the bot was away, then replayed
    await discord_test.wait_connected()
    after = await discord_test.slash("probe", "admin", "ping", user="bob")
    assert after.content == "pong"
    assert discord_test.logged_errors() == []


async def test_deferring_a_slow_command_meets_the_deadline(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("probe", "slow", user="ann", seconds=3.1, defer=True)
    assert record.in_time and record.deferred
    assert record.content == "Done, slowly."


async def test_slow_command_without_defer_misses_the_deadline(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("probe", "slow", user="ann", seconds=3.1)
    assert not record.in_time
    assert record.responses == []


async def test_restarted_bot_answers_a_click_on_an_old_button(discord_test: DiscordTest) -> None:
    knock = await discord_test.slash("probe", "knock", user="ann")
    [message] = knock.responses
    old_bot = discord_test.bot
    new_bot = await discord_test.restart(make_probe_bot)
    assert new_bot is not old_bot and old_bot.is_closed()
    assert discord_test.fake.gateway.identifies == 2
    click = await discord_test.click(message, "Knock", user="bob")
    assert click.in_time
    assert message.content == "Knocked 1 times"
    assert discord_test.logged_errors() == []


async def test_refused_resume_leads_to_a_new_identify(discord_test: DiscordTest) -> None:
    gateway = discord_test.fake.gateway

    async def identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
        """Skips discord.py's 5 s pause before a repeated IDENTIFY (an identify rate-limit courtesy)."""

    discord_test.bot.before_identify_hook = identify_at_once  # type: ignore[method-assign]
    await discord_test.drop_gateway(forget_session=True)
    await discord_test.wait_connected()
    assert (gateway.resumes, gateway.identifies) == (0, 2)
    await discord_test.bot.wait_until_ready()
    record = await discord_test.slash("probe", "admin", "ping", user="ann")
    assert record.content == "pong"
