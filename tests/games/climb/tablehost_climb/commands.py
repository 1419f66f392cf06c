"""Climb on Discord: ``/climb`` (new, play, draw, resign, rules) and what its board and hand DM show.

The board's only button is "Draw", and only when drawing is legal: a card button would
show a hidden card to the whole channel. The cards to play are offered privately instead,
in ``/game hand``'s menu and in ``/climb play``'s suggestions, each only to its owner.
"""

from __future__ import annotations

from typing import Any

from discord import app_commands
from discord.ext import commands

from cogs.actions import play_move
from cogs.client import Tablehost
from cogs.playbypost import CLOCK_DOCS, OnTimeout, open_game
from cogs.replies import Interaction
from cogs.rules import show_help, show_rules
from engines import GameError
from host.table import Table
from tablehost_climb.engine import MAX_HAND, dots


def quick_moves(table: Table, player: str) -> list[tuple[str, str]]:
    """Returns the board's buttons: "Draw" when the player to act may draw, else none."""
    assert table.game is not None
    return [("Draw", "draw")] if "draw" in table.game.legal_moves(player) else []


def hand_moves(table: Table, player: str) -> list[tuple[str, str]]:
    """Returns the cards ``player`` may play now, for ``/game hand``'s menu: ``("Play 7", "play 7")``."""
    assert table.game is not None
    return [(f"Play {m.split()[1]}", m) for m in table.game.legal_moves(player) if m.startswith("play ")]


def secret_line(secret: dict[str, Any]) -> str:
    """Returns a player's hand DM: ``**Your hand:** 2 · 5 · 7 · 9``."""
    hand = secret.get("hand")
    return "**Your hand:** " + (dots([int(c) for c in hand]) if isinstance(hand, list) else "no cards")


def describe_secret(secret: dict[str, Any]) -> str:
    """Returns a player's hand in plain words, for the console: ``Your hand: 2 · 5 · 7 · 9``."""
    hand = secret.get("hand")
    return "Your hand: " + (dots([int(c) for c in hand]) if isinstance(hand, list) else "no cards")


@app_commands.guild_only()
class ClimbCog(commands.GroupCog, group_name="climb", group_description="Climb: play ever higher cards, or draw"):
    """The Climb commands: ``new``, ``play``, ``draw``, ``resign``, ``rules``."""

    def __init__(self, bot: Tablehost) -> None:
        self.bot = bot
        super().__init__()

    async def _table(self, interaction: Interaction) -> Table | None:
        try:
            table = await self.bot.tables.table(str(interaction.channel_id))
        except GameError:
            return None
        return table if table.row.game == "climb" and table.game is not None else None

    @app_commands.command(name="rules", description="The rules of Climb in short (only you see it)")
    async def rules(self, interaction: Interaction) -> None:
        """Shows the rules summary, paged."""
        await show_rules(interaction, "climb")

    @app_commands.command(name="help", description="The Climb commands and moves (only you see it)")
    async def help(self, interaction: Interaction) -> None:
        """Shows this game's help."""
        await show_help(interaction, "climb")

    @app_commands.command(name="new", description="Open a Climb table in this channel")
    @app_commands.describe(
        hand=f"Cards dealt to each player, 1 to {MAX_HAND} (default 5)",
        thread="Play in a thread of its own (default: yes, where I may create threads)",
        **CLOCK_DOCS,
    )
    async def new(
        self,
        interaction: Interaction,
        hand: app_commands.Range[int, 1, MAX_HAND] = 5,
        thread: bool | None = None,
        remind_after: str | None = None,
        timeout: str | None = None,
        on_timeout: OnTimeout | None = None,
    ) -> None:
        """Opens a Climb lobby with the caller seated."""
        await open_game(interaction, "climb", {"hand": hand}, thread=thread, remind_after=remind_after,
                        timeout=timeout, on_timeout=on_timeout)

    @app_commands.command(name="play", description="Put a card from your hand on the pile (higher than its top)")
    @app_commands.describe(card="The card, 1 to 9 (suggestions: the cards you can play now)")
    async def play(self, interaction: Interaction, card: str) -> None:
        """Plays ``play <card>``."""
        await play_move(interaction, f"play {card}", game="climb")

    @app_commands.command(name="draw", description="Take the deck's top card and clear the pile")
    async def draw(self, interaction: Interaction) -> None:
        """Plays ``draw``."""
        await play_move(interaction, "draw", game="climb")

    @app_commands.command(name="resign", description="Leave the game (your cards are set aside)")
    async def resign(self, interaction: Interaction) -> None:
        """Plays ``resign`` (asked first: it cannot be taken back)."""
        await play_move(interaction, "resign", game="climb")

    @play.autocomplete("card")
    async def _playable(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Suggests the caller's own cards that can be played now; nothing to anyone else."""
        table = await self._table(interaction)
        name = table.name_of(str(interaction.user.id)) if table is not None else None
        if table is None or table.game is None or name is None:
            return []
        cards = [m.split()[1] for m in table.game.legal_moves(name) if m.startswith("play ")]
        needle = current.strip().lstrip("0")
        return [app_commands.Choice(name=c, value=c) for c in cards if c.startswith(needle)][:25]
