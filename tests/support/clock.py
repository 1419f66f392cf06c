"""A table service's time, moved by hand in tests (``Tables(clock=...)``, ``tables.clock = ...``)."""

from __future__ import annotations

import time

from host.clock import HOUR


class Clock:
    """Reads ``now``; ``at(hours)`` sets it that long after ``start`` (default: the real time when made)."""

    def __init__(self, start: float | None = None) -> None:
        self.start = self.now = time.time() if start is None else start

    def __call__(self) -> float:
        return self.now

    def at(self, hours: float) -> None:
        """Sets the time ``hours`` after the start."""
        self.now = self.start + hours * HOUR
