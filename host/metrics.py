"""What operators watch: the bot's metrics, in Prometheus's text format at ``/metrics`` (see :mod:`host.web`).

Every metric lives in :data:`REGISTRY`, a registry of its own (not prometheus_client's global
one), so ``/metrics`` shows Tablehost's figures only and tests read them without interference.
The code records through the small functions below, one line where the event happens:

======================================  ===============================================================
``tablehost_moves_total{game}``         moves played and committed (:func:`measured_act`)
``tablehost_refusals_total{kind}``      moves refused, by :data:`REFUSAL_KINDS`
``tablehost_act_seconds``               one whole move, lock to commit, played or refused
``tablehost_render_seconds{game}``      drawing one picture (in its worker thread)
``tablehost_deliveries_retried_total``  an announcement sent again after Discord was busy (429 or 5xx)
``tablehost_rate_limited_total``        of those, the 429s (Discord said how long to wait)
``tablehost_deadlines_total{kind}``     turn-clock deadlines handled: ``reminder`` or ``timeout``
``tablehost_pending_announcements``     announcements not yet delivered (the database's count)
``tablehost_games_running{game}``       games running (the database's count)
======================================  ===============================================================

The last two are read from the database by :func:`read_counts`, which the HTTP server runs every
few seconds with a timeout; a scrape only reads the values cached then. They count the whole
database: processes sharing one (PostgreSQL) each report the same figure, so take ``max``, not
``sum``, across them.

>>> before = value("tablehost_deadlines_total", kind="reminder")
>>> deadline_fired("reminder")
>>> value("tablehost_deadlines_total", kind="reminder") - before
1.0
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal, ParamSpec

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from engines.core.errors import GameError, IllegalMove, NotYourTurn
from host.outbox import Outbox
from host.table import NoGame, Stale, Unavailable

if TYPE_CHECKING:
    from host.db_base import Database

P = ParamSpec("P")

REGISTRY = CollectorRegistry(auto_describe=True)
"""Tablehost's metrics, and nothing else (what ``/metrics`` serves)."""

SECONDS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Histogram buckets from 5 ms (a refusal from the cache) to 10 s (a move held up by a slow database)."""

RefusalKind = Literal["not_your_turn", "illegal", "no_game", "stale", "unavailable", "other"]
REFUSAL_KINDS: tuple[RefusalKind, ...] = ("not_your_turn", "illegal", "no_game", "stale", "unavailable", "other")
"""The ``kind`` of a refusal: someone else's turn (``NotYourTurn``); a move the rules forbid or cannot read
(``IllegalMove``: bad notation, the game over...); no game in the channel (``NoGame``); an old button
(``Stale``); the store unable to save (``Unavailable``); any other refusal (not seated, too long, another
game's command, a move that landed at the same moment)."""
DeadlineKind = Literal["reminder", "timeout"]

MOVES = Counter("tablehost_moves", "Moves played and committed.", ["game"], registry=REGISTRY)
REFUSALS = Counter("tablehost_refusals", "Moves refused, by kind.", ["kind"], registry=REGISTRY)
ACT_SECONDS = Histogram("tablehost_act_seconds", "Seconds one move took, from its lock to its commit or refusal.",
                        buckets=SECONDS, registry=REGISTRY)
RENDER_SECONDS = Histogram("tablehost_render_seconds", "Seconds drawing one picture took.", ["game"],
                           buckets=SECONDS, registry=REGISTRY)
RETRIES = Counter("tablehost_deliveries_retried", "Announcements sent again after Discord was busy (429 or 5xx).",
                  registry=REGISTRY)
RATE_LIMITED = Counter("tablehost_rate_limited", "Deliveries Discord refused with a 429 (it said how long to wait).",
                       registry=REGISTRY)
DEADLINES = Counter("tablehost_deadlines", "Turn-clock deadlines handled, by kind.", ["kind"], registry=REGISTRY)
PENDING = Gauge("tablehost_pending_announcements", "Announcements not yet delivered, in the whole database.",
                registry=REGISTRY)
RUNNING = Gauge("tablehost_games_running", "Games running, in the whole database.", ["game"], registry=REGISTRY)

for _kind in REFUSAL_KINDS:  # every series shown from the start, at 0, so rates have a beginning
    REFUSALS.labels(_kind)
for _deadline in ("reminder", "timeout"):
    DEADLINES.labels(_deadline)


def refusal_kind(error: GameError) -> RefusalKind:
    """Returns the ``kind`` label of a refused move (see :data:`REFUSAL_KINDS`).

    >>> refusal_kind(NotYourTurn("It is not your turn, bob.")), refusal_kind(GameError("No."))
    ('not_your_turn', 'other')
    """
    if isinstance(error, Stale):
        return "stale"
    if isinstance(error, NoGame):
        return "no_game"
    if isinstance(error, Unavailable):
        return "unavailable"
    if isinstance(error, NotYourTurn):
        return "not_your_turn"
    if isinstance(error, IllegalMove):
        return "illegal"
    return "other"


def move_played(game: str) -> None:
    """Counts one move played and committed in a game of kind ``game``."""
    MOVES.labels(game).inc()


def move_refused(error: GameError) -> None:
    """Counts one refused move, by its :func:`refusal_kind`."""
    REFUSALS.labels(refusal_kind(error)).inc()


def measured_act(act: Callable[P, Awaitable[Outbox]]) -> Callable[P, Coroutine[Any, Any, Outbox]]:
    """Wraps the table service's ``act``: times the whole call, counts the move played or the refusal.

    A duplicate (an interaction delivered twice, a move already played) is timed but not counted
    as a move; an error that is not a ``GameError`` (the storage down, a bug) is timed only.
    """

    @functools.wraps(act)
    async def measured(*args: P.args, **kwargs: P.kwargs) -> Outbox:
        started = time.perf_counter()
        try:
            out = await act(*args, **kwargs)
        except GameError as err:
            move_refused(err)
            raise
        finally:
            ACT_SECONDS.observe(time.perf_counter() - started)
        if not out.duplicate:
            move_played(out.game)
        return out

    return measured


@contextlib.contextmanager
def rendering(game: str) -> Iterator[None]:
    """Times the block as the drawing of one picture of ``game`` (a failed drawing counts too)."""
    with RENDER_SECONDS.labels(game).time():
        yield


def delivery_retried(*, rate_limited: bool) -> None:
    """Counts one retry of an announcement after Discord was busy; ``rate_limited``: it was a 429."""
    RETRIES.inc()
    if rate_limited:
        RATE_LIMITED.inc()


def deadline_fired(kind: DeadlineKind) -> None:
    """Counts one turn-clock deadline handled: a ``reminder`` written, or a ``timeout`` played."""
    DEADLINES.labels(kind).inc()


def set_counts(*, pending: int, running: Mapping[str, int]) -> None:
    """Sets the database's gauges: announcements pending, and games running by game (others to none)."""
    PENDING.set(pending)
    RUNNING.clear()  # a game with none running any more leaves the list
    for game, count in running.items():
        RUNNING.labels(game).set(count)


async def read_counts(db: Database) -> None:
    """Reads the pending announcements and running games from ``db`` and sets their gauges.

    Two indexed counts; the caller bounds the time (see :class:`host.web.HttpServer`). Raises what the
    database raises, and then leaves the gauges as they were.
    """
    pending = await db.read(lambda tx: tx.fetchval("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL"))
    rows = await db.read(lambda tx: tx.fetch("SELECT game, COUNT(*) AS n FROM games WHERE status = 'running'"
                                             " GROUP BY game"))
    set_counts(pending=int(pending or 0), running={str(r["game"]): int(r["n"]) for r in rows})


def value(name: str, **labels: str) -> float:
    """Returns a sample's current value (0.0 when it has none yet), e.g. ``value("tablehost_moves_total",
    game="xisk")`` or ``value("tablehost_act_seconds_count")``."""
    found = REGISTRY.get_sample_value(name, labels)
    return 0.0 if found is None else found
