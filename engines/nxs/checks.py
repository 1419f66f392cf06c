"""Checking a saved NXS state before it is loaded: types, ranges and references.

:func:`check_state` raises ``FieldError`` naming the first bad field::

    >>> from engines.nxs.game import Nxs
    >>> g = Nxs.new(["ann", "bob"])
    >>> check_state(g.dump_state(), g.ships, g.options)
    >>> check_state({**g.dump_state(), "turn": 99}, g.ships, g.options)
    Traceback (most recent call last):
    ...
    engines.core.reader.FieldError: state: turn: must be at most 1, got 99
"""

from __future__ import annotations

import re
from typing import Any

from engines.core.reader import Reader, at
from engines.nxs.board import CELLS
from engines.nxs.hexes import DIRECTIONS

MAX_PIECES = 74
_KEY = re.compile(r"[0-9a-f]{16}")


def check_state(data: dict[str, Any], ships: dict[str, Any], options: dict[str, Any], *,
                steps: tuple[str, ...] = ("move", "rotate"), terminations: tuple[str, ...] = ()) -> None:
    """Checks the dict of ``Nxs.dump_state``; raises FieldError for the first bad field.

    ``steps`` and ``terminations`` are the values of the game's ``Step`` and ``Termination``.
    """
    r = Reader("state")
    pieces = r.items(data, "pieces", "")
    r.need(len(pieces) <= MAX_PIECES, "pieces", f"more than {MAX_PIECES} pieces")
    cells: set[str] = set()
    for i, item in enumerate(pieces):
        p = at("pieces", i)
        cell, owner, ship, facing = r.list_(item, p, length=4)
        r.word(cell, at(p, 0), choices=CELLS)
        r.need(cell not in cells, at(p, 0), f"two pieces stand on {cell}")
        cells.add(cell)
        r.whole(owner, at(p, 1), high=1)
        r.word(ship, at(p, 2), choices=ships)
        r.word(facing, at(p, 3), choices=DIRECTIONS)
    r.int_(data, "turn", "", high=1)
    r.text(data, "step", "", choices=steps)
    for i, n in enumerate(r.list_(r.field(data, "captured", ""), "captured", length=2)):
        r.whole(n, at("captured", i), high=MAX_PIECES)
    r.int_(data, "quiet", "", high=options["quiet_turns"])
    r.flag(data, "eventful", "")
    seen = r.obj(r.field(data, "seen", ""), "seen")
    for key, n in seen.items():
        r.need(bool(_KEY.fullmatch(key)), "seen", "holds a key that is not a position digest")
        r.whole(n, at("seen", key), low=1, high=options["repetitions"])
    last = r.field(data, "last", "")
    if last is not None:
        last = r.obj(last, "last")
        r.need(sorted(last) == ["from", "kind", "to"], "last", "must hold kind, from and to")
        r.text(last, "kind", "last", choices=("move", "capture"))
        r.text(last, "from", "last", choices=CELLS)
        r.text(last, "to", "last", choices=CELLS)
    out = r.field(data, "outcome", "")
    if out is not None:
        out = r.obj(out, "outcome")
        r.text(out, "termination", "outcome", choices=terminations)
        r.opt_int(out, "winner", "outcome", high=1, required=True)
