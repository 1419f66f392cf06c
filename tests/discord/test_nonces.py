"""Message nonces: with ``enforce_nonce`` a repeated nonce returns the first message, as on Discord."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from discord.http import Route

from tests.fakediscord.api import DiscordTest


def text_channel(dt: DiscordTest, name: str = "general") -> discord.TextChannel:
    """Returns the probe bot's own object for a guild text channel."""
    assert dt.bot is not None
    channel = dt.bot.get_channel(dt.channel(name).id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def member(dt: DiscordTest, name: str) -> discord.User:
    """Returns the probe bot's own object for a user."""
    assert dt.bot is not None
    return await dt.bot.fetch_user(dt.user(name).id)


async def test_a_repeated_nonce_returns_the_first_message(discord_test: DiscordTest) -> None:
    channel = text_channel(discord_test)
    first = await channel.send("Round 1 begins", nonce="move-17")
    again = await channel.send("Round 1 begins", nonce="move-17")
    assert again.id == first.id
    assert first.nonce == "move-17"
    [stored] = discord_test.messages("general")
    assert stored.id == first.id and stored.content == "Round 1 begins"
    assert discord_test.recorder.nonce_replays == [stored]


async def test_the_first_message_is_returned_even_if_the_repeat_differs(discord_test: DiscordTest) -> None:
    channel = text_channel(discord_test)
    first = await channel.send("first text", nonce="n1")
    again = await channel.send("other text", nonce="n1")
    assert again.id == first.id and again.content == "first text"
    assert [m.content for m in discord_test.messages("general")] == ["first text"]


async def test_different_nonces_and_no_nonce_make_new_messages(discord_test: DiscordTest) -> None:
    channel = text_channel(discord_test)
    await channel.send("a", nonce="n1")
    await channel.send("b", nonce="n2")
    await channel.send("c")
    await channel.send("c")
    assert [m.content for m in discord_test.messages("general")] == ["a", "b", "c", "c"]
    assert discord_test.recorder.nonce_replays == []


async def test_a_repeated_nonce_in_a_dm_returns_the_first_dm(discord_test: DiscordTest) -> None:
    bob = await member(discord_test, "bob")
    first = await bob.send("Your hand: 3, 7", nonce="hand-bob-1")
    again = await bob.send("Your hand: 3, 7", nonce="hand-bob-1")
    assert again.id == first.id
    assert [m.id for m in discord_test.dms("bob")] == [first.id]


async def test_a_repeated_nonce_with_a_file_returns_the_first_upload(discord_test: DiscordTest) -> None:
    channel = text_channel(discord_test)
    first = await channel.send("board", file=discord.File(io.BytesIO(b"png-1"), "b.png"), nonce="pic-1")
    again = await channel.send("board", file=discord.File(io.BytesIO(b"png-2"), "b.png"), nonce="pic-1")
    assert again.id == first.id
    [stored] = discord_test.messages("general")
    assert [f.data for f in stored.files] == [b"png-1"]


async def test_a_nonce_over_25_characters_is_refused(discord_test: DiscordTest) -> None:
    channel = text_channel(discord_test)
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("too long a nonce", nonce="x" * 26)
    assert refused.value.status == 400 and refused.value.code == 50035
    ok = await channel.send("just right", nonce="y" * 25)
    assert [m.id for m in discord_test.messages("general")] == [ok.id]


async def test_a_nonce_is_forgotten_after_the_window(discord_test: DiscordTest) -> None:
    discord_test.fake.nonce_window = 0.0
    channel = text_channel(discord_test)
    first = await channel.send("once", nonce="n1")
    again = await channel.send("once", nonce="n1")
    assert again.id != first.id
    assert len(discord_test.messages("general")) == 2


async def test_integer_nonces_and_unenforced_nonces_over_raw_http(discord_test: DiscordTest) -> None:
    assert discord_test.bot is not None
    http = discord_test.bot.http
    channel_id = discord_test.channel("general").id

    async def post(body: dict[str, Any]) -> Any:
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
        return await http.request(route, json=body)

    first = await post({"content": "int", "nonce": 123456, "enforce_nonce": True})
    again = await post({"content": "int", "nonce": "123456", "enforce_nonce": True})
    assert again["id"] == first["id"] and first["nonce"] == 123456
    loose = await post({"content": "loose", "nonce": "123456"})
    assert loose["id"] != first["id"]  # without enforce_nonce the nonce is only echoed
    with pytest.raises(discord.HTTPException) as refused:
        await post({"content": "bad", "nonce": [1], "enforce_nonce": True})
    assert refused.value.code == 50035
    assert [m.content for m in discord_test.messages("general")] == ["int", "loose"]
