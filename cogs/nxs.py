"""``/nxs``: open an NXS duel and play it with typed, autocompleted moves and rotate buttons.

A turn is a move (or capture) and then a compulsory rotation; after the move step
the turn message carries "Rotate left" / "Rotate right" buttons for the ship just
moved. ``/nxs show <cell>`` answers privately with that ship's moves in yellow and
captures in red.
"""

from __future__ import annotations

import io
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.actions import play_move
from cogs.client import Tablehost, refusal
from cogs.nxs_picks import PICKING
from cogs.playbypost import ANOTHER_DOC, BOTS_DOCS, CLOCK_DOCS, Level, OnTimeout, open_game
from cogs.replies import Interaction
from cogs.rules import show_help, show_rules
from cogs.surface import Surface
from engines import GameError
from engines.core.words import plural
from engines.nxs.view import piece_moves
from host.tables import Table
from render.common import extension


def quick_moves(table: Table, player: str) -> list[tuple[str, str]]:
    """Returns rotate buttons for the ship just moved, when the rotate step is due."""
    assert table.game is not None
    view = table.game.view(None)
    last = view.get("last_move")
    if view["step"] != "rotate" or not last:
        return []
    legal = set(table.game.legal_moves(player))
    out = [(f"Rotate {last['to']} {way}", f"rotate {last['to']} {way}") for way in ("left", "right")]
    return [(label, move) for label, move in out if move in legal]


def instruction(view: dict[str, Any], player: str) -> str | None:
    """Returns the player's step: a turn is a move or capture, then the rotation of the ship that moved.

    >>> instruction({"step": "move", "colours": {"ann": "white"}, "score": {"ann": 3}, "target": {"ann": 10}}, "ann")
    'ann (white): move or capture with a ship, then rotate it (3 of 10 hexes held).'
    >>> instruction({"step": "rotate", "last_move": {"kind": "move", "from": "d4", "to": "d5"}}, "ann")
    'ann: rotate the ship on d5 left or right to end the turn.'
    """
    if view.get("step") == "rotate":
        cell = (view.get("last_move") or {}).get("to")
        return f"{player}: rotate the ship on {cell} left or right to end the turn." if cell else None
    if view.get("step") != "move":
        return None
    colour = (view.get("colours") or {}).get(player)
    held, target = (view.get("score") or {}).get(player), (view.get("target") or {}).get(player)
    seat = f"{player} ({colour})" if colour else player
    score = f" ({held} of {target} hexes held)" if held is not None and target is not None else ""
    return f"{seat}: move or capture with a ship, then rotate it{score}."


def alt_text(title: str, view: dict[str, Any]) -> str:
    """Returns the board picture's alt text: who is to act and at which step, then each side's hexes held of its
    target, ships afloat and ships captured (NXS counts no turn numbers: a turn is named by its player and step).

    >>> print(alt_text("NXS", {"players": ["ann", "bob"], "colours": {"ann": "white", "bob": "black"},
    ...     "step": "move", "turn": "ann", "score": {"ann": 3, "bob": 4}, "target": {"ann": 10, "bob": 10},
    ...     "captured": {"ann": 0, "bob": 1}, "pieces": [{"owner": "ann"}, {"owner": "bob"}, {"owner": "bob"}]}))
    NXS board, move step: ann (white) to act. ann (white) 3 of 10 hexes held, 1 ship, 0 captured;
    bob (black) 4 of 10 hexes held, 2 ships, 1 captured.
    >>> print(alt_text("NXS", {"players": ["ann", "bob"], "result": {"termination": "resign", "winners": ["bob"]}}))
    NXS board: bob won (resign). ann 0 of ? hexes held, 0 ships, 0 captured; bob 0 of ? hexes held, 0 ships,
    0 captured.
    """
    colours, result = view.get("colours") or {}, view.get("result")

    def seat(player: str) -> str:
        return f"{player} ({colours[player]})" if player in colours else player

    if result:
        winners = " and ".join(result.get("winners") or [])
        head = f"{title} board: {f'{winners} won' if winners else 'a draw'} ({result.get('termination')})."
    else:
        step, acting = view.get("step"), view.get("turn")
        head = f"{title} board, {step} step" + (f": {seat(acting)} to act." if acting else ".")
    score, target, captured = view.get("score") or {}, view.get("target") or {}, view.get("captured") or {}
    pieces = view.get("pieces") or []
    sides = [f"{seat(p)} {score.get(p, 0)} of {target.get(p, '?')} hexes held,"
             f" {plural(sum(1 for x in pieces if x.get('owner') == p), 'ship')}, {captured.get(p, 0)} captured"
             for p in view.get("players") or []]
    return head + (f" {'; '.join(sides)}." if sides else "")


@app_commands.guild_only()
class NxsCog(commands.GroupCog, group_name="nxs", group_description="NXS: a two-player duel of sailing ships"):
    """The NXS commands: ``new``, ``move``, ``capture``, ``rotate``, ``show``, ``resign``."""

    def __init__(self, bot: Tablehost) -> None:
        self.bot = bot
        super().__init__()

    async def _table(self, interaction: Interaction) -> Table | None:
        try:
            table = await self.bot.tables.table(str(interaction.channel_id))
        except GameError:
            return None
        return table if table.row.game == "nxs" and table.game is not None else None

    async def _in_lobby(self, interaction: Interaction) -> bool:
        """True when the channel's table is an NXS game still in its lobby."""
        try:
            table = await self.bot.tables.table(str(interaction.channel_id))
        except GameError:
            return False
        return table.row.game == "nxs" and table.row.status == "lobby"

    async def _legal(self, interaction: Interaction, kind: str) -> list[list[str]]:
        table = await self._table(interaction)
        name = table.name_of(str(interaction.user.id)) if table else None
        if table is None or table.game is None or name is None:
            return []
        return [m.split() for m in table.game.legal_moves(name) if m.startswith(kind + " ")]

    @staticmethod
    def _choices(cells: list[str], current: str) -> list[app_commands.Choice[str]]:
        needle = current.strip().lower()
        return [app_commands.Choice(name=c, value=c) for c in dict.fromkeys(cells) if c.startswith(needle)][:25]

    # -- commands ---------------------------------------------------------------------

    @app_commands.command(name="rules", description="The rules of NXS in short (only you see it)")
    async def rules(self, interaction: Interaction) -> None:
        """Shows the rules summary, paged."""
        await show_rules(interaction, "nxs")

    @app_commands.command(name="help", description="The NXS commands and moves (only you see it)")
    async def help(self, interaction: Interaction) -> None:
        """Shows this game's help."""
        await show_help(interaction, "nxs")

    @app_commands.command(name="new", description="Open an NXS table in this channel")
    @app_commands.describe(
        layout="Starting layout: short (7 ships), medium (10) or long (13)",
        target="Hexes of the enemy board a player must hold to win (default 10)",
        white_target="Handicap: a different target for white (the first seat)",
        black_target="Handicap: a different target for black (the second seat)",
        **BOTS_DOCS,
        thread="Play in a thread of its own (default: yes, where I may create threads)",
        **CLOCK_DOCS,
        another=ANOTHER_DOC,
    )
    async def new(
        self,
        interaction: Interaction,
        layout: Literal["short", "medium", "long"] = "medium",
        target: app_commands.Range[int, 1, 37] = 10,
        white_target: app_commands.Range[int, 1, 37] | None = None,
        black_target: app_commands.Range[int, 1, 37] | None = None,
        bots: app_commands.Range[int, 0, 5] = 0,
        level: Level = "normal",
        thread: bool | None = None,
        remind_after: str | None = None,
        timeout: str | None = None,
        on_timeout: OnTimeout | None = None,
        another: bool = False,
    ) -> None:
        """Opens an NXS lobby with the caller seated."""
        handicap = {k: v for k, v in (("white", white_target), ("black", black_target)) if v is not None}
        options: dict[str, Any] = {"layout": layout, "target": target, "handicap": handicap}
        await open_game(interaction, "nxs", options, thread=thread, remind_after=remind_after, timeout=timeout,
                        on_timeout=on_timeout, another=another, bots=bots, level=level)

    @app_commands.command(name="move", description="Slide a ship along one of its arrows")
    async def move(self, interaction: Interaction, origin: str, destination: str) -> None:
        """Plays ``move <from> <to>``."""
        await play_move(interaction, f"move {origin} {destination}", game="nxs")

    @app_commands.command(name="capture", description="Jump through a bold corner onto an enemy ship")
    async def capture(self, interaction: Interaction, origin: str, destination: str) -> None:
        """Plays ``capture <from> <to>``."""
        await play_move(interaction, f"capture {origin} {destination}", game="nxs")

    @app_commands.command(name="rotate", description="Turn a ship one facing (the ship just moved by default)")
    async def rotate(
        self, interaction: Interaction, direction: Literal["left", "right"], cell: str | None = None
    ) -> None:
        """Plays ``rotate <cell> left|right``."""
        if cell is None:
            table = await self._table(interaction)
            last = table.game.view(None).get("last_move") if table and table.game else None
            if not last:
                await interaction.response.send_message("Name the ship to rotate: its cell, like d4.", ephemeral=True)
                return
            cell = str(last["to"])
        await play_move(interaction, f"rotate {cell} {direction}", game="nxs")

    @app_commands.command(name="resign", description="Give the game up")
    async def resign(self, interaction: Interaction) -> None:
        """Plays ``resign``."""
        await play_move(interaction, "resign", game="nxs")

    @app_commands.command(name="show", description="Show a ship's moves (yellow) and captures (red), privately")
    async def show(self, interaction: Interaction, cell: str) -> None:
        """Replies ephemerally with the picture highlighting one ship's options."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = await self._table(interaction)
        if table is None and await self._in_lobby(interaction):
            await interaction.followup.send("The NXS game here has not started yet: its ships are shown once it has"
                                            " (`/game start`).", ephemeral=True)
            return
        if table is None or table.game is None:
            await interaction.followup.send("There is no NXS game in this channel.", ephemeral=True)
            return
        view = table.game.view(None)
        try:
            options = piece_moves(view, cell)
        except GameError as err:
            await interaction.followup.send(refusal(err), ephemeral=True)
            return
        cell = cell.strip().lower()
        png = await self.bot.picture("nxs", view, selected=cell, moves=options["moves"], captures=options["captures"])
        text = f"{cell}: {len(options['moves'])} move(s), {len(options['captures'])} capture(s)."
        await interaction.followup.send(
            text, file=discord.File(io.BytesIO(png), filename=f"nxs-{cell}.{extension(png)}"), ephemeral=True
        )

    # -- autocomplete -----------------------------------------------------------------

    @move.autocomplete("origin")
    async def _move_from(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return self._choices([m[1] for m in await self._legal(interaction, "move")], current)

    @move.autocomplete("destination")
    async def _move_to(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        origin = (getattr(interaction.namespace, "origin", "") or "").strip().lower()
        moves = await self._legal(interaction, "move")
        return self._choices([m[2] for m in moves if not origin or m[1] == origin], current)

    @capture.autocomplete("origin")
    async def _capture_from(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return self._choices([m[1] for m in await self._legal(interaction, "capture")], current)

    @capture.autocomplete("destination")
    async def _capture_to(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        origin = (getattr(interaction.namespace, "origin", "") or "").strip().lower()
        moves = await self._legal(interaction, "capture")
        return self._choices([m[2] for m in moves if not origin or m[1] == origin], current)

    @rotate.autocomplete("cell")
    async def _rotatable(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return self._choices([m[1] for m in await self._legal(interaction, "rotate")], current)

    @show.autocomplete("cell")
    async def _ships(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        table = await self._table(interaction)
        cells = [p["cell"] for p in table.game.view(None)["pieces"]] if table and table.game else []
        return self._choices(cells, current)


SURFACE = Surface(commands=NxsCog, quick_moves=quick_moves, picking=PICKING, instruction=instruction,
                  alt_text=alt_text)
"""NXS on Discord: ``/nxs``, its ships picked by clicks, its rotate buttons, each turn's step, the board's alt text."""
