"""The lobby's buttons: Join, and "Add my own randomness" with its one-field modal.

UI pieces (see :mod:`cogs`): they sit on a table's opening post, which carries the fair-dice
commitment (:mod:`host.fairness`). Joining by either is ``/game join`` (with ``entropy:`` for
the second): the click's interaction id, and the text typed, become the player's part of the
game's entropy. Their custom_id templates::

    th1join:<game_id>     Join
    th1ent:<game_id>      Add my own randomness (opens the modal)
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.client import refusal
from cogs.replies import Interaction, begin, deliver_done, person
from engines import GameError
from host.fairness import OWN_TEXT

__all__ = ["EntropyButton", "EntropyModal", "JoinButton", "lobby_view"]


def lobby_view(game_id: int) -> discord.ui.View:
    """Returns the opening post's buttons: [Join] [Add my own randomness]."""
    view = discord.ui.View(timeout=None)
    view.add_item(JoinButton(game_id))
    view.add_item(EntropyButton(game_id))
    return view


async def _join(interaction: Interaction, game_id: int, entropy: str | None) -> None:
    """Seats the player (or replaces their own text) at the table ``game_id``, if it is still the channel's lobby."""
    tables = interaction.client.tables
    channel = str(interaction.channel_id)
    row = await tables.store.active_game(channel, snapshot=False)
    if row is None or row.id != game_id or row.status != "lobby":
        await interaction.followup.send("That table has started or closed: its seats are fixed.", ephemeral=True)
        return
    try:
        out = await tables.join(channel, person(interaction), joined=str(interaction.id), entropy=entropy)
    except GameError as err:
        await interaction.followup.send(refusal(err), ephemeral=True)
        return
    await deliver_done(interaction, out)


class JoinButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"th1join:(?P<game_id>[0-9]{1,18})"):
    """"Join": takes a seat at that table, as ``/game join`` does."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Join", style=discord.ButtonStyle.primary,
                                           custom_id=f"th1join:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> JoinButton:
        """Rebuilds the button from its custom_id."""
        return cls(int(match["game_id"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        """Seats the player who clicked."""
        await begin(interaction)
        await _join(interaction, self.game_id, None)


class EntropyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"th1ent:(?P<game_id>[0-9]{1,18})"):
    """"Add my own randomness": opens :class:`EntropyModal` for that table."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Add my own randomness", emoji="🎲",
                                           style=discord.ButtonStyle.secondary, custom_id=f"th1ent:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> EntropyButton:
        """Rebuilds the button from its custom_id."""
        return cls(int(match["game_id"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        """Opens the modal (a modal must be the first answer to the click)."""
        await interaction.response.send_modal(EntropyModal(self.game_id))


class EntropyModal(discord.ui.Modal, title="Add your own randomness"):
    """One field: any text of the player's; it joins them, or replaces the text they gave."""

    text: discord.ui.TextInput[EntropyModal] = discord.ui.TextInput(
        label="Anything you like: words, digits, a song line",
        placeholder="Nobody can predict it, so the bot could not have picked the dice for it",
        min_length=1,
        max_length=OWN_TEXT,
    )

    def __init__(self, game_id: int) -> None:
        super().__init__(timeout=900, custom_id=f"th1entm:{game_id}")
        self.game_id = game_id

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        """Seats the player with their text (or replaces it) and tells them their part."""
        await begin(interaction)
        await _join(interaction, self.game_id, self.text.value)
