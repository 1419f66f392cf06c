"""The battlefield as the rules see it: a state with its datasheets and indexed terrain.

:class:`World` answers the questions every rule asks — which bodies stand where, who may
activate, which buildings function, who is eliminated — from the live state, so nothing
derived is ever stored::

    >>> from engines.nexo.data import default_ruleset
    >>> from engines.nexo.scenario import load_scenario
    >>> w = World(load_scenario(None, default_ruleset(), seed=1), default_ruleset())
    >>> w.resolve("A1"), w.resolve("a1"), [m.id for m in w.eligible("p1", "worker")]
    ('A1', 'a1', ['a1', 'a2'])

Readings chosen here:

- Ids are case-insensitive except when a unit and a building share one (``a1`` and
  ``A1``): then the case typed decides (lower case: the unit).
- A Turret is eligible in the Action Phase while it is complete, at half HP or more and its
  owner is not in Blackout (core §7.4 "defensive buildings cannot attack").
- Units produced this round (``fresh``) are not eligible (core §13.1 step 5).
"""

from __future__ import annotations

from functools import lru_cache

from engines.core.errors import IllegalMove, shown
from engines.core.words import did_you_mean
from engines.nexo import economy
from engines.nexo.datatypes import BuildingType, Ruleset, UnitType, WiaResult
from engines.nexo.geometry import Body, building_body, model_body
from engines.nexo.scenario import field_of
from engines.nexo.state import Building, Model, State
from engines.nexo.terrain import Terrain

LETTERS = {"p1": "a", "p2": "b"}
"""Id prefixes of each seat's pieces: units lower case, buildings upper case."""


@lru_cache(maxsize=4096)
def _model_body(id: str, x: float, y: float, radius: float) -> Body:
    return model_body(id, x, y, radius)


@lru_cache(maxsize=1024)
def _building_body(id: str, bt: BuildingType, x: float, y: float, rot: int, wreck: bool) -> Body:
    return building_body(id, bt, x, y, rot, wreck=wreck)


class World:
    """A state seen through its rules: bodies, eligibility, function and victory."""

    def __init__(self, state: State, rules: Ruleset, terrain: Terrain | None = None,
                 names: dict[str, str] | None = None) -> None:
        self.state = state
        self.names = names or {seat: seat for seat in ("p1", "p2")}
        self.rules = rules
        self.faction = rules.faction
        self.terrain = terrain or Terrain(field_of(state), rules)

    # -- pieces -------------------------------------------------------------------------

    def unit_type(self, m: Model) -> UnitType:
        """Returns a model's datasheet."""
        return self.faction.units[m.type]

    def resolve(self, name: str) -> str:
        """Returns the id of the model or building ``name`` names; raises IllegalMove."""
        s = self.state
        if name in s.models or name in s.buildings:
            return name
        low = name.lower()
        units = [i for i in s.models if i.lower() == low]
        builds = [i for i in s.buildings if i.lower() == low]
        if units and (not builds or name.islower()):
            return units[0]
        if builds:
            return builds[0]
        near = did_you_mean(name, [*s.models, *s.buildings])
        raise IllegalMove(f"There is no unit or building '{shown(name, 20)}'{near or '.'}")

    def model(self, name: str) -> Model:
        """Returns the model ``name``; raises IllegalMove when there is none."""
        mid = self.resolve(name)
        if mid not in self.state.models:
            raise IllegalMove(f"{mid} is a building, not a unit.")
        return self.state.models[mid]

    def wia(self, m: Model) -> WiaResult | None:
        """Returns the WIA effect a model suffers now, or None."""
        return next((w for w in self.rules.wia.values() if w.name == m.wia), None)

    def body(self, piece: Model | Building) -> Body:
        """Returns the footprint of a model or building (cached: bodies are immutable)."""
        if isinstance(piece, Model):
            return _model_body(piece.id, piece.x, piece.y, self.unit_type(piece).base_radius)
        bt = self.faction.buildings[piece.type]
        return _building_body(piece.id, bt, piece.x, piece.y, piece.rot, piece.wreck)

    def bodies(self) -> list[Body]:
        """Returns every body on the battlefield: models, buildings and wreckage."""
        return ([self.body(b) for b in self.state.buildings.values()]
                + [self.body(m) for m in self.state.models.values()])

    def enemy_bodies(self, seat: str) -> list[Body]:
        """Returns the bodies of the opponent's models and standing buildings.

        These are what "enemy engagement range" is measured to (house ruling 7) for every
        placement, sites (core §5.15) and produced units (core §13.3) alike: buildings are
        models too (core §5.14); wreckage is not.
        """
        return ([self.body(m) for m in self.state.models.values() if m.owner != seat]
                + [self.body(b) for b in self.state.buildings.values() if b.owner != seat and not b.wreck])

    def new_id(self, seat: str, *, building: bool) -> str:
        """Returns a fresh id for a seat's new unit or building (never reused)."""
        s, side = self.state, self.state.sides[seat]
        letter = LETTERS[seat].upper() if building else LETTERS[seat]
        used = [*s.models, *s.buildings, *(r.id for side in s.sides.values() for r in side.reserve)]
        nums = [int(i[1:]) for i in used if i[:1] == letter and i[1:].isdigit()]
        side.issued = max([side.issued, *nums]) + 1
        return f"{letter}{side.issued}"

    # -- function -----------------------------------------------------------------------

    def blackout(self, seat: str) -> bool:
        """True while the player is in Blackout (core §7.4)."""
        return economy.blackout(self.state, seat, self.faction)

    def intact(self, b: Building) -> bool:
        """True for a complete building at half HP or more (core §7.6)."""
        return economy.intact(b, self.faction)

    def turret_ready(self, b: Building) -> bool:
        """True when a defensive building may attack now (core §7.4, §14.3)."""
        bt = self.faction.buildings[b.type]
        return bool(bt.weapons) and self.intact(b) and not self.blackout(b.owner)

    # -- eligibility --------------------------------------------------------------------

    def eligible(self, seat: str, phase: str) -> list[Model | Building]:
        """Returns the pieces of ``seat`` that may still activate in the Worker or Action Phase."""
        out: list[Model | Building] = []
        for m in self.state.models.values():
            if (m.owner == seat and not m.activated and not m.fresh and m.wia != "pinned"
                    and self.unit_type(m).is_worker == (phase == "worker")):
                out.append(m)
        if phase == "action":
            out += [b for b in self.state.buildings.values()
                    if b.owner == seat and not b.activated and self.turret_ready(b)]
        return out

    def piece(self, pid: str) -> Model | Building:
        """Returns the model or building with id ``pid``."""
        return self.state.models.get(pid) or self.state.buildings[pid]

    # -- victory ------------------------------------------------------------------------

    def survivors(self, seat: str) -> int:
        """Returns how many units (reserve included) and standing buildings a player has."""
        s = self.state
        return (sum(m.owner == seat for m in s.models.values()) + len(s.sides[seat].reserve)
                + sum(b.owner == seat and not b.wreck for b in s.buildings.values()))

    def worth(self, seat: str) -> int:
        """Returns the value of a player's survivors (house "Victory", option round_limit)."""
        s, f = self.state, self.faction
        return (sum(f.units[m.type].carbonite for m in s.models.values() if m.owner == seat)
                + sum(f.units[r.type].carbonite for r in s.sides[seat].reserve)
                + sum(f.buildings[b.type].value for b in s.buildings.values()
                      if b.owner == seat and not b.wreck))
