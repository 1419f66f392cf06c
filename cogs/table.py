"""``/table``: a channel's records and a game's settings, shared by every game.

The turn clock (``clock``, ``pause``, ``resume``), reminder DMs (``notify``), spectator channels
(``spectate``), the coach's hints (``hints``), the records (``history``, ``replay``, ``export``) and
ratings (``stats``, ``leaderboard``). They were ``/game`` commands until ``/game`` reached Discord's 25 subcommands;
the README lists the renamed ones. ``/table notify`` also works in a DM with the bot.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.actions import refused
from cogs.client import Tablehost
from cogs.export import export as export_file
from cogs.playbypost import CLOCK_DOCS, OnTimeout, notify, set_clock
from cogs.prompts import switch
from cogs.ratings import leaderboard as show_leaderboard
from cogs.ratings import stats as show_stats
from cogs.records import history
from cogs.replay import replay
from cogs.replies import Interaction, begin, deliver_done, person, refuse_in_dms
from cogs.spectating import spectate
from engines import GAMES, GameError

IN_DMS = frozenset({"notify"})
"""The /table commands that also work in a DM with the bot; the others need a server channel."""


def game_names(current: str) -> list[app_commands.Choice[str]]:
    """Returns the offered games whose name or title holds ``current``, for an option's suggestions."""
    return [
        app_commands.Choice(name=f"{cls.TITLE} ({cls._seat_range()} players)", value=name)
        for name, cls in sorted(GAMES.items())
        if current.lower() in name or current.lower() in cls.TITLE.lower()
    ][:25]


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class TableCog(commands.GroupCog, group_name="table", group_description="This channel's records and game settings"):
    """The clock, spectators, records and ratings of every game."""

    def __init__(self, bot: Tablehost) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: Interaction) -> bool:  # type: ignore[override]
        """Refuses, in a DM, the commands that act on a channel's game."""
        return refuse_in_dms(interaction, IN_DMS)

    @app_commands.command(name="clock", description="See the turn clock, or change it (the game's creator)")
    @app_commands.describe(**CLOCK_DOCS)
    async def clock(
        self,
        interaction: Interaction,
        remind_after: str | None = None,
        timeout: str | None = None,
        on_timeout: OnTimeout | None = None,
    ) -> None:
        """Shows or changes the clock."""
        await set_clock(interaction, remind_after, timeout, on_timeout)

    @app_commands.command(name="pause", description="Stop the turn clock (the creator, or every player agreeing)")
    async def pause(self, interaction: Interaction) -> None:
        """Pauses the clock, or asks the other players."""
        await switch(interaction, "pause")

    @app_commands.command(name="resume", description="Restart the turn clock (the creator, or every player agreeing)")
    async def resume(self, interaction: Interaction) -> None:
        """Resumes the clock, or asks the other players."""
        await switch(interaction, "resume")

    @app_commands.command(name="spectate", description="Copy this game's public posts into another channel")
    @app_commands.describe(channel="The channel (or thread) to copy into", stop="Stop copying (to one, or to all)")
    @app_commands.rename(channel="to")
    async def spectate(
        self,
        interaction: Interaction,
        channel: app_commands.AppCommandChannel | app_commands.AppCommandThread | None = None,
        stop: bool = False,
    ) -> None:
        """Starts or stops a spectator channel (the creator, or Manage Channels)."""
        await spectate(interaction, channel, stop)

    @app_commands.command(name="hints", description="Allow /game hint in this game, or not (the creator)")
    @app_commands.describe(state="on: the player to act may ask the coach, and a hint makes the game unrated")
    async def hints(self, interaction: Interaction, state: Literal["on", "off"]) -> None:
        """Turns the game's hints on or off (the creator, or Manage Channels), with a public line."""
        await set_hints(interaction, state == "on")

    @app_commands.command(name="export", description="A finished game's record: seed, every move, its dice (only you)")
    @app_commands.describe(game="The game's id from /table history (default: this channel's latest finished game)")
    async def export_(self, interaction: Interaction, game: int | None = None) -> None:
        """Sends the caller a finished game's export file."""
        await export_file(interaction, game)

    @app_commands.command(name="stats", description="A player's rating, games and wins in this server (only you)")
    @app_commands.describe(member="Whose (default: yours)")
    async def stats(self, interaction: Interaction, member: discord.Member | discord.User | None = None) -> None:
        """Shows a player's ratings in this server."""
        await show_stats(interaction, member)

    @app_commands.command(name="leaderboard", description="This server's top 10 of a game, posted in the channel")
    @app_commands.describe(game="Which game (default: every game rated here)")
    async def leaderboard(self, interaction: Interaction, game: str | None = None) -> None:
        """Posts the server's leaderboard."""
        await show_leaderboard(interaction, game)

    @leaderboard.autocomplete("game")
    async def _leaderboard_games(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return game_names(current)

    @app_commands.command(name="replay", description="An animated replay of this channel's game (or a game id)")
    @app_commands.describe(game="A game id from /table history (default: this channel's latest)")
    async def replay(self, interaction: Interaction, game: int | None = None) -> None:
        """Posts the game's animated replay in the channel."""
        await replay(interaction, game)

    @app_commands.command(name="history", description="The games that ended in this channel (only you see it)")
    async def history(self, interaction: Interaction) -> None:
        """Lists the channel's past games with their ids."""
        await history(interaction)

    @app_commands.command(name="notify", description="Turn your reminder DMs on or off (for every game)")
    async def notify(self, interaction: Interaction, reminders: bool) -> None:
        """Sets the caller's reminder DMs."""
        await notify(interaction, reminders)


async def set_hints(interaction: Interaction, allowed: bool) -> None:
    """Turns hints on or off in the channel's game, for its creator or someone with Manage Channels."""
    await begin(interaction)
    manager = bool(interaction.permissions.manage_channels)
    try:
        out = await interaction.client.tables.set_hints(str(interaction.channel_id), person(interaction), allowed,
                                                        manager=manager)
    except GameError as err:
        await interaction.followup.send(await refused(interaction, err), ephemeral=True)
        return
    await deliver_done(interaction, out)
