"""Builds NXS positions directly for rule tests: ``scenario("w sloop d4 N", "b merchant k4 SW")``.

Players are ``ann`` (White, seat 0) and ``bob`` (Black, seat 1).
"""

from __future__ import annotations

from typing import Any

from engines.nxs import Nxs
from engines.nxs.board import CELLS
from engines.nxs.territory import held

ANN, BOB = "ann", "bob"


def scenario(*specs: str, to_move: str = "white", step: str = "move", **options: Any) -> Nxs:
    """Returns a game with the pieces given as ``"<w|b> <ship> <cell> <facing>"``."""
    pieces = []
    for spec in specs:
        colour, ship, cell, facing = spec.split()
        pieces.append((cell, "wb".index(colour[0].lower()), ship, facing))
    turn = 0 if to_move in ("white", ANN) else 1
    return Nxs.from_position([ANN, BOB], pieces, turn=turn, step=step, options=options)


def holds(game: Nxs, seat: int) -> set[str]:
    """Returns the cells ``seat`` holds, recomputed from the position."""
    names = {h: n for n, h in CELLS.items()}
    return {names[h] for h in held(game.pos, seat)}


def facing(game: Nxs, cell: str) -> str:
    """Returns the facing of the piece on ``cell`` as the view shows it."""
    return next(p["facing"] for p in game.view(None)["pieces"] if p["cell"] == cell)
