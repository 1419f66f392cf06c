"""Slash commands in the bot's DM: dispatched as Discord does (no guild, ``user`` at the top level,
context 1), and only for commands that Discord offers there (their ``contexts``, or the legacy
``dm_permission``); answers there are recorded and checked like any other."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest

from tests.discord.test_guilds import WhereBot
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.server import FakeDiscord


@pytest.fixture
async def where(fake_discord: FakeDiscord) -> AsyncIterator[DiscordTest]:
    """WhereBot on the fake, with ``/local`` synced to the (only) guild."""
    api = DiscordTest(fake_discord)
    try:
        await api.start_bot(lambda: WhereBot(local_to=fake_discord.guild.id))
        yield api
    finally:
        await api.close()


def seen(dt: DiscordTest) -> list[discord.Interaction]:
    assert isinstance(dt.bot, WhereBot)
    return dt.bot.seen


async def test_dm_allowed_command_sees_no_guild(where: DiscordTest) -> None:
    ann = where.user("ann")
    dm = where.dm_channel("ann")
    record = await where.slash("anywhere", user="ann", channel=dm)
    assert record.content == "guild=None channel=DMChannel user=User"
    [interaction] = seen(where)
    assert interaction.guild_id is None and interaction.guild is None
    assert isinstance(interaction.user, discord.User) and interaction.user.id == ann.id
    assert isinstance(interaction.channel, discord.DMChannel) and interaction.channel.recipient.id == ann.id
    payload = record.payload
    assert not {"guild_id", "guild", "member", "guild_locale"} & set(payload)
    assert payload["user"]["id"] == str(ann.id) and payload["channel"]["type"] == 1
    assert payload["context"] == 1 and payload["authorizing_integration_owners"] == {"0": "0"}
    assert record.guild_id is None
    assert [m.content for m in where.dms("ann")] == [record.content]


async def test_command_without_contexts_runs_in_dms(where: DiscordTest) -> None:
    assert where.fake.find_command("where", guild_id=None)["contexts"] is None
    record = await where.slash("where", user="bob", channel=where.dm_channel("bob"))
    assert record.content.startswith("guild=None ")


async def test_synced_contexts_are_stored(where: DiscordTest) -> None:
    find = where.fake.find_command
    assert find("here-only", guild_id=None)["contexts"] == [0]
    assert find("here-only", guild_id=None)["dm_permission"] is False
    assert find("anywhere", guild_id=None)["contexts"] == [0, 1]
    assert find("dm-only", guild_id=None)["contexts"] == [1]
    [fetched] = [c for c in await where.bot.tree.fetch_commands() if c.name == "anywhere"]
    assert fetched.to_dict()["contexts"] is not None  # (discord.py 2.7 shifts these by one when parsing)


async def test_guild_only_command_is_refused_in_dms(where: DiscordTest) -> None:
    dm = where.dm_channel("ann")
    with pytest.raises(LookupError, match=r"command /here-only is not available in DMs: its contexts are \[0\]"):
        await where.slash("here-only", user="ann", channel=dm)
    with pytest.raises(LookupError, match="not available in DMs"):
        await where.autocomplete("here-only", focused="long", user="ann", channel=dm)
    assert where.recorder.interactions == {} and seen(where) == []
    record = await where.slash("here-only", user="ann")  # still fine in the guild
    assert record.content.startswith(f"guild={where.fake.guild.id} ")


async def test_dm_only_command_is_refused_in_guilds(where: DiscordTest) -> None:
    with pytest.raises(LookupError, match="not available in guilds"):
        await where.slash("dm-only", user="ann")
    record = await where.slash("dm-only", user="ann", channel=where.dm_channel("ann"))
    assert record.content.startswith("guild=None ")


async def test_legacy_dm_permission_false_is_refused_in_dms(where: DiscordTest) -> None:
    body = {"name": "legacy", "description": "No DMs, the old way", "dm_permission": False}
    await where.bot.http.upsert_global_command(where.bot.application_id, body)
    assert where.fake.find_command("legacy", guild_id=None)["contexts"] is None
    with pytest.raises(LookupError, match="legacy is not available in DMs: its dm_permission is false"):
        await where.slash("legacy", user="ann", channel=where.dm_channel("ann"))


async def test_guild_command_is_refused_in_dms(where: DiscordTest) -> None:
    with pytest.raises(LookupError, match=r"synced only to guild.*not available in DMs"):
        await where.slash("local", user="ann", channel=where.dm_channel("ann"))
    record = await where.slash("local", user="ann")
    assert record.content.startswith(f"guild={where.fake.guild.id} ")


async def test_user_installed_only_command_is_refused(where: DiscordTest) -> None:
    body = {"name": "mine", "description": "User install only", "integration_types": [1], "contexts": [0, 1, 2]}
    await where.bot.http.upsert_global_command(where.bot.application_id, body)
    with pytest.raises(LookupError, match="leave out guild installs"):
        await where.slash("mine", user="ann", channel=where.dm_channel("ann"))


async def test_only_the_recipient_acts_in_a_dm(where: DiscordTest) -> None:
    with pytest.raises(LookupError, match="bob cannot act in the bot's DM with ann"):
        await where.slash("anywhere", user="bob", channel=where.dm_channel("ann"))


async def test_ephemeral_follow_ups_in_a_dm_are_recorded(where: DiscordTest) -> None:
    record = await where.slash("anywhere", user="cy", channel=where.dm_channel("cy"), secret=True)
    assert record.deferred and record.ephemeral
    assert [m.content for m in record.responses] == ["guild=None channel=DMChannel user=User",
                                                     "and a second one"]
    assert [m.content for m in where.ephemerals("cy")] == [m.content for m in record.responses]
    assert where.dms("cy") == [] and where.messages(where.dm_channel("cy")) == []


async def test_answers_in_a_dm_pass_the_same_limits(where: DiscordTest) -> None:
    dm = where.dm_channel("ann")
    record = await where.slash("anywhere", user="ann", channel=dm, long=2000)
    assert record.content == "Refused 50035"
    [refusal] = record.refusals
    assert refusal.problems == ["data.content: Must be 2000 or fewer in length. (BASE_TYPE_MAX_LENGTH)"]
    followed = await where.slash("anywhere", user="ann", channel=dm, secret=True, long=2000)
    assert followed.content == "Refused 50035"
    assert [r.problems for r in followed.refusals] == [["content: Must be 2000 or fewer in length. "
                                                         "(BASE_TYPE_MAX_LENGTH)"]]
    assert where.dms("ann") == [] and where.ephemerals("ann")  # nothing over the limit was kept


async def test_options_whose_names_clash_go_in_a_mapping(where: DiscordTest) -> None:
    record = await where.slash("anywhere", user="ann", channel=where.dm_channel("ann"), with_options={"secret": True})
    assert record.ephemeral
    with pytest.raises(TypeError, match="secret"):
        await where.slash("anywhere", user="ann", with_options={"secret": True}, secret=False)
