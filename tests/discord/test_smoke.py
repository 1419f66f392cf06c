"""Smoke tests: the real client logs in on the fake server and answers a slash command."""

from __future__ import annotations

from tests.fakediscord.api import DiscordTest


async def test_slash_command_reply_arrives(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("probe", "admin", "ping", user="ann", times=2)
    assert record.content == "pong pong"
    assert [m.content for m in discord_test.messages("general")] == ["pong pong"]


async def test_fake_server_points_discord_at_loopback_and_restores_it() -> None:
    import discord.gateway
    import discord.http

    from tests.fakediscord.server import FakeDiscord

    before = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    fake = FakeDiscord()
    await fake.start()
    try:
        with fake.patch_discord():
            assert discord.http.Route("GET", "/users/@me").url.startswith("http://127.0.0.1:")
            assert discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY.host == "127.0.0.1"
    finally:
        await fake.close()
    after = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    assert after == before
