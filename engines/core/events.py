"""Events: what a move tells the table.

An event is a plain dict with at least ``kind`` and ``text`` (a sentence for the
channel). An event with ``to`` set is private to that player and never shown
elsewhere::

    >>> event("roll", "ann rolls 6-5-2.", dice=[6, 5, 2])
    {'kind': 'roll', 'text': 'ann rolls 6-5-2.', 'dice': [6, 5, 2]}
    >>> is_public(event("hand", "Your hand: AS.", to="ann"))
    False
"""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]


def event(kind: str, text: str, *, to: str | None = None, **data: Any) -> Event:
    """Returns an event dict; ``to`` makes it private to one player."""
    out: Event = {"kind": kind, "text": text, **data}
    if to is not None:
        out["to"] = to
    return out


def is_public(ev: Event) -> bool:
    """True when the event may be shown to everyone."""
    return ev.get("to") is None
