"""Fault switches: make chosen REST routes answer 429, 5xx, 403 (50007) or answer late, or hold
message creates until the test releases them.

A route is named like discord.py's ``Route``: ``"POST /channels/{channel_id}/messages"``.
Each switch counts its hits and fires ``times`` times (``None``: until removed).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

Json = dict[str, Any]
Matcher = Callable[[web.Request], bool]


@dataclass
class Fault:
    """One armed switch: what to answer, to which route, how many more times."""

    route: str
    status: int
    body: Json | None
    headers: dict[str, str]
    delay: float = 0.0
    times: int | None = 1
    match: Matcher | None = None
    hits: int = 0

    @property
    def spent(self) -> bool:
        """Tells whether the switch has fired as many times as asked."""
        return self.times is not None and self.hits >= self.times

    def applies(self, route: str, request: web.Request) -> bool:
        """Tells whether the switch fires for this request."""
        if self.spent or route != self.route:
            return False
        return self.match is None or self.match(request)


def rate_limit_headers(*, retry_after: float, bucket: str, is_global: bool) -> dict[str, str]:
    """Returns the headers of a 429 that discord.py reads (including ``Via``, without which it gives up)."""
    reset = time.time() + retry_after
    headers = {
        "Retry-After": f"{retry_after:.3f}",
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{reset:.3f}",
        "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        "X-RateLimit-Bucket": bucket,
        "X-RateLimit-Scope": "global" if is_global else "user",
        "Via": "1.1 google",
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    return headers


# holds: message creates that wait for the test

CREATE_MESSAGE = "POST /channels/{channel_id}/messages"
HOLD_WHERE = ("any", "channel", "dm")
OUTCOMES = ("complete", "error", "close")
POLL = 0.02


@dataclass
class HeldRequest:
    """A message-create request a ``hold`` switch is keeping waiting.

    ``release()`` (or ``complete()``, ``fail()``, ``disconnect()``) decides what happens next;
    ``await finished()`` waits until the request is over and returns its ``result``.
    """

    hold: Hold
    channel_id: int
    via: str
    """``"channel"`` or ``"dm"``."""
    body: Json
    message: Any = None
    """The SentMessage: made before holding (``after_create``) or once completed; None otherwise."""
    result: str | None = None
    """Once over: ``"created"`` (message made and returned), ``"answered"`` (``after_create``, the
    reply went out), ``"error"`` (answered with ``status``, nothing made unless ``after_create``),
    ``"closed"`` (connection closed without an answer) or ``"abandoned"`` (the client went away
    while held: nothing made, unless ``after_create`` made it before)."""
    outcome: str | None = None
    """What the test chose at release (``"complete"``, ``"error"``, ``"close"``), None until then."""
    status: int = 500
    _released: asyncio.Event = field(default_factory=asyncio.Event)
    _over: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def content(self) -> str:
        """Returns the text the bot tried to send."""
        return str(self.body.get("content") or "")

    @property
    def nonce(self) -> Any:
        """Returns the request's nonce, or None."""
        return self.body.get("nonce")

    @property
    def after_create(self) -> bool:
        """Tells whether the message was created before the hold."""
        return self.hold.after_create

    def release(self, outcome: str = "complete", *, status: int = 500) -> None:
        """Lets the request go on: ``"complete"`` serves it normally, ``"error"`` answers ``status``
        (500 by default) with a Discord-style error body, ``"close"`` closes the connection unanswered."""
        if outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {OUTCOMES}, not {outcome!r}")
        if self.released:
            raise RuntimeError("this held request was already released")
        self.outcome, self.status = outcome, status
        self._released.set()

    def complete(self) -> None:
        """Serves the request normally (``release("complete")``)."""
        self.release("complete")

    def fail(self, status: int = 500) -> None:
        """Answers the request with an error status (``release("error", status=status)``)."""
        self.release("error", status=status)

    def disconnect(self) -> None:
        """Closes the connection without answering (``release("close")``)."""
        self.release("close")

    @property
    def released(self) -> bool:
        """Tells whether the test released the request."""
        return self._released.is_set()

    @property
    def done(self) -> bool:
        """Tells whether the request is over (see ``result``)."""
        return self._over.is_set()

    async def wait_released(self) -> None:
        """Waits until the test releases the request."""
        await self._released.wait()

    async def finished(self, timeout: float = 5.0) -> str:
        """Waits until the request is over and returns its ``result``."""
        await asyncio.wait_for(self._over.wait(), timeout)
        assert self.result is not None
        return self.result

    def finish(self, result: str) -> None:
        """Marks the request over with ``result`` (the server calls it)."""
        self.result = result
        self._over.set()


@dataclass
class Hold:
    """A switch that keeps matching message creates waiting until the test releases them."""

    where: str = "any"
    contains: str | None = None
    channel_id: int | None = None
    after_create: bool = False
    times: int | None = 1
    hits: int = 0
    requests: list[HeldRequest] = field(default_factory=list)
    """Every request this switch held, in order."""

    @property
    def spent(self) -> bool:
        """Tells whether the switch has held as many requests as asked."""
        return self.times is not None and self.hits >= self.times

    def applies(self, channel_id: int, via: str, body: Json) -> bool:
        """Tells whether the switch holds this message create."""
        if self.spent or self.where not in ("any", via):
            return False
        if self.channel_id is not None and channel_id != self.channel_id:
            return False
        return self.contains is None or self.contains in str(body.get("content") or "")


class Faults:
    """Holds the armed fault switches of one fake server."""

    def __init__(self) -> None:
        self.armed: list[Fault] = []
        self.known_routes: set[str] = set()
        """The server's route names; once set, arming a switch on any other name raises ValueError."""
        self.holds: list[Hold] = []
        self._held: asyncio.Queue[HeldRequest] | None = None

    def fail(
        self, route: str, *, status: int = 500, times: int | None = 1, match: Matcher | None = None,
        body: Json | None = None,
    ) -> Fault:
        """Answers the next ``times`` requests to ``route`` with ``status`` (500, 502, 403, ...)."""
        body = body if body is not None else {"message": f"{status}: injected failure", "code": 0}
        return self._arm(Fault(route, status, body, {}, times=times, match=match))

    def rate_limit(
        self, route: str, *, retry_after: float = 0.1, times: int | None = 1, is_global: bool = False,
        match: Matcher | None = None,
    ) -> Fault:
        """Answers the next ``times`` requests to ``route`` with 429 and the rate-limit headers."""
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global,
                "code": 0}
        headers = rate_limit_headers(retry_after=retry_after, bucket=f"fake-{abs(hash(route)):x}",
                                     is_global=is_global)
        return self._arm(Fault(route, 429, body, headers, times=times, match=match))

    def delay(self, route: str, *, seconds: float = 3.5, times: int | None = 1,
              match: Matcher | None = None) -> Fault:
        """Holds the answer to the next ``times`` requests to ``route`` for ``seconds``, then serves them."""
        return self._arm(Fault(route, 0, None, {}, delay=seconds, times=times, match=match))

    def close_dms(self, channel_id: int, *, times: int | None = None) -> Fault:
        """Answers messages to a DM channel with 403 code 50007 (the user closed their DMs)."""
        body = {"message": "Cannot send messages to this user", "code": 50007}
        return self._arm(Fault(
            "POST /channels/{channel_id}/messages", 403, body, {}, times=times,
            match=lambda request: request.match_info.get("channel_id") == str(channel_id),
        ))

    def hold(
        self, *, where: str = "any", contains: str | None = None, channel_id: int | None = None,
        after_create: bool = False, times: int | None = 1,
    ) -> Hold:
        """Holds the next ``times`` message creates (``POST /channels/{channel_id}/messages``).

        ``where``: ``"channel"`` (guild channels and threads), ``"dm"`` or ``"any"``; ``contains``:
        only messages whose content contains this text; ``channel_id``: only this channel. A held
        request creates nothing until released, and nothing at all if its client goes away; with
        ``after_create`` the message is created first and only the answer is held (Discord made it,
        the bot never heard). Requests the fake refuses anyway (limits, unknown channel, bad nonce)
        are answered at once, never held. A held request does not count as in flight, so
        ``DiscordTest.quiet()`` returns while one waits.
        """
        if where not in HOLD_WHERE:
            raise ValueError(f"where must be one of {HOLD_WHERE}, not {where!r}")
        switch = Hold(where=where, contains=contains, channel_id=channel_id, after_create=after_create,
                      times=times)
        self.holds.append(switch)
        return switch

    async def held(self, timeout: float = 5.0) -> HeldRequest:
        """Waits until a request is held and returns it; each held request is returned once, oldest first."""
        return await asyncio.wait_for(self._queue().get(), timeout)

    def holding(self) -> list[HeldRequest]:
        """Returns the requests waiting right now (neither released nor abandoned)."""
        return [r for h in self.holds for r in h.requests if not r.done and not r.released]

    def release_all(self, outcome: str = "close") -> None:
        """Releases every request still waiting (``"close"`` by default: nothing more is created)."""
        for request in self.holding():
            request.release(outcome)

    def take_hold(self, channel_id: int, via: str, body: Json) -> HeldRequest | None:
        """Returns a new held request if a hold switch fires for this message create (the server calls it)."""
        for switch in self.holds:
            if switch.applies(channel_id, via, body):
                switch.hits += 1
                request = HeldRequest(switch, channel_id, via, body)
                switch.requests.append(request)
                self._queue().put_nowait(request)
                return request
        return None

    def clear(self) -> None:
        """Disarms every switch; requests still held are released with ``"close"``."""
        self.armed.clear()
        self.release_all()
        self.holds.clear()

    def _queue(self) -> asyncio.Queue[HeldRequest]:
        if self._held is None:
            self._held = asyncio.Queue()
        return self._held

    def take(self, route: str, request: web.Request) -> list[Fault]:
        """Returns the switches firing for this request (delays first, then at most one answer)."""
        fired: list[Fault] = []
        answered = False
        for fault in self.armed:
            if not fault.applies(route, request):
                continue
            if fault.status == 0:
                fault.hits += 1
                fired.append(fault)
            elif not answered:
                fault.hits += 1
                fired.append(fault)
                answered = True
        return fired

    def _arm(self, fault: Fault) -> Fault:
        if self.known_routes and fault.route not in self.known_routes:
            raise ValueError(f"the fake serves no route {fault.route!r}; routes: {sorted(self.known_routes)}")
        self.armed.append(fault)
        return fault

