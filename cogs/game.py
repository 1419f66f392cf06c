"""The shared ``/game`` commands: lobby, moves by notation, board, hand, log, abort, status, help.

Records and settings (the clock, spectators, history, replays, exports, ratings, reminder DMs)
are the ``/table`` group (:mod:`cogs.table`), so ``/game`` keeps room under Discord's 25
subcommands; ``/game help`` lists both.

Every command defers within Discord's 3 s window, calls the table service,
draws in a worker thread and answers once. Refusals and engine errors come
back as ephemeral replies with the engine's sentence; nothing changes.
"""

from __future__ import annotations

import io
import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.actions import open_table, play_move, refused
from cogs.buttons import CancelButton, ConfirmButton, HandButton, MoveButton, MoveSelect, show_hand
from cogs.client import Tablehost, refusal
from cogs.picker import PickSelect
from cogs.playbypost import ANOTHER_DOC, BOTS_DOCS, CLOCK_DOCS, Level, OnTimeout, clock_settings, mine, status
from cogs.prompts import AbortButton, RematchButton, VoteButton, abort_view
from cogs.replies import Interaction, begin, channel_of, chunks, deliver_done, deliver_patiently, person, refuse_in_dms
from cogs.rules import check_rules, show_help, show_rules
from cogs.seating import EntropyButton, JoinButton
from cogs.spectating import board_table
from cogs.surface import surface_of, title_of
from cogs.table import TableCog, game_names
from cogs.takeback import TakebackButton, ask
from engines import GAMES, GameError
from host.fairness import OWN_TEXT, sealed_line
from host.options import parse_options
from host.store import Status
from host.tables import Hint, Table
from render.common import extension

log = logging.getLogger(__name__)


IN_DMS = frozenset({"mine", "help", "rules"})
"""The /game commands that also work in a DM with the bot; the others need a server channel."""

DYNAMIC_ITEMS = (MoveButton, ConfirmButton, CancelButton, AbortButton, MoveSelect, HandButton, PickSelect, VoteButton,
                 RematchButton, JoinButton, EntropyButton, TakebackButton)
"""Every button and menu whose custom_id the bot answers, after a restart too."""


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class GameCog(commands.GroupCog, group_name="game", group_description="Play board games in this channel"):
    """Commands every game shares."""

    def __init__(self, bot: Tablehost) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        """Checks every game's rules summary, registers the buttons and points the bot's moves here."""
        check_rules()  # a malformed rules file stops the start, naming the file
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        self.bot.mover = play_move

    async def cog_unload(self) -> None:
        """Takes the buttons and the moves back."""
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        self.bot.mover = None

    async def interaction_check(self, interaction: Interaction) -> bool:  # type: ignore[override]
        """Refuses, in a DM, the commands that act on a channel's game."""
        return refuse_in_dms(interaction, IN_DMS)

    async def _lobby(self, interaction: Interaction, action: str, entropy: str | None = None) -> None:
        await begin(interaction)
        tables, channel = self.bot.tables, str(interaction.channel_id)
        try:
            if action == "join":
                out = await tables.join(channel, person(interaction), joined=str(interaction.id), entropy=entropy)
            elif action == "leave":
                out = await tables.leave(channel, person(interaction))
            else:
                out = await tables.start(channel, person(interaction))
        except GameError as err:
            await interaction.followup.send(await refused(interaction, err), ephemeral=True)
            return
        await deliver_done(interaction, out)

    @app_commands.command(name="new", description="Open a table for a game in this channel")
    @app_commands.describe(
        game="Which game",
        options="Options as name=value, e.g. target=15",
        **BOTS_DOCS,
        thread="Play in a thread of its own (default: yes, where I may create threads)",
        **CLOCK_DOCS,
        another=ANOTHER_DOC,
    )
    async def new(
        self,
        interaction: Interaction,
        game: str,
        options: str | None = None,
        bots: app_commands.Range[int, 0, 5] = 0,
        level: Level = "normal",
        thread: bool | None = None,
        remind_after: str | None = None,
        timeout: str | None = None,
        on_timeout: OnTimeout | None = None,
        another: bool = False,
    ) -> None:
        """Opens a lobby in this channel with the caller seated (or points to one waiting in a thread)."""
        try:
            parsed = parse_options(options)
            clock = clock_settings(remind_after, timeout, on_timeout)
        except GameError as err:
            await interaction.response.send_message(refusal(err), ephemeral=True)
            return
        await open_table(interaction, game.strip().lower(), parsed, thread=thread, clock=clock, another=another,
                         bots=bots, level=level)

    @new.autocomplete("game")
    async def _game_names(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return game_names(current)

    @app_commands.command(name="join", description="Take a seat at this channel's table")
    @app_commands.describe(entropy="Your own randomness: any text (seated already? it replaces yours)")
    async def join(self, interaction: Interaction, entropy: app_commands.Range[str, 1, OWN_TEXT] | None = None) -> None:
        """Seats the caller, with their own part of the game's entropy if they give one."""
        await self._lobby(interaction, "join", entropy)

    @app_commands.command(name="addbot", description="Seat a bot at this channel's table (it plays its turns at once)")
    @app_commands.describe(
        level="easy: close to random; normal: sensible; hard: its strongest within the bots' think budget")
    async def addbot(self, interaction: Interaction, level: Literal["easy", "normal", "hard"] = "normal") -> None:
        """Seats a bot in the lobby."""
        await begin(interaction)
        try:
            out = await self.bot.tables.add_bot(str(interaction.channel_id), person(interaction), level)
        except GameError as err:
            await interaction.followup.send(refusal(err), ephemeral=True)
            return
        await deliver_done(interaction, out)

    @app_commands.command(name="leave", description="Leave this channel's table before it starts")
    async def leave(self, interaction: Interaction) -> None:
        """Unseats the caller."""
        await self._lobby(interaction, "leave")

    @app_commands.command(name="start", description="Start the game with the seated players")
    async def start(self, interaction: Interaction) -> None:
        """Starts the game: first picture, first ping, hands by DM."""
        await self._lobby(interaction, "start")

    @app_commands.command(name="play", description="Play a move in the game's notation")
    @app_commands.describe(move="Your move, e.g. 'end' (suggestions show the legal ones)")
    async def play(self, interaction: Interaction, move: str) -> None:
        """Plays a move typed in notation."""
        await play_move(interaction, move)

    @play.autocomplete("move")
    async def _legal(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            table = await self.bot.tables.table(str(interaction.channel_id))
        except GameError:
            return []
        name = table.name_of(str(interaction.user.id))
        if table.game is None or name is None or table.game.is_over:
            return []
        needle = " ".join(current.lower().split())
        legal = [m for m in table.game.legal_moves(name) if needle in m]
        return [app_commands.Choice(name=m[:100], value=m[:100]) for m in legal[:25]]

    @app_commands.command(name="board", description="Show the current picture of this channel's game")
    async def board(self, interaction: Interaction) -> None:
        """Re-posts the picture of the channel's game (the last one if it has ended, or the one it spectates)."""
        await begin(interaction)
        try:
            table = await board_table(self.bot, str(interaction.channel_id))
        except GameError as err:
            await interaction.followup.send(await refused(interaction, err), ephemeral=True)
            return
        if table.game is None:
            await interaction.followup.send(unstarted_line(table), ephemeral=True)
            return
        view = table.game.view(None)
        png = await self.bot.picture(table.row.game, view, title=table.title)
        alt = surface_of(table.row.game).alt(table.title, view)
        await channel_of(interaction).send(
            discord.utils.escape_mentions(board_caption(table)),
            file=discord.File(fp=io.BytesIO(png), filename=f"{table.row.game}-{table.row.id}.{extension(png)}",
                              description=alt),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await interaction.followup.send("Posted.", ephemeral=True)

    @app_commands.command(name="hand", description="See your hidden cards (only you see the reply)")
    async def hand(self, interaction: Interaction) -> None:
        """Replies ephemerally with the caller's private view."""
        await show_hand(interaction)

    @app_commands.command(name="undo", description="Take back your last move (before anyone else acts)")
    async def undo(self, interaction: Interaction) -> None:
        """Takes back the caller's last move when it revealed nothing and nobody has acted since."""
        await begin(interaction)
        try:
            out = await self.bot.tables.undo(
                str(interaction.channel_id), person(interaction), interaction_id=str(interaction.id)
            )
        except GameError as err:
            await interaction.followup.send(refusal(err), ephemeral=True)
            return
        await deliver_done(interaction, out)

    @app_commands.command(name="takeback", description="Ask the other players to let you take back your last move")
    async def takeback(self, interaction: Interaction) -> None:
        """Asks the table to take back the caller's last move, dice and all (see :mod:`cogs.takeback`)."""
        await ask(interaction)

    @app_commands.command(name="hint", description="Ask the coach for a move when you must act (only you see it)")
    async def hint(self, interaction: Interaction) -> None:
        """Answers the player to act, privately, with the coach's move and why (see :mod:`host.tables_hints`)."""
        await begin(interaction)
        try:
            given = await self.bot.tables.hint(str(interaction.channel_id), person(interaction))
        except GameError as err:
            await interaction.followup.send(await refused(interaction, err), ephemeral=True)
            return
        await interaction.followup.send(hint_text(given), ephemeral=True)  # the mark is committed already
        if given.out is not None:  # the game's first hint: its board says the game is unrated now
            try:
                await deliver_patiently(interaction, given.out)
            except Exception as err:  # stored: the deliverer's retries show it
                log.warning("game %s: the hint's board note is left to the retries (%s)", given.out.game_id, err)

    @app_commands.command(name="log", description="Show the most recent moves")
    @app_commands.describe(count="How many moves (1–25)")
    async def log_(self, interaction: Interaction, count: app_commands.Range[int, 1, 25] = 10) -> None:
        """Replies ephemerally with the last moves in notation."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            table, moves = await self.bot.tables.log(str(interaction.channel_id), last=count)
        except GameError as err:
            await interaction.followup.send(await refused(interaction, err), ephemeral=True)
            return
        names = {s.player_id: discord.utils.escape_markdown(s.name) for s in table.seats}
        lines = [f"`{m.seq:>4}` {names.get(m.player_id, '?')}: `{m.move}`" for m in moves]
        if lines and table.row.sealed:
            lines.insert(0, sealed_line(table.row.sealed, table.row.entropy))
        for piece in chunks(discord.utils.escape_mentions("\n".join(lines) or "No moves yet.")):
            await interaction.followup.send(piece, ephemeral=True)

    @app_commands.command(name="abort", description="End this channel's game for good (creator or channel managers)")
    async def abort(self, interaction: Interaction) -> None:
        """Asks, then aborts the channel's game (see :class:`AbortButton`)."""
        await begin(interaction)
        row = await self.bot.tables.store.active_game(str(interaction.channel_id), snapshot=False)
        if row is None:
            await interaction.followup.send("There is no game in this channel to abort.", ephemeral=True)
            return
        if str(interaction.user.id) != row.creator_id and not interaction.permissions.manage_channels:
            await interaction.followup.send(
                "Only the game's creator or someone with Manage Channels can abort it.", ephemeral=True
            )
            return
        await interaction.followup.send(
            f"Abort the {title_of(row.game)} game for everyone? It cannot be taken back.", view=abort_view(row.id),
            ephemeral=True,
        )

    # -- playing by post -------------------------------------------------------------

    @app_commands.command(name="mine", description="Your games in every server, those waiting for you first")
    async def mine(self, interaction: Interaction) -> None:
        """Lists the caller's games (also in DMs)."""
        await mine(interaction)

    @app_commands.command(name="status", description="This channel's game: who must act, since when, the clock")
    async def status(self, interaction: Interaction) -> None:
        """Shows the game's state and clock."""
        await status(interaction)

    @app_commands.command(name="help", description="This channel's game: its commands and moves (only you see it)")
    async def help(self, interaction: Interaction) -> None:
        """Replies ephemerally, in one message, with the channel's game's help; elsewhere with the games'."""
        row = await self.bot.tables.store.latest_game(str(interaction.channel_id), snapshot=False)
        await show_help(interaction, row.game if row is not None else None)

    @app_commands.command(name="rules", description="A game's rules in short (only you see it)")
    @app_commands.describe(game="Which game (default: this channel's)")
    async def rules(self, interaction: Interaction, game: str | None = None) -> None:
        """Shows a game's rules summary, paged; without ``game``, the channel's game's."""
        if game is None:
            row = await self.bot.tables.store.latest_game(str(interaction.channel_id), snapshot=False)
            if row is None:  # no game here to go by: name them
                names = ", ".join(f"`{name}`" for name in sorted(GAMES)) or "none"
                await interaction.response.send_message(
                    f"Which game? `/game rules game:<name>`; the games here: {names}.", ephemeral=True)
                return
            game = row.game
        await show_rules(interaction, game.strip().lower())

    @rules.autocomplete("game")
    async def _rules_games(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._game_names(interaction, current)


def hint_text(given: Hint) -> str:
    """Returns the hint as its player reads it: "Hint: `add 3` — why", the move as /game play takes it."""
    why = discord.utils.escape_mentions(given.why.strip())
    text = f"Hint: `{given.move}` — {why}" if why else f"Hint: `{given.move}`"
    return f"{text}\nThis game is unrated now: a hint was taken." if given.unrated else text


def board_caption(table: Table) -> str:
    """Returns the line under ``/game board``'s picture: the game's state, and who must act if anyone.

    A finished game names its winners, an aborted one says so; neither has anyone to act.
    """
    assert table.game is not None
    if table.row.status is Status.ABORTED:
        return f"{table.title} — aborted; this is how it stood."
    if table.game.is_over or table.row.status is Status.FINISHED:
        winners = discord.utils.escape_markdown(" and ".join(table.game.winners))
        return f"{table.title} — finished: {winners} won." if winners else f"{table.title} — finished: a draw."
    acting = discord.utils.escape_markdown(", ".join(table.game.to_act()))
    return f"{table.title} — running. To act: {acting}."


async def setup(bot: Tablehost) -> None:
    """Adds the shared cogs, ``/game`` and ``/table`` (discord.py extension entry point)."""
    await bot.add_cog(GameCog(bot))
    await bot.add_cog(TableCog(bot))


def unstarted_line(table: Table) -> str:
    """Returns what ``/game board`` says of a table whose game never started: open, or closed before it began."""
    names = ", ".join(s.name for s in table.seats)
    if table.row.status is Status.LOBBY:
        return f"{table.title} table, not started. Seated: {names or 'nobody yet'}."
    return f"{table.title} table ({table.row.status}): it closed before the game started, so there is no board."
