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


async def test_bot_can_fetch_users_members_and_guild(discord_test: DiscordTest) -> None:
    bot, ann = discord_test.bot, discord_test.user("ann")
    assert (await bot.fetch_user(ann.id)).name == "ann"
    guild = await bot.fetch_guild(discord_test.fake.guild.id)
    member = await guild.fetch_member(ann.id)
    assert member.id == ann.id and member.guild.id == guild.id
    assert bot.get_guild(guild.id) is not None and len(bot.get_guild(guild.id).text_channels) == 3


async def test_request_bodies_are_kept(discord_test: DiscordTest) -> None:
    bob = discord_test.user("bob")
    await discord_test.slash("probe", "poke", user="ann", member=bob)
    [message] = discord_test.messages("general")
    assert message.bodies == [{"tts": False, "content": f"{bob.mention} was poked by ann"}]
    assert [c.type for c in discord_test.recorder.interactions[message.interaction_id].callbacks] == [4]


async def test_errors_logged_by_discord_py_are_collected(discord_test: DiscordTest) -> None:
    import logging

    logging.getLogger("discord.ui.view").error("Ignoring exception in view %r", "probe")
    assert discord_test.logged_errors() == ["Ignoring exception in view 'probe'"]
