"""XISK by clicks: countries front line first with their chips, then targets, then counts.

Claims, placements, attacks, invasions and adjusts are picked (see :mod:`cogs.picker`);
``end`` is a button, a cardset is redeemed from "My cards" (its cards are secret, so they
are never on the public board), and resigning is typed, as it cannot be taken back::

    >>> move_steps("attack alaska kamchatka"), move_steps("redeem AS KS QS"), move_steps("end")
    (('attack', 'alaska', 'kamchatka'), None, None)
"""

from __future__ import annotations

from typing import Any

from cogs.surface import Option, Picking
from engines.xisk.board import load_board
from host.table import Table

PICKED = frozenset({"claim", "place", "attack", "invade", "adjust"})
"""First words of the moves played by clicks."""


def move_steps(move: str) -> tuple[str, ...] | None:
    """Returns a move's words as its steps when it is picked by clicks, else None."""
    words = tuple(move.split())
    return words if words and words[0] in PICKED else None


def _view(table: Table) -> dict[str, Any]:
    assert table.game is not None
    return table.game.view(None)


def enemies(view: dict[str, Any], country: str) -> int:
    """Returns how many neighbours of ``country`` another player (or nobody) holds."""
    owner = view["countries"][country]["owner"]
    return sum(view["countries"][n]["owner"] != owner for n in load_board().neighbours[country])


def _chips(n: int) -> str:
    return f"{n} chip" if n == 1 else f"{n} chips"


def options(table: Table, player: str, steps: tuple[str, ...], tokens: list[str]) -> list[Option]:
    """Returns a step's choices: countries with chips and owner, front line first; or counts."""
    board, view = load_board(), _view(table)
    countries = view["countries"]
    if tokens and all(t.isdigit() for t in tokens):
        most = max(int(t) for t in tokens)
        word = "Invade" if steps[0] == "invade" else ""
        return [Option(t, f"{word} all ({t})".strip() if int(t) == most and most > 3 else f"{word} {t}".strip())
                for t in tokens]
    if steps == ("claim",):  # the map's order: a continent at a time
        order = {c: i for i, c in enumerate(board.countries)}
        return [Option(t, f"{board.names[t]} {board.codes[t]}", board.continents[board.continent_of[t]].name)
                for t in sorted(tokens, key=order.__getitem__)]
    if len(steps) == 1:  # the player's own countries, those facing the most enemies first
        ranked = sorted(tokens, key=lambda c: (-enemies(view, c), -countries[c]["chips"], board.names[c]))
        return [Option(c, f"{board.names[c]} {board.codes[c]} · {_chips(countries[c]['chips'])}", _front(view, c))
                for c in ranked]
    ranked = sorted(tokens, key=lambda c: (countries[c]["chips"], board.names[c]))  # the weakest target first
    return [Option(c, f"{board.names[c]} {board.codes[c]} · {_chips(countries[c]['chips'])}",
                   _owner(countries[c]["owner"])) for c in ranked]


def _front(view: dict[str, Any], country: str) -> str:
    n = enemies(view, country)
    return "interior: no enemy neighbour" if n == 0 else f"front line: {n} enemy neighbour{'s' if n != 1 else ''}"


def _owner(owner: str | None) -> str:
    return f"held by {owner}" if owner else "neutral"


def prompt(table: Table, player: str, steps: tuple[str, ...]) -> str:
    """Returns the question of the step after ``steps``."""
    board, view = load_board(), _view(table)
    name = board.names.get(steps[1], steps[1]) if len(steps) > 1 else ""
    supply = view.get("supply_left") or 0
    match steps:
        case ("claim",):
            return "Claim a country…"
        case ("place",):
            return f"Place chips ({supply} left) on…"
        case ("place", _):
            return f"How many chips onto {name}? {supply} left to place."
        case ("attack",):
            return "Attack from…"
        case ("attack", _):
            return f"Attack from {name} ({_chips(view['countries'][steps[1]]['chips'])}) into…"
        case ("adjust",):
            return "Adjust: move chips from…"
        case ("adjust", _):
            return f"Move chips from {name} to…"
        case ("adjust", _, target):
            return f"How many chips from {name} to {board.names.get(target, target)}?"
        case ("invade",):
            invade = view.get("invade") or {}
            return f"Invade {board.names.get(invade.get('to', ''), 'the conquered country')} with how many more chips?"
    return "Choose…"


PICKING = Picking(steps=move_steps, options=options, prompt=prompt)
"""How XISK's moves are played by clicks under the live board."""
