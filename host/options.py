"""Game options typed as text (``target=15 layout=short``), for the console and ``/game new``."""

from __future__ import annotations

import re
from typing import Any

from engines import GameError
from engines.core.errors import shown

MAX_DIGITS = 15
"""The longest whole number an option may be written with."""
MAX_OPTIONS = 20
"""The most name=value pairs one command may give."""


def parse_value(text: str) -> Any:
    """Returns the JSON-ish value of an option written as text.

    Raises GameError for a number too long to be an option (``int`` refuses 4,300+ digits).

    >>> [parse_value(t) for t in ["12", "-3", "true", "off", "none", "short"]]
    [12, -3, True, False, None, 'short']
    """
    low = text.strip().lower()
    if re.fullmatch(r"-?[0-9]+", low):  # not str.isdigit(): '²' is a digit that int() refuses
        if len(low.lstrip("-").lstrip("0")) > MAX_DIGITS:
            raise GameError(f"The number '{shown(low, 20)}' is too large for an option.")
        return int(low)
    if low in {"true", "yes", "on"}:
        return True
    if low in {"false", "no", "off"}:
        return False
    if low in {"none", "null", "default"}:
        return None
    return text.strip()


def parse_options(text: str | None) -> dict[str, Any]:
    """Returns the options in ``key=value`` text; raises GameError on anything else.

    >>> parse_options("target=15  layout=short")
    {'target': 15, 'layout': 'short'}
    """
    out: dict[str, Any] = {}
    words = (text or "").replace(",", " ").split()
    if len(words) > MAX_OPTIONS:
        raise GameError(f"That is too many options ({len(words)}): a game has only a few.")
    for word in words:
        key, eq, value = word.partition("=")
        if not eq or not key or not value:
            raise GameError(f"I can't read the option '{shown(word)}': write name=value, like target=15.")
        out[key.strip().lower()] = parse_value(value)
    return out
