"""The hold fault: message creates wait until the test completes, fails or drops them."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from tests.fakediscord.api import DiscordTest

CREATE_MESSAGE = "POST /channels/{channel_id}/messages"


def text_channel(dt: DiscordTest, name: str = "general") -> discord.TextChannel:
    """Returns the probe bot's own object for a guild text channel."""
    assert dt.bot is not None
    channel = dt.bot.get_channel(dt.channel(name).id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_a_held_message_is_created_only_when_completed(discord_test: DiscordTest) -> None:
    hold = discord_test.faults.hold(where="channel")
    sending = asyncio.create_task(text_channel(discord_test).send("Your turn, ann"))
    held = await discord_test.faults.held(timeout=2)
    assert held.content == "Your turn, ann" and held.via == "channel" and not held.done
    assert discord_test.faults.holding() == [held]
    await asyncio.sleep(0.1)
    assert discord_test.messages("general") == [] and not sending.done()
    await discord_test.quiet()  # a held request does not count as in flight
    held.complete()
    sent = await asyncio.wait_for(sending, 2)
    assert await held.finished() == "created"
    assert held.message is not None and sent.id == held.message.id
    assert [m.id for m in discord_test.messages("general")] == [sent.id]
    assert hold.hits == 1 and hold.requests == [held] and hold.spent


async def test_a_held_message_failed_with_500_is_retried_and_arrives_once(
    discord_test: DiscordTest, quick_backoff: float,
) -> None:
    discord_test.faults.hold()
    sending = asyncio.create_task(text_channel(discord_test).send("retry me"))
    held = await discord_test.faults.held(timeout=2)
    held.fail(500)
    sent = await asyncio.wait_for(sending, 5)
    assert await held.finished() == "error" and held.message is None
    assert [r.status for r in discord_test.recorder.requests_to(CREATE_MESSAGE)] == [500, 200]
    assert [m.id for m in discord_test.messages("general")] == [sent.id]


async def test_a_held_message_dropped_by_closing_the_connection_makes_nothing(discord_test: DiscordTest) -> None:
    discord_test.faults.hold()
    sending = asyncio.create_task(text_channel(discord_test).send("lost"))
    held = await discord_test.faults.held(timeout=2)
    held.disconnect()
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await asyncio.wait_for(sending, 5)
    assert await held.finished() == "closed"
    assert discord_test.messages("general") == []


async def test_a_client_that_goes_away_leaves_its_held_request_abandoned(discord_test: DiscordTest) -> None:
    discord_test.faults.hold()
    sending = asyncio.create_task(text_channel(discord_test).send("never"))
    held = await discord_test.faults.held(timeout=2)
    await discord_test.stop_bot()  # the bot's connections close, as when its process dies
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await asyncio.wait_for(sending, 2)
    assert await held.finished(timeout=2) == "abandoned"
    held_late = discord_test.faults.holding()
    assert held_late == [] and discord_test.messages("general") == []


async def test_holds_match_dms_channels_and_text(discord_test: DiscordTest) -> None:
    assert discord_test.bot is not None
    faults = discord_test.faults
    dm_hold = faults.hold(where="dm", times=None)
    text_hold = faults.hold(where="channel", contains="secret")
    channel = text_channel(discord_test)
    await channel.send("plain news")  # neither switch holds it
    bob = await discord_test.bot.fetch_user(discord_test.user("bob").id)
    dm = asyncio.create_task(bob.send("your cards"))
    secret = asyncio.create_task(channel.send("a secret plan"))
    first, second = await faults.held(timeout=2), await faults.held(timeout=2)
    by_via = {first.via: first, second.via: second}
    assert by_via["dm"].content == "your cards" and by_via["dm"].hold is dm_hold
    assert by_via["channel"].content == "a secret plan" and by_via["channel"].hold is text_hold
    for held in (first, second):
        held.complete()
    await asyncio.wait_for(asyncio.gather(dm, secret), 2)
    assert [m.content for m in discord_test.messages("general")] == ["plain news", "a secret plan"]
    assert [m.content for m in discord_test.dms("bob")] == ["your cards"]
    with pytest.raises(TimeoutError):
        await faults.held(timeout=0.1)


async def test_hold_after_create_makes_the_message_but_keeps_the_answer(
    discord_test: DiscordTest, quick_backoff: float,
) -> None:
    discord_test.faults.hold(after_create=True)
    channel = text_channel(discord_test)
    sending = asyncio.create_task(channel.send("made, unheard"))
    held = await discord_test.faults.held(timeout=2)
    assert held.after_create and held.message is not None
    assert [m.content for m in discord_test.messages("general")] == ["made, unheard"]
    held.fail(500)  # the bot never hears of it; discord.py retries with the same (automatic) nonce
    sent = await asyncio.wait_for(sending, 5)
    assert await held.finished() == "error"
    assert held.nonce is not None and sent.id == held.message.id
    assert discord_test.recorder.nonce_replays == [held.message]
    assert [r.status for r in discord_test.recorder.requests_to(CREATE_MESSAGE)] == [500, 200]
    await channel.send("made, unheard")  # a new send() (a restarted bot) has a new nonce: a duplicate
    assert [m.content for m in discord_test.messages("general")] == ["made, unheard", "made, unheard"]


async def test_an_explicit_nonce_makes_a_second_send_harmless(discord_test: DiscordTest) -> None:
    discord_test.faults.hold(after_create=True)
    channel = text_channel(discord_test)
    sending = asyncio.create_task(channel.send("once only", nonce="turn-4"))
    held = await discord_test.faults.held(timeout=2)
    held.disconnect()  # Discord made the message; the bot's request failed
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await asyncio.wait_for(sending, 5)
    assert await held.finished() == "closed"
    again = await channel.send("once only", nonce="turn-4")  # the bot sends the same turn again
    assert held.message is not None and again.id == held.message.id
    assert [m.id for m in discord_test.messages("general")] == [again.id]


async def test_hold_after_create_completed_returns_the_message(discord_test: DiscordTest) -> None:
    discord_test.faults.hold(after_create=True)
    sending = asyncio.create_task(text_channel(discord_test).send("slow answer"))
    held = await discord_test.faults.held(timeout=2)
    held.complete()
    sent = await asyncio.wait_for(sending, 2)
    assert await held.finished() == "answered"
    assert held.message is not None and sent.id == held.message.id


async def test_clear_drops_held_requests_and_a_bad_release_is_refused(discord_test: DiscordTest) -> None:
    discord_test.faults.hold()
    sending = asyncio.create_task(text_channel(discord_test).send("cleared"))
    held = await discord_test.faults.held(timeout=2)
    with pytest.raises(ValueError):
        held.release("explode")
    discord_test.faults.clear()
    assert await held.finished() == "closed"
    with pytest.raises(RuntimeError):
        held.complete()
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await asyncio.wait_for(sending, 5)
    assert discord_test.messages("general") == [] and discord_test.faults.holds == []
    with pytest.raises(ValueError):
        discord_test.faults.hold(where="thread")
