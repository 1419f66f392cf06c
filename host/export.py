"""A finished game as one file: its seed and salt, the whole log, each move's dice and digest, the end.

``/table export`` hands a player this file; ``python bot.py --verify FILE`` checks it (:mod:`host.verify`)
and ``python bot.py --console --load FILE`` replays it move by move. The file is JSON::

    {
      "format": "tablehost-game", "version": 1,
      "game": "xisk", "title": "XISK", "id": 12, "status": "finished",
      "created": "2024-05-01T18:00:00+00:00", "ended": "2024-05-09T21:14:03+00:00",
      "options": {...},
      "players": [{"seat": 0, "name": "ann", "id": "1001"}, ...],
      "seed": 1234, "salt": "00ff…", "commitment": "<sha256 of '1234:00ff…'>",
      "moves": [
        {"seq": 1, "player": "ann", "move": "claim alaska", "at": "…", "origin": null,
         "events": [{"kind": "claim", "text": "…", …}], "digest": "<sha256 of the state after it>"},
        …
      ],
      "winners": ["ann"],
      "final_state": {...}
    }

``players`` are in seat order (the order the engine was built with); ``id`` is the player's
Discord user id, which is public (anyone in the server can copy it) and tells two players of
the same name apart. ``moves`` is the log as stored, ``undo`` entries included (each takes back
the latest standing move, see :mod:`host.undo`); ``events`` are the move's public events as they
were announced (None for a move from before records were kept), ``digest`` the SHA-256 of the
state after it (:func:`host.fairness.digest`). ``final_state`` is the engine's ``dump_state()``
at the end, hidden hands included: the game is over, so nothing in it is secret any more.

Only a finished or aborted game is exported: while a game runs its seed is secret (whoever
knew it could foresee every die), and a game that never started has no seed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from engines import GAMES, GameError
from engines.core import Game
from engines.core.reader import FieldError, Reader, at, check_plain, show_value
from host.fairness import commitment
from host.store import MoveRow, Status, Store
from host.table import Refusal
from host.undo import UNDO, effective_moves

FORMAT = "tablehost-game"
"""The ``format`` marker of an export."""
VERSION = 1
"""The export format's version this bot writes and reads."""
MAX_BYTES = 64 * 1024 * 1024
"""The largest export file read."""
MAX_MOVE = 300
"""The longest move text read (the table service refuses longer moves)."""
RUNNING = "The game is still running: its export comes when it ends (its seed is secret until then)."
_HEX64 = re.compile(r"[0-9a-f]{64}")


class ExportError(FieldError):
    """An export file that cannot be read: the message names the field and the problem."""


@dataclass(frozen=True)
class Player:
    """A seat of an exported game."""

    seat: int
    name: str
    id: str | None = None


@dataclass(frozen=True)
class Move:
    """One entry of an exported log (``move`` is ``undo`` for a move taken back)."""

    seq: int
    player: str
    move: str
    at: str | None = None
    origin: str | None = None
    events: list[dict[str, Any]] | None = None
    """The public events recorded when the move was played; None: not recorded."""
    digest: str | None = None
    """The recorded SHA-256 of the state after the move; None: not recorded."""


@dataclass(frozen=True)
class Export:
    """A read and checked export file (see the module's docstring for its fields)."""

    game: str
    title: str
    status: str
    options: dict[str, Any]
    players: list[Player]
    seed: int
    salt: str | None
    commitment: str | None
    moves: list[Move]
    winners: list[str] | None
    final_state: dict[str, Any] | None
    game_id: int | None = None
    created: str | None = None
    ended: str | None = None

    @property
    def names(self) -> list[str]:
        """The seat names in seat order."""
        return [p.name for p in self.players]

    def new_game(self) -> Game:
        """Returns the game as it started: built from the seed, the seats and the options."""
        return GAMES[self.game].new(self.names, self.seed, self.options)


# -- writing ------------------------------------------------------------------------------


async def export_game(store: Store, game_id: int) -> dict[str, Any]:
    """Returns the export of a finished or aborted game as a JSON-ready dict.

    Raises Refusal when there is no such game, when it is still running (its seed is
    secret) and when it never started (it has no seed).
    """
    row = await store.game(game_id)
    if row is None:
        raise Refusal(f"There is no game {game_id}.")
    if row.status is Status.RUNNING:
        raise Refusal(RUNNING)
    if row.status is Status.LOBBY or row.seed is None:
        raise Refusal("That game never started: there is no seed or move to export.")
    seats = await store.seats(game_id)
    log = await store.moves(game_id)
    names = {s.player_id: s.name for s in seats}
    cls = GAMES.get(row.game)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": row.game,
        "title": cls.TITLE if cls else row.game,
        "id": row.id,
        "status": row.status.value,
        "created": row.created_at,
        "ended": row.updated_at,
        "options": row.options,
        "players": [{"seat": s.seat, "name": s.name, "id": s.player_id} for s in seats],
        "seed": row.seed,
        "salt": row.salt,
        "commitment": commitment(row.seed, row.salt) if row.salt else None,
        "moves": [_move(m, names) for m in log],
        "winners": row.winners if row.status is Status.FINISHED else None,
        "final_state": _final_state(cls, row.snapshot, [s.name for s in seats], row.seed, row.options, log, names),
    }


def _move(m: MoveRow, names: dict[str, str]) -> dict[str, Any]:
    events: Any = None
    if m.events is not None:
        try:
            events = json.loads(m.events)
        except (ValueError, RecursionError):
            events = None  # a damaged record is "not recorded": the verifier still replays the move
    return {
        "seq": m.seq,
        "player": names.get(m.player_id, m.player_id),
        "move": m.move,
        "at": m.at,
        "origin": m.origin,
        "events": events if isinstance(events, list) else None,
        "digest": m.digest,
    }


def _final_state(
    cls: type[Game] | None, snapshot: str | None, players: list[str], seed: int, options: dict[str, Any],
    log: list[MoveRow], names: dict[str, str],
) -> dict[str, Any] | None:
    """Returns the game's state at its end: from the snapshot, else replayed from the log (None: neither)."""
    if cls is None:
        return None
    try:
        return cls.from_json(snapshot or "").dump_state()
    except GameError:
        pass
    try:
        game = cls.new(players, seed, options)
        for m in effective_moves(log):
            game.play(names.get(m.player_id, m.player_id), m.move)
        return game.dump_state()
    except Exception:  # a damaged game exports without its end; --verify then says so
        return None


def export_text(data: dict[str, Any]) -> str:
    """Returns an export as the file's text: indented JSON, keys in a fixed order, one log entry a line."""
    body = {k: v for k, v in data.items() if k != "moves"}
    moves = data.get("moves") or []
    parts = []
    for key, value in body.items():
        text = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  ")
        parts.append(f"  {json.dumps(key)}: {text}")
        if key == "commitment":  # the log after the fairness fields, before the result
            parts.append(f'  "moves": {_lines(moves)}')
    if "commitment" not in body:
        parts.append(f'  "moves": {_lines(moves)}')
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _lines(moves: list[Any]) -> str:
    if not moves:
        return "[]"
    rows = [json.dumps(m, ensure_ascii=False, separators=(", ", ": ")) for m in moves]
    return "[\n    " + ",\n    ".join(rows) + "\n  ]"


def file_name(data: dict[str, Any]) -> str:
    """Returns the export's file name, ``<game>-<id>.json``.

    >>> file_name({"game": "xisk", "id": 12})
    'xisk-12.json'
    """
    return f"{data.get('game', 'game')}-{data.get('id', 0)}.json"


# -- reading ------------------------------------------------------------------------------


class _Reader(Reader):
    error = ExportError


def load_export(text: str | bytes) -> Export:
    """Reads and checks an export file; raises ExportError with one sentence naming what is wrong.

    >>> load_export("not json")
    Traceback (most recent call last):
    ...
    host.export.ExportError: This is not a Tablehost game export: it is not JSON (line 1, column 1).
    >>> load_export('{"format": "tablehost-game", "version": 1, "game": "chess"}')
    Traceback (most recent call last):
    ...
    host.export.ExportError: the export file: game: this bot has no game called 'chess' (games: nexo, nxs, xisk)
    """
    if isinstance(text, bytes | bytearray):
        if len(text) > MAX_BYTES:
            raise ExportError(f"This is not a Tablehost game export: it is too large ({len(text)} bytes).")
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise ExportError(
                f"This is not a Tablehost game export: it is not UTF-8 text (a bad byte at {err.start})."
            ) from None
    if len(text) > MAX_BYTES:
        raise ExportError(f"This is not a Tablehost game export: it is too large ({len(text)} characters).")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ExportError(
            f"This is not a Tablehost game export: it is not JSON (line {err.lineno}, column {err.colno})."
        ) from None
    except RecursionError:
        raise ExportError("This is not a Tablehost game export: it is nested too deeply.") from None
    if not isinstance(data, dict):
        raise ExportError("This is not a Tablehost game export: it holds no JSON object.")
    return _read(data)


def _read(data: dict[str, Any]) -> Export:
    r = _Reader("the export file")
    if data.get("format") != FORMAT:
        found = data.get("format")
        what = f"its format is {show_value(found)}, not '{FORMAT}'" if found is not None else "it has no 'format' field"
        raise ExportError(f"This is not a Tablehost game export: {what}.")
    version = r.int_(data, "version", "", low=1)
    if version > VERSION:
        raise r.fail("version", f"the file is version {version}, newer than this bot reads ({VERSION}): update it")
    name = r.text(data, "game", "")
    cls = GAMES.get(name)
    if cls is None:
        raise r.fail("game", f"this bot has no game called {show_value(name)} (games: {', '.join(sorted(GAMES))})")
    game_id = r.opt_int(data, "id", "")
    status = r.text(data, "status", "", choices=(Status.FINISHED.value, Status.ABORTED.value))
    options = r.obj(r.field(data, "options", "", {}), "options")
    try:
        options = cls.check_options(options)
    except GameError as err:
        raise r.fail("options", str(err)) from None
    players = _players(r, r.items(data, "players", ""), cls)
    names = {p.name for p in players}
    seed = r.int_(data, "seed", "", low=-(2**63), high=2**64)
    salt = r.opt_text(data, "salt", "")
    posted = r.opt_text(data, "commitment", "")
    if posted is not None:
        r.need(_HEX64.fullmatch(posted) is not None, "commitment", "expected 64 hex digits (a SHA-256)")
    moves = [_move_of(r, m, at("moves", i), names) for i, m in enumerate(r.items(data, "moves", ""))]
    winners: list[str] | None = None
    if data.get("winners") is not None:
        winners = []
        for i, w in enumerate(r.items(data, "winners", "")):
            r.need(isinstance(w, str) and w in names, at("winners", i), f"{show_value(w)} is not a seated player")
            winners.append(w)
    final = data.get("final_state")
    if final is not None:
        final = r.obj(final, "final_state")
        _plain(final, "final_state")
    return Export(
        game=name, title=cls.TITLE, status=status, options=options, players=players, seed=seed, salt=salt,
        commitment=posted, moves=moves, winners=winners, final_state=final, game_id=game_id,
        created=r.opt_text(data, "created", ""), ended=r.opt_text(data, "ended", ""),
    )


def _players(r: _Reader, items: list[Any], cls: type[Game]) -> list[Player]:
    players = []
    for i, p in enumerate(items):
        path = at("players", i)
        p = r.obj(p, path)
        name = r.text(p, "name", path)
        r.need(len(name) <= 100, at(path, "name"), "the name is too long")
        ident = p.get("id")
        r.need(ident is None or isinstance(ident, str | int), at(path, "id"), f"expected text, got {show_value(ident)}")
        players.append(Player(r.int_(p, "seat", path, default=i), name, None if ident is None else str(ident)))
    r.need(cls.MIN_PLAYERS <= len(players) <= cls.MAX_PLAYERS, "players",
           f"{cls.TITLE} needs {cls._seat_range()} players, not {len(players)}")
    r.need(len({p.name for p in players}) == len(players), "players", "a name is seated twice")
    return players


def _move_of(r: _Reader, m: Any, path: str, names: set[str]) -> Move:
    m = r.obj(m, path)
    player = r.text(m, "player", path)
    r.need(player in names, at(path, "player"), f"{show_value(player)} is not a seated player")
    move = r.text(m, "move", path)
    r.need(len(move) <= MAX_MOVE, at(path, "move"), f"a move is at most {MAX_MOVE} characters")
    events = m.get("events")
    if events is not None:
        events = r.list_(events, at(path, "events"))
        for j, e in enumerate(events):
            where = at(at(path, "events"), j)
            e = r.obj(e, where)
            r.text(e, "kind", where)
            r.word(r.field(e, "text", where), at(where, "text"))
        _plain(events, at(path, "events"))
    digest = r.opt_text(m, "digest", path)
    if digest is not None:
        r.need(_HEX64.fullmatch(digest) is not None, at(path, "digest"), "expected 64 hex digits (a SHA-256)")
    return Move(
        seq=r.int_(m, "seq", path, low=1), player=player, move=move, at=r.opt_text(m, "at", path),
        origin=r.opt_text(m, "origin", path), events=events, digest=digest,
    )


def _plain(value: Any, path: str) -> None:
    """Checks that part of the file is plain, bounded JSON; the error names the field below ``path``."""
    try:
        check_plain(value, "")
    except FieldError as err:
        inner, sep, problem = str(err).removeprefix(": ").partition(": ")
        if not sep:
            raise ExportError(f"the export file: {path}: {inner}") from None
        full = path if inner == "(top)" else path + inner if inner.startswith("[") else f"{path}.{inner}"
        raise ExportError(f"the export file: {full}: {problem}") from None


__all__ = ["FORMAT", "RUNNING", "UNDO", "VERSION", "Export", "ExportError", "Move", "Player", "export_game",
           "export_text", "file_name", "load_export"]
