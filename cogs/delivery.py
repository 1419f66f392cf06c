"""Delivers an :class:`~host.outbox.Outbox` on Discord: the live board or a post, pings, hand DMs.

A move's announcement goes to the game's live board (:mod:`cogs.board`), a lobby
change is a plain post, and secrets go only by DM (:mod:`cogs.hands`).
"""

from __future__ import annotations

import logging

import aiohttp
import discord
from discord.ext import commands

from cogs import board, spectate
from cogs.client import Tablehost
from cogs.hands import send_hands
from cogs.reminders import send_reminders
from cogs.replay import start_post
from cogs.replies import chunks
from cogs.seating import lobby_view
from cogs.surface import surface_of
from host.deliverer import Busy, Unreachable
from host.outbox import Outbox
from host.tables import Refusal, Table

log = logging.getLogger(__name__)

class Delivery(commands.Cog):
    """The cog that delivers: it makes :func:`announce` the bot's announcer while it is loaded."""

    def __init__(self, bot: Tablehost) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Installs :func:`announce` as the bot's announcer."""
        self.bot.announcer = announce

    async def cog_unload(self) -> None:
        """Takes the announcer back: announcements stay stored until another is installed."""
        self.bot.announcer = None


async def setup(bot: Tablehost) -> None:
    """Adds the delivery cog (discord.py extension entry point)."""
    await bot.add_cog(Delivery(bot))


def public_text(out: Outbox) -> str:
    """Returns the channel text of an outbox, each event written by its game's surface."""
    surface = surface_of(out.game)
    return "\n".join([*out.lines, *(surface.event_text(e) for e in out.events)])


def mention_line(user_ids: list[str]) -> str:
    """Returns the line that pings whoever must act now."""
    return " ".join(f"<@{uid}>" for uid in user_ids) + (" — your move." if len(user_ids) == 1 else " — your moves.")


def nonce(out: Outbox, part: str) -> str | None:
    """Returns the nonce of one message of an announcement: Discord creates it at most once.

    >>> nonce(Outbox(game_id=1, game="xisk", channel_id="9", id=12345), "c0")
    'th12345c0'
    """
    return f"th{out.id}{part}"[:25] if out.id is not None else None


def late_note(out: Outbox) -> str | None:
    """Returns the line telling the player who acted that their change was saved but never confirmed."""
    if out.actor_id is None:
        return None
    what = f"your move `{out.move}` was" if out.move else "this was"
    return f"<@{out.actor_id}>: {what} saved, but my reply to you was lost (the bot restarted)."


async def announce(bot: Tablehost, out: Outbox, late: bool) -> None:
    """Delivers a stored announcement in its channel and by DM (the deliverer's ``send``).

    A channel the bot can no longer see or post in is skipped for good (logged).
    Discord busy (a 429 discord.py gave up waiting out, a 5xx) raises Busy, with Discord's
    ``retry_after`` when it said one: the deliverer waits and tries again. Discord unreachable
    raises Unreachable: retried until it is back. Anything else that fails is raised, and the
    deliverer retries a few times.
    """
    try:
        await _announce(bot, out, late)
    except discord.RateLimited as err:
        raise Busy("Discord asked to wait (429)", err.retry_after) from err
    except discord.DiscordServerError as err:
        raise Busy(f"Discord is failing for now ({err.status})") from err
    except discord.HTTPException as err:
        if err.status != 429:
            raise
        raise Busy("Discord asked to wait (429)", retry_after(err)) from err
    except (aiohttp.ClientError, OSError, TimeoutError) as err:
        raise Unreachable(f"Discord is unreachable: {type(err).__name__}") from err


def retry_after(err: discord.HTTPException) -> float | None:
    """Returns the seconds a 429 asked to wait (its ``Retry-After`` header), or None if it said none."""
    headers = getattr(err.response, "headers", None) or {}
    try:
        return max(float(headers.get("Retry-After", "")), 0.0)
    except ValueError:
        return None


async def _announce(bot: Tablehost, out: Outbox, late: bool) -> None:
    try:
        channel = bot.get_channel(int(out.channel_id)) or await fetch_channel(bot, int(out.channel_id))
    except (discord.NotFound, discord.Forbidden) as err:
        log.warning("announcement %s: channel %s is gone or closed to the bot (%s)", out.id, out.channel_id, err.status)
        out.receipt["undeliverable"] = err.status
        return
    assert isinstance(channel, discord.abc.Messageable)
    table = None
    if out.picture:
        try:
            table = await bot.tables.table(out.channel_id)
        except Refusal:  # e.g. damaged since: the post goes out without buttons
            table = None
    current = table is not None and (table.row.id, table.row.version) == (out.game_id, out.version)
    title = table.title if table is not None else out.game.upper()
    if not out.receipt.get("board"):  # the channel's part was not done by an earlier try
        if out.picture and out.view is not None:
            await show_board(bot, channel, out, table if current else None, late=late)
        else:
            await post_public(bot, channel, out, late=late)
            if out.finished:
                await board.retire(bot, channel, out.game_id)
        if out.finished and out.picture:  # the move that ended the game (an abort has no picture)
            start_post(bot, out.game_id, channel)  # in the background: delivery never waits or fails with it
        if (out.picture and out.version == 0) or (out.finished and not out.picture):  # started, or closed
            await retire_lobby(bot, channel, out.game_id)
        out.receipt["board"] = True
    if out.notice == "reminder":
        await send_reminders(bot, channel, out, title=title)
    else:
        await send_hands(bot, channel, out, title=title)


async def retire_lobby(bot: Tablehost, channel: discord.abc.Messageable, game_id: int) -> None:
    """Takes Join and "Add my own randomness" off a table's opening post once its seats are fixed.

    The post stays, with the commitment it sealed; one gone or closed to the bot is left alone.
    """
    row = await bot.tables.store.game(game_id, snapshot=False)
    if row is None or row.commitment_message is None or not isinstance(channel, discord.abc.Messageable):
        return
    try:
        await discord.PartialMessage(channel=channel, id=int(row.commitment_message)).edit(view=None)
    except (discord.NotFound, discord.Forbidden) as err:
        log.info("game %s: its opening post could not lose its buttons (%s)", game_id, err.status)


async def fetch_channel(
    bot: Tablehost, channel_id: int
) -> discord.abc.GuildChannel | discord.abc.PrivateChannel | discord.Thread:
    """Returns a channel the cache lacks, from Discord, with its guild's name (the DMs name the server).

    The guild of another shard, whose events this process never gets, is known only by its id
    (discord.py makes it "unavailable", unnamed): it is fetched too. Without its name the post
    still goes out.
    """
    channel = await bot.fetch_channel(channel_id)
    if isinstance(channel, discord.abc.GuildChannel | discord.Thread) and channel.guild.unavailable:
        try:
            channel.guild = await bot.fetch_guild(channel.guild.id, with_counts=False)
        except discord.HTTPException as err:
            log.info("channel %s: its server %s could not be read (%s)", channel_id, channel.guild.id, err.status)
    return channel


def heading(out: Outbox, *, late: bool) -> tuple[list[str], discord.AllowedMentions]:
    """Returns the lines that ping (whoever must act now; the actor of a late announcement) and who they ping."""
    lines, pinged = [], [discord.Object(int(uid)) for uid in out.mention]
    if out.mention:
        lines.append(mention_line(out.mention))
    note = late_note(out) if late else None
    if note:
        lines.append(note)
        pinged.append(discord.Object(int(out.actor_id or 0)))
    return lines, discord.AllowedMentions(users=pinged, everyone=False, roles=False)


def escaped_text(out: Outbox) -> str:
    """Returns the public text with display names shown as typed, never as formatting or a ping."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(public_text(out)))


async def show_board(
    bot: Tablehost, channel: discord.abc.Messageable, out: Outbox, table: Table | None, *, late: bool
) -> None:
    """Shows a move's announcement on the game's live board (see :mod:`cogs.board`)."""
    head, pings = board_heading(out, late=late)
    lines = [line for line in escaped_text(out).splitlines() if line.strip()]
    posted = await board.show(bot, channel, out, table, lines, head=head, pings=pings)
    note = late_note(out) if late else None
    if note and not posted and "late_note" not in out.receipt:  # an edited board pings no one: say it apart
        actor = discord.Object(int(out.actor_id or 0))
        message = await channel.send(note, nonce=nonce(out, "late"),
                                     allowed_mentions=discord.AllowedMentions(users=[actor], everyone=False,
                                                                              roles=False))
        out.receipt["late_note"] = message.id


def board_heading(out: Outbox, *, late: bool) -> tuple[str, discord.AllowedMentions]:
    """Returns a new live board's content and who it pings.

    It pings whoever :func:`heading` pings, no one else, and names each player to act with
    their next step (``<@id> Ann: place 6 chips (Supply phase), then attack or end.``); a
    player to act who is not pinged (at the table already, or a bot) is named all the same.
    A spectator copy leaves the pings out (:func:`cogs.spectate.unpinged`).
    """
    lines, pings = heading(out, late=late)
    step = " ".join(board.steps(out))
    if not step:
        return "\n".join(lines), pings
    note = [n] if late and (n := late_note(out)) else []
    mentions = " ".join(f"<@{uid}>" for uid in out.mention)
    return "\n".join([f"{mentions} {step}" if mentions else step, *note]), pings


async def post_public(bot: Tablehost, channel: discord.abc.Messageable, out: Outbox, *, late: bool = False) -> None:
    """Posts a lobby change's text (and ping) in the channel.

    Each message has a nonce, and its id goes into ``out.receipt["channel"]``:
    a retry posts only what is missing, and Discord drops a repeat of the same nonce.
    """
    head, pings = heading(out, late=late)
    pieces = chunks("\n".join(line for line in [escaped_text(out), *head] if line))
    posted: list[int] = out.receipt.setdefault("channel", [])
    for n, piece in enumerate(pieces):
        if n >= len(posted):  # else posted by an earlier try
            last = n == len(pieces) - 1
            mentions = pings if last else discord.AllowedMentions.none()
            buttons = lobby_view(out.game_id) if out.seals and last else discord.utils.MISSING
            message = await channel.send(piece or "\u200b", nonce=nonce(out, f"c{n}"), allowed_mentions=mentions,
                                         view=buttons)
            posted.append(message.id)
        if out.seals and n == 0:  # the table's opening: the game keeps the id of the post that sealed its seed
            out.receipt["seal"] = posted[0]
        await spectate.copy_post(bot, out, posted[n], spectate.Post(piece or "\u200b"), part=f"c{n}")
