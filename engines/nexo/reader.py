"""Typed field reading for JSON documents, with errors that name the file and the field.

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

from engines.nexo.datatypes import Ring

_MISSING: Any = object()


class DataError(ValueError):
    """A data file or scenario is missing, unreadable or has a bad field; the message names both."""


def at(path: str, key: str | int) -> str:
    """Returns the path of a field or list item below ``path``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


class Reader:
    """Reads fields of one document; every failure raises DataError ``source: path: problem``."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, problem: str) -> DataError:
        """Returns (does not raise) the error for a bad field."""
        return DataError(f"{self.source}: {path}: {problem}")

    def obj(self, v: Any, path: str) -> dict[str, Any]:
        """Returns ``v`` when it is an object; raises DataError otherwise."""
        if not isinstance(v, dict):
            raise self.fail(path or "(top)", "expected an object")
        return v

    def field(self, o: dict[str, Any], key: str, path: str, default: Any = _MISSING) -> Any:
        """Returns ``o[key]``, the default when absent, or raises DataError (missing)."""
        if key in o:
            return o[key]
        if default is _MISSING:
            raise self.fail(at(path, key), "missing")
        return default

    def num(self, o: dict[str, Any], key: str, path: str, *, low: float = 0.0,
            default: Any = _MISSING) -> float:
        """Returns a number of at least ``low``; raises DataError."""
        v = self.field(o, key, path, default)
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise self.fail(at(path, key), f"expected a number, got {v!r}")
        if v < low:
            raise self.fail(at(path, key), f"must be at least {low:g}, got {v!r}")
        return float(v)

    def opt_num(self, o: dict[str, Any], key: str, path: str, *, low: float = 0.0,
                required: bool = False) -> float | None:
        """Returns a number, or None when null (or absent, unless ``required``); raises DataError."""
        if required:
            self.field(o, key, path)
        return None if o.get(key) is None else self.num(o, key, path, low=low)

    def int_(self, o: dict[str, Any], key: str, path: str, *, low: int = 0, default: Any = _MISSING) -> int:
        """Returns a whole number of at least ``low``; raises DataError."""
        v = self.field(o, key, path, default)
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(at(path, key), f"expected a whole number, got {v!r}")
        if v < low:
            raise self.fail(at(path, key), f"must be at least {low}, got {v!r}")
        return v

    def opt_int(self, o: dict[str, Any], key: str, path: str, *, low: int = 0,
                required: bool = False) -> int | None:
        """Returns a whole number, or None when null (or absent, unless ``required``); raises DataError."""
        if required:
            self.field(o, key, path)
        return None if o.get(key) is None else self.int_(o, key, path, low=low)

    def text(self, o: dict[str, Any], key: str, path: str, *, choices: tuple[str, ...] = (),
             default: Any = _MISSING) -> str:
        """Returns non-empty text (one of ``choices`` when given); raises DataError."""
        v = self.field(o, key, path, default)
        if not isinstance(v, str) or not v:
            raise self.fail(at(path, key), f"expected text, got {v!r}")
        if choices and v not in choices:
            raise self.fail(at(path, key), f"must be one of {', '.join(choices)}, got {v!r}")
        return v

    def opt_text(self, o: dict[str, Any], key: str, path: str, *,
                 choices: tuple[str, ...] = (), required: bool = False) -> str | None:
        """Returns text, or None when null (or absent, unless ``required``); raises DataError."""
        if required:
            self.field(o, key, path)
        return None if o.get(key) is None else self.text(o, key, path, choices=choices)

    def flag(self, o: dict[str, Any], key: str, path: str, *, default: Any = _MISSING) -> bool:
        """Returns true or false; raises DataError."""
        v = self.field(o, key, path, default)
        if not isinstance(v, bool):
            raise self.fail(at(path, key), f"expected true or false, got {v!r}")
        return v

    def items(self, o: dict[str, Any], key: str, path: str, *, default: Any = _MISSING) -> list[Any]:
        """Returns a list; raises DataError."""
        v = self.field(o, key, path, default)
        if not isinstance(v, list):
            raise self.fail(at(path, key), "expected a list")
        return v

    def ring(self, v: Any, path: str, *, closed: bool) -> Ring:
        """Returns a list of [x, y] points (a simple polygon when ``closed``); raises DataError."""
        least = 3 if closed else 2
        if not isinstance(v, list) or len(v) < least:
            raise self.fail(path, f"expected a list of at least {least} [x, y] points")
        pts: list[tuple[float, float]] = []
        for i, p in enumerate(v):
            if (not isinstance(p, list) or len(p) != 2
                    or not all(isinstance(c, int | float) and not isinstance(c, bool) for c in p)):
                raise self.fail(at(path, i), f"expected [x, y], got {p!r}")
            pts.append((float(p[0]), float(p[1])))
        if closed and not Polygon(pts).is_valid:
            raise self.fail(path, "is not a simple polygon")
        return tuple(pts)
