"""The NXS position: which ship of which seat stands on which hex, facing where.

A position is a plain dict ``hex → Piece``; seat 0 is White, seat 1 Black::

    >>> pos = {(0, 0): Piece(0, "merchant", 1)}
    >>> pieces_of(pos, 0), pieces_of(pos, 1)
    ([(0, 0)], [])
    >>> position_key(pos, 1)
    'd4:0:merchant:1|b'
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.core.hexgrid import Hex
from engines.nxs.board import cell_name


@dataclass(frozen=True, slots=True)
class Piece:
    """A ship on the board: its owner's seat, ship key and facing (0 = N, clockwise)."""

    owner: int
    ship: str
    facing: int


Position = dict[Hex, Piece]


def pieces_of(pos: Position, seat: int) -> list[Hex]:
    """Returns the hexes of ``seat``'s pieces, in a fixed order (by cell name)."""
    return sorted((h for h, p in pos.items() if p.owner == seat), key=cell_name)


def position_key(pos: Position, to_move: int) -> str:
    """Returns a string naming the position and the side to move (for repetitions)."""
    items = sorted(f"{cell_name(h)}:{p.owner}:{p.ship}:{p.facing}" for h, p in pos.items())
    return ",".join(items) + "|" + "wb"[to_move]
