"""The console table: a hot-seat game in a terminal over the same ``host/`` code the cogs use.

    python bot.py --console xisk --players ann,bob,cy [--seed N] [--script FILE]

At the prompt, type ``<player>: <move>`` (or just the move when one player must
act), or one of: ``help``, ``legal [player]``, ``hand [player]``, ``board``,
``log``, ``quit``; ``legal`` and ``hand`` with no name mean the player to act. A
private part (a XISK hand) is never printed unasked: the table says whose changed.
With ``--script`` the lines of FILE are played in order
(blank lines and ``#`` comments skipped); the first rejected line stops the run
with its message and exit status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from engines import GAMES, GameError
from engines.core.words import plural
from engines.xisk.hand import describe_hand
from host.options import parse_options
from host.outbox import Outbox
from host.store import Store
from host.tables import Person, Table, Tables, secret_part
from render import render

CHANNEL = "console"
COMMANDS = "Commands: '<player>: <move>', 'legal [player]', 'hand [player]', 'board', 'log', 'help', 'quit'."


class Console:
    """A hot-seat table in one process; output goes to ``out``."""

    def __init__(self, tables: Tables, players: list[str], out: TextIO, pictures: Path) -> None:
        self.tables = tables
        self.people = {name: Person(f"console-{i}", name) for i, name in enumerate(players)}
        self.out = out
        self.pictures = pictures

    def say(self, text: str) -> None:
        """Prints a line."""
        print(text, file=self.out, flush=True)

    async def open(self, game: str, seed: int | None, options: dict[str, object]) -> None:
        """Opens the table, seats everyone in order and starts the game."""
        first, *rest = self.people.values()
        await self.tables.create(channel_id=CHANNEL, guild_id=None, game=game, creator=first, options=options)
        for p in rest:
            await self.tables.join(CHANNEL, p)
        out = await self.tables.start(CHANNEL, first, seed=seed)
        self.say(out.text())
        self._notes(out)
        await self.prompt_line()

    def _name(self, uid: str) -> str:
        return next(n for n, p in self.people.items() if p.id == uid)

    async def table(self) -> Table:
        """Returns the current table."""
        return await self.tables.table(CHANNEL)

    async def prompt_line(self) -> None:
        """Prints who must act now, or the result."""
        table = await self.table()
        assert table.game is not None
        if table.game.is_over:
            self.say(game_over(table.game.winners))
        else:
            self.say(f"To act: {', '.join(table.game.to_act())}")

    async def handle(self, line: str) -> bool:
        """Runs one input line; returns False when the session should end. Raises GameError on a refusal."""
        line = line.strip()
        if not line or line.startswith("#"):
            return True
        word, _, rest = line.partition(" ")
        word = word.lower()
        table = await self.table()
        game = table.game
        assert game is not None
        if word in {"quit", "exit"}:
            return False
        if word == "help":
            self.say(COMMANDS)
        elif word == "legal":
            who = rest.strip()
            seat = self._seat(table, who) if who else (game.to_act() or [""])[0]
            self.say("\n".join(game.legal_moves(seat)) or f"{who or seat} has no legal move now.")
        elif word == "hand":
            who = rest.strip()
            seat = self._seat(table, who) if who else (game.to_act() or [""])[0]
            if not seat:
                raise GameError("Say whose hand: 'hand <player>'.")
            secret = secret_part(game, seat)
            self.say(describe_secret(table.row.game, secret))
        elif word == "board":
            self.pictures.mkdir(parents=True, exist_ok=True)
            path = self.pictures / f"{table.row.game}-{table.row.version:04d}.png"
            path.write_bytes(render(table.row.game, game.view(None), title=table.title))
            self.say(str(path))
        elif word == "log":
            _, moves = await self.tables.log(CHANNEL, last=20)
            names = {p.id: n for n, p in self.people.items()}
            self.say("\n".join(f"{m.seq:>4} {names.get(m.player_id)}: {m.move}" for m in moves) or "No moves yet.")
        else:
            by_seat = {table.name_of(p.id): name for name, p in self.people.items()}
            await self.move(line, [by_seat.get(seat) or seat for seat in game.to_act()])
        return True

    def _seat(self, table: Table, who: str) -> str:
        """Returns the engine's name for a player typed as given on the command line ('Ann (2)')."""
        self._check_player(who)
        return table.name_of(self.people[who].id) or who

    def _check_player(self, who: str) -> None:
        if who not in self.people:
            raise GameError(f"There is no player called '{who}' (players: {', '.join(self.people)}).")

    async def move(self, line: str, acting: list[str]) -> None:
        """Plays ``player: move``, or a bare move when exactly one player may act.

        ``acting`` names the players who may act as they were typed on the command line.
        """
        who, sep, move = line.partition(":")
        if not sep:
            if len(acting) != 1:
                raise GameError("Say who moves: '<player>: <move>'.")
            who, move = acting[0], line
        who = who.strip()
        self._check_player(who)
        out = await self.tables.act(CHANNEL, self.people[who].id, move.strip())
        # The move's events first, then the result once (the prompt line below says it).
        self.say("\n".join([*out.lines, *(e["text"] for e in out.events if e["kind"] != "game_over")]))
        self._notes(out)
        await self.prompt_line()

    def _notes(self, out: Outbox) -> None:
        """Says whose private part changed (a new hand) or who has private messages, never what."""
        for uid in {**out.secrets, **out.private}:
            name = self._name(uid)
            if uid in out.secrets:
                what = "a new hand" if "hand" in out.secrets[uid] else "new secrets"
                self.say(f"  ({name} has {what}: type 'hand {name}')")
            else:
                self.say(f"  ({name} has {plural(len(out.private[uid]), 'private message')})")


def game_over(winners: list[str]) -> str:
    """Returns the line that ends a game: who won, or a draw."""
    if not winners:
        return "Game over: a draw."
    return f"Game over: {' and '.join(winners)} win{'s' if len(winners) == 1 else ''}!"


def describe_secret(game: str, secret: dict[str, object]) -> str:
    """Returns a player's private part as a player reads it (a XISK hand by suit, with its sets)."""
    hand = secret.get("hand")
    if game == "xisk" and isinstance(hand, list):
        return describe_hand([str(c) for c in hand])
    return "\n".join(f"{k}: {v}" for k, v in secret.items()) or "Nothing hidden."


async def run(args: argparse.Namespace, lines: Iterable[str] | None, out: TextIO) -> int:
    """Runs a console table; returns the exit status."""
    with tempfile.TemporaryDirectory(prefix="tablehost-") as tmp:
        store = await Store.open(str(Path(tmp) / "console.db"))
        try:
            console = Console(Tables(store, debug=True), args.players, out, Path(args.pictures))
            try:
                await console.open(args.game, args.seed, parse_options(args.options))
            except GameError as err:
                print(f"error: {err}", file=out)
                return 2
            if lines is not None:
                for n, line in enumerate(lines, 1):
                    try:
                        if not await console.handle(line):
                            break
                    except GameError as err:
                        print(f"line {n}: {line.strip()!r} rejected: {err}", file=out)
                        return 1
                return 0
            while True:
                try:
                    line = await asyncio.to_thread(input, "> ")
                except EOFError:
                    return 0
                try:
                    if not await console.handle(line):
                        return 0
                except GameError as err:
                    console.say(f"✗ {err}")
        finally:
            await store.close()


def parser() -> argparse.ArgumentParser:
    """Returns the console's argument parser."""
    p = argparse.ArgumentParser(prog="bot.py --console", description="Play a game at the console (hot seat).")
    p.add_argument("game", help=f"one of: {', '.join(sorted(GAMES)) or 'none'}")
    p.add_argument("--players", required=True, type=lambda s: [n.strip() for n in s.split(",") if n.strip()])
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--options", default="", help="name=value pairs, e.g. 'target=15'")
    p.add_argument("--script", type=Path, default=None, help="a file of 'player: move' lines")
    p.add_argument("--pictures", default="out", help="folder for 'board' pictures (default: out)")
    return p


def main(argv: list[str], out: TextIO = sys.stdout) -> int:
    """Parses console arguments and runs the table; returns the exit status."""
    args = parser().parse_args(argv)
    if args.game not in GAMES:
        print(f"error: no game called '{args.game}' (games: {', '.join(sorted(GAMES)) or 'none'})", file=out)
        return 2
    lines = None
    if args.script is not None:
        try:
            lines = args.script.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError as err:
            print(f"error: cannot read {args.script}: {err.strerror}", file=out)
            return 2
    return asyncio.run(run(args, lines, out))
