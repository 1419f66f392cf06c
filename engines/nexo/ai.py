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

Levels:

- ``easy``: a uniform choice among the legal orders that are not absurd: never ``concede``
  or ``scrap``, never an attack on one's own pieces (only allowed in Blackout), never an
  order that would leave the bot in Blackout, never ``done`` for a piece that could still
  do something else, never a Pass.
- ``normal``: the heuristic below, with a smaller search: about 120 squares weighed per
  decision over at most 4 units, the best 5 spots weighed for Overwatch.
- ``hard``: the same heuristic searching deeper: about 200 squares per decision over the 6
  most urgent units, 12 spots for Overwatch, then the squares next to the best spots.
  Sight from all those spots to every enemy is answered in bulk (``ai_eval.prime_sight``).

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

from engines.core.ai import LEVELS
from engines.nexo.ai_economy import production_move, worker_move
from engines.nexo.ai_eval import Ctx
from engines.nexo.ai_tactics import action_move
from engines.nexo.ai_world import game_from_view
from engines.nexo.data import default_ruleset
from engines.nexo.moves import Construct, Produce, parse_move
from engines.nexo.state import Phase

JSON = dict[str, Any]


def choose(view: JSON, legal: list[str], seat: str, level: str, rng: random.Random, *,
           deadline: float = math.inf) -> str:
    """Returns the bot's order for player ``seat`` (see the module's levels)."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    if not legal:
        raise ValueError(f"{seat} has no legal move")
    options = sensible(view, legal, seat)
    if len(options) == 1:
        return options[0]
    if level == "easy":
        return rng.choice(options)
    try:
        move = decide(view, options, seat, level, rng)
    except Exception:
        move = None
    return move if move is not None else rng.choice(options)


def decide(view: JSON, legal: list[str], seat: str, level: str, rng: random.Random) -> str | None:
    """Returns the ``normal``/``hard`` heuristic's order, or None when it has none (raises on a bug)."""
    phase = Phase(view["phase"])
    if phase == Phase.INITIATIVE:
        return "first me" if "first me" in legal else None
    ctx = Ctx(view, seat, level, rng, legal)
    if phase == Phase.WORKER:
        move = worker_move(ctx)
    elif phase == Phase.ACTION:
        move = action_move(ctx)
    elif phase == Phase.PRODUCTION:
        move = production_move(ctx)
    else:
        return None
    if move is None:
        return None
    if move in ctx.legal_set:
        return move
    return move if accepted(view, seat, move, rng) else None


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
