"""A channel's records on Discord: ``/game history`` and the Rematch button of a finished game.

Each past game is listed with its id, which ``/game replay`` and ``/game export`` take.
The Rematch button sits on the final board; each player's click counts them ready
(:mod:`host.rematch`), and the last one starts the game.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import discord

from cogs.actions import Interaction, begin, deliver_done, person
from cogs.client import refusal
from engines import GAMES, GameError
from host.rematch import Rematches
from host.store import GameRow, Status

HISTORY = 15
"""Past games ``/game history`` lists."""


def result_text(row: GameRow) -> str:
    """Returns "won by Ann", "a draw" or "aborted"."""
    if row.status is Status.ABORTED:
        return "aborted"
    if not row.winners:
        return "a draw"
    return "won by " + " and ".join(row.winners)


def day_of(stamp: str) -> str:
    """Returns a Discord date (``<t:…:d>``) for a stored ISO time, or the text itself when unreadable.

    >>> day_of("2026-11-30T10:00:00+00:00"), day_of("junk")
    ('<t:1796032800:d>', 'junk')
    """
    try:
        return f"<t:{int(datetime.fromisoformat(stamp).timestamp())}:d>"
    except ValueError:
        return stamp


async def history(interaction: Interaction) -> None:
    """Lists the channel's past games: id, game, players, result, length and date."""
    await begin(interaction)
    store = interaction.client.tables.store
    rows = await store.past_games(str(interaction.channel_id), limit=HISTORY)
    if not rows:
        await interaction.followup.send("No game has ended in this channel yet.", ephemeral=True)
        return
    lines = ["**Past games here** (`/game replay game:<id>`, `/game export game:<id>`):"]
    for row in rows:
        seats = await store.seats(row.id)
        title = GAMES[row.game].TITLE if row.game in GAMES else row.game
        players = ", ".join(discord.utils.escape_markdown(s.name) for s in seats)
        moves = f"{row.version} move{'s' if row.version != 1 else ''}"
        lines.append(f"`{row.id}` **{title}**: {players}; {result_text(row)}; {moves}; {day_of(row.updated_at)}")
    await interaction.followup.send("\n".join(lines)[:2000], ephemeral=True,
                                    allowed_mentions=discord.AllowedMentions.none())


def rematch_view(game_id: int) -> discord.ui.View:
    """Returns the final board's buttons: Rematch."""
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id))
    return view


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"th1re:(?P<game_id>[0-9]{1,18})"):
    """"Rematch": counts the clicking player ready to play that game again."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Rematch", emoji="🔁", style=discord.ButtonStyle.primary,
                                           custom_id=f"th1re:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> RematchButton:
        """Rebuilds the button from its custom_id."""
        return cls(int(match["game_id"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        """Counts the player ready; opens the lobby on the first click, starts the game on the last."""
        await begin(interaction)
        try:
            result = await Rematches(interaction.client.tables).ready(self.game_id, person(interaction))
        except GameError as err:
            await interaction.followup.send(refusal(err), ephemeral=True)
            return
        for out in result.announcements[:-1]:
            await interaction.client.deliverer.deliver(out)
        if result.announcements:
            await deliver_done(interaction, result.announcements[-1])
        if not result.started:
            await interaction.followup.send(
                f"You are ready: {result.ready} of {result.needed} players. It starts when everyone has clicked.",
                ephemeral=True,
            )
