"""What the ``/nexo`` commands suggest as a player types: only what is legal now, labelled to plan by.

Every suggestion is taken from the engine's legal orders (or its "toward" forms), so a
suggestion typed back is played as shown; a position typed for ``move``/``dash`` is previewed
first (:mod:`engines.nexo.preview`): where it lands and what it costs, or why it cannot go
there and a legal move toward it instead (only when none exists is the suggestion one the
game refuses, for the reason its label gives). Each function takes the game, the player
asking and what they have typed so far, and returns ``(label, value)`` pairs, at most
25 (Discord's limit), labels at most 100 characters::

    >>> from engines.nexo.game import Nexo
    >>> g = Nexo.new(["ann", "bob"], seed=4)
    >>> first = g.to_act()[0]
    >>> [v for _, v in units(g, first, "move", "")]  # nobody moves in the Initiative Phase
    []
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import replace

from engines.core import GameError
from engines.nexo.game import Nexo
from engines.nexo.legal import toward_forms
from engines.nexo.moves import fmt_pos, parse_pos
from engines.nexo.odds import attack_odds, odds_label
from engines.nexo.preview import Preview, grid_cell, inches, preview
from engines.nexo.state import SEATS, Model
from engines.nexo.world import World

MAX_CHOICES = 25
"""Discord shows at most 25 suggestions."""
LABEL = 100
"""Discord's longest suggestion label."""

Choice = tuple[str, str]


def cell(x: float, y: float) -> str:
    """Returns the 2" grid cell of a position, as the picture labels it.

    >>> cell(5.0, 13.0), cell(0.0, 59.9), cell(43.9, 0.0)
    ('C7', 'A30', 'V1')
    """
    return grid_cell((x, y))


def seat_of(game: Nexo, player: str) -> str:
    """Returns the engine seat of a player's name."""
    return SEATS[game.players.index(player)]


def orders(game: Nexo, player: str, verb: str) -> list[list[str]]:
    """Returns the player's legal orders of one verb, each split into words."""
    return [m.split() for m in game.legal_moves(player) if m.split()[0] == verb]


def _matching(pairs: Iterable[Choice], current: str) -> list[Choice]:
    needle = " ".join(current.casefold().split())
    seen: dict[str, str] = {}
    for label, value in pairs:
        if value not in seen and (needle in value.casefold() or needle in label.casefold()):
            seen[value] = label[:LABEL]
    return [(label, value) for value, label in seen.items()][:MAX_CHOICES]


def describe(w: World, pid: str) -> str:
    """Returns "a3 · Trooper · 6/8 HP · D7" for a model, "A2 · Foundry · site" for a building."""
    s = w.state
    if pid in s.models:
        m = s.models[pid]
        ut = w.unit_type(m)
        wia = f" · WIA {m.wia}" if m.wia else ""
        return f"{pid} · {ut.title} · {m.hp}/{ut.hp} HP{wia} · {cell(m.x, m.y)}"
    b = s.buildings[pid]
    bt = w.faction.buildings[b.type]
    state = "wreck" if b.wreck else f"{b.hp}/{bt.hp} HP" if b.complete else f"site {b.build_points}/{bt.build_points}"
    return f"{pid} · {bt.title} · {state} · {cell(b.x, b.y)}"


def units(game: Nexo, player: str, verb: str, current: str) -> list[Choice]:
    """Returns the player's pieces that have a legal ``verb`` order now (``harvest`` adds "all")."""
    w = game.world()
    found = orders(game, player, verb)
    pairs: list[Choice] = []
    if verb == "harvest" and ["harvest", "all"] in found:
        pairs.append(("all: every worker that can reach a depot, in turn", "all"))
    if verb == "done" and len(found) > 1:
        pairs.append(("all: every piece left does nothing, in turn, while it is your turn", "all"))
    pairs += [(describe(w, o[1]), o[1]) for o in found if len(o) > 2 or verb in ("done", "overwatch", "scrap")]
    return _matching(pairs, current)


def positions(game: Nexo, player: str, verb: str, unit: str, current: str) -> list[Choice]:
    """Returns where ``unit`` may ``move``/``dash`` now: the toward forms, then the sampled ends.

    When ``current`` reads as positions, the first suggestion previews it (:func:`preview_choice`).
    """
    w = game.world()
    try:
        pid = w.resolve(unit)
    except GameError:
        return []
    m = w.state.models.get(pid)
    if m is None:
        return []
    typed = preview_choice(preview(w, seat_of(game, player), verb, pid, current), current)
    pairs: list[Choice] = []
    for label, text in toward_forms(w, seat_of(game, player), pid):
        words = text.split()
        if words[0] == verb:
            pairs.append((label, " ".join(words[2:])))
    for o in orders(game, player, verb):
        if o[1] == pid:
            x, y = parse_pos(o[-1])
            pairs.append((f"{o[-1]} · {cell(x, y)} · {math.dist((m.x, m.y), (x, y)):.1f}\" away", " ".join(o[2:])))
    found = _matching(pairs, current)
    if typed is None:
        return found
    return [typed, *(c for c in found if c[1] != typed[1])][:MAX_CHOICES]


def preview_choice(p: Preview | None, typed: str) -> Choice | None:
    """Returns the suggestion previewing a typed position, or None (``p`` None, or no value fits).

    It lands: ``30.8,16 · P9 · 4.2" of 6" Move``, its value the positions in canonical form.
    It does not: ``can't reach 30.8,16: 9.1" away; a3 can Move 6" · instead: 26.1,17.5 (6")``
    (the reason cut short when the label would be too long), its value the legal move
    nearest the typed end, or the typed positions (refused, as the label says) when no move
    gets nearer.
    """
    if p is None:
        return None
    if p.instead is not None and len(" ".join(fmt_pos(q) for q in p.instead)) > LABEL:
        p = replace(p, instead=None)  # too long to be a suggestion's value
    end = fmt_pos(p.end)
    if p.lands:
        via = ""
        if len(p.path) > 1:
            via = f" · via {fmt_pos(p.path[0])}" if len(p.path) == 2 else f" · via {len(p.path) - 1} waypoints"
        difficult = " (Difficult Ground)" if p.difficult else ""
        fire = f" · Overwatch: {', '.join(p.watchers)} can fire" if p.watchers else ""
        label = f"{end} · {grid_cell(p.end)}{via} · {inches(p.cost or 0.0)}\" of {p.allowance_text}{difficult}{fire}"
    else:
        head, why, tails = f"can't reach {end}: ", p.problem or "", [""]
        if p.instead is not None:
            corners = len(p.instead) - 1
            via = f" via {corners} waypoint{'s' if corners > 1 else ''}" if corners else ""
            goes = f" · instead: {fmt_pos(p.instead[-1])}{via}"
            tails = [f"{goes} ({inches(p.instead_cost)}\")", goes]
        tail = next((t for t in tails if len(head) + len(why) + len(t) <= LABEL), tails[-1])
        room = LABEL - len(head) - len(tail)
        label = head + (why if len(why) <= room else why[:room - 1].rstrip() + "…") + tail
    value = p.order
    if len(value) > LABEL:
        value = " ".join(typed.split())
    if len(value) > LABEL or not value:
        return None
    return label[:LABEL], value


def targets(game: Nexo, player: str, verb: str, unit: str, current: str) -> list[Choice]:
    """Returns what ``unit`` may shoot or fight now, each labelled with its odds: the enemy's first.

    In Blackout a player may attack their own pieces that demand Energy; those come last,
    marked "(yours)", so that the best odds are not mistaken for the best target.
    """
    w = game.world()
    try:
        pid = w.resolve(unit)
    except GameError:
        return []
    seat = seat_of(game, player)
    theirs: list[Choice] = []
    yours: list[Choice] = []
    for o in orders(game, player, verb):
        if o[1] != pid:
            continue
        odds = odds_label(attack_odds(w, pid, o[2], o[3] if len(o) > 3 else None))
        piece = w.state.models.get(o[2]) or w.state.buildings.get(o[2])
        if piece is not None and piece.owner == seat:
            yours.append((f"(yours) {describe(w, o[2])} — {odds}", o[2]))
        else:
            theirs.append((f"{describe(w, o[2])} — {odds}", o[2]))
    return _matching(theirs + yours, current)


def weapons(game: Nexo, player: str, verb: str, unit: str, target: str, current: str) -> list[Choice]:
    """Returns the weapons ``unit`` may use on ``target`` now, each labelled with its odds."""
    w = game.world()
    try:
        pid, tid = w.resolve(unit), w.resolve(target)
    except GameError:
        return []
    pairs = [
        (f"{o[3]} — {odds_label(attack_odds(w, pid, tid, o[3]))}", o[3])
        for o in orders(game, player, verb)
        if o[1:3] == [pid, tid] and len(o) > 3
    ]
    return _matching(pairs, current)


def ability_targets(game: Nexo, player: str, verb: str, worker: str, current: str) -> list[Choice]:
    """Returns the depots (``harvest``) or buildings (``build``, ``repair``) a worker may use now."""
    w = game.world()
    try:
        pid = w.resolve(worker)
    except GameError:
        return []
    pairs: list[Choice] = []
    for o in orders(game, player, verb):
        if o[1] == pid and len(o) > 2:
            depot = next((d for d in w.state.depots if d.id == o[2]), None)
            label = f"{o[2]} · Carbonite depot · {cell(depot.x, depot.y)}" if depot else describe(w, o[2])
            pairs.append((label, o[2]))
    return _matching(pairs, current)


def producers(game: Nexo, player: str, current: str) -> list[Choice]:
    """Returns the buildings that may produce now."""
    w = game.world()
    return _matching(((describe(w, o[1]), o[1]) for o in orders(game, player, "produce")), current)


def unit_types(game: Nexo, player: str, building: str, current: str) -> list[Choice]:
    """Returns the unit types ``building`` may produce now that the player can afford, with their costs."""
    f = game.rules.faction
    pairs = []
    for o in orders(game, player, "produce"):
        if o[1] == building.upper():
            ut = f.units[o[2]]
            pairs.append((f"{ut.title} · {ut.carbonite} Carbonite, {ut.energy} Energy · {ut.hp} HP", o[2]))
    return _matching(pairs, current)


def building_types(game: Nexo, player: str, current: str) -> list[Choice]:
    """Returns the building types the player may start a site of now, with their costs."""
    f = game.rules.faction
    pairs = []
    for o in orders(game, player, "construct"):
        bt = f.buildings[o[1]]
        energy = f"makes {bt.energy_production} Energy" if bt.energy_production else f"{bt.energy} Energy"
        pairs.append((f"{bt.title} · {bt.carbonite} Carbonite, {energy}", o[1]))
    return _matching(pairs, current)


def sites(game: Nexo, player: str, building_type: str, current: str) -> list[Choice]:
    """Returns sampled legal sites of a building type (``x,y`` and the cell)."""
    pairs = []
    for o in orders(game, player, "construct"):
        if o[1] == building_type.casefold():
            x, y = parse_pos(o[2])
            turn = " (turned)" if o[3:] == ["r90"] else ""
            pairs.append((f"{o[2]} · {cell(x, y)}{turn}", " ".join(o[2:])))
    return _matching(pairs, current)


def scrappable(game: Nexo, player: str, current: str) -> list[Choice]:
    """Returns every piece the player may scrap now (none while one of theirs is activating)."""
    if not orders(game, player, "scrap"):
        return []
    w, seat = game.world(), seat_of(game, player)
    pieces = [pid for pid, m in w.state.models.items() if m.owner == seat]
    pieces += [bid for bid, b in w.state.buildings.items() if b.owner == seat and not b.wreck]
    return _matching(((describe(w, pid), pid) for pid in sorted(pieces)), current)


def models(game: Nexo, current: str) -> list[Choice]:
    """Returns every model on the battlefield, the asker's and the enemy's, for ``/nexo show``."""
    w = game.world()
    pairs = [(f"{describe(w, pid)} · {game.players[SEATS.index(m.owner)]}", pid)
             for pid, m in sorted(w.state.models.items()) if isinstance(m, Model)]
    return _matching(pairs, current)
