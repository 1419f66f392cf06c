"""A channel's records on Discord: ``/table history``.

Each past game is listed with its id, which ``/table replay`` and ``/table export`` take.
The Rematch button of a finished game's final board is :class:`cogs.prompts.RematchButton`.
"""

from __future__ import annotations

from datetime import datetime

import discord

from cogs.replies import Interaction, begin
from cogs.surface import title_of
from host.store import GameRow, Status
from host.undo import standing_count

HISTORY = 15
"""Past games ``/table history`` lists."""


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
    """Lists the channel's past games: id, game, players, result, length (its standing moves) and date."""
    await begin(interaction)
    store = interaction.client.tables.store
    rows = await store.past_games(str(interaction.channel_id), limit=HISTORY)
    if not rows:
        await interaction.followup.send("No game has ended in this channel yet.", ephemeral=True)
        return
    lines = ["**Past games here** (`/table replay game:<id>`, `/table export game:<id>`):"]
    for row in rows:
        seats = await store.seats(row.id)
        title = title_of(row.game)
        players = ", ".join(discord.utils.escape_markdown(s.name) for s in seats)
        count = standing_count(m.move for m in await store.moves(row.id))  # not row.version: it counts undos too
        moves = f"{count} move{'s' if count != 1 else ''}"
        lines.append(f"`{row.id}` **{title}**: {players}; {result_text(row)}; {moves}; {day_of(row.updated_at)}")
    await interaction.followup.send("\n".join(lines)[:2000], ephemeral=True,
                                    allowed_mentions=discord.AllowedMentions.none())
