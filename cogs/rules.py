"""Rules summaries (each kit's ``rules`` file, ``data/rules/<game>.md`` for ours) shown as an ephemeral, paged reply,
and the help: one game's commands and moves (``/<game> help``, ``/game help`` in its channel), or the games.

A file holds pages separated by a line ``---``; each page must fit a message. They are
read and checked on first use, and an error names the file and the page.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache

import discord

from cogs.board import shorten
from cogs.client import Tablehost, refusal
from cogs.prompts import Pager
from engines import KITS, GameError
from engines.core import shown
from host.signing import bot_fingerprint

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


# -- help -----------------------------------------------------------------------------

HELP_LIMIT = 2000
"""Characters of one help message (Discord's limit on a message)."""
SHARED_GROUPS = ("game", "table")
"""The command groups every game shares, named under each game's help."""


def group_line(bot: Tablehost, group: str, names: Collection[str] | None = None) -> str:
    """Returns one group's subcommands named on one line, ``/game`` abort · addbot · board · …, or only those in
    ``names``; "" when there are none."""
    command = bot.tree.get_command(group)
    children = sorted(c.name for c in getattr(command, "commands", []) if names is None or c.name in names)
    return f"`/{group}` " + " · ".join(children) if children else ""


def _own_commands(bot: Tablehost, group: str, moves: Collection[str]) -> list[list[str]]:
    """Returns a game's commands written three ways, longest first: a line each; a line each but for the
    commands named after a move (named together, the moves' shapes above say them); all of them named."""
    lines = [line for line in command_lines(bot) if line.startswith(f"`/{group} ")]
    others = [line for line in lines if line.split()[1].rstrip("`") not in moves]
    named = group_line(bot, group, moves)
    return [lines, [*others, f"{named} — a command per move above"] if named else others, [group_line(bot, group)]]


def signed_line(mark: str) -> str:
    """Returns the line naming the bot's signing key and how to check a record with it."""
    return (f"Records (`/table export`) are signed by this bot's key **{mark}**: check one with"
            f" `python3 tasks.py run --verify FILE --key {mark}`.")


def game_help(bot: Tablehost, game: str, mark: str) -> str:
    """Returns one game's help in one message of at most :data:`HELP_LIMIT` characters.

    It holds the game's title and seats, how its moves are written, its own commands (one line
    each, or fewer lines when they would not fit: see :func:`_own_commands`), the shared groups
    named, and the signing key. Raises GameError for a game not offered here.
    """
    kit = KITS.get(game)
    if kit is None:
        raise GameError(f"There is no game called '{shown(game, 30)}' here.")
    group = kit.group or ""
    new = f"`/{group} new` (or `/game new game:{game}`)" if group else f"`/game new game:{game}`"
    head = [f"**{kit.title}** (`{game}`, {kit.engine._seat_range()} players). Open a table with {new}, then"
            " `/game join` and `/game start`; play with the commands below, or type a move in `/game play`."]
    if kit.notation_help:
        head.append(kit.notation_help)
    shared = [line for g in SHARED_GROUPS if (line := group_line(bot, g))]
    shared[:1] = [f"**Every game:** {line}" for line in shared[:1]]
    tail = [signed_line(mark)]
    for commands in _own_commands(bot, group, kit.engine.MOVE_SHAPES) if group else [[]]:  # the first that fits
        text = "\n".join([*head, *(c for c in commands if c), *shared, *tail])
        if len(text) <= HELP_LIMIT:
            return text
    body = shorten("\n".join([*head, *shared]), HELP_LIMIT - len(tail[0]) - 1)
    return f"{body}\n{tail[0]}"


def games_help(bot: Tablehost, mark: str) -> str:
    """Returns the help shown where no game is played: each game with where its own help is, the shared groups."""
    lines = ["**Tablehost** hosts play-by-post board games. The games, and where each one's help is:"]
    for name, kit in sorted(KITS.items()):
        command = bot.tree.get_command(kit.group) if kit.group else None
        about = getattr(command, "description", "")
        about = about[len(kit.title) + 1:].strip() if about.lower().startswith(kit.title.lower() + ":") else about
        has_help = any(c.name == "help" for c in getattr(command, "commands", []))
        where = f"`/{kit.group} help`" if has_help else "`/game help` in a channel playing it"
        lines.append(f"• **{kit.title}** (`{name}`, {kit.engine._seat_range()} players)"
                     + (f": {about}" if about else "") + f" — {where}")
    lines.append("Open a table with `/<game> new` (or `/game new`), then `/game join` and `/game start`."
                 " In a game's channel, `/game help` shows that game's commands.")
    lines += [line for g in SHARED_GROUPS if (line := group_line(bot, g))]
    text = "\n".join(lines)
    tail = signed_line(mark)
    return f"{shorten(text, HELP_LIMIT - len(tail) - 1)}\n{tail}"


async def show_help(interaction: discord.Interaction[Tablehost], game: str | None) -> None:
    """Answers privately with one message: ``game``'s help, or (None, or a game not offered here) the games'."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = interaction.client
    mark = await bot_fingerprint(bot.tables.store.db)
    text = game_help(bot, game, mark) if game is not None and game in KITS else games_help(bot, mark)
    await interaction.followup.send(text, ephemeral=True)
