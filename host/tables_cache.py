"""The table service's state and how it finds a table: a lock per channel, the LRU of engines, loading.

A started game is loaded from the store (rebuilt from its move log when its snapshot is
behind it, marked broken when it cannot be); running games' engines stay in a bounded LRU,
finished games leave it. Locks live only while someone holds or waits for them.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace

from engines import GAMES, KITS, GameError
from engines.core import Game, shown
from host.fairness import new_server_seed
from host.store import GameRow, MoveRow, Seat, StaleVersion, Status, StorageUnavailable, Store
from host.table import NoGame, Refusal, Table
from host.thinker import Thinker
from host.undo import replayed

log = logging.getLogger("host.tables")  # the table service's records, whichever of its parts writes them

CACHE_SIZE = 512
"""Default number of running games whose engines stay in memory (``TABLEHOST_CACHE``)."""


class TablesCache:
    """The table service's state (locks, cached engines, listeners) and its finding of tables.

    A part of :class:`host.tables.Tables`.
    """

    def __init__(
        self,
        store: Store,
        *,
        debug: bool = False,
        seeds: Callable[[], str] = new_server_seed,
        cache_size: int = CACHE_SIZE,
        clock: Callable[[], float] = time.time,
        join_ids: bool = True,
        thinker: Thinker | None = None,
    ) -> None:
        """``seeds`` draws the server seed of each new table, ``clock`` tells the time (tests pass fixed ones).

        ``join_ids`` False (tests) leaves the joins' interaction ids out of the entropy, so that a
        fixed ``seeds`` deals alike on every run. ``thinker`` thinks for the bots and the coach
        (default: one with the default budget).
        """
        self.store = store
        self.thinker = thinker or Thinker()
        self.clock = clock
        self.debug = debug
        self.join_ids = join_ids
        self._seeds = seeds
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._cache: OrderedDict[str, Table] = OrderedDict()
        """Channel id → its running game with a loaded engine, most recently used last."""
        self.cache_size = cache_size
        self._closing = False
        self.listeners: list[Callable[[str], None]] = []
        """Called with a channel id after each committed change of its game (the bots listen)."""

    def server_seed(self) -> str:
        """Returns a new table's server seed (see :mod:`host.fairness`)."""
        return self._seeds()

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
        if row.status is Status.LOBBY or not row.started:
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
        """Rebuilds a game from its seed, seats, options and move log alone (undos and takebacks included)."""
        row = await self.store.game(game_id, snapshot=False)
        if row is None or not row.started:
            raise Refusal(f"Game {game_id} has not started.")
        return _replayed(row, await self.store.seats(game_id), await self.store.moves(game_id))

    # -- internals --------------------------------------------------------------------

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

    async def _lobby(self, channel_id: str) -> GameRow:
        row = await self.store.active_game(channel_id, snapshot=False)
        if row is None:
            raise NoGame(f"There is no table in this channel: open one with {_new_commands()}.")
        if row.status is not Status.LOBBY:
            raise Refusal("The game has already started.")
        if row.game not in GAMES:
            raise Refusal(f"This bot no longer hosts '{row.game}'.")
        return row

    async def _load(self, row: GameRow, seats: list[Seat], *, tries: int = 3) -> Table:
        """Returns the table of a started game with its engine; marks it broken when it cannot load.

        A snapshot behind its log (the version disagrees with the last logged move, both read at
        one instant) is rebuilt from the log, which is the truth. A game another process moved on
        since ``row`` was read is loaded again as it now stands.
        """
        if row.broken:
            raise Refusal(_broken_message())
        cached = self._cache.get(row.channel_id)
        if cached is not None and (cached.row.id, cached.row.version) == (row.id, row.version):
            return cached
        now = await self.store.logged_at(row.id)
        version, logged = now if now is not None else (row.version, row.version)
        if version != row.version:  # another process moved it on since the row was read: read it again
            fresh = await self.store.game(row.id, snapshot=False)
            if fresh is None or tries <= 1:
                raise StaleVersion(f"game {row.id} moved on to version {version} while it was loaded")
            return await self._load(fresh, seats, tries=tries - 1)
        cls = GAMES.get(row.game)
        try:
            if cls is None:
                raise GameError(f"this bot no longer hosts '{row.game}'")
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


def _replayed(row: GameRow, seats: list[Seat], log: list[MoveRow], *, then: str | None = None) -> Game:
    """Returns the game rebuilt from its seed, seats and options by playing its whole ``log``.

    Undo and takeback entries take back moves as live (:func:`host.undo.play_log`); ``then`` is one
    more such entry (``undo``, ``takeback``) played after the log: the game that entry would leave.
    """
    names = {s.player_id: s.name for s in seats}
    game = GAMES[row.game].new([s.name for s in seats], row.engine_seed, row.options)
    entries = [(names[m.player_id], m.move) for m in log]
    return replayed(game, [*entries, ("", then)] if then else entries)


class _AlreadyPlayed(Refusal):
    def __init__(self) -> None:
        super().__init__("That move was already played.")


def _new_commands() -> str:
    """Returns the commands that open a table, e.g. "/nexo new, /nxs new or /game new game:tally".

    A game whose kit has a command group of its own opens with it; another, with ``/game new``.
    """
    commands = [f"/{KITS[name].group} new" for name in sorted(KITS) if KITS[name].group]
    commands += [f"/game new game:{name}" for name in sorted(KITS) if not KITS[name].group]
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
