"""Buttons that play a move and survive restarts.

custom_id template (version 1), written down here once::

    th1:<game_id>:<version>:<move>

``game_id`` is the store's game id, ``version`` the number of moves played when
the button was posted, and ``move`` the move in canonical notation with spaces
written as ``+`` (letters, digits and ``+-_.,``; at most 80 characters, and
100 for the whole id, Discord's limit). Every click
reloads the game from the store. A click on a game that is no longer running
answers "this game has ended", and one on an older position "this button is out
of date"; both reply ephemerally and remove the buttons from that message.

A UI piece (see :mod:`cogs`): a click plays its move through the bot
(:meth:`~cogs.client.Tablehost.play_move`), never by importing a command module.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.client import Tablehost, apologise, refusal
from cogs.replies import chunks
from cogs.surface import GIVE_UP, MAX_BUTTONS, default_quick_moves, gives_up, surface_of
from engines import GameError
from host.store import Status
from host.table import Table
from host.tables import secret_part

TEMPLATE = r"th1:(?P<game_id>[0-9]{1,18}):(?P<version>[0-9]{1,9}):(?P<move>[A-Za-z0-9+\-_.,]{1,80})"

def confirmation(move: str) -> str | None:
    """Returns the question to ask before ``move``, or None when it needs no confirmation.

    Only a move that gives something up for good asks (resign, concede, scrap, abort).
    Ending a phase or a turn never does: a rulebook's compulsory steps are never among
    the legal moves while they are due (XISK lists no ``end`` while supply is left, NXS no
    ``move`` while a rotation is owed), so what ``end`` skips is optional by construction.

    >>> confirmation("resign"), confirmation("end")
    ('`resign` cannot be taken back. Play it?', None)
    """
    if gives_up(move):
        return f"`{move.strip()[:60]}` cannot be taken back. Play it?"
    return None


def custom_id(game_id: int, version: int, move: str) -> str:
    """Returns the custom_id of a button that plays ``move`` in game ``game_id`` at ``version``.

    >>> custom_id(12, 40, "attack alaska kamchatka")
    'th1:12:40:attack+alaska+kamchatka'
    """
    return f"th1:{game_id}:{version}:{'+'.join(move.split())}"


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A button that plays one move for whoever clicks it (if it is theirs to play)."""

    def __init__(self, game_id: int, version: int, move: str, *, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or move)[:80],
                style=discord.ButtonStyle.primary,
                custom_id=custom_id(game_id, version, move),
            )
        )
        self.game_id = game_id
        self.version = version
        self.move = move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> MoveButton:
        """Rebuilds the button from its custom_id (after a restart too)."""
        return cls(int(match["game_id"]), int(match["version"]), match["move"].replace("+", " "), label=item.label)

    async def callback(self, interaction: discord.Interaction[Tablehost]) -> None:  # type: ignore[override]
        """Plays the move through the same path as a slash command."""
        try:
            await interaction.client.play_move(interaction, self.move, button=(self.game_id, self.version))
        except Exception as err:  # a view's errors do not reach the command tree
            await apologise(interaction, err)


CONFIRM_TEMPLATE = r"th1y:(?P<game_id>[0-9]{1,18}):(?P<version>[0-9]{1,9}):(?P<move>[A-Za-z0-9+\-_.,]{1,80})"


class ConfirmButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CONFIRM_TEMPLATE):
    """The "Yes" of a confirmation: plays its move at the position it was asked at."""

    def __init__(self, game_id: int, version: int, move: str, *, label: str = "Yes, play it") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.danger,
                custom_id=f"th1y:{game_id}:{version}:{'+'.join(move.split())}",
            )
        )
        self.game_id, self.version, self.move = game_id, version, move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> ConfirmButton:
        """Rebuilds the button from its custom_id (after a restart too)."""
        return cls(int(match["game_id"]), int(match["version"]), match["move"].replace("+", " "))

    async def callback(self, interaction: discord.Interaction[Tablehost]) -> None:  # type: ignore[override]
        """Plays the confirmed move, if the game is still where it was asked."""
        try:
            await interaction.client.play_move(interaction, self.move, button=(self.game_id, self.version),
                                               confirmed=True)
        except Exception as err:
            await apologise(interaction, err)


class CancelButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"th1n"):
    """The "No" of a confirmation: nothing is played."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Cancel", style=discord.ButtonStyle.secondary, custom_id="th1n"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> CancelButton:
        """Rebuilds the button."""
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Replaces the question with "Nothing was played."."""
        await interaction.response.edit_message(content="Cancelled: nothing was played.", view=None)


PICK_TEMPLATE = r"th1p:(?P<game_id>[0-9]{1,18}):(?P<version>[0-9]{1,9})"


class MoveSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=PICK_TEMPLATE):
    """A select menu of moves (say, the cardsets of a hand): choosing one plays it at that position."""

    def __init__(self, game_id: int, version: int, choices: list[tuple[str, str]] | None = None) -> None:
        options = [discord.SelectOption(label=label[:100], value=move[:100]) for label, move in (choices or [])[:25]]
        super().__init__(
            discord.ui.Select(
                custom_id=f"th1p:{game_id}:{version}",
                placeholder="Choose one to play it",
                options=options or [discord.SelectOption(label="—", value="—")],
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Select[Any], match: re.Match[str], /
    ) -> MoveSelect:
        """Rebuilds the menu from its custom_id (the chosen value comes with the interaction)."""
        return cls(int(match["game_id"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Tablehost]) -> None:  # type: ignore[override]
        """Plays the chosen move through the same path as a button."""
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        try:
            await interaction.client.play_move(interaction, str(values[0]) if values else "",
                                               button=(self.game_id, self.version))
        except Exception as err:
            await apologise(interaction, err)


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"th1h"):
    """"My cards" under a board: shows the clicker their own hand privately, with what they may play from it.

    It is offered whatever the hand holds, so the button itself tells nobody anything.
    """

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="My cards", emoji="🂠", style=discord.ButtonStyle.secondary,
                                           custom_id="th1h"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> HandButton:
        """Rebuilds the button."""
        return cls()

    async def callback(self, interaction: discord.Interaction[Tablehost]) -> None:  # type: ignore[override]
        """Answers as ``/game hand`` does."""
        try:
            await show_hand(interaction)
        except Exception as err:
            await apologise(interaction, err)


async def show_hand(interaction: discord.Interaction[Tablehost]) -> None:
    """Replies privately with the caller's hand in the channel's game, and a menu of what it may play now."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        table = await interaction.client.tables.table(str(interaction.channel_id))
    except GameError as err:
        await interaction.followup.send(refusal(err), ephemeral=True)
        return
    name = table.name_of(str(interaction.user.id))
    if name is None or table.game is None:
        await interaction.followup.send("You have no hand here: you are not playing a started game.", ephemeral=True)
        return
    secret = secret_part(table.game, name)
    text = surface_of(table.row.game).secret_text(secret) if secret else "This game has no hidden cards."
    view, count = hand_view(table, name) if table.row.status is Status.RUNNING else (None, 0)
    pieces = chunks(text)
    for piece in pieces[:-1]:
        await interaction.followup.send(piece, ephemeral=True)
    if view is not None:
        shown = "" if count <= 25 else f" (25 of {count} shown; `/game play` takes any)"
        await interaction.followup.send(f"{pieces[-1]}\nPlay one now{shown}:", view=view, ephemeral=True)
    else:
        await interaction.followup.send(pieces[-1], ephemeral=True)


def hand_view(table: Table, player: str) -> tuple[discord.ui.View | None, int]:
    """Returns the select menu of ``/game hand`` (None when there is nothing to choose) and how many choices exist."""
    choices = surface_of(table.row.game).hand_choices(table, player) if table.game is not None else []
    if not choices:
        return None, 0
    view = discord.ui.View(timeout=None)
    view.add_item(MoveSelect(table.row.id, table.row.version, choices))
    return view, len(choices)


def confirm_view(game_id: int, version: int, move: str) -> discord.ui.View | None:
    """Returns [Yes, play it] [Cancel] for a move, or None when its id would not fit a button."""
    cid = f"th1y:{game_id}:{version}:{'+'.join(move.split())}"
    if not fits(cid, CONFIRM_TEMPLATE):
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(game_id, version, move))
    view.add_item(CancelButton())
    return view


def quick_moves(table: Table) -> list[tuple[str, str]]:
    """Returns the (label, move) buttons for the one player who must act now (none when several must)."""
    if table.game is None or len(table.game.to_act()) != 1:
        return []
    player = table.game.to_act()[0]
    moves = surface_of(table.row.game).buttons(table, player)[:MAX_BUTTONS]
    # a button whose id the template cannot read would never be answered
    return [(label, move) for label, move in moves if fits(custom_id(table.row.id, table.row.version, move))]


def fits(cid: str, template: str = TEMPLATE) -> bool:
    """Tells whether a custom_id fits Discord's 100 characters and reads back by its template (a move button's)."""
    return len(cid) <= 100 and re.fullmatch(template, cid) is not None


__all__ = ["GIVE_UP", "MAX_BUTTONS", "CancelButton", "ConfirmButton", "HandButton", "MoveButton", "MoveSelect",
           "confirm_view", "confirmation", "custom_id", "default_quick_moves", "fits", "gives_up", "hand_view",
           "quick_moves", "show_hand"]
