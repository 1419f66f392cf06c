"""Moves by clicks: a select menu per step, number buttons for a count, until the move is whole.

A game's surface reads each legal move as steps (:class:`~cogs.surface.Picking`):
``place alaska 3`` is ``("place", "alaska", "3")``, NXS's ``move d4 d5`` is
``("sail", "d4", "d5")``. The live board offers the first step of each kind to the
player who must act: a select menu of its choices (more than 25 take a second menu).
A choice answers that player privately with the next step, in the same message as they
go on. A step whose choices each finish the move becomes buttons when they are few (a
count offers the lowest, 1, 2, 3 and the most). A whole move is played as a button plays it.

custom_id template of a step's menu (version 1)::

    th1s:<game_id>:<version>:<part>:<steps so far, joined by +>

``part`` tells apart the menus of one step on a message. Every choice reloads the game
and checks its id and version, as the buttons do (:mod:`cogs.buttons`); only the player
who must act may choose, and only what is legal now is ever offered.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any

import discord

from cogs.buttons import HandButton, MoveButton, custom_id, fits, quick_moves
from cogs.client import Tablehost, apologise, refusal
from cogs.surface import MAX_BUTTONS, Option, Picking, surface_of
from engines import GameError
from host.store import Status
from host.table import Table

log = logging.getLogger(__name__)

PICK_TEMPLATE = (r"th1s:(?P<game_id>[0-9]{1,18}):(?P<version>[0-9]{1,9}):(?P<part>[0-9]):"
                 r"(?P<steps>[A-Za-z0-9+\-_.,]{1,80})")
MAX_OPTIONS = 25
"""Choices in one select menu (Discord's limit)."""
MAX_ROWS = 5
"""Rows of components on one message (Discord's limit); a select menu fills one."""


@dataclass(frozen=True)
class Step:
    """What comes after some steps of a move: choices, number buttons, or the whole move."""

    steps: tuple[str, ...]
    question: str = ""
    options: tuple[Option, ...] = ()
    numbers: tuple[tuple[str, str], ...] = ()
    """``(label, move)`` buttons when each choice finishes the move and they are few (a count, say)."""
    move: str | None = None
    """The move, when the steps make one and nothing may follow."""


@dataclass
class Menu:
    """The components of a step, ready for a message (selects first, then buttons)."""

    selects: list[discord.ui.Item[Any]] = field(default_factory=list)
    buttons: list[discord.ui.Item[Any]] = field(default_factory=list)


def picking_of(table: Table) -> Picking | None:
    """Returns how the table's game is picked by clicks, or None for a game that is not."""
    return surface_of(table.row.game).picking


def moves_by_steps(table: Table, player: str) -> dict[tuple[str, ...], str]:
    """Returns each legal move of ``player`` that is picked by clicks, keyed by its steps."""
    picking = picking_of(table)
    if picking is None or table.game is None:
        return {}
    out: dict[tuple[str, ...], str] = {}
    for move in table.game.legal_moves(player):
        steps = picking.steps(move)
        if steps:
            out.setdefault(steps, move)
    return out


def counts(values: list[int]) -> list[int]:
    """Returns the counts offered as buttons: all of them when few, else the lowest, 1, 2, 3 and the most.

    >>> counts([1, 2, 3, 4, 5, 6]), counts(list(range(8))), counts([2, 3]), counts([4, 5, 6, 7, 8, 9])
    ([1, 2, 3, 6], [0, 1, 2, 3, 7], [2, 3], [4, 9])
    """
    if len(values) <= MAX_BUTTONS:
        return sorted(values)
    wanted = {min(values), 1, 2, 3, max(values)}
    return sorted(v for v in set(values) if v in wanted)


def next_step(
    table: Table, player: str, steps: tuple[str, ...], by_steps: dict[tuple[str, ...], str] | None = None
) -> Step | None:
    """Returns what follows ``steps`` for ``player`` now, or None when no legal move begins so.

    ``by_steps`` is :func:`moves_by_steps` when the caller has it already.
    """
    picking = picking_of(table)
    if picking is None:
        return None
    by_steps = moves_by_steps(table, player) if by_steps is None else by_steps
    n = len(steps)
    below = [path for path in by_steps if path[:n] == steps and len(path) > n]
    if not below:
        whole = by_steps.get(steps)
        return Step(steps, move=whole) if whole is not None else None
    tokens = list(dict.fromkeys(path[n] for path in below))
    question = picking.prompt(table, player, steps)
    going_on = prefixes(below, n + 1)  # the choices after which the move goes on
    whole = all((*steps, t) in by_steps and (*steps, t) not in going_on for t in tokens)
    if whole and all(t.isdigit() for t in tokens):  # a count: the lowest, 1, 2, 3 and the most
        tokens = [str(v) for v in counts([int(t) for t in tokens])]
    offered = [o for o in picking.options(table, player, steps, tokens) if o.token in set(tokens)]
    if whole and len(offered) <= MAX_BUTTONS:  # few choices that each finish the move: one click each
        return Step(steps, question, numbers=tuple((o.label, by_steps[(*steps, o.token)]) for o in offered))
    return Step(steps, question, options=tuple(offered))


def prefixes(paths: list[tuple[str, ...]], length: int) -> set[tuple[str, ...]]:
    """Returns the first ``length`` steps of each path longer than that."""
    return {path[:length] for path in paths if len(path) > length}


def first_steps(table: Table, player: str) -> list[Step]:
    """Returns the first step of each kind of move ``player`` may pick now, in the order of the legal moves."""
    by_steps = moves_by_steps(table, player)  # the legal moves, listed once for every kind
    kinds = list(dict.fromkeys(path[0] for path in by_steps))
    return [step for kind in kinds if (step := next_step(table, player, (kind,), by_steps)) is not None]


def menu(game_id: int, version: int, step: Step, *, room: int = MAX_ROWS) -> Menu:
    """Returns a step's number buttons, or its select menus (as many as its choices need, within ``room`` rows)."""
    out = Menu()
    out.buttons = [MoveButton(game_id, version, move, label=label) for label, move in step.numbers
                   if fits(custom_id(game_id, version, move))]
    pages = [step.options[i:i + MAX_OPTIONS] for i in range(0, len(step.options), MAX_OPTIONS)]
    if not fits(select_id(game_id, version, 0, step.steps), PICK_TEMPLATE):
        log.warning("steps %s do not fit a custom_id: left to typing", step.steps)
        return out
    for part, page in enumerate(pages[:room]):
        question = step.question if len(pages) == 1 else f"{step.question} ({part + 1} of {len(pages)})"
        out.selects.append(PickSelect(game_id, version, part, step.steps, list(page), placeholder=question))
    return out


def select_id(game_id: int, version: int, part: int, steps: tuple[str, ...]) -> str:
    """Returns the custom_id of a step's menu.

    >>> select_id(12, 40, 0, ("attack", "alaska"))
    'th1s:12:40:0:attack+alaska'
    """
    return f"th1s:{game_id}:{version}:{part}:{'+'.join(steps)}"


def board_view(table: Table, *, hand: bool = False) -> discord.ui.View | None:
    """Returns the live board's components for the one player to act: a menu per kind of move, then buttons.

    The buttons are the counts of a first step that is a count (XISK's invasion), the
    game's quick moves, and "My cards" with ``hand``. They keep their rows; the menus
    take what is left of Discord's five, and a choice that finds no room is left to typing.
    """
    game_id, version = table.row.id, table.row.version
    selects: list[discord.ui.Item[Any]] = []
    counted: list[discord.ui.Item[Any]] = []
    if table.game is not None and len(table.game.to_act()) == 1:
        for step in first_steps(table, table.game.to_act()[0]):
            built = menu(game_id, version, step)
            selects += built.selects
            counted += built.buttons
    quick = [MoveButton(game_id, version, move, label=label) for label, move in quick_moves(table)]
    buttons = [*counted, *quick, *([HandButton()] if hand else [])][: MAX_BUTTONS * MAX_ROWS]
    selects = selects[: MAX_ROWS - _rows(len(buttons))]
    if not buttons and not selects:
        return None
    view = discord.ui.View(timeout=None)
    for item in [*selects, *buttons]:
        view.add_item(item)
    return view


def _rows(buttons: int) -> int:
    """Returns the rows that ``buttons`` buttons fill."""
    return -(-buttons // MAX_BUTTONS)


def step_view(game_id: int, version: int, step: Step) -> discord.ui.View:
    """Returns the private message's components for one step."""
    built = menu(game_id, version, step, room=MAX_ROWS - _rows(len(step.numbers)))
    view = discord.ui.View(timeout=None)
    for item in [*built.selects, *built.buttons]:
        view.add_item(item)
    return view


class PickSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=PICK_TEMPLATE):
    """A select menu of one step's choices: a choice shows the next step, or plays the whole move."""

    def __init__(
        self, game_id: int, version: int, part: int, steps: tuple[str, ...], options: list[Option] | None = None,
        *, placeholder: str = "Choose…",
    ) -> None:
        choices = [
            discord.SelectOption(label=o.label[:100], value=o.token[:100], description=o.description[:100] or None)
            for o in (options or [])[:MAX_OPTIONS]
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=select_id(game_id, version, part, steps),
                placeholder=placeholder[:150],
                options=choices or [discord.SelectOption(label="—", value="—")],
            )
        )
        self.game_id, self.version, self.steps = game_id, version, steps

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Select[Any], match: re.Match[str], /
    ) -> PickSelect:
        """Rebuilds the menu from its custom_id (the choice comes with the interaction)."""
        steps = tuple(match["steps"].split("+"))
        return cls(int(match["game_id"]), int(match["version"]), int(match["part"]), steps)

    async def callback(self, interaction: discord.Interaction[Tablehost]) -> None:  # type: ignore[override]
        """Answers the choice with the next step, or plays the move it completes."""
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        try:
            await choose(interaction, self.game_id, self.version, (*self.steps, str(values[0]) if values else ""))
        except Exception as err:  # a view's errors do not reach the command tree
            await apologise(interaction, err)


def private(interaction: discord.Interaction[Any]) -> bool:
    """Tells whether the clicked message is one only the clicker sees (an ephemeral step)."""
    return interaction.message is not None and interaction.message.flags.ephemeral


async def choose(interaction: discord.Interaction[Tablehost], game_id: int, version: int,
                 steps: tuple[str, ...]) -> None:
    """Answers one choice: refused (stale, not theirs, not legal), the next step, or the move played."""
    bot, channel = interaction.client, str(interaction.channel_id)
    row = await bot.tables.store.active_game(channel, snapshot=False)
    if row is None or row.id != game_id or row.status is not Status.RUNNING:
        await _refuse(interaction, "This game has ended.", stale=True)
        return
    if row.version != version:
        await _refuse(interaction, "This menu is out of date: use the newest board.", stale=True)
        return
    try:
        table = await bot.tables.table(channel)
    except GameError as err:
        await _refuse(interaction, refusal(err))
        return
    player = table.name_of(str(interaction.user.id))
    acting = table.game.to_act() if table.game is not None else []
    if player is None:
        await _refuse(interaction, "Only the players of this game can use its menus.")
        return
    if player not in acting:
        await _refuse(interaction, f"It is {' and '.join(acting) or 'nobody'}'s turn, not yours.")
        return
    step = next_step(table, player, steps)
    if step is None:
        await _refuse(interaction, "That choice is not legal now: the board shows what is.")
        return
    if step.move is not None:
        await bot.play_move(interaction, step.move, button=(game_id, version))
        return
    view = step_view(game_id, version, step)
    if private(interaction):
        await interaction.response.edit_message(content=step.question, view=view)
    else:
        await interaction.response.send_message(step.question, view=view, ephemeral=True)


async def _refuse(interaction: discord.Interaction[Any], text: str, *, stale: bool = False) -> None:
    """Refuses privately; a stale menu on a private step loses its components."""
    if stale and private(interaction):
        await interaction.response.edit_message(content=text, view=None)
    else:
        await interaction.response.send_message(text, ephemeral=True)
