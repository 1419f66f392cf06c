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

import discord

from cogs.buttons import quick_view
from host.outbox import Outbox
from host.tables import Table

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


async def post_public(
    bot: Tablehost, channel: discord.abc.Messageable, out: Outbox, table: Table | None
) -> discord.Message | None:
    """Posts the outbox's text, picture and ping in the channel; returns the last message."""
    # names are display names: shown as typed, never as formatting (a "# Big" heading) or a ping
    text = discord.utils.escape_mentions(discord.utils.escape_markdown(public_text(out)))
    if out.mention:
        text = f"{text}\n{mention_line(out.mention)}" if text else mention_line(out.mention)
    pinged = [discord.Object(int(uid)) for uid in out.mention]
    pings = discord.AllowedMentions(users=pinged, everyone=False, roles=False)
    pieces = chunks(text)
    for piece in pieces[:-1]:
        await channel.send(piece, allowed_mentions=discord.AllowedMentions.none())
    kwargs: dict[str, Any] = {"allowed_mentions": pings}
    if out.picture and out.view is not None:
        title = table.title if table else out.game
        png = await bot.picture(out.game, out.view, title=title)
        kwargs["file"] = discord.File(fp=io.BytesIO(png), filename=f"{out.game}-{out.game_id}-{out.version}.png")
    if table is not None and table.game is not None and not out.finished:
        view = quick_view(table)
        if view is not None:
            kwargs["view"] = view
    return await channel.send(pieces[-1] or "\u200b", **kwargs)


async def send_private(bot: Tablehost, channel: discord.abc.Messageable, out: Outbox, *, where: str) -> list[str]:
    """DMs each player their private lines and changed secrets; returns who could not be reached."""
    unreachable: list[str] = []
    for uid in dict.fromkeys([*out.private, *out.secrets]):
        parts = [f"*{where}*", *out.private.get(uid, [])]
        if uid in out.secrets:
            parts.append(format_secret(out.game, out.secrets[uid]))
        try:
            user = bot.get_user(int(uid)) or await bot.fetch_user(int(uid))
            for piece in chunks("\n".join(parts)):
                await user.send(piece)
        except discord.HTTPException as err:
            if not (isinstance(err, discord.Forbidden) and err.code == DM_CLOSED):
                log.warning("could not DM user %s: %s", uid, err)
            unreachable.append(uid)
    for uid in unreachable:
        name = out.names.get(uid, "a player")
        await channel.send(
            f"I can't send {discord.utils.escape_mentions(discord.utils.escape_markdown(name))} their private"
            f" messages: their DMs are closed. <@{uid}>, use `/game hand` to see yours privately here.",
            # AllowedMentions(users=...) alone still allows @everyone and roles: a display name may hold them
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(uid))], everyone=False, roles=False),
        )
    return unreachable

