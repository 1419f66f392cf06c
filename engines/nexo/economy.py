"""Energy, Blackout and building function (core §3.2, §7, §14.3, house rulings 1–2).

Everything is recomputed from the state on demand, so Energy is always live (ruling 1).

Readings chosen here:

- Wreckage demands and produces nothing; a building under construction demands its
  Energy (a Generator demands nothing while under construction, ruling 2).
- Powered units demand their Energy while on the battlefield; units in reserve do not.
- ``functional`` in the view is the building's own condition (complete and at half HP or
  more); Blackout's bans are reported separately per player.
"""

from __future__ import annotations

from engines.nexo.datatypes import Faction
from engines.nexo.state import Building, Model, State


def intact(b: Building, faction: Faction) -> bool:
    """True when a complete building is at 50% HP or more (core §7.6, §14.3)."""
    return b.complete and not b.wreck and 2 * b.hp >= faction.buildings[b.type].hp


def energy_production(state: State, seat: str, faction: Faction) -> int:
    """Returns the Energy a player's intact buildings produce now (core §7.2)."""
    return sum(faction.buildings[b.type].energy_production
               for b in state.buildings.values() if b.owner == seat and intact(b, faction))


def demand_of(piece: Building | Model, faction: Faction) -> int:
    """Returns the Energy one building or model demands now (core §7.3)."""
    if isinstance(piece, Model):
        utype = faction.units[piece.type]
        return utype.energy if utype.powered else 0
    btype = faction.buildings[piece.type]
    if piece.wreck or (not piece.complete and btype.energy_production > 0):
        return 0  # a Generator under construction demands nothing (ruling 2)
    return btype.energy


def energy_demand(state: State, seat: str, faction: Faction) -> int:
    """Returns the Energy a player's buildings and powered units demand now (core §7.3)."""
    pieces: list[Building | Model] = [*state.buildings.values(), *state.models.values()]
    return sum(demand_of(p, faction) for p in pieces if p.owner == seat)


def blackout(state: State, seat: str, faction: Faction) -> bool:
    """True while Demand exceeds Production (core §7.4)."""
    return energy_demand(state, seat, faction) > energy_production(state, seat, faction)


def spare_energy(state: State, seat: str, faction: Faction) -> int:
    """Returns Production minus Demand (negative in Blackout)."""
    return energy_production(state, seat, faction) - energy_demand(state, seat, faction)
