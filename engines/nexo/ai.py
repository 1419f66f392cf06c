"""The Nexohominis bots (the contract of :mod:`engines.core.ai`): ``choose(view, legal, seat, level, rng)``.

The policy sees only ``view(seat)`` and ``legal_moves(seat)``. Nexohominis has no hidden
information (``view(seat) == view(None)``), so the bot rebuilds the position from the view
(:mod:`engines.nexo.ai_world`: a :class:`~engines.nexo.state.State` made from the view's
fields, in a World and, to try a move, a private game) and asks the engine's own rule
helpers about it. It never sees the live game, its dice or its RNG::

    >>> import random
    >>> from engines.nexo.game import Nexo
    >>> g = Nexo.new(["ann", "bob"], seed=4, options={"round_limit": 2})
    >>> who = g.to_act()[0]
    >>> choose(g.view(who), g.legal_moves(who), who, "hard", random.Random(1))
    'first me'

Levels (Stockfish's "Skill Level" idea: a level is a calibrated mix, measured as a ladder by
``bench/ai.py``):

- ``hard``: the considered order, the heuristic below, every time (about 120 squares weighed
  per decision over at most 4 units, the best 5 spots for Overwatch; a deeper search, 200
  squares over 6 units, measured no stronger in the bench and slower). The search stops at
  the host's deadline and plays the best plan so far.
- ``normal``: the easy order instead on :data:`NORMAL_SLIP` of its orders.
- ``easy``: the considered order on :data:`EASY_SKILL` of its orders; otherwise the easy
  order, a uniform choice among the legal orders that are not absurd: never ``concede``
  or ``scrap``, never an attack on one's own pieces (only allowed in Blackout), never an
  order that would leave the bot in Blackout, never ``done`` for a piece that could still
  do something else, never a Pass.

A hint (``explain``) is the considered order, never a slip, with its why (:func:`explained`):
the attack's exact odds, the danger a unit stands in, the Carbonite and Energy to spend.

Any order the bot makes up rather than takes from the legal sample (a move along waypoints,
a building site, a placement) is first tried on a private copy of the position built from
the view (``ai_world.game_from_view``); one the copy refuses is never played.

The heuristic, phase by phase:

- Initiative: ``first me`` (the first activation takes the depots and the first shot).
- Worker Phase (:mod:`engines.nexo.ai_economy`): harvest with every worker that can (the
  safest depot with room, the worker with fewest choices first); the others build own
  sites on their way (a Foundry first) when that delays no harvest, repair a building
  knocked below half HP, or walk toward next round's depot, out of danger.
- Action Phase (:mod:`engines.nexo.ai_tactics`): per piece the best of shoot/fight now then
  move, move then shoot/fight, move then Overwatch, by expected worth destroyed
  (:mod:`engines.nexo.combat`'s exact law), plus closing in, minus the danger at the end
  spot (enemy Overwatch, units and turrets that can reach it; cover counts); the piece
  gaining most over standing idle goes first.
- Production Phase: spend everything (banked Carbonite counts for nothing at the round
  limit): a Foundry early, workers up to what the depots feed, then the strongest units
  the spare Energy allows, Generators when Energy is short (never Blackout), turrets for
  the depots, the rest into Generators.

Any order the heuristic cannot back falls back to the ``easy`` choice, so ``choose`` always
returns an order ``play`` accepts.
"""

from __future__ import annotations

import math
import random
from typing import Any

from engines.core.ai import LEVELS, Choice
from engines.nexo.ai_economy import production_move, worker_move
from engines.nexo.ai_eval import Ctx, best_attacks, danger
from engines.nexo.ai_tactics import action_move, overwatch_value
from engines.nexo.ai_world import game_from_view
from engines.nexo.data import default_ruleset
from engines.nexo.moves import Construct, Produce, parse_move
from engines.nexo.state import Model, Phase

JSON = dict[str, Any]


NORMAL_SLIP = 0.5
"""The share of its orders where ``normal`` gives the ``easy`` order instead of the considered one."""
EASY_SKILL = 0.2
"""The share of its orders where ``easy`` gives the considered order."""


def slip_chance(level: str) -> float:
    """Returns the chance that an order of ``level`` is the easy one (Stockfish's "Skill Level" idea).

    >>> slip_chance("hard"), slip_chance("normal"), slip_chance("easy")
    (0.0, 0.5, 0.8)
    """
    return {"hard": 0.0, "normal": NORMAL_SLIP}.get(level, 1.0 - EASY_SKILL)


def choose(view: JSON, legal: list[str], seat: str, level: str, rng: random.Random, *,
           deadline: float = math.inf, explain: bool = False) -> str | Choice:
    """Returns the bot's order for player ``seat`` (see the module's levels).

    ``explain``: the considered order (never a slip) as a :class:`Choice`, with one line of why.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    if not legal:
        raise ValueError(f"{seat} has no legal move")
    options = sensible(view, legal, seat)
    if not explain and (len(options) == 1 or rng.random() < slip_chance(level)):
        return options[0] if len(options) == 1 else rng.choice(options)
    ctx = Ctx(view, seat, rng, options, deadline)
    try:
        move = decide(ctx) if len(options) > 1 else options[0]
    except Exception:
        move = None
    move = move if move is not None else rng.choice(options)
    if not explain:
        return move
    try:
        why = explained(ctx, move)
    except Exception:
        why = ""
    return Choice(move, why)


def decide(ctx: Ctx) -> str | None:
    """Returns the considered order (the heuristic), or None when it has none (raises on a bug)."""
    if ctx.phase == Phase.INITIATIVE:
        return "first me" if "first me" in ctx.legal_set else None
    if ctx.phase == Phase.WORKER:
        move = worker_move(ctx)
    elif ctx.phase == Phase.ACTION:
        move = action_move(ctx)
    elif ctx.phase == Phase.PRODUCTION:
        move = production_move(ctx)
    else:
        return None
    if move is None:
        return None
    if move in ctx.legal_set:
        return move
    return move if accepted(ctx.view, ctx.seat_name, move, ctx.rng) else None


def explained(ctx: Ctx, move: str) -> str:
    """Returns one line on why ``move``, from what the heuristic weighs: odds, danger, Carbonite, Energy."""
    view, words = ctx.view, move.split()
    verb = words[0]
    me = view["players"][ctx.seat_name]
    pieces = {**view["models"], **view["buildings"]}

    def kind(pid: str) -> str:
        return f"{pieces[pid]['type'].replace('_', ' ')} {pid}" if pid in pieces else pid

    if verb == "first":
        return "go first: the first activation takes the depots and the first shot"
    if verb in ("shoot", "fight") and len(words) >= 3:
        shots = [sh for sh in best_attacks(ctx, ctx.w.piece(words[1])) if sh.order() == move]
        odds = f": {shots[0].kill:.0%} to destroy it, {shots[0].mean:.1f} damage expected" if shots else ""
        return f"your {kind(words[1])} {verb}s the {kind(words[2])}{odds}"
    if verb in ("move", "dash") and len(words) >= 3 and words[1] in view["models"]:
        unit = ctx.w.piece(words[1])
        assert isinstance(unit, Model)
        here = danger(ctx, unit, unit.x, unit.y, moving=False)
        foes = ctx.foe_models()
        near = min((math.dist((unit.x, unit.y), (e.x, e.y)) for e in foes), default=0.0)
        return (f"your {kind(words[1])} {'dashes' if verb == 'dash' else 'moves'} on: the nearest enemy is"
                f" {near:.0f}\" off, and {here:.1f} worth is at risk where it stands")
    if verb == "overwatch":
        unit = ctx.w.piece(words[1])
        return f"your {kind(words[1])} watches: {overwatch_value(ctx, unit):.1f} worth may come into its sights"
    if verb == "harvest":
        return f"your {kind(words[1])} harvests: Carbonite {me['carbonite']} now, more for the Production Phase"
    if verb in ("build", "repair"):
        return f"your {kind(words[1])} {'builds' if verb == 'build' else 'repairs'} while no depot has room for it"
    spare = me["energy_production"] - me["energy_demand"]
    funds = f"{me['carbonite']} Carbonite to spend and {spare} Energy spare"
    if verb == "produce" and len(words) >= 3:
        return f"{words[1]} produces a {words[2].replace('_', ' ')}: {funds}; banked Carbonite scores nothing"
    if verb == "construct" and len(words) >= 2:
        return f"start a {words[1].replace('_', ' ')} site: {funds}; banked Carbonite scores nothing"
    if verb == "end":
        return f"end the Production Phase: nothing more worth buying with {funds}"
    if verb == "done":
        return f"your {kind(words[1])} has nothing better to do than stay where it is" if len(words) > 1 \
            else "nothing better to do"
    return ""


def accepted(view: JSON, seat: str, move: str, rng: random.Random) -> bool:
    """True when a private copy of the position (built from the view) accepts ``move``."""
    g = game_from_view(view, rng.getrandbits(63))
    try:
        g.play(seat, move)
    except Exception:
        return False
    return True


def sensible(view: JSON, legal: list[str], seat: str) -> list[str]:
    """Returns the legal orders that are not absurd (see ``easy``), in their order; never empty."""
    owner = {pid: p["owner"] for pid, p in [*view["models"].items(), *view["buildings"].items()]}
    busy = {m.split()[1] for m in legal
            if len(m.split()) >= 2 and m.split()[0] not in ("done", "scrap", "concede", "pass", "end", "first")}
    out = []
    for m in legal:
        words = m.split()
        verb = words[0]
        if verb in ("concede", "scrap", "pass"):
            continue
        if verb in ("shoot", "fight") and len(words) >= 3 and owner.get(words[2]) == seat:
            continue  # an attack on one's own piece (allowed in Blackout only)
        if verb == "done" and len(words) == 2 and words[1] in busy:
            continue  # a piece that could still do something
        if verb in ("produce", "construct") and _blackout_after(view, seat, m):
            continue
        out.append(m)
    if not out:
        out = [m for m in legal if m != "concede" and not m.startswith("scrap")] or list(legal)
    return out


def _blackout_after(view: JSON, seat: str, move: str) -> bool:
    """True when a production order would put ``seat`` into Blackout (the engine refuses those too)."""
    p = view["players"][seat]
    spare = p["energy_production"] - p["energy_demand"]
    f = default_ruleset().faction
    order = parse_move(move)
    need = 0
    if isinstance(order, Produce) and order.unit_type in f.units:
        ut = f.units[order.unit_type]
        need = ut.energy if ut.powered else 0
    elif isinstance(order, Construct) and order.building_type in f.buildings:
        bt = f.buildings[order.building_type]
        need = 0 if bt.energy_production else bt.energy
    return spare >= 0 > spare - need
