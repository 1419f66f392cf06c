"""Territory: the enemy-board hexes a seat holds, recomputed from the position alone.

The three ways (a hex held two ways counts once):

1. **occupation** — each of your pieces on the enemy board holds its hex;
2. **edge line** — walking from such a piece in a side direction over enemy-board hexes,
   meeting no enemy piece, and stepping next onto your own board holds every
   enemy-board hex of the walk (the piece's hex included);
3. **piece-to-piece line** — two of your pieces on the enemy board on one straight line
   with no enemy piece between hold both ends and every hex between.

Your own pieces never break a line; any enemy piece (Merchant included) does::

    >>> from engines.nxs.board import CELLS, cell_name
    >>> from engines.nxs.position import Piece
    >>> pos = {CELLS["h1"]: Piece(0, "sloop", 1)}
    >>> sorted(cell_name(h) for h in held(pos, 0))
    ['h1']
    >>> pos[CELLS["i3"]] = Piece(0, "sloop", 1)      # lines i3-h2-(g1) and i3-h3-(g2)
    >>> sorted(cell_name(h) for h in held(pos, 0))
    ['h1', 'h2', 'h3', 'i3']
"""

from __future__ import annotations

from engines.core.hexgrid import SIDES, Hex
from engines.nxs.board import BOARDS
from engines.nxs.position import Position


def held(pos: Position, seat: int) -> set[Hex]:
    """Returns the enemy-board hexes ``seat`` holds in ``pos``."""
    enemy_board, own_board = BOARDS[1 - seat], BOARDS[seat]
    out: set[Hex] = set()
    for start, piece in pos.items():
        if piece.owner != seat or start not in enemy_board:
            continue
        out.add(start)  # way 1: occupation
        for dq, dr in SIDES:
            path = [start]
            reach = 0  # index in path of the farthest own piece met (way 3)
            q, r = start[0] + dq, start[1] + dr
            broken = False
            while (q, r) in enemy_board:
                other = pos.get((q, r))
                if other is not None and other.owner != seat:
                    broken = True
                    break
                path.append((q, r))
                if other is not None:
                    reach = len(path) - 1
                q, r = q + dq, r + dr
            if not broken and (q, r) in own_board:
                out.update(path)  # way 2: edge line
            elif reach:
                out.update(path[: reach + 1])  # way 3: piece-to-piece line
    return out


def score(pos: Position, seat: int) -> int:
    """Returns the number of distinct hexes ``seat`` holds."""
    return len(held(pos, seat))


def scores(pos: Position) -> tuple[int, int]:
    """Returns both seats' scores, White first."""
    return score(pos, 0), score(pos, 1)
