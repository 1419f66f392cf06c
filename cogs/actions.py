"""What every command does once it has its move or lobby action: defer, call host/, deliver, answer.

Shared by the ``/game`` cog and each game's cog; the buttons reach :func:`play_move` through
the bot (:meth:`cogs.client.Tablehost.play_move`), which the ``/game`` cog points here.
Results go to the channel, refusals and confirmations stay with the caller.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs.buttons import confirm_view, confirmation
from cogs.client import refusal
from cogs.hands import told_in_reply
from cogs.picker import next_step, picking_of, private, step_view
from cogs.replies import (
    BUSY,
    JUMP,
    Answer,
    Interaction,
    answered,
    begin,
    deliver,
    deliver_done,
    deliver_patiently,
    person,
)
from cogs.surface import title_of
from engines import KITS, Game, GameError
from engines.core.ai import has_bots
from host.clock import ClockSettings
from host.deliverer import Unreachable, expected
from host.outbox import Outbox
from host.store import Status
from host.tables import NoGame, Stale

log = logging.getLogger(__name__)

REPLY_LIMIT = 2000
"""Discord's longest message: a reply with the notes of a long move is cut to it."""
THREAD_LINKS = 5
"""Threads a command in their parent channel lists at most."""
THREAD_SCAN = 100
"""Active games in a channel's threads that ``new`` looks through for a waiting lobby of its game."""


async def in_threads(interaction: Interaction) -> str | None:
    """Returns "This channel's games are played in threads: …" linking the active games in threads opened
    from this channel (the newest first), or None when there are none."""
    store = interaction.client.tables.store
    games = await store.games_in_threads_of(str(interaction.channel_id), limit=THREAD_LINKS)
    if not games:
        return None
    links = []
    for row in games:
        seated = len(await store.seats(row.id))
        what = (f"table (lobby, {seated} seated)" if row.status is Status.LOBBY else
                f"game (running, {seated} players)")
        links.append(f"{title_of(row.game)} {what} in <#{row.channel_id}>")
    return f"This channel's games are played in threads: {', '.join(links)}. Run the command there."


async def refused(interaction: Interaction, err: GameError) -> str:
    """Returns a refusal's text; "no game here", in a channel whose threads hold games, points to them instead."""
    if isinstance(err, NoGame):
        threads = await in_threads(interaction)
        if threads is not None:
            return threads
    return refusal(err)


async def waiting_lobby(interaction: Interaction, game: str) -> str | None:
    """Returns where a lobby of ``game`` waits in a thread of this channel (the newest), or None when none does."""
    store = interaction.client.tables.store
    games = await store.games_in_threads_of(str(interaction.channel_id), limit=THREAD_SCAN)
    lobby = next((row for row in games if row.game == game and row.status is Status.LOBBY), None)
    if lobby is None:
        return None
    kit = KITS.get(game)
    again = (f"/{kit.group} new" if kit is not None and kit.group else f"/game new game:{game}") + " another:true"
    title = title_of(game)
    if any(s.player_id == str(interaction.user.id) for s in await store.seats(lobby.id)):
        return (f"Your {title} table is waiting for players in <#{lobby.channel_id}>: start it there (`/game start`)"
                f" once they have joined, or run `{again}` to open a second one.")
    return (f"A {title} table is waiting for players in <#{lobby.channel_id}>: join it there (`/game join`),"
            f" or run `{again}` to open a second one.")


async def open_table(
    interaction: Interaction,
    game: str,
    options: dict[str, Any],
    *,
    thread: bool | None = None,
    clock: ClockSettings | None = None,
    another: bool = False,
    bots: int = 0,
    level: str = "normal",
) -> None:
    """Opens a lobby for ``game`` and announces it (``/<game> new``), with ``bots`` bots of ``level`` seated.

    With ``thread`` (by default, where the bot may create threads) the channel gets one
    line, which starts a public thread named after the game, and the game lives there.
    Where that is not allowed the game stays in the channel, and an explicit request says so.
    A lobby of the same game waiting in one of the channel's threads is pointed to instead,
    and nothing is opened, unless ``another``. More bots than the table has room for beside its
    creator, or bots for a game without any, are refused before anything is opened.
    """
    await begin(interaction)
    if interaction.guild_id is None:
        await interaction.followup.send("Games are played in a server channel, not in DMs.", ephemeral=True)
        return
    bot = interaction.client
    kit = KITS.get(game)
    cls = kit.engine if kit is not None else None
    note = ""
    channel_id = str(interaction.channel_id)
    try:
        if cls is not None:
            cls.check_options(options)  # refused before any thread is made
            if bots:
                check_bots(game, cls, bots)
            waiting = None if another else await waiting_lobby(interaction, game)
            if waiting is not None:  # one table waits already: pointed to, nothing opened
                await interaction.followup.send(waiting, ephemeral=True)
                return
        wanted = bot.threads_by_default if thread is None else thread
        parent_id = None
        if cls is not None and wanted:
            made = await game_thread(interaction, cls.TITLE)
            if made is not None:
                channel_id, parent_id = str(made.id), channel_id
            elif thread:
                note = " I can't create threads here, so the game stays in this channel."
        out = await bot.tables.create(
            channel_id=channel_id,
            guild_id=str(interaction.guild_id) if interaction.guild_id else None,
            game=game,
            creator=person(interaction),
            options=options,
            clock=clock,
            joined=str(interaction.id),
            parent_id=parent_id,
        )
    except GameError as err:
        await interaction.followup.send(refusal(err), ephemeral=True)
        return
    if note:
        out.lines[0] += note  # the opening line; the seal follows it
    if not bots:
        await deliver_done(interaction, out)
        return
    try:
        seated = await bot.tables.add_bot(channel_id, person(interaction), level, bots)
    except GameError as err:  # the table is open all the same: said with its "Done."
        out.reply = " ".join(part for part in (out.reply, f"No bot was seated: {refusal(err)}") if part)
        await deliver_done(interaction, out)
        return
    await deliver_opening(interaction, out)
    seated.reply = out.reply
    await deliver_done(interaction, seated)


def check_bots(game: str, cls: type[Game], bots: int) -> None:
    """Refuses (GameError) ``bots`` bots that a new table of ``game`` (``cls``) could not seat beside its creator."""
    if not has_bots(game):
        raise GameError(f"{cls.TITLE} has no bots yet, so none can be seated.")
    room = cls.MAX_PLAYERS - 1
    if bots > room:
        raise GameError(f"A {cls.TITLE} table seats {cls.MAX_PLAYERS} players: room for {room} bot"
                        f"{'s' if room != 1 else ''} beside you; {bots} asked. Nothing was opened.")


async def deliver_opening(interaction: Interaction, out: Outbox) -> None:
    """Delivers a table's opening before the bots' line that follows it (which answers the player)."""
    try:
        if not await deliver_patiently(interaction, out):
            await answered(interaction, out)
    except Exception as err:  # stored: the bots' delivery, or the retries, send it first
        log.warning("opening of game %s committed; its announcement is left to the retries (%s)", out.game_id, err,
                    exc_info=not expected(err))
        await answered(interaction, out)


async def game_thread(interaction: Interaction, title: str) -> discord.Thread | None:
    """Starts a public thread for a new game from a line in the channel; None where that is not allowed."""
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel) or not interaction.app_permissions.create_public_threads:
        return None
    name = f"{title} — {interaction.user.display_name}"[:100]
    try:
        starter = await channel.send(
            f"{discord.utils.escape_markdown(interaction.user.display_name)} opened a {title} table:"
            " join in the thread.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        return await starter.create_thread(name=name)
    except discord.HTTPException as err:
        log.warning("could not start a thread in channel %s: %s", channel.id, err.status)
        return None


async def live_link(interaction: Interaction, game_id: int) -> str:
    """Returns " (<jump link>)" to a game's live board, or "" when it has none yet."""
    board = await interaction.client.tables.store.board(game_id)
    if board is None or interaction.guild_id is None:
        return ""
    return f" ({JUMP.format(interaction.guild_id, interaction.channel_id, board.message_id)})"


async def elsewhere(interaction: Interaction, err: GameError) -> str:
    """Returns a refusal's text; "no game here" points to the games in this channel's threads, else also links
    the caller's games in other channels."""
    text = refusal(err)
    if not isinstance(err, NoGame):
        return text
    threads = await in_threads(interaction)
    if threads is not None:
        return threads
    games = [g for g in await interaction.client.tables.store.games_of(str(interaction.user.id))
             if g.channel_id != str(interaction.channel_id)]
    if not games:
        return text
    links = ", ".join(f"{title_of(g.game)} in <#{g.channel_id}>" for g in games[:5])
    return f"{text} Your games: {links}."


async def question_for(interaction: Interaction, move: str, game: str | None) -> tuple[str, discord.ui.View] | None:
    """Returns "are you sure?" with Yes/Cancel for a move that needs asking first, else None.

    Nothing is asked about a move that will be refused anyway (no game, another game, not seated, a move
    the rules refuse or cannot read).
    """
    question = confirmation(move)
    if question is None:
        return None
    try:
        table = await interaction.client.tables.table(str(interaction.channel_id))
    except GameError:
        return None  # the move itself will be refused with the reason
    player = table.name_of(str(interaction.user.id))
    running = table.row.status is Status.RUNNING and table.game is not None and not table.game.is_over
    if not running or player is None or (game is not None and table.row.game != game):
        return None
    view = confirm_view(table.row.id, table.row.version, move)
    if view is None:
        return None
    try:  # read and checked first: a move the rules refuse is refused at once, never asked about
        table.game.clone().play(player, move)
    except GameError:
        return None
    return question, view


async def stale_button(interaction: Interaction, button: tuple[int, int]) -> str | None:
    """Returns why a button posted at (game id, version) may no longer play, or None while it may."""
    row = await interaction.client.tables.store.active_game(str(interaction.channel_id), snapshot=False)
    if row is None or row.id != button[0] or row.status is not Status.RUNNING:
        return "This game has ended."
    if row.version != button[1]:
        return "This button is out of date: use the newest message" + await live_link(interaction, row.id) + "."
    return None


async def drop_buttons(interaction: Interaction) -> None:
    """Removes the buttons of the clicked message; a failure (say, it was deleted) is only logged."""
    if interaction.message is None:
        return
    try:
        await interaction.message.edit(view=None)
    except discord.HTTPException as err:
        log.warning("could not remove the buttons of message %s: %s", interaction.message.id, err)


async def play_move(
    interaction: Interaction,
    move: str,
    *,
    button: tuple[int, int] | None = None,
    game: str | None = None,
    confirmed: bool = False,
) -> None:
    """Plays a move for the caller: a private refusal, or the move shown on the live board and "Played".

    ``game`` is set by a game's own commands (``/xisk attack``): in a channel
    running another game the move is refused, never read as that game's notation.

    ``button`` is (game id, version) when the move comes from a button; a stale
    button is refused and its buttons removed. A move that gives something up is
    first asked about (``confirmed`` is its "yes").

    The one callback carries the answer when the move is played and shown in time
    (:class:`~cogs.replies.Answer`). A click on a message only the clicker sees (a
    confirmation, a step of a picked move, the hand menu) is answered in that message.
    A click while the channel's boards wait out their pace (:mod:`cogs.board`) is answered
    before the board shows it: the move is committed, and the player clicks on meanwhile.
    """
    bot = interaction.client
    answer = Answer(interaction, in_place=confirmed or private(interaction))
    stale = await answer.within(stale_button(interaction, button)) if button is not None else None
    if stale:  # a stale button is refused before anything is asked about its move
        await answer.say(stale)
        if not answer.in_place:
            await drop_buttons(interaction)
        return
    asked = None if confirmed else await answer.within(question_for(interaction, move, game))
    if asked is not None:
        await answer.say(asked[0], view=asked[1])
        return
    try:
        out = await answer.within(bot.tables.act(
            str(interaction.channel_id),
            str(interaction.user.id),
            move,
            interaction_id=str(interaction.id),
            for_game=game,
            position=button,
        ))
    except GameError as err:
        await answer.say(await elsewhere(interaction, err))
        if isinstance(err, Stale) and not answer.in_place:
            await drop_buttons(interaction)
        return
    if out.duplicate:
        await answer.say("That move was already played.")
        return
    # The clicked message was the live board at this version: the delivery edits or closes it, new buttons or none
    clicked = interaction.type is discord.InteractionType.component
    if clicked and bot.paced(str(interaction.channel_id)):  # the board waits to show a burst at once: reply first
        text, view = await played(interaction, out, answer.in_place)
        await answer.say(text, view=view)
        await answered(interaction, out)
        try:
            await deliver(interaction, out)
        except Exception:  # committed and told; the announcement is retried
            log.warning("move %s of game %s committed; its announcement is left to the retries", out.version,
                        out.game_id, exc_info=True)
        return
    try:
        shown = await answer.within(deliver_patiently(interaction, out))
    except Exception as err:  # the move is committed; only its announcement is late, and it is retried
        cause = err.__cause__ if isinstance(err, Unreachable) else err
        status = f" ({cause.status})" if isinstance(cause, discord.HTTPException) else ""
        log.warning("move %s of game %s committed; its announcement is left to the retries%s", out.version,
                    out.game_id, status, exc_info=not isinstance(err, Unreachable))
        await answer.say(f"Played `{out.move}`, but I could not post it yet{status}; I'll keep trying."
                         " `/game board` shows the game.")
        await answered(interaction, out)
        return
    text, view = await played(interaction, out, answer.in_place)
    if not shown:
        text = f"{text} {BUSY}"[:REPLY_LIMIT]
    await answer.say(text, view=view)
    if not shown:
        await answered(interaction, out)


async def played(interaction: Interaction, out: Outbox, in_place: bool) -> tuple[str, discord.ui.View | None]:
    """Returns "Played …" and, for a move picked in a private step, that step again at the new position.

    So a player places chip after chip, or attacks again, in the message they are clicking,
    while the live board catches up.
    """
    text = f"Played `{out.move}`."
    if notes := told_in_reply(out, str(interaction.user.id)):  # "K5 is the depot; for the cell write cell K5."
        text = f"{text} {' '.join(notes)}"[:REPLY_LIMIT]
    if not in_place or out.move is None:
        return text, None
    try:
        table = await interaction.client.tables.table(str(interaction.channel_id))
    except GameError:
        return text, None
    picking, player = picking_of(table), table.name_of(str(interaction.user.id))
    steps = picking.steps(out.move) if picking is not None else None
    if not steps or len(steps) < 2 or player is None or table.game is None or player not in table.game.to_act():
        return text, None
    again = next_step(table, player, steps[:-1])
    if again is None or again.move is not None:
        return text, None
    return f"{text} {again.question}", step_view(table.row.id, table.row.version, again)
