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

Ray = tuple[tuple[Hex, ...], bool]
"""The enemy-board hexes beyond a start hex in one direction, and whether the walk then steps home."""


def _rays(seat: int) -> dict[Hex, tuple[Ray, ...]]:
    enemy_board, own_board = BOARDS[1 - seat], BOARDS[seat]
    out: dict[Hex, tuple[Ray, ...]] = {}
    for start in enemy_board:
        rays = []
        for dq, dr in SIDES:
            path: list[Hex] = []
            q, r = start[0] + dq, start[1] + dr
            while (q, r) in enemy_board:
                path.append((q, r))
                q, r = q + dq, r + dr
            if path:
                rays.append((tuple(path), (q, r) in own_board))
        out[start] = tuple(rays)
    return out


RAYS: tuple[dict[Hex, tuple[Ray, ...]], ...] = (_rays(0), _rays(1))
"""Per seat: every enemy-board hex → its rays over the enemy board (fixed geometry)."""


def held(pos: Position, seat: int) -> set[Hex]:
    """Returns the enemy-board hexes ``seat`` holds in ``pos``."""
    rays = RAYS[seat]
    get = pos.get
    out: set[Hex] = set()
    for start, piece in pos.items():
        if piece.owner != seat or start not in rays:
            continue
        out.add(start)  # way 1: occupation
        for path, home in rays[start]:
            reach = 0  # how far along the path the farthest own piece stands (way 3)
            broken = False
            for i, h in enumerate(path, 1):
                other = get(h)
                if other is not None:
                    if other.owner != seat:
                        broken = True
                        break
                    reach = i
            if home and not broken:
                out.update(path)  # way 2: edge line
            elif reach:
                out.update(path[:reach])  # way 3: piece-to-piece line
    return out


def score(pos: Position, seat: int) -> int:
    """Returns the number of distinct hexes ``seat`` holds."""
    return len(held(pos, seat))


def scores(pos: Position) -> tuple[int, int]:
    """Returns both seats' scores, White first."""
    return score(pos, 0), score(pos, 1)
