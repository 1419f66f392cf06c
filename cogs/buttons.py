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

from cogs.client import Tablehost, apologise
from cogs.surface import GIVE_UP, MAX_BUTTONS, default_quick_moves, gives_up, surface_of
from host.table import Table

TEMPLATE = r"th1:(?P<game_id>[0-9]{1,18}):(?P<version>[0-9]{1,9}):(?P<move>[A-Za-z0-9+\-_.,]{1,80})"

ENDS = frozenset({"end", "pass"})
"""First words of moves that end a turn or phase: confirmed when other moves are still legal."""


def confirmation(table: Table, player: str, move: str) -> str | None:
    """Returns the question to ask before ``move``, or None when it needs no confirmation.

    A move that gives up asks always; one that ends a turn or phase asks when
    the player could still do something else.
    """
    if gives_up(move):
        return f"`{move.strip()[:60]}` cannot be taken back. Play it?"
    words = move.split()
    if table.game is None or not words or words[0].lower() not in ENDS or player not in table.game.to_act():
        return None
    others = [m for m in table.game.legal_moves(player) if m.split()[0] not in ENDS and not gives_up(m)]
    if not others:
        return None
    return f"`{words[0].lower()}` now? You could still make {len(others)} other move{'s' if len(others) != 1 else ''}."


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
    if len(cid) > 100 or not re.fullmatch(CONFIRM_TEMPLATE, cid):
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(game_id, version, move))
    view.add_item(CancelButton())
    return view


def quick_view(table: Table) -> discord.ui.View | None:
    """Returns the buttons for the one player who must act now, or None."""
    if table.game is None or len(table.game.to_act()) != 1:
        return None
    player = table.game.to_act()[0]
    moves = surface_of(table.row.game).buttons(table, player)[:MAX_BUTTONS]
    version = table.row.version
    moves = [  # a button whose id the template cannot read would never be answered
        (label, move)
        for label, move in moves
        if len(cid := custom_id(table.row.id, version, move)) <= 100 and re.fullmatch(TEMPLATE, cid)
    ]
    if not moves:
        return None
    view = discord.ui.View(timeout=None)
    for label, move in moves:
        view.add_item(MoveButton(table.row.id, version, move, label=label))
    return view


__all__ = ["ENDS", "GIVE_UP", "MAX_BUTTONS", "CancelButton", "ConfirmButton", "MoveButton", "MoveSelect",
           "confirm_view", "confirmation", "custom_id", "default_quick_moves", "gives_up", "hand_view",
           "quick_view"]
