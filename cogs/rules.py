"""Rules summaries (each kit's ``rules`` file, ``data/rules/<game>.md`` for ours) shown as an ephemeral, paged reply.

A file holds pages separated by a line ``---``; each page must fit a message. They are
read and checked on first use, and an error names the file and the page.
"""

from __future__ import annotations

from functools import cache

import discord

from cogs.client import Tablehost, refusal
from cogs.prompts import Pager
from engines import KITS, GameError
from engines.core import shown

PAGE_LIMIT = 1800


def check_rules() -> None:
    """Reads every offered game's rules summary once; raises ValueError naming a malformed file."""
    for name, kit in KITS.items():
        if kit.rules is not None and kit.rules.is_file():
            pages(name)


@cache
def pages(game: str) -> tuple[str, ...]:
    """Returns the pages of a game's rules summary; raises GameError when there is none or it is malformed."""
    kit = KITS.get(game)
    path = kit.rules if kit is not None else None
    if path is None or not path.is_file():
        having = ", ".join(f"`{name}`" for name, k in sorted(KITS.items()) if k.rules is not None and k.rules.is_file())
        what = f"a rules summary for '{shown(game, 30)}' yet" if kit is not None else f"game called '{shown(game, 30)}'"
        raise GameError(f"There is no {what}. Games with a rules summary: {having or 'none'}.")
    found = tuple(p.strip() for p in path.read_text(encoding="utf-8").split("\n---\n") if p.strip())
    for n, page in enumerate(found, 1):
        if len(page) > PAGE_LIMIT:
            raise ValueError(f"{path}: page {n} has {len(page)} characters (at most {PAGE_LIMIT})")
    if not found:
        raise ValueError(f"{path}: no pages")
    return found


async def show_rules(interaction: discord.Interaction[Tablehost], game: str) -> None:
    """Answers with the first page of a game's rules summary, privately, with page buttons."""
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
