"""The table service's timeouts: what the turn clock plays for a player whose time ran out."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace

from engines import GameError
from engines.core import Event, Game, is_public
from host.clock import ClockSettings, has_skip, span_text
from host.outbox import Outbox
from host.store import StaleVersion, Status
from host.table import Refusal, Table, secret_part
from host.tables_cache import TablesCache
from host.tables_outbox import TablesOutbox, _saving, record_of

log = logging.getLogger("host.tables")  # the table service's records, whichever of its parts writes them


class TablesTimeouts(TablesCache, TablesOutbox):
    """The turn clock's moves for a player out of time (a part of :class:`host.tables.Tables`)."""

    async def time_out(self, game_id: int, version: int, settings: ClockSettings) -> Outbox | None:
        """Plays the turn clock's ``on_timeout`` for the first player to act in a game at ``version``.

        The moves come from the engine (:meth:`~engines.core.game.Game.timeout_moves`) and are
        committed together, as the clock's, with the claim of the timeout: None when the
        game has moved on or the timeout was handled already (by another start or process).
        """
        row = await self.store.game(game_id, snapshot=False)
        if row is None or row.status is not Status.RUNNING or row.version != version:
            return None
        async with self.lock(row.channel_id):
            table = self._cache.get(row.channel_id)
            if table is None or table.row.id != game_id:
                table = await self._running(row.channel_id, None)
            current = table.game
            if table.row.id != game_id or table.row.version != version or current is None or not current.to_act():
                return None
            name = current.to_act()[0]
            person_id = table.user_of(name) or ""
            acting_before = set(current.to_act())
            secrets_before = table.secrets or {s.name: secret_part(current, s.name) for s in table.seats}
            planned = None
            if settings.on_timeout.startswith("bot-"):  # thought out on a copy, off the event loop
                planned = await asyncio.to_thread(self.thinker.turn, current.clone(), name, settings.on_timeout[4:])
            turn = self._clock_moves(table, name, settings.on_timeout, planned)
            game, played = turn.game, turn.moves
            policy = "forfeit" if turn.policy == "skip" and not has_skip(current) else turn.policy  # no skip: gives up
            what = {
                "forfeit": f"{name} forfeits by the clock", "skip": f"{name} has the turn skipped by the clock"
            }.get(policy, f"a bot ({policy[4:]}) plays {name}'s turn until they act again")
            try:
                out = self._move_outbox(table, game, turn.events, acting_before, secrets_before, "; ".join(played),
                                        version + len(played))
                out.lines.insert(0, f"⏰ {name}'s time ran out ({span_text(settings.timeout)} without a move):"
                                    f" {what} ({'; '.join(played)}).")
                now = self.clock()
                with _saving():
                    await self.store.commit_moves(
                        game_id, expected_version=version, player_id=person_id, moves=played,
                        snapshot=game.to_json(), finished=game.is_over, announce=out, clock_at=now, timed_out=True,
                        records=turn.records, winners=game.winners if game.is_over else None,
                    )
            except StaleVersion:  # handled already: the engine is ahead of the store
                self._cache.pop(row.channel_id, None)
                return None
            except BaseException:
                self._cache.pop(row.channel_id, None)
                raise
            table.game = game
            table.row = replace(table.row, version=version + len(played),
                                status=Status.FINISHED if game.is_over else Status.RUNNING)
            if game.is_over:
                self._cache.pop(row.channel_id, None)
        self._changed(row.channel_id)
        return out

    def _clock_moves(self, table: Table, name: str, on_timeout: str, planned: list[str] | None) -> _ClockTurn:
        """Plays the timeout's moves for ``name`` on a copy of the game: a bot's ``planned`` ones, or the engine's.

        A bot's turn or a skip that cannot be played (a bug) falls back to skip, then forfeit, and is logged.
        """
        assert table.game is not None
        for choice in dict.fromkeys([on_timeout, "skip" if planned is not None else "forfeit", "forfeit"]):
            game = table.game.clone()
            played: list[str] = []
            events: list[Event] = []
            records: list[tuple[str, str]] = []
            moves = planned if choice == on_timeout and planned is not None else None
            try:
                for move in moves if moves is not None else game.timeout_moves(name, choice):
                    done = game.play(name, move)
                    events += done
                    played.append(game.last_move or move)
                    records.append(record_of([e for e in done if is_public(e)], game))
            except GameError as err:
                log.error("game %s: the clock's %s for a %s player was refused: %s", table.row.id, choice,
                          table.row.game, type(err).__name__)
                continue
            if played:
                return _ClockTurn(game, choice, played, events, records)
        raise Refusal("The clock found no move to play for the player whose time ran out.")


@dataclass(frozen=True)
class _ClockTurn:
    """What the turn clock played for a player: on which copy of the game, under which policy."""

    game: Game
    policy: str
    moves: list[str]
    events: list[Event]
    records: list[tuple[str, str]]
