"""The fake serves several guilds: READY and GUILD_CREATE carry each, REST resolves any guild's
channels, messages, threads and members, and an interaction carries its channel's own guild."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord.api import DiscordTest
from tests.fakediscord.server import FakeDiscord

SECOND = "Second Guild"


class WhereBot(commands.Bot):
    """A tiny bot whose commands say where discord.py thinks an interaction came from.

    ``/where`` (global, no contexts), ``/here-only`` (guild-only), ``/anywhere`` (guilds and DMs),
    ``/dm-only`` (DMs only); each answers ``guild=<id or None> channel=<class> user=<class>``, ephemeral
    with ``secret``, and, with ``long`` set, with that many characters more (to be refused over 2,000).
    With ``local_to`` the tree also has ``/local`` for that guild only.
    """

    def __init__(self, *, local_to: int | None = None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents(guilds=True))
        self.seen: list[discord.Interaction] = []
        self.refused: list[discord.HTTPException] = []
        self.joined: list[int] = []
        self.tree.command(name="where", description="Says where this came from")(self._answer)
        guild_only = app_commands.guild_only(app_commands.Command(
            name="here-only", description="Guild-only", callback=self._answer))
        self.tree.add_command(guild_only)
        anywhere = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)(
            app_commands.Command(name="anywhere", description="Guilds and DMs", callback=self._answer))
        self.tree.add_command(anywhere)
        dm_only = app_commands.allowed_contexts(guilds=False, dms=True)(
            app_commands.Command(name="dm-only", description="DMs only", callback=self._answer))
        self.tree.add_command(dm_only)
        if local_to is not None:
            self.tree.add_command(app_commands.Command(name="local", description="One guild's",
                                                       callback=self._answer), guild=discord.Object(local_to))

    async def _answer(self, interaction: discord.Interaction, secret: bool = False, long: int = 0) -> None:
        self.seen.append(interaction)
        text = (f"guild={interaction.guild_id} channel={type(interaction.channel).__name__} "
                f"user={type(interaction.user).__name__}") + "x" * long
        try:
            if secret:
                await interaction.response.defer(ephemeral=True, thinking=True)
                await interaction.followup.send(text, ephemeral=True)
                await interaction.followup.send("and a second one", ephemeral=True)
            else:
                await interaction.response.send_message(text)
        except discord.HTTPException as exc:
            self.refused.append(exc)
            if interaction.response.is_done():
                await interaction.followup.send(f"Refused {exc.code}", ephemeral=True)
            else:
                await interaction.response.send_message(f"Refused {exc.code}", ephemeral=True)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.joined.append(guild.id)


@pytest.fixture
def fake_discord(fake_discord: FakeDiscord) -> FakeDiscord:
    """The fake with a second guild (general and lobby; ann and bob are members, cy is not)."""
    fake_discord.add_guild(SECOND, channels=["general", "lobby"], members=["ann", "bob"])
    return fake_discord


@pytest.fixture
async def where(fake_discord: FakeDiscord) -> AsyncIterator[DiscordTest]:
    """WhereBot running on the fake with two guilds, ``/local`` synced to the second one only."""
    api = DiscordTest(fake_discord)
    local_to = fake_discord.guild_of(SECOND).id
    try:
        await api.start_bot(lambda: WhereBot(local_to=local_to))
        yield api
    finally:
        await api.close()


def where_bot(dt: DiscordTest) -> WhereBot:
    assert isinstance(dt.bot, WhereBot)
    return dt.bot


async def test_bot_sees_both_guilds_at_ready(discord_test: DiscordTest) -> None:
    first, second = discord_test.fake.guilds
    assert second is discord_test.guild(SECOND) and first is discord_test.guild() is discord_test.fake.guild
    bot = discord_test.bot
    assert {g.id for g in bot.guilds} == {first.id, second.id}
    lobby = bot.get_channel(discord_test.channel("lobby").id)
    assert isinstance(lobby, discord.TextChannel) and lobby.guild.id == second.id
    guild = bot.get_guild(second.id)
    assert guild is not None and guild.name == SECOND
    assert {c.name for c in guild.text_channels} == {"general", "lobby"}
    assert guild.get_role(second.id) is not None  # its own @everyone role
    assert [g.name for g in discord_test.fake.shared_guilds("cy")] == ["Tablehost Test Guild"]


async def test_channel_names_may_repeat_across_guilds(discord_test: DiscordTest) -> None:
    first, second = discord_test.fake.guilds
    here, there = discord_test.channel("general"), discord_test.channel("general", guild=SECOND)
    assert here.guild_id == first.id and there.guild_id == second.id and here.id != there.id
    assert discord_test.channel(there) is there and discord_test.channel(str(there.id)) is there
    assert discord_test.channel("lobby").guild_id == second.id  # a name only one guild has
    with pytest.raises(LookupError, match="table-1"):
        discord_test.channel("table-1", guild=SECOND)
    with pytest.raises(LookupError, match="no guild"):
        discord_test.guild("Third")
    den = discord_test.fake.add_channel("den", guild=second.id)
    assert den in second.channels and discord_test.channel("den") is den


async def test_commands_and_messages_in_the_second_guild(discord_test: DiscordTest) -> None:
    there = discord_test.channel("general", guild=SECOND)
    record = await discord_test.slash("probe", "announce", user="bob", channel=there, text="hello")
    assert record.payload["guild_id"] == str(discord_test.guild(SECOND).id)
    assert record.guild_id == discord_test.guild(SECOND).id
    assert [m.content for m in discord_test.messages("general", guild=SECOND)] == ["Announcement: hello"]
    assert [m.content for m in discord_test.messages(there)] == ["Announcement: hello"]
    assert discord_test.messages("general") == []  # the first guild's general saw nothing
    [message] = discord_test.messages(there)
    assert message.payload["guild_id"] == str(there.guild_id)
    fetched = await discord_test.bot.get_partial_messageable(there.id).fetch_message(message.id)
    assert fetched.content == "Announcement: hello"


async def test_threads_open_in_the_second_guild(discord_test: DiscordTest) -> None:
    lobby = discord_test.channel("lobby")
    await discord_test.slash("probe", "table", user="ann", channel=lobby, name="xisk-2")
    thread = discord_test.channel("xisk-2", guild=SECOND)
    assert thread.parent_id == lobby.id and thread in discord_test.guild(SECOND).threads
    assert discord_test.guild().threads == []
    inside = await discord_test.slash("probe", "admin", "ping", user="bob", channel=thread)
    assert inside.content == "pong" and inside.guild_id == discord_test.guild(SECOND).id


async def test_members_are_per_guild(discord_test: DiscordTest) -> None:
    second = discord_test.guild(SECOND)
    guild = await discord_test.bot.fetch_guild(second.id)
    assert guild.name == SECOND
    assert (await guild.fetch_member(discord_test.user("ann").id)).name == "ann"
    with pytest.raises(discord.NotFound):
        await guild.fetch_member(discord_test.user("cy").id)
    with pytest.raises(LookupError, match="cy is not a member"):
        await discord_test.slash("probe", "admin", "ping", user="cy", channel=discord_test.channel("lobby"))
    dave = discord_test.fake.add_user("dave", guilds=[SECOND])
    assert second.is_member(dave) and not discord_test.guild().is_member(dave)
    everyone = discord_test.fake.add_user("eve")
    assert all(g.is_member(everyone) for g in discord_test.fake.guilds)


async def test_user_option_resolves_the_member_of_the_interactions_guild(discord_test: DiscordTest) -> None:
    bob = discord_test.user("bob")
    record = await discord_test.slash("probe", "poke", user="ann", channel="lobby", member=bob)
    assert record.content == f"{bob.mention} was poked by ann"
    assert str(bob.id) in record.payload["data"]["resolved"]["members"]


async def test_interaction_carries_its_channels_guild(where: DiscordTest) -> None:
    second = where.guild(SECOND)
    record = await where.slash("where", user="ann", channel="lobby")
    assert record.content == f"guild={second.id} channel=TextChannel user=Member"
    assert record.payload["guild"]["id"] == str(second.id)
    assert record.payload["authorizing_integration_owners"] == {"0": str(second.id)}
    [interaction] = where_bot(where).seen
    assert interaction.guild is not None and interaction.guild.name == SECOND
    first = await where.slash("where", user="ann")
    assert first.content.startswith(f"guild={where.fake.guild.id} ")


async def test_guild_commands_only_in_their_guild(where: DiscordTest) -> None:
    second = where.guild(SECOND)
    assert where.fake.find_command("local", guild_id=second.id)["guild_id"] == str(second.id)
    record = await where.slash("local", user="bob", channel="lobby")
    assert record.content.startswith(f"guild={second.id} ")
    with pytest.raises(LookupError, match="synced only to guild"):
        await where.slash("local", user="bob", channel="general")
    assert len(where_bot(where).seen) == 1


async def test_guild_commands_for_a_guild_the_bot_is_not_in_are_refused(where: DiscordTest) -> None:
    http = where.bot.http
    with pytest.raises(discord.Forbidden) as refused:
        await http.bulk_upsert_guild_commands(where.bot.application_id, 12345, [])
    assert refused.value.code == 50001
    assert where.recorder.refusals(code=50001)


async def test_bot_joining_a_guild_gets_guild_create(where: DiscordTest) -> None:
    third = await where.fake.join_guild("Third Guild", channels=["den"], members=["cy"])
    await where.wait_until(lambda: third.id in where_bot(where).joined)
    guild = where.bot.get_guild(third.id)
    assert guild is not None and [c.name for c in guild.text_channels] == ["den"]
    record = await where.slash("where", user="cy", channel="den")
    assert record.content.startswith(f"guild={third.id} ")  # global commands reach every guild


def make_member_client() -> discord.Client:
    """Builds a plain client that asks for the (privileged) members intent."""
    return discord.Client(intents=discord.Intents(guilds=True, members=True))


async def test_every_large_guild_is_chunked(fake_discord: FakeDiscord) -> None:
    fake_discord.gateway.large_guild = True
    api = DiscordTest(fake_discord)
    try:
        client = await api.start_bot(make_member_client)
        first, second = (client.get_guild(g.id) for g in fake_discord.guilds)
        assert first is not None and second is not None and first.chunked and second.chunked
        assert {m.name for m in first.members} == {"tablehost", "ann", "bob", "cy"}
        assert {m.name for m in second.members} == {"tablehost", "ann", "bob"}
    finally:
        await api.close()
