"""The bot's log records, as lines a person reads (``LOG_FORMAT=text``) or JSON objects (``LOG_FORMAT=json``).

Each record says which process wrote it (``host:pid``), which shards that process serves, and
the game it concerns when it concerns one: pass ``extra={"game": game_id}``, or log inside
``with game_context(game_id):``. :class:`Context` stamps these on every record a handler
writes; :class:`TextFormatter` and :class:`JsonFormatter` lay them out::

    2026-05-01 12:00:00,000 INFO [vm1:4242 shards 0,1 game 12] host.tables: game 12 started
    {"time": "2026-05-01T12:00:00.000+00:00", "level": "INFO", "logger": "host.tables",
     "message": "game 12 started", "process": "vm1:4242", "shards": [0, 1], "game": 12}

(The JSON object is one line; it is folded here.) An exception's traceback is the JSON record's
``exc`` field, so a record stays one line however deep the trace.

>>> record = logging.LogRecord("host.tables", logging.INFO, __file__, 1, "game %s started", (12,), None)
>>> Context(process="vm1:4242", shards=(0, 1)).filter(record)
True
>>> TextFormatter().format(record).split(" ", 3)[3]
'[vm1:4242 shards 0,1] host.tables: game 12 started'
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import os
import socket
import sys
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

GAME: contextvars.ContextVar[int | str | None] = contextvars.ContextVar("tablehost_game", default=None)
"""The game the code running now concerns (see :func:`game_context`); None: none in particular."""

TEXT_FORMAT = "%(asctime)s %(levelname)s [%(where)s] %(name)s: %(message)s"
"""A text record: time, level, ``[process shards ... game ...]``, logger and message."""


@contextlib.contextmanager
def game_context(game: int | str | None) -> Iterator[None]:
    """Marks every record logged inside the block (in this task) as concerning ``game``."""
    token = GAME.set(game)
    try:
        yield
    finally:
        GAME.reset(token)


def process_label() -> str:
    """Returns this process's short name, ``hostname:pid``."""
    return f"{socket.gethostname()}:{os.getpid()}"


class Context(logging.Filter):
    """Stamps ``host_process``, ``shards`` and ``game`` on every record (a handler's filter; it drops none).

    A ``game`` passed in ``extra`` is kept; else the one of :func:`game_context`, if any.
    """

    def __init__(self, *, process: str | None = None, shards: Sequence[int] | None = None) -> None:
        super().__init__()
        self.process = process or process_label()
        self.shards = tuple(shards) if shards is not None else None

    def filter(self, record: logging.LogRecord) -> bool:
        """Adds the context to ``record``; returns True (the record is written)."""
        record.host_process = self.process
        record.shards = self.shards
        if getattr(record, "game", None) is None:
            record.game = GAME.get()
        return True


def _where(record: logging.LogRecord) -> str:
    """Returns the text format's bracket: ``host:pid``, then ``shards 0,1`` and ``game 12`` when known."""
    parts = [str(getattr(record, "host_process", None) or process_label())]
    shards = getattr(record, "shards", None)
    if shards is not None:
        parts.append("shards " + ",".join(map(str, shards)))
    game = getattr(record, "game", None)
    if game is not None:
        parts.append(f"game {game}")
    return " ".join(parts)


class TextFormatter(logging.Formatter):
    """Formats a record as one readable line (:data:`TEXT_FORMAT`), tracebacks below it as usual."""

    def __init__(self, fmt: str = TEXT_FORMAT) -> None:
        super().__init__(fmt)

    def format(self, record: logging.LogRecord) -> str:
        """Returns the record's line(s)."""
        record.where = _where(record)
        return super().format(record)


class JsonFormatter(logging.Formatter):
    """Formats a record as one JSON object on one line.

    Its fields: ``time`` (ISO 8601, UTC, milliseconds), ``level``, ``logger``, ``message``,
    ``process`` (``host:pid``), ``shards`` (a list, or null when unsharded), ``game`` (or null),
    and, with an exception, ``exc``: its traceback as text (a stack, when logged, follows it).
    """

    def format(self, record: logging.LogRecord) -> str:
        """Returns the record's JSON line (non-ASCII escaped, so no character in it can break the line)."""
        fields: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "process": getattr(record, "host_process", None) or process_label(),
            "shards": _listed(getattr(record, "shards", None)),
            "game": _plain(getattr(record, "game", None)),
        }
        trace = [self.formatException(record.exc_info)] if record.exc_info else []
        if record.exc_text and not trace:  # formatted already by another handler
            trace.append(record.exc_text)
        if record.stack_info:
            trace.append(self.formatStack(record.stack_info))
        if trace:
            fields["exc"] = "\n".join(trace)
        return json.dumps(fields, default=str)


def _listed(shards: Any) -> list[int] | None:
    return None if shards is None else [int(s) for s in shards]


def _plain(value: Any) -> Any:
    """Returns ``value`` as JSON holds it: a number or string as it is, anything else as its text."""
    return value if value is None or isinstance(value, int | float | str) else str(value)


def configure(
    *, level: str | int, json_lines: bool = False, shards: Sequence[int] | None = None
) -> logging.Handler | None:
    """Sends every record at ``level`` or above to stderr, as text or (``json_lines``) JSON; returns the handler.

    As ``logging.basicConfig``, does nothing (and returns None) when the root logger has a handler
    already: whoever installed it (a test's capture, say) decides.
    """
    root = logging.getLogger()
    if root.handlers:
        return None
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(Context(shards=shards))
    handler.setFormatter(JsonFormatter() if json_lines else TextFormatter())
    root.addHandler(handler)
    root.setLevel(level)
    return handler
