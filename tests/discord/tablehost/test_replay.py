"""The replay on Discord: posted in the channel as a GIF, with progress for a long game, and once at a game's end.

The command is driven through a test-only cog (``/replaytest replay``) that calls
:func:`cogs.replay.replay` exactly as ``/table replay`` does.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

import cogs.replay as replay_cog
from cogs.client import COGS, Tablehost
from cogs.replay import nonce_of, post_replay, start_post
from host.tables import Tables
from render.replay import TooLarge, animation
from tests.discord.tablehost.helpers import open_tally
from tests.fakediscord.api import DiscordTest


class ReplayProbe(commands.GroupCog, group_name="replaytest", group_description="Replays, for the tests"):
    """Calls the replay command as ``/table replay`` does."""

    def __init__(self, bot: Tablehost) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="replay", description="An animated replay of a game")
    async def replay(self, interaction: discord.Interaction[Tablehost], game: int | None = None) -> None:
        await replay_cog.replay(interaction, game)


async def setup(bot: Tablehost) -> None:
    """Loads the probe cog (this module is the bot's extension in these tests)."""
    await bot.add_cog(ReplayProbe(bot))


@pytest.fixture(name="bot_factory")
def replay_bot_factory(tables: Tables) -> Callable[[], Tablehost]:
    return lambda: Tablehost(tables=tables, threads_by_default=False, edit_every=0.0, extensions=(*COGS, __name__))


@pytest.fixture(autouse=True)
def fresh_guard() -> None:
    replay_cog._posted.clear()


def gifs(dt: DiscordTest) -> list[Any]:
    return [m for m in dt.messages("general") if any(f.filename.endswith(".gif") for f in m.files)]


def frames_in(message: Any) -> int:
    [file] = message.files
    im = Image.open(io.BytesIO(file.data))
    assert im.format == "GIF"
    return int(getattr(im, "n_frames", 1))


async def play(dt: DiscordTest, *moves: tuple[str, str]) -> None:
    for user, move in moves:
        record = await dt.slash("game", "play", user=user, move=move)
        assert record.content == f"Played `{move}`.", record.content


async def test_replay_posts_the_gif_in_the_channel_one_frame_per_turn(discord_test: DiscordTest) -> None:
    dt = discord_test
    await open_tally(dt, "ann", "bob")
    await play(dt, ("ann", "add 2"), ("bob", "add 3"), ("ann", "add 1"))
    record = await dt.slash("replaytest", "replay", user="cy")  # anyone may ask: it shows public views only
    assert record.ephemeral and record.in_time and record.content == "Posted."
    [post] = gifs(dt)
    assert frames_in(post) == 4  # the start and three turns
    assert post.content == "Replay of Tally game 1 (Ann, Bob): 3 turns, 3 moves, so far."
    assert post.pinged == [] and post.files[0].filename == "tally-1-replay.gif"


async def test_a_long_game_shows_progress_then_becomes_the_replay(discord_test: DiscordTest,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    dt = discord_test
    monkeypatch.setattr(replay_cog, "PROGRESS_FROM", 2)
    monkeypatch.setattr(replay_cog, "PROGRESS_EVERY", 0.05)

    def slow(game: str, frames: Any, **kw: Any) -> Any:  # drawing that takes long enough to be seen
        progress = kw.pop("progress")

        def each(done: int, total: int) -> None:
            progress(done, total)
            time.sleep(0.15)

        return animation(game, frames, progress=each, **kw)

    monkeypatch.setattr(replay_cog, "animation", slow)
    await open_tally(dt, "ann", "bob")
    await play(dt, ("ann", "add 1"), ("bob", "add 1"), ("ann", "add 1"), ("bob", "add 1"))
    await dt.slash("replaytest", "replay", user="ann")
    [post] = gifs(dt)
    contents = [str(b.get("content")) for b in post.bodies if "content" in b]
    assert contents[0] == "Drawing the replay… 0/5 frames"
    assert any(c.startswith("Drawing the replay… ") and c != contents[0] for c in contents[1:-1])
    assert contents[-1] == "Replay of Tally game 1 (Ann, Bob): 4 turns, 4 moves, so far."
    assert post.content == contents[-1] and frames_in(post) == 5 and post.edits >= 2


async def test_replay_of_a_game_id_takes_this_channels_games_only(discord_test: DiscordTest) -> None:
    dt = discord_test
    before = len(dt.messages("general"))
    record = await dt.slash("replaytest", "replay", user="ann")
    assert record.ephemeral and record.content == "There is no game in this channel yet."
    await open_tally(dt, "ann", "bob")
    record = await dt.slash("replaytest", "replay", user="ann", game=99)
    assert record.content == "There is no game 99 in this channel (`/table history` lists them)."
    record = await dt.slash("replaytest", "replay", user="ann", channel="table-1", game=1)
    assert record.content == "There is no game 1 in this channel (`/table history` lists them)."
    record = await dt.slash("replaytest", "replay", user="ann", game=1)
    assert record.content == "Posted." and len(gifs(dt)) == 1
    assert len(dt.messages("general")) > before


async def test_replay_of_a_lobby_has_nothing_to_show(discord_test: DiscordTest) -> None:
    dt = discord_test
    await dt.slash("game", "new", user="ann", game="tally")
    record = await dt.slash("replaytest", "replay", user="ann")
    assert record.content == "The game has not started: there is nothing to replay yet."
    assert gifs(dt) == []


async def test_the_end_of_game_post_is_made_once(discord_test: DiscordTest) -> None:
    dt = discord_test
    await open_tally(dt, "ann", "bob", options="target=5")
    await play(dt, ("ann", "add 3"), ("bob", "add 2"))
    bot = dt.bot
    assert isinstance(bot, Tablehost)
    channel = bot.get_channel(dt.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    await dt.wait_until(lambda: gifs(dt))  # the delivery of the winning move started the post, and did not wait
    (message,) = gifs(dt)
    assert message.content == "Replay of Tally game 1 (Ann, Bob): 2 turns, 2 moves, won by Bob."
    task = start_post(bot, 1, channel)  # asked again (a retried delivery): posted already
    assert await task is None and len(gifs(dt)) == 1
    replay_cog._posted.clear()  # as after a restart: Discord's nonce gives the first message back
    again = await post_replay(bot, 1, channel)
    assert again is not None and again.id == message.id
    [post] = gifs(dt)
    assert frames_in(post) == 3 and post.payload.get("nonce") == nonce_of(1)
    assert dt.fake.recorder.nonce_replays


class BrokenChannel:
    guild = None

    async def send(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")


async def test_the_end_of_game_post_never_raises(discord_test: DiscordTest, caplog: pytest.LogCaptureFixture) -> None:
    dt = discord_test
    await open_tally(dt, "ann", "bob", options="target=3")
    await play(dt, ("ann", "add 3"))
    bot = dt.bot
    assert isinstance(bot, Tablehost)
    await dt.wait_until(lambda: gifs(dt))
    replay_cog._posted.clear()  # as after a restart
    assert await post_replay(bot, 1, BrokenChannel()) is None  # type: ignore[arg-type]
    assert "replay of game 1 could not be posted" in caplog.text
    assert await post_replay(bot, 42, BrokenChannel()) is None  # type: ignore[arg-type]  # no such game


async def test_a_failed_drawing_says_so_in_place_of_the_progress(discord_test: DiscordTest,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    dt = discord_test
    monkeypatch.setattr(replay_cog, "PROGRESS_FROM", 1)

    def too_large(game: str, frames: Any, **kw: Any) -> Any:
        raise TooLarge("no room")

    monkeypatch.setattr(replay_cog, "animation", too_large)
    await open_tally(dt, "ann", "bob")
    await play(dt, ("ann", "add 1"), ("bob", "add 1"))
    record = await dt.slash("replaytest", "replay", user="ann")
    assert record.ephemeral and record.content == "This game's replay is too large to post here."
    assert dt.messages("general")[-1].content == replay_cog.FAILED and gifs(dt) == []
