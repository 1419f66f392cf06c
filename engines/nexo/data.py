"""Loads and validates the Nexohominis data in ``data/nexo/``.

Every problem raises :class:`DataError` naming the file and the field::

    >>> rules = load_ruleset()
    >>> rules.faction.units["trooper"].weapon("rifle").range
    24.0
    >>> sorted(rules.presets)
    ['crossroads', 'dust_belt']

Files: ``faction_default.json`` (datasheets), ``terrain.json`` (types and traits),
``wia.json`` (the WIA table) and ``battlefields/*.json`` (presets).

Readings chosen here:

- A preset lists player 1's deployment; player 2's is its half-turn (house ruling 15).
- Buildings are placed axis-aligned; ``rot`` 90 swaps width and depth.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from shapely.geometry import LineString, Point, Polygon

from engines.core.datafile import read_json
from engines.core.reader import show_value
from engines.nexo import layout
from engines.nexo.datatypes import (
    Ability,
    BuildingType,
    Depot,
    Faction,
    Feature,
    Placement,
    Preset,
    Ring,
    Ruleset,
    TerrainPiece,
    TerrainType,
    UnitType,
    Weapon,
    WiaResult,
)
from engines.nexo.reader import DataError, Reader

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "nexo"
COVERS = ("light", "heavy")


def _read(path: Path) -> tuple[Reader, dict[str, Any]]:
    doc = Reader(f"battlefields/{path.name}" if path.parent.name == "battlefields" else path.name)
    raw = read_json(path, DataError, label=doc.source)
    return doc, doc.obj(raw, "")


def _weapon(d: Reader, w: Any, path: str) -> Weapon:
    w = d.obj(w, path)
    return Weapon(
        name=d.text(w, "name", path).lower(),
        title=d.text(w, "title", path),
        range=d.opt_num(w, "range", path, low=1, required=True),
        dice=d.int_(w, "dice", path, low=1),
        damage=d.int_(w, "damage", path, low=1),
        crit_damage=d.int_(w, "crit_damage", path, low=1),
        aim=d.int_(w, "aim", path, low=-6, default=0),
        powered=d.flag(w, "powered", path, default=False),
        no_cover=d.flag(w, "no_cover", path, default=False),
    )


def _unit(d: Reader, name: str, u: Any, abilities: set[str]) -> UnitType:
    p = f"units.{name}"
    u = d.obj(u, p)
    weapons = tuple(_weapon(d, w, f"{p}.weapons[{i}]") for i, w in enumerate(d.items(u, "weapons", p)))
    abil = d.items(u, "abilities", p)
    for i, a in enumerate(abil):
        if a not in abilities:
            raise d.fail(f"{p}.abilities[{i}]", f"unknown ability {show_value(a)}")
    return UnitType(
        name=name, title=d.text(u, "title", p), role=d.text(u, "role", p),
        move=d.num(u, "move", p), aim=d.int_(u, "aim", p, low=-6),
        fight=d.int_(u, "fight", p, low=-6),
        defense=d.int_(u, "defense", p, low=1), save=d.int_(u, "save", p, low=1),
        armor=d.int_(u, "armor", p), hp=d.int_(u, "hp", p, low=1),
        base_radius=d.num(u, "base_radius", p, low=0.1),
        carbonite=d.int_(u, "carbonite", p), energy=d.int_(u, "energy", p),
        powered=d.flag(u, "powered", p), weapons=weapons, abilities=tuple(abil),
    )


def _building(d: Reader, name: str, b: Any) -> BuildingType:
    p = f"buildings.{name}"
    b = d.obj(b, p)
    weapons = tuple(_weapon(d, w, f"{p}.weapons[{i}]") for i, w in enumerate(d.items(b, "weapons", p)))
    return BuildingType(
        name=name, title=d.text(b, "title", p), role=d.text(b, "role", p),
        width=d.num(b, "width", p, low=0.5), depth=d.num(b, "depth", p, low=0.5),
        hp=d.int_(b, "hp", p, low=1), defense=d.int_(b, "defense", p, low=1),
        save=d.int_(b, "save", p, low=1), armor=d.int_(b, "armor", p),
        carbonite=d.opt_int(b, "carbonite", p, required=True), value=d.int_(b, "value", p),
        energy=d.int_(b, "energy", p),
        energy_production=d.int_(b, "energy_production", p),
        build_points=d.opt_int(b, "build_points", p, low=1, required=True),
        produces=tuple(str(x) for x in d.items(b, "produces", p)),
        building_range=d.num(b, "building_range", p), weapons=weapons,
    )


def load_faction(path: Path) -> Faction:
    """Returns the faction in ``path``; raises DataError naming the file and field."""
    d, raw = _read(path)
    abilities: dict[str, Ability] = {}
    for name, a in d.obj(d.field(raw, "abilities", ""), "abilities").items():
        a = d.obj(a, f"abilities.{name}")
        params = {k: v for k, v in a.items() if k not in ("title", "action", "text")}
        abilities[name] = Ability(name, d.text(a, "title", f"abilities.{name}"),
                                  d.text(a, "action", f"abilities.{name}"),
                                  d.text(a, "text", f"abilities.{name}"), params)
    units = {n: _unit(d, n, u, set(abilities)) for n, u in d.obj(d.field(raw, "units", ""), "units").items()}
    buildings = {n: _building(d, n, b) for n, b in d.obj(d.field(raw, "buildings", ""), "buildings").items()}
    for n, b in buildings.items():
        for i, u in enumerate(b.produces):
            if u not in units:
                raise d.fail(f"buildings.{n}.produces[{i}]", f"unknown unit {show_value(u)}")
    start = d.obj(d.field(raw, "starting_force", ""), "starting_force")
    sb = tuple(str(x) for x in d.items(start, "buildings", "starting_force"))
    sm = tuple(str(x) for x in d.items(start, "models", "starting_force"))
    for i, x in enumerate(sb):
        if x not in buildings:
            raise d.fail(f"starting_force.buildings[{i}]", f"unknown building {show_value(x)}")
    for i, x in enumerate(sm):
        if x not in units:
            raise d.fail(f"starting_force.models[{i}]", f"unknown unit {show_value(x)}")
    return Faction(d.text(raw, "name", ""), d.text(raw, "title", ""), units, buildings,
                   abilities, sb, sm)


def _terrain_type(d: Reader, name: str, t: Any) -> TerrainType:
    p = f"types.{name}"
    t = d.obj(t, p)
    return TerrainType(
        name=name, title=d.text(t, "title", p),
        shape=d.text(t, "shape", p, choices=("area", "line")),
        obscuring=d.flag(t, "obscuring", p), blocks_sight=d.flag(t, "blocks_sight", p),
        cover_inside=d.opt_text(t, "cover_inside", p, choices=COVERS, required=True),
        cover_crossed=d.opt_text(t, "cover_crossed", p, choices=COVERS, required=True),
        difficult=d.flag(t, "difficult", p), impassable=d.flag(t, "impassable", p),
        no_stopping=d.flag(t, "no_stopping", p, default=False),
        height=d.num(t, "height", p),
    )


def parse_piece(d: Reader, p: str, t: Any, types: dict[str, TerrainType]) -> TerrainPiece:
    """Returns the terrain piece ``t`` found at path ``p``; raises DataError."""
    t = d.obj(t, p)
    kind = d.text(t, "type", p)
    if kind not in types:
        raise d.fail(f"{p}.type", f"unknown terrain type {show_value(kind)} (known: {', '.join(sorted(types))})")
    ttype = types[kind]
    poly: Ring = ()
    line: Ring = ()
    if ttype.shape == "line":
        line = d.ring(d.field(t, "line", p), f"{p}.line", closed=False)
    else:
        poly = d.ring(d.field(t, "poly", p), f"{p}.poly", closed=True)
    features = tuple(
        Feature(d.ring(d.field(d.obj(f, f"{p}.features[{i}]"), "poly", f"{p}.features[{i}]"),
                       f"{p}.features[{i}].poly", closed=True),
                d.text(f, "cover", f"{p}.features[{i}]", choices=COVERS))
        for i, f in enumerate(d.items(t, "features", p, default=[]))
    )
    return TerrainPiece(
        id=d.text(t, "id", p), type=kind, poly=poly, line=line,
        width=d.num(t, "width", p, default=0.0),
        cover=d.opt_text(t, "cover", p, choices=COVERS),
        blocks_sight=d.flag(t, "blocks_sight", p) if "blocks_sight" in t else None,
        height=d.num(t, "height", p) if "height" in t else None, features=features,
    )


def piece_shape(piece: TerrainPiece, default_width: float) -> Polygon:
    """Returns the footprint of a piece: its polygon, or its line widened (default 0.25")."""
    if piece.line:
        return LineString(piece.line).buffer((piece.width or default_width) / 2, cap_style="flat")
    return Polygon(piece.poly)


def building_shape(btype: BuildingType, x: float, y: float, rot: int = 0) -> Polygon:
    """Returns the axis-aligned footprint of a building centred on ``(x, y)``."""
    w, h = (btype.depth, btype.width) if rot % 180 == 90 else (btype.width, btype.depth)
    return Polygon([(x - w / 2, y - h / 2), (x + w / 2, y - h / 2), (x + w / 2, y + h / 2),
                    (x - w / 2, y + h / 2)])


def load_preset(path: Path, faction: Faction, types: dict[str, TerrainType],
                barricade_width: float) -> Preset:
    """Returns the preset in ``path``, checked against core §4; raises DataError."""
    d, raw = _read(path)
    width = d.num(raw, "width", "", low=1)
    length = d.num(raw, "length", "", low=1)
    zone = d.num(raw, "zone", "", low=1)
    depots = tuple(
        Depot(d.text(d.obj(o, f"depots[{i}]"), "id", f"depots[{i}]"),
              d.num(o, "x", f"depots[{i}]"), d.num(o, "y", f"depots[{i}]"))
        for i, o in enumerate(d.items(raw, "depots", "")))
    terrain = tuple(parse_piece(d, f"terrain[{i}]", t, types)
                    for i, t in enumerate(d.items(raw, "terrain", "")))
    ids = [p.id for p in terrain] + [k.id for k in depots]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise d.fail("terrain", f"the id {show_value(dup[0])} is used twice")
    shapes = [(f"terrain[{i}] ({p.id})", piece_shape(p, barricade_width)) for i, p in enumerate(terrain)]
    problems = layout.on_battlefield_problems(shapes, width=width, length=length)
    if problems:
        raise d.fail("terrain", problems[0])
    impassable = [s for (_, s), p in zip(shapes, terrain, strict=True) if types[p.type].impassable]
    problems = layout.depot_problems([(k.x, k.y) for k in depots], width=width, length=length,
                                     zone=zone, impassable=impassable)
    if problems:
        raise d.fail("depots", problems[0])
    deploy = d.obj(d.field(raw, "deploy", ""), "deploy")
    placed: list[Placement] = []
    for key, table in (("buildings", faction.buildings), ("models", faction.units)):
        for i, o in enumerate(d.items(deploy, key, "deploy")):
            p = f"deploy.{key}[{i}]"
            o = d.obj(o, p)
            kind = d.text(o, "type", p)
            if kind not in table:
                raise d.fail(f"{p}.type", f"unknown {key[:-1]} type {show_value(kind)}")
            pl = Placement(kind, d.num(o, "x", p), d.num(o, "y", p),
                           d.int_(o, "rot", p, default=0))
            if key == "buildings":
                shape = building_shape(faction.buildings[kind], pl.x, pl.y, pl.rot)
            else:
                r = faction.units[kind].base_radius
                shape = Point(pl.x, pl.y).buffer(r)
            if not layout.in_zone(shape.bounds[1], shape.bounds[3], zone=zone):
                raise d.fail(p, f"({pl.x:g}, {pl.y:g}) is outside player 1's deployment zone (y ≤ {zone:g})")
            placed.append(pl)
    return Preset(
        name=path.stem, title=d.text(raw, "title", ""), width=width, length=length, zone=zone,
        depots=depots, terrain=terrain,
        buildings=tuple(p for p in placed if p.type in faction.buildings),
        models=tuple(p for p in placed if p.type in faction.units),
    )


def load_wia(path: Path) -> dict[int, WiaResult]:
    """Returns the WIA table (rolls 1–6); raises DataError."""
    d, raw = _read(path)
    table = d.obj(d.field(raw, "table", ""), "table")
    out: dict[int, WiaResult] = {}
    for roll in range(1, 7):
        p = f"table.{roll}"
        e = d.obj(d.field(table, str(roll), "table"), p)
        out[roll] = WiaResult(
            roll, d.text(e, "name", p), d.text(e, "title", p), d.text(e, "text", p),
            aim=d.int_(e, "aim", p, low=-6, default=0),
            fight=d.int_(e, "fight", p, low=-6, default=0),
            move=d.num(e, "move", p, low=-12, default=0.0),
            lasts=d.opt_text(e, "lasts", p, choices=("next_round", "game")),
        )
    return out


def load_ruleset(root: Path | None = None) -> Ruleset:
    """Returns every table under ``root`` (default ``data/nexo``); raises DataError."""
    root = root or DATA_DIR
    faction = load_faction(root / "faction_default.json")
    d, raw = _read(root / "terrain.json")
    types = {n: _terrain_type(d, n, t) for n, t in d.obj(d.field(raw, "types", ""), "types").items()}
    bw = d.num(raw, "barricade_width", "", low=0.01)
    files = sorted((root / "battlefields").glob("*.json"))
    presets = {p.stem: load_preset(p, faction, types, bw) for p in files}
    if not presets:
        raise DataError("battlefields/: no preset files")
    return Ruleset(
        faction=faction, terrain_types=types, barricade_width=bw,
        elevation_ignores_light=d.num(raw, "elevation_ignores_light", ""),
        cover_reach=d.num(raw, "cover_reach", ""),
        wia=load_wia(root / "wia.json"), presets=presets,
    )


@cache
def default_ruleset() -> Ruleset:
    """Returns the shipped ruleset, loaded once per process."""
    return load_ruleset()
