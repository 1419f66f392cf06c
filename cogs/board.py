"""The live board: one channel message per turn, edited in place while the turn goes on.

A turn lasts while the same players must act. The announcement that opens it posts
one message: an embed holding the picture, titled with the game, turn and phase, in
the colour of the player to act, with the ping in the message's content. Each further
move of that turn edits the message: the new picture, and the recap of the whole turn
so far (trimmed from the top with "…"), with under it the next step of whoever must act
now (:func:`steps`, worded by the game's surface), kept true at every edit. Every board's
footer carries the game's whole fair-dice commitment, so it stays in sight from the first
move to the reveal. When the players to act change, a new message pings them with their
next step in its content ("<@id> Ann: place 6 chips (Supply phase), then attack or end."),
its "Last turn" field sums up the turn that ended (:func:`last_turn`), and the previous
board loses its buttons, however its last move was made; closed, a board keeps its recap
and loses the step.

A game may make a board last otherwise than one set of players to act (its surface's
``turn_key``): a XISK board lasts one numbered turn (so the player who claims last and
plays first gets a board for their turn too), a Nexohominis board a phase, its alternating
activations edited in. Then a change of player within it pings no one who is at the table;
a player who is away (see :attr:`~host.outbox.Outbox.away`) gets a new board and a ping, as
at a turn's start.

A channel's boards are edited at most once every ``bot.edit_every`` seconds (one, by default):
an edit or close that comes sooner waits out the rest of that second, and if more moves landed
meanwhile it leaves the edit to the newest, which shows them all. Discord limits edits per
channel, and a player clicking through placements no longer costs a render, an upload and an
edit a click (the click itself is answered at once, see :func:`cogs.actions.play_move`).

Where the board is lives in the store with the game, so after a restart the next move
edits the same message (or posts anew if it was deleted). A burst of moves is
coalesced: a move whose announcement already has a newer one waiting in the same turn
only adds to the recap, and the newest edits the message once.

Each post, edit and close of a board is done to its copies in the game's spectator
channels too (:mod:`cogs.spectate`), with the picture just drawn, and no buttons or pings.

Every picture carries alt text (its attachment's ``description``, at most 1,024 characters),
worded by the game's surface from the public view alone (:func:`alt_text`): the game, the
turn, who is to act and the counts that matter, never a hand.
"""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from cogs import spectate
from cogs.picker import board_view
from cogs.prompts import rematch_view
from cogs.surface import shorten, surface_of, title_of
from host.fairness import sealed_line
from host.outbox import Outbox
from host.store import Board
from host.tables import Table
from render.common import extension, player_style

if TYPE_CHECKING:
    from cogs.client import Tablehost

log = logging.getLogger(__name__)

RECAP_LIMIT = 3500
"""Characters of recap in the embed (Discord allows 4,096 in a description)."""
FIELD_LIMIT = 1024
"""Characters of the "Last turn" field (Discord's limit on a field's value)."""
EMBED_LIMIT = 6000
"""Characters of one embed, title, description, fields and footer together (Discord's limit)."""
STEP_LIMIT = 300
"""Characters of one player's next step."""
NOW_LIMIT = 500
"""Characters of the next steps under the recap (with :data:`RECAP_LIMIT`, within a description's 4,096)."""
LAST_TURN = "Last turn"
WATCH = "Watch in a browser"
"""The board's link to its game's web page (:mod:`web.app`), when the bot serves them at a public URL."""
"""The name of the field that sums up the turn before."""

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


def last_turn(out: Outbox, ended: Board) -> str:
    """Returns the turn that ended in short, for the next board's "Last turn" field (at most :data:`FIELD_LIMIT`).

    The game's surface sums the turn up from its public events when it can (names escaped here), else the
    turn's recap lines (already escaped) are joined with " · ". Either is shortened at a word's end.
    """
    player = " and ".join(out.names[a] for a in ended.actors if a in out.names)
    own = surface_of(out.game).summary(player, list(ended.events)) if player and ended.events else None
    text = _escaped(own) if own else " · ".join(r.strip() for r in ended.recap if r.strip())
    return shorten(text, FIELD_LIMIT)


def steps(out: Outbox) -> list[str]:
    """Returns the next step of each player who must act after ``out``, as their game words it, escaped for Discord.

    ``out.names`` gives the seat the game knows each player by; a player it does not name is left out.
    """
    surface, view = surface_of(out.game), out.view or {}
    seats = [out.names[uid] for uid in out.to_act if uid in out.names]
    return [shorten(_escaped(surface.step(view, seat)), STEP_LIMIT) for seat in seats]


def _escaped(text: str) -> str:
    """Returns game text with display names shown as typed, never as formatting or a ping."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


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
) -> bool:
    """Posts or edits the game's live board for a move (or a start) announcement.

    ``lines`` are this announcement's public lines, ``head`` the pings, steps and notes for
    the content of a new board, ``table`` the game when it is still at ``out``'s
    version (its buttons go on the board), else None. Returns whether a new board carried
    ``head`` (an edit, or a move a newer one shows, does not: an edit pings no one).
    """
    store = bot.tables.store
    board = await store.board(out.game_id)
    note = await bot.tables.unrated_note(out)  # a hinted game that would be rated says so on its boards
    key = turn_key(out)
    called_back = bool(set(out.mention) & set(out.away))  # someone must act who is not at the table
    same_turn = board is not None and bool(out.to_act) and key == board.actors and not called_back
    kept = tuple(out.events) if surface_of(out.game).turn_summary is not None else ()  # what a summary reads
    if same_turn and board is not None:
        turn = replace(board, recap=(*board.recap, *lines), events=(*board.events, *kept))
        if await _newer_in_turn(bot, out) or (await _paced(bot, out) and await _newer_in_turn(bot, out)):
            await store.set_board(out.game_id, turn)  # coalesced: the newest of the burst edits the message
            return False
        edited = await _edit(bot, channel, out, table, turn, note=note)
        if edited is not None:
            await store.set_board(out.game_id, replace(turn, shown=shown(edited)))
            out.receipt["edited"] = board.message_id
            return False
        fresh = replace(turn, recap=tuple(lines))  # the board was deleted: a new one carries this move
    elif board is None:  # the game's first board (its start): its lines open it, they are no one's turn
        message = await _post(bot, channel, out, table, Board("", key, tuple(lines)), head=head, pings=pings,
                              note=note)
        await store.set_board(out.game_id, Board(str(message.id), key, (), shown=shown(message)))
        return True
    else:  # this move ended the turn: it closes the old board, and the new one sums that turn up
        # a game's last move opens the final board (its lines say how it ended), so the turn before ends without it
        ended = board if out.finished else replace(board, recap=(*board.recap, *lines), events=(*board.events, *kept))
        await _paced(bot, out)
        await _close(bot, channel, out.game_id, board, ended.recap)
        bot.board_edited(out.channel_id)
        fresh = Board("", key, tuple(lines) if out.finished else (), last_turn=last_turn(out, ended))
    message = await _post(bot, channel, out, table, fresh, head=head, pings=pings, note=note)
    await store.set_board(out.game_id, replace(fresh, message_id=str(message.id), shown=shown(message)))
    return True


def shown(message: discord.Message) -> dict[str, Any] | None:
    """Returns a board message's embed as Discord returned it, kept so the board is closed without a fetch."""
    return message.embeds[0].to_dict() if message.embeds else None  # type: ignore[return-value]


async def retire(bot: Tablehost, channel: discord.abc.Messageable, game_id: int) -> None:
    """Removes the buttons of a game's live board (its game was aborted)."""
    board = await bot.tables.store.board(game_id)
    if board is not None:
        await _drop_buttons(channel, board.message_id)


async def _paced(bot: Tablehost, out: Outbox) -> bool:
    """Waits until the channel's boards may be edited again (``bot.edit_every`` after the last edit).

    Returns whether it waited: moves may have landed meanwhile, and the newest shows them all.
    The channel's deliveries wait behind this one, so a burst of clicks makes one edit a window.
    """
    wait = bot.pace_wait(out.channel_id)
    if wait > 0:
        await asyncio.sleep(wait)
    return wait > 0


async def _newer_in_turn(bot: Tablehost, out: Outbox) -> bool:
    pending = await bot.tables.store.pending(channel_id=out.channel_id)
    return any(
        o.id is not None and out.id is not None and o.id > out.id and o.game_id == out.game_id
        and o.picture and turn_key(o) == turn_key(out) and not set(o.mention) & set(o.away)
        for o in pending
    )


def _embed(
    bot: Tablehost, out: Outbox, table: Table | None, board: Board, kind: str = "png", *, note: str | None = None
) -> tuple[discord.Embed, str]:
    """Returns a live board's embed and its picture's file name (extension ``kind``): the title, the recap and the
    step, the turn before; ``note`` (a hinted game's "Unrated: a hint was taken") heads the footer.

    The recap gives way (trimmed from the top) to keep the whole embed within Discord's 6,000 characters.
    """
    title = surface_of(out.game).title(table.title if table else out.game.upper(), out.view or {})
    sealed = sealed_line(out.commitment, out.entropy) if out.commitment else ""
    footer = "\n".join(p for p in (note, sealed) if p)
    now = " ".join(steps(out))
    step = f"**Now:** {shorten(now, NOW_LIMIT)}" if now else ""
    url = bot.web_links.url(out.game_id) if bot.web_links is not None else None
    watch = f"[{WATCH}]({url})" if url else ""
    room = EMBED_LIMIT - len(title) - len(footer) - len(step) - len(watch) - 2
    if board.last_turn:
        room -= len(LAST_TURN) + len(board.last_turn)
    recap = trimmed(list(board.recap), min(RECAP_LIMIT - len(watch) - 1, room))
    embed = discord.Embed(
        title=title, url=url, description="\n".join(p for p in (recap, step, watch) if p) or None, colour=colour(out)
    )
    if board.last_turn:
        embed.add_field(name=LAST_TURN, value=board.last_turn, inline=False)
    if footer:  # the seed's seal, on every board: a doubtful player finds it whenever they look
        embed.set_footer(text=footer)
    name = f"{out.game}-{out.game_id}-{out.version}.{kind}"
    embed.set_image(url=f"attachment://{name}")
    return embed, name


async def _picture(bot: Tablehost, out: Outbox, table: Table | None) -> bytes:
    return await bot.picture(out.game, out.view or {}, title=table.title if table else None)


def alt_text(out: Outbox, table: Table | None) -> str:
    """Returns the board picture's alt text, worded by the game's surface from the public view alone."""
    return surface_of(out.game).alt(table.title if table else title_of(out.game), out.view or {})


def _file(png: bytes, name: str, alt: str) -> discord.File:
    return discord.File(fp=io.BytesIO(png), filename=name, description=alt)


def _buttons(table: Table | None, out: Outbox) -> discord.ui.View | None:
    if out.finished:  # a game that ended by its rules offers a rematch
        over = any(e.get("kind") == "game_over" for e in out.events)
        return rematch_view(out.game_id) if over else None
    if table is None or table.game is None:
        return None
    return board_view(table, hand=bool(surface_of(table.row.game).hand_moves))


async def _post(
    bot: Tablehost,
    channel: discord.abc.Messageable,
    out: Outbox,
    table: Table | None,
    board: Board,
    *,
    head: str,
    pings: discord.AllowedMentions,
    note: str | None = None,
) -> discord.Message:
    png, alt = await _picture(bot, out, table), alt_text(out, table)
    embed, name = _embed(bot, out, table, board, extension(png), note=note)
    kwargs: dict[str, Any] = {"embed": embed, "file": _file(png, name, alt), "allowed_mentions": pings}
    view = _buttons(table, out)
    if view is not None:
        kwargs["view"] = view
    nonce = f"th{out.id}b"[:25] if out.id is not None else None
    message = await channel.send(head[:2000] or None, nonce=nonce, **kwargs)
    out.receipt.setdefault("channel", []).append(message.id)
    # the spectator channels get the same post, picture included, without its buttons and pings
    await spectate.copy_post(bot, out, message.id, spectate.Post(head[:2000], embed, png, name, alt), part="b")
    return message


async def _edit(
    bot: Tablehost,
    channel: discord.abc.Messageable,
    out: Outbox,
    table: Table | None,
    board: Board,
    *,
    note: str | None = None,
) -> discord.Message | None:
    """Edits the live board and returns it as edited; None when it is gone (deleted), so a new one is posted."""
    message_id = board.message_id
    partial = _partial(channel, message_id)
    if partial is None:
        return None
    png, alt = await _picture(bot, out, table), alt_text(out, table)
    embed, name = _embed(bot, out, table, board, extension(png), note=note)
    try:
        edited = await partial.edit(embed=embed, attachments=[_file(png, name, alt)], view=_buttons(table, out))
        bot.board_edited(out.channel_id)
    except discord.NotFound:
        return None
    await spectate.copy_edit(bot, out.game_id, message_id, embed, png, name, alt)
    return edited


async def _drop_buttons(channel: discord.abc.Messageable, message_id: str) -> None:
    partial = _partial(channel, message_id)
    if partial is None:
        return
    try:
        await partial.edit(view=None)
    except (discord.NotFound, discord.Forbidden) as err:  # deleted, or no longer ours to edit
        log.info("could not remove the buttons of board %s: %s", message_id, err.status)


async def _close(
    bot: Tablehost, channel: discord.abc.Messageable, game_id: int, board: Board, recap: tuple[str, ...]
) -> None:
    """Ends a turn's board: its whole recap, and no buttons (its picture stays as the turn left it).

    The embed is the one Discord returned when the board was last posted or edited: one
    request, the edit (a board stored before that was kept is fetched first). Its copies in
    spectator channels get the same recap, even when the board itself is gone.
    """
    message_id = board.message_id
    description = trimmed(list(recap), RECAP_LIMIT) or None
    partial = _partial(channel, message_id)
    if partial is not None:
        try:
            embeds = [discord.Embed.from_dict(board.shown)] if board.shown else (await partial.fetch()).embeds[:1]
            if embeds:
                embeds[0].description = description
            await partial.edit(embeds=embeds, view=None)
        except (discord.NotFound, discord.Forbidden) as err:  # deleted, or no longer ours to edit
            log.info("could not close board %s: %s", message_id, err.status)
    await spectate.copy_close(bot, game_id, message_id, description, board.shown)


def _partial(channel: discord.abc.Messageable, message_id: str) -> discord.PartialMessage | None:
    get = getattr(channel, "get_partial_message", None)
    return get(int(message_id)) if get is not None else None
