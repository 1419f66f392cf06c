"""The round loop: Initiative, Upkeep, alternating phases, Production, round end (core §6–8, §13, §15).

Every function takes a :class:`~engines.nexo.world.World` (and the game's RNG when dice
are rolled), changes the state and returns the events it caused.

Readings chosen here:

- Upkeep runs right after ``first``: Bleeding (ruling 10: 1 HP, never below 1) and a report
  of each player in Blackout. WIA effects "until the end of the next round" expire when the
  round they name ends, after its Production Phase.
- A Pinned piece spends its next activation when its phase opens: it is marked activated
  (not eligible, so it does not count for Passes), its Overwatch ends and Pinned is over.
- After an activation or a Pass the turn goes to the opponent when they have an eligible
  piece, else stays; with no eligible piece on either side the phase ends. A player with no
  eligible piece loses their Passes (ruling 4).
- Stall (house "Victory"): a round counts as quiet when no HP was lost, no Build Point added
  and nothing produced; 5 quiet rounds in a row end the game as a draw.
- ``round_limit``: when the round of that number ends (after its Production Phase) the
  player whose surviving units and buildings are worth more wins (reserve and sites
  included, at full value); equal worth is a draw.
- Elimination is checked after every order; if both players are eliminated at once the
  game is a draw.
"""

from __future__ import annotations

from engines.core.dice import roll
from engines.core.events import Event, event
from engines.core.rng import Rng
from engines.core.words import plural
from engines.nexo import production
from engines.nexo.state import SEATS, Building, Model, Phase, other
from engines.nexo.world import World

STALL_ROUNDS = 5
"""House "Victory": 5 rounds with no progress make a draw."""


def roll_initiative(w: World, rng: Rng) -> list[Event]:
    """Rolls 1D6 each, re-rolling ties, and records the Initiative Player (core §6.2)."""
    s = w.state
    s.initiative_rolls = []
    while True:
        pair = roll(rng, 2)
        s.initiative_rolls.append(pair)
        if pair[0] != pair[1]:
            break
    s.initiative = SEATS[0] if pair[0] > pair[1] else SEATS[1]
    s.phase, s.first, s.turn = Phase.INITIATIVE, None, None
    rolls = ", then ".join(f"{a}-{b}" for a, b in s.initiative_rolls)
    return [event("initiative", f"Round {s.round}. Initiative: {w.names['p1']} v {w.names['p2']} rolled "
                  f"{rolls}; {w.names[s.initiative]} has the Initiative.", rolls=s.initiative_rolls)]


def upkeep(w: World) -> list[Event]:
    """Resolves the Upkeep Phase (core §7, ruling 10) and opens the Worker Phase."""
    s = w.state
    s.phase = Phase.UPKEEP
    events: list[Event] = []
    for m in s.models.values():
        if m.wia == "bleeding" and m.hp > 1:
            m.hp -= 1
            s.progress = True
            events.append(event("bleeding", f"{m.id} is Bleeding: {m.hp} HP left.", unit=m.id, hp=m.hp))
    for seat in SEATS:
        if w.blackout(seat):
            events.append(event("blackout", f"{w.names[seat]} is in Blackout.", player=w.names[seat]))
    return events + open_phase(w, Phase.WORKER)


def _group(w: World, phase: Phase) -> list[Model | Building]:
    workers = phase == Phase.WORKER
    out: list[Model | Building] = [m for m in w.state.models.values() if w.unit_type(m).is_worker == workers]
    if not workers:
        out += list(w.state.buildings.values())
    return out


def open_phase(w: World, phase: Phase) -> list[Event]:
    """Opens the Worker or Action Phase: resets activations, spends Pinned, counts Passes (core §6.4)."""
    s = w.state
    s.phase, s.active, s.harvests = phase, None, {}
    for seat in SEATS:
        s.sides[seat].standing = None
    events: list[Event] = []
    for p in _group(w, phase):
        p.activated, p.attacked = False, False
        if isinstance(p, Model):
            p.moved = p.dashed = p.shot = False
            if p.wia == "pinned" and not p.fresh:
                p.activated, p.overwatch, p.wia = True, False, None
                events.append(event("pinned", f"{p.id} is Pinned and skips its activation.", unit=p.id))
    counts = {seat: len(w.eligible(seat, phase.value)) for seat in SEATS}
    for seat in SEATS:
        s.sides[seat].passes = max(0, counts[other(seat)] - counts[seat])
        if s.sides[seat].passes:
            events.append(event("passes", f"{w.names[seat]} is outnumbered and gains "
                                f"{plural(s.sides[seat].passes, 'Pass', 'Passes')} this phase.",
                                player=w.names[seat]))
    s.turn = s.first
    return events + settle(w)


def settle(w: World) -> list[Event]:
    """Gives the turn to a player with an eligible piece, or ends the phase (core §6.3)."""
    s = w.state
    if s.over or s.active is not None or s.phase not in (Phase.WORKER, Phase.ACTION):
        return []
    assert s.turn is not None
    for seat in SEATS:
        if not w.eligible(seat, s.phase.value):
            s.sides[seat].passes = 0
    if w.eligible(s.turn, s.phase.value):
        return []
    if w.eligible(other(s.turn), s.phase.value):
        s.turn = other(s.turn)
        return []
    for seat in SEATS:
        s.sides[seat].passes = 0
    if s.phase == Phase.WORKER:
        return open_phase(w, Phase.ACTION)
    return open_production(w)


def hand_over(w: World, seat: str) -> list[Event]:
    """Passes the turn on after ``seat`` activated a piece or spent a Pass."""
    w.state.turn = other(seat)
    return settle(w)


def open_production(w: World) -> list[Event]:
    """Opens the Production Phase: completions, reserves, then the Initiative Player (core §13)."""
    s = w.state
    s.phase, s.active, s.produced = Phase.PRODUCTION, None, []
    events = production.complete_sites(w)
    for seat in SEATS:
        s.sides[seat].ended, s.sides[seat].standing = False, None
    first = s.initiative or SEATS[0]
    for seat in (first, other(first)):  # reserves come in Initiative order (core §13)
        events += production.place_reserves(w, seat)
    s.turn = s.initiative
    return events


def end_production(w: World, seat: str, rng: Rng, round_limit: int | None) -> list[Event]:
    """Ends one player's Production orders; after both, ends the round (core §6.1)."""
    s = w.state
    s.sides[seat].ended = True
    events = [event("end", f"{w.names[seat]} ends production.", player=w.names[seat])]
    if not s.sides[other(seat)].ended:
        s.turn = other(seat)
        return events
    return events + end_round(w, rng, round_limit)


def end_round(w: World, rng: Rng, round_limit: int | None) -> list[Event]:
    """Expires WIA effects, applies the stall rule and round limit, and starts the next round."""
    s = w.state
    events: list[Event] = []
    for m in s.models.values():
        if m.wia_until is not None and m.wia_until <= s.round:
            events.append(event("wia_end", f"{m.id} is no longer {m.wia}.", unit=m.id))
            m.wia, m.wia_until = None, None
        m.fresh = False
    s.quiet = 0 if s.progress else s.quiet + 1
    s.progress = False
    if s.quiet >= STALL_ROUNDS:
        return events + finish_game(w, None, "stall", f"{STALL_ROUNDS} rounds without progress: a draw.")
    if round_limit is not None and s.round >= round_limit:
        worth = {seat: w.worth(seat) for seat in SEATS}
        best = max(SEATS, key=lambda seat: worth[seat])
        winner = None if worth["p1"] == worth["p2"] else best
        text = (f"Round limit: {w.names['p1']} {worth['p1']} v {w.names['p2']} {worth['p2']}; "
                + (f"{w.names[winner]} wins." if winner else "a draw."))
        return events + finish_game(w, winner, "round_limit", text)
    s.round += 1
    s.last_move = s.last_attack = None
    return events + roll_initiative(w, rng)


def finish_game(w: World, winner: str | None, result: str, text: str) -> list[Event]:
    """Ends the game with ``winner`` (None: a draw)."""
    s = w.state
    s.over, s.winner, s.result, s.turn, s.active = True, winner, result, None, None
    return [event("game_over", text, result=result, winner=w.names[winner] if winner else None)]


def check_elimination(w: World) -> list[Event]:
    """Ends the game when a player has no unit or standing building left (core §15.1)."""
    s = w.state
    if s.over:
        return []
    out = [seat for seat in SEATS if w.survivors(seat) == 0]
    if not out:
        return []
    if len(out) == 2:
        return finish_game(w, None, "elimination", "Both sides are eliminated: a draw.")
    winner = other(out[0])
    return finish_game(w, winner, "elimination",
                       f"{w.names[out[0]]} has nothing left: {w.names[winner]} wins by Elimination.")
