"""NXS rules over a position: slides, captures, rotation, and the close-call judgement.

All functions are pure: they read a position and return hexes or a new position::

    >>> from engines.nxs.board import CELLS, cell_name
    >>> from engines.nxs.position import Piece
    >>> from engines.nxs.roster import default_data
    >>> ships, _ = default_data()
    >>> pos = {CELLS["d4"]: Piece(0, "sloop", 0)}            # a Sloop facing N, range 4
    >>> [cell_name(h) for h in slides(pos, CELLS["d4"], ships)]
    ['d5', 'd6', 'd7', 'd3', 'd2', 'd1']
"""

from __future__ import annotations

from enum import Enum

from engines.core.hexgrid import SIDES, Hex
from engines.core.words import plural
from engines.nxs.board import ALL_HEXES, BOARDS, cell_name
from engines.nxs.hexes import CORNERS, DIRECTIONS, absolute, corner_flanks, corner_target, turn
from engines.nxs.position import Piece, Position
from engines.nxs.roster import Ship
from engines.nxs.territory import score, scores


class Verdict(Enum):
    """What the territory after a move or capture means (rule: Win, and the close call)."""

    GOES_ON = "goes on"
    """Neither the mover's target nor the close call is reached: the turn continues."""
    TARGET = "target"
    """The mover reaches their target and the opponent does not: the mover wins."""
    CLOSE_CALL = "close call"
    """The opponent reaches their target but the mover holds more: the mover wins."""
    ILLEGAL = "illegal"
    """The move gives the opponent their target without leaving the mover ahead."""


def slides(pos: Position, at: Hex, ships: dict[str, Ship]) -> list[Hex]:
    """Returns the hexes the piece on ``at`` may slide to: along its arrows, 1..range, empty only."""
    piece = pos[at]
    ship = ships[piece.ship]
    out: list[Hex] = []
    for side in ship.arrows:
        dq, dr = SIDES[absolute(piece.facing, side)]
        q, r = at
        for _ in range(ship.range):
            q, r = q + dq, r + dr
            if (q, r) not in ALL_HEXES or (q, r) in pos:
                break
            out.append((q, r))
    return out


def captures(pos: Position, at: Hex, ships: dict[str, Ship]) -> list[Hex]:
    """Returns the enemy pieces the piece on ``at`` may capture by a jump through a bold corner.

    The target must not be immune (the Merchant); an enemy piece on either flanking hex blocks
    the jump, a friendly one does not.
    """
    piece = pos[at]
    out: list[Hex] = []
    for c in ships[piece.ship].corners:
        direction = absolute(piece.facing, c)
        target = corner_target(at, direction)
        prey = pos.get(target)
        if prey is None or prey.owner == piece.owner or ships[prey.ship].immune:
            continue
        if any((f in pos and pos[f].owner != piece.owner) for f in corner_flanks(at, direction)):
            continue
        out.append(target)
    return out


def moved(pos: Position, src: Hex, dst: Hex) -> Position:
    """Returns the position after the piece on ``src`` goes to ``dst`` (removing what was there)."""
    out = dict(pos)
    out[dst] = out.pop(src)
    return out


def rotated(pos: Position, at: Hex, way: str) -> Position:
    """Returns the position after the piece on ``at`` turns one facing ``left`` or ``right``."""
    piece = pos[at]
    out = dict(pos)
    out[at] = Piece(piece.owner, piece.ship, turn(piece.facing, "right" if way == "right" else "left"))
    return out


def _verdict(both: tuple[int, int], mover: int, targets: tuple[int, int]) -> Verdict:
    mine, theirs = both[mover], both[1 - mover]
    if theirs >= targets[1 - mover]:
        return Verdict.CLOSE_CALL if mine > theirs else Verdict.ILLEGAL
    if mine >= targets[mover]:
        return Verdict.TARGET
    return Verdict.GOES_ON


def scores_after(after: Position, src: Hex, dst: Hex, before: tuple[int, int]) -> tuple[int, int]:
    """Returns both scores after a move ``src`` → ``dst``, given the scores ``before`` it.

    A seat's territory lies on the other seat's board and depends only on the pieces there,
    so a seat's score is recomputed only when the move starts or ends on that board.
    """
    out = list(before)
    for seat in (0, 1):
        board = BOARDS[1 - seat]
        if src in board or dst in board:
            out[seat] = score(after, seat)
    return out[0], out[1]


def judge_move(
    pos: Position, src: Hex, dst: Hex, mover: int, targets: tuple[int, int], before: tuple[int, int]
) -> tuple[Verdict, Position, tuple[int, int]]:
    """Returns the verdict on the move ``src`` → ``dst``, the position after it and both scores."""
    after = moved(pos, src, dst)
    both = scores_after(after, src, dst, before)
    return _verdict(both, mover, targets), after, both


def is_legal(
    pos: Position, src: Hex, dst: Hex, mover: int, targets: tuple[int, int], before: tuple[int, int]
) -> bool:
    """Tells whether the close call allows the move or capture ``src`` → ``dst`` (same as
    ``judge_move(...)[0] is not Verdict.ILLEGAL``, faster).

    The opponent's territory lies on the mover's board and only the mover's pieces there can
    break it: unless the moving piece leaves that board, the opponent cannot gain.
    """
    other = 1 - mover
    if src not in BOARDS[mover] and before[other] < targets[other]:
        return True
    after = moved(pos, src, dst)
    theirs = score(after, other)
    if theirs < targets[other]:
        return True
    mine = score(after, mover) if (src in BOARDS[other] or dst in BOARDS[other]) else before[mover]
    return mine > theirs


def first_steps(
    pos: Position, seat: int, ships: dict[str, Ship], targets: tuple[int, int]
) -> list[tuple[str, Hex, Hex]]:
    """Returns every legal move or capture of ``seat`` as ``(kind, src, dst)``, close call applied."""
    before = scores(pos)
    out: list[tuple[str, Hex, Hex]] = []
    for at, piece in pos.items():
        if piece.owner != seat:
            continue
        for kind, dsts in (("move", slides(pos, at, ships)), ("capture", captures(pos, at, ships))):
            for dst in dsts:
                if is_legal(pos, at, dst, seat, targets, before):
                    out.append((kind, at, dst))
    return out


def has_first_step(pos: Position, seat: int, ships: dict[str, Ship], targets: tuple[int, int]) -> bool:
    """Tells whether ``seat`` has any legal move or capture (without listing them all)."""
    before = scores(pos)
    for at, piece in pos.items():
        if piece.owner != seat:
            continue
        for dst in slides(pos, at, ships) + captures(pos, at, ships):
            if is_legal(pos, at, dst, seat, targets, before):
                return True
    return False


def why_not_slide(pos: Position, src: Hex, dst: Hex, ships: dict[str, Ship]) -> str:
    """Returns a sentence saying why the piece on ``src`` cannot slide to ``dst``."""
    piece = pos[src]
    ship = ships[piece.ship]
    name, there = f"The {ship.name} on {cell_name(src)}", cell_name(dst)
    for side in ship.arrows:
        dq, dr = SIDES[absolute(piece.facing, side)]
        q, r = src
        for _ in range(ship.range):
            q, r = q + dq, r + dr
            if (q, r) == dst:
                if dst in pos:
                    return f"{there} is taken: a ship only moves to an empty hex (capture with 'capture')."
                return f"{name} cannot pass: its way to {there} is blocked."
    sails = ", ".join(DIRECTIONS[absolute(piece.facing, s)] for s in ship.arrows)
    return f"{name} cannot reach {there}: it sails {sails}, up to {plural(ship.range, 'hex', 'hexes')}."


def why_not_capture(pos: Position, src: Hex, dst: Hex, ships: dict[str, Ship]) -> str:
    """Returns a sentence saying why the piece on ``src`` cannot capture on ``dst``."""
    piece = pos[src]
    ship = ships[piece.ship]
    name, there = f"The {ship.name} on {cell_name(src)}", cell_name(dst)
    prey = pos.get(dst)
    if not ship.corners:
        return f"{name} has no cannon (no bold corner): it cannot capture."
    if prey is None:
        return f"There is no ship on {there} to capture."
    if prey.owner == piece.owner:
        return f"The {ships[prey.ship].name} on {there} is yours: you cannot capture your own ship."
    if ships[prey.ship].immune:
        return f"The {ships[prey.ship].name} on {there} cannot be captured."
    for c in ship.corners:
        direction = absolute(piece.facing, c)
        if corner_target(src, direction) == dst:
            blockers = [f for f in corner_flanks(src, direction) if f in pos and pos[f].owner != piece.owner]
            return f"The jump from {cell_name(src)} to {there} is blocked by the enemy ship on " + \
                " and ".join(cell_name(f) for f in blockers) + "."
    guns = ", ".join(CORNERS[absolute(piece.facing, c)] for c in ship.corners)
    return f"{name} cannot capture on {there}: its bold corners point {guns}, two hexes away."
