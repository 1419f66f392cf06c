"""A log handler that keeps every record, for tests that read what would reach a log file."""

from __future__ import annotations

import logging


class Everything(logging.Handler):
    """Keeps every record of every logger, formatted as a log file would hold it."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))
