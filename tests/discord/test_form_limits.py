"""Discord's documented limits: what the bot sends over one is refused with 400 code 50035, naming the
offending path as Discord does, on every route that carries it, and each refusal is recorded."""

from __future__ import annotations

from typing import Any, cast

import discord
import pytest

from tests.discord.probe_bot import ProbeBot
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.commands import command_data
from tests.fakediscord.recorder import InteractionRecord

CALLBACK = "POST /interactions/{webhook_id}/{webhook_token}/callback"
MAX_LENGTH_80 = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 80 or fewer in length."}]}


def probe(dt: DiscordTest) -> ProbeBot:
    return cast(ProbeBot, dt.bot)


def buttons(*labels: str, prefix: str = "b") -> dict[str, Any]:
    return {"type": 1, "components": [{"type": 2, "style": 1, "label": label, "custom_id": f"{prefix}{i}"}
                                      for i, label in enumerate(labels)]}


def codes(errors: dict[str, Any]) -> list[str]:
    """Returns every ``_errors`` code in a Discord ``errors`` object."""
    found = []
    for key, value in errors.items():
        if key == "_errors":
            found += [e["code"] for e in value]
        elif isinstance(value, dict):
            found += codes(value)
    return found


async def raw(dt: DiscordTest, target: str, body: dict[str, Any]) -> InteractionRecord:
    """Has the probe bot send ``body`` to ``target`` (``reply``: as the callback) and returns the record
    of its ``/probe raw`` command."""
    probe(dt).answers["it"] = body
    return await dt.slash("probe", "raw", user="ann", target=target, name="it")


# buttons and rows, through discord.py's own payloads

async def test_a_button_label_over_80_characters_is_refused_with_50035(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("probe", "label", user="ann", length=81)
    [refusal] = discord_test.recorder.refusals()
    assert (refusal.route, refusal.status, refusal.code) == (CALLBACK, 400, 50035)
    assert refusal.message == "Invalid Form Body"
    assert refusal.errors == {"data": {"components": {"0": {"components": {"0": {"label": MAX_LENGTH_80}}}}}}
    assert record.refusals == [refusal]
    [exc] = probe(discord_test).refused
    assert (exc.status, exc.code) == (400, 50035)
    assert "data.components.0.components.0.label" in exc.text
    assert record.content == "Refused 50035"
    assert discord_test.messages("general") == []


async def test_a_button_label_of_80_characters_is_accepted(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("probe", "label", user="ann", length=80)
    assert record.content == "Labelled"
    assert discord_test.recorder.refused == []


async def test_the_label_path_names_the_row_and_the_button_in_a_channel_message(discord_test: DiscordTest) -> None:
    body = {"content": "rows", "components": [buttons("ok"), buttons("ok", "x" * 81, prefix="c")]}
    record = await raw(discord_test, "channel", body)
    [refusal] = discord_test.recorder.refused
    assert refusal.errors == {"components": {"1": {"components": {"1": {"label": MAX_LENGTH_80}}}}}
    assert refusal.body == body
    assert record.content == "Refused 50035"
    assert discord_test.messages("general") == []


async def test_a_sixth_action_row_is_refused(discord_test: DiscordTest) -> None:
    rows = [buttons("ok", prefix=f"r{i}-") for i in range(6)]
    await raw(discord_test, "channel", {"content": "rows", "components": rows})
    [refusal] = discord_test.recorder.refused
    assert refusal.errors == {"components": {"_errors": [
        {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 5 or fewer in length."}]}}


async def test_a_sixth_button_in_a_row_exceeds_its_width(discord_test: DiscordTest) -> None:
    await raw(discord_test, "channel", {"components": [buttons(*"abcdef")]})
    [refusal] = discord_test.recorder.refused
    assert refusal.errors == {"components": {"0": {"components": {"5": {"_errors": [
        {"code": "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "message": "The specified component exceeds the maximum width"},
    ]}}}}}


async def test_a_select_menu_fills_its_row_alone(discord_test: DiscordTest) -> None:
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
    row = {"type": 1, "components": [select, {"type": 2, "style": 1, "label": "b", "custom_id": "b"}]}
    await raw(discord_test, "channel", {"components": [row]})
    [refusal] = discord_test.recorder.refused
    assert codes(refusal.errors["components"]["0"]["components"]["1"]) == ["COMPONENT_LAYOUT_WIDTH_EXCEEDED"]


async def test_a_custom_id_used_twice_in_a_message_is_refused(discord_test: DiscordTest) -> None:
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "a", "custom_id": "same"},
                                     {"type": 2, "style": 2, "label": "b", "custom_id": "same"}]}
    await raw(discord_test, "channel", {"components": [row]})
    [refusal] = discord_test.recorder.refused
    assert codes(refusal.errors) == ["COMPONENT_CUSTOM_ID_DUPLICATED"]
    assert "1" in refusal.errors["components"]["0"]["components"]


@pytest.mark.parametrize(("button", "field", "code"), [
    ({"style": 1, "custom_id": "c"}, None, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED"),
    ({"style": 1, "label": "l"}, "custom_id", "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED"),
    ({"style": 1, "label": "l", "custom_id": "c" * 101}, "custom_id", "BASE_TYPE_BAD_LENGTH"),
    ({"style": 1, "label": "l", "custom_id": ""}, "custom_id", "BASE_TYPE_BAD_LENGTH"),
    ({"style": 5, "label": "l"}, "url", "BUTTON_COMPONENT_URL_REQUIRED"),
    ({"style": 5, "label": "l", "url": "https://example.com", "custom_id": "c"}, "custom_id",
     "BUTTON_COMPONENT_CUSTOM_ID_INVALID"),
], ids=["no-label-or-emoji", "no-custom-id", "custom-id-101", "custom-id-empty", "link-without-url",
        "link-with-custom-id"])
async def test_a_malformed_button_is_refused_at_its_path(
    discord_test: DiscordTest, button: dict[str, Any], field: str | None, code: str,
) -> None:
    await raw(discord_test, "channel", {"components": [{"type": 1, "components": [{"type": 2, **button}]}]})
    [refusal] = discord_test.recorder.refused
    at = refusal.errors["components"]["0"]["components"]["0"]
    assert codes(at if field is None else at[field]) == [code]


async def test_a_link_button_and_an_emoji_only_button_are_accepted(discord_test: DiscordTest) -> None:
    row = {"type": 1, "components": [{"type": 2, "style": 5, "label": "site", "url": "https://example.com"},
                                     {"type": 2, "style": 1, "emoji": {"name": "🎲"}, "custom_id": "dice"}]}
    record = await raw(discord_test, "channel", {"components": [row]})
    assert record.refusals == [] and record.content == "Sent"
    [message] = discord_test.messages("general")
    assert [b.get("url") for b in message.buttons()] == ["https://example.com", None]


@pytest.mark.parametrize(("change", "path", "code"), [
    ({"options": []}, ("options",), "BASE_TYPE_BAD_LENGTH"),
    ({"options": [{"label": f"o{i}", "value": f"o{i}"} for i in range(26)]}, ("options",), "BASE_TYPE_BAD_LENGTH"),
    ({"options": [{"label": "l" * 101, "value": "v"}]}, ("options", "0", "label"), "BASE_TYPE_BAD_LENGTH"),
    ({"options": [{"label": "l", "value": "v" * 101}]}, ("options", "0", "value"), "BASE_TYPE_BAD_LENGTH"),
    ({"options": [{"label": "l", "value": "v", "description": "d" * 101}]}, ("options", "0", "description"),
     "BASE_TYPE_MAX_LENGTH"),
    ({"placeholder": "p" * 151}, ("placeholder",), "BASE_TYPE_MAX_LENGTH"),
    ({"min_values": 26}, ("min_values",), "NUMBER_TYPE_MAX"),
    ({"max_values": 26}, ("max_values",), "NUMBER_TYPE_MAX"),
    ({"min_values": -1}, ("min_values",), "NUMBER_TYPE_MIN"),
], ids=["no-options", "26-options", "label-101", "value-101", "description-101", "placeholder-151",
        "min-values-26", "max-values-26", "min-values-negative"])
async def test_a_select_menu_over_its_limits_is_refused_at_its_path(
    discord_test: DiscordTest, change: dict[str, Any], path: tuple[str, ...], code: str,
) -> None:
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}], **change}
    await raw(discord_test, "channel", {"components": [{"type": 1, "components": [select]}]})
    [refusal] = discord_test.recorder.refused
    at = refusal.errors["components"]["0"]["components"]["0"]
    for key in path:
        at = at[key]
    assert codes(at) == [code]


# content and embeds

async def test_content_over_2000_characters_is_refused_at_content(discord_test: DiscordTest) -> None:
    await raw(discord_test, "channel", {"content": "x" * 2001})
    [refusal] = discord_test.recorder.refused
    assert refusal.errors == {"content": {"_errors": [
        {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}]}}


@pytest.mark.parametrize(("embed", "path", "code"), [
    ({"title": "t" * 257}, ("0", "title"), "BASE_TYPE_MAX_LENGTH"),
    ({"description": "d" * 4097}, ("0", "description"), "BASE_TYPE_MAX_LENGTH"),
    ({"fields": [{"name": "n", "value": "v"}] * 26}, ("0", "fields"), "BASE_TYPE_MAX_LENGTH"),
    ({"fields": [{"name": "n" * 257, "value": "v"}]}, ("0", "fields", "0", "name"), "BASE_TYPE_BAD_LENGTH"),
    ({"fields": [{"name": "n", "value": "v" * 1025}]}, ("0", "fields", "0", "value"), "BASE_TYPE_BAD_LENGTH"),
    ({"footer": {"text": "f" * 2049}}, ("0", "footer", "text"), "BASE_TYPE_MAX_LENGTH"),
    ({"author": {"name": "a" * 257}}, ("0", "author", "name"), "BASE_TYPE_MAX_LENGTH"),
], ids=["title-257", "description-4097", "26-fields", "field-name-257", "field-value-1025", "footer-2049",
        "author-257"])
async def test_an_embed_over_its_limits_is_refused_at_its_path(
    discord_test: DiscordTest, embed: dict[str, Any], path: tuple[str, ...], code: str,
) -> None:
    await raw(discord_test, "followup", {"embeds": [embed]})
    [refusal] = discord_test.recorder.refused
    assert refusal.route == "POST /webhooks/{webhook_id}/{webhook_token}"
    at = refusal.errors["embeds"]
    for key in path:
        at = at[key]
    assert codes(at) == [code]


async def test_embeds_over_6000_characters_together_are_refused(discord_test: DiscordTest) -> None:
    embeds = [{"title": "t" * 200, "description": "d" * 3000}, {"description": "d" * 2801}]
    record = await raw(discord_test, "followup", {"embeds": embeds})
    [refusal] = discord_test.recorder.refused
    assert refusal.errors == {"embeds": {"_errors": [
        {"code": "MAX_EMBED_SIZE_EXCEEDED", "message": "Embed size exceeds maximum size of 6000"}]}}
    record = await raw(discord_test, "followup", {"embeds": [embeds[0], {"description": "d" * 2800}]})
    assert record.refusals == [] and record.content.endswith("Sent")


async def test_an_attachment_description_over_1024_characters_is_refused_at_its_path(
    discord_test: DiscordTest,
) -> None:
    described = [{"id": 0, "filename": "a.png", "description": "ok"},
                 {"id": 1, "filename": "b.png", "description": "d" * 1025}]
    record = await raw(discord_test, "channel", {"content": "pictures", "attachments": described})
    [refusal] = discord_test.recorder.refused
    assert (refusal.status, refusal.code) == (400, 50035)
    assert refusal.errors == {"attachments": {"1": {"description": {"_errors": [
        {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 1024 or fewer in length."}]}}}}
    assert record.content == "Refused 50035"
    assert discord_test.messages("general") == []


async def test_an_attachment_description_of_1024_characters_is_accepted(discord_test: DiscordTest) -> None:
    body = {"content": "pictures", "attachments": [{"id": 0, "filename": "a.png", "description": "d" * 1024}]}
    record = await raw(discord_test, "edit-channel", body)
    assert record.refusals == [] and record.content.endswith("Sent")


async def test_an_eleventh_embed_is_refused(discord_test: DiscordTest) -> None:
    await raw(discord_test, "dm", {"embeds": [{"title": str(i)} for i in range(11)]})
    [refusal] = discord_test.recorder.refused
    assert codes(refusal.errors) == ["BASE_TYPE_MAX_LENGTH"] and list(refusal.errors) == ["embeds"]
    assert discord_test.dms("ann") == []


# every route that carries a message

@pytest.mark.parametrize("target", ["channel", "dm", "edit-channel", "followup", "edit-original", "edit-followup"])
async def test_every_message_route_refuses_an_over_long_button_label(discord_test: DiscordTest, target: str) -> None:
    record = await raw(discord_test, target, {"content": "hi", "components": [buttons("x" * 81)]})
    [refusal] = discord_test.recorder.refusals(code=50035)
    assert refusal.errors == {"components": {"0": {"components": {"0": {"label": MAX_LENGTH_80}}}}}
    assert record.refusals == ([refusal] if "webhook" in refusal.route else [])
    assert "Refused 50035" in record.content


@pytest.mark.parametrize("target", ["channel", "dm", "followup"])
async def test_an_empty_message_is_refused_with_50006(discord_test: DiscordTest, target: str) -> None:
    record = await raw(discord_test, target, {"content": "", "embeds": [], "components": []})
    [refusal] = discord_test.recorder.refusals()
    assert (refusal.status, refusal.code, refusal.message) == (400, 50006, "Cannot send an empty message")
    assert "Refused 50006" in record.content


async def test_an_edit_that_empties_a_message_is_refused_with_50006(discord_test: DiscordTest) -> None:
    record = await raw(discord_test, "edit-channel", {"content": ""})
    assert [r.code for r in discord_test.recorder.refused] == [50006]
    assert "Refused 50006" in record.content
    [draft] = discord_test.messages("general")
    assert draft.content == "Draft"


# interaction callbacks

async def test_a_26th_autocomplete_choice_is_refused(discord_test: DiscordTest) -> None:
    with pytest.raises(TimeoutError, match="Must be 25 or fewer in length"):
        await discord_test.autocomplete("probe", "choices", focused="thing", user="ann", count=26, timeout=1.0)
    [refusal] = discord_test.recorder.refusals()
    assert refusal.errors == {"data": {"choices": {"_errors": [
        {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 25 or fewer in length."}]}}}
    assert len(refusal.body["data"]["choices"]) == 26


async def test_25_autocomplete_choices_are_accepted(discord_test: DiscordTest) -> None:
    choices = await discord_test.autocomplete("probe", "choices", focused="thing", user="ann", count=25)
    assert len(choices) == 25 and discord_test.recorder.refused == []


async def test_an_autocomplete_choice_name_over_100_characters_is_refused(discord_test: DiscordTest) -> None:
    with pytest.raises(TimeoutError):
        await discord_test.autocomplete("probe", "choices", focused="thing", user="ann", count=2, length=101,
                                        timeout=1.0)
    [refusal] = discord_test.recorder.refusals()
    assert set(refusal.errors["data"]["choices"]) == {"0", "1"}
    assert codes(refusal.errors["data"]["choices"]["0"]["name"]) == ["BASE_TYPE_BAD_LENGTH"]


@pytest.mark.parametrize("kind", [6, 7, 8])
async def test_a_slash_command_cannot_be_answered_with_callback_type(discord_test: DiscordTest, kind: int) -> None:
    data = {"choices": []} if kind == 8 else {"content": "x"}
    record = await raw(discord_test, "reply", {"type": kind, "data": data})
    [refusal] = discord_test.recorder.refused
    assert refusal.errors == {"type": {"_errors": [
        {"code": "BASE_TYPE_CHOICES", "message": "Value must be one of {4, 5, 9}."}]}}
    assert record.content == "Refused 50035"


async def test_a_button_click_takes_an_update_but_not_an_autocomplete_result(discord_test: DiscordTest) -> None:
    bot = probe(discord_test)
    bot.answers["update"] = {"type": 7, "data": {"content": "Updated"}}
    bot.answers["choices"] = {"type": 8, "data": {"choices": []}}
    panel = await discord_test.slash("probe", "panel", user="ann", name="update")
    [message] = panel.responses
    await discord_test.click(message, "Answer", user="bob")
    assert message.content == "Updated" and discord_test.recorder.refused == []
    panel = await discord_test.slash("probe", "panel", user="ann", name="choices")
    [message] = panel.responses
    click = await discord_test.click(message, "Answer", user="bob")
    [refusal] = click.refusals
    assert codes(refusal.errors["type"]) == ["BASE_TYPE_CHOICES"]
    assert "{4, 5, 6, 7, 9}" in refusal.errors["type"]["_errors"][0]["message"]


async def test_a_modal_from_a_slash_command_cannot_be_answered_with_an_update(discord_test: DiscordTest) -> None:
    bot = probe(discord_test)
    bot.answers["open"] = {"type": 9, "data": {"custom_id": "probe1:rawmodal:update", "title": "Rename", "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "name", "label": "Name", "style": 1}]}]}}
    bot.answers["update"] = {"type": 7, "data": {"content": "Updated"}}
    data, _ = command_data(discord_test.fake, ("probe", "raw"), {"target": "reply", "name": "open"},
                           guild_id=discord_test.channel().guild_id)
    record = await discord_test.fake.send_interaction(kind=2, data=data, user=discord_test.user("ann"),
                                                      channel=discord_test.channel(), name="probe raw")
    await discord_test.wait_until(lambda: record.modal is not None)
    await discord_test.quiet()
    assert record.modal is not None and discord_test.recorder.refused == []
    submitted = await discord_test.submit_modal(record, {"name": "new"})
    [refusal] = submitted.refusals
    assert refusal.errors["type"]["_errors"][0]["message"] == "Value must be one of {4, 5, 6}."
    assert submitted.content == "Refused 50035"


async def test_a_modal_over_its_limits_is_refused(discord_test: DiscordTest) -> None:
    modal = {"custom_id": "m", "title": "t" * 46, "components": []}
    await raw(discord_test, "reply", {"type": 9, "data": modal})
    [refusal] = discord_test.recorder.refused
    assert codes(refusal.errors["data"]["title"]) == ["BASE_TYPE_BAD_LENGTH"]
    assert codes(refusal.errors["data"]["components"]) == ["BASE_TYPE_BAD_LENGTH"]


async def test_a_second_callback_is_refused_with_40060(discord_test: DiscordTest) -> None:
    record = await raw(discord_test, "twice", {"type": 4, "data": {"content": "Second answer"}})
    [refusal] = discord_test.recorder.refused
    assert (refusal.status, refusal.code) == (400, 40060)
    assert [cb.accepted for cb in record.callbacks] == [True, False]
    assert "First answer" in record.content and "Refused 40060" in record.content


async def test_a_refused_callback_leaves_the_interaction_open_for_a_valid_answer(discord_test: DiscordTest) -> None:
    record = await raw(discord_test, "reply", {"type": 4, "data": {"content": "x" * 2001}})
    assert [r.code for r in record.refusals] == [50035]
    assert [cb.type for cb in record.callbacks] == [4] and record.content == "Refused 50035"


async def test_the_bot_sees_the_paths_in_its_http_exception(discord_test: DiscordTest) -> None:
    await raw(discord_test, "channel", {"content": "x" * 2001, "components": [buttons("x" * 81)]})
    [exc] = probe(discord_test).refused
    assert isinstance(exc, discord.HTTPException)
    assert "In content: Must be 2000 or fewer in length." in exc.text
    assert "In components.0.components.0.label: Must be 80 or fewer in length." in exc.text
