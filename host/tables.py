"""Tables: one game per channel, from lobby to the last move.

Every change follows one path: take the channel's lock → find the game (from
the cache, else the store) → apply → commit the change *and its announcement*
in one transaction (version checked) → return the :class:`Outbox`. A change is
acknowledged only after its commit, and its announcement is durable, so what a
player is told happened has happened, and what happened will be told.

The move log is the truth; the snapshot is its cache, and :meth:`Tables.replay`
proves they agree. Engines stay in a bounded LRU (finished games leave it);
locks live only while someone holds or waits for them.

:class:`Tables` is composed of parts in modules of their own, over one state: finding,
loading and caching tables (:mod:`host.tables_cache`), building a change's announcement
(:mod:`host.tables_outbox`), the lobby (:mod:`host.tables_lobby`), moves and undo
(:mod:`host.tables_moves`), takebacks by agreement (:mod:`host.tables_takeback`), the turn
clock's timeouts (:mod:`host.tables_timeouts`) and the coach's hints (:mod:`host.tables_hints`).
Every name callers import from here is still here.
"""

from __future__ import annotations

from host.store import StaleVersion
from host.table import NoGame, Person, Refusal, Stale, Table, Unavailable, seat_name, secret_part
from host.tables_cache import CACHE_SIZE
from host.tables_hints import Hint, TablesHints
from host.tables_lobby import TablesLobby
from host.tables_moves import AWAY, MAX_MOVE, TablesMoves
from host.tables_outbox import record_of
from host.tables_takeback import TablesTakeback, Takeback
from host.tables_timeouts import TablesTimeouts


class Tables(TablesLobby, TablesMoves, TablesTakeback, TablesTimeouts, TablesHints):
    """The table service shared by every adapter (Discord cogs, the console)."""


__all__ = [
    "AWAY", "CACHE_SIZE", "MAX_MOVE", "Hint", "NoGame", "Person", "Refusal", "Stale", "StaleVersion", "Table", "Tables",
    "Takeback", "Unavailable", "record_of", "seat_name", "secret_part",
]
