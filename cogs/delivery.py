"""Delivers an :class:`~host.outbox.Outbox` on Discord: the channel post, pings, DMs.

Secrets go only by DM. When a player's DMs are closed (HTTP 403, code 50007)
the channel is told so, naming the player but never the secret, and the game
goes on; ``/game hand`` then serves the hand as an ephemeral reply.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from cogs.buttons import quick_view
from host.deliverer import Unreachable
from host.outbox import Outbox
from host.tables import Refusal, Table

if TYPE_CHECKING:
    from cogs.client import Tablehost

log = logging.getLogger(__name__)

LIMIT = 1900  # below Discord's 2,000 characters, leaving room for the mention line
DM_CLOSED = 50007

SecretFormatter = Callable[[dict[str, Any]], str]
SECRET_FORMATTERS: dict[str, SecretFormatter] = {}
"""Game name → function that writes a player's private view as a DM (default: one line per field)."""

EventFormatter = Callable[[dict[str, Any]], str]
EVENT_FORMATTERS: dict[str, EventFormatter] = {}
"""Game name → function that writes a public event as a channel line (default: its ``text``)."""


def public_text(out: Outbox) -> str:
    """Returns the channel text of an outbox, each event written by its game's formatter."""
    formatter = EVENT_FORMATTERS.get(out.game)
    events = [formatter(e) if formatter else e["text"] for e in out.events]
    return "\n".join([*out.lines, *events])


def format_secret(game: str, secret: dict[str, Any]) -> str:
    """Returns a player's private view as message text."""
    formatter = SECRET_FORMATTERS.get(game)
    if formatter is not None:
        return formatter(secret)
    lines = []
    for key, value in secret.items():
        shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        lines.append(f"**{key.replace('_', ' ').capitalize()}:** {shown or '—'}")
    return "\n".join(lines)


def chunks(text: str, limit: int = LIMIT) -> list[str]:
    """Splits text at line ends into pieces of at most ``limit`` characters."""
    out: list[str] = []
    current = ""
    for line in text.splitlines() or [""]:
        while len(line) > limit:
            out.append(line[:limit])
            line = line[limit:]
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    out.append(current)
    return out


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
    Discord down or unreachable raises Unreachable: retried until it is back.
    Anything else that fails is raised, and the deliverer retries a few times.
    """
    try:
        await _announce(bot, out, late)
    except (discord.DiscordServerError, discord.RateLimited, aiohttp.ClientError, OSError, TimeoutError) as err:
        raise Unreachable(f"Discord is unreachable: {type(err).__name__}") from err


async def _announce(bot: Tablehost, out: Outbox, late: bool) -> None:
    try:
        channel = bot.get_channel(int(out.channel_id)) or await bot.fetch_channel(int(out.channel_id))
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
    await post_public(bot, channel, out, table if current else None, late=late)
    await send_private(bot, channel, out, where=where_label(channel))


def where_label(channel: object) -> str:
    """Returns the "In #channel" line that heads a DM."""
    name = getattr(channel, "name", None)
    guild = getattr(getattr(channel, "guild", None), "name", None)
    if name and guild:
        return f"In #{name} ({guild})"
    return f"In #{name}" if name else f"In channel {getattr(channel, 'id', '?')}"


async def post_public(
    bot: Tablehost, channel: discord.abc.Messageable, out: Outbox, table: Table | None, *, late: bool = False
) -> None:
    """Posts the outbox's text, picture and ping in the channel.

    Each message has a nonce, and its id goes into ``out.receipt["channel"]``:
    a retry posts only what is missing, and Discord drops a repeat of the same nonce.
    """
    # names are display names: shown as typed, never as formatting (a "# Big" heading) or a ping
    text = discord.utils.escape_mentions(discord.utils.escape_markdown(public_text(out)))
    if out.mention:
        text = f"{text}\n{mention_line(out.mention)}" if text else mention_line(out.mention)
    pinged = [discord.Object(int(uid)) for uid in out.mention]
    note = late_note(out) if late else None
    if note:
        text = f"{text}\n{note}" if text else note
        pinged.append(discord.Object(int(out.actor_id or 0)))
    pings = discord.AllowedMentions(users=pinged, everyone=False, roles=False)
    pieces = chunks(text)
    posted: list[int] = out.receipt.setdefault("channel", [])
    for n, piece in enumerate(pieces):
        if n < len(posted):
            continue  # posted by an earlier try
        kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
        if n == len(pieces) - 1:
            kwargs["allowed_mentions"] = pings
            if out.picture and out.view is not None:
                png = await bot.picture(out.game, out.view, title=table.title if table else None)
                name = f"{out.game}-{out.game_id}-{out.version}.png"
                kwargs["file"] = discord.File(fp=io.BytesIO(png), filename=name)
            if table is not None and table.game is not None and not out.finished:
                view = quick_view(table)
                if view is not None:
                    kwargs["view"] = view
        message = await channel.send(piece or "\u200b", nonce=nonce(out, f"c{n}"), **kwargs)
        posted.append(message.id)


async def send_private(bot: Tablehost, channel: discord.abc.Messageable, out: Outbox, *, where: str) -> list[str]:
    """DMs each player their private lines and changed secrets; returns who could not be reached.

    What was sent is counted in ``out.receipt["dm"]`` (pieces per user), so a retry resumes.
    """
    unreachable: list[str] = out.receipt.setdefault("unreachable", [])
    noticed: list[str] = out.receipt.setdefault("noticed", [])
    done: dict[str, int] = out.receipt.setdefault("dm", {})
    for k, uid in enumerate(dict.fromkeys([*out.private, *out.secrets])):
        parts = [f"*{where}*", *out.private.get(uid, [])]
        if uid in out.secrets:
            parts.append(format_secret(out.game, out.secrets[uid]))
        pieces = chunks("\n".join(parts))
        if done.get(uid, 0) >= len(pieces):
            continue
        try:
            user = bot.get_user(int(uid)) or await bot.fetch_user(int(uid))
            for n, piece in enumerate(pieces):
                if n >= done.get(uid, 0):
                    await user.send(piece, nonce=nonce(out, f"d{k}.{n}"))
                    done[uid] = n + 1
        except discord.HTTPException as err:
            if not (isinstance(err, discord.Forbidden) and err.code == DM_CLOSED):
                if not isinstance(err, (discord.Forbidden, discord.NotFound)):
                    raise  # a 5xx or a rate limit: retried later from where it stopped
                log.warning("could not DM user %s: %s", uid, err.status)
            done[uid] = len(pieces)  # nobody can read it: never retried
            unreachable.append(uid)
    for k, uid in enumerate(unreachable):
        if uid in noticed:
            continue
        name = out.names.get(uid, "a player")
        await channel.send(
            f"I can't send {discord.utils.escape_mentions(discord.utils.escape_markdown(name))} their private"
            f" messages: their DMs are closed. <@{uid}>, use `/game hand` to see yours privately here.",
            # AllowedMentions(users=...) alone still allows @everyone and roles: a display name may hold them
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(uid))], everyone=False, roles=False),
            nonce=nonce(out, f"n{k}"),
        )
        noticed.append(uid)
    return unreachable
