"""The deliverer: sends every stored announcement, once, in order, and marks it delivered.

Each change writes its :class:`~host.outbox.Outbox` in its own transaction
(see :mod:`host.store`). An adapter delivers it at once (the fast path), and
:meth:`Deliverer.sweep` sends whatever is still pending: on start (after a
crash, or a shutdown that cut a delivery short), and every little while after
a delivery failed or its task was cancelled. Within a channel announcements
go out in the order they were committed.

The adapter's ``send`` does the sending. It records in ``out.receipt`` what
it has sent (message ids) as it goes, so a retry skips or edits those parts
instead of repeating them; the receipt is saved when a delivery fails midway.

Several processes on one database (PostgreSQL) each run a deliverer. A channel is then
delivered by one of them at a time: the deliverer claims the channel for ``lease``
seconds (:meth:`~host.store.Store.claim_channel`, renewed at each announcement) and
gives the claim up when done. One that finds the channel claimed leaves it to the
claimant, and its sweeps take over once the claim lapses: a process killed mid-delivery
holds its channels no longer than the lease. An announcement whose sending was cut
short by such a kill may be sent again by the next deliverer, less what its receipt
recorded, and so may one whose sending outlasted the lease (two minutes, renewed at
each announcement); nothing is lost.

>>> import asyncio
>>> sent = []
>>> async def send(out, late): sent.append((out.id, late))
>>> class Store:                       # what a deliverer needs of a store
...     async def pending(self, **k): return []
...     async def is_delivered(self, outbox_id): return False
...     async def save_receipt(self, outbox_id, receipt): pass
...     async def delivered(self, outbox_id, receipt): pass
>>> from host.outbox import Outbox
>>> out = Outbox(game_id=1, game="tally", channel_id="9", id=4)
>>> asyncio.run(Deliverer(Store(), send).deliver(out))
True
>>> sent
[(4, False)]
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from host.outbox import Outbox

log = logging.getLogger(__name__)

Send = Callable[[Outbox, bool], Awaitable[Any]]
"""Delivers one announcement; the flag says it is late (the player who acted got no reply)."""

RETRY_EVERY = 10.0
"""Seconds between sweeps of the outbox for announcements still pending."""
MAX_TRIES = 8
"""Failed deliveries of one announcement (for a reason other than :class:`Unreachable`) before it is given up."""
SETTLE = 5.0
"""A sweep after the first leaves alone what is younger than this: its fast path is at work."""
LEASE = 120.0
"""Seconds a deliverer's claim on a channel lasts unless renewed (a shared database only)."""


class Unreachable(Exception):
    """Raised by ``send`` when the chat service cannot be reached for now (an outage, not a bug).

    Such failures never count towards MAX_TRIES: the announcement waits until the service is back.
    """


class OutboxStore(Protocol):
    """What the deliverer needs of the store."""

    async def pending(
        self, *, channel_id: str | None = None, before: int | None = None, older_than: float | None = None
    ) -> list[Outbox]: ...

    async def is_delivered(self, outbox_id: int) -> bool: ...

    async def save_receipt(self, outbox_id: int, receipt: dict[str, Any]) -> None: ...

    async def delivered(self, outbox_id: int, receipt: dict[str, Any]) -> None: ...


class SharedOutboxStore(OutboxStore, Protocol):
    """What the deliverer needs of a store that other processes share (``shared`` is True)."""

    shared: bool

    async def claim_channel(self, channel_id: str, owner: str, *, at: float, until: float) -> bool: ...

    async def release_channel(self, channel_id: str, owner: str) -> None: ...


def process_name() -> str:
    """Returns a name for this process's claims, unique among the processes sharing a database."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Deliverer:
    """Delivers announcements through ``send``; one at a time per channel, each once."""

    def __init__(
        self,
        store: OutboxStore,
        send: Send,
        *,
        retry_every: float = RETRY_EVERY,
        lease: float = LEASE,
        owner: str | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``lease``, ``owner`` and ``clock`` are for a shared store: the claims' length, name and time."""
        self.store = store
        self.send = send
        self.retry_every = retry_every
        self.lease = lease
        self.owner = owner or process_name()
        self.clock = clock
        self.shared = bool(getattr(store, "shared", False))
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._wake = asyncio.Event()

    def _lock(self, channel_id: str) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    async def deliver(self, out: Outbox, *, late: bool = False) -> bool:
        """Sends ``out`` (after any earlier announcement of its channel still pending).

        Returns False when it was delivered already. Raises what ``send`` raised;
        the announcement then stays pending (with its receipt saved) for the next sweep.
        """
        if out.id is None:  # never stored (e.g. "already played"): nothing to deliver
            return False
        async with self._lock(out.channel_id):
            if self.shared and not await self._claim(out.channel_id):
                return False  # another process is delivering this channel; its claim or our sweeps cover this one
            try:
                for earlier in await self.store.pending(channel_id=out.channel_id, before=out.id):
                    await self._send(earlier, late=True)
                return await self._send(out, late=late)
            finally:
                if self.shared:
                    await asyncio.shield(self._release(out.channel_id))

    def _shared(self) -> SharedOutboxStore:
        assert self.shared
        return self.store  # type: ignore[return-value]

    async def _claim(self, channel_id: str) -> bool:
        now = self.clock()
        return await self._shared().claim_channel(channel_id, self.owner, at=now, until=now + self.lease)

    async def _release(self, channel_id: str) -> None:
        try:
            await self._shared().release_channel(channel_id, self.owner)
        except Exception:  # the claim lapses by itself
            log.warning("the claim on channel %s was not given up; it lapses in %s s", channel_id, self.lease,
                        exc_info=True)

    async def _send(self, out: Outbox, *, late: bool) -> bool:
        assert out.id is not None
        if await self.store.is_delivered(out.id):
            return False
        if self.shared and not await self._claim(out.channel_id):  # renewed; lost only when it lapsed meanwhile
            log.warning("the claim on channel %s lapsed; another process delivers it", out.channel_id)
            return False
        try:
            await self.send(out, late)
        except Unreachable:  # the service is down for now: retried for as long as it takes
            await asyncio.shield(self._save_receipt(out))
            raise
        except Exception:
            out.receipt["tries"] = tries = out.receipt.get("tries", 0) + 1
            if tries >= MAX_TRIES:
                log.error("announcement %s of game %s failed %s times; given up", out.id, out.game_id, tries)
                await asyncio.shield(self.store.delivered(out.id, out.receipt))
            else:
                await asyncio.shield(self._save_receipt(out))
            raise
        except BaseException:  # cancelled: keep what was sent, and try the rest later
            await asyncio.shield(self._save_receipt(out))
            raise
        await asyncio.shield(self.store.delivered(out.id, out.receipt))
        return True

    async def _save_receipt(self, out: Outbox) -> None:
        if out.id is not None:
            await self.store.save_receipt(out.id, out.receipt)

    async def sweep(self, *, older_than: float | None = None) -> int:
        """Delivers everything still pending, oldest first; returns how many were sent.

        ``older_than`` leaves alone what was written in the last seconds (its own
        adapter is delivering it). A channel whose delivery fails is left for the
        next sweep; the others go on.
        """
        sent = 0
        failed: set[str] = set()  # and, on a shared store, channels another process is delivering
        for out in await self.store.pending(older_than=older_than):
            if out.channel_id in failed:
                continue
            try:
                if await self.deliver(out, late=True):
                    sent += 1
                elif self.shared and out.id is not None and not await self.store.is_delivered(out.id):
                    failed.add(out.channel_id)  # claimed elsewhere: leave the rest of the channel to it
            except Exception:
                failed.add(out.channel_id)
                log.warning("announcement %s of game %s not delivered yet; will retry", out.id, out.game_id,
                            exc_info=True)
        return sent

    def kick(self) -> None:
        """Asks the running loop to sweep now (a delivery failed or was cut short)."""
        self._wake.set()

    async def run(self) -> None:
        """Sweeps at once (everything), then whenever kicked or every ``retry_every`` seconds, until cancelled."""
        first = True
        while True:
            try:
                await self.sweep(older_than=None if first else SETTLE)
                first = False
            except Exception:  # e.g. the storage is unavailable for a moment
                log.exception("the outbox sweep failed; will retry")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.retry_every)
