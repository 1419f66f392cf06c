"""Tables: one game per channel, from lobby to the last move.

Every change follows one path: take the channel's lock → find the game (from
the cache, else the store) → apply → commit the change *and its announcement*
in one transaction (version checked) → return the :class:`Outbox`. A change is
acknowledged only after its commit, and its announcement is durable, so what a
player is told happened has happened, and what happened will be told.

The move log is the truth; the snapshot is its cache, and :meth:`Tables.replay`
proves they agree. Engines stay in a bounded LRU (finished games leave it);
locks live only while someone holds or waits for them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from engines import GAMES, GameError
from engines.core import Event, Game, is_public, shown
from engines.core.ai import LEVELS, has_bots
from host.bot_seats import bot_id, bot_turn, is_bot
from host.clock import ClockSettings, span_text
from host.fairness import commit_line, digest, new_salt, reveal_line
from host.outbox import Outbox
from host.store import (
    ChannelTaken,
    DuplicateInteraction,
    GameRow,
    MoveRow,
    Seat,
    SeatTaken,
    StaleVersion,
    Status,
    StorageUnavailable,
    Store,
)
from host.table import NoGame, Person, Refusal, Stale, Table, Unavailable, seat_name, secret_part
from host.undo import UNDO, effective_moves
from host.undo import refusal as undo_refusal

log = logging.getLogger(__name__)

MAX_MOVE = 300
"""Longest move text read; anything longer is refused before the engine sees it."""
CACHE_SIZE = 512
"""Default number of running games whose engines stay in memory (``TABLEHOST_CACHE``)."""
AWAY = 600.0
"""Seconds after their last move in a game that a player counts as away from its table (see Outbox.away)."""


class Tables:
    """The table service shared by every adapter (Discord cogs, the console)."""

    def __init__(
        self,
        store: Store,
        *,
        debug: bool = False,
        seeds: Callable[[], int] = lambda: secrets.randbits(62),
        cache_size: int = CACHE_SIZE,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``seeds`` draws the seed of each new game, ``clock`` tells the time (tests pass fixed ones)."""
        self.store = store
        self.clock = clock
        self.debug = debug
        self._seeds = seeds
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._cache: OrderedDict[str, Table] = OrderedDict()
        """Channel id → its running game with a loaded engine, most recently used last."""
        self.cache_size = cache_size
        self._closing = False
        self.listeners: list[Callable[[str], None]] = []
        """Called with a channel id after each committed change of its game (the bots listen)."""

    def lock(self, channel_id: str) -> asyncio.Lock:
        """Returns the lock that serialises every change in one channel.

        Raises Refusal once :meth:`drain` has begun, so no new change starts.
        """
        if self._closing:
            raise Refusal("The bot is restarting: try again in a minute. Nothing was changed.")
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    async def drain(self) -> None:
        """Refuses new changes and waits until every change in progress is committed."""
        self._closing = True
        for lock in list(self._locks.values()):
            async with lock:
                pass

    @property
    def cached(self) -> int:
        """How many engines are held in memory."""
        return len(self._cache)

    # -- lobby ------------------------------------------------------------------------

    async def create(
        self,
        *,
        channel_id: str,
        guild_id: str | None,
        game: str,
        creator: Person,
        options: dict[str, Any],
        clock: ClockSettings | None = None,
    ) -> Outbox:
        """Opens a lobby with its turn clock and seats its creator; raises Refusal or GameError."""
        cls = GAMES.get(game)
        if cls is None:
            raise Refusal(f"There is no game called '{shown(game, 30)}' (games: {', '.join(sorted(GAMES))}).")
        opts = cls.check_options(options)
        shown_opts = ", ".join(f"{k}={_option_text(v)}" for k, v in opts.items() if v != cls.OPTIONS.get(k))
        out = Outbox(
            game_id=0,
            game=game,
            channel_id=channel_id,
            guild_id=guild_id,
            actor_id=creator.id,
            lines=[
                f"{creator.name} opened a {cls.TITLE} table"
                + (f" ({shown_opts})" if shown_opts else "")
                + f". {cls._seat_range()} players: join, then start."
            ],
        )
        async with self.lock(channel_id):
            current = await self.store.active_game(channel_id, snapshot=False)
            if current is not None:
                raise Refusal(f"This channel already has a {_title(current)} game ({current.status}).")
            with _saving():
                try:
                    await self.store.create_game(
                        guild_id=guild_id,
                        channel_id=channel_id,
                        game=game,
                        creator_id=creator.id,
                        options=opts,
                        creator_name=seat_name(creator.name, set()),
                        announce=out,
                        clock_settings=clock,
                    )
                except ChannelTaken as err:
                    raise Refusal("This channel already has a game.") from err
        return out

    async def join(self, channel_id: str, person: Person) -> Outbox:
        """Seats a player in the channel's lobby; raises Refusal."""
        async with self.lock(channel_id):
            row = await self._lobby(channel_id)
            seats = await self.store.seats(row.id)
            cls = GAMES[row.game]
            if any(s.player_id == person.id for s in seats):
                raise Refusal("You are already seated at this table.")
            if len(seats) >= cls.MAX_PLAYERS:
                raise Refusal(f"The table is full ({cls.MAX_PLAYERS} players).")
            name = seat_name(person.name, {s.name for s in seats})
            out = self._outbox(row, actor=person, lines=[f"{name} joins ({len(seats) + 1}/{cls.MAX_PLAYERS})."])
            with _saving():
                try:
                    await self.store.add_seat(row.id, person.id, name, announce=out)
                except (SeatTaken, StaleVersion) as err:
                    raise Refusal("The table changed meanwhile: look again and retry. Nothing was changed.") from err
        return out

    async def add_bot(self, channel_id: str, person: Person, level: str) -> Outbox:
        """Seats a bot of ``level`` in the channel's lobby (asked by a seated player or the creator)."""
        if level not in LEVELS:
            raise Refusal(f"A bot's level is {', '.join(LEVELS)}; not '{shown(level, 20)}'.")
        async with self.lock(channel_id):
            row = await self._lobby(channel_id)
            seats = await self.store.seats(row.id)
            cls = GAMES[row.game]
            if person.id != row.creator_id and all(s.player_id != person.id for s in seats):
                raise Refusal("Only a seated player or the table's creator can add a bot.")
            if not has_bots(row.game):
                raise Refusal(f"{cls.TITLE} has no bots yet.")
            if len(seats) >= cls.MAX_PLAYERS:
                raise Refusal(f"The table is full ({cls.MAX_PLAYERS} players).")
            n = 1 + sum(is_bot(s.player_id) for s in seats)
            name = seat_name(f"{cls.TITLE} bot ({level})", {s.name for s in seats})
            out = self._outbox(row, actor=person, lines=[
                f"{person.name} seats {name} ({len(seats) + 1}/{cls.MAX_PLAYERS}). It plays its turns at once."])
            with _saving():
                try:
                    await self.store.add_seat(row.id, bot_id(level, n), name, announce=out)
                except (SeatTaken, StaleVersion) as err:
                    raise Refusal("The table changed meanwhile: look again and retry. Nothing was changed.") from err
        return out

    async def leave(self, channel_id: str, person: Person) -> Outbox:
        """Unseats a player from the lobby; the lobby closes when nobody is left."""
        async with self.lock(channel_id):
            row = await self.store.active_game(channel_id, snapshot=False)
            if row is None:
                raise Refusal("There is no game in this channel.")
            if row.status is Status.RUNNING:
                raise Refusal(
                    "The game is running, so seats are fixed: play on, resign if the game allows it,"
                    " or ask the game's creator or a channel manager to /game abort."
                )
            seats = await self.store.seats(row.id)
            name = next((s.name for s in seats if s.player_id == person.id), None)
            if name is None:
                raise Refusal("You are not seated at this table.")
            last = all(is_bot(s.player_id) for s in seats if s.player_id != person.id)  # bots alone: closes
            line = (f"{name} leaves the table." if not last else f"{name} leaves; the table is empty and closes."
                    if len(seats) == 1 else f"{name} leaves; only bots are left, so the table closes.")
            out = self._outbox(row, actor=person, lines=[line], finished=last)
            with _saving():  # only bots left: the table closes with the seat, they never play alone
                if await self.store.remove_seat(row.id, person.id, announce=out, close=last) is None:
                    raise Refusal("You are not seated at this table.")
        return out

    async def start(self, channel_id: str, person: Person, *, seed: int | None = None) -> Outbox:
        """Starts the lobby's game with the seated players; raises Refusal or GameError."""
        async with self.lock(channel_id):
            row = await self._lobby(channel_id)
            seats = await self.store.seats(row.id)
            cls = GAMES[row.game]
            if person.id != row.creator_id and all(s.player_id != person.id for s in seats):
                raise Refusal("Only a seated player can start the game.")
            if not cls.MIN_PLAYERS <= len(seats) <= cls.MAX_PLAYERS:
                raise Refusal(f"{cls.TITLE} needs {cls._seat_range()} players; {len(seats)} seated.")
            if all(is_bot(s.player_id) for s in seats):
                raise Refusal("A game needs at least one person: bots alone would play themselves forever.")
            seed = self._seeds() if seed is None else seed
            salt = new_salt()
            game = cls.new([s.name for s in seats], seed, row.options)
            started = replace(row, status=Status.RUNNING, seed=seed, salt=salt, version=0)
            table = Table(started, seats, game)
            out = self._move_outbox(table, game, game.opening_events(), set(), {}, None, 0, actor=person)
            out.lines[:0] = [f"{cls.TITLE} begins: {', '.join(s.name for s in seats)}.", commit_line(seed, salt)]
            with _saving():
                try:
                    await self.store.start_game(
                        row.id, seed=seed, snapshot=game.to_json(), announce=out, clock_at=self.clock(), salt=salt
                    )
                except StaleVersion as err:  # another process started or closed it meanwhile
                    raise Refusal("The game has already started, or its table was closed.") from err
            self._remember(table)
        self._changed(channel_id)
        return out

    async def abort(self, channel_id: str, person: Person, *, can_manage: bool) -> Outbox:
        """Ends the channel's game for good; only its creator or a channel manager may."""
        async with self.lock(channel_id):
            self._cache.pop(channel_id, None)
            row = await self.store.active_game(channel_id, snapshot=False)
            if row is None:
                raise Refusal("There is no game in this channel to abort.")
            if person.id != row.creator_id and not can_manage:
                raise Refusal("Only the game's creator or someone with Manage Channels can abort it.")
            out = self._outbox(row, actor=person, lines=[f"{person.name} aborted the {_title(row)} game."])
            out.finished = True
            with _saving():
                try:
                    await self.store.set_status(row.id, Status.ABORTED, announce=out)
                except StaleVersion as err:
                    raise Refusal("That game has just ended. Nothing was changed.") from err
        return out

    # -- moves ------------------------------------------------------------------------

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
                planned = await asyncio.to_thread(bot_turn, current.clone(), name, settings.on_timeout[4:])
            turn = self._clock_moves(table, name, settings.on_timeout, planned)
            game, played = turn.game, turn.moves
            what = {
                "forfeit": f"{name} forfeits by the clock", "skip": f"{name} has the turn skipped by the clock"
            }.get(turn.policy, f"a bot ({turn.policy[4:]}) plays {name}'s turn until they act again")
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

    def _changed(self, channel_id: str) -> None:
        """Tells the listeners that a channel's game changed."""
        for listener in self.listeners:
            try:
                listener(channel_id)
            except Exception:  # a listener's bug must not undo what was committed
                log.exception("a listener of channel %s failed", channel_id)

    async def _moved_elsewhere(self, row: GameRow) -> bool:
        """Returns whether the stored game is no longer at the cached row's version and status."""
        stored = await self.store.game(row.id, snapshot=False)
        return stored is None or (stored.version, stored.status) != (row.version, row.status)

    async def _already_played(self, interaction_id: str | None) -> bool:
        return bool(interaction_id) and await self.store.move_by_interaction(interaction_id or "") is not None

    async def _running(self, channel_id: str, interaction_id: str | None) -> Table:
        """Loads the channel's running game (not cached); raises Refusal when there is none."""
        row = await self.store.active_game(channel_id, snapshot=False)
        if row is None or row.status is not Status.RUNNING:
            if await self._already_played(interaction_id):  # e.g. the repeat of the game's last move
                raise _AlreadyPlayed()
            if row is None:
                raise NoGame("There is no game running in this channel.")
            raise Refusal("The game has not started yet: seated players can start it.")
        seats = await self.store.seats(row.id)
        return await self._load(row, seats)

    def _move_outbox(
        self,
        table: Table,
        game: Game,
        events: list[Event],
        acting_before: set[str],
        secrets_before: dict[str, dict[str, Any]],
        canonical: str | None,
        version: int,
        *,
        actor: Person | None = None,
    ) -> Outbox:
        out = self._outbox(table.row, table.seats, actor=actor, picture=True, finished=game.is_over)
        out.view, out.move, out.version = game.view(None), canonical, version
        out.events = [e for e in events if is_public(e)]
        for e in events:
            if not is_public(e) and (uid := table.user_of(e["to"])) and not is_bot(uid):
                out.private.setdefault(uid, []).append(e["text"])
        after = {s.name: secret_part(game, s.name) for s in table.seats}
        for s in table.seats:
            if after[s.name] and after[s.name] != secrets_before.get(s.name) and not is_bot(s.player_id):
                out.secrets[s.player_id] = after[s.name]
        table.secrets = after  # a change that fails to commit drops the whole cached table (see _act)
        out.to_act = [uid for name in game.to_act() if (uid := table.user_of(name))]
        out.mention = [
            uid for name in game.to_act()
            if name not in acting_before and (uid := table.user_of(name)) and not is_bot(uid)
        ]
        if game.is_over:  # last, after the move that ended the game, and once
            winners = game.winners
            text = (
                f"Game over: {' and '.join(winners)} win{'s' if len(winners) == 1 else ''}!"
                if winners
                else "Game over: a draw."
            )
            out.events.append({"kind": "game_over", "text": text, "winners": list(winners)})
            if table.row.seed is not None and table.row.salt:
                out.events.append({"kind": "fair_dice", "text": reveal_line(table.row.seed, table.row.salt)})
        return out

    # -- reading ----------------------------------------------------------------------

    async def table(self, channel_id: str) -> Table:
        """Returns the channel's active game, else its last one; raises Refusal when none."""
        row = await self.store.latest_game(channel_id, snapshot=False)
        if row is None:
            raise NoGame("There is no game in this channel yet.")
        cached = self._cache.get(channel_id)
        if cached is not None and (cached.row.id, cached.row.version) == (row.id, row.version):
            return Table(cached.row, cached.seats, cached.game)
        seats = await self.store.seats(row.id)
        if row.status is Status.LOBBY or row.seed is None:
            return Table(row, seats, None)
        async with self.lock(channel_id):
            for _ in range(3):  # another process may repair or move the game meanwhile
                row = await self.store.game(row.id, snapshot=False) or row  # a move may have landed meanwhile
                try:
                    return await self._load(row, seats)
                except StaleVersion:
                    continue
            raise Refusal("This game is changing too fast to show: try again in a moment.")

    async def log(self, channel_id: str, *, last: int = 10) -> tuple[Table, list[MoveRow]]:
        """Returns the channel's latest table and its most recent moves."""
        row = await self.store.latest_game(channel_id, snapshot=False)
        if row is None:
            raise NoGame("There is no game in this channel yet.")
        return Table(row, await self.store.seats(row.id), None), await self.store.moves(row.id, last=last)

    async def replay(self, game_id: int) -> Game:
        """Rebuilds a game from its seed, seats, options and move log alone."""
        row = await self.store.game(game_id, snapshot=False)
        if row is None or row.seed is None:
            raise Refusal(f"Game {game_id} has not started.")
        return _replayed(row, await self.store.seats(game_id), effective_moves(await self.store.moves(game_id)))

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
            standing = effective_moves(await self.store.moves(row.id))
            if not standing or standing[-1].player_id != person.id:
                raise Refusal("Only your own last move can be taken back, and only before anyone else acts.")
            last = standing[-1]
            if last.origin == "clock":
                raise Refusal(f"`{last.move}` was played by the turn clock when your time ran out: it stands.")
            before = _replayed(row, table.seats, standing[:-1])
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

    # -- internals --------------------------------------------------------------------

    async def _lobby(self, channel_id: str) -> GameRow:
        row = await self.store.active_game(channel_id, snapshot=False)
        if row is None:
            raise NoGame(f"There is no table in this channel: open one with {_new_commands()}.")
        if row.status is not Status.LOBBY:
            raise Refusal("The game has already started.")
        if row.game not in GAMES:
            raise Refusal(f"This bot no longer hosts '{row.game}'.")
        return row

    async def _load(self, row: GameRow, seats: list[Seat]) -> Table:
        """Returns the table of a started game with its engine; marks it broken when it cannot load.

        A snapshot behind its log (the version disagrees with the last logged move)
        is rebuilt from the log, which is the truth.
        """
        if row.broken:
            raise Refusal(_broken_message())
        cached = self._cache.get(row.channel_id)
        if cached is not None and (cached.row.id, cached.row.version) == (row.id, row.version):
            return cached
        cls = GAMES.get(row.game)
        try:
            if cls is None:
                raise GameError(f"this bot no longer hosts '{row.game}'")
            logged = await self.store.last_seq(row.id)
            if logged != row.version:
                game = await self.replay(row.id)
                log.warning("game %s: snapshot at version %s, log at %s; rebuilt from the log", row.id,
                            row.version, logged)
                await self.store.repair(row.id, from_version=row.version, version=logged, snapshot=game.to_json())
                row = replace(row, version=logged)
            else:
                full = await self.store.game(row.id)
                game = cls.from_json((full.snapshot if full else None) or "")
                if self.debug:
                    replayed = await self.replay(row.id)
                    if replayed.to_json() != game.to_json():
                        raise GameError("replaying the move log does not give the saved snapshot")
        except (StorageUnavailable, StaleVersion):
            raise
        except Exception as err:  # any damage: this game only is out of service
            log.error("game %s in channel %s cannot be loaded: %s", row.id, row.channel_id, _describe(err))
            await self.store.mark_broken(row.id, _describe(err))
            raise Refusal(_broken_message()) from err
        table = Table(row, seats, game)
        if row.status is Status.RUNNING:
            self._remember(table)
        return table

    def _remember(self, table: Table) -> None:
        """Keeps a running game's engine, dropping the least recently used past the cache size."""
        self._cache[table.row.channel_id] = table
        self._cache.move_to_end(table.row.channel_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def forget(self, game_id: int) -> None:
        """Drops a cached engine (tests use it to force a load from the store)."""
        for channel, table in list(self._cache.items()):
            if table.row.id == game_id:
                del self._cache[channel]

    @staticmethod
    def _outbox(
        row: GameRow, seats: list[Seat] | None = None, *, actor: Person | None = None, **fields: Any
    ) -> Outbox:
        names = {s.player_id: s.name for s in seats or []}
        return Outbox(
            game_id=row.id,
            game=row.game,
            channel_id=row.channel_id,
            guild_id=row.guild_id,
            names=names,
            actor_id=actor.id if actor else None,
            **fields,
        )


def _replayed(row: GameRow, seats: list[Seat], moves: list[MoveRow]) -> Game:
    """Returns the game rebuilt from its seed, seats and options by playing ``moves``."""
    names = {s.player_id: s.name for s in seats}
    game = GAMES[row.game].new([s.name for s in seats], row.seed or 0, row.options)
    for m in moves:
        game.play(names[m.player_id], m.move)
    return game


@dataclass(frozen=True)
class _ClockTurn:
    """What the turn clock played for a player: on which copy of the game, under which policy."""

    game: Game
    policy: str
    moves: list[str]
    events: list[Event]
    records: list[tuple[str, str]]


def record_of(events: list[Event], game: Game) -> tuple[str, str]:
    """Returns what a move leaves in the log beside its text: its public events (JSON) and the state's digest."""
    return json.dumps([e for e in events if is_public(e)], separators=(",", ":")), digest(game.dump_state())


class _AlreadyPlayed(Refusal):
    def __init__(self) -> None:
        super().__init__("That move was already played.")


@contextmanager
def _saving() -> Iterator[None]:
    """Turns a storage failure into the one sentence a player gets (the admin's log names the file)."""
    try:
        yield
    except StorageUnavailable as err:
        raise Unavailable(f"I can't save moves right now: {err.reason}. Nothing was changed.") from err


def _option_text(value: Any) -> str:
    """Returns an option's value for the lobby line: as typed for a word or number, else short JSON.

    >>> _option_text(15), _option_text({"ships": ["frigate"] * 20})[:20]
    ('15', '{"ships":["frigate",')
    """
    if isinstance(value, str | int | float):
        return shown(str(value), 40)
    return shown(json.dumps(value, separators=(",", ":")), 40)


def _new_commands() -> str:
    """Returns the commands that open a table, e.g. "/xisk new, /nxs new or /game new game:nexo"."""
    own = {"xisk", "nxs", "nexo"}  # games with a cog of their own
    commands = [f"/{name} new" for name in sorted(GAMES) if name in own]
    commands += [f"/game new game:{name}" for name in sorted(GAMES) if name not in own]
    return ", ".join(commands[:-1]) + f" or {commands[-1]}" if len(commands) > 1 else "/game new"


def _title(row: GameRow) -> str:
    cls = GAMES.get(row.game)
    return cls.TITLE if cls else row.game


def _describe(err: BaseException) -> str:
    """Returns an error as a short line for the log and the ``broken`` column (no repr, no newlines)."""
    return shown(f"{type(err).__name__}: {err}" if str(err) else type(err).__name__, 300)


def _broken_message() -> str:
    return (
        "This game's saved state cannot be loaded, so it is paused."
        " The game's creator or a channel manager can /game abort it."
    )


__all__ = [
    "NoGame", "Person", "Refusal", "Stale", "StaleVersion", "Table", "Tables", "Unavailable",
    "seat_name", "secret_part",
]
