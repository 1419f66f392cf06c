"""Buttons that answer a question, and the pager: Abort, Agree to pause or resume, Rematch, Previous/Next.

UI pieces (see :mod:`cogs`): each click reloads what it is about, acts through the table
service and answers with the shared replies (:mod:`cogs.replies`); none imports a command
module. Their custom_id templates, written down once here::

    th1abort:<game_id>                  the "yes" of /game abort
    th1v:<pause|resume>:<game_id>       a player's agreement to pause or resume the clock
    th1re:<game_id>                     "Rematch" on a finished game's final board

The pause/resume vote (:func:`switch`) lives here with its button: the button asks it again.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.buttons import CancelButton
from cogs.client import refusal
from cogs.replies import Interaction, begin, deliver_done, person
from engines import GameError
from host.outbox import Outbox
from host.rematch import Rematches

__all__ = ["AbortButton", "CancelButton", "Pager", "RematchButton", "VoteButton", "abort_view", "rematch_view",
           "switch"]


def abort_view(game_id: int) -> discord.ui.View:
    """Returns [Abort the game] [Cancel], the question of ``/game abort``."""
    view = discord.ui.View(timeout=None)
    view.add_item(AbortButton(game_id))
    view.add_item(CancelButton())
    return view


class AbortButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"th1abort:(?P<game_id>[0-9]{1,18})"):
    """The "yes" of ``/game abort``: aborts that game, if it is still the channel's."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="Abort the game", style=discord.ButtonStyle.danger, custom_id=f"th1abort:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> AbortButton:
        """Rebuilds the button from its custom_id."""
        return cls(int(match["game_id"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        """Aborts the game the question was about."""
        await interaction.response.edit_message(content="Aborting…", view=None)
        tables = interaction.client.tables
        row = await tables.store.active_game(str(interaction.channel_id), snapshot=False)
        if row is None or row.id != self.game_id:
            await interaction.followup.send("That game has already ended. Nothing was changed.", ephemeral=True)
            return
        try:
            out = await tables.abort(
                str(interaction.channel_id), person(interaction), can_manage=interaction.permissions.manage_channels
            )
        except GameError as err:
            await interaction.followup.send(refusal(err), ephemeral=True)
            return
        await deliver_done(interaction, out)


async def switch(interaction: Interaction, action: str, *, deferred: bool = False) -> None:
    """Pauses or resumes the clock, or records the caller's agreement and asks the others."""
    if not deferred:
        await begin(interaction)
    keeper = interaction.client.timekeeper
    try:
        result = await (keeper.pause if action == "pause" else keeper.resume)(
            str(interaction.channel_id), person(interaction)
        )
    except GameError as err:
        await interaction.followup.send(refusal(err), ephemeral=True)
        return
    if isinstance(result, Outbox):
        await deliver_done(interaction, result)
        return
    agreed, needed = result
    game = await interaction.client.tables.store.active_game(str(interaction.channel_id), snapshot=False)
    assert game is not None
    view = discord.ui.View(timeout=None)
    view.add_item(VoteButton(action, game.id))
    name = discord.utils.escape_markdown(interaction.user.display_name)
    await interaction.followup.send(f"Noted: {agreed} of {needed} players agree.", ephemeral=True)
    channel = interaction.channel
    if isinstance(channel, discord.abc.Messageable):
        await channel.send(
            f"{name} asks to {action} the clock ({agreed} of {needed} players agree). The others: agree below,"
            " or the game's creator decides.", view=view, allowed_mentions=discord.AllowedMentions.none(),
        )


VOTE = r"th1v:(?P<action>pause|resume):(?P<g>[0-9]{1,18})"


class VoteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=VOTE):
    """"Agree": a player's vote to pause or resume the clock of that game."""

    def __init__(self, action: str, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=f"Agree to {action}", style=discord.ButtonStyle.secondary,
                                           custom_id=f"th1v:{action}:{game_id}"))
        self.action, self.game_id = action, game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> VoteButton:
        """Rebuilds the button from its custom_id."""
        return cls(match["action"], int(match["g"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        """Adds the clicker's agreement, if the game is still the channel's."""
        await begin(interaction)
        game = await interaction.client.tables.store.active_game(str(interaction.channel_id), snapshot=False)
        if game is None or game.id != self.game_id:
            await interaction.followup.send("That game has ended. Nothing was changed.", ephemeral=True)
            return
        await switch(interaction, self.action, deferred=True)


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
            result = await Rematches(interaction.client.tables).ready(self.game_id, person(interaction),
                                                                     joined=str(interaction.id))
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


class Pager(discord.ui.View):
    """Previous / Next over the pages of one ephemeral reply (only its reader sees it)."""

    def __init__(self, texts: tuple[str, ...]) -> None:
        super().__init__(timeout=900)
        self.texts, self.at = texts, 0
        self._sync()

    def page(self) -> str:
        """Returns the current page with its number."""
        return f"{self.texts[self.at]}\n\n*Page {self.at + 1} of {len(self.texts)}*"

    def _sync(self) -> None:
        self.previous.disabled = self.at == 0
        self.next.disabled = self.at == len(self.texts) - 1

    @discord.ui.button(label="Previous", style=discord.ButtonStyle.secondary)
    async def previous(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        """Shows the page before."""
        self.at = max(0, self.at - 1)
        self._sync()
        await interaction.response.edit_message(content=self.page(), view=self)

    @discord.ui.button(label="Next", style=discord.ButtonStyle.primary)
    async def next(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        """Shows the page after."""
        self.at = min(len(self.texts) - 1, self.at + 1)
        self._sync()
        await interaction.response.edit_message(content=self.page(), view=self)
