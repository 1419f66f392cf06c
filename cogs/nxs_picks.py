"""NXS by clicks: a ship, then where it sails or what it captures, then its rotation.

Moves and captures are one kind, "sail": the ship first, then its legal destinations and
captures (see :mod:`cogs.picker`). The compulsory rotation follows as buttons; resigning is
typed, as it cannot be taken back::

    >>> move_steps("move d4 d5"), move_steps("capture d4 e5"), move_steps("rotate d5 left"), move_steps("resign")
    (('sail', 'd4', 'd5'), ('sail', 'd4', 'e5'), ('rotate', 'd5', 'left'), None)
"""

from __future__ import annotations

from typing import Any

from cogs.surface import Option, Picking
from host.table import Table

SAILS = frozenset({"move", "capture"})


def move_steps(move: str) -> tuple[str, ...] | None:
    """Returns a move's steps (a sail or a rotation), or None for one not picked."""
    words = move.split()
    if len(words) == 3 and words[0] in SAILS:
        return ("sail", words[1], words[2])
    if len(words) == 3 and words[0] == "rotate":
        return tuple(words)
    return None


def _pieces(table: Table) -> dict[str, dict[str, Any]]:
    assert table.game is not None
    return {p["cell"]: p for p in table.game.view(None)["pieces"]}


def _kinds(table: Table, player: str, ship: str) -> dict[str, str]:
    """Returns, for each cell the ship may reach, whether it moves there or captures there."""
    assert table.game is not None
    out = {}
    for move in table.game.legal_moves(player):
        words = move.split()
        if len(words) == 3 and words[0] in SAILS and words[1] == ship:
            out[words[2]] = words[0]
    return out


def options(table: Table, player: str, steps: tuple[str, ...], tokens: list[str]) -> list[Option]:
    """Returns a step's choices: ships by name and cell, destinations and captures, or the two ways to turn."""
    pieces = _pieces(table)
    if len(steps) == 1:
        return [Option(c, f"{pieces[c]['name']} at {c}" if c in pieces else c,
                       f"facing {pieces[c]['facing']}" if c in pieces else "") for c in sorted(tokens)]
    if steps[0] == "rotate":
        return [Option(t, f"Rotate {t}") for t in tokens]
    kinds = _kinds(table, player, steps[1])
    captures = [t for t in tokens if kinds.get(t) == "capture"]
    moves = sorted(t for t in tokens if t not in captures)
    return [
        *(Option(t, f"Capture at {t}" + (f" ({pieces[t]['name']})" if t in pieces else ""), "capture")
          for t in sorted(captures)),
        *(Option(t, f"Move to {t}", "move") for t in moves),
    ]


def prompt(table: Table, player: str, steps: tuple[str, ...]) -> str:
    """Returns the question of the step after ``steps``."""
    pieces = _pieces(table)
    ship = pieces.get(steps[1], {}).get("name", "ship") if len(steps) > 1 else ""
    match steps:
        case ("sail",):
            return "Move or capture with…"
        case ("sail", cell):
            return f"{ship} at {cell}: move to or capture…"
        case ("rotate",):
            return "Rotate a ship…"
        case ("rotate", cell):
            return f"Rotate the {ship} at {cell}…"
    return "Choose…"


PICKING = Picking(steps=move_steps, options=options, prompt=prompt)
"""How NXS's moves are played by clicks under the live board."""
