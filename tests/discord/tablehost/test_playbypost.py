"""Playing by post on Discord: reminders (channel and DM), timeouts, /game status, clock, pause by vote."""

from __future__ import annotations

from cogs.client import Tablehost
from engines.xisk.game import Xisk
from host.tables import Tables
from tests.discord.tablehost.helpers import open_tally, said
from tests.fakediscord.api import DiscordTest
from tests.support.clock import Clock

START = 1_800_000_000.0


def bot_of(dt: DiscordTest) -> Tablehost:
    assert isinstance(dt.bot, Tablehost)
    return dt.bot


async def test_a_reminder_pings_in_the_channel_and_dms_a_link_once_per_window(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    clock = Clock(START)
    tables.clock = clock
    await open_tally(dt, "ann", "bob")
    ann = dt.user("ann").id
    before = len(dt.messages("general"))
    clock.at(12)
    await bot_of(dt).timekeeper.tick()
    posted = dt.messages("general")[before:]
    assert len(posted) == 1 and ann in posted[0].pinged
    assert "⏰ Reminder: it is Ann's move. 2 d 12 h left, then the clock skips the turn." in posted[0].content
    reminder = dt.dms("ann")[-1]
    assert "It's your move in Tally: 2 d 12 h left" in reminder.content
    assert "https://discord.com/channels/" in reminder.content and "The board:" in reminder.content
    dms = len(dt.dms("ann"))
    clock.at(20)
    await bot_of(dt).timekeeper.tick()
    assert len(dt.messages("general")) == before + 1 and len(dt.dms("ann")) == dms  # the same window


async def test_a_timeout_plays_the_skip_on_the_board_and_pings_the_next_player(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    clock = Clock(START)
    tables.clock = clock
    await open_tally(dt, "ann", "bob")
    clock.at(72)
    assert len(await bot_of(dt).timekeeper.tick()) == 1
    board = [m for m in dt.messages("general") if m.embeds][-1]
    assert "Ann's time ran out (3 d without a move): Ann has the turn skipped by the clock (add 1)." in said(board)
    assert dt.user("bob").id in board.pinged
    assert await bot_of(dt).timekeeper.tick() == []
    status = await dt.slash("game", "status", user="cy")
    assert "To act: Bob since <t:" in status.content and "This turn times out <t:" in status.content


async def test_reminder_dms_can_be_turned_off_and_the_ping_stays(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    clock = Clock(START)
    tables.clock = clock
    answer = await dt.slash("table", "notify", user="ann", reminders=False)
    assert "No more reminder DMs" in answer.content
    await open_tally(dt, "ann", "bob")
    dms = len(dt.dms("ann"))
    clock.at(12)
    await bot_of(dt).timekeeper.tick()
    assert len(dt.dms("ann")) == dms and dt.user("ann").id in dt.messages("general")[-1].pinged


async def test_the_creator_sets_the_clock_and_bad_values_are_refused(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    tables.clock = Clock(START)
    await open_tally(dt, "ann", "bob")
    refused = await dt.slash("table", "clock", user="ann", with_options={"timeout": "soon"})
    assert "timeout: I can't read 'soon'" in refused.content
    bob = await dt.slash("table", "clock", user="bob", with_options={"timeout": "1d"})
    assert "Only the game's creator" in bob.content
    await dt.slash("table", "clock", user="ann", remind_after="1h", on_timeout="forfeit",
                   with_options={"timeout": "6h"})
    assert "Ann set the clock: reminders after 1 h, timeout after 6 h (forfeit)." in dt.messages("general")[-1].content
    shown = await dt.slash("table", "clock", user="bob")
    assert shown.content.startswith("Clock: reminders after 1 h, timeout after 6 h (forfeit).")


async def test_a_player_asks_to_pause_and_the_creator_agrees_with_the_button(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    clock = Clock(START)
    tables.clock = clock
    await open_tally(dt, "ann", "bob")
    asked = await dt.slash("table", "pause", user="bob")
    assert "Noted: 1 of 2 players agree." in asked.content
    question = dt.messages("general")[-1]
    assert "Bob asks to pause the clock (1 of 2 players agree)" in question.content
    await dt.click(question, "Agree to pause", user="cy")
    assert "Only the game's creator or its players" in dt.ephemerals("cy")[-1].content
    await dt.click(question, "Agree to pause", user="ann")
    assert "Ann paused the clock: no reminders and no timeouts" in dt.messages("general")[-1].content
    clock.at(500)
    assert await bot_of(dt).timekeeper.tick() == []
    assert "Paused since <t:" in (await dt.slash("game", "status", user="bob")).content
    await dt.slash("table", "resume", user="ann")
    assert "resumed the clock" in dt.messages("general")[-1].content
    clock.at(500 + 12)
    assert [o.notice for o in await bot_of(dt).timekeeper.tick()] == ["reminder"]


async def open_in(dt: DiscordTest, channel: object, *players: str, clock: str | None = None) -> None:
    """Opens and starts a Tally table in ``channel`` (a FakeChannel of any server)."""
    extra = {"with_options": {"timeout": clock}} if clock else {}
    await dt.slash("game", "new", user=players[0], game="tally", channel=channel, **extra)
    for p in players[1:]:
        await dt.slash("game", "join", user=p, channel=channel)
    await dt.slash("game", "start", user=players[0], channel=channel)


async def test_game_mine_lists_every_game_in_two_servers_waiting_ones_first_also_in_dms(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    clock = Clock(START)
    tables.clock = clock
    second = await dt.fake.join_guild("Second", channels=["lounge", "den"])
    lounge, den = dt.channel("lounge", guild=second), dt.channel("den", guild=second)
    await open_in(dt, dt.channel("general"), "ann", "bob")  # Ann to act, 3 days
    clock.at(1)
    await open_in(dt, lounge, "bob", "ann")  # Bob to act
    await open_in(dt, den, "ann", "cy", clock="5h")  # Ann to act, 5 hours: the most urgent
    listing = await dt.slash("game", "mine", user="ann", channel=dt.dm_channel("ann"))
    lines = listing.content.splitlines()
    assert lines[0] == "**Your games** (3; 2 waiting for you):"
    assert lines[1].startswith("**Tally**: your move, times out <t:") and f"/{second.id}/{den.id}/" in lines[1]
    assert lines[2].startswith("**Tally**: your move") and f"/{dt.channel('general').id}/" in lines[2]
    assert lines[3].startswith("**Tally**: waiting for Bob.") and f"/{second.id}/{lounge.id}/" in lines[3]
    bobs = await dt.slash("game", "mine", user="bob", channel=lounge)
    assert bobs.content.splitlines()[1].startswith("**Tally**: your move") and "(2; 1 waiting for you)" in bobs.content
    nothing = await dt.slash("game", "status", user="ann", channel=dt.dm_channel("ann"))
    assert "works in a server channel" in nothing.content
    refused = await dt.slash("game", "new", user="ann", game="tally", channel=dt.dm_channel("ann"))
    assert "works in a server channel" in refused.content


async def test_the_bot_s_own_timekeeper_wakes_for_a_deadline(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    clock = Clock(START)
    tables.clock = clock
    await open_tally(dt, "ann", "bob")
    before = len(dt.messages("general"))
    clock.at(12)
    bot_of(dt).timekeeper.kick()  # a clock changed: the running loop looks again, no test tick
    await dt.wait_until(lambda: len(dt.messages("general")) > before)
    assert "⏰ Reminder: it is Ann's move." in dt.messages("general")[-1].content
    assert await bot_of(dt).timekeeper.tick() == []  # handled once, by the loop


async def test_the_clock_says_in_the_game_s_own_words_what_a_timeout_plays(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await dt.slash("xisk", "new", user="ann")
    shown = await dt.slash("table", "clock", user="bob")
    assert shown.content.endswith(f" At a timeout: {Xisk.TIMEOUT_DOCS['skip']}"), shown.content
    await dt.slash("table", "clock", user="ann", on_timeout="forfeit")
    shown = await dt.slash("table", "clock", user="bob")
    assert shown.content.endswith(f" At a timeout: {Xisk.TIMEOUT_DOCS['forfeit']}"), shown.content


async def test_a_game_lost_on_time_at_the_start_is_told_it_is_not_rated(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    clock = Clock(START)
    tables.clock = clock
    await dt.slash("nxs", "new", user="ann", layout="short", on_timeout="forfeit")
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    clock.at(72)  # Ann never moves: the clock resigns for her, before Bob has played either
    assert len(await bot_of(dt).timekeeper.tick()) == 1
    await dt.wait_until(lambda: "not rated" in dt.messages("general")[-1].content)
    note = dt.messages("general")[-1]
    assert note.content == "This game is not rated: a forfeit at the start (Ann, Bob had not made a move)."
    assert not note.pinged
    assert not await bot_of(dt).ratings.record((await tables.store.latest_game(
        str(dt.channel("general").id), snapshot=False)).id)  # settled once: never told twice


async def test_a_game_won_after_everyone_moved_says_nothing_of_ratings(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await dt.slash("nxs", "new", user="ann", layout="short")
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    channel = str(dt.channel("general").id)
    for _ in range(4):  # Ann's move and rotation, then Bob's
        table = await tables.table(channel)
        actor = table.game.to_act()[0]
        move = next(m for m in table.game.legal_moves(actor) if m != "resign")
        await dt.slash("game", "play", user=actor.lower(), move=move)
    await dt.slash("game", "play", user="ann", move="resign")
    await dt.click(dt.ephemerals("ann")[-1], "Yes, play it", user="ann")
    await dt.wait_until(lambda: dt.ephemerals("ann")[-1].content.startswith("Played"))
    table = await tables.table(channel)
    assert table.game.is_over and table.game.winners == ["Bob"]
    assert not await bot_of(dt).ratings.record(table.row.id)  # counted already, when the game ended
    assert not any("not rated" in m.content for m in dt.messages("general"))
