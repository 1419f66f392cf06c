"""The store's move log: each accepted move written with its snapshot, version and announcement, and read back."""

from __future__ import annotations

import json

from host import clock
from host.db import Conflict, Database, Tx
from host.outbox import Outbox
from host.rows import MoveRow, Status, _move_row, now
from host.store_errors import DuplicateInteraction, StaleVersion
from host.store_outbox import _insert_outbox, _to_act


def _is(conflict: Conflict, *names: str) -> bool:
    """Returns whether a conflict was raised by one of the named columns or constraints (either dialect)."""
    return any(name in str(conflict) for name in names)


class StoreMoves:
    """The store's move log (a part of :class:`host.store.Store`)."""

    db: Database

    async def commit_move(
        self,
        game_id: int,
        *,
        expected_version: int,
        player_id: str,
        move: str,
        snapshot: str,
        interaction_id: str | None,
        finished: bool,
        announce: Outbox | None = None,
        clock_at: float | None = None,
        record: tuple[str, str] | None = None,
        winners: list[str] | None = None,
    ) -> int:
        """Writes one move: log row, snapshot, version bump, clock and announcement, atomically.

        Returns the new version. Raises StaleVersion when the game moved on since
        ``expected_version`` (or its log is ahead of it), and DuplicateInteraction
        when the interaction id is already logged; in every case nothing is written.
        ``clock_at`` restarts the game's clock windows then (None leaves the clock alone);
        ``record`` is what the move announced and the digest of the state it left (events JSON,
        digest), ``winners`` the result of a move that finished the game.
        """
        return await self.commit_moves(
            game_id, expected_version=expected_version, player_id=player_id, moves=[move], snapshot=snapshot,
            interaction_id=interaction_id, finished=finished, announce=announce, clock_at=clock_at,
            records=[record] if record else None, winners=winners,
        )

    async def commit_moves(
        self,
        game_id: int,
        *,
        expected_version: int,
        player_id: str,
        moves: list[str],
        snapshot: str,
        finished: bool,
        interaction_id: str | None = None,
        announce: Outbox | None = None,
        clock_at: float | None = None,
        timed_out: bool = False,
        records: list[tuple[str, str]] | None = None,
        winners: list[str] | None = None,
    ) -> int:
        """Writes moves of one player in a row, as :meth:`commit_move` writes one.

        ``timed_out`` marks them as the turn clock's (``origin`` = ``clock``) and claims the
        clock's timeout for ``expected_version`` in the same transaction: when it was
        claimed already (handled once, by another start or process) StaleVersion is raised
        and nothing is written.
        """
        new_version = expected_version + len(moves)
        stamp = now()
        status = Status.FINISHED if finished else Status.RUNNING
        origin = "clock" if timed_out else None

        async def work(tx: Tx) -> None:
            # The version-checked UPDATE comes first: on PostgreSQL it locks the game's row, so another
            # process's move of this game waits here, then finds the version moved on.
            changed = await tx.execute(
                "UPDATE games SET snapshot = ?, version = ?, status = ?, updated_at = ?, to_act = ?"
                " WHERE id = ? AND version = ? AND status = 'running'",
                snapshot, new_version, status.value, stamp, "[]" if finished else _to_act(announce), game_id,
                expected_version,
            )
            if changed != 1:
                raise StaleVersion(f"game {game_id} is not at version {expected_version}")
            if timed_out and not await clock.claim(tx, game_id, expected_version, clock.TIMED_OUT):
                raise StaleVersion(f"game {game_id}'s timeout at version {expected_version} is handled")
            blank: list[tuple[str | None, str | None]] = [(None, None)] * len(moves)
            kept: list[tuple[str | None, str | None]] = list(records) if records else blank
            await tx.executemany(
                "INSERT INTO moves (game_id, seq, player_id, move, at, interaction_id, origin, events, digest)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(game_id, expected_version + n, player_id, move, stamp, interaction_id if n == 1 else None, origin,
                  *kept[n - 1]) for n, move in enumerate(moves, 1)],
            )
            if finished:
                await clock.stop(tx, game_id)
                await tx.execute("UPDATE games SET winners = ? WHERE id = ?", json.dumps(winners or []), game_id)
            elif clock_at is not None:
                await clock.restart(tx, game_id, new_version, clock_at)
            await _insert_outbox(tx, game_id, announce)

        try:
            await self.db.write(work)
        except Conflict as err:
            if _is(err, "interaction"):
                raise DuplicateInteraction(f"interaction {interaction_id} is already logged") from err
            if _is(err, "moves.game_id, moves.seq", "moves_pkey"):
                raise StaleVersion(f"game {game_id}'s log is ahead of its version {expected_version}") from err
            raise
        return new_version

    async def moves(self, game_id: int, *, last: int | None = None) -> list[MoveRow]:
        """Returns the log in order; ``last`` keeps only the most recent moves."""
        query = "SELECT seq, player_id, move, at, interaction_id, origin, events, digest FROM moves WHERE game_id = ?"
        if last is not None:
            query = f"SELECT * FROM ({query} ORDER BY seq DESC LIMIT {int(last)}) AS recent"
        rows = await self.db.read(lambda tx: tx.fetch(query + " ORDER BY seq", game_id))
        return [_move_row(r) for r in rows]

    async def last_seq(self, game_id: int) -> int:
        """Returns the number of the last logged move (0 when none)."""
        return int(await self.db.read(
            lambda tx: tx.fetchval("SELECT COALESCE(MAX(seq), 0) FROM moves WHERE game_id = ?", game_id)
        ))

    async def logged_at(self, game_id: int) -> tuple[int, int] | None:
        """Returns the game's version and the number of its last logged move, read at one instant (one
        statement), or None for an unknown game: a move another process commits meanwhile is in both or neither."""
        r = await self.db.read(lambda tx: tx.fetchrow(
            "SELECT version, (SELECT COALESCE(MAX(seq), 0) FROM moves WHERE game_id = ?) AS logged"
            " FROM games WHERE id = ?", game_id, game_id))
        return None if r is None else (int(r["version"]), int(r["logged"]))

    async def move_by_interaction(self, interaction_id: str) -> tuple[int, MoveRow] | None:
        """Returns (game id, move) logged under an interaction id, or None."""
        r = await self.db.read(
            lambda tx: tx.fetchrow(
                "SELECT game_id, seq, player_id, move, at, interaction_id, origin FROM moves WHERE interaction_id = ?",
                interaction_id,
            )
        )
        return (r["game_id"], _move_row(r)) if r else None
