"""The real bot (``bot.main``) in a child process on the fake Discord: play, SIGKILL it, restart it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.fakediscord.api import DiscordTest
from tests.fakediscord.server import FakeDiscord
from tests.support.bot_process import BotProcess, running_bot


@pytest.fixture
async def bot_process(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """Runs ``python -m tests.support.bot_process -- --sync`` on the fake and always kills it afterwards."""
    async with running_bot(fake_discord, tmp_path, env={"TABLEHOST_THREADS": "0"}) as process:
        yield process


async def first_to_act(dt: DiscordTest, *players: str) -> tuple[str, str]:
    """Returns a player with a legal move and that move (from /game play's suggestions)."""
    for player in players:
        moves = [m for m in await dt.autocomplete("game", "play", focused="move", user=player, move="")
                 if m != "resign"]
        if moves:
            return player, moves[0]
    raise AssertionError(f"none of {players} has a legal move")


async def test_the_bot_process_plays_survives_sigkill_and_shows_the_game(bot_process: BotProcess) -> None:
    dt = bot_process.test
    assert dt.fake.find_command("game", guild_id=None)["name"] == "game"  # synced by --sync

    await dt.slash("game", "new", user="ann", game="nxs")
    assert dt.messages("general"), "no lobby post after /game new"
    await dt.slash("game", "join", user="bob")
    before_start = len(dt.messages("general"))
    await dt.slash("game", "start", user="ann")
    assert any(m.files for m in dt.messages("general")[before_start:]), "no board after /game start"

    player, move = await first_to_act(dt, "ann", "bob")
    before_move = len(dt.messages("general"))
    played = await dt.slash("game", "play", user=player, move=move)
    assert played.ephemeral and played.content == f"Played `{move}`.", played.content
    assert len(dt.messages("general")) == before_move  # the turn goes on: its live board is edited
    [board] = dt.messages("general")[-1].files
    assert board.filename.endswith("-1.png")

    first_pid = bot_process.pid
    assert await bot_process.kill() == -9
    await bot_process.wait_disconnected()
    syncs = len(dt.recorder.requests_to("PUT /applications/{application_id}/commands"))
    await bot_process.start(bot_args=[])  # no --sync: the fake kept the commands
    assert bot_process.pid != first_pid and bot_process.starts == 2
    assert dt.fake.gateway.identifies == 2
    assert len(dt.recorder.requests_to("PUT /applications/{application_id}/commands")) == syncs

    before_board = len(dt.messages("general"))
    board = await dt.slash("game", "board", user="cy")
    assert board.ephemeral and board.content == "Posted.", board.content
    [post] = dt.messages("general")[before_board:]
    [picture] = post.files
    assert picture.image().format == "PNG"
    assert "To act:" in post.content, post.content
    log = await dt.slash("game", "log", user="cy")
    assert move in log.content, log.content
    assert bot_process.errors() == [], bot_process.stderr


async def test_sigterm_closes_the_store_and_a_killed_bot_leaves_held_posts_unmade(
    bot_process: BotProcess,
) -> None:
    dt = bot_process.test
    await dt.slash("game", "new", user="ann", game="nxs")
    await dt.slash("game", "join", user="bob")
    dt.faults.hold(where="channel")
    starting = asyncio.create_task(dt.slash("game", "start", user="ann"))
    held = await dt.faults.held(timeout=5)
    posts = len(dt.messages("general"))
    await bot_process.kill()
    assert await held.finished(timeout=5) == "abandoned"
    assert len(dt.messages("general")) == posts  # the held post was never made
    starting.cancel()
    with pytest.raises((asyncio.CancelledError, TimeoutError)):
        await starting

    await bot_process.restart()
    assert await bot_process.terminate() == 0
    assert "store closed; goodbye" in bot_process.run_stderr(-1)
    assert "store closed; goodbye" not in bot_process.run_stderr(0)  # SIGKILL: no clean-up at all
    assert bot_process.runs == [-9, 0]


async def _start_nxs(dt: DiscordTest) -> tuple[str, str]:
    """Starts NXS and plays the first move step; returns the rotation that ends the turn (a new board)."""
    await dt.slash("game", "new", user="ann", game="nxs")
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    player, move = await first_to_act(dt, "ann", "bob")
    await dt.slash("game", "play", user=player, move=move)
    return await first_to_act(dt, player)


@pytest.mark.parametrize("created", [False, True], ids=["before-the-post", "after-the-post-before-its-reply"])
async def test_a_move_committed_then_sigkilled_is_announced_exactly_once_after_the_restart(
    bot_process: BotProcess, created: bool
) -> None:
    dt = bot_process.test
    player, move = await _start_nxs(dt)
    before = len(dt.messages("general"))
    dt.faults.hold(where="channel", after_create=created)
    playing = asyncio.create_task(dt.slash("game", "play", user=player, move=move))
    held = await dt.faults.held(timeout=10)  # the move is committed: its announcement is on its way
    await bot_process.kill()
    await held.finished(timeout=5)
    playing.cancel()
    with pytest.raises((asyncio.CancelledError, TimeoutError)):
        await playing
    assert len(dt.messages("general")) == before + (1 if created else 0)

    await bot_process.start(bot_args=[])
    for _ in range(100):  # the restarted bot delivers what is pending on start
        told = [m for m in dt.messages("general")[before:] if m.files]
        if told and (created or "was saved" in told[0].content):
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)
    told = [m for m in dt.messages("general")[before:] if m.files]
    assert len(told) == 1, [m.content for m in dt.messages("general")[before:]]
    assert len(dt.messages("general")) == before + 1
    if not created:  # the player never got "Played …": the post tells them
        assert f"your move `{move}` was saved" in told[0].content
        assert dt.user(player).id in told[0].pinged
    log = await dt.slash("game", "log", user="cy")
    assert move in log.content
    assert bot_process.errors() == [], bot_process.stderr


async def test_sigterm_while_busy_answers_every_interaction_in_flight(bot_process: BotProcess) -> None:
    from cogs.client import RESTARTING
    from tests.fakediscord.faults import CREATE_MESSAGE

    dt = bot_process.test
    player, move = await _start_nxs(dt)  # the rotation that ends the turn: a new board, so a message create
    dt.faults.delay(CREATE_MESSAGE, seconds=1.5, times=None)  # Discord slow: the move's board is on its way
    playing = asyncio.create_task(dt.slash("game", "play", user=player, move=move, wait_quiet=False))
    await asyncio.sleep(0.5)
    assert not playing.done()
    stopping = asyncio.create_task(bot_process.terminate(timeout=30))
    await asyncio.sleep(0.2)
    other = "bob" if player == "ann" else "ann"
    late = await dt.slash("game", "board", user=other, wait_quiet=False)  # arrives while the bot stops
    answered = await playing
    assert answered.content == f"Played `{move}`.", answered.content
    assert late.content == RESTARTING
    assert await stopping == 0
    assert "store closed; goodbye" in bot_process.run_stderr(-1)
    assert any(m.files for m in dt.messages("general")[-2:])  # and its board went out before the exit
