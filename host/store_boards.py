"""The store's record of where each game's live board and each player's hand message are (the adapter's ids)."""

from __future__ import annotations

import json
from typing import Any

from host.db import Database
from host.rows import Board, now


class StoreBoards:
    """The store's live boards and hand messages (a part of :class:`host.store.Store`)."""

    db: Database

    async def board(self, game_id: int) -> Board | None:
        """Returns the game's live board, or None before its first."""
        row = await self.db.read(
            lambda tx: tx.fetchrow("SELECT message_id, actors, recap FROM boards WHERE game_id = ?", game_id)
        )
        if row is None:
            return None
        try:
            actors, recap = json.loads(row["actors"]), json.loads(row["recap"])
            lines, events, last, shown = _recap_parts(recap)
        except (ValueError, TypeError):
            return None  # damaged: the next move posts a new board
        return Board(row["message_id"], tuple(map(str, actors)), lines, events, last, shown)

    async def set_board(self, game_id: int, board: Board) -> None:
        """Records the game's live board (its recap column: see :func:`_recap_parts`)."""
        actors, recap, stamp = json.dumps(list(board.actors)), json.dumps(_recap_column(board)), now()
        await self.db.write(
            lambda tx: tx.execute(
                "INSERT INTO boards (game_id, message_id, actors, recap, updated_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET message_id = excluded.message_id, actors = excluded.actors,"
                " recap = excluded.recap, updated_at = excluded.updated_at",
                game_id, board.message_id, actors, recap, stamp,
            )
        )

    async def hand_message(self, game_id: int, player_id: str) -> tuple[str, str] | None:
        """Returns (DM channel id, message id) of a player's hand message in a game, or None."""
        row = await self.db.read(
            lambda tx: tx.fetchrow(
                "SELECT channel_id, message_id FROM hands WHERE game_id = ? AND player_id = ?", game_id, player_id
            )
        )
        return (row["channel_id"], row["message_id"]) if row else None

    async def set_hand_message(self, game_id: int, player_id: str, channel_id: str, message_id: str) -> None:
        """Records a player's hand message in a game."""
        await self.db.write(
            lambda tx: tx.execute(
                "INSERT INTO hands (game_id, player_id, channel_id, message_id) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, player_id) DO UPDATE SET channel_id = excluded.channel_id,"
                " message_id = excluded.message_id",
                game_id, player_id, channel_id, message_id,
            )
        )


def _recap_column(board: Board) -> list[str] | dict[str, Any]:
    """Returns what the ``recap`` column keeps: the lines alone (the first shape), or them with the turn's events.

    A board with neither events, nor a summary of the turn before, nor its embed is stored as the plain list
    it always was.
    """
    if not board.events and not board.last_turn and board.shown is None:
        return list(board.recap)
    column: dict[str, Any] = {"lines": list(board.recap), "events": list(board.events), "last_turn": board.last_turn}
    if board.shown is not None:
        column["shown"] = board.shown
    return column


def _recap_parts(value: Any) -> tuple[tuple[str, ...], tuple[dict[str, Any], ...], str, dict[str, Any] | None]:
    """Reads the ``recap`` column either way it is stored: a list of lines, or an object with lines, events,
    the summary of the turn before and the embed as shown; raises ValueError when it is neither.

    >>> _recap_parts(["ann adds 1."])
    (('ann adds 1.',), (), '', None)
    >>> _recap_parts({"lines": ["ann adds 1."], "events": [{"kind": "add"}], "last_turn": "bob adds 2."})
    (('ann adds 1.',), ({'kind': 'add'},), 'bob adds 2.', None)
    """
    if isinstance(value, list):
        return tuple(map(str, value)), (), "", None
    if not isinstance(value, dict) or not isinstance(value.get("lines", []), list):
        raise ValueError("a board's recap is a list of lines or an object holding them")
    events = value.get("events")
    kept = tuple(e for e in events if isinstance(e, dict)) if isinstance(events, list) else ()
    shown = value.get("shown")
    return (tuple(map(str, value.get("lines", []))), kept, str(value.get("last_turn") or ""),
            shown if isinstance(shown, dict) else None)
