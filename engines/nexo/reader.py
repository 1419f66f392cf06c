"""Typed field reading for the nexo data files and scenarios (``engines.core.reader`` plus rings).

    >>> r = Reader("units.json")
    >>> r.num({"move": 6}, "move", "units.trooper")
    6.0
    >>> r.num({"move": "six"}, "move", "units.trooper")
    Traceback (most recent call last):
    ...
    engines.nexo.reader.DataError: units.json: units.trooper.move: expected a number, got 'six'
"""

from __future__ import annotations

from typing import Any

from shapely.geometry import Polygon

from engines.core.reader import FieldError, at, show_value
from engines.core.reader import Reader as _Reader
from engines.nexo.datatypes import Ring

RING_POINTS = 1_000
"""The most points a polygon or line may have."""


class DataError(FieldError):
    """A data file or scenario is missing, unreadable or has a bad field; the message names both."""


class Reader(_Reader):
    """Reads fields of one document; every failure raises DataError ``source: path: problem``."""

    error = DataError

    def ring(self, v: Any, path: str, *, closed: bool) -> Ring:
        """Returns a list of [x, y] points (a simple polygon when ``closed``); raises DataError."""
        least = 3 if closed else 2
        if not isinstance(v, list) or not least <= len(v) <= RING_POINTS:
            raise self.fail(path, f"expected a list of {least} to {RING_POINTS} [x, y] points")
        pts: list[tuple[float, float]] = []
        for i, p in enumerate(v):
            if not isinstance(p, list) or len(p) != 2:
                raise self.fail(at(path, i), f"expected [x, y], got {show_value(p)}")
            pts.append((self.number(p[0], at(path, i), low=-1e6, high=1e6),
                        self.number(p[1], at(path, i), low=-1e6, high=1e6)))
        if closed and not Polygon(pts).is_valid:
            raise self.fail(path, "is not a simple polygon")
        return tuple(pts)


__all__ = ["DataError", "Reader", "at"]
