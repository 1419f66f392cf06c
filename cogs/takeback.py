"""Takeback by agreement on Discord: the question with [Accept] [Decline], and each answer.

A UI piece (see :mod:`cogs`): ``/game takeback`` calls :func:`ask`, which posts the question in
the game's channel; a click answers through the table service
(:meth:`host.tables.Tables.answer_takeback`), which stores the request and every answer, so the
buttons still work after a restart. Only the other seated players may answer: the asker, anyone
not seated and a second click are told so privately, and change nothing. custom_id template,
written down here once::

    th1tb:<game_id>:<version>:<yes|no>

``version`` is the game's version when the takeback was asked: once a move is made the request
has expired, and a click says so and removes the buttons. One decline ends it ("Bob declined: the
move stands."); the last acceptance takes the move back and the live board shows the game again.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from cogs.client import refusal
from cogs.replies import Interaction, begin, channel_of, deliver_done, person
from engines import GameError
from host.tables import Stale, Takeback

log = logging.getLogger(__name__)

TEMPLATE = r"th1tb:(?P<game_id>[0-9]{1,18}):(?P<version>[0-9]{1,9}):(?P<answer>yes|no)"

__all__ = ["TEMPLATE", "TakebackButton", "answer_view", "ask", "outcome", "question"]


def _names(names: list[str]) -> str:
    return ", ".join(discord.utils.escape_markdown(n) for n in names)


def question(request: Takeback) -> str:
    """Returns the question: "Ann asks to take back `attack alaska kamchatka`. Bob, Cy: accept or decline."

    Who accepted already is named after it.
    """
    text = (f"{_names([request.asker])} asks to take back `{request.move}`. {_names(request.waiting)}:"
            " accept or decline.")
    if request.accepted:
        text += f" Accepted: {_names(request.accepted)}."
    return text


def outcome(request: Takeback) -> str | None:
    """Returns what the question becomes once answered: declined, or taken back; None while it waits."""
    if request.declined_by is not None:
        return f"{_names([request.declined_by])} declined: the move stands."
    if request.done is not None:
        return f"Takeback accepted by everyone: `{request.move}` is taken back."
    return None


def answer_view(request: Takeback) -> discord.ui.View:
    """Returns [Accept] [Decline] for a request."""
    view = discord.ui.View(timeout=None)
    view.add_item(TakebackButton(request.game_id, request.version, accept=True))
    view.add_item(TakebackButton(request.game_id, request.version, accept=False))
    return view


async def ask(interaction: Interaction) -> None:
    """Asks the other players to let the caller take back the game's last move (``/game takeback``)."""
    await begin(interaction)
    try:
        request = await interaction.client.tables.ask_takeback(
            str(interaction.channel_id), person(interaction), interaction_id=str(interaction.id)
        )
    except GameError as err:
        await interaction.followup.send(refusal(err), ephemeral=True)
        return
    if request.done is not None:  # nobody to ask: every other seat is a bot's
        await deliver_done(interaction, request.done)
        return
    await channel_of(interaction).send(question(request), view=answer_view(request),
                                       allowed_mentions=discord.AllowedMentions.none())
    waiting = _names(request.waiting)
    await interaction.followup.send(
        f"You asked already: the question is posted again. Waiting for {waiting}." if request.again
        else f"Asked: waiting for {waiting}.", ephemeral=True,
    )


class TakebackButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """[Accept] or [Decline]: another player's answer to a takeback request."""

    def __init__(self, game_id: int, version: int, *, accept: bool) -> None:
        super().__init__(discord.ui.Button(
            label="Accept" if accept else "Decline",
            style=discord.ButtonStyle.success if accept else discord.ButtonStyle.danger,
            custom_id=f"th1tb:{game_id}:{version}:{'yes' if accept else 'no'}",
        ))
        self.game_id, self.version, self.accept = game_id, version, accept

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> TakebackButton:
        """Rebuilds the button from its custom_id (after a restart too)."""
        return cls(int(match["game_id"]), int(match["version"]), accept=match["answer"] == "yes")

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        """Records the clicker's answer; edits the question to the outcome once there is one."""
        await begin(interaction)
        try:
            request = await interaction.client.tables.answer_takeback(
                str(interaction.channel_id), person(interaction), self.game_id, self.version, accept=self.accept,
                interaction_id=str(interaction.id),
            )
        except Stale as err:  # expired, or the game ended: the buttons go
            await interaction.followup.send(refusal(err), ephemeral=True)
            await _edit(interaction, None)
            return
        except GameError as err:
            await interaction.followup.send(refusal(err), ephemeral=True)
            return
        ended = outcome(request)
        if ended is not None:
            await _edit(interaction, ended)
        elif not request.again:
            await _edit(interaction, question(request), answer_view(request))
        if request.done is not None:
            await deliver_done(interaction, request.done)
        elif request.again:
            await interaction.followup.send(
                ended or "You have answered already: your first answer stands.", ephemeral=True)
        else:
            await interaction.followup.send(
                "Noted: you decline." if ended else f"Noted: you accept. Waiting for {_names(request.waiting)}.",
                ephemeral=True,
            )


async def _edit(interaction: Interaction, content: str | None, view: discord.ui.View | None = None) -> None:
    """Edits the question (its text when given; the buttons are ``view``, None: removed); a failure is logged."""
    if interaction.message is None:
        return
    text: dict[str, Any] = {"content": content} if content is not None else {}
    try:
        await interaction.message.edit(**text, view=view, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as err:
        log.warning("could not edit takeback question %s: %s", interaction.message.id, err)
