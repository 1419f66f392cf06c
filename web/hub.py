"""Live pages: each committed change of a watched game reaches its open event streams.

The signal is the one the bots and the timekeeper use: the table service's listeners, called
after each committed change in this process, and, on PostgreSQL, the ``NOTIFY`` every
announcement's transaction sends (:data:`host.store_outbox.CHANGED`), so a move committed by
another process reaches this one's pages too. A signal carries no game: on each, the hub reads
the version of every watched game in one query and wakes the streams of those that changed. Signals
that come while a read is under way make one more read, never a queue of them::

    >>> import asyncio
    >>> async def demo():
    ...     hub = Hub(lambda ids: asyncio.sleep(0, {7: (3, "running")}))
    ...     watcher = hub.watch(7, version=2)
    ...     hub.poke()
    ...     return await watcher.next(timeout=1)
    >>> asyncio.run(demo())
    {'version': 3, 'status': 'running'}
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)

Versions = Callable[[list[int]], Awaitable[dict[int, tuple[int, str]]]]
"""Reads ``{game id: (version, status)}`` for the given games (those not found are left out)."""


class Watcher:
    """One open stream's view of a game: the newest change not yet sent."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.closed = False
        self._change: dict[str, Any] | None = None
        self._woken = asyncio.Event()

    def tell(self, change: dict[str, Any] | None) -> None:
        """Keeps ``change`` as the newest (None: the hub is closing) and wakes the stream."""
        if change is None:
            self.closed = True
        else:
            self._change = change
        self._woken.set()

    async def next(self, *, timeout: float) -> dict[str, Any] | None:
        """Returns the newest change once there is one, or None after ``timeout`` seconds (or when closed)."""
        if self._change is None and not self.closed:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self._woken.wait()
        self._woken.clear()
        change, self._change = self._change, None
        return change


class Hub:
    """Watches games for their pages' event streams (one hub per process)."""

    def __init__(self, versions: Versions) -> None:
        self._versions = versions
        self._watchers: dict[int, set[Watcher]] = {}
        self._known: dict[int, int] = {}
        self._reading: asyncio.Task[None] | None = None
        self._again = False

    @property
    def streams(self) -> int:
        """Open streams in all."""
        return sum(len(w) for w in self._watchers.values())

    def watch(self, game_id: int, *, version: int) -> Watcher:
        """Returns a new watcher of a game the stream has seen at ``version``."""
        watcher = Watcher(game_id)
        self._watchers.setdefault(game_id, set()).add(watcher)
        self._known.setdefault(game_id, version)
        return watcher

    def unwatch(self, watcher: Watcher) -> None:
        """Forgets a watcher (its stream ended)."""
        watchers = self._watchers.get(watcher.game_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self._watchers[watcher.game_id]
                self._known.pop(watcher.game_id, None)

    def poke(self, *_: object) -> None:
        """Something committed: reads the watched games' versions soon (one read at a time)."""
        if not self._watchers:
            return
        if self._reading is not None and not self._reading.done():
            self._again = True
            return
        self._reading = asyncio.get_running_loop().create_task(self._read(), name="tablehost-web-hub")

    def close(self) -> None:
        """Ends every stream (the server is stopping)."""
        for watchers in self._watchers.values():
            for watcher in watchers:
                watcher.tell(None)
        if self._reading is not None:
            self._reading.cancel()

    async def _read(self) -> None:
        while True:
            self._again = False
            try:
                found = await self._versions(list(self._watchers))
            except Exception as err:  # the store is away for a moment: the next signal reads again
                log.warning("web: the watched games' versions could not be read (%s)", type(err).__name__)
                return
            for game_id, (version, status) in found.items():
                if self._known.get(game_id, version) == version:
                    continue
                self._known[game_id] = version
                for watcher in self._watchers.get(game_id, ()):
                    watcher.tell({"version": version, "status": status})
            if not self._again:
                return
