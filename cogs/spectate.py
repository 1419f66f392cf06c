"""Spectator channels: a game's public posts copied, read-only, into other channels.

``/table spectate to:#channel`` (:mod:`cogs.spectating`; typed in the game's channel, by the game's creator or someone
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
from typing import Any

import aiohttp
import discord

from cogs.client import Tablehost
from host.outbox import Outbox

log = logging.getLogger(__name__)

MAX_CHANNELS = 5
"""Spectator channels one game may have (each costs a copy of every post)."""
COPY_TIMEOUT = 20.0
"""Seconds one copy may take before it is given up (the game's delivery waits for it)."""
UNKNOWN_MESSAGE = 10008
"""Discord's code for a message that was deleted (a copy someone removed: the channel stays)."""
MENTION = re.compile(r"<@!?([0-9]{1,20})>( ?)")
NO_PINGS = discord.AllowedMentions.none()


@dataclass(frozen=True)
class Post:
    """What a copy shows: a public post's text, embed and picture (PNG bytes under ``filename``, with its alt
    text ``description``)."""

    content: str | None = None
    embed: discord.Embed | None = None
    png: bytes | None = None
    filename: str | None = None
    description: str | None = None

    def file(self) -> discord.File | None:
        """Returns the picture as a new upload (with its alt text), or None."""
        if self.png is None:
            return None
        return discord.File(fp=io.BytesIO(self.png), filename=self.filename or "board.png",
                            description=self.description)


def unpinged(text: str, names: Mapping[str, str]) -> str:
    """Returns the text with each mention of a seated player written as their seat name.

    A copy pings no one (it allows no mention); the name reads better than a mention
    that does not notify, and does not highlight the player in a channel they may not follow.

    >>> unpinged("<@12> <@!34> — your moves.", {"12": "Ann_1", "34": "@everyone"})
    'Ann\\\\_1 @\\u200beveryone — your moves.'
    >>> unpinged("<@56>: saved.", {})
    '<@56>: saved.'

    A board's ping followed by the player's step, which names them already, is left out:

    >>> unpinged("<@12> Ann\\\\_1: place 6 chips. <@12> next.", {"12": "Ann_1"})
    'Ann\\\\_1: place 6 chips. Ann\\\\_1 next.'
    """

    def name(match: re.Match[str]) -> str:
        seat = names.get(match[1])
        if not seat:
            return match[0]
        shown = discord.utils.escape_mentions(discord.utils.escape_markdown(seat))
        named_next = match[2] and text.startswith((f"{shown}:", f"{shown} ("), match.end())
        return "" if named_next else shown + match[2]

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
    copy = Post(content, post.embed, post.png, post.filename, post.description)

    async def send(channel_id: str) -> None:
        if await bot.spectators.copy_of(channel_id, source) is not None:
            return  # copied by an earlier try of the announcement
        message = await send_copy(bot, channel_id, copy, nonce=copy_nonce(out, part, channel_id))
        await bot.spectators.set_copy(out.game_id, channel_id, source, str(message.id))

    await _each(bot, out.game_id, send)


async def copy_edit(bot: Tablehost, game_id: int, source_id: int | str, embed: discord.Embed, png: bytes,
                    filename: str, description: str | None = None) -> None:
    """Edits the copies of a live board that was just edited: its new embed and picture (alt text ``description``)."""

    async def edit(channel_id: str) -> None:
        copy = await bot.spectators.copy_of(channel_id, str(source_id))
        if copy is None:
            return  # never copied: the board predates the spectator channel, or its copy failed
        file = discord.File(fp=io.BytesIO(png), filename=filename, description=description)
        await bot.get_partial_messageable(int(channel_id)).get_partial_message(int(copy)).edit(
            embed=embed, attachments=[file]
        )

    await _each(bot, game_id, edit)


async def copy_close(bot: Tablehost, game_id: int, source_id: int | str, description: str | None,
                     shown: dict[str, Any] | None = None) -> None:
    """Closes the copies of a live board whose turn ended: the whole recap, its picture as it was.

    A copy carries the board's own embed, so ``shown`` (the board's embed as Discord last
    returned it) is the copy's too and only its description changes: one request per copy.
    Without it (a board stored before that was kept) each copy is read back first. Either
    way its picture stays the one it shows (nothing is drawn or uploaded again).
    """

    async def close(channel_id: str) -> None:
        copy = await bot.spectators.copy_of(channel_id, str(source_id))
        if copy is None:
            return
        partial = bot.get_partial_messageable(int(channel_id)).get_partial_message(int(copy))
        embeds = [own_picture(shown)] if shown else (await partial.fetch()).embeds[:1]
        if embeds:
            embeds[0].description = description
            await partial.edit(embeds=embeds)

    await _each(bot, game_id, close)


def own_picture(shown: dict[str, Any]) -> discord.Embed:
    """Returns the board's embed for its copy: the picture named as the copy's own attachment.

    Discord returns a board's picture as a link to the board's attachment; the copy uploaded
    the same file under the same name, and a link to another message's file would expire.

    >>> own_picture({"image": {"url": "https://cdn.example/attachments/1/2/xisk-3-4.png?ex=5"}}).image.url
    'attachment://xisk-3-4.png'
    """
    embed = discord.Embed.from_dict(shown)
    url = (shown.get("image") or {}).get("url")
    if url:
        embed.set_image(url="attachment://" + str(url).split("?")[0].rsplit("/", 1)[-1])
    return embed


async def send_copy(bot: Tablehost, channel_id: str, post: Post, *, nonce: str | None = None) -> discord.Message:
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
        await guarded(bot, game_id, channel_id, action)


async def guarded(bot: Tablehost, game_id: int, channel_id: str, action: Callable[[str], Awaitable[None]]) -> bool:
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
