"""Checking a saved Nexohominis state before it is loaded: types, ranges and references.

:func:`check_state` raises ``DataError`` naming the first bad field, so a damaged snapshot
is refused on load instead of failing at every order::

    >>> from engines.nexo.game import Nexo
    >>> g = Nexo.new(["ann", "bob"], seed=1)
    >>> check_state(g.dump_state(), g.rules)
    >>> check_state({**g.dump_state(), "turn": "p3"}, g.rules)
    Traceback (most recent call last):
    ...
    engines.nexo.reader.DataError: state: turn: must be one of p1, p2, got 'p3'
"""

from __future__ import annotations

import re
from typing import Any

from engines.nexo.data import parse_piece
from engines.nexo.datatypes import Ruleset
from engines.nexo.moves import MAX_WAYPOINTS
from engines.nexo.reader import Reader, at
from engines.nexo.state import SEATS, STANDING_ORDERS, Phase

RESULTS = ("elimination", "concede", "stall", "round_limit")
"""How a game may end (``State.result``)."""
ATTACK_KINDS = ("shoot", "fight", "overwatch")
"""The kinds of ``State.last_attack``."""
_RESULT = re.compile(r"miss|saved|destroyed|[1-9][0-9]{0,5} dmg")
MAX_ROUND = 100_000
MAX_SIZE = 1_000.0
MAX_COUNT = 1_000_000
_MODEL_FLAGS = ("ever_wia", "activated", "overwatch", "moved", "dashed", "attacked", "shot", "fresh")
_BUILDING_FLAGS = ("complete", "activated", "overwatch", "attacked")


def _keys(r: Reader, o: dict[str, Any], path: str, keys: tuple[str, ...]) -> None:
    r.need(sorted(o) == sorted(keys), path, f"must hold exactly {', '.join(keys)}")


def check_state(data: dict[str, Any], rules: Ruleset) -> None:
    """Checks the dict of ``State.to_json``; raises DataError for the first bad field."""
    r = Reader("state")
    f = rules.faction
    r.int_(data, "round", "", low=1, high=MAX_ROUND)
    r.text(data, "phase", "", choices=tuple(p.value for p in Phase))
    r.rng(data, "rng", "")
    r.text(data, "battlefield", "")
    width = r.num(data, "width", "", low=1.0, high=MAX_SIZE)
    length = r.num(data, "length", "", low=1.0, high=MAX_SIZE)
    for key in ("initiative", "first", "turn", "winner"):
        r.opt_text(data, key, "", choices=SEATS, required=True)
    for i, roll in enumerate(r.items(data, "initiative_rolls", "")):
        for j, die in enumerate(r.list_(roll, at("initiative_rolls", i), length=2)):
            r.whole(die, at(at("initiative_rolls", i), j), low=1, high=6)

    ids: set[str] = set()
    terrain = r.items(data, "terrain", "")
    for i, t in enumerate(terrain):
        ids.add(parse_piece(r, at("terrain", i), t, rules.terrain_types).id)
    depots: set[str] = set()
    for i, d in enumerate(r.items(data, "depots", "")):
        p = at("depots", i)
        d = r.obj(d, p)
        _keys(r, d, p, ("id", "x", "y"))
        depot = r.text(d, "id", p)
        r.need(depot not in depots, at(p, "id"), "names a depot twice")
        depots.add(depot)
        r.num(d, "x", p, high=width)
        r.num(d, "y", p, high=length)

    def new_id(o: dict[str, Any], p: str, key: str | None = None) -> str:
        pid = r.text(o, "id", p)
        r.need(key is None or pid == key, at(p, "id"), "differs from its key")
        r.need(pid not in ids, at(p, "id"), "is used twice")
        ids.add(pid)
        return pid

    models = r.obj(r.field(data, "models", ""), "models")
    wia_names = tuple(w.name for w in rules.wia.values())
    for key, m in models.items():
        p = at("models", key)
        m = r.obj(m, p)
        _keys(r, m, p, ("id", "owner", "type", "x", "y", "hp", "wia", "wia_until", *_MODEL_FLAGS))
        new_id(m, p, key)
        r.text(m, "owner", p, choices=SEATS)
        kind = r.text(m, "type", p, choices=tuple(f.units))
        r.num(m, "x", p, high=width)
        r.num(m, "y", p, high=length)
        r.int_(m, "hp", p, high=f.units[kind].hp)
        r.opt_text(m, "wia", p, choices=wia_names, required=True)
        r.opt_int(m, "wia_until", p, high=MAX_ROUND + 1, required=True)
        for flag in _MODEL_FLAGS:
            r.flag(m, flag, p)

    buildings = r.obj(r.field(data, "buildings", ""), "buildings")
    for key, b in buildings.items():
        p = at("buildings", key)
        b = r.obj(b, p)
        _keys(r, b, p, ("id", "owner", "type", "x", "y", "hp", "rot", "build_points", *_BUILDING_FLAGS))
        new_id(b, p, key)
        r.text(b, "owner", p, choices=SEATS)
        kind = r.text(b, "type", p, choices=tuple(f.buildings))
        bt = f.buildings[kind]
        r.num(b, "x", p, high=width)
        r.num(b, "y", p, high=length)
        r.int_(b, "hp", p, low=-MAX_COUNT, high=bt.hp)
        r.need(b["rot"] in (0, 90) and not isinstance(b["rot"], bool), at(p, "rot"), "must be 0 or 90")
        r.int_(b, "build_points", p, high=bt.build_points or 0)
        for flag in _BUILDING_FLAGS:
            r.flag(b, flag, p)

    sides = r.obj(r.field(data, "sides", ""), "sides")
    r.need(sorted(sides) == sorted(SEATS), "sides", "must hold p1 and p2")
    for seat in SEATS:
        p = at("sides", seat)
        side = r.obj(sides[seat], p)
        keys = ("carbonite", "passes", "reserve", "issued", "ended")
        _keys(r, side, p, (*keys, "standing") if "standing" in side else keys)  # saves before standing orders
        for key in ("carbonite", "passes", "issued"):
            r.int_(side, key, p, high=MAX_COUNT)
        r.flag(side, "ended", p)
        if side.get("standing") is not None:
            r.text(side, "standing", p, choices=STANDING_ORDERS)
        for i, res in enumerate(r.items(side, "reserve", p)):
            q = at(at(p, "reserve"), i)
            res = r.obj(res, q)
            _keys(r, res, q, ("id", "type"))
            new_id(res, q)
            r.text(res, "type", q, choices=tuple(f.units))

    over = r.flag(data, "over", "")
    r.need(over or data["winner"] is None, "winner", "is set while the game goes on")
    active = r.field(data, "active", "")
    if active is not None:
        r.need(active in models or active in buildings, "active", "names no unit or building")
    harvests = r.obj(r.field(data, "harvests", ""), "harvests")
    for key in harvests:
        seat, _, depot = key.partition(":")
        r.need(seat in SEATS and depot in depots, "harvests", "names an unknown seat or depot")
        r.int_(harvests, key, "harvests", high=MAX_COUNT)
    for i, b in enumerate(r.items(data, "produced", "")):
        r.word(b, at("produced", i))
    r.flag(data, "progress", "")
    r.int_(data, "quiet", "", high=MAX_ROUND)
    result = r.opt_text(data, "result", "", choices=RESULTS, required=True)
    r.need(over == (result is not None), "result", "is set exactly when the game is over")
    _check_marks(r, data, width, length)


def _check_marks(r: Reader, data: dict[str, Any], width: float, length: float) -> None:
    """Checks ``last_move`` and ``last_attack`` (absent in states saved before they existed).

    They name pieces that may be gone since (destroyed), so ids are not looked up.
    """
    def point(v: Any, p: str) -> None:
        xy = r.list_(v, p, length=2)
        r.number(xy[0], at(p, 0), high=width)
        r.number(xy[1], at(p, 1), high=length)

    move = data.get("last_move")
    if move is not None:
        move = r.obj(move, "last_move")
        _keys(r, move, "last_move", ("model", "path"))
        r.text(move, "model", "last_move")
        path = r.items(move, "path", "last_move")
        r.need(2 <= len(path) <= MAX_WAYPOINTS + 1, "last_move.path", f"must hold 2 to {MAX_WAYPOINTS + 1} points")
        for i, pt in enumerate(path):
            point(pt, at("last_move.path", i))
    attack = data.get("last_attack")
    if attack is not None:
        p = "last_attack"
        attack = r.obj(attack, p)
        _keys(r, attack, p, ("attacker", "target", "kind", "weapon", "result", "from", "to"))
        r.text(attack, "attacker", p)
        r.text(attack, "target", p)
        r.text(attack, "kind", p, choices=ATTACK_KINDS)
        r.text(attack, "weapon", p)
        r.need(isinstance(attack["result"], str) and _RESULT.fullmatch(attack["result"]) is not None,
               at(p, "result"), "must be 'miss', 'saved', 'destroyed' or '<n> dmg'")
        point(attack["from"], at(p, "from"))
        point(attack["to"], at(p, "to"))
