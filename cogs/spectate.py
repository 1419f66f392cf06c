"""Spectator channels: a game's public posts copied, read-only, into other channels.

``/game spectate to:#channel`` (typed in the game's channel, by the game's creator or someone
with Manage Channels there) makes ``#channel`` a spectator channel of the game: a header, a
copy of the current live board, then a copy of every channel message the game's
announcements make: each live board (:mod:`cogs.board`) with its edits and its close, the
lobby posts (:func:`cogs.delivery.post_public`), the game over. ``stop:true`` ends it.
``/game board`` typed in a spectator channel shows the game it spectates (:func:`board_table`).

A copy has the post's text, embed and picture (the bytes just drawn for the board, uploaded
again), no buttons and no pings: a mention of a seated player is written as their seat name,
and the copy allows no mention at all. Copies are made only from what was just posted in the
game's channel, so DMs, ephemeral replies and anything hidden never reach a spectator channel
(nor do the closed-DM notices, which speak to one player).

Copies never hold the game up: a copy that fails is logged (ids and status only) and the
game's own delivery goes on; a spectator channel that is gone or closed to the bot (404, 403)
stops being one. Which copy is of which post is stored (:class:`~host.spectators.Spectators`),
so an edit of the live board edits its copies, and a retry of an announcement skips the
copies already made (each copy also carries a nonce, for a copy made but not recorded).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord import app_commands

from cogs.actions import Interaction, begin
from engines import GAMES, GameError
from host.outbox import Outbox
from host.store import GameRow
from host.tables import NoGame, Table

if TYPE_CHECKING:
    from cogs.client import Tablehost

log = logging.getLogger(__name__)

MAX_CHANNELS = 5
"""Spectator channels one game may have (each costs a copy of every post)."""
COPY_TIMEOUT = 20.0
"""Seconds one copy may take before it is given up (the game's delivery waits for it)."""
UNKNOWN_MESSAGE = 10008
"""Discord's code for a message that was deleted (a copy someone removed: the channel stays)."""
MENTION = re.compile(r"<@!?([0-9]{1,20})>")
NO_PINGS = discord.AllowedMentions.none()


@dataclass(frozen=True)
class Post:
    """What a copy shows: a public post's text, embed and picture (PNG bytes under ``filename``)."""

    content: str | None = None
    embed: discord.Embed | None = None
    png: bytes | None = None
    filename: str | None = None

    def file(self) -> discord.File | None:
        """Returns the picture as a new upload, or None."""
        if self.png is None:
            return None
        return discord.File(fp=io.BytesIO(self.png), filename=self.filename or "board.png")


def unpinged(text: str, names: Mapping[str, str]) -> str:
    """Returns the text with each mention of a seated player written as their seat name.

    A copy pings no one (it allows no mention); the name reads better than a mention
    that does not notify, and does not highlight the player in a channel they may not follow.

    >>> unpinged("<@12> <@!34> — your moves.", {"12": "Ann_1", "34": "@everyone"})
    'Ann\\\\_1 @\\u200beveryone — your moves.'
    >>> unpinged("<@56>: saved.", {})
    '<@56>: saved.'
    """

    def name(match: re.Match[str]) -> str:
        seat = names.get(match[1])
        return discord.utils.escape_mentions(discord.utils.escape_markdown(seat)) if seat else match[0]

    return MENTION.sub(name, text)


def copy_nonce(out: Outbox, part: str, channel_id: str) -> str | None:
    """Returns the nonce of the copy of one message of an announcement in one spectator channel.

    The pattern of :func:`cogs.delivery.nonce`, with the channel, so copies of one post differ.

    >>> copy_nonce(Outbox(game_id=1, game="xisk", channel_id="9", id=12345), "b", "1234567890123456789")
    'th12345sb7890123456789'
    """
    return f"th{out.id}s{part}{channel_id[-13:]}"[:25] if out.id is not None else None


# Copies, made as the game's own posts are


async def copy_post(bot: Tablehost, out: Outbox, source_id: int | str, post: Post, *, part: str) -> None:
    """Copies a post just made for ``out`` in its game's channel into each of the game's spectator channels.

    ``part`` names the message within the announcement, as its own nonce does (``b`` the
    board, ``c0`` the first lobby piece). Never raises but when cancelled.
    """
    source = str(source_id)
    content = unpinged(post.content, out.names)[:2000] if post.content else None
    copy = Post(content, post.embed, post.png, post.filename)

    async def send(channel_id: str) -> None:
        if await bot.spectators.copy_of(channel_id, source) is not None:
            return  # copied by an earlier try of the announcement
        message = await _send(bot, channel_id, copy, nonce=copy_nonce(out, part, channel_id))
        await bot.spectators.set_copy(out.game_id, channel_id, source, str(message.id))

    await _each(bot, out.game_id, send)


async def copy_edit(bot: Tablehost, game_id: int, source_id: int | str, embed: discord.Embed, png: bytes,
                    filename: str) -> None:
    """Edits the copies of a live board that was just edited: its new embed and picture."""

    async def edit(channel_id: str) -> None:
        copy = await bot.spectators.copy_of(channel_id, str(source_id))
        if copy is None:
            return  # never copied: the board predates the spectator channel, or its copy failed
        file = discord.File(fp=io.BytesIO(png), filename=filename)
        await bot.get_partial_messageable(int(channel_id)).get_partial_message(int(copy)).edit(
            embed=embed, attachments=[file]
        )

    await _each(bot, game_id, edit)


async def copy_close(bot: Tablehost, game_id: int, source_id: int | str, description: str | None) -> None:
    """Closes the copies of a live board whose turn ended: the whole recap, its picture as it was.

    Like the board itself, the copy is read back and only its description changes, so its
    picture stays the one it shows (nothing is drawn or uploaded again).
    """

    async def close(channel_id: str) -> None:
        copy = await bot.spectators.copy_of(channel_id, str(source_id))
        if copy is None:
            return
        partial = bot.get_partial_messageable(int(channel_id)).get_partial_message(int(copy))
        message = await partial.fetch()
        embeds = message.embeds[:1]
        if embeds:
            embeds[0].description = description
            await partial.edit(embeds=embeds)

    await _each(bot, game_id, close)


async def _send(bot: Tablehost, channel_id: str, post: Post, *, nonce: str | None = None) -> discord.Message:
    kwargs: dict[str, Any] = {"allowed_mentions": NO_PINGS}
    if post.embed is not None:
        kwargs["embed"] = post.embed
    file = post.file()
    if file is not None:
        kwargs["file"] = file
    return await bot.get_partial_messageable(int(channel_id)).send(post.content or None, nonce=nonce, **kwargs)


async def _each(bot: Tablehost, game_id: int, action: Callable[[str], Awaitable[None]]) -> None:
    """Runs ``action`` for each spectator channel of a game, as :func:`_guarded`."""
    try:
        channels = await bot.spectators.channels(game_id)
    except Exception:
        log.exception("game %s: could not read its spectator channels; nothing copied", game_id)
        return
    for channel_id in channels:
        await _guarded(bot, game_id, channel_id, action)


async def _guarded(bot: Tablehost, game_id: int, channel_id: str, action: Callable[[str], Awaitable[None]]) -> bool:
    """Runs ``action`` for one spectator channel; returns False when it failed (logged, never raised).

    A channel that is gone or closed to the bot is no longer a spectator channel.
    """
    try:
        async with asyncio.timeout(COPY_TIMEOUT):
            await action(channel_id)
        return True
    except (discord.Forbidden, discord.NotFound) as err:
        if err.code == UNKNOWN_MESSAGE:  # someone deleted the copy: the channel still spectates
            log.info("game %s: a copy in spectator channel %s is gone", game_id, channel_id)
            return False
        log.warning("game %s: spectator channel %s is gone or closed to the bot (%s, code %s); no longer"
                    " copied to", game_id, channel_id, err.status, err.code)
        await _forget(bot, game_id, channel_id)
    except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as err:
        status = f"{err.status}, code {err.code}" if isinstance(err, discord.HTTPException) else type(err).__name__
        log.warning("game %s: a copy for spectator channel %s failed (%s)", game_id, channel_id, status)
    except Exception:  # a bug: the game's own delivery still goes on
        log.exception("game %s: a copy for spectator channel %s failed", game_id, channel_id)
    return False


async def _forget(bot: Tablehost, game_id: int, channel_id: str) -> None:
    try:
        await bot.spectators.remove(game_id, channel_id)
    except Exception:
        log.exception("game %s: could not forget spectator channel %s", game_id, channel_id)


# /game spectate


def may_manage(interaction: Interaction, row: GameRow) -> bool:
    """Tells whether the caller may choose a game's spectator channels: its creator, or Manage Channels here."""
    return str(interaction.user.id) == row.creator_id or bool(interaction.permissions.manage_channels)


def target_problem(target: Any, *, guild_id: int | None, game_channel_id: str, caller: object) -> str | None:
    """Returns why ``target`` cannot spectate a game in ``game_channel_id`` (the sentence for the caller), or None.

    It must be in the caller's server, not the game's own channel, a place the bot may post
    embeds and pictures in (and read back, to close a copied board), and one the caller can see.
    """
    where = getattr(target, "mention", "that channel")
    guild = getattr(target, "guild", None)
    if guild is None or guild_id is None or guild.id != guild_id:
        return f"{where} is in another server: a spectator channel must be in this one."
    if str(target.id) == game_channel_id:
        return "That is the game's own channel: choose another channel to copy it to."
    thread = isinstance(target, discord.Thread)
    try:
        perms = target.permissions_for(guild.me)
        theirs = target.permissions_for(caller) if isinstance(caller, discord.Member) else None
    except discord.ClientException:  # a thread whose parent is not known to the bot
        return f"I can't tell what I may do in {where}: choose a text channel."
    needed = {
        "View Channel": perms.view_channel,
        "Send Messages" + (" in Threads" if thread else ""): perms.send_messages_in_threads
        if thread else perms.send_messages,
        "Embed Links": perms.embed_links,
        "Attach Files": perms.attach_files,
        "Read Message History": perms.read_message_history,
    }
    missing = [name for name, ok in needed.items() if not ok]
    if missing:
        return f"I need {', '.join(missing)} in {where} to copy the game there."
    if thread and getattr(target, "locked", False) and not perms.manage_threads:
        return f"{where} is locked: I can't post there."
    if theirs is not None and not theirs.view_channel:
        return "You can't see that channel yourself: choose one you can see."
    return None


Target = discord.TextChannel | discord.Thread | app_commands.AppCommandChannel | app_commands.AppCommandThread
"""What ``to`` may be: a channel discord.py resolved from its cache, or the option as Discord sent it
(typing the option ``AppCommandChannel | AppCommandThread`` lets a thread the bot has not cached,
or a channel of another server, be answered here rather than fail in discord.py's conversion)."""


async def spectate(interaction: Interaction, channel: Target | None, stop: bool) -> None:
    """``/game spectate to:#channel stop:false``: copies this channel's game into ``to``, read-only.

    ``to`` is the option's name on Discord (``channel`` here). Typed in the game's channel by
    its creator or someone with Manage Channels. ``stop:true`` stops copying to ``to``; without
    ``to`` it stops every spectator channel of the game, or, typed in a spectator channel,
    stops the copies of the newest game coming there. Every answer is ephemeral.
    """
    await begin(interaction)
    bot = interaction.client
    store = bot.tables.store
    here = str(interaction.channel_id)
    if isinstance(channel, app_commands.AppCommandChannel | app_commands.AppCommandThread):
        found = await _resolve(bot, channel)
        if found is None:
            await _reply(interaction, "I can't see that channel: choose one I can post in.")
            return
        channel = found
    row = await (store.latest_game if stop else store.active_game)(here, snapshot=False)
    if row is None and stop and channel is None:
        await _stop_here(interaction)
        return
    if row is None:
        await _reply(interaction, "There is no game in this channel to spectate: type this in the game's channel.")
        return
    if not may_manage(interaction, row):
        await _reply(interaction, "Only the game's creator or someone with Manage Channels can choose where it is"
                                  " spectated.")
        return
    if stop:
        await _stop(interaction, row, channel)
        return
    if channel is None:
        await _reply(interaction, "Name the spectator channel: `/game spectate to:#channel`.")
        return
    if not isinstance(channel, discord.TextChannel | discord.Thread):
        await _reply(interaction, "A spectator channel must be a text channel or a thread.")
        return
    problem = target_problem(channel, guild_id=interaction.guild_id, game_channel_id=row.channel_id,
                             caller=interaction.user)
    if problem is None and await store.active_game(str(channel.id), snapshot=False) is not None:
        problem = f"{channel.mention} has a game of its own: choose a channel without one."
    spectating = await bot.spectators.channels(row.id)
    if problem is None and str(channel.id) in spectating:
        problem = f"{channel.mention} already spectates this game."
    if problem is None and len(spectating) >= MAX_CHANNELS:
        problem = f"This game already has {MAX_CHANNELS} spectator channels: stop one first."
    if problem is not None:
        await _reply(interaction, problem)
        return
    try:
        table = await bot.tables.table(row.channel_id)
    except GameError as err:
        await _reply(interaction, str(err))
        return
    where = f"<#{row.channel_id}>"
    # No announcement of the game is delivered meanwhile, so the copies start in step with its board.
    async with bot.deliverer._lock(row.channel_id):
        if str(channel.id) in await bot.spectators.channels(row.id):  # the same command, twice at once
            await _reply(interaction, f"{channel.mention} already spectates this game.")
            return
        try:
            await channel.send(f"Spectating {table.title} from {where}: every public post is copied here.",
                               allowed_mentions=NO_PINGS)
        except discord.HTTPException as err:
            await _reply(interaction, f"I can't post in {channel.mention} ({err.status}): nothing was changed.")
            return
        await bot.spectators.add(row.id, str(channel.id))
        copied = await _guarded(bot, row.id, str(channel.id), lambda cid: copy_board(bot, table, cid))
    if not copied and str(channel.id) not in await bot.spectators.channels(row.id):
        await _reply(interaction, f"I can't copy the game to {channel.mention}: nothing is copied there.")
        return
    await _reply(interaction, f"{channel.mention} now spectates this {table.title} game: every public post of it"
                              " is copied there. `/game spectate stop:true` stops it.")


async def _resolve(bot: Tablehost, option: app_commands.AppCommandChannel | app_commands.AppCommandThread) -> Any:
    """Returns the channel an option names, from the cache or else from Discord; None when it is hidden."""
    found = option.resolve()
    if found is None:
        try:
            found = await bot.fetch_channel(option.id)
        except (discord.NotFound, discord.Forbidden):
            return None
    return found


async def copy_board(bot: Tablehost, table: Table, channel_id: str) -> None:
    """Copies a game's current live board into a spectator channel (its picture drawn again from the game)."""
    board = await bot.tables.store.board(table.row.id)
    if board is None or table.game is None:
        return  # in the lobby: its first board comes with the start
    source_channel = bot.get_partial_messageable(int(table.row.channel_id))
    try:
        source = await source_channel.fetch_message(int(board.message_id))
    except discord.NotFound:
        return  # deleted: the next move posts a new board, and it is copied
    filename = source.attachments[0].filename if source.attachments else f"{table.row.game}-{table.row.id}.png"
    embed = source.embeds[0] if source.embeds else None
    if embed is not None:
        embed.set_image(url=f"attachment://{filename}")
    png = await bot.picture(table.row.game, table.game.view(None), title=table.title)
    names = {s.player_id: s.name for s in table.seats}
    content = unpinged(source.content, names)[:2000] or None
    message = await _send(bot, channel_id, Post(content, embed, png, filename))
    await bot.spectators.set_copy(table.row.id, channel_id, board.message_id, str(message.id))


async def _stop(interaction: Interaction, row: GameRow, channel: discord.abc.GuildChannel | None) -> None:
    bot = interaction.client
    title = GAMES[row.game].TITLE if row.game in GAMES else row.game
    spectating = await bot.spectators.channels(row.id)
    chosen = spectating if channel is None else [c for c in spectating if c == str(channel.id)]
    if not chosen:
        await _reply(interaction, "This game has no spectator channels." if channel is None
                     else f"{channel.mention} does not spectate this game.")
        return
    for channel_id in chosen:
        await bot.spectators.remove(row.id, channel_id)
        await _farewell(bot, channel_id, f"No longer spectating {title} from <#{row.channel_id}>.")
    await _reply(interaction, f"Stopped copying this {title} game to {', '.join(f'<#{c}>' for c in chosen)}.")


async def _stop_here(interaction: Interaction) -> None:
    """``stop:true`` typed in a spectator channel: the newest game it spectates stops coming here."""
    bot = interaction.client
    here = str(interaction.channel_id)
    game_id = await bot.spectators.watched_in(here)
    row = await bot.tables.store.game(game_id, snapshot=False) if game_id is not None else None
    if row is None:
        await _reply(interaction, "There is no game in this channel, and it spectates none.")
        return
    if not may_manage(interaction, row):
        await _reply(interaction, "Only the game's creator or someone with Manage Channels can stop it being"
                                  " spectated here.")
        return
    title = GAMES[row.game].TITLE if row.game in GAMES else row.game
    await bot.spectators.remove(row.id, here)
    await _farewell(bot, here, f"No longer spectating {title} from <#{row.channel_id}>.")
    await _reply(interaction, f"Stopped copying the {title} game from <#{row.channel_id}> here.")


async def _farewell(bot: Tablehost, channel_id: str, text: str) -> None:
    """Tells a spectator channel why the copies stop (a channel that is gone is not told)."""
    try:
        await bot.get_partial_messageable(int(channel_id)).send(text, allowed_mentions=NO_PINGS)
    except discord.HTTPException as err:
        log.info("could not tell spectator channel %s that it stops (%s)", channel_id, err.status)


async def _reply(interaction: Interaction, text: str) -> None:
    await interaction.followup.send(text, ephemeral=True)


# /game board in a spectator channel


async def board_table(bot: Tablehost, channel_id: str) -> Table:
    """Returns the game ``/game board`` shows in a channel: its own, else the newest game it spectates.

    Raises the channel's own refusal (:class:`~host.tables.NoGame`) when it is neither.
    """
    try:
        return await bot.tables.table(channel_id)
    except NoGame:
        game_id = await bot.spectators.watched_in(channel_id)
        row = await bot.tables.store.game(game_id, snapshot=False) if game_id is not None else None
        if row is None:
            raise
    table = await bot.tables.table(row.channel_id)
    if table.row.id == row.id:
        return table
    # a newer game has begun in the game's channel since: the spectated one, from its log
    seats = await bot.tables.store.seats(row.id)
    return Table(row, seats, await bot.tables.replay(row.id) if row.seed is not None else None)
