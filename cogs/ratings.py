"""Ratings on Discord: ``/table stats [member]`` and ``/table leaderboard [game]``, per server.

The rating shown is OpenSkill's ordinal μ − 3σ to one decimal (see :mod:`host.ratings`):
everyone starts at 0.0. Stats answer only the caller (ephemeral); a leaderboard is posted
in the channel for everyone (as ``/game board`` posts its picture), players named by mentions
that ping nobody.
"""

from __future__ import annotations

import discord

from cogs.replies import Interaction, begin, channel_of, chunks
from cogs.surface import title_of
from engines import GAMES
from host.ratings import PlayerRating, Ratings

TOP = 10
"""Players a leaderboard lists."""

COUNTING = "Finished games of two or more players count, except those given up before everyone had moved."


def ratings_of(interaction: Interaction) -> Ratings:
    """Returns the ratings of the bot's store (the bot's own, when it keeps one)."""
    kept = getattr(interaction.client, "ratings", None)
    return kept if isinstance(kept, Ratings) else Ratings(interaction.client.tables.store)


def game_named(text: str) -> str | None:
    """Returns the game a player typed, by name or title in any case, or None.

    >>> game_named("NXS"), game_named(" xisk "), game_named("chess")
    ('nxs', 'xisk', None)
    """
    wanted = text.strip().lower()
    return next((name for name, cls in GAMES.items() if wanted in (name.lower(), cls.TITLE.lower())), None)


def percent(r: PlayerRating) -> str:
    """Returns the win rate as a whole percentage.

    >>> percent(PlayerRating("nxs", "1", 25.0, 8.0, 3, 2))
    '67%'
    """
    return f"{round(100 * r.win_rate)}%"


def stats_line(r: PlayerRating) -> str:
    """Returns one game's line of ``/table stats``."""
    games = f"{r.games} game{'s' if r.games != 1 else ''}"
    wins = f"{r.wins} win{'s' if r.wins != 1 else ''}"
    return f"**{title_of(r.game)}**: rating **{r.rating:.1f}** · {games} · {wins} ({percent(r)} won)"


def board_lines(game: str, rows: list[PlayerRating]) -> list[str]:
    """Returns a leaderboard: its heading and one line per player, best first."""
    lines = [f"🏆 **{title_of(game)}**: top {len(rows)}"]
    for place, r in enumerate(rows, 1):
        lines.append(f"{place}. <@{r.player_id}> **{r.rating:.1f}** · {r.games} game{'s' if r.games != 1 else ''},"
                     f" {r.wins} win{'s' if r.wins != 1 else ''} ({percent(r)})")
    return lines


async def stats(interaction: Interaction, member: discord.Member | discord.User | None = None) -> None:
    """Replies, to the caller only, with a player's rating, games, wins and win rate in each game of this server."""
    if interaction.guild_id is None:
        await interaction.response.send_message("Ratings are kept per server: ask in a server's channel.",
                                                ephemeral=True)
        return
    await begin(interaction)
    who = member or interaction.user
    found = await ratings_of(interaction).stats(str(interaction.guild_id), str(who.id))
    if not found:
        text = f"<@{who.id}> has no rated game in this server yet. {COUNTING}"
    else:
        head = f"**Ratings of <@{who.id}>** in this server (μ − 3σ: everyone starts at 0):"
        text = "\n".join([head, *(stats_line(r) for r in found)])
    for piece in chunks(text):
        await interaction.followup.send(piece, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())


async def leaderboard(interaction: Interaction, game: str | None = None) -> None:
    """Posts this server's top 10 of a game, or of each game rated here, in the channel (as /game board posts)."""
    if interaction.guild_id is None:
        await interaction.response.send_message("Leaderboards are kept per server: ask in a server's channel.",
                                                ephemeral=True)
        return
    await begin(interaction)
    chosen = None
    if game is not None:
        chosen = game_named(game)
        if chosen is None:
            titles = ", ".join(cls.TITLE for cls in GAMES.values())
            await interaction.followup.send(
                f"There is no game called '{discord.utils.escape_markdown(game[:30])}' (games: {titles}).",
                ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
            return
    ratings, guild = ratings_of(interaction), str(interaction.guild_id)
    games = [chosen] if chosen is not None else await ratings.games_rated(guild)
    boards = [board_lines(g, rows) for g in games if (rows := await ratings.leaderboard(guild, g, TOP))]
    if not boards:
        where = f"{title_of(chosen)} game" if chosen is not None else "game"
        text = f"No rated {where} in this server yet. {COUNTING}"
    else:
        text = "\n\n".join("\n".join(lines) for lines in boards)
    try:
        for piece in chunks(text):
            await channel_of(interaction).send(piece, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:  # the bot may not post here: show it to the caller instead
        for piece in chunks(text):
            await interaction.followup.send(piece, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
        return
    await interaction.followup.send("Posted.", ephemeral=True)
