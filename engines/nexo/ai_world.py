"""The bots' own copy of a position, rebuilt from the public view only (see :mod:`engines.nexo.ai`).

Nexohominis hides nothing: ``view(player)`` equals ``view(None)``, and it carries every
piece, the terrain and the depots. :func:`state_from_view` turns a view into a
:class:`~engines.nexo.state.State` built directly from its dataclasses (the same fields
:meth:`State.from_json` reads); :func:`world_from_view` wraps it in a
:class:`~engines.nexo.world.World`, so the policy can ask the engine's own rule helpers
(``odds.attack_odds``, ``legal.toward_forms``, ``production.construct_problem``, sight,
cover, reach) about it; :func:`game_from_view` loads it into a private
:class:`~engines.nexo.game.Nexo` game, on which a move can be tried (``play`` on a copy)
without ever touching the live game::

    >>> from engines.nexo.game import Nexo
    >>> g = Nexo.new(["ann", "bob"], seed=4)
    >>> s = state_from_view(g.view("ann"))
    >>> s.models == g.state.models and s.buildings == g.state.buildings
    True
    >>> seats_of(g.view("ann"))
    {'ann': 'p1', 'bob': 'p2'}

Readings chosen here (what the view does not carry is filled in, never looked up):

- Seats follow the order of the view's ``players`` (seat order, ``p1`` first).
- The RNG is the bot's own draw: dice rolled on the copy are hypothetical, never the game's.
- A model's ``shot`` (it shot or went into Overwatch this phase, so it may not Dash) is
  inferred: it attacked this activation and is in Overwatch, or the latest attack is its
  shot, or it carries no melee weapon. ``ever_wia`` is taken as "WIA now, or at half HP or less".
- ``harvests`` this Worker Phase is inferred from the player's own workers that have
  activated and stand within harvesting reach of a depot (a harvest ends a worker's
  activation where it stands); for the opponent the same rule is used.
- ``produced`` this Production Phase: the nearest building producing the type of each unit
  placed this round (``fresh``) counts as having produced.
- Reserve units get made-up ids (``a_r1``…), which name nothing on the battlefield.
- The option ``round_limit`` is in the view (``view["round_limit"]``, None without a limit);
  :func:`round_limit` also reads ``view["options"]["round_limit"]``, for views made elsewhere.
"""

from __future__ import annotations

import math
from typing import Any

from engines.nexo.data import default_ruleset
from engines.nexo.datatypes import Depot, Ruleset
from engines.nexo.game import Nexo
from engines.nexo.layout import DEPOT_RADIUS
from engines.nexo.state import (
    SEATS,
    Building,
    LastAttack,
    LastMove,
    Model,
    Phase,
    Reserve,
    Side,
    State,
    piece_from_json,
)
from engines.nexo.world import World

JSON = dict[str, Any]


def seats_of(view: JSON) -> dict[str, str]:
    """Returns player name → seat (``p1``, ``p2``), in the view's seat order."""
    return {name: seat for name, seat in zip(view["players"], SEATS, strict=False)}


def round_limit(view: JSON) -> int | None:
    """Returns the game's round limit when the view carries it, else None."""
    limit = view.get("round_limit")
    if limit is None and isinstance(view.get("options"), dict):
        limit = view["options"].get("round_limit")
    return limit if isinstance(limit, int) and not isinstance(limit, bool) else None


def _infer_shot(m: JSON, mid: str, rules: Ruleset, last_attack: JSON | None) -> bool:
    if not m["attacked"]:
        return False
    if m["overwatch"]:
        return True
    if last_attack and last_attack.get("attacker") == mid:
        return last_attack.get("kind") != "fight"
    return not any(wp.melee for wp in rules.faction.units[m["type"]].weapons)


def state_from_view(view: JSON, rng_state: int = 0, rules: Ruleset | None = None) -> State:
    """Returns a State holding everything the view shows (see the module's readings)."""
    rules = rules or default_ruleset()
    f = rules.faction
    seat = seats_of(view)

    def s_of(name: str | None) -> str | None:
        return None if name is None else seat.get(name)

    last_attack = view.get("last_attack")
    models: dict[str, Model] = {}
    for mid, m in view["models"].items():
        ut = f.units[m["type"]]
        models[mid] = Model(
            id=mid, owner=seat[m["owner"]], type=m["type"], x=float(m["x"]), y=float(m["y"]), hp=int(m["hp"]),
            wia=m["wia"], wia_until=None, ever_wia=m["wia"] is not None or 2 * int(m["hp"]) <= ut.hp,
            activated=bool(m["activated"]), overwatch=bool(m["overwatch"]), moved=bool(m["moved"]),
            dashed=bool(m["dashed"]), attacked=bool(m["attacked"]),
            shot=_infer_shot(m, mid, rules, last_attack), fresh=bool(m["fresh"]))
    buildings: dict[str, Building] = {}
    for bid, b in view["buildings"].items():
        buildings[bid] = Building(
            id=bid, owner=seat[b["owner"]], type=b["type"], x=float(b["x"]), y=float(b["y"]), hp=int(b["hp"]),
            rot=int(b["rot"]), build_points=int(b["build_points"]), complete=bool(b["complete"]),
            activated=bool(b["activated"]), overwatch=bool(b["overwatch"]), attacked=False)
    sides: dict[str, Side] = {}
    for name, p in view["players"].items():
        st = seat[name]
        letter = "a" if st == SEATS[0] else "b"
        reserve = [Reserve(f"{letter}_r{i}", t) for i, t in enumerate(p["reserve"], start=1)]
        sides[st] = Side(carbonite=int(p["carbonite"]), passes=int(p["passes"]), reserve=reserve)
    phase = Phase(view["phase"])
    s = State(
        round=int(view["round"]), phase=phase, rng=rng_state, battlefield=str(view["battlefield"]),
        width=float(view["size"][0]), length=float(view["size"][1]),
        initiative=s_of(view["initiative"]), first=s_of(view["first"]), turn=s_of(view["turn"]),
        initiative_rolls=[list(r) for r in view.get("initiative_rolls", [])],
        terrain=[piece_from_json(t) for t in view["terrain"]],
        depots=[Depot(str(d["id"]), float(d["x"]), float(d["y"])) for d in view["depots"]],
        models=models, buildings=buildings, sides=sides,
        over=view.get("result") is not None, active=view.get("active"), result=view.get("result"),
        progress=True, quiet=int(view.get("quiet_rounds", 0)),
        last_move=LastMove.from_json(view["last_move"]) if view.get("last_move") else None,
        last_attack=LastAttack.from_json(last_attack) if last_attack else None,
    )
    winners = view.get("winners") or []
    s.winner = seat.get(winners[0]) if winners else None
    for st in SEATS:
        nums = [int(i[1:]) for i in [*models, *buildings] if i[1:].isdigit() and seat_letter(i) == st]
        s.sides[st].issued = max(nums, default=0)
    if phase == Phase.WORKER:
        s.harvests = _harvests(s, rules)
    if phase == Phase.PRODUCTION:
        s.produced = _produced(s, rules)
        if s.turn is not None and s.turn != s.initiative and s.initiative is not None:
            s.sides[s.initiative].ended = True
    s.sort()
    return s


def seat_letter(pid: str) -> str | None:
    """Returns the seat a default id belongs to (``a5``/``A2``: p1, ``b3``/``B1``: p2), else None."""
    c = pid[:1].lower()
    return SEATS[0] if c == "a" else SEATS[1] if c == "b" else None


def _harvests(s: State, rules: Ruleset) -> dict[str, int]:
    params = rules.faction.abilities["harvest"].params
    reach = float(params.get("reach", 1))
    out: dict[str, int] = {}
    for m in s.models.values():
        ut = rules.faction.units[m.type]
        if not ut.is_worker or not m.activated or "harvest" not in ut.abilities:
            continue
        for d in s.depots:
            if math.dist((m.x, m.y), (d.x, d.y)) - ut.base_radius - DEPOT_RADIUS <= reach + 1e-6:
                key = f"{m.owner}:{d.id}"
                out[key] = out.get(key, 0) + 1
                break
    return out


def _produced(s: State, rules: Ruleset) -> list[str]:
    f = rules.faction
    out: list[str] = []
    for m in s.models.values():
        if not m.fresh:
            continue
        makers = [b for b in s.buildings.values()
                  if b.owner == m.owner and m.type in f.buildings[b.type].produces and b.id not in out]
        if makers:
            out.append(min(makers, key=lambda b: (math.dist((b.x, b.y), (m.x, m.y)), b.id)).id)
    return out


def world_from_view(view: JSON, rng_state: int = 0) -> World:
    """Returns a World over :func:`state_from_view` (names are the view's player names)."""
    rules = default_ruleset()
    state = state_from_view(view, rng_state, rules)
    names = {st: name for name, st in seats_of(view).items()}
    return World(state, rules, None, names)


def game_from_view(view: JSON, rng_state: int = 0) -> Nexo:
    """Returns a private Nexo game in the view's position, to try moves on (never the live game)."""
    players = list(view["players"])
    options = dict(Nexo.OPTIONS)
    options["round_limit"] = round_limit(view)
    g = Nexo(players, 0, options)
    g.load_state(state_from_view(view, rng_state).to_json())
    return g
