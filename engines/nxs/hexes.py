"""Directions of an NXS ship: its six sides, six corners, and turning by one facing.

A facing is an index into :data:`DIRECTIONS` (0 = N, clockwise). A ship's sides are
relative (0 = front, then clockwise); side ``k`` of a ship facing ``f`` points to
absolute direction ``(f + k) % 6``. Corner ``c`` joins sides ``c`` and ``c + 1``::

    >>> DIRECTIONS[absolute(1, 2)]      # back-right side of a ship facing NE
    'S'
    >>> CORNERS[absolute(1, 1)]         # its corner 1/2, between SE and S
    'SE-S'
    >>> DIRECTIONS[turn(0, "left")], DIRECTIONS[turn(5, "right")]
    ('NW', 'N')
    >>> corner_target((0, 0), 1), corner_flanks((0, 0), 1)
    ((2, -1), ((1, -1), (1, 0)))
"""

from __future__ import annotations

from typing import Literal

from engines.core.errors import shown
from engines.core.hexgrid import Hex, corner, flanks

DIRECTIONS: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
"""Side direction names, index = facing, clockwise from straight up."""

CORNERS: tuple[str, ...] = tuple(f"{DIRECTIONS[i]}-{DIRECTIONS[(i + 1) % 6]}" for i in range(6))
"""Corner names: corner ``i`` lies between sides ``i`` and ``i + 1`` (``'NE-SE'`` is due east)."""

FACING_INDEX: dict[str, int] = {name: i for i, name in enumerate(DIRECTIONS)}

Turn = Literal["left", "right"]


def absolute(facing: int, relative: int) -> int:
    """Returns the absolute direction of relative side (or corner) ``relative``."""
    return (facing + relative) % 6


def turn(facing: int, way: Turn) -> int:
    """Returns the facing after one turn: ``left`` is counter-clockwise."""
    return (facing + (1 if way == "right" else -1)) % 6


def corner_target(h: Hex, direction: int) -> Hex:
    """Returns the hex a corner jump from ``h`` through absolute corner ``direction`` lands on."""
    return corner(h, direction)


def corner_flanks(h: Hex, direction: int) -> tuple[Hex, Hex]:
    """Returns the two flanking hexes of a corner jump (either one holding an enemy blocks it)."""
    return flanks(h, direction)


def parse_facing(text: str) -> int:
    """Returns the facing index of a direction name; raises ValueError for anything else."""
    key = text.strip().upper()
    if key not in FACING_INDEX:
        raise ValueError(f"'{shown(text, 20)}' is not a facing: use one of {', '.join(DIRECTIONS)}.")
    return FACING_INDEX[key]
