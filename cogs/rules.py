"""Rules summaries (``data/rules/<game>.md``, in our own words) shown as an ephemeral, paged reply.

A file holds pages separated by a line ``---``; each page must fit a message. They are
read and checked on first use, and an error names the file and the page.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord

from engines import GameError

if TYPE_CHECKING:
    from cogs.client import Tablehost

RULES = Path(__file__).resolve().parents[1] / "data" / "rules"
PAGE_LIMIT = 1800


@cache
def pages(game: str) -> tuple[str, ...]:
    """Returns the pages of a game's rules summary; raises GameError when there is none or it is malformed."""
    path = RULES / f"{game}.md"
    if not path.is_file():
        raise GameError(f"There is no rules summary for '{game}' yet.")
    found = tuple(p.strip() for p in path.read_text(encoding="utf-8").split("\n---\n") if p.strip())
    for n, page in enumerate(found, 1):
        if len(page) > PAGE_LIMIT:
            raise ValueError(f"{path}: page {n} has {len(page)} characters (at most {PAGE_LIMIT})")
    if not found:
        raise ValueError(f"{path}: no pages")
    return found


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


async def show_rules(interaction: discord.Interaction[Tablehost], game: str) -> None:
    """Answers with the first page of a game's rules summary, privately, with page buttons."""
    from cogs.client import refusal

    try:
        texts = pages(game)
    except GameError as err:
        await interaction.response.send_message(refusal(err), ephemeral=True)
        return
    pager = Pager(texts)
    if len(texts) == 1:
        await interaction.response.send_message(pager.page(), ephemeral=True)
    else:
        await interaction.response.send_message(pager.page(), view=pager, ephemeral=True)


def command_lines(bot: Tablehost) -> list[str]:
    """Returns one line per slash command of every cog: ``/xisk attack — Attack a country``."""
    lines: list[str] = []
    for command in sorted(bot.tree.get_commands(), key=lambda c: c.name):
        children = getattr(command, "commands", None)
        if children is None:
            lines.append(f"`/{command.name}` — {command.description}")
            continue
        for child in sorted(children, key=lambda c: c.name):
            lines.append(f"`/{command.name} {child.name}` — {child.description}")
    return lines
