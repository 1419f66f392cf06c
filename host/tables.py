"""Tables: one game per channel, from lobby to the last move.

Every change follows one path: take the channel's lock → load the game (from
the cache when its version matches the store) → apply → commit (version
checked) → build the :class:`Outbox`. A move is acknowledged only after its
commit, so nothing a player is told can be lost. The move log is the truth;
the snapshot is its cache, and :meth:`Tables.replay` proves they agree.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engines import GAMES, GameError
from engines.core import Event, Game, is_public
from host.outbox import Outbox
from host.store import DuplicateInteraction, GameRow, MoveRow, Seat, StaleVersion, Status, Store, StoreError

log = logging.getLogger(__name__)

MAX_NAME = 32


class Refusal(GameError):
    """A table action that is not allowed now; the message is for the player."""


class Stale(Refusal):
    """A move chosen at a position (e.g. a button) that the game has since left."""


@dataclass(frozen=True)
class Person:
    """Someone at the table: a stable id (a Discord user id) and a display name."""

    id: str
    name: str


@dataclass
class Table:
    """A channel's game as read commands see it: its row, seats and engine (None in the lobby)."""

    row: GameRow
    seats: list[Seat]
    game: Game | None

    def name_of(self, user_id: str) -> str | None:
        """Returns the seat name of a user, or None when they are not seated."""
        return next((s.name for s in self.seats if s.player_id == user_id), None)

    def user_of(self, name: str) -> str | None:
        """Returns the user id seated under an engine name, or None."""
        return next((s.player_id for s in self.seats if s.name == name), None)

    @property
    def title(self) -> str:
        """The game's title, e.g. ``XISK``."""
        cls = GAMES.get(self.row.game)
        return cls.TITLE if cls else self.row.game


def seat_name(display: str, taken: set[str]) -> str:
    """Returns a clean, unused engine name for a display name.

    >>> seat_name("  Ann   Lee ", set()), seat_name("ann", {"ann"})
    ('Ann Lee', 'ann (2)')
    """
    base = " ".join(display.split())[:MAX_NAME] or "player"
    name, n = base, 2
    while name.casefold() in {t.casefold() for t in taken}:
        name, n = f"{base} ({n})", n + 1
    return name


def secret_part(game: Game, player: str, public: dict[str, Any]) -> dict[str, Any]:
    """Returns what ``view(player)`` holds that the spectator view does not."""
    if not game.HAS_SECRETS:
        return {}
    return {k: v for k, v in game.view(player).items() if k not in public or public[k] != v}


class Tables:
    """The table service shared by every adapter (Discord cogs, the console)."""

    def __init__(
        self, store: Store, *, debug: bool = False, seeds: Callable[[], int] = lambda: secrets.randbits(62)
    ) -> None:
        """``seeds`` draws the seed of each new game (tests pass a fixed one)."""
        self.store = store
        self.debug = debug
        self._seeds = seeds
        self._locks: dict[str, asyncio.Lock] = {}
        self._cache: dict[int, tuple[int, Game]] = {}
        self._closing = False

    def lock(self, channel_id: str) -> asyncio.Lock:
        """Returns the lock that serialises every change in one channel.

        Raises Refusal once :meth:`drain` has begun, so no new change starts.
        """
        if self._closing:
            raise Refusal("The bot is restarting: try again in a minute. Nothing was changed.")
        return self._locks.setdefault(channel_id, asyncio.Lock())

    async def drain(self) -> None:
        """Refuses new changes and waits until every change in progress is committed."""
        self._closing = True
        for lock in list(self._locks.values()):
            async with lock:
                pass

    # -- lobby ------------------------------------------------------------------------

    async def create(
        self, *, channel_id: str, guild_id: str | None, game: str, creator: Person, options: dict[str, Any]
    ) -> Outbox:
        """Opens a lobby and seats its creator; raises Refusal or GameError."""
        cls = GAMES.get(game)
        if cls is None:
            raise Refusal(f"There is no game called '{game}' (games: {', '.join(sorted(GAMES))}).")
        opts = cls.check_options(options)
        async with self.lock(channel_id):
            current = await self.store.active_game(channel_id)
            if current is not None:
                raise Refusal(f"This channel already has a {_title(current)} game ({current.status}).")
            try:
                row = await self.store.create_game(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    game=game,
                    creator_id=creator.id,
                    options=opts,
                    creator_name=seat_name(creator.name, set()),
                )
            except StoreError as err:
                raise Refusal("This channel already has a game.") from err
        shown = ", ".join(f"{k}={v}" for k, v in opts.items() if v != cls.OPTIONS.get(k))
        return self._outbox(
            row,
            lines=[
                f"{creator.name} opened a {cls.TITLE} table"
                + (f" ({shown})" if shown else "")
                + f". {cls._seat_range()} players: join, then start."
            ],
        )

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
            seat = await self.store.add_seat(row.id, person.id, name)
        return self._outbox(row, lines=[f"{seat.name} joins ({len(seats) + 1}/{cls.MAX_PLAYERS})."])

    async def leave(self, channel_id: str, person: Person) -> Outbox:
        """Unseats a player from the lobby; the lobby closes when nobody is left."""
        async with self.lock(channel_id):
            row = await self.store.active_game(channel_id)
            if row is None:
                raise Refusal("There is no game in this channel.")
            if row.status is Status.RUNNING:
                raise Refusal(
                    "The game is running, so seats are fixed: play on, resign if the game allows it,"
                    " or ask the game's creator or a channel manager to /game abort."
                )
            seats = await self.store.seats(row.id)
            left = await self.store.remove_seat(row.id, person.id)
            if left is None:
                raise Refusal("You are not seated at this table.")
            name = next(s.name for s in seats if s.player_id == person.id)
            if left == 0:
                return self._outbox(row, lines=[f"{name} leaves; the table is empty and closes."])
        return self._outbox(row, lines=[f"{name} leaves the table."])

    async def start(self, channel_id: str, person: Person, *, seed: int | None = None) -> Outbox:
        """Starts the lobby's game with the seated players; raises Refusal or GameError."""
        async with self.lock(channel_id):
            row = await self._lobby(channel_id)
            seats = await self.store.seats(row.id)
            cls = GAMES[row.game]
            if person.id != row.creator_id and all(s.player_id != person.id for s in seats):
                raise Refusal("Only a seated player can start the game.")
            if not cls.MIN_PLAYERS <= len(seats) <= cls.MAX_PLAYERS:
                raise Refusal(
                    f"{cls.TITLE} needs {cls._seat_range()} players; {len(seats)} seated."
                )
            seed = self._seeds() if seed is None else seed
            game = cls.new([s.name for s in seats], seed, row.options)
            snapshot = game.to_json()
            await self.store.start_game(row.id, seed=seed, snapshot=snapshot)
            self._cache[row.id] = (0, game)
            table = Table(row, seats, game)
            out = self._move_outbox(table, game, game.opening_events(), set(), {}, None, 0)
            out.lines.insert(0, f"{cls.TITLE} begins: {', '.join(s.name for s in seats)}.")
            return out

    async def abort(self, channel_id: str, person: Person, *, can_manage: bool) -> Outbox:
        """Ends the channel's game for good; only its creator or a channel manager may."""
        async with self.lock(channel_id):
            row = await self.store.active_game(channel_id)
            if row is None:
                raise Refusal("There is no game in this channel to abort.")
            if person.id != row.creator_id and not can_manage:
                raise Refusal("Only the game's creator or someone with Manage Channels can abort it.")
            await self.store.set_status(row.id, Status.ABORTED)
            self._cache.pop(row.id, None)
        return self._outbox(row, lines=[f"{person.name} aborted the {_title(row)} game."], finished=True)

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
        """Plays one move for a seated player and commits it before returning.

        ``for_game`` names the game the move was written for (a game's own command);
        a channel running another game refuses it. ``position`` is the (game id,
        version) a button was posted at; checked under the lock, so of two quick
        clicks on one button only the first is played (the other raises Stale).

        Raises Refusal (no game, another game, not seated, not running, damaged game)
        or the engine's IllegalMove; in every such case nothing changes. A repeated
        ``interaction_id`` returns an outbox with ``duplicate`` set and applies nothing.
        """
        async with self.lock(channel_id):
            row = await self.store.active_game(channel_id)
            if row is None:
                raise Refusal("There is no game running in this channel.")
            if row.status is Status.LOBBY:
                raise Refusal("The game has not started yet: seated players can start it.")
            if for_game is not None and row.game != for_game:
                raise Refusal(
                    f"This channel has a {_title(row)} game, not a {GAMES[for_game].TITLE} game:"
                    f" /{for_game} commands don't apply here. Nothing was changed."
                )
            seats = await self.store.seats(row.id)
            table = Table(row, seats, None)
            name = table.name_of(person_id)
            if name is None:
                raise Refusal("You are not playing in this game; you can watch it.")
            if interaction_id and await self.store.move_by_interaction(interaction_id):
                return self._outbox(row, lines=["That move was already played."], duplicate=True)
            if position is not None and position[0] != row.id:
                raise Stale("This game has ended.")
            if position is not None and position[1] != row.version:
                raise Stale("This button is out of date: use the newest message.")
            game = await self._load(row, seats)
            acting_before = set(game.to_act())
            public_before = game.view(None)
            secrets_before = {s.name: secret_part(game, s.name, public_before) for s in seats}
            try:
                events = game.play(name, move)
            except Exception as err:
                if not isinstance(err, GameError):  # a bug, not a player's mistake
                    self._cache.pop(row.id, None)
                    # Only the kind of move: its words may name the mover's own cards.
                    log.exception("engine fault in game %s on a %r move", row.id, (move.split() or ["?"])[0][:20])
                raise
            canonical = game.last_move or move
            try:
                version = await self.store.commit_move(
                    row.id,
                    expected_version=row.version,
                    player_id=person_id,
                    move=canonical,
                    snapshot=game.to_json(),
                    interaction_id=interaction_id,
                    finished=game.is_over,
                )
            except DuplicateInteraction:
                self._cache.pop(row.id, None)
                return self._outbox(row, lines=["That move was already played."], duplicate=True)
            except BaseException:
                self._cache.pop(row.id, None)
                raise
            self._cache[row.id] = (version, game)
            return self._move_outbox(table, game, events, acting_before, secrets_before, canonical, version)

    def _move_outbox(
        self,
        table: Table,
        game: Game,
        events: list[Event],
        acting_before: set[str],
        secrets_before: dict[str, dict[str, Any]],
        canonical: str | None,
        version: int,
    ) -> Outbox:
        public = game.view(None)
        out = self._outbox(table.row, table.seats, picture=True, finished=game.is_over)
        out.view, out.move, out.version = public, canonical, version
        out.events = [e for e in events if is_public(e)]
        for e in events:
            if not is_public(e) and (uid := table.user_of(e["to"])):
                out.private.setdefault(uid, []).append(e["text"])
        for s in table.seats:
            secret = secret_part(game, s.name, public)
            if secret and secret != secrets_before.get(s.name):
                out.secrets[s.player_id] = secret
        out.mention = [
            uid for name in game.to_act() if name not in acting_before and (uid := table.user_of(name))
        ]
        if game.is_over:
            winners = game.winners
            out.lines.append(
                f"Game over: {' and '.join(winners)} win{'s' if len(winners) == 1 else ''}!"
                if winners
                else "Game over: a draw."
            )
        return out

    # -- reading ----------------------------------------------------------------------

    async def table(self, channel_id: str) -> Table:
        """Returns the channel's active game, else its last one; raises Refusal when none."""
        row = await self.store.latest_game(channel_id)
        if row is None:
            raise Refusal("There is no game in this channel yet.")
        seats = await self.store.seats(row.id)
        if row.status is Status.LOBBY or row.snapshot is None:
            return Table(row, seats, None)
        async with self.lock(channel_id):
            row = await self.store.game(row.id) or row  # re-read: a move may have landed meanwhile
            return Table(row, seats, await self._load(row, seats))

    async def log(self, channel_id: str, *, last: int = 10) -> tuple[Table, list[MoveRow]]:
        """Returns the channel's latest table and its most recent moves."""
        row = await self.store.latest_game(channel_id)
        if row is None:
            raise Refusal("There is no game in this channel yet.")
        return Table(row, await self.store.seats(row.id), None), await self.store.moves(row.id, last=last)

    async def replay(self, game_id: int) -> Game:
        """Rebuilds a game from its seed, seats, options and move log alone."""
        row = await self.store.game(game_id)
        if row is None or row.seed is None:
            raise Refusal(f"Game {game_id} has not started.")
        seats = await self.store.seats(game_id)
        names = {s.player_id: s.name for s in seats}
        game = GAMES[row.game].new([s.name for s in seats], row.seed, row.options)
        for m in await self.store.moves(game_id):
            game.play(names[m.player_id], m.move)
        return game

    # -- internals --------------------------------------------------------------------

    async def _lobby(self, channel_id: str) -> GameRow:
        row = await self.store.active_game(channel_id)
        if row is None:
            raise Refusal("There is no table in this channel: open one with /<game> new.")
        if row.status is not Status.LOBBY:
            raise Refusal("The game has already started.")
        if row.game not in GAMES:
            raise Refusal(f"This bot no longer hosts '{row.game}'.")
        return row

    async def _load(self, row: GameRow, seats: list[Seat]) -> Game:
        """Returns the engine of a started game; marks it broken when it cannot load."""
        if row.broken:
            raise Refusal(_broken_message(row.broken))
        cached = self._cache.get(row.id)
        if cached and cached[0] == row.version:
            return cached[1]
        cls = GAMES.get(row.game)
        try:
            if cls is None:
                raise GameError(f"this bot no longer hosts '{row.game}'")
            game = cls.from_json(row.snapshot or "")
            if self.debug:
                replayed = await self.replay(row.id)
                if replayed.to_json() != game.to_json():
                    raise GameError("replaying the move log does not give the saved snapshot")
        except Exception as err:  # any damage: this game only is out of service
            reason = str(err) or repr(err)
            log.error("game %s in channel %s cannot be loaded: %s", row.id, row.channel_id, reason)
            await self.store.mark_broken(row.id, reason)
            raise Refusal(_broken_message(reason)) from err
        self._cache[row.id] = (row.version, game)
        return game

    def forget(self, game_id: int) -> None:
        """Drops a cached engine (tests use it to force a load from the store)."""
        self._cache.pop(game_id, None)

    @staticmethod
    def _outbox(row: GameRow, seats: list[Seat] | None = None, **fields: Any) -> Outbox:
        names = {s.player_id: s.name for s in seats or []}
        return Outbox(game_id=row.id, game=row.game, channel_id=row.channel_id, names=names, **fields)


def _title(row: GameRow) -> str:
    cls = GAMES.get(row.game)
    return cls.TITLE if cls else row.game


def _broken_message(reason: str) -> str:
    return (
        "This game's saved state cannot be loaded, so it is paused"
        f" ({reason}). The game's creator or a channel manager can /game abort it."
    )


__all__ = ["Person", "Refusal", "Stale", "StaleVersion", "Table", "Tables", "seat_name", "secret_part"]
