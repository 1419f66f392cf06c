"""The turn clock's reminder DMs: a new, notifying DM each, with a jump link to the live board.

A reminder's channel part is an ordinary post (its ping included); its DMs are not the
player's hand message (an edit would not notify): each is a message of its own. A player
whose DMs are closed was pinged in the channel, which is enough.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from cogs.hands import where_line
from cogs.replies import JUMP
from host.outbox import Outbox

if TYPE_CHECKING:
    from cogs.client import Tablehost

log = logging.getLogger(__name__)

async def board_link(bot: Tablehost, out: Outbox) -> str | None:
    """Returns the jump link of the game's live board, or None before it has one (or outside a server)."""
    board = await bot.tables.store.board(out.game_id)
    if board is None or out.guild_id is None:
        return None
    return JUMP.format(out.guild_id, out.channel_id, board.message_id)


async def send_reminders(bot: Tablehost, channel: discord.abc.Messageable, out: Outbox, *, title: str) -> None:
    """DMs each reminded player (``out.private``) once, with where the game is and a link to its board."""
    done: dict[str, int] = out.receipt.setdefault("dm", {})
    link = await board_link(bot, out)
    head = where_line(channel, title)
    for n, (uid, lines) in enumerate(out.private.items()):
        if done.get(uid):
            continue
        text = "\n".join([head, *lines, *([f"The board: {link}"] if link else [])])
        try:
            user = bot.get_user(int(uid)) or await bot.fetch_user(int(uid))
            await user.send(text[:2000], nonce=f"th{out.id}r{n}"[:25] if out.id is not None else None)
        except discord.HTTPException as err:
            if not isinstance(err, discord.Forbidden | discord.NotFound):
                raise  # a 5xx or a rate limit: retried from this player on
            log.info("could not DM a reminder to user %s: %s", uid, err.status)
        done[uid] = 1
