"""The mutable state of a Nexohominis game, as dataclasses that round-trip through JSON.

Seats are ``p1`` and ``p2`` (seat order); the game maps them to player names. Terrain and
depots are stored in the state (a generated battlefield must survive a save)::

    >>> s = State(round=1, phase=Phase.INITIATIVE, rng=7)
    >>> State.from_json(s.to_json()) == s
    True
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from engines.core.rng import Rng
from engines.nexo.datatypes import Depot, Feature, TerrainPiece

SEATS: tuple[str, str] = ("p1", "p2")


class Phase(StrEnum):
    """The phases of a round (core §6.1), in order."""

    INITIATIVE = "initiative"
    """Core §6.2: both roll 1D6 (ties re-rolled); the winner chooses who activates first."""
    UPKEEP = "upkeep"
    """Core §7: Energy Production and Demand, buildings below 50% HP, Blackout, Bleeding."""
    WORKER = "worker"
    """Core §8: workers activate alternately, with Outnumbered Passes (core §6.4)."""
    ACTION = "action"
    """Core §9: other units and functional defensive buildings activate alternately."""
    PRODUCTION = "production"
    """Core §13: in initiative order, produce units and start buildings, then ``end``."""


def other(seat: str) -> str:
    """Returns the opposing seat."""
    return SEATS[1] if seat == SEATS[0] else SEATS[0]


@dataclass
class Model:
    """A unit on the battlefield (core §2.1)."""

    id: str
    owner: str
    type: str
    x: float
    y: float
    hp: int
    wia: str | None = None
    wia_until: int | None = None
    ever_wia: bool = False
    activated: bool = False
    overwatch: bool = False
    moved: bool = False
    dashed: bool = False
    attacked: bool = False
    shot: bool = False
    fresh: bool = False


@dataclass
class Building:
    """A building: under construction until its Build Points are complete; wreckage at 0 HP."""

    id: str
    owner: str
    type: str
    x: float
    y: float
    hp: int
    rot: int = 0
    build_points: int = 0
    complete: bool = True
    activated: bool = False
    overwatch: bool = False
    attacked: bool = False

    @property
    def wreck(self) -> bool:
        """True once destroyed: it stays as wreckage (core §10.7)."""
        return self.hp <= 0


@dataclass
class Reserve:
    """A produced unit that found no legal space yet (core §13.3)."""

    id: str
    type: str


STANDING_ORDERS = ("harvest all", "done all")
"""The orders that stand for the rest of a phase once given (see :class:`Side`)."""


@dataclass
class Side:
    """One player's bank, Passes and reserve."""

    carbonite: int = 0
    passes: int = 0
    reserve: list[Reserve] = field(default_factory=list)
    issued: int = 0
    """Ids handed out to new units and buildings so far (ids are never reused)."""
    ended: bool = False
    """True once the player has sent ``end`` in this Production Phase."""
    standing: str | None = None
    """The player's standing order this phase, ``harvest all`` or ``done all`` (house ruling 16):
    it is played for them on each of their turns until it runs out or the phase ends."""


@dataclass
class LastMove:
    """The last Movement Action played: the model and its centre's path, start point first."""

    model: str
    path: list[tuple[float, float]]

    def to_json(self) -> dict[str, Any]:
        """Returns ``{"model": id, "path": [[x, y], ...]}``."""
        return {"model": self.model, "path": [[x, y] for x, y in self.path]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> LastMove:
        """Returns the move stored by :meth:`to_json`."""
        return cls(str(d["model"]), [(float(x), float(y)) for x, y in d["path"]])


@dataclass
class LastAttack:
    """The last attack rolled (a shot, a fight or an Overwatch reaction) and its result.

    ``result`` is ``"2 dmg"``, ``"miss"`` (no hit), ``"saved"`` (hits, no damage) or
    ``"destroyed"``; ``start`` and ``end`` are where the attacker and target stood, so the
    attack can be drawn after either is gone.
    """

    attacker: str
    target: str
    kind: str
    weapon: str
    result: str
    start: tuple[float, float]
    end: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        """Returns ``{"attacker", "target", "kind", "weapon", "result", "from": [x, y], "to": [x, y]}``."""
        return {"attacker": self.attacker, "target": self.target, "kind": self.kind, "weapon": self.weapon,
                "result": self.result, "from": list(self.start), "to": list(self.end)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> LastAttack:
        """Returns the attack stored by :meth:`to_json`."""
        return cls(str(d["attacker"]), str(d["target"]), str(d["kind"]), str(d["weapon"]), str(d["result"]),
                   (float(d["from"][0]), float(d["from"][1])), (float(d["to"][0]), float(d["to"][1])))


@dataclass
class State:
    """Everything that changes during a game, the RNG included."""

    round: int
    phase: Phase
    rng: Any
    """The generator as JSON (:meth:`engines.core.rng.Rng.saved`)."""
    battlefield: str = "crossroads"
    width: float = 44.0
    length: float = 60.0
    initiative: str | None = None
    first: str | None = None
    turn: str | None = None
    initiative_rolls: list[list[int]] = field(default_factory=list)
    terrain: list[TerrainPiece] = field(default_factory=list)
    depots: list[Depot] = field(default_factory=list)
    models: dict[str, Model] = field(default_factory=dict)
    buildings: dict[str, Building] = field(default_factory=dict)
    sides: dict[str, Side] = field(default_factory=lambda: {s: Side() for s in SEATS})
    winner: str | None = None
    over: bool = False
    active: str | None = None
    """The model or building whose activation is under way (house ruling 3)."""
    harvests: dict[str, int] = field(default_factory=dict)
    """Harvests this Worker Phase, keyed ``seat:depot`` (core §8.2)."""
    produced: list[str] = field(default_factory=list)
    """Buildings that produced a unit this Production Phase (core §13.1)."""
    progress: bool = False
    """True once HP was lost, Build Points added or a unit produced this round (stall rule)."""
    quiet: int = 0
    """Rounds in a row without progress (house "Victory": 5 make a draw)."""
    result: str | None = None
    """How the game ended: elimination, concede, stall or round_limit."""
    last_move: LastMove | None = None
    """The last Movement Action this round (None once a new round begins)."""
    last_attack: LastAttack | None = None
    """The last attack this round, Overwatch reactions included (None once a new round begins)."""

    def sort(self) -> None:
        """Puts models, buildings and harvests in key order, the order a saved game comes back in.

        Everything that iterates them (events, eligibility, legal moves) then runs the same
        in a game and in its restored copy.
        """
        self.models = dict(sorted(self.models.items()))
        self.buildings = dict(sorted(self.buildings.items()))
        self.harvests = dict(sorted(self.harvests.items()))

    def to_json(self) -> dict[str, Any]:
        """Returns the state as a fresh JSON-safe dict."""
        return {
            "round": self.round, "phase": self.phase.value, "rng": self.rng, "battlefield": self.battlefield,
            "width": self.width, "length": self.length, "initiative": self.initiative, "first": self.first,
            "turn": self.turn, "initiative_rolls": [list(r) for r in self.initiative_rolls],
            "terrain": [piece_to_json(p) for p in self.terrain],
            "depots": [asdict(d) for d in self.depots],
            "models": {k: dict(vars(m)) for k, m in self.models.items()},
            "buildings": {k: dict(vars(b)) for k, b in self.buildings.items()},
            "sides": {k: {"carbonite": s.carbonite, "passes": s.passes,
                          "reserve": [dict(vars(r)) for r in s.reserve], "issued": s.issued, "ended": s.ended,
                          "standing": s.standing}
                      for k, s in self.sides.items()},
            "winner": self.winner, "over": self.over, "active": self.active, "harvests": dict(self.harvests),
            "produced": list(self.produced), "progress": self.progress, "quiet": self.quiet,
            "result": self.result,
            "last_move": self.last_move.to_json() if self.last_move else None,
            "last_attack": self.last_attack.to_json() if self.last_attack else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        """Returns the state stored by :meth:`to_json`; raises KeyError/ValueError when damaged."""
        return cls(
            round=int(data["round"]), phase=Phase(data["phase"]), rng=Rng.load(data["rng"]).saved(),
            battlefield=str(data["battlefield"]), width=float(data["width"]),
            length=float(data["length"]), initiative=data["initiative"], first=data["first"],
            turn=data["turn"], initiative_rolls=[list(r) for r in data["initiative_rolls"]],
            terrain=[piece_from_json(p) for p in data["terrain"]],
            depots=[Depot(**d) for d in data["depots"]],
            models={k: Model(**m) for k, m in data["models"].items()},
            buildings={k: Building(**b) for k, b in data["buildings"].items()},
            sides={k: Side(int(s["carbonite"]), int(s["passes"]), [Reserve(**r) for r in s["reserve"]],
                           int(s.get("issued", 0)), bool(s.get("ended", False)), s.get("standing"))
                   for k, s in data["sides"].items()},
            winner=data["winner"], over=bool(data["over"]), active=data.get("active"),
            harvests=dict(data.get("harvests", {})), produced=list(data.get("produced", [])),
            progress=bool(data.get("progress", False)), quiet=int(data.get("quiet", 0)),
            result=data.get("result"),
            last_move=LastMove.from_json(data["last_move"]) if data.get("last_move") else None,
            last_attack=LastAttack.from_json(data["last_attack"]) if data.get("last_attack") else None,
        )


def piece_to_json(p: TerrainPiece) -> dict[str, Any]:
    """Returns a terrain piece in the data files' form (only the fields it sets)."""
    out: dict[str, Any] = {"id": p.id, "type": p.type}
    if p.poly:
        out["poly"] = [list(pt) for pt in p.poly]
    if p.line:
        out["line"] = [list(pt) for pt in p.line]
    if p.width:
        out["width"] = p.width
    if p.cover is not None:
        out["cover"] = p.cover
    if p.blocks_sight is not None:
        out["blocks_sight"] = p.blocks_sight
    if p.height is not None:
        out["height"] = p.height
    if p.features:
        out["features"] = [{"poly": [list(pt) for pt in f.poly], "cover": f.cover} for f in p.features]
    return out


def piece_from_json(d: dict[str, Any]) -> TerrainPiece:
    """Returns the terrain piece stored by :func:`piece_to_json` (already validated)."""
    def ring(v: Any) -> tuple[tuple[float, float], ...]:
        return tuple((float(x), float(y)) for x, y in v or ())

    return TerrainPiece(
        id=d["id"], type=d["type"], poly=ring(d.get("poly")), line=ring(d.get("line")),
        width=float(d.get("width", 0.0)), cover=d.get("cover"), blocks_sight=d.get("blocks_sight"),
        height=d.get("height"),
        features=tuple(Feature(ring(f["poly"]), f["cover"]) for f in d.get("features", ())),
    )
