"""Scenarios: a documented dict that sets up any position (option ``scenario``).

Seat keys ``p1``/``p2`` follow seat order. Every field may be omitted::

    {"battlefield": {"preset": "crossroads"},      # or {"generate": 17}: a seeded field
     "terrain": [...],                             # replaces the battlefield's pieces
     "depots": [{"id": "K1", "x": 10, "y": 18}],   # replaces its depots
     "round": 3, "phase": "action",                # initiative|upkeep|worker|action|production
     "initiative": "p1", "first": "p2", "turn": "p1",
     "sides": {
       "p1": {"carbonite": 150,
              "models": [{"id": "a5", "type": "trooper", "x": 20, "y": 24, "hp": 3,
                          "wia": "shaken", "activated": true, "overwatch": true}],
              "reserve": [{"id": "a9", "type": "gunner"}],
              "buildings": [{"id": "A4", "type": "foundry", "x": 14, "y": 9, "rot": 90,
                             "hp": 28, "bp": 6}]},
       "p2": {...}}}

Terrain pieces use the data files' form (``id``, ``type``, ``poly`` or ``line``, optional
``width``, ``cover``, ``blocks_sight``, ``height``, ``features``). Defaults: full HP, complete
(``bp`` = the datasheet's Build Points), not activated, not in Overwatch, no WIA, Carbonite
from the option ``carbonite``. Without ``sides``, both players get the starting force of core
§4.3 where the preset deploys it (player 2: the half-turn), with ids ``a1…``/``A1…`` and
``b1…``/``B1…``.

Readings chosen here:

- A scenario may place depots freely (on the battlefield): it describes a position, not a
  fresh set-up, so core §4.4's distances are not enforced.
- A WIA effect given in a scenario counts as rolled in the scenario's round.
- A building at 0 HP is wreckage; models may stand on wreckage but on no other body.
"""

from __future__ import annotations

from typing import Any

from engines.core.reader import show_value
from engines.core.rng import Rng
from engines.nexo.battlefield import generate
from engines.nexo.data import building_shape, parse_piece, piece_shape
from engines.nexo.datatypes import Depot, Preset, Ruleset
from engines.nexo.geometry import Body, base, placement_problem
from engines.nexo.reader import DataError, Reader, at
from engines.nexo.state import SEATS, Building, Model, Phase, Reserve, Side, State
from engines.nexo.terrain import Terrain

_WIA_LASTING = ("next_round",)


def field_of(state: State) -> Preset:
    """Returns the battlefield of a state as a preset (for :class:`Terrain`)."""
    return Preset(name=state.battlefield, title=state.battlefield, width=state.width,
                  length=state.length, zone=12.0, depots=tuple(state.depots),
                  terrain=tuple(state.terrain), buildings=(), models=())


def _battlefield(r: Reader, raw: dict[str, Any], rules: Ruleset, default: str, rng: Rng) -> Preset:
    bf = r.obj(r.field(raw, "battlefield", "", {}), "battlefield")
    if "generate" in bf:
        return generate(rules, Rng.from_seed(r.int_(bf, "generate", "battlefield")))
    name = r.text(bf, "preset", "battlefield", default=default)
    if name == "random":
        return generate(rules, rng)
    if name not in rules.presets:
        known = ", ".join(sorted(rules.presets))
        raise r.fail("battlefield.preset", f"unknown preset {show_value(name)} (known: {known}, random)")
    return rules.presets[name]


def _starting_force(state: State, preset: Preset, rules: Ruleset, carbonite: int,
                    where: dict[str, str]) -> None:
    for seat, letter in zip(SEATS, "ab", strict=True):
        flip = seat != SEATS[0]
        for i, b in enumerate(preset.buildings, start=1):
            bid, bt = f"{letter.upper()}{i}", rules.faction.buildings[b.type]
            x, y = (preset.width - b.x, preset.length - b.y) if flip else (b.x, b.y)
            state.buildings[bid] = Building(bid, seat, b.type, x, y, bt.hp, b.rot, bt.build_points or 0)
            where[bid] = f"deploy.buildings[{i - 1}]"
        for i, m in enumerate(preset.models, start=1):
            mid = f"{letter}{i}"
            x, y = (preset.width - m.x, preset.length - m.y) if flip else (m.x, m.y)
            state.models[mid] = Model(mid, seat, m.type, x, y, rules.faction.units[m.type].hp)
            where[mid] = f"deploy.models[{i - 1}]"
        state.sides[seat] = Side(carbonite=carbonite)


def _side(r: Reader, state: State, seat: str, raw: dict[str, Any], rules: Ruleset, carbonite: int,
          ids: set[str], where: dict[str, str]) -> None:
    path = f"sides.{seat}"
    units, buildings = rules.faction.units, rules.faction.buildings

    def new_id(o: dict[str, Any], p: str) -> str:
        i = r.text(o, "id", p)
        if i in ids:
            raise r.fail(at(p, "id"), f"the id {show_value(i)} is used twice")
        ids.add(i)
        where[i] = p
        return i

    side = Side(carbonite=r.int_(raw, "carbonite", path, default=carbonite))
    for k, o in enumerate(r.items(raw, "models", path, default=[])):
        p = at(at(path, "models"), k)
        o = r.obj(o, p)
        mid = new_id(o, p)
        kind = r.text(o, "type", p, choices=tuple(units))
        hp = r.int_(o, "hp", p, low=1, default=units[kind].hp)
        if hp > units[kind].hp:
            raise r.fail(at(p, "hp"), f"a {kind} has at most {units[kind].hp} HP, got {hp}")
        wia = r.opt_text(o, "wia", p, choices=tuple(w.name for w in rules.wia.values()))
        lasting = any(w.name == wia and w.lasts in _WIA_LASTING for w in rules.wia.values())
        state.models[mid] = Model(
            mid, seat, kind, r.num(o, "x", p), r.num(o, "y", p), hp, wia=wia,
            wia_until=state.round + 1 if lasting else None, ever_wia=wia is not None,
            activated=r.flag(o, "activated", p, default=False),
            overwatch=r.flag(o, "overwatch", p, default=False))
    for k, o in enumerate(r.items(raw, "reserve", path, default=[])):
        p = at(at(path, "reserve"), k)
        o = r.obj(o, p)
        side.reserve.append(Reserve(new_id(o, p), r.text(o, "type", p, choices=tuple(units))))
    for k, o in enumerate(r.items(raw, "buildings", path, default=[])):
        p = at(at(path, "buildings"), k)
        o = r.obj(o, p)
        bid = new_id(o, p)
        kind = r.text(o, "type", p, choices=tuple(buildings))
        bt = buildings[kind]
        hp = r.int_(o, "hp", p, default=bt.hp)
        need = bt.build_points or 0
        bp = r.int_(o, "bp", p, default=need)
        if hp > bt.hp:
            raise r.fail(at(p, "hp"), f"a {kind} has at most {bt.hp} HP, got {hp}")
        if bp > need:
            raise r.fail(at(p, "bp"), f"a {kind} needs {need} Build Points, got {bp}")
        rot = r.int_(o, "rot", p, default=0)
        if rot not in (0, 90):
            raise r.fail(at(p, "rot"), f"must be 0 or 90, got {rot}")
        state.buildings[bid] = Building(bid, seat, kind, r.num(o, "x", p), r.num(o, "y", p), hp, rot, bp,
                                        bp >= need)
    state.sides[seat] = side


def _check_positions(r: Reader, state: State, rules: Ruleset, where: dict[str, str]) -> None:
    terrain = Terrain(field_of(state), rules)
    placed: list[Body] = []
    for b in state.buildings.values():
        shape = building_shape(rules.faction.buildings[b.type], b.x, b.y, b.rot)
        problem = placement_problem(terrain, shape, [o for o in placed if o.kind != "wreckage"], [])
        if problem and not b.wreck:
            raise r.fail(where[b.id], f"{b.id} at ({b.x:g}, {b.y:g}): {problem}")
        placed.append(Body(b.id, b.x, b.y, shape, "wreckage" if b.wreck else "building"))
    for m in state.models.values():
        radius = rules.faction.units[m.type].base_radius
        solid = [o for o in placed if o.kind != "wreckage"]
        problem = placement_problem(terrain, base(m.x, m.y, radius), solid, [])
        if problem:
            raise r.fail(where[m.id], f"{m.id} at ({m.x:g}, {m.y:g}): {problem}")
        placed.append(Body(m.id, m.x, m.y, base(m.x, m.y, radius), "model", radius))


def load_scenario(raw: Any, rules: Ruleset, *, seed: int | str, carbonite: int = 200,
                  battlefield: str = "crossroads") -> State:
    """Returns the state a scenario describes; raises DataError naming the field.

    ``seed`` starts the state's RNG (and a ``random`` battlefield); ``carbonite`` and
    ``battlefield`` are the game options used for omitted fields.
    """
    r = Reader("scenario")
    raw = r.obj(raw if raw is not None else {}, "")
    known = {"battlefield", "terrain", "depots", "round", "phase", "initiative", "first", "turn", "sides"}
    for key in raw:
        if key not in known:
            raise r.fail(key, f"unknown field (fields: {', '.join(sorted(known))})")
    rng = Rng.from_seed(seed)
    preset = _battlefield(r, raw, rules, battlefield, rng)
    state = State(round=r.int_(raw, "round", "", low=1, default=1),
                  phase=Phase(r.text(raw, "phase", "", choices=tuple(p.value for p in Phase),
                                     default=Phase.INITIATIVE.value)),
                  rng=0, battlefield=preset.name, width=preset.width, length=preset.length)
    for key in ("initiative", "first", "turn"):
        setattr(state, key, r.opt_text(raw, key, "", choices=SEATS))
    state.terrain = list(preset.terrain)
    if "terrain" in raw:
        state.terrain = [parse_piece(r, at("terrain", i), t, rules.terrain_types)
                         for i, t in enumerate(r.items(raw, "terrain", ""))]
        for i, piece in enumerate(state.terrain):
            minx, miny, maxx, maxy = piece_shape(piece, rules.barricade_width).bounds
            if minx < 0 or miny < 0 or maxx > state.width or maxy > state.length:
                raise r.fail(at("terrain", i), f"{piece.id} leaves the battlefield")
    state.depots = list(preset.depots)
    if "depots" in raw:
        state.depots = []
        for i, o in enumerate(r.items(raw, "depots", "")):
            p = at("depots", i)
            o = r.obj(o, p)
            d = Depot(r.text(o, "id", p), r.num(o, "x", p), r.num(o, "y", p))
            if not (0 <= d.x <= state.width and 0 <= d.y <= state.length):
                raise r.fail(p, f"{d.id} at ({d.x:g}, {d.y:g}) is off the battlefield")
            state.depots.append(d)
    where: dict[str, str] = {}
    if "sides" not in raw:
        _starting_force(state, preset, rules, carbonite, where)
    else:
        sides = r.obj(raw["sides"], "sides")
        for key in sides:
            if key not in SEATS:
                raise r.fail(at("sides", key), "seats are p1 and p2")
        ids = {p.id for p in state.terrain} | {d.id for d in state.depots}
        for seat in SEATS:
            _side(r, state, seat, r.obj(sides.get(seat, {}), at("sides", seat)), rules, carbonite, ids, where)
    _check_positions(r, state, rules, where)
    state.rng = rng.saved()
    return state


__all__ = ["DataError", "field_of", "load_scenario"]
