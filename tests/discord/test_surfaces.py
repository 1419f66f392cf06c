"""What players see: pictures, ephemeral replies, DMs, autocomplete, buttons and command groups."""

from __future__ import annotations

import pytest

from tests.fakediscord.api import DiscordTest


async def test_picture_upload_arrives_as_png(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("probe", "picture", user="ann", size=48)
    assert record.deferred and record.in_time
    [board] = record.files
    assert board.filename == "board.png"
    assert board.image().size == (48, 48)
    [message] = discord_test.messages("general")
    assert message.content == "Board"
    assert message.payload["attachments"][0]["size"] == len(board.data)


async def test_ephemeral_reply_reaches_only_the_caller(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("probe", "secret", user="bob", text="hidden card")
    assert record.ephemeral
    assert [m.content for m in discord_test.ephemerals("bob")] == ["Secret: hidden card"]
    assert discord_test.ephemerals("ann") == []
    assert discord_test.messages("general") == []


async def test_dm_reaches_only_its_user(discord_test: DiscordTest) -> None:
    await discord_test.slash("probe", "whisper", user="cy", text="your hand")
    assert [m.content for m in discord_test.dms("cy")] == ["Whisper: your hand"]
    assert discord_test.dms("ann") == []
    assert discord_test.messages("general") == []
    assert [m.content for m in discord_test.ephemerals("cy")] == ["Sent you a DM."]


async def test_closed_dms_give_a_channel_notice(discord_test: DiscordTest) -> None:
    closed = discord_test.fake.close_dms(discord_test.user("bob"))
    await discord_test.slash("probe", "whisper", user="bob", text="your hand")
    assert closed.hits == 1
    assert discord_test.dms("bob") == []
    [notice] = discord_test.messages("general")
    assert "cannot DM you" in notice.content
    assert "your hand" not in notice.content


async def test_autocomplete_offers_matching_choices(discord_test: DiscordTest) -> None:
    choices = await discord_test.autocomplete("probe", "pick", focused="fruit", user="ann", fruit="gr")
    assert choices == ["grape", "grapefruit"]
    record = await discord_test.slash("probe", "pick", user="ann", fruit="grape")
    assert record.content == "You picked grape"


async def test_subcommand_group_receives_options(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("probe", "admin", "ping", user="ann", channel="table-1", times=3)
    assert record.content == "pong pong pong"
    assert [m.content for m in discord_test.messages("table-1")] == ["pong pong pong"]


async def test_click_updates_the_button_message(discord_test: DiscordTest) -> None:
    knock = await discord_test.slash("probe", "knock", user="ann")
    [message] = knock.responses
    first = await discord_test.click(message, "Knock", user="bob")
    second = await discord_test.click(message, "probe1:knock:1", user="cy")
    assert first.in_time and second.in_time
    assert message.content == "Knocked 2 times"
    assert message.button("Knock")["custom_id"] == "probe1:knock:2"


async def test_unknown_command_names_are_refused(discord_test: DiscordTest) -> None:
    with pytest.raises(LookupError, match="synced"):
        await discord_test.slash("nope", user="ann")
    with pytest.raises(LookupError, match="options"):
        await discord_test.slash("probe", "secret", user="ann", colour="red")


async def test_unknown_route_answers_404_and_is_recorded(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("probe", "missing", user="ann")
    assert record.content == "Not found."
    guild_id = discord_test.fake.guild.id
    assert ("GET", f"/api/v10/guilds/{guild_id}/emojis") in discord_test.recorder.unknown_routes


async def test_member_option_is_resolved(discord_test: DiscordTest) -> None:
    bob = discord_test.user("bob")
    record = await discord_test.slash("probe", "poke", user="ann", member=bob)
    assert record.content == f"{bob.mention} was poked by ann"


async def test_edits_and_deletes_show_in_the_channel(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("probe", "tidy", user="ann")
    assert [m.content for m in discord_test.messages("general")] == ["final"]
    assert discord_test.messages("general")[0].edits == 1
    assert [m.content for m in discord_test.ephemerals("ann")] == ["Tidied."]
    assert record.deferred and record.ephemeral


async def test_command_in_a_dm_channel(discord_test: DiscordTest) -> None:
    ann = discord_test.user("ann")
    dm = discord_test.fake.dm_channel(ann)
    record = await discord_test.slash("probe", "admin", "ping", user=ann, channel=dm)
    assert record.content == "pong"
    assert [m.content for m in discord_test.dms(ann)] == ["pong"]


async def test_select_menu_choice_reaches_the_view(discord_test: DiscordTest) -> None:
    menu = await discord_test.slash("probe", "colours", user="ann")
    [message] = menu.responses
    record = await discord_test.select(message, "probe1:colour", ["red", "blue"], user="cy")
    assert record.content == "cy chose red, blue"
    with pytest.raises(LookupError, match="probe1:colour"):
        message.component("probe1:nope")


async def test_thread_opened_by_the_bot_takes_commands(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("probe", "table", user="ann", name="xisk-1")
    thread = discord_test.channel("xisk-1")
    assert thread.is_thread and thread.parent_id == discord_test.channel("general").id
    assert record.content == f"Opened {thread.mention}"
    assert [m.content for m in discord_test.messages(thread)] == ["Table xisk-1 is open."]
    assert discord_test.bot.get_channel(thread.id) is not None  # THREAD_CREATE reached the bot
    inside = await discord_test.slash("probe", "admin", "ping", user="bob", channel=thread)
    assert inside.content == "pong"
    assert [m.content for m in discord_test.messages(thread)] == ["Table xisk-1 is open.", "pong"]


async def test_click_on_a_button_nobody_handles_is_not_answered(discord_test: DiscordTest) -> None:
    notice = await discord_test.slash("probe", "knock", user="ann")
    [message] = notice.responses
    message.payload["components"][0]["components"][0]["custom_id"] = "stale:button"
    with pytest.raises(TimeoutError, match="stale:button"):
        await discord_test.click(message, "stale:button", user="bob", timeout=0.5)
    assert discord_test.logged_errors() == []


async def test_redelivered_interaction_cannot_be_answered_twice(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("probe", "secret", user="ann", text="once")
    await discord_test.redeliver(record)
    assert [(c.type, c.accepted) for c in record.callbacks] == [(4, True), (4, False)]
    assert [m.content for m in discord_test.ephemerals("ann")] == ["Secret: once"]


async def test_concurrent_commands_get_their_own_answers(discord_test: DiscordTest) -> None:
    import asyncio

    slow, quick = await asyncio.gather(
        discord_test.slash("probe", "slow", user="ann", seconds=0.3, defer=True),
        discord_test.slash("probe", "admin", "ping", user="bob", channel="table-2"),
    )
    assert (slow.content, quick.content) == ("Done, slowly.", "pong")
    assert [m.content for m in discord_test.messages("table-2")] == ["pong"]


async def test_modal_submission_reaches_the_bot(discord_test: DiscordTest) -> None:
    opened = await discord_test.slash("probe", "rename", user="ann")
    assert opened.modal is not None and opened.modal["custom_id"] == "probe1:rename"
    record = await discord_test.submit_modal(opened, {"New name": "Grand table"})
    assert record.content == "Renamed to Grand table"
    with pytest.raises(LookupError, match="colour"):
        await discord_test.submit_modal(opened, {"colour": "red"})
