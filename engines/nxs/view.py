"""The NXS view: everything a renderer or a player needs, with no rules left to apply.

``build_view(game)`` returns a JSON-safe dict (NXS has no secrets, so every player sees
the same view):

- ``pieces``: ``{"cell", "owner", "seat", "colour", "ship", "name", "facing", "arrows",
  "range", "corners", "immune"}`` per piece; ``facing`` and ``arrows`` are absolute side
  directions (N NE SE S SW NW), ``corners`` absolute bold corners named by the two sides
  they join (``"NE-SE"`` is due east);
- ``territory`` (player → cells held), ``score`` (player → hexes), ``target`` (player →
  hexes), ``captured`` (player → enemy ships taken);
- ``step`` (``move`` or ``rotate``), ``turn`` (the player to act, None once over),
  ``last_move`` (``{"kind", "from", "to"}`` of the last move or capture, or None),
  ``colours`` (player → white/black), ``players`` (seat order), ``layout``,
  ``quiet_turns`` (turns since a capture or a score change), ``result`` (None, or
  ``{"termination", "winners"}``).

:func:`piece_moves` gives the cells a selected piece may move to or capture on::

    >>> from engines.nxs.game import Nxs
    >>> g = Nxs.new(["ann", "bob"])
    >>> piece_moves(g, "f4")
    {'moves': ['g3', 'g4', 'h3'], 'captures': []}
    >>> piece_moves(g.view(None), "F4") == piece_moves(g, "f4")
    True
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Protocol

from engines.core import JSON, IllegalMove, shown
from engines.nxs.board import cell_hex, cell_name
from engines.nxs.hexes import CORNERS, DIRECTIONS, absolute, parse_facing
from engines.nxs.position import Piece, Position
from engines.nxs.roster import COLOURS, Ship, default_data
from engines.nxs.rules import captures, is_legal, slides
from engines.nxs.territory import held, scores


class Ending(Protocol):
    """What the view reads of a game's result (:class:`engines.nxs.game.Outcome` has it)."""

    @property
    def termination(self) -> Enum: ...

    @property
    def winner(self) -> int | None: ...


class Viewed(Protocol):
    """What the view reads of a game: the :class:`engines.nxs.game.Nxs` engine, which calls the view, has it.

    Declared here, so the view imports nothing from the engine's module.
    """

    @property
    def players(self) -> list[str]: ...

    @property
    def options(self) -> dict[str, Any]: ...

    @property
    def ships(self) -> dict[str, Ship]: ...

    @property
    def pos(self) -> Position: ...

    @property
    def outcome(self) -> Ending | None: ...

    @property
    def scores(self) -> tuple[int, int]: ...

    @property
    def targets(self) -> tuple[int, int]: ...

    @property
    def captured(self) -> list[int]: ...

    @property
    def step(self) -> Enum: ...

    @property
    def turn(self) -> int: ...

    @property
    def last(self) -> dict[str, str] | None: ...

    @property
    def quiet(self) -> int: ...


def build_view(game: Viewed) -> JSON:
    """Returns the public view of ``game`` (the fields are listed in the module docstring)."""
    players, ships = game.players, game.ships
    pieces = []
    for h, p in sorted(game.pos.items(), key=lambda hp: cell_name(hp[0])):
        ship = ships[p.ship]
        pieces.append({
            "cell": cell_name(h),
            "owner": players[p.owner],
            "seat": p.owner,
            "colour": COLOURS[p.owner],
            "ship": p.ship,
            "name": ship.name,
            "facing": DIRECTIONS[p.facing],
            "arrows": [DIRECTIONS[absolute(p.facing, s)] for s in ship.arrows],
            "range": ship.range,
            "corners": [CORNERS[absolute(p.facing, c)] for c in ship.corners],
            "immune": ship.immune,
        })
    out = game.outcome
    return {
        "players": list(players),
        "colours": {pl: COLOURS[i] for i, pl in enumerate(players)},
        "layout": game.options["layout"],
        "pieces": pieces,
        "territory": {pl: sorted(cell_name(h) for h in held(game.pos, i)) for i, pl in enumerate(players)},
        "score": {pl: game.scores[i] for i, pl in enumerate(players)},
        "target": {pl: game.targets[i] for i, pl in enumerate(players)},
        "captured": {pl: game.captured[i] for i, pl in enumerate(players)},
        "step": game.step.value,
        "turn": None if out else players[game.turn],
        "last_move": dict(game.last) if game.last else None,
        "quiet_turns": game.quiet,
        "result": None if out is None else {
            "termination": out.termination.value,
            "winners": [] if out.winner is None else [players[out.winner]],
        },
    }


def _from_view(view: JSON) -> tuple[Position, tuple[int, int]]:
    pos: Position = {
        cell_hex(p["cell"]): Piece(int(p["seat"]), str(p["ship"]), parse_facing(p["facing"]))
        for p in view["pieces"]
    }
    targets = view["target"]
    return pos, (int(targets[view["players"][0]]), int(targets[view["players"][1]]))


def piece_moves(game_or_view: Viewed | JSON | Any, cell: str) -> dict[str, list[str]]:
    """Returns the cells the piece on ``cell`` may move to and capture on now.

    Works on a game or on its view, whoever's turn it is; moves the close call forbids
    are left out. Raises BadNotation for a cell off the boards and IllegalMove for an
    empty hex.
    """
    if isinstance(game_or_view, dict):
        pos, targets = _from_view(game_or_view)
    else:
        pos, targets = game_or_view.pos, game_or_view.targets
    ships = default_data()[0]
    h = cell_hex(cell)
    piece = pos.get(h)
    if piece is None:
        raise IllegalMove(f"There is no ship on {shown(cell.lower(), 20)}.")

    before = scores(pos)

    def ok(dst: tuple[int, int]) -> bool:
        return is_legal(pos, h, dst, piece.owner, targets, before)

    return {
        "moves": sorted(cell_name(d) for d in slides(pos, h, ships) if ok(d)),
        "captures": sorted(cell_name(d) for d in captures(pos, h, ships) if ok(d)),
    }
