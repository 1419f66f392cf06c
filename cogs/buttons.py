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
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from host.tables import Table

if TYPE_CHECKING:
    from cogs.client import Tablehost

TEMPLATE = r"th1:(?P<game_id>[0-9]{1,18}):(?P<version>[0-9]{1,9}):(?P<move>[A-Za-z0-9+\-_.,]{1,80})"
MAX_BUTTONS = 5

QuickMoves = Callable[[Table, str], list[tuple[str, str]]]
QUICK_MOVES: dict[str, QuickMoves] = {}
"""Game name → function giving (label, move) buttons for the player to act; default below."""


GIVE_UP = frozenset({"concede", "resign"})
"""Moves that end the game for the player: typed on purpose, never one misclick on a button."""


def default_quick_moves(table: Table, player: str) -> list[tuple[str, str]]:
    """Returns every legal move (but giving up) as a button when there are few of them, else none.

    A game with secrets gets none: a button is public, and its move may name a hidden
    card (``redeem AS JS 6S``). Such a game's cog registers buttons of its own in QUICK_MOVES.
    """
    assert table.game is not None
    if table.game.HAS_SECRETS:
        return []
    legal = [m for m in table.game.legal_moves(player) if m not in GIVE_UP]
    return [(m.capitalize(), m) for m in legal] if len(legal) <= MAX_BUTTONS else []


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
        from cogs.actions import play_move
        from cogs.client import apologise

        try:
            await play_move(interaction, self.move, button=(self.game_id, self.version))
        except Exception as err:  # a view's errors do not reach the command tree
            await apologise(interaction, err)


def quick_view(table: Table) -> discord.ui.View | None:
    """Returns the buttons for the one player who must act now, or None."""
    if table.game is None or len(table.game.to_act()) != 1:
        return None
    player = table.game.to_act()[0]
    moves = QUICK_MOVES.get(table.row.game, default_quick_moves)(table, player)[:MAX_BUTTONS]
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
