"""The Nexohominis tables as frozen values: datasheets, terrain, depots, presets, WIA.

They are built by :mod:`engines.nexo.data` from the files in ``data/nexo/`` and never
change during a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Point2 = tuple[float, float]
Ring = tuple[Point2, ...]


@dataclass(frozen=True)
class Weapon:
    """A weapon line of a datasheet (core §2.2); ``range`` None marks a melee weapon."""

    name: str
    title: str
    range: float | None
    dice: int
    damage: int
    crit_damage: int
    aim: int = 0
    powered: bool = False
    no_cover: bool = False

    @property
    def melee(self) -> bool:
        """True for a Fight weapon."""
        return self.range is None


@dataclass(frozen=True)
class UnitType:
    """A unit datasheet (core §2.3, house table)."""

    name: str
    title: str
    role: str
    move: float
    aim: int
    fight: int
    defense: int
    save: int
    armor: int
    hp: int
    base_radius: float
    carbonite: int
    energy: int
    powered: bool
    weapons: tuple[Weapon, ...]
    abilities: tuple[str, ...]

    @property
    def is_worker(self) -> bool:
        """True for a unit that activates in the Worker Phase (core §8)."""
        return self.role == "worker"

    def weapon(self, name: str) -> Weapon | None:
        """Returns the weapon called ``name`` (case-insensitive), or None."""
        return next((w for w in self.weapons if w.name == name.lower()), None)


@dataclass(frozen=True)
class BuildingType:
    """A building datasheet (core §2.4, §14, house table)."""

    name: str
    title: str
    role: str
    width: float
    depth: float
    hp: int
    defense: int
    save: int
    armor: int
    carbonite: int | None
    value: int
    energy: int
    energy_production: int
    build_points: int | None
    produces: tuple[str, ...]
    building_range: float
    weapons: tuple[Weapon, ...]


@dataclass(frozen=True)
class Ability:
    """An ability of a datasheet (core §9.5); ``params`` holds its numbers."""

    name: str
    title: str
    action: str
    text: str
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class Faction:
    """A faction file: unit and building datasheets, abilities and the starting force."""

    name: str
    title: str
    units: dict[str, UnitType] = field(hash=False)
    buildings: dict[str, BuildingType] = field(hash=False)
    abilities: dict[str, Ability] = field(hash=False)
    start_buildings: tuple[str, ...] = ()
    start_models: tuple[str, ...] = ()


@dataclass(frozen=True)
class TerrainType:
    """A terrain type and its traits (core §5.1–5.2, house terrain table)."""

    name: str
    title: str
    shape: str
    obscuring: bool
    blocks_sight: bool
    cover_inside: str | None
    cover_crossed: str | None
    difficult: bool
    impassable: bool
    no_stopping: bool
    height: float


@dataclass(frozen=True)
class Feature:
    """A physical feature inside a ruin that gives cover when the line crosses it (core §5.8)."""

    poly: Ring
    cover: str


@dataclass(frozen=True)
class TerrainPiece:
    """One terrain piece on a battlefield: an area polygon or a line with a width.

    ``cover`` and ``blocks_sight`` override the type (large pieces, core §5.10–5.11).
    """

    id: str
    type: str
    poly: Ring = ()
    line: Ring = ()
    width: float = 0.0
    cover: str | None = None
    blocks_sight: bool | None = None
    height: float | None = None
    features: tuple[Feature, ...] = ()


@dataclass(frozen=True)
class Depot:
    """A Carbonite depot: a 1" circle at ``(x, y)`` (house ruling 12)."""

    id: str
    x: float
    y: float


@dataclass(frozen=True)
class Placement:
    """A unit or building of the starting force at a position (``rot`` 0 or 90)."""

    type: str
    x: float
    y: float
    rot: int = 0


@dataclass(frozen=True)
class Preset:
    """A battlefield: size, deployment depth, depots, terrain and player 1's deployment."""

    name: str
    title: str
    width: float
    length: float
    zone: float
    depots: tuple[Depot, ...]
    terrain: tuple[TerrainPiece, ...]
    buildings: tuple[Placement, ...]
    models: tuple[Placement, ...]


@dataclass(frozen=True)
class WiaResult:
    """A line of the WIA table (core §12, house table)."""

    roll: int
    name: str
    title: str
    text: str
    aim: int = 0
    fight: int = 0
    move: float = 0.0
    lasts: str | None = None


@dataclass(frozen=True)
class Ruleset:
    """Everything loaded from ``data/nexo``."""

    faction: Faction
    terrain_types: dict[str, TerrainType] = field(hash=False)
    barricade_width: float
    elevation_ignores_light: float
    cover_reach: float
    wia: dict[int, WiaResult] = field(hash=False)
    presets: dict[str, Preset] = field(hash=False)
