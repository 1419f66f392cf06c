"""Threads a channel can find: a command typed in the channel a game's thread was opened from points there.

The repro of issue 23: Ann opens XISK in #general, so the game goes to a thread; Dave, in #general,
used to be told there is no table and opened a second one. Now #general links the thread, and a
second ``new`` of the same game is pointed to the waiting lobby unless it asks for ``another:true``.
"""

from __future__ import annotations

import pytest

from host.store import Status
from host.tables import Tables
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.payloads import FakeChannel

WAITING = ("A XISK table is waiting for players in <#{}>: join it there (`/game join`), or run"
           " `/xisk new another:true` to open a second one.")


@pytest.fixture
async def dave(discord_test: DiscordTest) -> str:
    """Adds Dave, the player of the repro, to the server."""
    discord_test.fake.add_user("dave")
    return "dave"


async def xisk_in_a_thread(dt: DiscordTest, user: str = "ann", **options: object) -> FakeChannel:
    """Runs ``/xisk new`` in #general (the game goes to a thread of its own) and returns the thread."""
    record = await dt.slash("xisk", "new", user=user, thread=True, **options)
    assert record.content.startswith("Done."), record.content
    thread = dt.fake.guild.threads[-1]
    assert thread.parent_id == dt.channel("general").id
    return thread


async def seated(tables: Tables, thread: FakeChannel) -> list[str]:
    """Returns the seat names of the thread's game."""
    row = await tables.store.active_game(str(thread.id), snapshot=False)
    assert row is not None
    return [s.name for s in await tables.store.seats(row.id)]


async def test_join_in_parent_channel_links_the_thread(discord_test: DiscordTest, dave: str, tables: Tables) -> None:
    dt = discord_test
    thread = await xisk_in_a_thread(dt)
    in_thread = len(dt.messages(thread))
    record = await dt.slash("game", "join", user=dave, channel="general")
    assert record.ephemeral
    assert record.content == (f"This channel's games are played in threads: XISK table (lobby, 1 seated) in"
                              f" <#{thread.id}>. Run the command there.")
    assert await seated(tables, thread) == ["Ann"]  # pointed there, not seated from the parent
    assert len(dt.messages(thread)) == in_thread and len(dt.messages("general")) == 1  # nothing posted


async def test_board_status_and_moves_in_parent_channel_link_the_thread(
    discord_test: DiscordTest, dave: str
) -> None:
    dt = discord_test
    thread = await xisk_in_a_thread(dt)
    lobby = f"XISK table (lobby, 1 seated) in <#{thread.id}>"
    for command in (("game", "board"), ("game", "status"), ("game", "leave"), ("game", "start")):
        record = await dt.slash(*command, user=dave, channel="general")
        assert record.ephemeral and lobby in record.content, command
    await dt.slash("game", "join", user="bob", channel=thread)
    await dt.slash("game", "start", user="ann", channel=thread)
    running = f"This channel's games are played in threads: XISK game (running, 2 players) in <#{thread.id}>."
    for command, options in ((("game", "board"), {}), (("game", "status"), {}), (("game", "play"), {"move": "end"}),
                             (("xisk", "end"), {}), (("game", "log"), {})):
        record = await dt.slash(*command, user="ann", channel="general", **options)
        assert record.ephemeral and record.content.startswith(running), command
    assert len(dt.messages("general")) == 1  # the thread's starter line only: no board posted in the parent


async def test_new_points_to_waiting_lobby_thread(discord_test: DiscordTest, dave: str, tables: Tables) -> None:
    dt = discord_test
    thread = await xisk_in_a_thread(dt)
    record = await dt.slash("xisk", "new", user=dave, thread=True)
    assert record.ephemeral and record.content == WAITING.format(thread.id)
    assert dt.fake.guild.threads == [thread] and len(dt.messages("general")) == 1  # no second thread, no line
    assert len(await tables.store.games_in_threads_of(str(dt.channel("general").id))) == 1
    same = await dt.slash("game", "new", user=dave, game="xisk")  # /game new holds back alike
    assert same.content == WAITING.format(thread.id) and dt.fake.guild.threads == [thread]


async def test_new_points_the_creator_to_their_own_waiting_table(discord_test: DiscordTest) -> None:
    thread = await xisk_in_a_thread(discord_test)
    record = await discord_test.slash("xisk", "new", user="ann", thread=True)
    assert record.content == (f"Your XISK table is waiting for players in <#{thread.id}>: start it there"
                              " (`/game start`) once they have joined, or run `/xisk new another:true` to open a"
                              " second one.")
    assert discord_test.fake.guild.threads == [thread]


async def test_new_another_opens_second_table(discord_test: DiscordTest, dave: str, tables: Tables) -> None:
    dt = discord_test
    first = await xisk_in_a_thread(dt)
    second = await xisk_in_a_thread(dt, dave, another=True)
    assert second.id != first.id and dt.fake.guild.threads == [first, second]
    assert await seated(tables, second) == ["Dave"]
    record = await dt.slash("game", "join", user="bob", channel="general")  # both linked, the newest first
    assert record.content == (f"This channel's games are played in threads: XISK table (lobby, 1 seated) in"
                              f" <#{second.id}>, XISK table (lobby, 1 seated) in <#{first.id}>. Run the command"
                              " there.")


async def test_new_of_another_game_or_beside_a_running_one_opens_a_table(discord_test: DiscordTest) -> None:
    dt = discord_test
    xisk = await xisk_in_a_thread(dt)
    nxs = await dt.slash("nxs", "new", user="bob", thread=True)  # only a lobby of the same game holds back
    assert nxs.content.startswith("Done.") and len(dt.fake.guild.threads) == 2
    await dt.slash("game", "join", user="bob", channel=xisk)
    await dt.slash("game", "start", user="ann", channel=xisk)
    again = await xisk_in_a_thread(dt, "cy")  # the first XISK runs: a new table does not wait for it
    assert again.id != xisk.id and len(dt.fake.guild.threads) == 3


async def test_a_command_in_the_thread_itself_is_not_sent_elsewhere(discord_test: DiscordTest, dave: str) -> None:
    dt = discord_test
    thread = await xisk_in_a_thread(dt)
    record = await dt.slash("game", "join", user=dave, channel=thread)
    assert record.content.startswith("Done.") and "Dave joins (2/6)." in dt.messages(thread)[-1].content


async def test_a_finished_or_aborted_games_thread_is_not_linked(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await dt.slash("game", "new", user="ann", game="tally", options="target=1", thread=True)
    finished = dt.fake.guild.threads[-1]
    await dt.slash("game", "join", user="bob", channel=finished)
    await dt.slash("game", "start", user="ann", channel=finished)
    await dt.slash("game", "play", user="ann", move="add 1", channel=finished)
    row = await tables.store.latest_game(str(finished.id), snapshot=False)
    assert row is not None and row.status is Status.FINISHED
    aborted = await xisk_in_a_thread(dt, "cy")
    await dt.slash("game", "leave", user="cy", channel=aborted)  # the last seat leaves: the lobby closes
    joined = await dt.slash("game", "join", user="bob", channel="general")
    assert joined.content.startswith("There is no table in this channel: open one with")
    board = await dt.slash("game", "board", user="bob", channel="general")
    assert board.content == "There is no game in this channel yet."
    again = await dt.slash("xisk", "new", user="bob", thread=True)  # a closed lobby holds nothing back
    assert again.content.startswith("Done.") and len(dt.fake.guild.threads) == 3


async def test_status_of_a_channel_whose_own_game_ended_also_links_its_threads(discord_test: DiscordTest) -> None:
    dt = discord_test
    await dt.slash("game", "new", user="ann", game="tally", options="target=1")  # in #general itself, as of old
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    await dt.slash("game", "play", user="ann", move="add 1")
    thread = await xisk_in_a_thread(dt, "cy")
    record = await dt.slash("game", "status", user="bob", channel="general")
    assert record.content.startswith("**Tally** (finished)")
    assert record.content.endswith(f"threads: XISK table (lobby, 1 seated) in <#{thread.id}>. Run the command there.")


async def test_up_to_five_threads_are_linked(discord_test: DiscordTest) -> None:
    dt = discord_test
    for _ in range(6):
        await dt.slash("game", "new", user="ann", game="tally", thread=True, another=True)
    threads = dt.fake.guild.threads
    assert len(threads) == 6
    record = await dt.slash("game", "status", user="bob", channel="general")
    assert record.content.count("<#") == 5
    assert f"<#{threads[-1].id}>" in record.content and f"<#{threads[0].id}>" not in record.content
