"""``/table spectate``: choose a game's spectator channels, and ``/game board`` typed in one.

The copies themselves are made by :mod:`cogs.spectate` as each announcement is delivered;
this module is the command that starts and stops them (the game's creator, or someone with
Manage Channels), checking first that the bot may post there and the caller may see it.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from cogs.client import Tablehost
from cogs.replies import Interaction, begin
from cogs.spectate import MAX_CHANNELS, NO_PINGS, Post, guarded, send_copy, unpinged
from cogs.surface import surface_of, title_of
from engines import GameError
from host.store import GameRow
from host.tables import NoGame, Table
from render.common import extension

log = logging.getLogger("cogs.spectate")


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
    """``/table spectate to:#channel stop:false``: copies this channel's game into ``to``, read-only.

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
        await _reply(interaction, "Name the spectator channel: `/table spectate to:#channel`.")
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
        copied = await guarded(bot, row.id, str(channel.id), lambda cid: copy_board(bot, table, cid))
    if not copied and str(channel.id) not in await bot.spectators.channels(row.id):
        await _reply(interaction, f"I can't copy the game to {channel.mention}: nothing is copied there.")
        return
    await _reply(interaction, f"{channel.mention} now spectates this {table.title} game: every public post of it"
                              " is copied there. `/table spectate stop:true` stops it.")


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
    view = table.game.view(None)
    png = await bot.picture(table.row.game, view, title=table.title)
    kind = extension(png)  # the picture is drawn anew: its name follows its encoding
    filename = f"{source.attachments[0].filename.rpartition('.')[0]}.{kind}" if source.attachments \
        else f"{table.row.game}-{table.row.id}.{kind}"
    embed = source.embeds[0] if source.embeds else None
    if embed is not None:
        embed.set_image(url=f"attachment://{filename}")
    names = {s.player_id: s.name for s in table.seats}
    content = unpinged(source.content, names)[:2000] or None
    alt = surface_of(table.row.game).alt(table.title, view)
    message = await send_copy(bot, channel_id, Post(content, embed, png, filename, alt))
    await bot.spectators.set_copy(table.row.id, channel_id, board.message_id, str(message.id))


async def _stop(interaction: Interaction, row: GameRow, channel: discord.abc.GuildChannel | None) -> None:
    bot = interaction.client
    title = title_of(row.game)
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
    title = title_of(row.game)
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
    return Table(row, seats, await bot.tables.replay(row.id) if row.started else None)
