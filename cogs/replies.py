"""How every command and button answers: defer at once, deliver a committed change, say "Done.".

Part of the base of ``cogs/`` (with the bot class): refusals and confirmations stay with the
caller (ephemeral), results go to the channel through the stored announcement.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TypeVar

import discord
from discord import app_commands

from cogs.client import Tablehost
from host.deliverer import expected
from host.outbox import Outbox
from host.table import Person

log = logging.getLogger(__name__)

T = TypeVar("T")

Interaction = discord.Interaction[Tablehost]

LIMIT = 1900
"""Characters of one message piece: below Discord's 2,000, leaving room for a mention line."""

JUMP = "https://discord.com/channels/{}/{}/{}"
"""A jump link to a message: guild, channel, message."""


DM_REFUSAL = ("That command works in a server channel with a game; here in DMs: /game mine, rules, help,"
              " and /table notify.")
"""The refusal of a channel's command typed in a DM with the bot."""


def refuse_in_dms(interaction: Interaction, allowed: frozenset[str]) -> bool:
    """Returns True for a command that may run here; raises NoPrivateMessage for a channel's command in a DM."""
    command = interaction.command
    if interaction.guild_id is None and (command is None or command.name not in allowed):
        raise app_commands.NoPrivateMessage(DM_REFUSAL)
    return True


def person(interaction: Interaction) -> Person:
    """Returns the caller as a table person."""
    return Person(str(interaction.user.id), interaction.user.display_name)


async def begin(interaction: Interaction) -> None:
    """Acknowledges at once, privately: refusals stay with the caller, results go to the channel."""
    await interaction.response.defer(ephemeral=True, thinking=True)


ACK_WITHIN = 2.0
"""Seconds an answer may wait for its work before the interaction is acknowledged (Discord allows 3)."""


class Answer:
    """One interaction's private answer: a single callback carrying the result when the work is quick.

    Discord wants a callback within 3 seconds. A move is usually played and shown well within
    that, so the callback itself says what happened: one request where a defer and a follow-up
    took two. Work still running at :data:`ACK_WITHIN` is acknowledged first (a "thinking"
    reply, or an in-place "Working…"), and the answer follows when it is done.

    ``in_place`` answers by editing the clicked message (one only the clicker sees, such as
    a confirmation or a step of a picked move), as Discord lets such a message be edited only
    through its interactions.
    """

    def __init__(self, interaction: Interaction, *, in_place: bool = False) -> None:
        self.interaction, self.in_place = interaction, in_place
        self.deadline = asyncio.get_running_loop().time() + ACK_WITHIN

    async def within(self, work: Awaitable[T]) -> T:
        """Returns the work's result; acknowledges the interaction first if the work outlasts the deadline.

        The work runs as a task of its own: a cancelled answer never cancels a commit halfway.
        """
        task = asyncio.ensure_future(work)
        if not self.interaction.response.is_done():
            done, _ = await asyncio.wait({task}, timeout=max(self.deadline - asyncio.get_running_loop().time(), 0))
            if not done:
                await self._acknowledge()
        return await task

    async def _acknowledge(self) -> None:
        if self.in_place:
            await self.interaction.response.edit_message(content="Working on it…", view=None)
        else:
            await self.interaction.response.defer(ephemeral=True, thinking=True)

    async def say(self, text: str, *, view: discord.ui.View | None = None) -> None:
        """Answers privately: in the callback when none was sent yet, else in a follow-up (or the edited message)."""
        response, extra = self.interaction.response, {} if view is None else {"view": view}
        if not response.is_done():
            if self.in_place:
                await response.edit_message(content=text, view=view)
            else:
                await response.send_message(text, ephemeral=True, **extra)
        elif self.in_place:
            await self.interaction.edit_original_response(content=text, view=view)
        else:
            await self.interaction.followup.send(text, ephemeral=True, **extra)


def channel_of(interaction: Interaction) -> discord.abc.Messageable:
    """Returns the channel the interaction came from."""
    channel = interaction.channel
    assert channel is not None and isinstance(channel, discord.abc.Messageable)
    return channel


async def deliver(interaction: Interaction, out: Outbox) -> None:
    """Sends a committed change's announcement now; on failure it stays stored and is retried."""
    bot = interaction.client
    try:
        await bot.deliverer.deliver(out)
    except BaseException:
        bot.deliverer.kick()
        raise


BUSY = "Discord is busy, so the channel will show it a little late; nothing is lost."
"""Said once, to the player only, when their change's announcement outlasts ``bot.busy_after``."""


async def deliver_patiently(interaction: Interaction, out: Outbox) -> bool:
    """Delivers ``out``, waiting for it at most ``bot.busy_after`` seconds; returns whether it is out.

    Past that wait (Discord is busy and the deliverer waits it out) the delivery goes on in the
    background and False is returned, so the caller tells the player once. Raises what the
    delivery raised when it failed within the wait.
    """
    bot = interaction.client
    delivery = asyncio.ensure_future(deliver(interaction, out))
    try:
        done, _ = await asyncio.wait({delivery}, timeout=bot.busy_after)  # waits without cancelling it
    except BaseException:  # the answer is cancelled: the delivery goes on by itself
        bot.keep(delivery)
        raise
    if not done:
        bot.keep(delivery)
        return False
    delivery.result()  # raises what the delivery raised
    return True


async def answered(interaction: Interaction, out: Outbox) -> None:
    """Records that the player was answered about ``out``: a late delivery then adds no "reply was lost" note."""
    if out.id is None:
        return
    try:
        await interaction.client.tables.store.answered(out.id)
    except Exception as err:  # only the note's accuracy is at stake
        log.warning("announcement %s: could not record that its player was answered (%s)", out.id, err,
                    exc_info=not expected(err))


async def deliver_done(interaction: Interaction, out: Outbox) -> None:
    """Delivers a committed lobby change and says "Done." (never "try again": it happened)."""
    try:
        shown = await deliver_patiently(interaction, out)
    except Exception as err:
        log.warning("table change in game %s committed; its announcement is left to the retries (%s)", out.game_id,
                    err, exc_info=not expected(err))
        await interaction.followup.send(
            "Done, but I could not post it in the channel yet; I'll keep trying. `/game board` shows the table.",
            ephemeral=True,
        )
        await answered(interaction, out)
        return
    done = f"Done. {out.reply}" if out.reply else "Done."
    await interaction.followup.send(done if shown else f"{done} {BUSY}", ephemeral=True)
    if not shown:
        await answered(interaction, out)


def chunks(text: str, limit: int = LIMIT) -> list[str]:
    r"""Splits text into pieces of at most ``limit`` characters, in order.

    Lines stay whole where they fit; a longer line is broken at a space outside
    any `code span`, and only a single word longer than ``limit`` is ever cut.

    >>> chunks("head\n" + " ".join(["`redeem AS KS QS`"] * 3), limit=38)
    ['head', '`redeem AS KS QS` `redeem AS KS QS`', '`redeem AS KS QS`']
    """
    out: list[str] = []
    current = ""
    for line in text.splitlines() or [""]:
        for part in _line_parts(line, limit):
            if current and len(current) + 1 + len(part) <= limit:
                current = f"{current}\n{part}"
            else:
                if current:
                    out.append(current)
                current = part
    out.append(current)
    return out


def _line_parts(line: str, limit: int) -> list[str]:
    """Breaks one line into pieces of at most ``limit`` at spaces outside code spans."""
    if len(line) <= limit:
        return [line]
    words: list[str] = []
    in_code = False
    for word in line.split(" "):
        if in_code and words:
            words[-1] += " " + word  # a code span is one word
        else:
            words.append(word)
        if word.count("`") % 2:
            in_code = not in_code
    parts: list[str] = []
    current = ""
    for word in words:
        while len(word) > limit:  # a single word too long for any piece: cut it
            if current:
                parts.append(current)
                current = ""
            parts.append(word[:limit])
            word = word[limit:]
        if current and len(current) + 1 + len(word) > limit:
            parts.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        parts.append(current)
    return parts
