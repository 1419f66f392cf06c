"""``/nexo``: open a Nexohominis skirmish; moves are played with ``/game play`` (suggested from the legal ones).

Its live board's buttons are only ``done``, ``pass`` and ``end``: nothing that scraps a
piece or concedes, which are typed and then confirmed.
"""

from __future__ import annotations

from typing import Literal

from discord import app_commands
from discord.ext import commands

from cogs.actions import Interaction, open_table
from cogs.buttons import QUICK_MOVES
from cogs.client import Tablehost
from cogs.rules import show_rules
from host.tables import Table

BUTTON_MOVES = ("done", "pass", "end")
"""The only Nexohominis moves a button may play."""


def quick_moves(table: Table, player: str) -> list[tuple[str, str]]:
    """Returns Done / Pass / End buttons for those of them that are legal now."""
    assert table.game is not None
    legal = [m for m in table.game.legal_moves(player) if m.split()[0] in BUTTON_MOVES]  # e.g. "done a2"
    return [(move.capitalize(), move) for move in legal]


QUICK_MOVES["nexo"] = quick_moves


@app_commands.guild_only()
class NexoCog(commands.GroupCog, group_name="nexo", group_description="Nexohominis: a two-player skirmish"):
    """``/nexo new`` and ``/nexo rules``; the moves go through ``/game play``."""

    def __init__(self, bot: Tablehost) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="rules", description="The rules of Nexohominis in short (only you see it)")
    async def rules(self, interaction: Interaction) -> None:
        """Shows the rules summary, paged."""
        await show_rules(interaction, "nexo")

    @app_commands.command(name="new", description="Open a Nexohominis table in this channel")
    @app_commands.describe(
        battlefield="A preset battlefield, or random (seeded with the game)",
        carbonite="Carbonite each player starts with (default 200)",
        round_limit="End after this many rounds, scored by what survives (default: none)",
        thread="Play in a thread of its own (default: yes, where I may create threads)",
    )
    async def new(
        self,
        interaction: Interaction,
        battlefield: Literal["crossroads", "dust_belt", "random"] = "crossroads",
        carbonite: app_commands.Range[int, 0, 2000] = 200,
        round_limit: app_commands.Range[int, 1, 100] | None = None,
        thread: bool | None = None,
    ) -> None:
        """Opens a Nexohominis lobby with the caller seated."""
        options = {"battlefield": battlefield, "carbonite": carbonite, "round_limit": round_limit}
        await open_table(interaction, "nexo", options, thread=thread)


async def setup(bot: Tablehost) -> None:
    """Adds the Nexohominis cog (discord.py extension entry point)."""
    await bot.add_cog(NexoCog(bot))
