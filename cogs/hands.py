"""One private hand per player per game: a DM edited in place, a new DM only when it asks for action.

A player's first private message of a game is sent as a DM and remembered (store.hand_message);
every later change of their hand edits that DM, which Discord does not notify. A
new, notifying DM goes out only when the game says the player must act on their
hand (its surface's ``hand_alert``, e.g. XISK: five cards in their Supply phase). Each DM names
the server and the channel with a jump link. When a player's DMs are closed
(403, code 50007) the channel is told so, without the secret, once per announcement.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from cogs.surface import surface_of
from engines import KITS
from host.outbox import Outbox

if TYPE_CHECKING:
    from cogs.client import Tablehost

log = logging.getLogger(__name__)

DM_CLOSED = 50007
LIMIT = 2000

def format_secret(game: str, secret: dict[str, Any]) -> str:
    """Returns a player's private view as message text, written by its game's surface."""
    return surface_of(game).secret_text(secret)


def where_line(channel: object, title: str) -> str:
    """Returns the DM's first line: the game, server and channel, with a jump link.

    >>> class G: name, id = "Cafe", 1
    >>> class C: name, id, guild = "general", 2, G
    >>> where_line(C, "XISK")
    '**XISK** in #general (Cafe): https://discord.com/channels/1/2'
    """
    name = getattr(channel, "name", None)
    guild = getattr(channel, "guild", None)
    place = f"#{name}" if name else "a channel"
    if guild is not None:
        place += f" ({getattr(guild, 'name', 'a server')})"
        link = f"https://discord.com/channels/{guild.id}/{getattr(channel, 'id', 0)}"
        return f"**{title}** in {place}: {link}"
    return f"**{title}** in {place}"


def told_in_reply(out: Outbox, uid: str) -> list[str]:
    """Returns the notes a move sent its own player that their reply carries rather than a DM.

    In a game without hands (Nexohominis) the mover's notes ("K5 is the depot; for the cell
    write cell K5.") belong beside "Played", where they look; a game with hands keeps every
    note in the hand DM, beside the hand it is about ("You draw 2S").
    """
    kit = KITS.get(out.game)
    if uid != out.actor_id or kit is None or kit.engine.HAS_SECRETS:
        return []
    return out.private.get(uid, [])


def hand_message(out: Outbox, uid: str, head: str, notes: list[str]) -> str:
    """Returns the text of a player's hand DM: where, their private view, the latest private notes."""
    parts = [head]
    if uid in out.secrets:
        parts.append(format_secret(out.game, out.secrets[uid]))
    if notes:
        parts.append("*Latest:* " + " ".join(notes))
    text = "\n".join(parts)
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "…"


async def send_hands(bot: Tablehost, channel: discord.abc.Messageable, out: Outbox, *, title: str) -> list[str]:
    """Sends or edits each player's hand DM for an announcement; returns who could not be reached.

    ``out.receipt["dm"]`` marks the players done, so a retry resumes where it stopped.
    """
    done: dict[str, int] = out.receipt.setdefault("dm", {})
    unreachable: list[str] = out.receipt.setdefault("unreachable", [])
    head = where_line(channel, title)
    store = bot.tables.store
    for uid in dict.fromkeys([*out.private, *out.secrets]):
        if done.get(uid) or (uid not in out.secrets and told_in_reply(out, uid)):
            continue
        notes = out.private.get(uid, [])
        text = hand_message(out, uid, head, notes)
        try:
            known = await store.hand_message(out.game_id, uid)
            if known is not None and await _edit(bot, known, text):
                dm_channel: discord.abc.Messageable = bot.get_partial_messageable(int(known[0]))
            else:
                user = bot.get_user(int(uid)) or await bot.fetch_user(int(uid))
                dm = await user.send(text, nonce=f"th{out.id}h{len(done)}"[:25] if out.id is not None else None)
                await store.set_hand_message(out.game_id, uid, str(dm.channel.id), str(dm.id))
                dm_channel = dm.channel
            alert = _alert(out, uid)
            if alert:
                await dm_channel.send(f"{head}\n{alert}", nonce=f"th{out.id}a{len(done)}"[:25] if out.id else None)
            done[uid] = 1
        except discord.HTTPException as err:
            if not isinstance(err, discord.Forbidden | discord.NotFound):
                raise  # a 5xx or a rate limit: retried later from this player on
            if err.code != DM_CLOSED:
                log.warning("could not DM user %s: %s", uid, err.status)
            done[uid] = 1  # nobody can read it: never retried
            unreachable.append(uid)
    await _tell_closed(channel, out, unreachable)
    return unreachable


def _alert(out: Outbox, uid: str) -> str | None:
    name = out.names.get(uid)
    if name is None or uid not in out.secrets or uid not in out.to_act:
        return None
    return surface_of(out.game).alert(out.secrets[uid], out.view or {}, name)


async def _edit(bot: Tablehost, known: tuple[str, str], text: str) -> bool:
    """Edits a hand DM in place, by the (DM channel, message) ids the store kept; False when it is gone.

    No user is fetched and no DM channel opened for it: one request, the edit.
    """
    channel_id, message_id = known
    try:
        await bot.get_partial_messageable(int(channel_id)).get_partial_message(int(message_id)).edit(content=text)
    except (discord.NotFound, discord.Forbidden):
        return False
    return True


async def _tell_closed(channel: discord.abc.Messageable, out: Outbox, unreachable: list[str]) -> None:
    noticed: list[str] = out.receipt.setdefault("noticed", [])
    for k, uid in enumerate(unreachable):
        if uid in noticed:
            continue
        name = out.names.get(uid, "a player")
        await channel.send(
            f"I can't send {discord.utils.escape_mentions(discord.utils.escape_markdown(name))} their private"
            f" messages: their DMs are closed. <@{uid}>, use `/game hand` to see yours privately here.",
            # AllowedMentions(users=...) alone still allows @everyone and roles: a display name may hold them
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(uid))], everyone=False, roles=False),
            nonce=f"th{out.id}n{k}"[:25] if out.id is not None else None,
        )
        noticed.append(uid)
