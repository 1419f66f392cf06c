"""Discord's limits on command registration (bulk overwrite and create, global and guild): a command
set over one is refused with 400 code 50035 naming the command and field, and nothing is stored."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.fakediscord.api import DiscordTest

PUT_GLOBAL = "PUT /applications/{application_id}/commands"


def command(name: str = "game", **fields: Any) -> dict[str, Any]:
    return {"type": 1, "name": name, "description": "Plays a game", **fields}


def option(name: str, kind: int = 3, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "name": name, "description": f"The {name}", **fields}


async def overwrite(dt: DiscordTest, commands: list[dict[str, Any]], *, guild: bool = False) -> discord.HTTPException:
    """Bulk-overwrites the commands through discord.py and returns the refusal it raised."""
    assert dt.bot is not None and dt.bot.application_id is not None
    http = dt.bot.http
    with pytest.raises(discord.HTTPException) as refused:
        if guild:
            await http.bulk_upsert_guild_commands(dt.bot.application_id, dt.fake.guild.id, commands)
        else:
            await http.bulk_upsert_global_commands(dt.bot.application_id, commands)
    return refused.value


def errors(dt: DiscordTest) -> dict[str, Any]:
    [refusal] = dt.recorder.refusals(code=50035)
    return refusal.errors


def codes(errors: dict[str, Any]) -> list[str]:
    found = []
    for key, value in errors.items():
        if key == "_errors":
            found += [e["code"] for e in value]
        elif isinstance(value, dict):
            found += codes(value)
    return found


async def test_a_101st_global_chat_input_command_is_refused(discord_test: DiscordTest) -> None:
    before = list(discord_test.fake.commands[None])
    refused = await overwrite(discord_test, [command(f"c{i}") for i in range(101)])
    assert (refused.status, refused.code) == (400, 50035)
    assert errors(discord_test) == {"_errors": [
        {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 100 or fewer in length."}]}
    assert discord_test.fake.commands[None] == before  # nothing was replaced
    assert discord_test.recorder.requests_to(PUT_GLOBAL, status=400)[0].code == 50035


async def test_100_global_commands_are_accepted(discord_test: DiscordTest) -> None:
    assert discord_test.bot is not None and discord_test.bot.application_id is not None
    stored = await discord_test.bot.http.bulk_upsert_global_commands(
        discord_test.bot.application_id, [command(f"c{i}") for i in range(100)])
    assert len(stored) == 100 and discord_test.recorder.refused == []


@pytest.mark.parametrize(("name", "code"), [
    ("", "BASE_TYPE_BAD_LENGTH"),
    ("n" * 33, "BASE_TYPE_BAD_LENGTH"),
    ("two words", "STRING_TYPE_REGEX"),
    ("Game", "APPLICATION_COMMAND_INVALID_NAME"),
], ids=["empty", "33-characters", "space", "upper-case"])
async def test_a_command_name_discord_refuses_is_named_at_its_index(
    discord_test: DiscordTest, name: str, code: str,
) -> None:
    await overwrite(discord_test, [command("ok"), command(name)], guild=True)
    assert list(errors(discord_test)) == ["1"]
    assert codes(errors(discord_test)["1"]["name"]) == [code]


async def test_unicode_and_hyphenated_lower_case_names_are_accepted(discord_test: DiscordTest) -> None:
    assert discord_test.bot is not None and discord_test.bot.application_id is not None
    await discord_test.bot.http.bulk_upsert_global_commands(
        discord_test.bot.application_id, [command("spiel-über_2"), {"type": 2, "name": "Show Hand"}])
    assert discord_test.recorder.refused == []


@pytest.mark.parametrize(("description", "code"), [("", "BASE_TYPE_BAD_LENGTH"), ("d" * 101, "BASE_TYPE_BAD_LENGTH")])
async def test_a_command_description_outside_1_to_100_is_refused(
    discord_test: DiscordTest, description: str, code: str,
) -> None:
    await overwrite(discord_test, [command(description=description)])
    assert codes(errors(discord_test)["0"]["description"]) == [code]


async def test_a_26th_option_is_refused(discord_test: DiscordTest) -> None:
    await overwrite(discord_test, [command(options=[option(f"o{i}") for i in range(26)])])
    assert errors(discord_test) == {"0": {"options": {"_errors": [
        {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 25 or fewer in length."}]}}}


async def test_a_26th_subcommand_is_refused(discord_test: DiscordTest) -> None:
    await overwrite(discord_test, [command(options=[option(f"s{i}", 1) for i in range(26)])])
    assert codes(errors(discord_test)["0"]["options"]) == ["BASE_TYPE_MAX_LENGTH"]


async def test_a_26th_choice_is_refused(discord_test: DiscordTest) -> None:
    choices = [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)]
    await overwrite(discord_test, [command(options=[option("pick", choices=choices)])])
    assert codes(errors(discord_test)["0"]["options"]["0"]["choices"]) == ["BASE_TYPE_MAX_LENGTH"]


async def test_a_required_option_after_an_optional_one_is_refused(discord_test: DiscordTest) -> None:
    options = [option("first"), option("second", required=True)]
    await overwrite(discord_test, [command(options=options)])
    assert codes(errors(discord_test)["0"]["options"]) == ["APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"]


async def test_a_group_inside_a_group_is_refused(discord_test: DiscordTest) -> None:
    inner = option("inner", 2, options=[option("leaf", 1)])
    await overwrite(discord_test, [command(options=[option("outer", 2, options=[inner])])])
    assert codes(errors(discord_test)["0"]["options"]["0"]["options"]["0"]["type"]) == [
        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID"]


async def test_a_group_of_subcommands_with_options_is_accepted(discord_test: DiscordTest) -> None:
    assert discord_test.bot is not None and discord_test.bot.application_id is not None
    leaf = option("move", 1, options=[option("to", required=True), option("note")])
    await discord_test.bot.http.bulk_upsert_global_commands(
        discord_test.bot.application_id, [command(options=[option("play", 2, options=[leaf])])])
    assert discord_test.recorder.refused == []
    assert discord_test.fake.find_command("game", guild_id=None)["options"][0]["name"] == "play"


async def test_creating_one_command_is_checked_and_counted(discord_test: DiscordTest) -> None:
    bot = discord_test.bot
    assert bot is not None and bot.application_id is not None
    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.upsert_global_command(bot.application_id, command("Bad"))
    assert refused.value.code == 50035 and codes(errors(discord_test)["name"]) == ["APPLICATION_COMMAND_INVALID_NAME"]
    await bot.http.bulk_upsert_global_commands(bot.application_id, [command(f"c{i}") for i in range(100)])
    await bot.http.upsert_global_command(bot.application_id, command("c5", description="Replaced"))
    with pytest.raises(discord.HTTPException) as full:
        await bot.http.upsert_global_command(bot.application_id, command("c100"))
    assert (full.value.status, full.value.code) == (400, 30032)
    assert len(discord_test.fake.commands[None]) == 100
    assert discord_test.fake.find_command("c5", guild_id=None)["description"] == "Replaced"
