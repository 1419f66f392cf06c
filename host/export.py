"""A finished game as one file: its fair-dice record, the whole log, each move's dice and digest, the end.

``/table export`` hands a player this file; ``python bot.py --verify FILE`` checks it (:mod:`host.verify`),
``python tools/check_draws.py FILE`` checks its draws alone, and ``python bot.py --console --load FILE``
replays it move by move. The file is JSON (version 2)::

    {
      "format": "tablehost-game", "version": 2,
      "game": "xisk", "title": "XISK", "id": 12, "status": "finished",
      "created": "2024-05-01T18:00:00+00:00", "ended": "2024-05-09T21:14:03+00:00",
      "options": {...},
      "players": [{"seat": 0, "name": "ann", "id": "1001", "joined": "1183…", "entropy": "my words"}, ...],
      "dice": {"scheme": "hmac-sha256", "server_seed": "<64 hex>", "commitment": "<sha256 of the seed>",
               "commitment_message": "1183…", "entropy": "1183…:my words|…",
               "draws": [[1, 52, 17], [2, 51, 3], …]},
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
the same name apart; ``joined`` and ``entropy`` are their part of the game's entropy (see
:mod:`host.fairness`). ``dice`` is the fair-dice record: the server seed, its commitment as posted
when the table opened (with that message's id), the entropy, and every draw of the game as
``[number, range, value]`` (:mod:`engines.core.rng`). A game started before keyed draws has
``"scheme": "splitmix64"`` with its integer ``seed``, ``salt`` and ``commitment`` (``draws``
null); version 1 files, written before version 2, carry those three at the top level and may
lack a commitment (a game from before fair dice).

``moves`` is the log as stored, ``undo`` and ``takeback`` entries included (each takes back
the latest standing move, a takeback keeping the draws it made, see :mod:`host.undo`); ``events``
are the move's public events as they were announced (None for a move from before records were
kept), ``digest`` the SHA-256 of the state after it (:func:`host.fairness.digest`). ``final_state``
is the engine's ``dump_state()`` at the end, hidden hands included: the game is over, so nothing in
it is secret any more.

Only a finished or aborted game is exported: while a game runs its seed is secret (whoever
knew it could foresee every die), and a game that never started has no seed.
"""

from __future__ import annotations

import json
from typing import Any

from engines import GAMES, GameError
from engines.core import Game
from engines.core.rng import KEYED, SPLITMIX, Draw, recording
from host.export_read import (
    BEFORE_DRAWS,
    FORMAT,
    SCHEMA,
    VERSION,
    Export,
    ExportError,
    Move,
    Player,
    load_export,
    parse_time,
    schema_validator,
)
from host.signing import bot_key, sign
from host.store import GameRow, MoveRow, Status, Store
from host.table import Refusal
from host.undo import TAKEBACK, UNDO, replayed

RUNNING = "The game is still running: its export comes when it ends (its seed is secret until then)."


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
    if row.status is Status.LOBBY or not row.started:
        raise Refusal("That game never started: there is no seed or move to export.")
    seats = await store.seats(game_id)
    log = await store.moves(game_id)
    names = {s.player_id: s.name for s in seats}
    cls = GAMES.get(row.game)
    players = [{"seat": s.seat, "name": s.name, "id": s.player_id} for s in seats]
    final, draws = _final_state(cls, row.snapshot, [s.name for s in seats], row.engine_seed, row.options, log, names)
    if row.seed is None:  # keyed draws
        players = [{**p, "joined": s.joined, "entropy": s.entropy} for p, s in zip(players, seats, strict=True)]
        dice: dict[str, Any] = {"scheme": KEYED, "server_seed": row.server_seed, "commitment": row.commitment,
                                "commitment_message": row.commitment_message, "entropy": row.entropy,
                                "draws": [list(d) for d in draws] if draws is not None else None}
    else:
        dice = {"scheme": SPLITMIX, "seed": row.seed, "salt": row.salt, "commitment": row.sealed,
                "commitment_message": None, "draws": None}
    if row.seed is not None and not row.salt:  # a game from before fair dice: nothing sealed it
        return {"format": FORMAT, "version": BEFORE_DRAWS, **_head(row, cls), "players": players,
                "seed": row.seed, "salt": None, "commitment": None, "moves": [_move(m, names) for m in log],
                **_end(row, final)}
    return sign({
        "format": FORMAT, "version": VERSION, **_head(row, cls), "players": players, "dice": dice,
        "moves": [_move(m, names) for m in log], **_end(row, final),
    }, await bot_key(store.db))


def _head(row: GameRow, cls: type[Game] | None) -> dict[str, Any]:
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
    }


def _end(row: GameRow, final: dict[str, Any] | None) -> dict[str, Any]:
    return {"winners": row.winners if row.status is Status.FINISHED else None, "final_state": final}


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
    cls: type[Game] | None, snapshot: str | None, players: list[str], seed: int | str, options: dict[str, Any],
    log: list[MoveRow], names: dict[str, str],
) -> tuple[dict[str, Any] | None, list[Draw] | None]:
    """Returns the game's state at its end and every keyed draw of the game, replayed from the whole log
    (:func:`host.undo.play_log`: a move taken back by agreement made its draws too).

    The end comes from the snapshot when it loads, else from the replay; either is None when it
    cannot be had (a damaged game exports without them, and ``--verify`` says so).
    """
    if cls is None:
        return None, None
    try:
        final: dict[str, Any] | None = cls.from_json(snapshot or "").dump_state()
    except GameError:
        final = None
    try:
        with recording() as draws:
            game = replayed(cls.new(players, seed, options), [(names.get(m.player_id, m.player_id), m.move)
                                                             for m in log])
        return (final if final is not None else game.dump_state()), in_order(draws)
    except Exception:
        return final, None


def in_order(draws: list[Draw]) -> list[Draw]:
    """Returns the draws of a replay by number, once each (a move refused and restored may draw a number twice).

    >>> in_order([(1, 6, 2), (2, 6, 0), (2, 6, 0), (3, 52, 9)])
    [(1, 6, 2), (2, 6, 0), (3, 52, 9)]
    """
    return sorted(set(draws))


def export_text(data: dict[str, Any]) -> str:
    """Returns an export as the file's text: indented JSON, keys in a fixed order, one log entry (or draw) a line."""
    body = {k: v for k, v in data.items() if k != "moves"}
    moves = data.get("moves") or []
    parts = []
    for key, value in body.items():
        if key == "dice" and isinstance(value, dict) and isinstance(value.get("draws"), list):
            head = {k: v for k, v in value.items() if k != "draws"}
            inner = [f"    {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in head.items()]
            draws = [json.dumps(d, separators=(", ", ": ")) for d in value["draws"]]
            inner.append('    "draws": ' + ("[\n      " + ",\n      ".join(draws) + "\n    ]" if draws else "[]"))
            text = "{\n" + ",\n".join(inner) + "\n  }"
        else:
            text = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  ")
        parts.append(f"  {json.dumps(key)}: {text}")
        if key in ("commitment", "dice"):  # the log after the fairness fields, before the result
            parts.append(f'  "moves": {_lines(moves)}')
    if "commitment" not in body and "dice" not in body:
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


__all__ = ["BEFORE_DRAWS", "FORMAT", "RUNNING", "SCHEMA", "TAKEBACK", "UNDO", "VERSION", "Export", "ExportError",
           "Move", "Player", "export_game", "export_text", "file_name", "load_export", "parse_time", "schema_validator"]
