"""Move notation of Nexohominis (house "Notation"): value types that round-trip as text.

Only the orders the skeleton plays are value types so far; the rest of the house notation
is recognised and refused as not yet available::

    >>> parse_move("  FIRST   Me ")
    First(who='me')
    >>> str(parse_move("first them")), str(parse_move("concede"))
    ('first them', 'concede')
    >>> parse_pos("C7"), parse_pos("12.5, 30")
    ((5.0, 13.0), (12.5, 30.0))

Positions are ``x,y`` in inches or a 2" grid cell: columns A–V across, rows 1–30 along,
``C7`` being the centre of column C, row 7.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.core.errors import BadNotation, IllegalMove

PLANNED = ("move", "dash", "shoot", "fight", "overwatch", "harvest", "build", "repair", "done", "pass",
           "produce", "construct", "scrap", "end")
"""House notation verbs that later slices will play."""
_CELL = re.compile(r"^([a-v])(\d{1,2})$")
_XY = re.compile(r"^(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)$")


@dataclass(frozen=True)
class First:
    """``first me|them``: the Initiative Player picks who activates first (core §6.2)."""

    who: str

    def __str__(self) -> str:
        return f"first {self.who}"


@dataclass(frozen=True)
class Concede:
    """``concede``: the player gives up; the opponent wins (house "Victory")."""

    def __str__(self) -> str:
        return "concede"


Move = First | Concede


def parse_move(text: str) -> Move:
    """Returns the move written in ``text``; raises BadNotation or IllegalMove (not yet playable)."""
    words = text.lower().split()
    if not words:
        raise BadNotation("Type an order, for example 'first me'.")
    verb = words[0]
    if verb == "first":
        if len(words) == 2 and words[1] in ("me", "them"):
            return First(words[1])
        raise BadNotation(f"I can't read '{text.strip()}': write 'first me' or 'first them'.")
    if verb == "concede":
        if len(words) == 1:
            return Concede()
        raise BadNotation(f"I can't read '{text.strip()}': write just 'concede'.")
    if verb in PLANNED:
        raise IllegalMove(f"'{text.strip()}': {verb} orders are not available in this version yet.")
    raise BadNotation(f"I can't read '{text.strip()}': '{words[0]}' is not an order.")


def parse_pos(text: str) -> tuple[float, float]:
    """Returns a position from ``x,y`` or a grid cell like ``C7``; raises BadNotation."""
    t = text.strip().lower()
    m = _XY.match(t)
    if m:
        return (float(m.group(1)), float(m.group(2)))
    m = _CELL.match(t)
    if m and 1 <= int(m.group(2)) <= 30:
        return (float(2 * (ord(m.group(1)) - ord("a")) + 1), float(2 * (int(m.group(2)) - 1) + 1))
    raise BadNotation(f"I can't read the position '{text.strip()}': write x,y in inches or a cell like C7.")
