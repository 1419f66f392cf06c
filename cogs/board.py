"""The live board: one channel message per turn, edited in place while the turn goes on.

A turn lasts while the same players must act. The announcement that opens it posts
one message: an embed holding the picture, titled with the game, turn and phase, in
the colour of the player to act, with the ping in the message's content. Each further
move of that turn edits the message: the new picture, and the recap of the whole turn
so far (trimmed from the top with "…"). Every board's footer carries the game's whole
fair-dice commitment, so it stays in sight from the first move to the reveal. When the
players to act change, a new message pings them and opens with a one-line summary of
the turn that ended, and the previous board loses its buttons, however its last move was made.

A game may make a board last longer than one set of players to act (its surface's ``turn_key``):
a Nexohominis board lasts a phase, its alternating activations edited in. Then a change
of player within it pings no one who is at the table; a player who is away (see
:attr:`~host.outbox.Outbox.away`) gets a new board and a ping, as at a turn's start.

Where the board is lives in the store with the game, so after a restart the next move
edits the same message (or posts anew if it was deleted). A burst of moves is
coalesced: a move whose announcement already has a newer one waiting in the same turn
only adds to the recap, and the newest edits the message once.

Each post, edit and close of a board is done to its copies in the game's spectator
channels too (:mod:`cogs.spectate`), with the picture just drawn, and no buttons or pings.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from cogs import spectate
from cogs.buttons import quick_view
from cogs.prompts import rematch_view
from cogs.surface import surface_of
from host.fairness import sealed_line
from host.outbox import Outbox
from host.store import Board
from host.tables import Table
from render.common import player_style

if TYPE_CHECKING:
    from cogs.client import Tablehost

log = logging.getLogger(__name__)

RECAP_LIMIT = 3500
"""Characters of recap in the embed (Discord allows 4,096 in a description)."""
SUMMARY_LIMIT = 300
"""Characters of the one-line summary of the last turn."""

def turn_key(out: Outbox) -> tuple[str, ...]:
    """Returns what the announcement's board is for: its game surface's turn key, else who must act."""
    return surface_of(out.game).board_key(out)


def trimmed(lines: list[str], limit: int) -> str:
    """Returns the lines joined, dropping the oldest (marked "…") until they fit in ``limit``.

    >>> trimmed(["one", "two", "three"], 12)
    '…\\ntwo\\nthree'
    """
    text = "\n".join(lines)
    start = 0
    while len(text) > limit and start < len(lines) - 1:
        start += 1
        text = "\n".join(["…", *lines[start:]])
    return text if len(text) <= limit else "…" + text[-(limit - 1) :]


def summary(recap: tuple[str, ...]) -> str:
    """Returns the one line that sums up a finished turn for the next board's opening."""
    if not recap:
        return ""
    line = " · ".join(r.strip() for r in recap if r.strip())
    return line if len(line) <= SUMMARY_LIMIT else line[: SUMMARY_LIMIT - 1] + "…"


def colour(out: Outbox) -> discord.Colour:
    """Returns the colour of the (first) player to act, as the picture draws their seat."""
    seats = list(out.names)
    if out.to_act and out.to_act[0] in seats:
        r, g, b = player_style(seats.index(out.to_act[0])).fill
        return discord.Colour.from_rgb(r, g, b)
    return discord.Colour.dark_grey()


async def show(
    bot: Tablehost,
    channel: discord.abc.Messageable,
    out: Outbox,
    table: Table | None,
    lines: list[str],
    *,
    head: str,
    pings: discord.AllowedMentions,
) -> None:
    """Posts or edits the game's live board for a move (or a start) announcement.

    ``lines`` are this announcement's public lines, ``head`` the ping and notes for
    the content of a new board, ``table`` the game when it is still at ``out``'s
    version (its buttons go on the board), else None.
    """
    store = bot.tables.store
    board = await store.board(out.game_id)
    key = turn_key(out)
    called_back = bool(set(out.mention) & set(out.away))  # someone must act who is not at the table
    same_turn = board is not None and bool(out.to_act) and key == board.actors and not called_back
    if same_turn and board is not None:
        recap = (*board.recap, *lines)
        if await _newer_in_turn(bot, out):  # coalesced: the newest of the burst edits the message
            await store.set_board(out.game_id, Board(board.message_id, board.actors, recap))
            return
        if await _edit(bot, channel, out, table, board.message_id, recap):
            await store.set_board(out.game_id, Board(board.message_id, board.actors, recap))
            out.receipt["edited"] = board.message_id
            return
        recap = tuple(lines)  # the board was deleted: a new one carries this move
    elif board is None:  # the game's first board (its start): its lines open it, they are no one's turn
        message = await _post(bot, channel, out, table, tuple(lines), head=head, pings=pings)
        await store.set_board(out.game_id, Board(str(message.id), key, ()))
        return
    else:  # this move ended the turn: it closes the old board, and the new one opens with its summary
        ended = (*board.recap, *lines) if not out.finished else board.recap
        recap = tuple(lines) if out.finished else ()
        await _close(bot, channel, out.game_id, board.message_id, ended)
        opening = summary(ended)
        if opening:
            head = f"*Last turn:* {opening}\n{head}" if head else f"*Last turn:* {opening}"
    message = await _post(bot, channel, out, table, recap, head=head, pings=pings)
    await store.set_board(out.game_id, Board(str(message.id), key, recap))


async def retire(bot: Tablehost, channel: discord.abc.Messageable, game_id: int) -> None:
    """Removes the buttons of a game's live board (its game was aborted)."""
    board = await bot.tables.store.board(game_id)
    if board is not None:
        await _drop_buttons(channel, board.message_id)


async def _newer_in_turn(bot: Tablehost, out: Outbox) -> bool:
    pending = await bot.tables.store.pending(channel_id=out.channel_id)
    return any(
        o.id is not None and out.id is not None and o.id > out.id and o.game_id == out.game_id
        and o.picture and turn_key(o) == turn_key(out) and not set(o.mention) & set(o.away)
        for o in pending
    )


def _embed(bot: Tablehost, out: Outbox, table: Table | None, recap: tuple[str, ...]) -> tuple[discord.Embed, str]:
    title = table.title if table else out.game.upper()
    view = out.view or {}
    embed = discord.Embed(
        title=surface_of(out.game).title(title, view),
        description=trimmed(list(recap), RECAP_LIMIT) or None,
        colour=colour(out),
    )
    if out.commitment:  # the seed's seal, on every board: a doubtful player finds it whenever they look
        embed.set_footer(text=sealed_line(out.commitment, out.entropy))
    name = f"{out.game}-{out.game_id}-{out.version}.png"
    embed.set_image(url=f"attachment://{name}")
    return embed, name


async def _picture(bot: Tablehost, out: Outbox, table: Table | None) -> bytes:
    return await bot.picture(out.game, out.view or {}, title=table.title if table else None)


def _file(png: bytes, name: str) -> discord.File:
    return discord.File(fp=io.BytesIO(png), filename=name)


def _buttons(table: Table | None, out: Outbox) -> discord.ui.View | None:
    if out.finished:  # a game that ended by its rules offers a rematch
        over = any(e.get("kind") == "game_over" for e in out.events)
        return rematch_view(out.game_id) if over else None
    if table is None or table.game is None:
        return None
    return quick_view(table)


async def _post(
    bot: Tablehost,
    channel: discord.abc.Messageable,
    out: Outbox,
    table: Table | None,
    recap: tuple[str, ...],
    *,
    head: str,
    pings: discord.AllowedMentions,
) -> discord.Message:
    embed, name = _embed(bot, out, table, recap)
    png = await _picture(bot, out, table)
    kwargs: dict[str, Any] = {"embed": embed, "file": _file(png, name), "allowed_mentions": pings}
    view = _buttons(table, out)
    if view is not None:
        kwargs["view"] = view
    nonce = f"th{out.id}b"[:25] if out.id is not None else None
    message = await channel.send(head[:2000] or None, nonce=nonce, **kwargs)
    out.receipt.setdefault("channel", []).append(message.id)
    # the spectator channels get the same post, picture included, without its buttons and pings
    await spectate.copy_post(bot, out, message.id, spectate.Post(head[:2000], embed, png, name), part="b")
    return message


async def _edit(
    bot: Tablehost,
    channel: discord.abc.Messageable,
    out: Outbox,
    table: Table | None,
    message_id: str,
    recap: tuple[str, ...],
) -> bool:
    """Edits the live board; returns False when it is gone (deleted), so a new one is posted."""
    embed, name = _embed(bot, out, table, recap)
    partial = _partial(channel, message_id)
    if partial is None:
        return False
    png = await _picture(bot, out, table)
    try:
        await partial.edit(embed=embed, attachments=[_file(png, name)], view=_buttons(table, out))
    except discord.NotFound:
        return False
    await spectate.copy_edit(bot, out.game_id, message_id, embed, png, name)
    return True


async def _drop_buttons(channel: discord.abc.Messageable, message_id: str) -> None:
    partial = _partial(channel, message_id)
    if partial is None:
        return
    try:
        await partial.edit(view=None)
    except (discord.NotFound, discord.Forbidden) as err:  # deleted, or no longer ours to edit
        log.info("could not remove the buttons of board %s: %s", message_id, err.status)


async def _close(
    bot: Tablehost, channel: discord.abc.Messageable, game_id: int, message_id: str, recap: tuple[str, ...]
) -> None:
    """Ends a turn's board: its whole recap, and no buttons (its picture stays as the turn left it).

    Its copies in spectator channels get the same recap, even when the board itself is gone.
    """
    description = trimmed(list(recap), RECAP_LIMIT) or None
    partial = _partial(channel, message_id)
    if partial is not None:
        try:
            message = await partial.fetch()
            embeds = message.embeds[:1]
            if embeds:
                embeds[0].description = description
            await partial.edit(embeds=embeds, view=None)
        except (discord.NotFound, discord.Forbidden) as err:  # deleted, or no longer ours to edit
            log.info("could not close board %s: %s", message_id, err.status)
    await spectate.copy_close(bot, game_id, message_id, description)


def _partial(channel: discord.abc.Messageable, message_id: str) -> discord.PartialMessage | None:
    get = getattr(channel, "get_partial_message", None)
    return get(int(message_id)) if get is not None else None
