"""Activations in the Worker and Action Phases (core §8, §9, §11, house rulings 3 and 6).

The first order naming an eligible piece starts its activation; only that piece acts until
``done`` or until nothing is left to it (both actions used; a worker's ability used).

Readings chosen here:

- ``done <unit>`` on an eligible piece that has not started is its whole (empty) activation.
- A worker's move may be followed by its one ability; the ability ends the activation, so
  a worker cannot move after it (core §8.1 lists move, then ability).
- Entering Overwatch needs a ranged weapon; Overwatch cannot follow a Dash and a Dash cannot
  follow a Shoot or Overwatch (ruling 3: "in either order").
- Repair needs a damaged standing building of one's own and the Carbonite; Build needs an own
  site under construction that still lacks Build Points.
"""

from __future__ import annotations

from shapely.geometry import Point

from engines.core.errors import IllegalMove, shown
from engines.core.events import Event, event
from engines.core.rng import Rng
from engines.core.words import did_you_mean
from engines.nexo.attacks import attack_problem, overwatch_reactions, pick_weapon, resolve, weapons_of
from engines.nexo.geometry import EPS, check_move, edge_distance, plan_move
from engines.nexo.layout import DEPOT_RADIUS
from engines.nexo.moves import Ability, Attack, Go, Unary
from engines.nexo.state import Building, LastMove, Model
from engines.nexo.world import World

DASH = 3.0
"""Core §9.3: a Dash moves up to 3 extra inches."""

Order = Go | Attack | Unary | Ability


def why_not_eligible(w: World, piece: Model | Building, phase: str) -> str:
    """Says why ``piece`` cannot activate in ``phase`` now, and when it can (ruling 4)."""
    if piece.activated:
        return "has already activated in this phase; it can activate again next round"
    if isinstance(piece, Building):
        bt = w.faction.buildings[piece.type]
        if not bt.weapons:
            return f"cannot activate: a {bt.title} never does (only defensive buildings, in the Action Phase)"
        if phase != "action":
            return "cannot activate in this phase: defensive buildings activate in the Action Phase"
        if not w.intact(piece):
            return ("cannot activate: it is not functional (unfinished, or below half HP); it can once it is "
                    "complete and at half HP or more")
        return "cannot activate in Blackout (core §7.4): it can once your Blackout ends"
    if piece.fresh:
        return "cannot activate this round: it was produced this round and can activate from the next (core §13.1)"
    if w.unit_type(piece).is_worker and phase != "worker":
        return "cannot activate in this phase: workers activate only in the Worker Phase"
    if not w.unit_type(piece).is_worker and phase != "action":
        return "cannot activate in this phase: it activates in the Action Phase"
    return "cannot activate now: it is Pinned and skips its next activation (WIA)"


def begin(w: World, seat: str, pid: str, phase: str) -> list[Event]:
    """Starts the activation of ``pid`` unless it is already active; raises IllegalMove."""
    s = w.state
    if s.active is not None:
        if s.active != pid:
            raise IllegalMove(f"{s.active} is activating: give it orders or 'done {s.active}' first.")
        return []
    piece = w.piece(pid)
    if piece.owner != seat:
        raise IllegalMove(f"{pid} is not yours.")
    if piece not in w.eligible(seat, phase):
        raise IllegalMove(f"{pid} {why_not_eligible(w, piece, phase)}.")
    s.active, piece.activated, piece.overwatch = pid, True, False
    return [event("activate", f"{pid} activates.", unit=pid, phase=phase)]


def finish(w: World) -> list[Event]:
    """Ends the current activation."""
    pid, w.state.active = w.state.active, None
    return [event("done", f"{pid} is done.", unit=pid)] if pid else []


def spent(w: World, piece: Model | Building) -> bool:
    """True when the active piece has nothing left to do (its activation ends by itself)."""
    if isinstance(piece, Building):
        return piece.attacked
    if w.unit_type(piece).is_worker:
        return piece.attacked
    return piece.moved and piece.attacked


def play_order(w: World, rng: Rng, seat: str, order: Order, phase: str) -> list[Event]:
    """Applies one activation order of ``seat``; raises IllegalMove."""
    pid = w.resolve(order.unit)
    if order.verb == "done" and isinstance(order, Unary):
        events = begin(w, seat, pid, phase)
        return events + finish(w)
    events = begin(w, seat, pid, phase)
    piece = w.piece(pid)
    if isinstance(order, Go):
        events += _go(w, rng, piece, order)
    elif isinstance(order, Attack):
        events += _attack(w, rng, piece, order)
    elif isinstance(order, Ability):
        events += _ability(w, piece, order)
    elif order.verb == "overwatch":
        events += _overwatch(w, piece)
    else:
        raise IllegalMove(f"'{order}' is not an activation order.")
    gone = pid not in w.state.models and pid not in w.state.buildings
    if w.state.active is not None and (gone or spent(w, w.piece(pid))):
        events += finish(w)
    return events


def allowance(w: World, m: Model, *, dash: bool = False) -> float:
    """Returns how far ``m`` may move now: its Move with WIA effects (core §12), plus 3" for a Dash."""
    eff = w.wia(m)
    return max(0.0, w.unit_type(m).move + (eff.move if eff else 0.0)) + (DASH if dash else 0.0)


def move_problem(w: World, piece: Model | Building, *, dash: bool) -> str | None:
    """Returns why ``piece`` cannot take a Movement Action (a Dash when ``dash``) now, or None.

    Eligibility is :func:`begin`'s: this only looks at what the piece has done.
    """
    if not isinstance(piece, Model):
        return f"{piece.id} is a building and cannot move"
    ut = w.unit_type(piece)
    if piece.moved:
        return f"{piece.id} has already used its Movement Action"
    if dash and piece.shot:
        return f"{piece.id} has shot or entered Overwatch and cannot Dash (core §16.5)"
    if ut.is_worker and dash:
        return f"{piece.id} is a worker: workers do not Dash"
    if ut.is_worker and piece.attacked:
        return f"{piece.id} has used its ability and cannot move any more"
    return None


def _go(w: World, rng: Rng, piece: Model | Building, order: Go) -> list[Event]:
    dash = order.verb == "dash"
    problem = move_problem(w, piece, dash=dash)
    if problem:
        raise IllegalMove(problem + ".")
    assert isinstance(piece, Model)
    ut = w.unit_type(piece)
    plan = plan_move(w.terrain, w.body(piece), order.path, w.bodies(),
                     pathfinder="pathfinder" in ut.abilities)
    check_move(plan, allowance(w, piece, dash=dash), piece.id)
    piece.x, piece.y = plan.end
    piece.moved, piece.dashed = True, dash
    w.state.last_move = LastMove(piece.id, list(plan.path))
    verb = "dashes" if dash else "moves"
    events = [event(order.verb, f"{piece.id} {verb} {plan.length:.1f}\" to ({piece.x:g}, {piece.y:g}).",
                    unit=piece.id, x=piece.x, y=piece.y)]
    return events + overwatch_reactions(w, rng, piece)


def _attack(w: World, rng: Rng, piece: Model | Building, order: Attack) -> list[Event]:
    if piece.attacked:
        raise IllegalMove(f"{piece.id} has already used its Attack Action.")
    if isinstance(piece, Model) and w.unit_type(piece).is_worker:
        raise IllegalMove(f"{piece.id} is a worker and does not attack.")
    if order.verb == "shoot" and isinstance(piece, Model) and piece.dashed:
        raise IllegalMove(f"{piece.id} has Dashed and cannot Shoot (core §9.3).")
    wp = pick_weapon(w, piece, order.verb, order.weapon)
    if wp is None:
        kind = "ranged" if order.verb == "shoot" else "melee"
        named = f" called '{shown(order.weapon, 20)}'" if order.weapon else ""
        near = did_you_mean(order.weapon, [wp.name for wp in weapons_of(w, piece)
                                           if wp.melee == (order.verb == "fight")]) if order.weapon else ""
        raise IllegalMove(f"{piece.id} has no {kind} weapon{named}{near or '.'}")
    target = w.piece(w.resolve(order.target))
    problem = attack_problem(w, piece, target, wp)
    if problem:
        raise IllegalMove(f"{piece.id} cannot {order.verb} {target.id}: {problem}.")
    piece.attacked = True
    if isinstance(piece, Model):
        piece.shot = order.verb == "shoot"
    return resolve(w, rng, piece, target, wp, order.verb)


def _overwatch(w: World, piece: Model | Building) -> list[Event]:
    if piece.attacked:
        raise IllegalMove(f"{piece.id} has already used its Attack Action.")
    if isinstance(piece, Model) and piece.dashed:
        raise IllegalMove(f"{piece.id} has Dashed and cannot enter Overwatch (core §11).")
    if pick_weapon(w, piece, "shoot", None) is None:
        raise IllegalMove(f"{piece.id} has no ranged weapon for Overwatch.")
    piece.attacked, piece.overwatch = True, True
    if isinstance(piece, Model):
        piece.shot = True
    return [event("overwatch_on", f"{piece.id} enters Overwatch.", unit=piece.id)]


def _ability(w: World, piece: Model | Building, order: Ability) -> list[Event]:
    if not isinstance(piece, Model) or order.verb not in w.unit_type(piece).abilities:
        raise IllegalMove(f"{piece.id} has no {order.verb} ability.")
    if piece.attacked:
        raise IllegalMove(f"{piece.id} has already used its ability this activation.")
    params = w.faction.abilities[order.verb].params
    reach = float(params.get("reach", 1))
    s, body = w.state, w.body(piece)
    if order.verb == "harvest":
        depot = next((d for d in s.depots if d.id == order.target), None)
        if depot is None:
            near = did_you_mean(order.target, [d.id for d in s.depots])
            raise IllegalMove(f"There is no Carbonite depot '{shown(order.target, 20)}'{near or '.'}")
        if edge_distance(body, Point(depot.x, depot.y).buffer(DEPOT_RADIUS)) > reach + EPS:
            raise IllegalMove(f"{piece.id} is not within {reach:g}\" of depot {depot.id}.")
        key = f"{piece.owner}:{depot.id}"
        if s.harvests.get(key, 0) >= int(params.get("per_depot", 2)):
            raise IllegalMove(f"Two of your workers have already harvested {depot.id} this phase "
                              "(core §8.2).")
        gain = int(params.get("carbonite_gain", 50))
        s.harvests[key] = s.harvests.get(key, 0) + 1
        s.sides[piece.owner].carbonite += gain
        piece.attacked = True
        return [event("harvest", f"{piece.id} harvests {gain} Carbonite at {depot.id}.", unit=piece.id,
                      depot=depot.id, carbonite=gain)]
    b = s.buildings.get(order.target)
    if b is None or b.owner != piece.owner or b.wreck:
        raise IllegalMove(f"'{order.target}' is not one of your standing buildings.")
    if order.verb == "build" and b.complete:
        raise IllegalMove(f"{b.id} is complete: it needs no building.")
    if edge_distance(body, w.body(b)) > reach + EPS:
        raise IllegalMove(f"{piece.id} is not within {reach:g}\" of {b.id}.")
    bt = w.faction.buildings[b.type]
    piece.attacked = True
    if order.verb == "build":
        need = bt.build_points or 0
        if b.complete or b.build_points >= need:
            raise IllegalMove(f"{b.id} needs no more Build Points.")
        b.build_points = min(need, b.build_points + int(params.get("build_points", 2)))
        s.progress = True
        return [event("build", f"{piece.id} builds {b.id}: {b.build_points}/{need} Build Points.",
                      unit=piece.id, building=b.id, build_points=b.build_points)]
    cost = int(params.get("carbonite_cost", 10))
    if b.hp >= bt.hp:
        raise IllegalMove(f"{b.id} is not damaged.")
    if s.sides[piece.owner].carbonite < cost:
        raise IllegalMove(f"Repair costs {cost} Carbonite and you have {s.sides[piece.owner].carbonite}.")
    s.sides[piece.owner].carbonite -= cost
    b.hp = min(bt.hp, b.hp + int(params.get("hp", 3)))
    return [event("repair", f"{piece.id} repairs {b.id} to {b.hp} HP for {cost} Carbonite.",
                  unit=piece.id, building=b.id, hp=b.hp)]
