"""Fault handling: rate limits and server errors are retried; slow REST calls show why to defer."""

from __future__ import annotations

import pytest

from tests.fakediscord.api import DiscordTest

CREATE_MESSAGE = "POST /channels/{channel_id}/messages"
FOLLOW_UP = "POST /webhooks/{webhook_id}/{webhook_token}"


async def test_rate_limited_message_is_retried_and_arrives_once(discord_test: DiscordTest) -> None:
    limit = discord_test.faults.rate_limit(CREATE_MESSAGE, retry_after=0.2)
    record = await discord_test.slash("probe", "announce", user="ann", text="round 2")
    assert limit.hits == 1
    assert [r.status for r in discord_test.recorder.requests_to(CREATE_MESSAGE)] == [429, 200]
    assert [m.content for m in discord_test.messages("general")] == ["Announcement: round 2"]
    assert record.content == "Posted."


async def test_global_rate_limit_is_waited_out(discord_test: DiscordTest) -> None:
    limit = discord_test.faults.rate_limit(CREATE_MESSAGE, retry_after=0.2, is_global=True, times=2)
    await discord_test.slash("probe", "announce", user="ann", text="twice limited")
    assert limit.hits == 2
    assert [m.content for m in discord_test.messages("general")] == ["Announcement: twice limited"]


async def test_server_error_on_upload_is_retried_and_arrives_once(discord_test: DiscordTest) -> None:
    failure = discord_test.faults.fail(FOLLOW_UP, status=500)
    record = await discord_test.slash("probe", "picture", user="bob")
    assert failure.hits == 1
    assert [r.status for r in discord_test.recorder.requests_to(FOLLOW_UP)] == [500, 200]
    [board] = record.files
    assert board.image().format == "PNG"
    assert len(discord_test.messages("general")) == 1


async def test_bad_gateway_on_message_is_retried(discord_test: DiscordTest, quick_backoff: float) -> None:
    failure = discord_test.faults.fail(CREATE_MESSAGE, status=502, times=2)
    await discord_test.slash("probe", "announce", user="ann", text="after 502s")
    assert failure.hits == 2
    assert [m.content for m in discord_test.messages("general")] == ["Announcement: after 502s"]


async def test_persistent_server_error_is_reported(discord_test: DiscordTest, quick_backoff: float) -> None:
    failure = discord_test.faults.fail(FOLLOW_UP, status=500, times=None)
    record = await discord_test.slash("probe", "picture", user="bob")
    assert failure.hits == 5  # discord.py gives up after five tries
    assert record.files == []
    assert record.content == "Upload failed (500); try again."


async def test_deferring_meets_the_deadline_despite_a_slow_post(discord_test: DiscordTest) -> None:
    slow = discord_test.faults.delay(CREATE_MESSAGE, seconds=3.2)
    record = await discord_test.slash("probe", "announce", user="ann", text="slow news")
    assert slow.hits == 1
    assert record.in_time and record.deferred
    assert [m.content for m in discord_test.messages("general")] == ["Announcement: slow news"]
    [post] = discord_test.recorder.requests_to(CREATE_MESSAGE)
    assert post.duration >= 3.2


async def test_posting_before_acknowledging_misses_the_deadline(discord_test: DiscordTest) -> None:
    slow = discord_test.faults.delay(CREATE_MESSAGE, seconds=3.2)
    record = await discord_test.slash("probe", "announce-eager", user="ann", text="slow news")
    assert slow.hits == 1
    assert not record.in_time
    assert record.first_response_after is not None and record.first_response_after > 3.0
    assert record.responses == []  # Discord refused the late response (10062 Unknown interaction)
    assert [type(e).__name__ for e in discord_test.bot.errors] == ["CommandInvokeError"]


async def test_a_switch_on_an_unknown_route_is_refused(discord_test: DiscordTest) -> None:
    with pytest.raises(ValueError, match="no route"):
        discord_test.faults.fail("POST /channels/{id}/messages")
    edit_original = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
    assert edit_original in discord_test.faults.known_routes
