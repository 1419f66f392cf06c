"""The table service's moves: a player's move, checked, played and committed with its announcement; an undo."""

from __future__ import annotations

import logging
import math
from dataclasses import replace

from engines import GAMES, GameError
from engines.core import shown
from host import metrics
from host.bot_seats import is_bot
from host.outbox import Outbox
from host.store import DuplicateInteraction, StaleVersion, Status
from host.table import Person, Refusal, Stale, Table, secret_part
from host.tables_cache import TablesCache, _AlreadyPlayed, _replayed, _title
from host.tables_outbox import TablesOutbox, _saving, record_of
from host.undo import UNDO, effective_moves
from host.undo import refusal as undo_refusal

log = logging.getLogger("host.tables")  # the table service's records, whichever of its parts writes them

MAX_MOVE = 300
"""Longest move text read; anything longer is refused before the engine sees it."""
AWAY = 600.0
"""Seconds after their last move in a game that a player counts as away from its table (see Outbox.away)."""


class TablesMoves(TablesCache, TablesOutbox):
    """Players' moves and their undo (a part of :class:`host.tables.Tables`)."""

    @metrics.measured_act  # its time, the move played or the kind of refusal
    async def act(
        self,
        channel_id: str,
        person_id: str,
        move: str,
        *,
        interaction_id: str | None = None,
        for_game: str | None = None,
        position: tuple[int, int] | None = None,
    ) -> Outbox:
        """Plays one move for a seated player and commits it, with its announcement, before returning.

        ``for_game`` names the game the move was written for (a game's own command);
        a channel running another game refuses it. ``position`` is the (game id,
        version) a button was posted at; checked under the lock, so of two quick
        clicks on one button only the first is played (the other raises Stale).

        Raises Refusal (no game, another game, not seated, not running, damaged game,
        storage unavailable) or the engine's GameError; in every such case nothing
        changes. A repeated ``interaction_id`` returns an outbox with ``duplicate``
        set and applies nothing.
        """
        if len(move) > MAX_MOVE:
            raise Refusal(f"That is too long to be a move ({len(move)} characters): '{shown(move)}'.")
        async with self.lock(channel_id):
            for attempt in (1, 2):
                try:
                    out = await self._act(channel_id, person_id, move, interaction_id, for_game, position)
                    if not out.duplicate:
                        self._changed(channel_id)
                    return out
                except _AlreadyPlayed:
                    return Outbox(game_id=0, game="", channel_id=channel_id, lines=[str(_AlreadyPlayed())],
                                  duplicate=True)
                except StaleVersion as err:  # another process got there first and nothing was committed
                    self._cache.pop(channel_id, None)
                    if attempt == 2:
                        raise Refusal(
                            "Another move landed at the same moment: look at the board and try again."
                        ) from err
            raise AssertionError("unreachable")

    async def _act(
        self,
        channel_id: str,
        person_id: str,
        move: str,
        interaction_id: str | None,
        for_game: str | None,
        position: tuple[int, int] | None,
    ) -> Outbox:
        table = self._cache.get(channel_id)
        from_cache = table is not None
        if table is None:
            table = await self._running(channel_id, interaction_id)
        else:
            self._cache.move_to_end(channel_id)
        row = table.row
        if for_game is not None and row.game != for_game:
            raise Refusal(
                f"This channel has a {_title(row)} game, not a {GAMES[for_game].TITLE} game:"
                f" /{for_game} commands don't apply here. Nothing was changed."
            )
        name = table.name_of(person_id)
        if name is None:
            raise Refusal("You are not playing in this game; you can watch it.")
        if position is not None and position[0] != row.id:
            raise Stale("This game has ended.")
        if position is not None and position[1] != row.version:
            if await self._already_played(interaction_id):
                return self._outbox(row, lines=["That move was already played."], duplicate=True)
            raise Stale("This button is out of date: use the newest message.")
        game = table.game
        assert game is not None
        acting_before = set(game.to_act())
        secrets_before = table.secrets
        if secrets_before is None:
            secrets_before = {s.name: secret_part(game, s.name) for s in table.seats}
        try:
            events = game.play(name, move)
        except GameError:  # the engine restored its state: the cached engine is still exact
            if await self._already_played(interaction_id):
                return self._outbox(row, lines=["That move was already played."], duplicate=True)
            if from_cache and await self._moved_elsewhere(row):  # another process played meanwhile
                raise StaleVersion(f"game {row.id} moved on") from None
            raise
        except Exception:  # a bug, not a player's mistake
            self._cache.pop(channel_id, None)
            # Only the kind of move: its words may name the mover's own cards.
            log.exception("engine fault in game %s on a %r move", row.id, (move.split() or ["?"])[0][:20])
            raise
        try:
            canonical = game.last_move or move
            version = row.version + 1
            out = self._move_outbox(table, game, events, acting_before, secrets_before, canonical, version)
            out.actor_id = person_id
            now = self.clock()
            out.away = [uid for uid in out.to_act if uid != person_id and not is_bot(uid)
                        and now - table.acted.get(uid, -math.inf) >= AWAY]
            with _saving():
                await self.store.commit_move(
                    row.id,
                    expected_version=row.version,
                    player_id=person_id,
                    move=canonical,
                    snapshot=game.to_json(),
                    interaction_id=interaction_id,
                    finished=game.is_over,
                    announce=out,
                    clock_at=now,
                    record=record_of(events, game),
                    winners=game.winners if game.is_over else None,
                )
        except DuplicateInteraction:
            self._cache.pop(channel_id, None)
            return self._outbox(row, lines=["That move was already played."], duplicate=True)
        except BaseException:  # cancelled, stale or failed: the engine is ahead of the store
            self._cache.pop(channel_id, None)
            raise
        table.row = replace(row, version=version, status=Status.FINISHED if game.is_over else Status.RUNNING)
        table.acted[person_id] = now
        if game.is_over:
            self._cache.pop(channel_id, None)
        return out

    async def undo(self, channel_id: str, person: Person, *, interaction_id: str | None = None) -> Outbox:
        """Takes back the caller's last move, when nobody has acted since and it revealed nothing.

        The undo is a log entry of its own (see :mod:`host.undo`); raises Refusal saying why not.
        """
        async with self.lock(channel_id):
            table = self._cache.get(channel_id) or await self._running(channel_id, interaction_id)
            row, game = table.row, table.game
            assert game is not None
            name = table.name_of(person.id)
            if name is None:
                raise Refusal("You are not playing in this game.")
            log_rows = await self.store.moves(row.id)
            standing = effective_moves(log_rows)
            if not standing or standing[-1].player_id != person.id:
                raise Refusal("Only your own last move can be taken back, and only before anyone else acts.")
            last = standing[-1]
            if last.origin == "clock":
                raise Refusal(f"`{last.move}` was played by the turn clock when your time ran out: it stands.")
            before = _replayed(row, table.seats, log_rows, then=UNDO)
            why = undo_refusal(before, game, name)
            if why:
                raise Refusal(f"`{last.move}` cannot be taken back: {why}.")
            secrets_before = {s.name: secret_part(game, s.name) for s in table.seats}
            version = row.version + 1
            undone = Table(row, table.seats, before)
            out = self._move_outbox(undone, before, [], set(game.to_act()), secrets_before, UNDO, version,
                                    actor=person)
            out.lines.insert(0, f"{name} takes back their move ({last.move}).")
            self._cache.pop(channel_id, None)
            with _saving():
                try:
                    await self.store.commit_move(
                        row.id, expected_version=row.version, player_id=person.id, move=UNDO,
                        snapshot=before.to_json(), interaction_id=interaction_id, finished=False, announce=out,
                        record=record_of([], before), clock_at=self.clock(),
                    )
                except DuplicateInteraction:
                    return self._outbox(row, lines=["That was already done."], duplicate=True)
            undone.row = replace(row, version=version)
            self._remember(undone)
            return out
