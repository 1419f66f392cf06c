"""Fault switches: make chosen REST routes answer 429, 5xx, 403 (50007) or answer late.

A route is named like discord.py's ``Route``: ``"POST /channels/{channel_id}/messages"``.
Each switch counts its hits and fires ``times`` times (``None``: until removed).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
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


class Faults:
    """Holds the armed fault switches of one fake server."""

    def __init__(self) -> None:
        self.armed: list[Fault] = []
        self.known_routes: set[str] = set()
        """The server's route names; once set, arming a switch on any other name raises ValueError."""

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

    def clear(self) -> None:
        """Disarms every switch."""
        self.armed.clear()

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
