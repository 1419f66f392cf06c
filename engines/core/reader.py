"""Typed field reading for JSON documents (data files, options, saved games).

Every failure raises :class:`FieldError` (a ``ValueError``) whose message names the
document, the field and the problem, and shows a bad value without Python's ``repr``::

    >>> r = Reader("state")
    >>> r.int_({"turn": 1}, "turn", "", high=1)
    1
    >>> r.int_({"turn": 99}, "turn", "", high=1)
    Traceback (most recent call last):
    ...
    engines.core.reader.FieldError: state: turn: must be at most 1, got 99
    >>> r.text({"step": [1]}, "step", "", choices=("move", "rotate"))
    Traceback (most recent call last):
    ...
    engines.core.reader.FieldError: state: step: expected text, got a list
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Any

from engines.core.errors import shown
from engines.core.rng import Rng

_MISSING: Any = object()


class FieldError(ValueError):
    """A document with a missing field, or one of the wrong type or out of range."""


def at(path: str, key: str | int) -> str:
    """Returns the path of a field or list item below ``path``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def show_value(v: Any) -> str:
    """Returns a short, repr-free description of a JSON value for a message.

    >>> [show_value(v) for v in ("six", 7, 1.5, True, None, [1], {"a": 1}, 10**40)]
    ["'six'", '7', '1.5', 'true', 'null', 'a list', 'an object', 'a very large number']
    """
    if isinstance(v, str):
        return f"'{shown(v, 30)}'"
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v) if abs(v) < 10**15 else "a very large number"
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, list | tuple):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return f"a value of type {type(v).__name__}"


class Reader:
    """Reads fields of one document; every failure raises ``error`` as ``source: path: problem``."""

    error: type[FieldError] = FieldError

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, problem: str) -> FieldError:
        """Returns (does not raise) the error for a bad field."""
        return self.error(f"{self.source}: {path or '(top)'}: {problem}")

    def obj(self, v: Any, path: str) -> dict[str, Any]:
        """Returns ``v`` when it is an object; raises the reader's error otherwise."""
        if not isinstance(v, dict):
            raise self.fail(path, f"expected an object, got {show_value(v)}")
        return v

    def field(self, o: dict[str, Any], key: str, path: str, default: Any = _MISSING) -> Any:
        """Returns ``o[key]``, the default when absent, or raises (missing)."""
        if key in o:
            return o[key]
        if default is _MISSING:
            raise self.fail(at(path, key), "missing")
        return default

    def num(self, o: dict[str, Any], key: str, path: str, *, low: float = 0.0, high: float = math.inf,
            default: Any = _MISSING) -> float:
        """Returns a finite number from ``low`` to ``high``."""
        return self.number(self.field(o, key, path, default), at(path, key), low=low, high=high)

    def number(self, v: Any, path: str, *, low: float = 0.0, high: float = math.inf) -> float:
        """Returns ``v`` as a float when it is a finite number from ``low`` to ``high``."""
        if isinstance(v, bool) or not isinstance(v, int | float) or (isinstance(v, float) and not math.isfinite(v)):
            raise self.fail(path, f"expected a number, got {show_value(v)}")
        if v < low:
            raise self.fail(path, f"must be at least {low:g}, got {show_value(v)}")
        if v > high:
            raise self.fail(path, f"must be at most {high:g}, got {show_value(v)}")
        return float(v)

    def opt_num(self, o: dict[str, Any], key: str, path: str, *, low: float = 0.0,
                required: bool = False) -> float | None:
        """Returns a number, or None when null (or absent, unless ``required``)."""
        if required:
            self.field(o, key, path)
        return None if o.get(key) is None else self.num(o, key, path, low=low)

    def rng(self, o: dict[str, Any], key: str, path: str) -> Any:
        """Returns a saved generator (:meth:`engines.core.rng.Rng.saved`) when :meth:`Rng.load` reads it."""
        value = self.field(o, key, path)
        try:
            Rng.load(value)
        except ValueError as err:
            raise self.fail(at(path, key), str(err)) from None
        return value

    def int_(self, o: dict[str, Any], key: str, path: str, *, low: int = 0, high: int | None = None,
             default: Any = _MISSING) -> int:
        """Returns a whole number from ``low`` to ``high`` (no upper bound when None)."""
        return self.whole(self.field(o, key, path, default), at(path, key), low=low, high=high)

    def whole(self, v: Any, path: str, *, low: int = 0, high: int | None = None) -> int:
        """Returns ``v`` when it is a whole number from ``low`` to ``high``."""
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(path, f"expected a whole number, got {show_value(v)}")
        if v < low:
            raise self.fail(path, f"must be at least {low}, got {show_value(v)}")
        if high is not None and v > high:
            raise self.fail(path, f"must be at most {high}, got {show_value(v)}")
        return v

    def opt_int(self, o: dict[str, Any], key: str, path: str, *, low: int = 0, high: int | None = None,
                required: bool = False) -> int | None:
        """Returns a whole number, or None when null (or absent, unless ``required``)."""
        if required:
            self.field(o, key, path)
        return None if o.get(key) is None else self.int_(o, key, path, low=low, high=high)

    def text(self, o: dict[str, Any], key: str, path: str, *, choices: Collection[str] = (),
             default: Any = _MISSING) -> str:
        """Returns non-empty text (one of ``choices`` when given)."""
        return self.word(self.field(o, key, path, default), at(path, key), choices=choices)

    def word(self, v: Any, path: str, *, choices: Collection[str] = ()) -> str:
        """Returns ``v`` when it is non-empty text (one of ``choices`` when given)."""
        if not isinstance(v, str) or not v:
            raise self.fail(path, f"expected text, got {show_value(v)}")
        if choices and v not in choices:
            listed = ", ".join(choices) if len(choices) <= 8 else f"{len(choices)} known names"
            raise self.fail(path, f"must be one of {listed}, got {show_value(v)}")
        return v

    def opt_text(self, o: dict[str, Any], key: str, path: str, *,
                 choices: Collection[str] = (), required: bool = False) -> str | None:
        """Returns text, or None when null (or absent, unless ``required``)."""
        if required:
            self.field(o, key, path)
        return None if o.get(key) is None else self.text(o, key, path, choices=choices)

    def flag(self, o: dict[str, Any], key: str, path: str, *, default: Any = _MISSING) -> bool:
        """Returns true or false."""
        v = self.field(o, key, path, default)
        if not isinstance(v, bool):
            raise self.fail(at(path, key), f"expected true or false, got {show_value(v)}")
        return v

    def items(self, o: dict[str, Any], key: str, path: str, *, default: Any = _MISSING) -> list[Any]:
        """Returns a list."""
        return self.list_(self.field(o, key, path, default), at(path, key))

    def list_(self, v: Any, path: str, *, length: int | None = None) -> list[Any]:
        """Returns ``v`` when it is a list (of ``length`` items when given)."""
        if not isinstance(v, list):
            raise self.fail(path, f"expected a list, got {show_value(v)}")
        if length is not None and len(v) != length:
            raise self.fail(path, f"expected {length} items, got {len(v)}")
        return v

    def need(self, ok: bool, path: str, problem: str) -> None:
        """Raises the reader's error for ``path`` unless ``ok``."""
        if not ok:
            raise self.fail(path, problem)


MAX_DEPTH = 12
"""How deeply lists and objects may nest in an option value or a saved game."""
MAX_ITEMS = 50_000
"""How many values (at every depth) one document may hold."""
MAX_TEXT = 10_000
"""The longest text a document may hold."""
MAX_WHOLE = 2**64
"""The largest whole number (in size) a document may hold: an RNG state fits."""


def check_plain(value: Any, source: str) -> None:
    """Checks that ``value`` is plain, bounded JSON; raises FieldError naming the first bad part.

    Plain means: objects with text keys, lists, text, finite numbers, true/false and null,
    nested at most :data:`MAX_DEPTH` deep, with at most :data:`MAX_ITEMS` values. It
    walks without recursion, so even a value nested 100,000 deep is refused cleanly::

        >>> deep: list = []
        >>> for _ in range(100_000):
        ...     deep = [deep]
        >>> check_plain({"target": deep}, "options")
        Traceback (most recent call last):
        ...
        engines.core.reader.FieldError: options: target[0]...[0]: nested too deeply (at most 12 levels)
    """
    # Each entry is (value, depth, parent entry, key): a path is spelled out only for an error.
    Entry = tuple[Any, int, Any, Any]
    stack: list[Entry] = [(value, 0, None, None)]
    count = 0

    def fail(entry: Entry, problem: str) -> FieldError:
        keys = []
        while entry[2] is not None:
            keys.append(entry[3])
            entry = entry[2]
        path = ""
        for key in reversed(keys):
            path = at(path, key if isinstance(key, int) else shown(str(key), 30))
        return FieldError(f"{source}: {path or '(top)'}: {problem}")

    while stack:
        entry = stack.pop()
        v, depth = entry[0], entry[1]
        count += 1
        if count > MAX_ITEMS:
            raise FieldError(f"{source}: holds more than {MAX_ITEMS} values")
        if v is None or v is True or v is False:
            continue
        kind = type(v)
        if kind is int:
            if not -MAX_WHOLE <= v <= MAX_WHOLE:
                raise fail(entry, "the number is too large")
        elif kind is float:
            if not math.isfinite(v):
                raise fail(entry, "expected a finite number")
        elif kind is str:
            if len(v) > MAX_TEXT:
                raise fail(entry, f"the text is too long (at most {MAX_TEXT})")
        elif kind is list or kind is dict:
            if depth >= MAX_DEPTH:
                raise fail(entry, f"nested too deeply (at most {MAX_DEPTH} levels)")
            if kind is list:
                stack.extend((item, depth + 1, entry, i) for i, item in enumerate(v))
                continue
            for k, item in v.items():
                if type(k) is not str:
                    raise fail(entry, f"a key is {show_value(k)}, not text")
                stack.append((item, depth + 1, entry, k))
        else:
            raise fail(entry, f"{show_value(v)} is not a JSON value")
