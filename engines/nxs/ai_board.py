"""A fast NXS board for the bots: the same rules as :mod:`engines.nxs.rules`, on small ints.

The bots search many positions a move, so this module keeps a position as a dict
``hex index → piece code`` (ints) with every geometric fact precomputed: neighbours, rays,
corner jumps and their flanks, territory rays. It is built from a seat's *view* only
(:func:`from_view`): NXS has no hidden information, so the view holds the whole position.
A test checks that moves, captures and territory agree with the engine's own rules::

    >>> from engines.nxs.game import Nxs
    >>> board = from_view(Nxs.new(["ann", "bob"]).view("ann"))
    >>> board.seat_of("ann"), board.scores, board.targets, board.to_move, board.step
    (0, (0, 0), (10, 10), 0, 'move')
    >>> sorted(name(d) for d in slides(board.pos, index("f4")))
    ['g3', 'g4', 'h3']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.core.hexgrid import SIDES, Hex, corner, flanks
from engines.nxs.board import ALL_HEXES, BOARDS, CELL_NAMES, CELLS, cell_name
from engines.nxs.hexes import FACING_INDEX
from engines.nxs.roster import default_data

Pos = dict[int, int]
"""A position: hex index → piece code (see :func:`code`)."""

# -- geometry -------------------------------------------------------------------------

HEXES: tuple[Hex, ...] = tuple(sorted(ALL_HEXES, key=cell_name))
"""Every hex of both boards, in cell-name order; a hex's index is its place here."""
_INDEX: dict[Hex, int] = {h: i for i, h in enumerate(HEXES)}
NAMES: tuple[str, ...] = tuple(CELL_NAMES[h] for h in HEXES)
N = len(HEXES)
HOME: tuple[int, ...] = tuple(0 if h in BOARDS[0] else 1 for h in HEXES)
"""The seat whose board (territory) each hex is on."""


def index(cell: str) -> int:
    """Returns the index of a cell name."""
    return _INDEX[CELLS[cell]]


def name(i: int) -> str:
    """Returns the cell name of an index."""
    return NAMES[i]


def _step(h: Hex, d: int) -> Hex:
    return (h[0] + SIDES[d][0], h[1] + SIDES[d][1])


def _ray(h: Hex, d: int) -> tuple[int, ...]:
    out: list[int] = []
    h = _step(h, d)
    while h in _INDEX:
        out.append(_INDEX[h])
        h = _step(h, d)
    return tuple(out)


RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(_ray(h, d) for d in range(6)) for h in HEXES)
"""``RAYS[i][d]``: the hexes from ``i`` in side direction ``d`` to the edge of the boards."""


def _jump(h: Hex, c: int) -> tuple[int, int, int]:
    t = corner(h, c)
    a, b = flanks(h, c)
    return _INDEX.get(t, -1), _INDEX.get(a, -1), _INDEX.get(b, -1)


JUMPS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(tuple(_jump(h, c) for c in range(6)) for h in HEXES)
"""``JUMPS[i][c]``: (landing hex, flank, flank) of a corner jump; -1 off the boards."""


def _territory_rays(seat: int) -> dict[int, tuple[tuple[tuple[int, ...], bool], ...]]:
    enemy, own = BOARDS[1 - seat], BOARDS[seat]
    out: dict[int, tuple[tuple[tuple[int, ...], bool], ...]] = {}
    for start in enemy:
        rays = []
        for d in range(6):
            path: list[int] = []
            h = _step(start, d)
            while h in enemy:
                path.append(_INDEX[h])
                h = _step(h, d)
            if path:
                rays.append((tuple(path), h in own))
        out[_INDEX[start]] = tuple(rays)
    return out


TERRITORY_RAYS = (_territory_rays(0), _territory_rays(1))
"""Per seat: enemy-board hex index → its rays over the enemy board and whether each ends at home."""

# -- pieces ---------------------------------------------------------------------------

SHIPS: tuple[str, ...] = tuple(sorted(default_data()[0]))
"""Ship keys of the roster, in a fixed order (a piece code holds the place of its ship)."""
_SHIP_INDEX = {s: i for i, s in enumerate(SHIPS)}
CODES = 1 + 2 * len(SHIPS) * 6


def code(owner: int, ship: str, facing: int) -> int:
    """Returns the code of a piece: ``1 + (owner·ships + ship)·6 + facing`` (0 is never a piece)."""
    return 1 + (owner * len(SHIPS) + _SHIP_INDEX[ship]) * 6 + facing


def _tables() -> dict[str, list[Any]]:
    roster = default_data()[0]
    t: dict[str, list[Any]] = {k: [None] * CODES for k in
                               ("owner", "ship", "facing", "arrows", "range", "corners", "immune", "left", "right")}
    for owner in (0, 1):
        for key in SHIPS:
            ship = roster[key]
            for f in range(6):
                c = code(owner, key, f)
                t["owner"][c], t["ship"][c], t["facing"][c] = owner, key, f
                t["arrows"][c] = tuple((f + a) % 6 for a in ship.arrows)
                t["range"][c] = ship.range
                t["corners"][c] = tuple((f + k) % 6 for k in ship.corners)
                t["immune"][c] = ship.immune
                t["left"][c] = code(owner, key, (f - 1) % 6)
                t["right"][c] = code(owner, key, (f + 1) % 6)
    return t


_T = _tables()
OWNER: list[int] = _T["owner"]
SHIP: list[str] = _T["ship"]
FACING: list[int] = _T["facing"]
ARROWS: list[tuple[int, ...]] = _T["arrows"]
RANGE: list[int] = _T["range"]
GUNS: list[tuple[int, ...]] = _T["corners"]
"""Absolute bold corners of a piece code."""
IMMUNE: list[bool] = _T["immune"]
TURNED: dict[str, list[int]] = {"left": _T["left"], "right": _T["right"]}
"""``TURNED[way][code]``: the code after one turn."""

# -- rules ----------------------------------------------------------------------------


def slides(pos: Pos, at: int) -> list[int]:
    """Returns the hexes the piece on ``at`` may slide to (as :func:`engines.nxs.rules.slides`)."""
    c = pos[at]
    r = RANGE[c]
    rays = RAYS[at]
    out: list[int] = []
    for d in ARROWS[c]:
        for j in rays[d][:r]:
            if j in pos:
                break
            out.append(j)
    return out


def captures(pos: Pos, at: int) -> list[int]:
    """Returns the enemy pieces the piece on ``at`` may capture (as :func:`engines.nxs.rules.captures`)."""
    c = pos[at]
    me = OWNER[c]
    jumps = JUMPS[at]
    out: list[int] = []
    for k in GUNS[c]:
        t, a, b = jumps[k]
        prey = pos.get(t) if t >= 0 else None
        if prey is None or OWNER[prey] == me or IMMUNE[prey]:
            continue
        pa, pb = pos.get(a), pos.get(b)
        if (pa is not None and OWNER[pa] != me) or (pb is not None and OWNER[pb] != me):
            continue
        out.append(t)
    return out


def score(pos: Pos, seat: int) -> int:
    """Returns the number of enemy-board hexes ``seat`` holds (as :func:`engines.nxs.territory.score`)."""
    rays = TERRITORY_RAYS[seat]
    out: set[int] = set()
    for start, c in pos.items():
        if OWNER[c] != seat or start not in rays:
            continue
        out.add(start)
        for path, home in rays[start]:
            reach = 0
            broken = False
            for i, h in enumerate(path, 1):
                other = pos.get(h)
                if other is not None:
                    if OWNER[other] != seat:
                        broken = True
                        break
                    reach = i
            if home and not broken:
                out.update(path)
            elif reach:
                out.update(path[:reach])
    return len(out)


def scores_after(after: Pos, src: int, dst: int, before: tuple[int, int]) -> tuple[int, int]:
    """Returns both scores after ``src`` → ``dst``, recomputing only a seat whose territory it touches."""
    s0, s1 = before
    if HOME[src] == 1 or HOME[dst] == 1:
        s0 = score(after, 0)
    if HOME[src] == 0 or HOME[dst] == 0:
        s1 = score(after, 1)
    return s0, s1


GOES_ON, WIN, ILLEGAL = 0, 1, -1


def verdict(both: tuple[int, int], mover: int, targets: tuple[int, int]) -> int:
    """Returns WIN (target or close call), ILLEGAL (a close call lost) or GOES_ON."""
    mine, theirs = both[mover], both[1 - mover]
    if theirs >= targets[1 - mover]:
        return WIN if mine > theirs else ILLEGAL
    return WIN if mine >= targets[mover] else GOES_ON


def moved(pos: Pos, src: int, dst: int) -> Pos:
    """Returns the position after the piece on ``src`` goes to ``dst`` (taking what was there)."""
    out = dict(pos)
    out[dst] = out.pop(src)
    return out


def first_steps(pos: Pos, seat: int, targets: tuple[int, int],
                before: tuple[int, int]) -> list[tuple[int, int, bool, Pos, tuple[int, int], int]]:
    """Returns every legal move or capture of ``seat``: ``(src, dst, capture?, after, scores, verdict)``."""
    out = []
    for at, c in list(pos.items()):
        if OWNER[c] != seat:
            continue
        for capture, dsts in ((False, slides(pos, at)), (True, captures(pos, at))):
            for dst in dsts:
                after = moved(pos, at, dst)
                both = scores_after(after, at, dst, before)
                v = verdict(both, seat, targets)
                if v != ILLEGAL:
                    out.append((at, dst, capture, after, both, v))
    return out


# -- from the view --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Board:
    """The position a view shows, ready to search: pieces, scores, targets, who acts and how."""

    players: tuple[str, str]
    pos: Pos
    scores: tuple[int, int]
    targets: tuple[int, int]
    to_move: int
    step: str
    last_to: int | None
    """The hex of the ship that made this turn's move or capture (step ``rotate``), else None."""
    quiet: int

    def seat_of(self, player: str) -> int:
        """Returns the seat index (0 White, 1 Black) of a player."""
        return self.players.index(player)


def from_view(view: dict[str, Any]) -> Board:
    """Returns the board a seat's view shows (the view holds the whole position: NXS has no secrets)."""
    players = (str(view["players"][0]), str(view["players"][1]))
    pos: Pos = {
        index(p["cell"]): code(int(p["seat"]), str(p["ship"]), FACING_INDEX[str(p["facing"])])
        for p in view["pieces"]
    }
    targets = (int(view["target"][players[0]]), int(view["target"][players[1]]))
    turn = view.get("turn")
    to_move = players.index(turn) if turn in players else 0
    last = view.get("last_move")
    step = str(view.get("step", "move"))
    last_to = index(last["to"]) if step == "rotate" and last and last.get("to") in CELLS else None
    return Board(players, pos, (score(pos, 0), score(pos, 1)), targets, to_move, step, last_to,
                 int(view.get("quiet_turns", 0)))
