"""Reading an export file (:mod:`host.export` writes it and describes its fields): the schema first, then each field.

:func:`load_export` returns an :class:`Export` or raises :class:`ExportError` with one sentence naming
the field; :mod:`host.verify` then checks what the file claims against a replay.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

from engines import GAMES, GameError
from engines.core import Game
from engines.core.reader import FieldError, Reader, at, check_plain, show_value
from engines.core.rng import KEYED, MAX_ENTROPY, SEED_PATTERN, SPLITMIX, Draw, keyed_seed
from host.fairness import join_part
from host.signing import check as check_signature
from host.store import Status

FORMAT = "tablehost-game"
"""The ``format`` marker of an export."""
VERSION = 2
"""The export format's version this bot writes (it reads 1 and 2)."""
BEFORE_DRAWS = 1
"""The version of files written before keyed draws: the old scheme, a commitment optional."""
MAX_BYTES = 64 * 1024 * 1024
"""The largest export file read."""
MAX_MOVE = 300
"""The longest move text read (the table service refuses longer moves)."""
_HEX64 = re.compile(r"[0-9a-f]{64}")


class ExportError(FieldError):
    """An export file that cannot be read: the message names the field and the problem."""


@dataclass(frozen=True)
class Player:
    """A seat of an exported game (``joined`` and ``entropy``: its part of the entropy, version 2)."""

    seat: int
    name: str
    id: str | None = None
    joined: str | None = None
    entropy: str | None = None

    @property
    def part(self) -> str:
        """This seat's part of the game's entropy."""
        return join_part(self.joined, self.entropy)


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
    seed: int | None
    """The old scheme's integer seed (None for keyed draws)."""
    salt: str | None
    commitment: str | None
    moves: list[Move]
    winners: list[str] | None
    final_state: dict[str, Any] | None
    game_id: int | None = None
    created: str | None = None
    ended: str | None = None
    version: int = VERSION
    scheme: str = KEYED
    server_seed: str | None = None
    entropy: str | None = None
    commitment_message: str | None = None
    draws: list[Draw] | None = None
    signature: tuple[bool, str] | None = None
    """Whether the bot's signature holds (version 2), and the signer's fingerprint or why not
    (:func:`host.signing.check`); None: version 1, written before exports were signed."""

    @property
    def signer(self) -> str | None:
        """The fingerprint of the key that signed the file, when the signature holds."""
        return self.signature[1] if self.signature is not None and self.signature[0] else None

    @property
    def names(self) -> list[str]:
        """The seat names in seat order."""
        return [p.name for p in self.players]

    @property
    def engine_seed(self) -> int | str:
        """The seed the engine is built with: ``"<server seed>:<entropy>"``, or the old scheme's integer."""
        if self.scheme == KEYED:
            return keyed_seed(self.server_seed or "", self.entropy or "")
        return self.seed or 0

    def new_game(self) -> Game:
        """Returns the game as it started: built from the seed, the seats and the options."""
        return GAMES[self.game].new(self.names, self.engine_seed, self.options)


class _Reader(Reader):
    error = ExportError


def load_export(text: str | bytes) -> Export:
    """Reads and checks an export file; raises ExportError with one sentence naming what is wrong.

    First what the file is (JSON, the format, a version this bot reads, a game it has), then its
    JSON Schema (:data:`SCHEMA`, versions 1 and 2), then each field by hand (seated names, options,
    times, bounded values). Whether the file tells the truth is :mod:`host.verify`'s question.

    >>> load_export("not json")
    Traceback (most recent call last):
    ...
    host.export_read.ExportError: This is not a Tablehost game export: it is not JSON (line 1, column 1).
    >>> load_export('{"format": "tablehost-game", "version": 1, "game": "chess"}')
    Traceback (most recent call last):
    ...
    host.export_read.ExportError: the export file: game: this bot has no game called 'chess' (games: nexo, nxs, xisk)
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
    """Reads a parsed file: what it is (format, version, game), then the schema, then every field by hand."""
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
    _check_schema(r, data)
    game_id = r.opt_int(data, "id", "")
    status = r.text(data, "status", "", choices=(Status.FINISHED.value, Status.ABORTED.value))
    options = r.obj(r.field(data, "options", "", {}), "options")
    try:
        options = cls.check_options(options)
    except GameError as err:
        raise r.fail("options", str(err)) from None
    players = _players(r, r.items(data, "players", ""), cls)
    names = {p.name for p in players}
    fair = _dice(r, data) if version >= 2 else _old_dice(r, data, data, "")
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
        game=name, title=cls.TITLE, status=status, options=options, players=players, moves=moves, winners=winners,
        final_state=final, game_id=game_id, created=_time(r, data, "created", ""), ended=_time(r, data, "ended", ""),
        version=version, signature=check_signature(data) if version >= 2 else None, **fair,
    )


SCHEMA = "export_schema.json"
"""The JSON Schema of versions 1 and 2, beside this module (package data)."""
_TYPES = {"object": "an object", "array": "a list", "string": "text", "integer": "a whole number",
          "number": "a number", "boolean": "true or false", "null": "null"}


@cache
def schema_validator() -> jsonschema.protocols.Validator:
    """Returns the validator of :data:`SCHEMA` (read once)."""
    schema = json.loads(resources.files("host").joinpath(SCHEMA).read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _check_schema(r: _Reader, data: dict[str, Any]) -> None:
    """Checks the file against the schema; raises ExportError naming the field of the first (shallowest) failure."""
    error = jsonschema.exceptions.best_match(schema_validator().iter_errors(data))
    if error is None:
        return
    path = ""
    for key in error.absolute_path:
        path = at(path, key if isinstance(key, int) else str(key))
    problem = _schema_problem(error)
    if error.validator == "required":
        missing = next((k for k in error.validator_value if k not in error.instance), None)
        path, problem = at(path, str(missing)), "missing"
    raise r.fail(path, problem)


def _schema_problem(error: jsonschema.exceptions.ValidationError) -> str:
    """Returns a schema failure in the words of the field reader (no Python repr), e.g. "expected text, got 7"."""
    kind, value, got = error.validator, error.validator_value, show_value(error.instance)
    described = error.schema.get("description") if isinstance(error.schema, dict) else None
    if kind == "type":
        wanted = [value] if isinstance(value, str) else [t for t in value if t != "null"] or ["null"]
        return f"expected {described or ' or '.join(_TYPES.get(t, t) for t in wanted)}, got {got}"
    if described and kind in ("pattern", "enum", "const", "minItems", "maxItems", "minLength"):
        return f"expected {described}, got {got}"
    if kind == "enum":
        return f"must be one of {', '.join(str(v) for v in value)}, got {got}"
    if kind in ("minimum", "maximum"):
        return f"must be at {'least' if kind == 'minimum' else 'most'} {value}, got {got}"
    if kind == "minLength":
        return f"expected text, got {got}" if value == 1 else f"at least {value} characters"
    if kind == "maxLength":
        return f"at most {value} characters"
    if kind in ("minItems", "maxItems"):
        return f"expected at {'least' if kind == 'minItems' else 'most'} {value} items, got {len(error.instance)}"
    return error.message


def parse_time(text: str) -> datetime:
    """Returns an ISO 8601 time of the file as an aware datetime (UTC when it names no zone); raises ValueError.

    >>> parse_time("2024-05-01T18:00:00+02:00") < parse_time("2024-05-01T17:00:00")
    True
    """
    stamp = datetime.fromisoformat(text)
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)


def _time(r: _Reader, o: dict[str, Any], key: str, path: str) -> str | None:
    """Reads an optional ISO 8601 time (the schema says where one is required), kept as its text."""
    text = r.opt_text(o, key, path)
    if text is not None:
        try:
            parse_time(text)
        except ValueError:
            raise r.fail(at(path, key), f"expected an ISO 8601 time, got {show_value(text)}") from None
    return text


def _old_dice(r: _Reader, data: dict[str, Any], where: dict[str, Any], path: str) -> dict[str, Any]:
    """Reads the old scheme's record: an integer seed, its salt and commitment (at the top in version 1)."""
    posted = r.opt_text(where, "commitment", path)
    if posted is not None:
        r.need(_HEX64.fullmatch(posted) is not None, at(path, "commitment"), "expected 64 hex digits (a SHA-256)")
    return {"scheme": SPLITMIX, "seed": r.int_(where, "seed", path, low=-(2**63), high=2**64),
            "salt": r.opt_text(where, "salt", path), "commitment": posted}


def _dice(r: _Reader, data: dict[str, Any]) -> dict[str, Any]:
    """Reads version 2's ``dice``: keyed draws (server seed, commitment, entropy, draws) or the old scheme."""
    dice = r.obj(r.field(data, "dice", ""), "dice")
    scheme = r.text(dice, "scheme", "dice", choices=(KEYED, SPLITMIX))
    message = dice.get("commitment_message")
    r.need(message is None or (isinstance(message, str) and message.isdigit() and len(message) <= 20),
           "dice.commitment_message", f"expected a message id, got {show_value(message)}")
    if scheme == SPLITMIX:
        return {**_old_dice(r, data, dice, "dice"), "commitment_message": message}
    server_seed = r.text(dice, "server_seed", "dice")
    r.need(SEED_PATTERN.fullmatch(server_seed) is not None, "dice.server_seed", "expected 64 lowercase hex digits")
    posted = r.text(dice, "commitment", "dice")
    r.need(_HEX64.fullmatch(posted) is not None, "dice.commitment", "expected 64 hex digits (a SHA-256)")
    entropy = r.text(dice, "entropy", "dice")
    r.need(len(entropy) <= MAX_ENTROPY, "dice.entropy", f"at most {MAX_ENTROPY} characters")
    draws: list[Draw] | None = None
    if dice.get("draws") is not None:
        draws = []
        for i, d in enumerate(r.items(dice, "draws", "dice")):
            where = at("dice.draws", i)
            ok = (isinstance(d, list) and len(d) == 3 and all(isinstance(x, int) and not isinstance(x, bool) for x in d)
                  and d[0] >= 1 and d[1] >= 1 and 0 <= d[2] < d[1])
            r.need(ok, where, f"expected [number, range, value] with 0 <= value < range, got {show_value(d)}")
            draws.append((d[0], d[1], d[2]))
    return {"scheme": KEYED, "seed": None, "salt": None, "commitment": posted, "server_seed": server_seed,
            "entropy": entropy, "commitment_message": message, "draws": draws}


def _players(r: _Reader, items: list[Any], cls: type[Game]) -> list[Player]:
    players = []
    for i, p in enumerate(items):
        path = at("players", i)
        p = r.obj(p, path)
        name = r.text(p, "name", path)
        r.need(len(name) <= 100, at(path, "name"), "the name is too long")
        ident = p.get("id")
        r.need(ident is None or isinstance(ident, str | int), at(path, "id"), f"expected text, got {show_value(ident)}")
        joined, entropy = r.opt_text(p, "joined", path), r.opt_text(p, "entropy", path)
        players.append(Player(r.int_(p, "seat", path, default=i), name, None if ident is None else str(ident),
                              joined, entropy))
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
        seq=r.int_(m, "seq", path, low=1), player=player, move=move, at=_time(r, m, "at", path),
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
