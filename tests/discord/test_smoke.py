"""Smoke tests: the real client logs in on the fake server and answers a slash command."""

from __future__ import annotations

from tests.fakediscord.api import DiscordTest


async def test_slash_command_reply_arrives(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("probe", "admin", "ping", user="ann", times=2)
    assert record.content == "pong pong"
    assert [m.content for m in discord_test.messages("general")] == ["pong pong"]
