"""The NXS position: which ship of which seat stands on which hex, facing where.

A position is a plain dict ``hex → Piece``; seat 0 is White, seat 1 Black::

    >>> pos = {(0, 0): Piece(0, "merchant", 1)}
    >>> pieces_of(pos, 0), pieces_of(pos, 1)
    ([(0, 0)], [])
    >>> position_key(pos, 1) == position_key(dict(pos), 1) != position_key(pos, 0)
    True
    >>> len(position_key(pos, 1))
    16
"""

from __future__ import annotations

import hashlib
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
    """Returns a short digest of the position and the side to move (to count repetitions)."""
    items = sorted(f"{cell_name(h)}:{p.owner}:{p.ship}:{p.facing}" for h, p in pos.items())
    text = ",".join(items) + "|" + "wb"[to_move]
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
