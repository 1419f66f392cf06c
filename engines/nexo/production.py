"""The Production Phase: completing sites, producing units, constructing and scrapping (core §13).

Readings chosen here:

- Completion (ruling 11) happens when the Production Phase starts, for both players, before
  any order; Generators first, then the other sites with Blackout re-evaluated (core §8.3,
  §13.2: a Generator finished in Blackout ends it, so the rest may complete too — the
  result never depends on ids); then units waiting in reserve are placed (each beside any of its owner's
  functional buildings that produces its type, without using that building's production),
  the Initiative Player's first, each only while its owner has spare Energy of at least its
  Energy (checked again per unit; otherwise it keeps waiting).
- Placement (core §5.15, §13.3) is one rule for sites and produced units
  (``geometry.placement_problem``): nowhere a move may not end (a barricade included), and
  not within 1" of an enemy model or standing enemy building (``World.enemy_bodies``).
- A produced unit is placed with its base within 2" of the building's footprint, edge to
  edge. The default spot is the legal candidate (rings around the footprint) nearest the
  battlefield's centre.
- Building range (12" from an intact Headquarters or Relay, footprint to footprint) is not
  an ability: it holds in Blackout, so a blacked-out player can still start a Generator to
  recover (core §7.5).
- A Generator's site demands no Energy (ruling 2), so it has no spare-Energy check: it may
  be started in Blackout, however deep (core §7.5 "building more energy generation
  buildings"); every other site needs spare Energy of at least its demand.
- A site starts with full HP and 0 Build Points. ``scrap`` removes a unit or a building
  altogether (no wreckage), with no refund.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import shapely
from shapely.geometry import Point, Polygon
from shapely.strtree import STRtree

from engines.core.errors import IllegalMove, shown
from engines.core.events import Event, event
from engines.core.words import did_you_mean
from engines.nexo import economy
from engines.nexo.data import building_shape
from engines.nexo.datatypes import BuildingType
from engines.nexo.geometry import ENGAGEMENT, EPS, Body, base, edge_distance, placement_problem
from engines.nexo.layout import DEPOT_RADIUS
from engines.nexo.moves import Construct, Produce, fmt_pos
from engines.nexo.state import Building, Model, Reserve
from engines.nexo.world import World

PLACE_REACH = 2.0
"""Core §13.1: a produced unit is placed within 2" of its building."""


def complete_sites(w: World) -> list[Event]:
    """Completes every site with all its Build Points, unless damaged or in Blackout (ruling 11).

    Energy buildings (Generators) are completed first, then Blackout is re-evaluated live
    for each of the other sites, so a Generator completed in this phase lifts the Blackout
    for the rest whatever the ids; within each group, sites go in id order.
    """
    events: list[Event] = []
    faction = w.faction
    order = sorted(w.state.buildings.values(),
                   key=lambda b: (faction.buildings[b.type].energy_production == 0, b.id))
    for b in order:
        bt = w.faction.buildings[b.type]
        if b.complete or b.wreck or b.build_points < (bt.build_points or 0):
            continue
        if 2 * b.hp < bt.hp:
            continue
        if bt.energy_production == 0 and w.blackout(b.owner):
            continue
        b.complete = True
        events.append(event("complete", f"{b.id} ({bt.title}) is complete.", building=b.id))
    return events


def producers(w: World, seat: str, unit_type: str) -> list[Building]:
    """Returns the seat's buildings that may produce ``unit_type`` now (core §13.1, §7.4)."""
    if w.blackout(seat):
        return []
    return [b for b in w.state.buildings.values()
            if b.owner == seat and w.intact(b) and unit_type in w.faction.buildings[b.type].produces]


def spots(w: World, b: Building, radius: float) -> list[tuple[float, float]]:
    """Returns candidate centres for a base of ``radius`` within 2" of ``b``, nearest the centre first."""
    shape = w.body(b).shape
    out = []
    for d in (radius + 0.05, radius + 1.0, radius + PLACE_REACH - 0.05):
        ring = shape.buffer(d, quad_segs=4).exterior
        n = max(8, int(ring.length / 1.5))
        for k in range(n):
            p = ring.interpolate(k / n, normalized=True)
            out.append((round(p.x, 2), round(p.y, 2)))
    cx, cy = w.state.width / 2, w.state.length / 2
    return sorted(out, key=lambda p: (math.dist(p, (cx, cy)), p))


def place_problem(w: World, b: Building, seat: str, radius: float, pos: tuple[float, float]) -> str | None:
    """Returns why a produced base cannot stand at ``pos`` (core §13.3), or None."""
    shape = base(pos[0], pos[1], radius)
    if edge_distance(shape, w.body(b)) > PLACE_REACH + EPS:
        return f"it must be within 2\" of {b.id}"
    others = [o for o in w.bodies() if o.kind != "wreckage"]  # a model may stand on wreckage
    return placement_problem(w.terrain, shape, others, w.enemy_bodies(seat))


def free_spot(w: World, b: Building, seat: str, radius: float) -> tuple[float, float] | None:
    """Returns the default spot for a unit produced by ``b``, or None when there is no space."""
    return next((p for p in spots(w, b, radius) if place_problem(w, b, seat, radius, p) is None), None)


def place_reserves(w: World, seat: str) -> list[Event]:
    """Places a seat's reserve units where space has opened (core §13.3)."""
    events: list[Event] = []
    side = w.state.sides[seat]
    for r in list(side.reserve):
        radius = w.faction.units[r.type].base_radius
        if economy.spare_energy(w.state, seat, w.faction) < w.faction.units[r.type].energy:
            continue  # a powered unit comes in only when its Energy is spare (core §13.1 step 3)
        for b in producers(w, seat, r.type):
            pos = free_spot(w, b, seat, radius)
            if pos is not None:
                side.reserve.remove(r)
                w.state.models[r.id] = Model(r.id, seat, r.type, pos[0], pos[1], w.faction.units[r.type].hp,
                                             fresh=True)
                events.append(event("deploy", f"{r.id} leaves the reserve at ({fmt_pos(pos)}).", unit=r.id))
                break
    return events


def produce(w: World, seat: str, order: Produce) -> list[Event]:
    """Produces a unit at a building (core §13.1, ruling 13); raises IllegalMove."""
    s = w.state
    b = s.buildings.get(order.building)
    ut = w.faction.units.get(order.unit_type)
    if b is None or b.owner != seat:
        raise IllegalMove(f"'{order.building}' is not one of your buildings.")
    if ut is None:
        near = did_you_mean(order.unit_type, {u.title: u.name for u in w.faction.units.values()})
        raise IllegalMove(f"There is no unit type '{shown(order.unit_type, 20)}'{near or '.'}")
    bt = w.faction.buildings[b.type]
    if ut.name not in bt.produces:
        raise IllegalMove(f"A {bt.title} cannot produce a {ut.title}.")
    if not w.intact(b):
        raise IllegalMove(f"{b.id} is not functional (unfinished, or below half HP).")
    if w.blackout(seat):
        raise IllegalMove("You are in Blackout: buildings cannot produce units (core §7.4).")
    if b.id in s.produced:
        raise IllegalMove(f"{b.id} has already produced a unit this phase.")
    side = s.sides[seat]
    if side.carbonite < ut.carbonite:
        raise IllegalMove(f"A {ut.title} costs {ut.carbonite} Carbonite and you have {side.carbonite}.")
    spare = economy.spare_energy(s, seat, w.faction)
    if spare < ut.energy:
        raise IllegalMove(f"A {ut.title} needs {ut.energy} spare Energy and you have {spare}.")
    pos = order.pos
    if pos is not None:
        problem = place_problem(w, b, seat, ut.base_radius, pos)
        if problem:
            raise IllegalMove(f"{ut.title} cannot be placed at ({fmt_pos(pos)}): {problem}.")
    else:
        pos = free_spot(w, b, seat, ut.base_radius)
    side.carbonite -= ut.carbonite
    s.produced.append(b.id)
    s.progress = True
    uid = w.new_id(seat, building=False)
    if pos is None:
        side.reserve.append(Reserve(uid, ut.name))
        return [event("produce", f"{b.id} produces {ut.title} {uid}; with no space it waits in reserve.",
                      unit=uid, building=b.id, reserve=True)]
    s.models[uid] = Model(uid, seat, ut.name, pos[0], pos[1], ut.hp, fresh=True)
    return [event("produce", f"{b.id} produces {ut.title} {uid} at ({fmt_pos(pos)}).", unit=uid,
                  building=b.id, x=pos[0], y=pos[1])]


def energy_allows_site(w: World, seat: str, btype: str) -> bool:
    """True when the seat's Energy allows starting a site of ``btype`` (ruling 2, core §7.5).

    An energy building's site demands nothing, so it needs no spare Energy at all and may
    be started in Blackout (its deficit does not grow); any other site needs spare Energy
    at least its demand.
    """
    bt = w.faction.buildings[btype]
    if bt.energy_production > 0:
        return True
    return economy.spare_energy(w.state, seat, w.faction) >= bt.energy


class SiteContext:
    """What every site of one player is checked against, gathered once (ruling 11).

    ``legal_moves`` tries many sites in one position; the range sources, depots, bodies
    and enemies do not change between them, and STRtrees pick out the few bodies near a
    site. The bodies handed to :func:`placement_problem` keep their board order, so the
    answer (and the first problem named) is the same as testing every body.
    """

    def __init__(self, w: World, seat: str) -> None:
        self.sources = [(w.body(b), w.faction.buildings[b.type].building_range)
                        for b in w.state.buildings.values()
                        if b.owner == seat and w.intact(b) and w.faction.buildings[b.type].building_range > 0]
        self.depots = [Point(d.x, d.y).buffer(DEPOT_RADIUS) for d in w.state.depots]
        self.others: list[Body] = w.bodies()
        self.enemies = w.enemy_bodies(seat)
        self._depot_tree = STRtree(self.depots)
        self._other_tree = STRtree([o.shape for o in self.others])
        self._centres = np.array([(o.x, o.y) for o in self.others], dtype=float).reshape(-1, 2)
        self._enemy_tree = STRtree([e.shape for e in self.enemies])

    def problem(self, w: World, shape: Polygon) -> str | None:
        """Returns why a site with footprint ``shape`` cannot be placed, or None."""
        if not any(edge_distance(shape, body) <= reach + EPS for body, reach in self.sources):
            return "it must be within 12\" of your functional Headquarters or a Relay"
        for p in w.terrain.touching(shape):
            if shape.intersection(p.shape).area > EPS:
                return f"it would overlap terrain {p.id}"
        others = [self.others[i] for i in sorted(self._other_tree.query(shape, predicate="intersects"))]
        depots = [self.depots[i] for i in sorted(self._depot_tree.query(shape, predicate="intersects"))]
        near = self._enemy_tree.query(shape, predicate="dwithin", distance=ENGAGEMENT + 2 * EPS)
        enemies = [self.enemies[i] for i in sorted(near)]
        return placement_problem(w.terrain, shape, others, enemies, avoid=depots)


    def fits(self, w: World, shapes: list[Polygon]) -> np.ndarray:
        """Returns, for each footprint, whether :meth:`problem` would find none (vectorised).

        The footprints must be axis-aligned rectangles (every site is). The same tests as
        :meth:`problem`, in bulk, cheapest first and each only on the footprints still
        standing; impassable ground and barricades are covered by the test against all
        terrain, which a site may not overlap at all.
        """
        arr = np.array(shapes, dtype=object)
        ok = np.zeros(len(arr), dtype=bool)
        for body, reach in self.sources:
            ok |= shapely.distance(arr, body.shape) <= reach + EPS
        live = np.flatnonzero(ok)
        ok[live] = shapely.covers(w.terrain.bounds, shapely.buffer(arr[live], -EPS))
        groups = ((self._other_tree, [o.shape for o in self.others]),
                  (self._depot_tree, self.depots),
                  (w.terrain.tree, [p.shape for p in w.terrain.pieces]))
        for k, (tree, geoms) in enumerate(groups):
            live = np.flatnonzero(ok)
            if k == 2 and len(live) and len(self.enemies):  # enemies before the costlier terrain
                i, j = self._enemy_tree.query(arr[live], predicate="dwithin", distance=ENGAGEMENT + 2 * EPS)
                if len(i):
                    enemies = np.array([e.shape for e in self.enemies], dtype=object)
                    hit = shapely.distance(arr[live][i], enemies[j]) <= ENGAGEMENT + EPS
                    ok[live[i[hit]]] = False
                live = np.flatnonzero(ok)
            if not len(live) or not geoms:
                continue
            i, j = tree.query(arr[live], predicate="intersects")
            if k == 0 and len(i):
                # A body whose centre lies in the (axis-aligned) site overlaps it by far more
                # than EPS (bodies are at least 1" across): refused without the costly area.
                x0, y0, x1, y1 = shapely.bounds(arr[live][i]).T
                sure = (x0 <= self._centres[j, 0]) & (self._centres[j, 0] <= x1) \
                    & (y0 <= self._centres[j, 1]) & (self._centres[j, 1] <= y1)
                ok[live[i[sure]]] = False
                rest = ~sure & ok[live[i]]
                i, j = i[rest], j[rest]
            if len(i):
                hit = shapely.area(shapely.intersection(arr[live][i], np.array(geoms, dtype=object)[j])) > EPS
                ok[live[i[hit]]] = False
        return ok


@lru_cache(maxsize=8192)
def site_shape(bt: BuildingType, x: float, y: float, rot: int) -> Polygon:
    """Returns a site's footprint (cached: legal_moves tries the same grid every call)."""
    return building_shape(bt, x, y, rot)


def construct_problem(w: World, seat: str, btype: str, pos: tuple[float, float], rot: int,
                      ctx: SiteContext | None = None) -> str | None:
    """Returns why a site of ``btype`` cannot be placed at ``pos`` (ruling 11), or None.

    ``ctx`` may pass a :class:`SiteContext` of the same position and seat, to test many sites.
    """
    shape = site_shape(w.faction.buildings[btype], pos[0], pos[1], rot)
    return (ctx or SiteContext(w, seat)).problem(w, shape)


def construct(w: World, seat: str, order: Construct) -> list[Event]:
    """Starts a building site (core §8.3, §13.2, ruling 11); raises IllegalMove."""
    s = w.state
    bt = w.faction.buildings.get(order.building_type)
    if bt is None or bt.carbonite is None:
        near = did_you_mean(order.building_type, [b.name for b in w.faction.buildings.values()
                                                  if b.carbonite is not None])
        raise IllegalMove(f"'{shown(order.building_type, 20)}' is not a building you can construct{near or '.'}")
    side = s.sides[seat]
    if side.carbonite < bt.carbonite:
        raise IllegalMove(f"A {bt.title} costs {bt.carbonite} Carbonite and you have {side.carbonite}.")
    if not energy_allows_site(w, seat, bt.name):
        spare = economy.spare_energy(s, seat, w.faction)
        raise IllegalMove(f"A {bt.title} needs {bt.energy} spare Energy and you have {spare}.")
    problem = construct_problem(w, seat, bt.name, order.pos, order.rot)
    if problem:
        raise IllegalMove(f"A {bt.title} cannot stand at ({fmt_pos(order.pos)}): {problem}.")
    side.carbonite -= bt.carbonite
    bid = w.new_id(seat, building=True)
    s.buildings[bid] = Building(bid, seat, bt.name, order.pos[0], order.pos[1], bt.hp, order.rot, 0,
                                complete=False)
    return [event("construct", f"Construction of {bt.title} {bid} starts at ({fmt_pos(order.pos)}).",
                  building=bid, type=bt.name)]


def scrap(w: World, seat: str, name: str) -> list[Event]:
    """Removes one of the seat's units or buildings without refund (ruling 13); raises IllegalMove."""
    s = w.state
    pid = w.resolve(name)
    piece = w.piece(pid)
    if piece.owner != seat:
        raise IllegalMove(f"{pid} is not yours.")
    if isinstance(piece, Building) and piece.wreck:
        raise IllegalMove(f"{pid} is wreckage already.")
    if s.active == pid:
        s.active = None
    if isinstance(piece, Model):
        del s.models[pid]
    else:
        del s.buildings[pid]
    return [event("scrap", f"{pid} is scrapped.", unit=pid)]
