"""The console table: a hot-seat game in a terminal over the same ``host/`` code the cogs use.

    python bot.py --console xisk --players ann,bob,cy [--seed N] [--script FILE]

At the prompt, type ``<player>: <move>`` (or just the move when one player must
act), or one of: ``help``, ``legal [player]``, ``hand [player]``, ``board``,
``log``, ``quit``; ``legal`` and ``hand`` with no name mean the player to act. A
private part (a XISK hand) is never printed unasked: the table says whose changed.
With ``--script`` the lines of FILE are played in order
(blank lines and ``#`` comments skipped); the first rejected line stops the run
with its message and exit status 1.

    python bot.py --console --load FILE [--script FILE]

replays a game exported with ``/table export`` (:mod:`host.export`) from its seed, move by
move: ``next [n]``, ``back [n]``, ``goto N`` (``goto start``, ``goto end``), ``board``, ``log``,
``hand <player>``, ``digest``, ``help``, ``quit`` (:class:`Replayer`). Each step forward shows
the move and what it announced; hands stay hidden unless asked for (the game is over, so
they may be).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from engines import GAMES, KITS, GameError
from engines.core import Event, Game, is_public
from engines.core.registry import RegistryError
from engines.core.words import plural
from host.export import Export, ExportError, Move, load_export
from host.fairness import commitment, digest, seal
from host.options import parse_options
from host.outbox import Outbox
from host.store import Store
from host.tables import Person, Table, Tables, secret_part
from host.undo import TAKEBACK, TAKING_BACK, taken_back
from render import render
from render.common import extension

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
            kit = KITS.get(table.row.game)
            self.say(COMMANDS + (f"\n{kit.notation_help}" if kit is not None and kit.notation_help else ""))
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
            picture = render(table.row.game, game.view(None), title=table.title)
            path = self.pictures / f"{table.row.game}-{table.row.version:04d}.{extension(picture)}"
            path.write_bytes(picture)
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
    """Returns a player's private part as a player reads it (its kit's words, e.g. a XISK hand by suit)."""
    kit = KITS.get(game)
    if kit is not None and kit.describe_secret is not None:
        return kit.describe_secret(secret)
    return "\n".join(f"{k}: {v}" for k, v in secret.items()) or "Nothing hidden."


# -- replaying an export -----------------------------------------------------------------

REPLAY_COMMANDS = (
    "Commands: 'next [n]', 'back [n]', 'goto N' (or 'goto start', 'goto end'), 'board', 'log',"
    " 'hand <player>', 'digest', 'help', 'quit'."
)


@dataclass
class Step:
    """One position of a replay: the log entry that led to it (None: the start) and the game after it."""

    entry: Move | None
    state: str
    """The game after the entry (``to_json``)."""
    lines: list[str] = field(default_factory=list)
    """What the entry announced, as the table said it."""
    notes: list[str] = field(default_factory=list)


class Replayer:
    """Steps through an exported game, rebuilt from its seed and log; output goes to ``out``."""

    def __init__(self, data: Export, out: TextIO, pictures: Path) -> None:
        self.data = data
        self.out = out
        self.pictures = pictures
        self.steps: list[Step] = []
        self.stopped: str | None = None
        """Why the replay ends before the log does (a move the rules refuse), or None."""
        self.pos = 0
        self._build()

    def say(self, text: str) -> None:
        """Prints a line."""
        print(text, file=self.out, flush=True)

    def _build(self) -> None:
        game = self.data.new_game()
        self.steps.append(Step(None, game.to_json(), [e["text"] for e in game.opening_events() if is_public(e)]))
        standing: list[tuple[Move, str]] = []
        for m in self.data.moves:
            if m.move in TAKING_BACK:
                if standing:
                    taken, before = standing.pop()
                    previous = type(game).from_json(before)
                    previous.load_state(taken_back(previous.dump_state(), game.dump_state(), m.move))
                    game = previous
                    line = (f"Takeback accepted by everyone: {taken.move} is taken back." if m.move == TAKEBACK
                            else f"{m.player} takes back their move ({taken.move}).")
                else:
                    line = f"{m.player} takes back nothing (no move stands)."
                self.steps.append(Step(m, game.to_json(), [line]))
                continue
            before = game.to_json()
            secrets = {p: secret_part(game, p) for p in game.players}
            try:
                events = game.play(m.player, m.move)
            except GameError as err:
                self.stopped = (f"move {m.seq} ({m.player}: {m.move}) is refused by the rules here ({err}):"
                                " the replay ends before it (tasks.py run --verify checks the file).")
                break
            standing.append((m, before))
            public = [e for e in events if is_public(e)]
            step = Step(m, game.to_json(), [e["text"] for e in public])
            if m.events is not None and m.events != _through_json(public):
                step.notes.append("(the file recorded other events for this move: tasks.py run --verify checks it)")
            for p in game.players:
                after = secret_part(game, p)
                if after and after != secrets[p]:
                    what = "a new hand" if "hand" in after else "new secrets"
                    step.notes.append(f"({p} has {what}: type 'hand {p}')")
            self.steps.append(step)

    @property
    def last(self) -> int:
        """The position of the last step (the number of log entries replayed)."""
        return len(self.steps) - 1

    def game(self) -> Game:
        """Returns the game at the current position."""
        return GAMES[self.data.game].from_json(self.steps[self.pos].state)

    def open(self) -> None:
        """Prints what the file is, the opening announcements and the position."""
        d = self.data
        head = f"{d.title} game" + (f" {d.game_id}" if d.game_id is not None else "") + f" ({d.status})"
        dates = " to ".join(x for x in (d.created, d.ended) if x)
        self.say(f"{head}: {', '.join(d.names)}" + (f"; {dates}" if dates else "") + ".")
        if d.server_seed is not None and d.commitment is not None:
            sealed = "matches" if seal(d.server_seed) == d.commitment else "does NOT match"
            self.say(f"Server seed {d.server_seed}: its SHA-256 {sealed} the commitment posted when the table"
                     f" opened. Entropy: {d.entropy}.")
        elif d.seed is not None and d.salt is not None and d.commitment is not None:
            sealed = "matches" if commitment(d.seed, d.salt) == d.commitment else "does NOT match"
            self.say(f"Seed {d.seed}, salt {d.salt}: their SHA-256 {sealed} the commitment posted at the start.")
        else:
            self.say(f"Seed {d.seed} (no commitment recorded: the game is older than fair dice).")
        self.say(f"{plural(len(d.moves), 'log entry', 'log entries')}. Type 'next' to step through them, 'help'"
                 " for every command.")
        self.say("\n".join(self.steps[0].lines))
        if self.stopped:
            self.say(f"Warning: {self.stopped}")
        self.position()

    def position(self) -> None:
        """Prints where the replay stands: the move, who acts next, or the result."""
        game = self.game()
        entry = self.steps[self.pos].entry
        where = "At the start" if entry is None else f"At move {entry.seq}"
        where += f" ({self.pos} of {self.last})"
        if game.is_over:
            self.say(f"{where}. {game_over(game.winners)}")
        elif self.pos == self.last and self.data.status == "aborted" and not self.stopped:
            self.say(f"{where}: the game was aborted here.")
        else:
            self.say(f"{where}. To act: {', '.join(game.to_act())}")

    def show(self, step: Step) -> None:
        """Prints a step as the table announced it."""
        m = step.entry
        assert m is not None
        by = " (by the turn clock)" if m.origin == "clock" else ""
        self.say(f"{m.seq:>4} {m.player}: {m.move}{by}")
        for line in [*step.lines, *step.notes]:
            self.say(f"     {line}")

    def handle(self, line: str) -> bool:
        """Runs one command; returns False when the session should end. Raises GameError on a refusal."""
        line = line.strip()
        if not line or line.startswith("#"):
            return True
        word, _, rest = line.partition(" ")
        word, rest = word.lower(), rest.strip()
        if word in {"quit", "exit"}:
            return False
        if word == "help":
            self.say(REPLAY_COMMANDS)
        elif word in {"next", "n"}:
            count = _count(rest)
            if self.pos == self.last:
                self.say("This is the end of the log: 'back', 'goto N' or 'quit'.")
            for _ in range(count):
                if self.pos == self.last:
                    break
                self.pos += 1
                self.show(self.steps[self.pos])
            if self.pos == self.last and self.stopped:
                self.say(f"The replay ends here: {self.stopped}")
            self.position()
        elif word in {"back", "b"}:
            self.pos = max(0, self.pos - _count(rest))
            self.position()
        elif word == "goto":
            self.pos = self._target(rest)
            if self.pos:
                self.show(self.steps[self.pos])
            self.position()
        elif word == "board":
            game = self.game()
            self.pictures.mkdir(parents=True, exist_ok=True)
            picture = render(self.data.game, game.view(None), title=self.data.title)
            path = self.pictures / f"{self.data.game}-{self.data.game_id or 0}-{self.pos:04d}.{extension(picture)}"
            path.write_bytes(picture)
            self.say(str(path))
        elif word == "log":
            self.say(self._log())
        elif word == "hand":
            game = self.game()
            seat = self._seat(rest) if rest else (game.to_act() or [""])[0]
            if not seat:
                raise GameError(f"Say whose hand: 'hand <player>' (players: {', '.join(self.data.names)}).")
            self.say(f"{seat}: " + describe_secret(self.data.game, secret_part(game, seat)))
        elif word == "digest":
            self.say(f"State digest: {digest(self.game().dump_state())}")
        else:
            raise GameError(f"This is a replay: moves cannot be played. {REPLAY_COMMANDS}")
        return True

    def _target(self, text: str) -> int:
        """Returns the position of ``goto``'s argument: a move number, ``start`` or ``end``."""
        if text.lower() in {"start", "0"}:
            return 0
        if text.lower() in {"end", "last"}:
            return self.last
        seqs = [s.entry.seq if s.entry else 0 for s in self.steps]
        if text.isdigit() and int(text) in seqs:
            return seqs.index(int(text))
        raise GameError(f"There is no move '{text[:20]}' to go to: the log has moves 1–{seqs[-1]}"
                        " ('goto start' is before the first).")

    def _seat(self, who: str) -> str:
        names = {n.casefold(): n for n in self.data.names}
        if who.casefold() not in names:
            raise GameError(f"There is no player called '{who[:32]}' (players: {', '.join(self.data.names)}).")
        return names[who.casefold()]

    def _log(self) -> str:
        rows = []
        for n, step in enumerate(self.steps[1:], 1):
            m = step.entry
            assert m is not None
            mark = "▶" if n == self.pos else " "
            rows.append(f"{mark}{m.seq:>4} {m.player}: {m.move}")
        if self.stopped:
            rows.append(f"  (not replayed: {self.stopped})")
        return "\n".join(rows) or "No moves."


def _count(text: str) -> int:
    """Returns the step count of ``next`` or ``back`` (1 when none is given)."""
    if not text:
        return 1
    if not text.isdigit() or int(text) < 1:
        raise GameError(f"Say how many moves as a number, e.g. 'next 5', not '{text[:20]}'.")
    return int(text)


def _through_json(events: list[Event]) -> Any:
    return json.loads(json.dumps(events))


def replay(path: Path, lines: Iterable[str] | None, out: TextIO, pictures: Path) -> int:
    """Replays an exported game at the console; returns the exit status (2: the file cannot be read)."""
    try:
        data = load_export(path.read_bytes())
    except OSError as err:
        print(f"error: cannot read {path}: {err.strerror or err}", file=out)
        return 2
    except ExportError as err:
        print(f"error: {path}: {err}", file=out)
        return 2
    try:
        replayer = Replayer(data, out, pictures)
    except GameError as err:
        print(f"error: {path}: the game cannot be set up from it: {err}", file=out)
        return 2
    replayer.open()
    if lines is not None:
        for n, line in enumerate(lines, 1):
            try:
                if not replayer.handle(line):
                    break
            except GameError as err:
                print(f"line {n}: {line.strip()!r} rejected: {err}", file=out)
                return 1
        return 0
    while True:
        try:
            line = input("> ")
        except EOFError:
            return 0
        try:
            if not replayer.handle(line):
                return 0
        except GameError as err:
            replayer.say(f"✗ {err}")


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
    p.add_argument("game", nargs="?", help=f"one of: {', '.join(sorted(GAMES)) or 'none'}")
    p.add_argument("--players", type=lambda s: [n.strip() for n in s.split(",") if n.strip()])
    p.add_argument("--load", type=Path, default=None, help="replay a game exported with /table export")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--options", default="", help="name=value pairs, e.g. 'target=15'")
    p.add_argument("--script", type=Path, default=None, help="a file of 'player: move' lines (or replay commands)")
    p.add_argument("--pictures", default="out", help="folder for 'board' pictures (default: out)")
    return p


def main(argv: list[str], out: TextIO | None = None) -> int:
    """Parses console arguments and runs the table (printing to ``out``, else stdout); returns the exit status."""
    out = out or sys.stdout
    try:
        p = parser()  # lists the games: a broken game package is named here, in one line
    except RegistryError as err:
        print(f"error: {err}", file=out)
        return 2
    args = p.parse_args(argv)
    if args.load is None and args.game is None:
        p.error("name a game (e.g. xisk) with --players, or --load an exported game")
    if args.load is None and args.players is None:
        p.error("the following arguments are required: --players")
    if args.load is not None and (args.game is not None or args.players is not None):
        p.error("--load replays an exported game: it takes no game name or --players")
    if args.load is None and args.game not in GAMES:
        print(f"error: no game called '{args.game}' (games: {', '.join(sorted(GAMES)) or 'none'})", file=out)
        return 2
    lines = None
    if args.script is not None:
        try:
            lines = args.script.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError as err:
            print(f"error: cannot read {args.script}: {err.strerror}", file=out)
            return 2
    if args.load is not None:
        return replay(args.load, lines, out, Path(args.pictures))
    return asyncio.run(run(args, lines, out))
