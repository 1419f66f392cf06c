"""The replay on Discord: ``/table replay [game]`` and the replay posted when a game ends.

A replay is an animated GIF of the game, one frame per turn (:mod:`host.replay` gives the
positions, :mod:`render.replay` draws them). It is for everyone, so it is posted in the
channel, not to the caller alone: nothing secret is drawn, only spectator views, so a
running game's replay up to now is fine too. Replaying the log and drawing take seconds
of CPU for a long game: both run in a worker thread, one replay at a time per bot, so the
event loop keeps answering and live boards keep their picture workers. A replay of more
than :data:`PROGRESS_FROM` frames first posts "Drawing the replay… 40/121 frames", edited
every :data:`PROGRESS_EVERY` seconds, and that message becomes the replay.

The post counts as the board and ``/table history`` do: its turns are the game's own turn
number where it has one (:func:`host.replay.turns_of`), its moves the moves that stand
(:func:`host.undo.standing_count`: undo and takeback entries and the moves they took back do
not count).

The GIF stays under the channel's upload limit (at most 8 MB): a long game skips turns
evenly, and the post says which ("every 2nd frame shown").

:func:`post_replay` is the automatic post at a game's end; :func:`start_post` runs it as a
background task, so the delivery of the game-over announcement never waits for it or
fails with it. It posts once: a game id already posted by this process is skipped, and the
post carries the nonce ``th-replay-<game id>``, which Discord (``enforce_nonce``) turns into
the earlier message when a retry sends it again.
"""

from __future__ import annotations

import asyncio
import io
import logging
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from cogs.replies import Interaction, begin, channel_of
from cogs.surface import ALT_LIMIT, shorten, surface_of, title_of
from engines import GameError
from engines.core.words import plural
from host.replay import Frame, game_frames, turn_views, turns_of, unit_of
from host.store import GameRow, Status
from host.undo import standing_count
from render.replay import LIMIT, TooLarge, animation, ordinal

if TYPE_CHECKING:
    from cogs.client import Tablehost

log = logging.getLogger(__name__)

PROGRESS_FROM = 40
"""Frames from which the replay is announced by a progress message before it is drawn."""
PROGRESS_EVERY = 2.0
"""Seconds between two edits of the progress message."""
FAILED = "The replay could not be drawn."
"""What the progress message becomes when the drawing fails."""

_slots: weakref.WeakKeyDictionary[Any, asyncio.Semaphore] = weakref.WeakKeyDictionary()
_posted: weakref.WeakKeyDictionary[Any, set[int]] = weakref.WeakKeyDictionary()
_tasks: set[asyncio.Task[Any]] = set()


def nonce_of(game_id: int) -> str:
    """Returns the nonce of a game's automatic replay post (Discord allows 25 characters).

    >>> nonce_of(12)
    'th-replay-12'
    """
    return f"th-replay-{game_id}"[:25]


def upload_limit(channel: Any) -> int:
    """Returns the most bytes a replay may take in ``channel``: 8 MB, or the server's limit when lower."""
    guild = getattr(channel, "guild", None)
    server = getattr(guild, "filesize_limit", None)
    return min(LIMIT, server) if isinstance(server, int) and server > 0 else LIMIT


def progress_text(done: int, total: int) -> str:
    """Returns the progress message, in frames drawn (a XISK replay has more frames than turns: its claims).

    >>> progress_text(40, 121)
    'Drawing the replay… 40/121 frames'
    """
    return f"Drawing the replay… {done}/{total} frames"


def replay_text(row: GameRow, seats: list[str], frames: list[Frame], step: int, moves: int) -> str:
    """Returns the post's text: "Replay of XISK game 12 (Ann, Bob, Cy): 56 turns, 811 moves, won by Ann."."""
    title = title_of(row.game)
    turns, unit = turns_of(frames), unit_of(row.game)
    parts = [f"Replay of {title} game {row.id} ({', '.join(seats)}): {turns} {unit}{'s' if turns != 1 else ''}",
             f"{moves} move{'s' if moves != 1 else ''}"]
    if row.status is Status.FINISHED:
        parts.append("a draw" if not row.winners else "won by " + " and ".join(row.winners))
    elif row.status is Status.ABORTED:
        parts.append("aborted")
    else:
        parts.append("so far")
    text = ", ".join(parts)
    if step > 1:
        text += f" (every {ordinal(step)} frame shown, to fit Discord's upload limit)"
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text + "."))


def replay_alt(game: str, game_id: int, frames: list[Frame], step: int) -> str:
    """Returns the replay GIF's alt text: what it animates, then its last frame as the game's board alt text.

    >>> replay_alt("tally", 12, [Frame({}, 0, None, "Start"), Frame({"turn_number": 1}, 1, "ann", "Turn 1")], 2)
    'Animated replay of tally game 12: 1 turn, every 2nd frame shown. Last frame: tally board, turn 1.'
    """
    title = title_of(game)
    shown = f", every {ordinal(step)} frame shown" if step > 1 else ""
    last = surface_of(game).alt(title, frames[-1].view) if frames else ""
    text = f"Animated replay of {title} game {game_id}: {plural(turns_of(frames), 'turn')}{shown}. Last frame: {last}"
    return shorten(text, ALT_LIMIT)


@dataclass
class _Progress:
    """The frames drawn so far, written by the worker thread and read by the event loop."""

    done: int = 0
    total: int = 0
    shown: int = field(default=-1)

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total


async def _drawn(row: GameRow, limit: int, message: discord.Message | None,
                 frames: list[Frame]) -> tuple[bytes, int]:
    """Returns the GIF and its step, drawn in a worker thread; edits ``message`` with the progress meanwhile."""
    progress = _Progress(0, len(frames))
    work = asyncio.ensure_future(asyncio.to_thread(animation, row.game, frames, limit=limit, progress=progress))
    while True:
        finished, _ = await asyncio.wait({work}, timeout=PROGRESS_EVERY)
        if finished:
            result = work.result()
            return result.gif, result.step
        if message is not None and progress.done != progress.shown:
            progress.shown = progress.done
            try:
                await message.edit(content=progress_text(progress.done, progress.total))
            except discord.HTTPException as err:  # a missed progress edit is no reason to stop
                log.info("replay of game %s: progress edit failed (%s)", row.id, err)


async def _frames(bot: Tablehost, row: GameRow) -> tuple[list[str], list[Frame], int]:
    """Returns the seat names, the frames and the standing moves of a started game."""
    seats, seed, options, moves = await game_frames(bot.tables.store, row)
    frames = await asyncio.to_thread(turn_views, row.game, seats, seed, options, moves)
    return seats, frames, standing_count(move for _, move in moves)


def _slot(bot: Tablehost) -> asyncio.Semaphore:
    slot = _slots.get(bot)
    if slot is None:
        slot = _slots[bot] = asyncio.Semaphore(1)
    return slot


async def _post(bot: Tablehost, row: GameRow, channel: discord.abc.Messageable, *,
                nonce: str | None = None) -> discord.Message | None:
    """Draws the game's replay and posts it in ``channel``; returns the message (None: it was there already)."""
    async with _slot(bot):
        seats, frames, moves = await _frames(bot, row)
        limit = upload_limit(channel)
        none = discord.AllowedMentions.none()
        once: dict[str, Any] = {"nonce": nonce} if nonce else {}
        message = None
        if len(frames) > PROGRESS_FROM:
            message = await channel.send(progress_text(0, len(frames)), allowed_mentions=none, **once)
            if message.attachments:  # the nonce gave back a replay already posted
                return None
        try:
            gif, step = await _drawn(row, limit, message, frames)
        except Exception:
            if message is not None:  # the progress message must not promise a replay for ever
                await message.edit(content=FAILED)
            raise
        file = discord.File(io.BytesIO(gif), filename=f"{row.game}-{row.id}-replay.gif",
                            description=replay_alt(row.game, row.id, frames, step))
        text = replay_text(row, seats, frames, step, moves)
        if message is not None:
            return await message.edit(content=text, attachments=[file], allowed_mentions=none)
        return await channel.send(text, file=file, allowed_mentions=none, **once)


async def replay(interaction: Interaction, game_id: int | None) -> None:
    """``/table replay [game]``: posts the replay of the channel's latest game, or of its game ``game_id``."""
    await begin(interaction)
    bot = interaction.client
    store = bot.tables.store
    channel_id = str(interaction.channel_id)
    if game_id is None:
        row = await store.latest_game(channel_id, snapshot=False)
    else:
        row = await store.game(game_id, snapshot=False)
        if row is not None and row.channel_id != channel_id:
            row = None
    if row is None:
        missing = "There is no game in this channel yet." if game_id is None else (
            f"There is no game {game_id} in this channel (`/table history` lists them).")
        await interaction.followup.send(missing, ephemeral=True)
        return
    if not row.started:
        await interaction.followup.send("The game has not started: there is nothing to replay yet.", ephemeral=True)
        return
    try:
        await _post(bot, row, channel_of(interaction))
    except GameError as err:
        log.warning("replay of game %s: %s", row.id, err)
        await interaction.followup.send(f"I can't replay this game: {err}", ephemeral=True)
        return
    except TooLarge:
        await interaction.followup.send("This game's replay is too large to post here.", ephemeral=True)
        return
    await interaction.followup.send("Posted.", ephemeral=True)


async def post_replay(bot: Tablehost, game_id: int, channel: discord.abc.Messageable) -> discord.Message | None:
    """Posts a finished game's replay in ``channel`` once; never raises (errors are logged).

    Returns the message, or None when it was not posted (already posted, not started, an error).
    """
    posted = _posted.setdefault(bot, set())
    if game_id in posted:
        return None
    posted.add(game_id)
    try:
        row = await bot.tables.store.game(game_id, snapshot=False)
        if row is None or not row.started:
            return None
        return await _post(bot, row, channel, nonce=nonce_of(game_id))
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("replay of game %s could not be posted", game_id)
        return None


def start_post(bot: Tablehost, game_id: int, channel: discord.abc.Messageable) -> asyncio.Task[discord.Message | None]:
    """Starts :func:`post_replay` as a background task and returns it (the caller need not wait)."""
    task = asyncio.create_task(post_replay(bot, game_id, channel), name=f"tablehost-replay-{game_id}")
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)
    return task
