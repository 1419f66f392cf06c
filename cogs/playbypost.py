"""Playing by post on Discord: ``/game mine``, ``status``, ``clock``, ``pause``/``resume`` and ``notify``.

The clock itself lives in :mod:`host.timekeeper`; this module is its Discord surface.
Times are shown as Discord timestamps (``<t:…:R>``), which each reader sees in their own
time zone and which count down by themselves. A player's pause or resume that needs the
others is asked in the channel, with an "Agree" button for the other players
(:func:`cogs.prompts.switch`).
"""

from __future__ import annotations

from typing import Any, Literal

from cogs.actions import in_threads, open_table, refused
from cogs.client import refusal
from cogs.replies import JUMP, Interaction, begin, deliver_done, person
from cogs.surface import title_of
from engines import KITS, GameError
from host.clock import ClockRow, ClockSettings
from host.fairness import sealed_line
from host.store import GameRow, Status

OnTimeout = Literal["skip", "forfeit", "bot-easy", "bot-normal", "bot-hard"]
CLOCK_DOCS = {
    "remind_after": "Remind whoever must act after this long, e.g. 12h (default), 90m, 2d",
    "timeout": "Then act for them after this long, e.g. 72h (default)",
    "on_timeout": "skip: the game's least move (default); forfeit: they leave; bot-…: a bot plays their turn",
}
"""The clock's options, described alike on every command that takes them."""
ANOTHER_DOC = "Open another table even if one is waiting in a thread"
"""The ``another`` option of every ``new`` command, described alike."""
BOTS_DOCS = {
    "bots": "Bots to seat at once (0–5)",
    "level": "The bots' level: easy, normal (default) or hard",
}
"""The ``bots`` and ``level`` options of every ``new`` command, described alike."""
Level = Literal["easy", "normal", "hard"]
"""A bot's level, as the commands offer it."""

MINE_LIMIT = 1900
"""Characters of ``/game mine``'s answer before "… and N more"."""


def when(seconds: float, style: str = "R") -> str:
    """Returns a Discord timestamp: ``<t:1700000000:R>`` reads "in 3 days" or "2 hours ago".

    >>> when(1700000000.4), when(1700000000, "f")
    ('<t:1700000000:R>', '<t:1700000000:f>')
    """
    return f"<t:{int(seconds)}:{style}>"


def clock_settings(remind_after: str | None, timeout: str | None, on_timeout: str | None) -> ClockSettings | None:
    """Returns the clock a ``/<game> new`` asks for (None: the defaults); raises GameError for bad values."""
    if remind_after is None and timeout is None and on_timeout is None:
        return None
    return ClockSettings.parse(remind_after=remind_after, timeout=timeout, on_timeout=on_timeout)


async def open_game(
    interaction: Interaction,
    game: str,
    options: dict[str, Any],
    *,
    thread: bool | None,
    remind_after: str | None,
    timeout: str | None,
    on_timeout: str | None,
    another: bool = False,
    bots: int = 0,
    level: str = "normal",
) -> None:
    """Opens a lobby (``/<game> new``) with the clock it asks for; a bad clock value is refused first.

    A lobby of the game waiting in a thread of this channel is pointed to instead, unless ``another``.
    ``bots`` bots of ``level`` are seated as soon as it opens (:func:`cogs.actions.open_table`).
    """
    try:
        clock = clock_settings(remind_after, timeout, on_timeout)
    except GameError as err:
        await interaction.response.send_message(refusal(err), ephemeral=True)
        return
    await open_table(interaction, game, options, thread=thread, clock=clock, another=another, bots=bots,
                     level=level)


def clock_line(row: ClockRow | None) -> str:
    """Returns a game's clock in one line: its settings and where the current turn stands."""
    if row is None:
        return "No turn clock (this game is older than clocks)."
    text = f"Clock: {row.settings.describe()}."
    if row.paused_at is not None:
        return f"{text} ⏸ Paused since {when(row.paused_at)}."
    if row.deadline is not None:
        return f"{text} This turn times out {when(row.deadline)}."
    return text


async def link_of(interaction: Interaction, game: GameRow) -> str:
    """Returns the jump link to a game's live board, else to its channel."""
    board = await interaction.client.tables.store.board(game.id)
    guild = game.guild_id or "@me"
    if board is not None:
        return JUMP.format(guild, game.channel_id, board.message_id)
    return f"https://discord.com/channels/{guild}/{game.channel_id}"


async def mine(interaction: Interaction) -> None:
    """Lists the caller's games everywhere: first those waiting for them (least time left first)."""
    await begin(interaction)
    bot, uid = interaction.client, str(interaction.user.id)
    waiting: list[tuple[float, str]] = []
    others: list[str] = []
    for game in await bot.tables.store.games_of(uid):
        title = title_of(game.game)
        link = await link_of(interaction, game)
        if game.status is Status.LOBBY:
            others.append(f"**{title}**, table open: {link}")
            continue
        try:
            table = await bot.tables.table(game.channel_id)
        except GameError:
            others.append(f"**{title}**: {link}")
            continue
        name = table.name_of(uid)
        row = await bot.timekeeper.clocks.get(game.id)
        if table.game is not None and name in table.game.to_act():
            deadline = row.deadline if row is not None else None
            left = f", times out {when(deadline)}" if deadline else ", clock paused" if row and row.paused_at else ""
            waiting.append((deadline or float("inf"), f"**{title}**: your move{left}. {link}"))
        else:
            acting = ", ".join(table.game.to_act()) if table.game is not None else "nobody"
            others.append(f"**{title}**: waiting for {acting}. {link}")
    if not waiting and not others:
        await interaction.followup.send("You are not playing any game. `/game help` shows how to start one.",
                                        ephemeral=True)
        return
    lines = [line for _, line in sorted(waiting, key=lambda w: w[0])] + others
    head = f"**Your games** ({len(lines)}; {len(waiting)} waiting for you):"
    await interaction.followup.send(_fitted(head, lines), ephemeral=True)


def _fitted(head: str, lines: list[str]) -> str:
    """Returns ``head`` and as many lines as fit in one message, then "… and N more"."""
    text = head
    for n, line in enumerate(lines):
        more = f"\n… and {len(lines) - n} more."
        if len(text) + 1 + len(line) + len(more) > MINE_LIMIT:
            return text + more
        text += "\n" + line
    return text


async def status(interaction: Interaction) -> None:
    """Shows the channel's game: who must act and since when, and its clock."""
    await begin(interaction)
    bot = interaction.client
    try:
        table = await bot.tables.table(str(interaction.channel_id))
    except GameError as err:
        await interaction.followup.send(await refused(interaction, err), ephemeral=True)
        return
    row = await bot.timekeeper.clocks.get(table.row.id)
    lines = [f"**{table.title}** ({table.row.status}): {', '.join(s.name for s in table.seats) or 'nobody seated'}."]
    if table.game is not None and table.row.status is Status.RUNNING:
        since = f" since {when(row.started_at)}" if row is not None and row.started_at else ""
        lines.append(f"To act: {', '.join(table.game.to_act())}{since}.")
    if table.row.status in (Status.LOBBY, Status.RUNNING):
        lines.append(clock_line(row))
    if table.row.sealed:
        lines.append(sealed_line(table.row.sealed, table.row.entropy))
    spectators = await bot.spectators.channels(table.row.id) if hasattr(bot, "spectators") else []
    if spectators:
        lines.append("Spectated in " + ", ".join(f"<#{c}>" for c in spectators) + ".")
    threads = None if table.row.status in (Status.LOBBY, Status.RUNNING) else await in_threads(interaction)
    if threads is not None:  # this channel's own game has ended; its new ones are in threads
        lines.append(threads)
    await interaction.followup.send("\n".join(lines), ephemeral=True)


async def set_clock(
    interaction: Interaction, remind_after: str | None, timeout: str | None, on_timeout: str | None
) -> None:
    """Changes the channel's game clock (its creator)."""
    await begin(interaction)
    if remind_after is None and timeout is None and on_timeout is None:
        game = await interaction.client.tables.store.active_game(str(interaction.channel_id), snapshot=False)
        row = None if game is None else await interaction.client.timekeeper.clocks.get(game.id)
        note = timeout_note(game.game, row) if game is not None else ""
        await interaction.followup.send(clock_line(row) + note, ephemeral=True)
        return
    try:
        out = await interaction.client.timekeeper.configure(
            str(interaction.channel_id), person(interaction), remind_after=remind_after, timeout=timeout,
            on_timeout=on_timeout,
        )
    except GameError as err:
        await interaction.followup.send(refusal(err), ephemeral=True)
        return
    await deliver_done(interaction, out)


def timeout_note(game: str, row: ClockRow | None) -> str:
    """Returns " At a timeout: …", the game's own words (its kit's) for what its clock's policy plays, or ""."""
    kit = KITS.get(game)
    wording = kit.timeout_wording.get(row.settings.on_timeout) if kit is not None and row is not None else None
    return f" At a timeout: {wording}" if wording else ""


async def notify(interaction: Interaction, on: bool) -> None:
    """Turns the caller's reminder DMs on or off (everywhere)."""
    await begin(interaction)
    try:
        await interaction.client.timekeeper.clocks.set_dm_reminders(str(interaction.user.id), on)
    except GameError as err:
        await interaction.followup.send(refusal(err), ephemeral=True)
        return
    text = ("You will get a DM when a game's clock reminds you to move." if on else
            "No more reminder DMs: the clock's reminders still ping you in the game's channel.")
    await interaction.followup.send(text, ephemeral=True)

