"""``/nexo``: open a Nexohominis skirmish and give its orders, one command per kind of order.

Each command's options are suggested from what is legal now (:mod:`cogs.nexo_choices`):
the caller's units, the targets they can attack with the odds, weapons, the unit and
building types they can afford, and positions as ``x,y``, a grid cell (``D7``) or a
"toward" form (``toward K1``, ``cover``). ``/game play`` takes the same orders typed.

A board lasts a phase (:func:`phase_key`, the surface's turn key): the activations of both players
are edited into it, and a player is pinged when a phase hands them the turn, or when
the turn comes back to them while they are away, not on every alternation.

The live board's buttons are only ``done``, ``pass`` and ``end``: nothing that scraps a
piece or concedes, which are typed and then confirmed. ``/nexo show <unit>`` answers
the caller alone with the picture and that unit's reach, ranges and sight lines.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs import nexo_choices as choices
from cogs.actions import play_move
from cogs.client import Tablehost, refusal
from cogs.playbypost import ANOTHER_DOC, BOTS_DOCS, CLOCK_DOCS, Level, OnTimeout, open_game
from cogs.replies import Interaction, begin
from cogs.rules import show_help, show_rules
from cogs.surface import Surface
from engines import GameError
from engines.core.words import plural
from engines.nexo.game import Nexo
from engines.nexo.reach import overlay
from host.outbox import Outbox
from host.tables import Table
from render.common import extension

BUTTON_MOVES = ("done", "pass", "end")
"""The only Nexohominis moves a button may play."""

Choice = app_commands.Choice[str]


def quick_moves(table: Table, player: str) -> list[tuple[str, str]]:
    """Returns Done / Pass / End buttons for those of them that are legal now."""
    assert table.game is not None
    legal = [m for m in table.game.legal_moves(player) if m.split()[0] in BUTTON_MOVES]  # e.g. "done a2"
    return [(move.capitalize(), move) for move in legal]


def phase_of(view: dict[str, Any]) -> tuple[str, ...]:
    """Returns what a Nexohominis turn lasts: one phase of one round (both players' activations).

    A live board lasts one (:func:`phase_key`, kept in the store as text), and so does a replay turn.
    """
    return (f"round {view.get('round')}", str(view.get("phase")))


def phase_key(out: Outbox) -> tuple[str, ...]:
    """Returns the turn a Nexohominis board lasts, from its announcement: one phase of one round."""
    return phase_of(out.view or {})


def board_title(title: str, view: dict[str, Any]) -> str:
    """Returns "Nexohominis · round 2 · Action Phase · bob to act".

    >>> board_title("Nexohominis", {"round": 2, "phase": "action", "turn": "bob"})
    'Nexohominis · round 2 · Action Phase · bob to act'
    """
    parts = [title, f"round {view.get('round', '?')}", f"{str(view.get('phase', '?')).title()} Phase"]
    acting = view.get("initiative") if view.get("phase") == "initiative" else view.get("turn")
    if acting and not view.get("result"):
        parts.append(f"{acting} to act")
    return " · ".join(parts)[:256]


def instruction(view: dict[str, Any], player: str) -> str | None:
    """Returns the player's step in the phase, with the round and what they hold to spend.

    >>> instruction({"round": 2, "phase": "action", "turn": "bob", "players": {"bob": {"passes": 1}}}, "bob")
    'bob: activate a unit, or pass (1 Pass left) — Action Phase, round 2.'
    >>> instruction({"round": 1, "phase": "initiative", "initiative": "ann"}, "ann")
    'ann: you won the initiative: choose who activates first (first me, or first them).'
    """
    phase, side = view.get("phase"), (view.get("players") or {}).get(player) or {}
    where = f"— {str(phase).title()} Phase, round {view.get('round', '?')}"
    if phase == "initiative":
        return f"{player}: you won the initiative: choose who activates first (first me, or first them)."
    if view.get("active"):
        return f"{player}: go on with {view['active']}'s activation, or end it (done {view['active']}) {where}."
    if phase in ("worker", "action"):
        passes = int(side.get("passes") or 0)
        spare = f", or pass ({plural(passes, 'Pass', 'Passes')} left)" if passes else ""
        return f"{player}: activate a {'worker' if phase == 'worker' else 'unit'}{spare} {where}."
    if phase == "production":
        carbonite = side.get("carbonite")
        funds = f" with {carbonite} Carbonite" if carbonite is not None else ""
        return f"{player}: produce units or construct{funds}, then end {where}."
    return None


def alt_text(title: str, view: dict[str, Any]) -> str:
    """Returns the board picture's alt text: the round, the phase, who is to act, then each side's units and
    buildings standing, Carbonite and Energy (all public in Nexohominis).

    >>> print(alt_text("Nexohominis", {"round": 2, "phase": "action", "turn": "bob", "active": "b3",
    ...     "players": {"ann": {"carbonite": 5, "energy_production": 4, "energy_demand": 3},
    ...                 "bob": {"carbonite": 2, "energy_production": 2, "energy_demand": 3, "blackout": True}},
    ...     "models": {"a1": {"owner": "ann"}, "b3": {"owner": "bob"}, "b4": {"owner": "bob"}},
    ...     "buildings": {"x": {"owner": "ann", "wreck": False}, "y": {"owner": "bob", "wreck": True}}}))
    Nexohominis board, round 2, Action Phase: bob to act (activating b3). ann 1 unit, 1 building, 5 Carbonite,
    Energy 4 produced for 3 needed; bob 2 units, 0 buildings, 2 Carbonite, Energy 2 produced for 3 needed
    (Blackout).
    """
    head = f"{title} board, round {view.get('round', '?')}, {str(view.get('phase', '?')).title()} Phase"
    acting = view.get("initiative") if view.get("phase") == "initiative" else view.get("turn")
    if view.get("result"):
        winners = " and ".join(view.get("winners") or [])
        head += f": {f'{winners} won' if winners else 'a draw'} ({view['result']})."
    elif acting:
        head += f": {acting} to act" + (f" (activating {view['active']})." if view.get("active") else ".")
    else:
        head += "."
    models, buildings = (view.get("models") or {}).values(), (view.get("buildings") or {}).values()
    sides = []
    for player, side in (view.get("players") or {}).items():
        units = sum(1 for m in models if m.get("owner") == player)
        standing = sum(1 for b in buildings if b.get("owner") == player and not b.get("wreck"))
        energy = (f", Energy {side.get('energy_production', 0)} produced for {side.get('energy_demand', 0)} needed"
                  + (" (Blackout)" if side.get("blackout") else ""))
        sides.append(f"{player} {plural(units, 'unit')}, {plural(standing, 'building')},"
                     f" {side.get('carbonite', 0)} Carbonite{energy}")
    return head + (f" {'; '.join(sides)}." if sides else "")


Suggest = Callable[[Nexo, str], list[tuple[str, str]]]


ORDER_LINES = 5
"""Orders one ``/nexo orders`` form takes: a modal holds at most five text inputs."""
ORDER_EXAMPLES = ("harvest all", "move a3 toward K5", "shoot a5 b2", "done a4", "pass")


class OrdersModal(discord.ui.Modal, title="Nexohominis orders"):
    """Up to five orders, one a line, played in order as one chain (``;``).

    The chain stops at the first order refused, with its reason; those before it stand, and the
    board is edited once for them all (one move, as ``a; b`` typed in ``/game play`` is).
    """

    def __init__(self) -> None:
        super().__init__(timeout=900)
        self.lines: list[discord.ui.TextInput[OrdersModal]] = []
        for k, example in enumerate(ORDER_EXAMPLES[:ORDER_LINES], start=1):
            line: discord.ui.TextInput[OrdersModal] = discord.ui.TextInput(
                label=f"Order {k}", placeholder=f"e.g. {example}", required=k == 1, max_length=100)
            self.lines.append(line)
            self.add_item(line)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        """Plays the orders typed, in order, as one chain."""
        orders = [line.value.strip() for line in self.lines if line.value and line.value.strip()]
        await play_move(interaction, "; ".join(orders), game="nexo")


@app_commands.guild_only()
class NexoCog(commands.GroupCog, group_name="nexo", group_description="Nexohominis: a two-player skirmish"):
    """``/nexo new``, ``rules``, ``show`` and one command per kind of order."""

    def __init__(self, bot: Tablehost) -> None:
        self.bot = bot
        super().__init__()

    async def _play(self, interaction: Interaction, *words: str | None) -> None:
        await play_move(interaction, " ".join(w.strip() for w in words if w and w.strip()), game="nexo")

    async def _table(self, interaction: Interaction) -> tuple[Table, Nexo] | None:
        """Returns the channel's table and its running Nexohominis game, or None."""
        try:
            table = await self.bot.tables.table(str(interaction.channel_id))
        except GameError:
            return None
        game = table.game
        return (table, game) if isinstance(game, Nexo) and not game.is_over else None

    async def _suggest(self, interaction: Interaction, make: Suggest) -> list[Choice]:
        """Runs a suggestion function for the caller, when it is their turn in this channel's game."""
        found = await self._table(interaction)
        if found is None:
            return []
        table, game = found
        player = table.name_of(str(interaction.user.id))
        if player is None or player not in game.to_act():
            return []
        return [Choice(name=label, value=value) for label, value in make(game, player)]

    def _option(self, interaction: Interaction, name: str) -> str:
        return str(getattr(interaction.namespace, name, None) or "")

    # -- the table --------------------------------------------------------------------

    @app_commands.command(name="rules", description="The rules of Nexohominis in short (only you see it)")
    async def rules(self, interaction: Interaction) -> None:
        """Shows the rules summary, paged."""
        await show_rules(interaction, "nexo")

    @app_commands.command(name="help", description="The Nexohominis commands and moves (only you see it)")
    async def help(self, interaction: Interaction) -> None:
        """Shows this game's help."""
        await show_help(interaction, "nexo")

    @app_commands.command(name="new", description="Open a Nexohominis table in this channel")
    @app_commands.describe(
        battlefield="A preset battlefield, or random (seeded with the game)",
        carbonite="Carbonite each player starts with (default 200)",
        round_limit="End after this many rounds, scored by what survives (default: none)",
        **BOTS_DOCS,
        thread="Play in a thread of its own (default: yes, where I may create threads)",
        **CLOCK_DOCS,
        another=ANOTHER_DOC,
    )
    async def new(
        self,
        interaction: Interaction,
        battlefield: Literal["crossroads", "dust_belt", "random"] = "crossroads",
        carbonite: app_commands.Range[int, 0, 2000] = 200,
        round_limit: app_commands.Range[int, 1, 100] | None = None,
        bots: app_commands.Range[int, 0, 5] = 0,
        level: Level = "normal",
        thread: bool | None = None,
        remind_after: str | None = None,
        timeout: str | None = None,
        on_timeout: OnTimeout | None = None,
        another: bool = False,
    ) -> None:
        """Opens a Nexohominis lobby with the caller seated."""
        options = {"battlefield": battlefield, "carbonite": carbonite, "round_limit": round_limit}
        await open_game(interaction, "nexo", options, thread=thread, remind_after=remind_after, timeout=timeout,
                        on_timeout=on_timeout, another=another, bots=bots, level=level)

    @app_commands.command(name="show", description="The battlefield with one unit's reach, ranges and sight lines")
    @app_commands.describe(unit="Any unit on the battlefield, yours or the enemy's")
    async def show(self, interaction: Interaction, unit: str) -> None:
        """Answers the caller alone with the picture and ``unit``'s Move and Dash reach, ranges and sight."""
        await begin(interaction)
        found = await self._table(interaction)
        if found is None:
            await interaction.followup.send("There is no Nexohominis game running in this channel.", ephemeral=True)
            return
        game = found[1]
        try:
            marks = overlay(game.world(), unit)
        except GameError as err:
            await interaction.followup.send(refusal(err), ephemeral=True)
            return
        png = await self.bot.picture("nexo", game.view(None), overlay=marks)
        reach = "it cannot move now" if not marks["move"] else "shaded: where it can Move; hatched: Dash"
        text = f"**{marks['unit']}**: {reach}. Circles: weapon ranges; lines: enemies it can see, by cover."
        name = f"show-{marks['unit']}.{extension(png)}"
        await interaction.followup.send(text, file=discord.File(io.BytesIO(png), name), ephemeral=True)

    # -- orders -----------------------------------------------------------------------

    @app_commands.command(name="orders", description="Give up to five orders at once, one a line")
    async def orders(self, interaction: Interaction) -> None:
        """Opens :class:`OrdersModal` (a modal must be the first answer), when a game runs here."""
        if await self._table(interaction) is None:
            await interaction.response.send_message("There is no Nexohominis game running in this channel.",
                                                    ephemeral=True)
            return
        await interaction.response.send_modal(OrdersModal())

    @app_commands.command(name="first", description="Initiative: choose who activates first this round")
    async def first(self, interaction: Interaction, who: Literal["me", "them"]) -> None:
        """Plays ``first me|them``."""
        await self._play(interaction, "first", who)

    @app_commands.command(name="move", description="Move a unit: to x,y, a cell like D7, 'toward K1' or 'cover'")
    @app_commands.describe(unit="Your unit", to="Where: x,y, a cell (D7), toward <id>, cover; several for a path")
    async def move(self, interaction: Interaction, unit: str, to: str) -> None:
        """Plays ``move <unit> <to>``."""
        await self._play(interaction, "move", unit, to)

    @app_commands.command(name="dash", description="Dash a unit (Move plus 3\"; no shooting after)")
    @app_commands.describe(unit="Your unit", to="Where: x,y, a cell (D7), toward <id>, cover; several for a path")
    async def dash(self, interaction: Interaction, unit: str, to: str) -> None:
        """Plays ``dash <unit> <to>``."""
        await self._play(interaction, "dash", unit, to)

    @app_commands.command(name="shoot", description="Shoot an enemy you can see (suggestions show the odds)")
    @app_commands.describe(unit="Your unit or turret", target="What to shoot", weapon="Default: its first gun")
    async def shoot(self, interaction: Interaction, unit: str, target: str, weapon: str | None = None) -> None:
        """Plays ``shoot <unit> <target> [<weapon>]``."""
        await self._play(interaction, "shoot", unit, target, weapon)

    @app_commands.command(name="fight", description="Fight an enemy in reach (suggestions show the odds)")
    @app_commands.describe(unit="Your unit", target="What to fight", weapon="Default: its first melee weapon")
    async def fight(self, interaction: Interaction, unit: str, target: str, weapon: str | None = None) -> None:
        """Plays ``fight <unit> <target> [<weapon>]``."""
        await self._play(interaction, "fight", unit, target, weapon)

    @app_commands.command(name="overwatch", description="Overwatch: shoot the first enemy that moves in sight")
    async def overwatch(self, interaction: Interaction, unit: str) -> None:
        """Plays ``overwatch <unit>``."""
        await self._play(interaction, "overwatch", unit)

    @app_commands.command(name="harvest", description="A worker harvests Carbonite from a depot beside it")
    @app_commands.describe(worker="Your worker, or 'all'", depot="The depot (not needed with 'all')")
    async def harvest(self, interaction: Interaction, worker: str, depot: str | None = None) -> None:
        """Plays ``harvest <worker> <depot>`` or ``harvest all``."""
        await self._play(interaction, "harvest", worker, None if worker.strip().lower() == "all" else depot)

    @app_commands.command(name="build", description="A worker adds build points to your site beside it")
    async def build(self, interaction: Interaction, worker: str, building: str) -> None:
        """Plays ``build <worker> <building>``."""
        await self._play(interaction, "build", worker, building)

    @app_commands.command(name="repair", description="A worker repairs your building beside it (costs Carbonite)")
    async def repair(self, interaction: Interaction, worker: str, building: str) -> None:
        """Plays ``repair <worker> <building>``."""
        await self._play(interaction, "repair", worker, building)

    @app_commands.command(name="done", description="End a unit's activation (or activate it doing nothing)")
    async def done(self, interaction: Interaction, unit: str) -> None:
        """Plays ``done <unit>``."""
        await self._play(interaction, "done", unit)

    @app_commands.command(name="pass", description="Spend a Pass: your opponent activates instead")
    async def pass_(self, interaction: Interaction) -> None:
        """Plays ``pass``."""
        await self._play(interaction, "pass")

    @app_commands.command(name="concede", description="Concede the game (asks first: it cannot be taken back)")
    async def concede(self, interaction: Interaction) -> None:
        """Plays ``concede``, once the player has confirmed it."""
        await self._play(interaction, "concede")

    @app_commands.command(name="produce", description="Production: a building produces a unit")
    @app_commands.describe(building="Your building", unit_type="What it produces", position="Default: beside it")
    async def produce(
        self, interaction: Interaction, building: str, unit_type: str, position: str | None = None
    ) -> None:
        """Plays ``produce <building> <unit type> [<pos>]``."""
        await self._play(interaction, "produce", building, unit_type, position)

    @app_commands.command(name="construct", description="Production: start a building site")
    @app_commands.describe(building_type="What to build", position="Its centre: x,y or a cell", turned="Turned 90°")
    async def construct(
        self, interaction: Interaction, building_type: str, position: str, turned: bool = False
    ) -> None:
        """Plays ``construct <type> <pos> [r90]``."""
        rot = "r90" if turned and "r90" not in position.lower() else None
        await self._play(interaction, "construct", building_type, position, rot)

    @app_commands.command(name="end", description="End your Production Phase")
    async def end(self, interaction: Interaction) -> None:
        """Plays ``end``."""
        await self._play(interaction, "end")

    @app_commands.command(name="scrap", description="Scrap one of your units or buildings (asks first)")
    async def scrap(self, interaction: Interaction, piece: str) -> None:
        """Plays ``scrap <id>`` after a confirmation."""
        await self._play(interaction, "scrap", piece)

    # -- suggestions ------------------------------------------------------------------

    @move.autocomplete("unit")
    async def _movers(self, interaction: Interaction, current: str) -> list[Choice]:
        return await self._suggest(interaction, lambda g, p: choices.units(g, p, "move", current))

    @dash.autocomplete("unit")
    async def _dashers(self, interaction: Interaction, current: str) -> list[Choice]:
        return await self._suggest(interaction, lambda g, p: choices.units(g, p, "dash", current))

    @move.autocomplete("to")
    async def _move_to(self, interaction: Interaction, current: str) -> list[Choice]:
        unit = self._option(interaction, "unit")
        return await self._suggest(interaction, lambda g, p: choices.positions(g, p, "move", unit, current))

    @dash.autocomplete("to")
    async def _dash_to(self, interaction: Interaction, current: str) -> list[Choice]:
        unit = self._option(interaction, "unit")
        return await self._suggest(interaction, lambda g, p: choices.positions(g, p, "dash", unit, current))

    @shoot.autocomplete("unit")
    async def _shooters(self, interaction: Interaction, current: str) -> list[Choice]:
        return await self._suggest(interaction, lambda g, p: choices.units(g, p, "shoot", current))

    @fight.autocomplete("unit")
    async def _fighters(self, interaction: Interaction, current: str) -> list[Choice]:
        return await self._suggest(interaction, lambda g, p: choices.units(g, p, "fight", current))

    @shoot.autocomplete("target")
    async def _shoot_at(self, interaction: Interaction, current: str) -> list[Choice]:
        unit = self._option(interaction, "unit")
        return await self._suggest(interaction, lambda g, p: choices.targets(g, p, "shoot", unit, current))

    @fight.autocomplete("target")
    async def _fight_at(self, interaction: Interaction, current: str) -> list[Choice]:
        unit = self._option(interaction, "unit")
        return await self._suggest(interaction, lambda g, p: choices.targets(g, p, "fight", unit, current))

    @shoot.autocomplete("weapon")
    async def _guns(self, interaction: Interaction, current: str) -> list[Choice]:
        unit, target = self._option(interaction, "unit"), self._option(interaction, "target")
        return await self._suggest(interaction, lambda g, p: choices.weapons(g, p, "shoot", unit, target, current))

    @fight.autocomplete("weapon")
    async def _blades(self, interaction: Interaction, current: str) -> list[Choice]:
        unit, target = self._option(interaction, "unit"), self._option(interaction, "target")
        return await self._suggest(interaction, lambda g, p: choices.weapons(g, p, "fight", unit, target, current))

    @overwatch.autocomplete("unit")
    async def _watchers(self, interaction: Interaction, current: str) -> list[Choice]:
        return await self._suggest(interaction, lambda g, p: choices.units(g, p, "overwatch", current))

    @done.autocomplete("unit")
    async def _done_units(self, interaction: Interaction, current: str) -> list[Choice]:
        return await self._suggest(interaction, lambda g, p: choices.units(g, p, "done", current))

    @harvest.autocomplete("worker")
    async def _harvesters(self, interaction: Interaction, current: str) -> list[Choice]:
        return await self._suggest(interaction, lambda g, p: choices.units(g, p, "harvest", current))

    @harvest.autocomplete("depot")
    async def _depots(self, interaction: Interaction, current: str) -> list[Choice]:
        worker = self._option(interaction, "worker")
        return await self._suggest(interaction, lambda g, p: choices.ability_targets(g, p, "harvest", worker, current))

    @build.autocomplete("worker")
    async def _builders(self, interaction: Interaction, current: str) -> list[Choice]:
        return await self._suggest(interaction, lambda g, p: choices.units(g, p, "build", current))

    @build.autocomplete("building")
    async def _build_sites(self, interaction: Interaction, current: str) -> list[Choice]:
        worker = self._option(interaction, "worker")
        return await self._suggest(interaction, lambda g, p: choices.ability_targets(g, p, "build", worker, current))

    @repair.autocomplete("worker")
    async def _repairers(self, interaction: Interaction, current: str) -> list[Choice]:
        return await self._suggest(interaction, lambda g, p: choices.units(g, p, "repair", current))

    @repair.autocomplete("building")
    async def _repairable(self, interaction: Interaction, current: str) -> list[Choice]:
        worker = self._option(interaction, "worker")
        return await self._suggest(interaction, lambda g, p: choices.ability_targets(g, p, "repair", worker, current))

    @produce.autocomplete("building")
    async def _producers(self, interaction: Interaction, current: str) -> list[Choice]:
        return await self._suggest(interaction, lambda g, p: choices.producers(g, p, current))

    @produce.autocomplete("unit_type")
    async def _unit_types(self, interaction: Interaction, current: str) -> list[Choice]:
        building = self._option(interaction, "building")
        return await self._suggest(interaction, lambda g, p: choices.unit_types(g, p, building, current))

    @construct.autocomplete("building_type")
    async def _building_types(self, interaction: Interaction, current: str) -> list[Choice]:
        return await self._suggest(interaction, lambda g, p: choices.building_types(g, p, current))

    @construct.autocomplete("position")
    async def _sites(self, interaction: Interaction, current: str) -> list[Choice]:
        kind = self._option(interaction, "building_type")
        return await self._suggest(interaction, lambda g, p: choices.sites(g, p, kind, current))

    @scrap.autocomplete("piece")
    async def _scrappable(self, interaction: Interaction, current: str) -> list[Choice]:
        return await self._suggest(interaction, lambda g, p: choices.scrappable(g, p, current))

    @show.autocomplete("unit")
    async def _shown(self, interaction: Interaction, current: str) -> list[Choice]:
        found = await self._table(interaction)
        return [] if found is None else [Choice(name=n, value=v) for n, v in choices.models(found[1], current)]


SURFACE = Surface(commands=NexoCog, quick_moves=quick_moves, turn_key=phase_key, board_title=board_title,
                  instruction=instruction, alt_text=alt_text)
"""Nexohominis on Discord: ``/nexo``, its Done/Pass/End buttons, a board per phase, each player's step, and the
board's alt text."""
