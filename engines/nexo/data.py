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

import json
from functools import cache
from pathlib import Path
from typing import Any

from shapely.geometry import LineString, Point, Polygon

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

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "nexo"
COVERS = ("light", "heavy")


class DataError(ValueError):
    """A data file is missing, unreadable or has a bad field; the message names both."""


class _Doc:
    """Reads fields of one JSON file, raising DataError with ``file: path: problem``."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, path: str, problem: str) -> DataError:
        return DataError(f"{self.file}: {path}: {problem}")

    def obj(self, v: Any, path: str) -> dict[str, Any]:
        if not isinstance(v, dict):
            raise self.fail(path, "expected an object")
        return v

    def field(self, o: dict[str, Any], key: str, path: str) -> Any:
        if key not in o:
            raise self.fail(f"{path}.{key}" if path else key, "missing")
        return o[key]

    def num(self, o: dict[str, Any], key: str, path: str, *, low: float = 0.0,
            default: float | None = None, null: bool = False) -> float | None:
        if key not in o and default is not None:
            return default
        v = self.field(o, key, path)
        where = f"{path}.{key}" if path else key
        if v is None and null:
            return None
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise self.fail(where, f"expected a number, got {v!r}")
        if v < low:
            raise self.fail(where, f"must be at least {low:g}, got {v!r}")
        return float(v)

    def int_(self, o: dict[str, Any], key: str, path: str, *, low: int = 0,
             default: int | None = None, null: bool = False) -> int | None:
        if key not in o and default is not None:
            return default
        v = self.field(o, key, path)
        where = f"{path}.{key}" if path else key
        if v is None and null:
            return None
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(where, f"expected a whole number, got {v!r}")
        if v < low:
            raise self.fail(where, f"must be at least {low}, got {v!r}")
        return v

    def str_(self, o: dict[str, Any], key: str, path: str, *, choices: tuple[str, ...] = (),
             default: str | None = None, null: bool = False) -> str | None:
        if key not in o and (default is not None or null):
            return default
        v = self.field(o, key, path)
        where = f"{path}.{key}" if path else key
        if v is None and null:
            return None
        if not isinstance(v, str) or not v:
            raise self.fail(where, f"expected text, got {v!r}")
        if choices and v not in choices:
            raise self.fail(where, f"must be one of {', '.join(choices)}, got {v!r}")
        return v

    def bool_(self, o: dict[str, Any], key: str, path: str, *, default: bool | None = None) -> bool:
        if key not in o and default is not None:
            return default
        v = self.field(o, key, path)
        if not isinstance(v, bool):
            raise self.fail(f"{path}.{key}", f"expected true or false, got {v!r}")
        return v

    def list_(self, o: dict[str, Any], key: str, path: str, *, default: list[Any] | None = None) -> list[Any]:
        if key not in o and default is not None:
            return default
        v = self.field(o, key, path)
        if not isinstance(v, list):
            raise self.fail(f"{path}.{key}", "expected a list")
        return v

    def ring(self, v: Any, path: str, *, closed: bool) -> Ring:
        if not isinstance(v, list) or len(v) < (3 if closed else 2):
            raise self.fail(path, f"expected a list of at least {3 if closed else 2} [x, y] points")
        pts: list[tuple[float, float]] = []
        for i, p in enumerate(v):
            if (not isinstance(p, list) or len(p) != 2
                    or not all(isinstance(c, int | float) and not isinstance(c, bool) for c in p)):
                raise self.fail(f"{path}[{i}]", f"expected [x, y], got {p!r}")
            pts.append((float(p[0]), float(p[1])))
        if closed and not Polygon(pts).is_valid:
            raise self.fail(path, "is not a simple polygon")
        return tuple(pts)


def _read(path: Path) -> tuple[_Doc, dict[str, Any]]:
    doc = _Doc(f"battlefields/{path.name}" if path.parent.name == "battlefields" else path.name)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as err:
        raise DataError(f"{doc.file}: the file is missing") from err
    except json.JSONDecodeError as err:
        raise DataError(f"{doc.file}: line {err.lineno}: not valid JSON ({err.msg})") from err
    return doc, doc.obj(raw, "(top)")


def _weapon(d: _Doc, w: Any, path: str) -> Weapon:
    w = d.obj(w, path)
    return Weapon(
        name=str(d.str_(w, "name", path)).lower(),
        title=str(d.str_(w, "title", path)),
        range=d.num(w, "range", path, low=1, null=True),
        dice=int(d.int_(w, "dice", path, low=1) or 0),
        damage=int(d.int_(w, "damage", path, low=1) or 0),
        crit_damage=int(d.int_(w, "crit_damage", path, low=1) or 0),
        aim=int(d.int_(w, "aim", path, low=-6, default=0) or 0),
        powered=d.bool_(w, "powered", path, default=False),
        no_cover=d.bool_(w, "no_cover", path, default=False),
    )


def _unit(d: _Doc, name: str, u: Any, abilities: set[str]) -> UnitType:
    p = f"units.{name}"
    u = d.obj(u, p)
    weapons = tuple(_weapon(d, w, f"{p}.weapons[{i}]") for i, w in enumerate(d.list_(u, "weapons", p)))
    abil = d.list_(u, "abilities", p)
    for i, a in enumerate(abil):
        if a not in abilities:
            raise d.fail(f"{p}.abilities[{i}]", f"unknown ability {a!r}")
    return UnitType(
        name=name, title=str(d.str_(u, "title", p)), role=str(d.str_(u, "role", p)),
        move=float(d.num(u, "move", p) or 0), aim=int(d.int_(u, "aim", p, low=-6) or 0),
        fight=int(d.int_(u, "fight", p, low=-6) or 0),
        defense=int(d.int_(u, "defense", p, low=1) or 0), save=int(d.int_(u, "save", p, low=1) or 0),
        armor=int(d.int_(u, "armor", p) or 0), hp=int(d.int_(u, "hp", p, low=1) or 0),
        base_radius=float(d.num(u, "base_radius", p, low=0.1) or 0),
        carbonite=int(d.int_(u, "carbonite", p) or 0), energy=int(d.int_(u, "energy", p) or 0),
        powered=d.bool_(u, "powered", p), weapons=weapons, abilities=tuple(abil),
    )


def _building(d: _Doc, name: str, b: Any) -> BuildingType:
    p = f"buildings.{name}"
    b = d.obj(b, p)
    weapons = tuple(_weapon(d, w, f"{p}.weapons[{i}]") for i, w in enumerate(d.list_(b, "weapons", p)))
    return BuildingType(
        name=name, title=str(d.str_(b, "title", p)), role=str(d.str_(b, "role", p)),
        width=float(d.num(b, "width", p, low=0.5) or 0), depth=float(d.num(b, "depth", p, low=0.5) or 0),
        hp=int(d.int_(b, "hp", p, low=1) or 0), defense=int(d.int_(b, "defense", p, low=1) or 0),
        save=int(d.int_(b, "save", p, low=1) or 0), armor=int(d.int_(b, "armor", p) or 0),
        carbonite=d.int_(b, "carbonite", p, null=True), value=int(d.int_(b, "value", p) or 0),
        energy=int(d.int_(b, "energy", p) or 0),
        energy_production=int(d.int_(b, "energy_production", p) or 0),
        build_points=d.int_(b, "build_points", p, low=1, null=True),
        produces=tuple(str(x) for x in d.list_(b, "produces", p)),
        building_range=float(d.num(b, "building_range", p) or 0), weapons=weapons,
    )


def load_faction(path: Path) -> Faction:
    """Returns the faction in ``path``; raises DataError naming the file and field."""
    d, raw = _read(path)
    abilities: dict[str, Ability] = {}
    for name, a in d.obj(d.field(raw, "abilities", ""), "abilities").items():
        a = d.obj(a, f"abilities.{name}")
        params = {k: v for k, v in a.items() if k not in ("title", "action", "text")}
        abilities[name] = Ability(name, str(d.str_(a, "title", f"abilities.{name}")),
                                  str(d.str_(a, "action", f"abilities.{name}")),
                                  str(d.str_(a, "text", f"abilities.{name}")), params)
    units = {n: _unit(d, n, u, set(abilities)) for n, u in d.obj(d.field(raw, "units", ""), "units").items()}
    buildings = {n: _building(d, n, b) for n, b in d.obj(d.field(raw, "buildings", ""), "buildings").items()}
    for n, b in buildings.items():
        for i, u in enumerate(b.produces):
            if u not in units:
                raise d.fail(f"buildings.{n}.produces[{i}]", f"unknown unit {u!r}")
    start = d.obj(d.field(raw, "starting_force", ""), "starting_force")
    sb = tuple(str(x) for x in d.list_(start, "buildings", "starting_force"))
    sm = tuple(str(x) for x in d.list_(start, "models", "starting_force"))
    for i, x in enumerate(sb):
        if x not in buildings:
            raise d.fail(f"starting_force.buildings[{i}]", f"unknown building {x!r}")
    for i, x in enumerate(sm):
        if x not in units:
            raise d.fail(f"starting_force.models[{i}]", f"unknown unit {x!r}")
    return Faction(str(d.str_(raw, "name", "")), str(d.str_(raw, "title", "")), units, buildings,
                   abilities, sb, sm)


def _terrain_type(d: _Doc, name: str, t: Any) -> TerrainType:
    p = f"types.{name}"
    t = d.obj(t, p)
    return TerrainType(
        name=name, title=str(d.str_(t, "title", p)),
        shape=str(d.str_(t, "shape", p, choices=("area", "line"))),
        obscuring=d.bool_(t, "obscuring", p), blocks_sight=d.bool_(t, "blocks_sight", p),
        cover_inside=d.str_(t, "cover_inside", p, choices=COVERS, null=True),
        cover_crossed=d.str_(t, "cover_crossed", p, choices=COVERS, null=True),
        difficult=d.bool_(t, "difficult", p), impassable=d.bool_(t, "impassable", p),
        no_stopping=d.bool_(t, "no_stopping", p, default=False),
        height=float(d.num(t, "height", p) or 0),
    )


def _piece(d: _Doc, p: str, t: Any, types: dict[str, TerrainType]) -> TerrainPiece:
    t = d.obj(t, p)
    kind = str(d.str_(t, "type", p))
    if kind not in types:
        raise d.fail(f"{p}.type", f"unknown terrain type {kind!r} (known: {', '.join(sorted(types))})")
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
                str(d.str_(f, "cover", f"{p}.features[{i}]", choices=COVERS)))
        for i, f in enumerate(d.list_(t, "features", p, default=[]))
    )
    return TerrainPiece(
        id=str(d.str_(t, "id", p)), type=kind, poly=poly, line=line,
        width=float(d.num(t, "width", p, default=0.0) or 0.0),
        cover=d.str_(t, "cover", p, choices=COVERS, null=True),
        blocks_sight=d.bool_(t, "blocks_sight", p) if "blocks_sight" in t else None,
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
    width = float(d.num(raw, "width", "", low=1) or 0)
    length = float(d.num(raw, "length", "", low=1) or 0)
    zone = float(d.num(raw, "zone", "", low=1) or 0)
    depots = tuple(
        Depot(str(d.str_(d.obj(o, f"depots[{i}]"), "id", f"depots[{i}]")),
              float(d.num(o, "x", f"depots[{i}]") or 0), float(d.num(o, "y", f"depots[{i}]") or 0))
        for i, o in enumerate(d.list_(raw, "depots", "")))
    terrain = tuple(_piece(d, f"terrain[{i}]", t, types) for i, t in enumerate(d.list_(raw, "terrain", "")))
    ids = [p.id for p in terrain] + [k.id for k in depots]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise d.fail("terrain", f"the id {dup[0]!r} is used twice")
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
        for i, o in enumerate(d.list_(deploy, key, "deploy")):
            p = f"deploy.{key}[{i}]"
            o = d.obj(o, p)
            kind = str(d.str_(o, "type", p))
            if kind not in table:
                raise d.fail(f"{p}.type", f"unknown {key[:-1]} type {kind!r}")
            pl = Placement(kind, float(d.num(o, "x", p) or 0), float(d.num(o, "y", p) or 0),
                           int(d.int_(o, "rot", p, default=0) or 0))
            if key == "buildings":
                shape = building_shape(faction.buildings[kind], pl.x, pl.y, pl.rot)
            else:
                r = faction.units[kind].base_radius
                shape = Point(pl.x, pl.y).buffer(r)
            if not layout.in_zone(shape.bounds[1], shape.bounds[3], zone=zone):
                raise d.fail(p, f"({pl.x:g}, {pl.y:g}) is outside player 1's deployment zone (y ≤ {zone:g})")
            placed.append(pl)
    return Preset(
        name=path.stem, title=str(d.str_(raw, "title", "")), width=width, length=length, zone=zone,
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
            roll, str(d.str_(e, "name", p)), str(d.str_(e, "title", p)), str(d.str_(e, "text", p)),
            aim=int(d.int_(e, "aim", p, low=-6, default=0) or 0),
            fight=int(d.int_(e, "fight", p, low=-6, default=0) or 0),
            move=float(d.num(e, "move", p, low=-12, default=0.0) or 0.0),
            lasts=d.str_(e, "lasts", p, choices=("next_round", "game"), null=True),
        )
    return out


def load_ruleset(root: Path | None = None) -> Ruleset:
    """Returns every table under ``root`` (default ``data/nexo``); raises DataError."""
    root = root or DATA_DIR
    faction = load_faction(root / "faction_default.json")
    d, raw = _read(root / "terrain.json")
    types = {n: _terrain_type(d, n, t) for n, t in d.obj(d.field(raw, "types", ""), "types").items()}
    bw = float(d.num(raw, "barricade_width", "", low=0.01) or 0)
    files = sorted((root / "battlefields").glob("*.json"))
    presets = {p.stem: load_preset(p, faction, types, bw) for p in files}
    if not presets:
        raise DataError("battlefields/: no preset files")
    return Ruleset(
        faction=faction, terrain_types=types, barricade_width=bw,
        elevation_ignores_light=float(d.num(raw, "elevation_ignores_light", "") or 0),
        cover_reach=float(d.num(raw, "cover_reach", "") or 0),
        wia=load_wia(root / "wia.json"), presets=presets,
    )


@cache
def default_ruleset() -> Ruleset:
    """Returns the shipped ruleset, loaded once per process."""
    return load_ruleset()
