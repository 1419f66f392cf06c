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

Discord's bad minutes (429s, 5xx) raise :class:`Busy`: the deliverer waits as Discord asks
(``retry_after``, with jitter; doubling from a second for a 5xx) and tries again, in place and
with no cap on the time spent, for as long as the announcement is still wanted (``wanted``:
a reminder for a turn already played is not). Busy never counts towards :data:`MAX_TRIES`.

A late announcement (a sweep's) carries a note to the player who acted only if their
interaction was never answered (:meth:`~host.store.Store.was_answered`).

Several processes on one database (PostgreSQL) each run a deliverer. A channel is then
delivered by one of them at a time: the deliverer claims the channel for ``lease``
seconds (:meth:`~host.store.Store.claim_channel`), renews the claim every third of it while
it works, and gives it up when done. One that finds the channel claimed leaves it to the
claimant, and its sweeps take over once the claim lapses: a process killed mid-delivery
holds its channels no longer than the lease (15 s). An announcement whose sending was cut
short by such a kill may be sent again by the next deliverer, less what its receipt
recorded; nothing is lost.

>>> import asyncio
>>> sent = []
>>> async def send(out, late): sent.append((out.id, late))
>>> class Store:                       # what a deliverer needs of a store
...     async def pending(self, **k): return []
...     async def is_delivered(self, outbox_id): return False
...     async def was_answered(self, outbox_id): return False
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
import functools
import logging
import os
import random
import socket
import time
import uuid
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

from host import metrics
from host.db_base import StorageUnavailable
from host.logs import game_context
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
LEASE = 15.0
"""Seconds a deliverer's claim on a channel lasts unless renewed (a shared database only); renewed every third."""
BUSY_FIRST, BUSY_MOST = 1.0, 60.0
"""The first wait after a 5xx without ``retry_after``, and the most it doubles to (a 429's own wait is kept)."""
JITTER = 0.25
"""A Busy wait is lengthened by up to this fraction, at random, so processes do not retry in step."""
CONCURRENCY = 16
"""Channels a sweep delivers at once."""

Wanted = Callable[[Outbox], Awaitable[bool]]
"""Tells whether an announcement still matters (asked before each retry after a Busy)."""


class Unreachable(Exception):
    """Raised by ``send`` when the chat service cannot be reached for now (an outage, not a bug).

    Such failures never count towards MAX_TRIES: the announcement waits until the service is back.
    """


def expected(err: BaseException) -> bool:
    """Tells whether a failure is one an outage brings (the storage or Discord down or busy): logged as one
    line, without its traceback, which would only repeat itself once a move."""
    return isinstance(err, StorageUnavailable | Unreachable)


class Busy(Unreachable):
    """Raised by ``send`` when the chat service asks to wait (429) or fails for now (5xx).

    The deliverer waits ``retry_after`` seconds (None: its own doubling wait) and tries again, in place.
    """

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def busy_wait(err: Busy, attempt: int, *, rng: random.Random | None = None) -> float:
    """Returns how long to wait after the ``attempt``-th Busy in a row (from 0): Discord's wait, else doubling.

    >>> busy_wait(Busy("429", 7.5), 3, rng=random.Random(1)) >= 7.5
    True
    >>> round(busy_wait(Busy("503"), 2, rng=random.Random(1)) / 4, 1) in (1.0, 1.1, 1.2)
    True
    """
    base = err.retry_after if err.retry_after is not None else min(BUSY_FIRST * 2 ** attempt, BUSY_MOST)
    return max(base, 0.0) * (1 + JITTER * (rng or random).random())


class OutboxStore(Protocol):
    """What the deliverer needs of the store."""

    async def pending(
        self, *, channel_id: str | None = None, before: int | None = None, older_than: float | None = None
    ) -> list[Outbox]: ...

    async def is_delivered(self, outbox_id: int) -> bool: ...

    async def save_receipt(self, outbox_id: int, receipt: dict[str, Any]) -> None: ...

    async def delivered(self, outbox_id: int, receipt: dict[str, Any]) -> None: ...

    async def was_answered(self, outbox_id: int) -> bool: ...


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
        wanted: Wanted | None = None,
    ) -> None:
        """``lease``, ``owner`` and ``clock`` are for a shared store: the claims' length, name and time.

        ``wanted`` tells whether an announcement Discord keeps refusing still matters (default: always).
        """
        self.store = store
        self.send = send
        self.retry_every = retry_every
        self.lease = lease
        self.owner = owner or process_name()
        self.clock = clock
        self.wanted = wanted
        self.shared = bool(getattr(store, "shared", False))
        self.busy_waits = 0
        """Waits after a Busy so far (each a retry of one announcement)."""
        self.sleep: Callable[[float], Awaitable[object]] = asyncio.sleep
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._draining: dict[str, asyncio.Task[int]] = {}
        self._wake = asyncio.Event()
        self._lapse: asyncio.TimerHandle | None = None

    def _lock(self, channel_id: str) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    async def deliver(self, out: Outbox, *, late: bool = False) -> bool:
        """Sends ``out`` (after any earlier announcement of its channel still pending).

        Returns False when it was delivered already (or dropped: no longer wanted). While
        Discord is busy it waits and tries again, however long that takes. Raises what else
        ``send`` raised; the announcement then stays pending (with its receipt saved) for the next sweep.
        """
        if out.id is None:  # never stored (e.g. "already played"): nothing to deliver
            return False
        async with self._lock(out.channel_id), self._claimed(out.channel_id) as claimed:
            if not claimed:  # another process is delivering this channel; its claim or our sweeps cover this one
                self._sweep_when_lapsed()
                return False
            for earlier in await self.store.pending(channel_id=out.channel_id, before=out.id):
                await self._patiently(earlier, late=True)
            return await self._patiently(out, late=late)

    @contextlib.asynccontextmanager
    async def _claimed(self, channel_id: str) -> AsyncIterator[bool]:
        """Holds the channel's claim (a shared store) while the block runs, renewed every third of the lease."""
        if not self.shared:
            yield True
            return
        if not await self._claim(channel_id):
            yield False
            return
        renewing = asyncio.create_task(self._renew(channel_id), name=f"claim-{channel_id}")
        try:
            yield True
        finally:
            renewing.cancel()
            await asyncio.shield(self._release(channel_id))

    async def _renew(self, channel_id: str) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                if not await self._claim(channel_id):
                    log.warning("the claim on channel %s lapsed; another process delivers it", channel_id)
                    return
            except Exception as err:  # the next renewal, or the lease, settles it
                log.warning("the claim on channel %s could not be renewed (%s)", channel_id, err,
                            exc_info=not expected(err))

    def _shared(self) -> SharedOutboxStore:
        assert self.shared
        return self.store  # type: ignore[return-value]

    async def _claim(self, channel_id: str) -> bool:
        now = self.clock()
        return await self._shared().claim_channel(channel_id, self.owner, at=now, until=now + self.lease)

    async def _release(self, channel_id: str) -> None:
        try:
            await self._shared().release_channel(channel_id, self.owner)
        except Exception as err:  # the claim lapses by itself
            log.warning("the claim on channel %s was not given up (%s); it lapses in %s s", channel_id, err,
                        self.lease, exc_info=not expected(err))

    async def _patiently(self, out: Outbox, *, late: bool) -> bool:
        """Sends ``out``, waiting out Discord's busy spells for as long as it is wanted."""
        with game_context(out.game_id):  # the log lines of its sending name its game
            return await self._retrying(out, late=late)

    async def _retrying(self, out: Outbox, *, late: bool) -> bool:
        attempt = 0
        while True:
            try:
                return await self._send(out, late=late)
            except Busy as err:
                if self.wanted is not None and not await self.wanted(out):
                    log.info("announcement %s of game %s no longer matters; dropped", out.id, out.game_id)
                    assert out.id is not None
                    out.receipt["dropped"] = True
                    await asyncio.shield(self.store.delivered(out.id, out.receipt))
                    return False
                wait = busy_wait(err, attempt)
                attempt += 1
                self.busy_waits += 1
                metrics.delivery_retried(rate_limited=err.retry_after is not None)  # a 429 says how long
                level = logging.INFO if attempt > 1 else logging.WARNING
                log.log(level, "Discord is busy (%s); announcement %s of game %s is retried in %.1f s", err,
                        out.id, out.game_id, wait)
                await self.sleep(wait)

    async def _send(self, out: Outbox, *, late: bool) -> bool:
        assert out.id is not None
        if await self.store.is_delivered(out.id):
            return False
        if self.shared and not await self._claim(out.channel_id):  # renewed; lost only when it lapsed meanwhile
            log.warning("the claim on channel %s lapsed; another process delivers it", out.channel_id)
            return False
        if late and await self.store.was_answered(out.id):
            late = False  # the player was told (say, "I'll keep trying"): no note that their reply was lost
        try:
            await self.send(out, late)
        except Unreachable:  # the service is down or busy for now: retried for as long as it takes
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
        """Delivers everything still pending, oldest first in each channel; returns how many were sent.

        Channels are delivered side by side (:data:`CONCURRENCY` at once), so one that Discord
        keeps busy holds up no other. ``older_than`` leaves alone what was written in the last
        seconds (its own adapter is delivering it). A channel whose delivery fails is left for
        the next sweep; the others go on. A channel already being swept is left to that sweep.
        """
        started = self._start_draining(await self.store.pending(older_than=older_than))
        return sum(await asyncio.gather(*started)) if started else 0

    def _start_draining(self, pending: list[Outbox]) -> list[asyncio.Task[int]]:
        """Starts a drain of each channel in ``pending`` that none is draining yet; returns those started."""
        by_channel: dict[str, list[Outbox]] = {}
        for out in pending:
            by_channel.setdefault(out.channel_id, []).append(out)
        gate = asyncio.Semaphore(CONCURRENCY)
        started = []
        for channel_id, outs in by_channel.items():
            if channel_id in self._draining:
                continue
            task = asyncio.create_task(self._drain(channel_id, outs, gate), name=f"drain-{channel_id}")
            self._draining[channel_id] = task
            task.add_done_callback(functools.partial(self._drained, channel_id))
            started.append(task)
        return started

    def _drained(self, channel_id: str, _: asyncio.Task[int]) -> None:
        self._draining.pop(channel_id, None)

    async def _drain(self, channel_id: str, outs: list[Outbox], gate: asyncio.Semaphore) -> int:
        sent = 0
        async with gate:
            for out in outs:
                try:
                    if await self.deliver(out, late=True):
                        sent += 1
                    elif self.shared and out.id is not None and not await self.store.is_delivered(out.id):
                        break  # claimed elsewhere: leave the rest of the channel to it
                except Exception as err:
                    log.warning("announcement %s of game %s not delivered yet (%s); will retry", out.id,
                                out.game_id, err, exc_info=not expected(err))
                    break
        return sent

    def _sweep_when_lapsed(self) -> None:
        """Sweeps again once a claim refused now has surely lapsed (its holder died, or it is done)."""
        if self._lapse is None or self._lapse.cancelled() or self._lapse.when() < asyncio.get_running_loop().time():
            self._lapse = asyncio.get_running_loop().call_later(self.lease + 0.5, self.kick)

    def draining(self) -> set[asyncio.Task[int]]:
        """Returns the sweeps' channel deliveries still at work."""
        return {t for t in self._draining.values() if not t.done()}

    def kick(self) -> None:
        """Asks the running loop to sweep now (a delivery failed or was cut short)."""
        self._wake.set()

    async def run(self) -> None:
        """Sweeps at once (everything), then whenever kicked or every ``retry_every`` seconds, until cancelled.

        Each sweep starts its channels' deliveries and goes back to waiting: a channel Discord
        keeps busy is still being delivered when the next sweep comes, which leaves it alone.
        """
        first = True
        try:
            while True:
                try:
                    self._start_draining(await self.store.pending(older_than=None if first else SETTLE))
                    first = False
                except Exception as err:  # e.g. the storage is unavailable for a moment
                    log.error("the outbox sweep failed (%s); will retry", err, exc_info=not expected(err))
                self._wake.clear()
                with contextlib.suppress(TimeoutError):  # asyncio.timeout, not wait_for: a cancel is never lost
                    async with asyncio.timeout(self.retry_every):
                        await self._wake.wait()
        finally:
            for task in list(self._draining.values()):
                task.cancel()
