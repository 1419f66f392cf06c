"""The operators' HTTP endpoint: ``/healthz`` for an orchestrator, ``/metrics`` for Prometheus.

bot.py runs it when ``TABLEHOST_HTTP=host:port`` is set (:attr:`host.config.Config.http`)::

    GET /healthz   200 {"gateway": true, "store": true, "timekeeper": true}; 503, same body, when one is false
    GET /metrics   Prometheus's text format (:mod:`host.metrics`)
    anything else  404

The checks are callables, named, so this module knows no Discord: :meth:`HttpServer.for_bot` builds
them from the bot (which it reads only through :class:`HostedBot`). It has no authentication: bind
it to an address only the orchestrator and Prometheus reach (127.0.0.1, or a container network).

>>> import asyncio, aiohttp
>>> async def up() -> bool: return True
>>> async def demo() -> tuple[int, str]:
...     server = HttpServer({"store": up}, refresh=None)
...     await server.start("127.0.0.1", 0)
...     try:
...         async with aiohttp.ClientSession() as session:
...             async with session.get(f"http://127.0.0.1:{server.port}/healthz") as reply:
...                 return reply.status, await reply.text()
...     finally:
...         await server.stop()
>>> asyncio.run(demo())
(200, '{"store": true}')
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Protocol

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from host import metrics

if TYPE_CHECKING:
    from host.tables import Tables
    from host.timekeeper import Timekeeper

log = logging.getLogger(__name__)

Check = Callable[[], Awaitable[bool]]
"""One health check: True when its part works; it must not take long (the store's is bounded)."""

STORE_TIMEOUT = 2.0
"""Seconds the store's health read (and each refresh of the database's gauges) may take."""
ALIVE_WITHIN = 60.0
"""The timekeeper counts as alive when it read the clocks this many seconds ago at most (it does every 15 s)."""
REFRESH_EVERY = 15.0
"""Seconds between two readings of the database's gauges (pending announcements, games running)."""


class HostedBot(Protocol):
    """What the health checks read of the bot (:class:`cogs.client.Tablehost` is one)."""

    @property
    def tables(self) -> Tables: ...

    @property
    def timekeeper(self) -> Timekeeper: ...

    def is_closed(self) -> bool: ...

    def is_ready(self) -> bool: ...


def gateway_up(bot: HostedBot) -> bool:
    """Tells whether the bot is connected: open, ready, and (sharded) every shard with a measured heartbeat."""
    if bot.is_closed() or not bot.is_ready():
        return False
    latencies: list[tuple[int, float]] | None = getattr(bot, "latencies", None)  # AutoShardedClient only
    return latencies is None or all(math.isfinite(seconds) for _, seconds in latencies)


async def store_up(tables: Tables, *, timeout: float = STORE_TIMEOUT) -> bool:
    """Tells whether a trivial read of the store succeeds within ``timeout`` seconds."""
    try:
        await asyncio.wait_for(tables.store.db.read(lambda tx: tx.fetchval("SELECT 1")), timeout)
    except Exception as err:  # any failure is the answer: the store is not usable now
        log.warning("health: the store did not answer a read within %s s (%s)", timeout, type(err).__name__)
        return False
    return True


def timekeeper_alive(timekeeper: Timekeeper, *, within: float = ALIVE_WITHIN) -> bool:
    """Tells whether the timekeeper read the clocks in the last ``within`` seconds (the event loop's clock)."""
    seen = timekeeper.alive_at
    return seen is not None and asyncio.get_running_loop().time() - seen <= within


class HttpServer:
    """Serves ``/healthz`` and ``/metrics`` on one address; refreshes the database's gauges meanwhile.

    ``checks`` name the parts ``/healthz`` reports, in order; ``refresh`` reads the gauges that come
    from the database (None: none), every ``refresh_every`` seconds, each time for ``STORE_TIMEOUT`` at most.
    """

    def __init__(
        self,
        checks: Mapping[str, Check],
        *,
        refresh: Callable[[], Awaitable[None]] | None,
        refresh_every: float = REFRESH_EVERY,
    ) -> None:
        self.checks = dict(checks)
        self.refresh = refresh
        self.refresh_every = refresh_every
        self.mounts: list[Callable[[web.Application], None]] = []
        """What else the listener serves: each adds its routes (the web table, :mod:`web.app`)."""
        self._runner: web.AppRunner | None = None
        self._refreshing: asyncio.Task[None] | None = None

    @classmethod
    def for_bot(cls, bot: HostedBot, **options: float) -> HttpServer:
        """Returns the server whose checks are the bot's gateway, its store and its timekeeper."""

        async def gateway() -> bool:
            return gateway_up(bot)

        async def store() -> bool:
            return await store_up(bot.tables)

        async def timekeeper() -> bool:
            return timekeeper_alive(bot.timekeeper)

        async def refresh() -> None:
            await metrics.read_counts(bot.tables.store.db)

        return cls({"gateway": gateway, "store": store, "timekeeper": timekeeper}, refresh=refresh, **options)

    @property
    def port(self) -> int:
        """The port the server listens on (the one the system chose, when started on port 0)."""
        if self._runner is None or not self._runner.addresses:
            raise RuntimeError("the HTTP server is not started")
        return int(self._runner.addresses[0][1])

    async def start(self, host: str, port: int) -> None:
        """Listens on ``host:port`` (port 0: any free port, see :attr:`port`); raises OSError if it cannot."""
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        for mount in self.mounts:
            mount(app)
        app.router.add_route("*", "/{anything:.*}", self._not_found)  # another method or path
        # access_log: a probe every few seconds is not worth a line; handler_cancellation: a page that goes away
        # ends its event stream at once (web.app), not at its next keep-alive
        runner = web.AppRunner(app, access_log=None, handler_cancellation=True)
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        if self.refresh is not None:
            self._refreshing = asyncio.create_task(self._refresh_forever(), name="tablehost-http-refresh")
        log.info("health and metrics at http://%s:%s/healthz and /metrics", host, self.port)

    async def stop(self) -> None:
        """Stops listening and refreshing (a request under way is answered first); idempotent."""
        if self._refreshing is not None:
            self._refreshing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._refreshing
            self._refreshing = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def health(self) -> dict[str, bool]:
        """Runs every check side by side; a check that raises counts as False."""
        answers = await asyncio.gather(*(check() for check in self.checks.values()), return_exceptions=True)
        return {name: answer is True for name, answer in zip(self.checks, answers, strict=True)}

    async def _healthz(self, _request: web.Request) -> web.Response:
        parts = await self.health()
        return web.Response(text=json.dumps(parts), content_type="application/json",
                            status=200 if all(parts.values()) else 503)

    async def _metrics(self, _request: web.Request) -> web.Response:
        reply = web.Response(body=generate_latest(metrics.REGISTRY))
        reply.headers["Content-Type"] = CONTENT_TYPE_LATEST  # with its version= parameter, as Prometheus reads it
        return reply

    async def _not_found(self, _request: web.Request) -> web.Response:
        if self.mounts:  # the web table's addresses are not to be listed
            return web.Response(status=404, text="Not found.\n")
        return web.Response(status=404, text="Not found: this server has /healthz and /metrics only.\n")

    async def _refresh_forever(self) -> None:
        assert self.refresh is not None
        failing = False
        while True:
            try:
                async with asyncio.timeout(STORE_TIMEOUT):  # not wait_for, which may swallow stop()'s cancel
                    await self.refresh()
            except Exception as err:  # the gauges keep their last values; /healthz reports the store
                if not failing:
                    log.warning("metrics: the database's counts could not be read (%s)", type(err).__name__)
                failing = True
            else:
                failing = False
            await asyncio.sleep(self.refresh_every)
