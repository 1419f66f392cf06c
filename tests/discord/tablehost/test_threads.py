"""A thread per game: the lobby line starts a public thread, and the game lives there."""

from __future__ import annotations

import discord
import pytest

import tests.fakediscord.payloads as payloads
from tests.discord.tablehost.helpers import pictures
from tests.fakediscord.api import DiscordTest


async def test_a_new_game_gets_a_thread_of_its_own_and_is_played_there(discord_test: DiscordTest) -> None:
    dt = discord_test
    record = await dt.slash("nxs", "new", user="ann", thread=True)
    assert record.content.startswith('Done. Your join adds "-" to this game\'s entropy')  # tests leave join ids out
    [starter] = dt.messages("general")
    assert starter.content == "Ann opened a NXS table: join in the thread."
    thread = dt.fake.guild.threads[-1]
    assert thread.parent_id == dt.channel("general").id and thread.name == "NXS — Ann"
    assert "opened a NXS table" in dt.messages(thread)[0].content
    await dt.slash("game", "join", user="bob", channel=thread)
    await dt.slash("game", "start", user="ann", channel=thread)
    assert pictures(dt.messages(thread)) and len(dt.messages("general")) == 1  # nothing more in the channel
    elsewhere = await dt.slash("game", "join", user="cy", channel="general")
    assert f"NXS game (running, 2 players) in <#{thread.id}>" in elsewhere.content  # the parent links its thread


async def test_without_the_permission_the_game_stays_in_the_channel_and_says_so(
    discord_test: DiscordTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_threads = discord.Permissions.all()
    no_threads.create_public_threads = False
    monkeypatch.setattr(payloads, "ALL_PERMISSIONS", str(no_threads.value))
    await discord_test.slash("nxs", "new", user="ann", thread=True)
    [lobby] = discord_test.messages("general")
    opening = lobby.content.splitlines()[0]  # the note ends the opening line, before the dice seal's
    assert opening.endswith("join, then start. I can't create threads here, so the game stays in this channel.")
    assert discord_test.fake.guild.threads == []
