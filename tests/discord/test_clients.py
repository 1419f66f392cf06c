"""Any bot factory works: a plain ``discord.Client`` with the members intent gets its guild chunked."""

from __future__ import annotations

import discord

from tests.fakediscord.api import DiscordTest
from tests.fakediscord.server import FakeDiscord


def make_member_client() -> discord.Client:
    """Builds a plain client that asks for the (privileged) members intent."""
    return discord.Client(intents=discord.Intents(guilds=True, members=True))


async def test_plain_client_with_members_intent_is_chunked(fake_discord: FakeDiscord) -> None:
    fake_discord.gateway.large_guild = True
    api = DiscordTest(fake_discord)
    try:
        client = await api.start_bot(make_member_client)
        guild = client.get_guild(fake_discord.guild.id)
        assert guild is not None and guild.chunked
        assert fake_discord.gateway.member_requests == 1
        assert {m.name for m in guild.members} == {"tablehost", "ann", "bob", "cy"}
        assert fake_discord.commands == {}  # a plain client has no command tree to sync
    finally:
        await api.close()
    assert client.is_closed()


async def test_background_message_is_awaited(fake_discord: FakeDiscord) -> None:
    api = DiscordTest(fake_discord)
    try:
        client = await api.start_bot(make_member_client)
        channel = client.get_channel(api.channel("table-1").id)
        assert isinstance(channel, discord.TextChannel)
        reminder = client.loop.create_task(channel.send("Reminder: ann to move"))
        await api.wait_until(lambda: api.messages("table-1"))
        await reminder
        assert [m.content for m in api.messages("table-1")] == ["Reminder: ann to move"]
    finally:
        await api.close()
