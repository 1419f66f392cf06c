"""XISK bots: a move for a seat from ``view(seat)`` and its legal moves, at three levels.

The policy reads the seat's own view only (the map's owners and chips, card counts, its
own hand and cardsets) and the pure helpers over the board data and the dice
(:mod:`engines.xisk.board`, :mod:`engines.xisk.ai_odds`); never the state, another hand
or the deck.

**Levels.** The considered play has two settings, picked by the players still in the game:
:data:`DUEL` against one rival, :data:`CROWD` against more (each beat the other where it is
used). ``hard`` always plays it; ``normal`` plays the easy move instead on a share of its
moves (:data:`NORMAL_SLIP`, larger with more rivals, who forgive more); ``easy`` plays the
considered move on :data:`EASY_SKILL` of its moves and the easy move otherwise (Stockfish's
"Skill Level" idea: a level is a calibrated mix, measured as a ladder by ``bench/ai.py``).
A hint (``explain``) is the considered move, never a slip, with its why: the battle's odds
and what the conquest brings, the claim's continent, the supply's plans.

The considered play, per phase:

- **claim**: a country building toward a continent (small, rich and easily held continents
  first, where no rival holds a country yet); a rival's nearly complete continent is blocked
  with one of its last free countries. The crowd play also likes countries next to its own;
  the duel does not (spread claims did better in the bench) and weighs open continents more.
- **supply**: a compulsory cardset is redeemed (keeping cards of different suits, which
  make sets more often); any set is redeemed at once and before the last chip,
  since chips now beat chips later and the count of sets is shared by all. The whole supply
  goes on the border country whose attack plans gain the most from it (splitting it did
  worse in the bench); when no attack is worth it, on the border most at risk.
- **attack**: an attack is worth the exact odds of the battle fought to the end
  (:func:`~engines.xisk.ai_odds.battle`) times what the conquest brings (a country, progress
  toward a continent's bonus and its completion, a rival's bonus broken, a country supply
  changed, a rival defeated, the turn's card for the first conquest), plus the expected
  exchange of chips, plus the best plan that follows from the country taken (the crowd play
  looks 2 conquests deep, the duel 4). The best attack is made while it is worth more than a
  threshold, then ``end``. The duel also counts the risk an attack leaves on its source.
- **invade**: everything moves on when the source no longer faces an enemy, nothing when the
  country taken faces none; otherwise the crowd play moves all but a share kept against a
  rival next door, and the duel picks the split whose plans and risks on both are best.
- **adjust**: chips stranded inside move one step toward the front, to the most threatened
  border; the duel also shifts chips between two borders when that lowers the risk of a loss.

The easy move is close to random but never absurd: it claims and places at random (on a border),
attacks at random among the battles it is likely to win (fighting a battle begun on while it
stays likely) and stops at random, invades with a random count (all when the source faces no
enemy any more) and brings chips from inside to the front at random. No level ever resigns.

    >>> from engines.xisk import Xisk
    >>> g = Xisk.new(["ann", "bob"], seed=3)
    >>> seat = g.to_act()[0]
    >>> move = choose(g.view(seat), g.legal_moves(seat), seat, "hard", random.Random(1))
    >>> move in g.legal_moves(seat)
    True
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engines.core.ai import Choice
from engines.core.deck import suit_of
from engines.xisk.ai_odds import battle, win_chance
from engines.xisk.board import load_board

NEUTRAL = "neutral"
"""The owner of neutral countries in the view (reading 1 of :mod:`engines.xisk`)."""

BOARD = load_board()
COUNTRIES: tuple[str, ...] = BOARD.countries
NEIGHBOURS: dict[str, tuple[str, ...]] = {
    c: tuple(n for n in COUNTRIES if n in BOARD.neighbours[c]) for c in COUNTRIES
}
"""Neighbours in map order (never a set's order, so choices do not depend on string hashing)."""
CONTINENT_OF = BOARD.continent_of
MEMBERS: dict[str, tuple[str, ...]] = {k: v.countries for k, v in BOARD.continents.items()}
BONUS: dict[str, int] = {k: v.bonus for k, v in BOARD.continents.items()}
ENTRY_POINTS: dict[str, int] = {
    k: sum(1 for c in v if any(CONTINENT_OF[n] != k for n in NEIGHBOURS[c])) for k, v in MEMBERS.items()
}
"""How many countries of each continent border another continent (what holding it costs)."""

MIN_COUNTRY_SUPPLY = 3
NAME: dict[str, str] = dict(BOARD.names)
"""Country names, as the hint's why spells them."""
CONTINENT: dict[str, str] = {k: v.name for k, v in BOARD.continents.items()}

W_WIN = 1000.0
"""The worth of taking the last rival's last country: the game."""
MIN_WIN = 0.04
"""Battles less likely than this to succeed are not explored."""


@dataclass(frozen=True)
class Level:
    """How deep a level looks and what it weighs (worths are in chips)."""

    depth: int
    """Conquests an attack plan looks ahead."""
    threshold: float
    """The worth an attack plan must exceed to be begun."""
    exposure: bool = False
    """Whether an attack's worth counts the risk it leaves on its source."""
    weigh_invade: bool = False
    """Whether the invasion is chosen by weighing the plans and risks of both countries."""
    shift: bool = False
    """Whether the adjust may shift chips between two borders to lower the risk of a loss."""
    country: float = 1.2
    """A country taken."""
    progress: float = 1.2
    """Times the bonus, spread over the conquests of a continent (more for the last ones)."""
    complete: float = 2.5
    """Times the bonus, for the conquest that completes a continent."""
    breaking: float = 1.8
    """Times the bonus, for the first conquest in a continent a rival holds whole."""
    supply: float = 1.0
    """A conquest that changes a country supply (one more chip for me, one less for a rival)."""
    chip: float = 1.0
    """A chip of the expected exchange (defender's losses less the attacker's)."""
    card: float = 1.2
    """The turn's card (the first conquest), plus ``card_set`` times the next set's value."""
    card_set: float = 0.3
    defeat_card: float = 1.5
    """Each card taken from a defeated rival (games of 3 or more)."""
    claim_next_to_own: float = 0.35
    """While claiming: each own neighbour of the country claimed."""
    claim_open: float = 2.0
    """While claiming: a continent no rival has entered (plus as much again times the share held)."""


DUEL = Level(depth=4, threshold=0.2, exposure=True, weigh_invade=True, shift=True, claim_next_to_own=0.0,
             claim_open=4.0)
"""The considered play against one rival (it beat ``CROWD`` there in the bench)."""
CROWD = Level(depth=2, threshold=0.3)
"""The considered play against two rivals or more (cautious plans did better there than the duel's)."""
NORMAL_SLIP = {2: 0.4, 3: 0.6, 4: 0.65}
"""By players still in the game (4: four or more), the share of its moves where ``normal`` plays the
easy move instead of the considered one: more rivals forgive more, so it slips more to stay a step down."""
EASY_SKILL = 0.05
"""The share of its moves where ``easy`` plays the considered move."""


def in_game(view: Mapping[str, Any]) -> int:
    """Returns how many players are still in the game."""
    out = set(view["eliminated"])
    return sum(1 for p in view["cards_held"] if p not in out)


def slip_chance(level: str, players: int) -> float:
    """Returns the chance that a move of ``level`` is the easy one, with ``players`` still in.

    Stockfish's "Skill Level" idea: a level is the considered play with a calibrated share of
    weaker moves (``bench/ai.py`` measures the ladder this gives).

    >>> slip_chance("hard", 3), slip_chance("normal", 6), slip_chance("easy", 2)
    (0.0, 0.65, 0.95)
    """
    if level == "hard":
        return 0.0
    if level == "normal":
        return NORMAL_SLIP[min(4, max(2, players))]
    return 1.0 - EASY_SKILL


def considered(view: Mapping[str, Any]) -> Level:
    """Returns the plan settings of the considered play for the table in ``view``: duel or crowd."""
    return DUEL if in_game(view) <= 2 else CROWD


def country_supply(owned: int) -> int:
    """Returns the country supply: 1 chip per 3 countries, at least 3 (A. Supply, rule 1)."""
    return max(MIN_COUNTRY_SUPPLY, owned // 3)


class Position:
    """The map as the seat sees it, with counts by player and continent."""

    def __init__(self, view: Mapping[str, Any], seat: str) -> None:
        countries = view["countries"]
        self.me = seat
        self.owner: dict[str, str | None] = {}
        self.chips: dict[str, int] = {}
        for c in COUNTRIES:
            entry = countries[c]
            self.owner[c] = entry["owner"]
            self.chips[c] = entry["chips"]
        out = set(view["eliminated"])
        held: Mapping[str, int] = view["cards_held"]
        self.cards_held = {p: held[p] for p in held}
        self.rivals = [p for p in held if p != seat and p not in out]
        self.conquered: bool = view["conquered_this_turn"]
        self.next_set: int = view["next_set_value"]
        self.count: dict[str | None, int] = {}
        self.in_continent: dict[tuple[str | None, str], int] = {}
        for c in COUNTRIES:
            o = self.owner[c]
            self.count[o] = self.count.get(o, 0) + 1
            key = (o, CONTINENT_OF[c])
            self.in_continent[key] = self.in_continent.get(key, 0) + 1
        self.mine = [c for c in COUNTRIES if self.owner[c] == seat]
        self.income = {p: self.supply_of(p) for p in self.rivals}

    def is_mine(self, c: str) -> bool:
        return self.owner[c] == self.me

    def is_enemy(self, c: str) -> bool:
        o = self.owner[c]
        return o is not None and o != self.me

    def owns_continent(self, player: str | None, k: str) -> bool:
        return self.in_continent.get((player, k), 0) == len(MEMBERS[k])

    def supply_of(self, player: str) -> int:
        bonus = sum(BONUS[k] for k in MEMBERS if self.owns_continent(player, k))
        return country_supply(self.count.get(player, 0)) + bonus

    def border(self, c: str) -> bool:
        return any(self.is_enemy(n) for n in NEIGHBOURS[c])

    def threat(self, c: str) -> int:
        """Returns the largest attack a rival could bring on ``c`` next turn (neighbour chips plus supply)."""
        best = 0
        for n in NEIGHBOURS[c]:
            o = self.owner[n]
            if o is not None and o != self.me and o != NEUTRAL:
                best = max(best, self.chips[n] + self.income.get(o, MIN_COUNTRY_SUPPLY))
        return best

    def hold_value(self, c: str) -> float:
        """Returns what losing ``c`` would cost: the country, and the bonus of its continent if held."""
        k = CONTINENT_OF[c]
        return 1.0 + (BONUS[k] * 2.0 if self.owns_continent(self.me, k) else 0.0)

    def risk(self, c: str, chips: int) -> float:
        """Returns the expected loss on ``c`` holding ``chips`` when a rival attacks it next turn."""
        t = self.threat(c)
        if t <= 1:
            return 0.0
        return win_chance(t, chips) * self.hold_value(c)


class Planner:
    """Attack plans: chains of conquests valued with the exact battle odds."""

    def __init__(self, pos: Position, cfg: Level) -> None:
        self.pos = pos
        self.cfg = cfg
        self.depth = cfg.depth
        self.taken: list[str] = []
        self.memo: dict[tuple[str, int, int, tuple[str, ...]], float] = {}

    def gain(self, t: str) -> float:
        """Returns what conquering ``t`` brings, after the conquests already in ``taken``."""
        pos, w = self.pos, self.cfg
        x = pos.owner[t]
        k = CONTINENT_OF[t]
        size = len(MEMBERS[k])
        taken_here = sum(1 for c in self.taken if CONTINENT_OF[c] == k)
        m = pos.in_continent.get((pos.me, k), 0) + taken_here
        v = w.country + BONUS[k] * w.progress * ((m + 1) ** 2 - m**2) / size**2
        if m + 1 == size:
            v += BONUS[k] * w.complete
        if x is not None and x != NEUTRAL and taken_here == 0 and pos.owns_continent(x, k):
            v += BONUS[k] * w.breaking
        if not self.taken and not pos.conquered:
            v += w.card + w.card_set * pos.next_set
        mine_after = pos.count.get(pos.me, 0) + len(self.taken) + 1
        if mine_after >= 9 + 3 and mine_after % 3 == 0:
            v += w.supply
        if x is not None and x != NEUTRAL:
            left = pos.count.get(x, 0) - sum(1 for c in self.taken if pos.owner[c] == x)
            if left == 1:
                v += W_WIN if len(pos.rivals) == 1 else w.defeat_card * pos.cards_held.get(x, 0) + 1
            elif left > 9 and left % 3 == 0:
                v += w.supply
        return v

    def step(self, src: str, t: str, army: int, depth: int) -> float:
        """Returns the worth of attacking ``t`` from ``src`` with ``army`` chips, and the plan after it."""
        b = battle(army, self.pos.chips[t])
        if b.win < MIN_WIN:
            return (b.defender_losses - b.attacker_losses) * self.cfg.chip
        value = self.gain(t)
        if depth > 1:
            onward = round(b.left_if_won) - 1
            if onward >= 2:
                self.taken.append(t)
                value += self.best(t, onward, depth - 1)
                self.taken.pop()
        return b.win * value + (b.defender_losses - b.attacker_losses) * self.cfg.chip

    def best(self, src: str, army: int, depth: int) -> float:
        """Returns the worth of the best plan from ``src`` with ``army`` chips (0: attack no more)."""
        if army < 2:
            return 0.0
        key = (src, army, depth, tuple(self.taken))
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        out = 0.0
        for t in NEIGHBOURS[src]:
            if self.pos.is_enemy(t) and t not in self.taken:
                out = max(out, self.step(src, t, army, depth))
        self.memo[key] = out
        return out

    def from_country(self, src: str, army: int) -> float:
        return self.best(src, army, self.depth)


# -- the phases: each answers a Choice, ``cfg`` None for the easy move -------------------------


def _pct(p: float) -> str:
    """Returns a chance as a whole percentage, never 0% or 100% for what is merely likely.

    >>> _pct(0.781), _pct(0.999), _pct(1.0)
    ('78%', '99%', '100%')
    """
    whole = round(p * 100)
    return f"{min(99, max(1, whole)) if 0 < p < 1 else whole}%"


def _claim(view: Mapping[str, Any], legal: list[str], seat: str, cfg: Level | None, rng: random.Random) -> Choice:
    claims = [m for m in legal if m.startswith("claim ")]
    if cfg is None:
        return Choice(rng.choice(claims))
    pos = Position(view, seat)
    others = [p for p in pos.cards_held if p != seat]
    reasons: dict[str, str] = {}

    def score(move: str) -> float:
        c = move.split()[1]
        k = CONTINENT_OF[c]
        size = len(MEMBERS[k])
        mine = pos.in_continent.get((seat, k), 0)
        free = pos.in_continent.get((None, k), 0)
        theirs = size - mine - free
        worth = BONUS[k] / (size * max(1, ENTRY_POINTS[k]) ** 0.5)
        s = 0.0
        if theirs == 0:
            s += worth * cfg.claim_open * (1 + (mine + 1) / size)
            why = f"{mine + 1} of {CONTINENT[k]}'s {size}, which no rival has entered (bonus {BONUS[k]})"
        else:
            s += worth * 0.5 * (mine + 1) / size
            why = f"{mine + 1} of {CONTINENT[k]}'s {size} (bonus {BONUS[k]})"
        if mine == 0 and free <= 2:
            for p in others:
                if pos.in_continent.get((p, k), 0) == size - free:
                    s += BONUS[k] * (1.5 if free == 1 else 0.5)
                    why = f"blocks {p} from holding {CONTINENT[k]} (bonus {BONUS[k]})"
        s += cfg.claim_next_to_own * sum(1 for n in NEIGHBOURS[c] if pos.owner[n] == seat)
        s -= 0.1 * sum(1 for n in NEIGHBOURS[c] if pos.owner[n] not in (seat, None))
        reasons[move] = why
        return s + rng.random() * 1e-6

    best = max(claims, key=score)
    return Choice(best, f"claim {NAME[best.split()[1]]}: {reasons[best]}")


def _redeem_choice(view: Mapping[str, Any], redeems: list[str]) -> Choice:
    """Returns the cardset that leaves the hand with the most different suits (most sets later)."""
    hand = list(view["hand"])

    def keeps(move: str) -> tuple[int, int]:
        used = set(move.split()[1:])
        rest = [c for c in hand if c not in used]
        return len({suit_of(c) for c in rest}), -redeems.index(move)

    best = max(redeems, key=keeps)
    suits = keeps(best)[0]
    return Choice(best, f"redeem {' '.join(best.split()[1:])}: {view['next_set_value']} chips now, and sets are"
                        f" worth more for everyone after; the hand keeps {suits} suit{'s' * (suits != 1)}")


def _supply(view: Mapping[str, Any], legal: list[str], seat: str, cfg: Level | None, rng: random.Random) -> Choice:
    redeems = [m for m in legal if m.startswith("redeem ")]
    places = any(m.startswith("place ") for m in legal)  # none while 5 cards or more are held
    if redeems and (not places or cfg is not None or rng.random() < 0.5):
        return Choice(rng.choice(redeems)) if cfg is None else _redeem_choice(view, redeems)
    pos = Position(view, seat)
    left: int = view["supply_left"]
    borders = [c for c in pos.mine if pos.border(c)] or pos.mine
    if cfg is None:
        return Choice(f"place {rng.choice(borders)} {rng.randint(1, left)}")
    planner = Planner(pos, cfg)
    best_country, best_gain = "", 1e-9
    for c in borders:
        gain = planner.from_country(c, pos.chips[c] + left) - planner.from_country(c, pos.chips[c])
        if gain > best_gain:
            best_country, best_gain = c, gain
    if best_country:
        target = _first_target(pos, planner, best_country, pos.chips[best_country] + left)
        then = ""
        if target:
            odds = battle(pos.chips[best_country] + left, pos.chips[target]).win
            then = f", first {NAME[target]} ({_pct(odds)} to win)"
        why = f"place {left} on {NAME[best_country]}: its attack plans gain {best_gain:.1f} chips of worth{then}"
        return Choice(f"place {best_country} {left}", why)
    # no attack is worth it: shore up the border most at risk
    c = max(borders, key=lambda c: (pos.risk(c, pos.chips[c]), pos.threat(c) - pos.chips[c]))
    threat = pos.threat(c)
    why = (f"place {left} on {NAME[c]}: no attack is worth it, and {threat} chips could strike its {pos.chips[c]}"
           if threat else f"place {left} on {NAME[c]}: no attack is worth it, so the chips wait on a border")
    return Choice(f"place {c} {left}", why)


def _first_target(pos: Position, planner: Planner, src: str, army: int) -> str:
    """Returns the country the best plan from ``src`` with ``army`` chips attacks first ('' for none)."""
    best, value = "", 0.0
    for t in NEIGHBOURS[src]:
        if pos.is_enemy(t):
            v = planner.step(src, t, army, planner.depth)
            if v > value:
                best, value = t, v
    return best


def _attack(view: Mapping[str, Any], legal: list[str], seat: str, cfg: Level | None, rng: random.Random) -> Choice:
    attacks = [m.split()[1:] for m in legal if m.startswith("attack ")]
    pos = Position(view, seat)
    if cfg is None:
        likely = [a for a in attacks if win_chance(pos.chips[a[0]], pos.chips[a[1]]) >= 0.5]
        last = view["last_battle"]
        if last and last["attacker"] == seat and [last["from"], last["to"]] in likely:
            return Choice(f"attack {last['from']} {last['to']}")  # a battle begun is fought on while likely won
        if not likely or rng.random() < 0.2:
            return Choice("end")
        s, t = rng.choice(likely)
        return Choice(f"attack {s} {t}")
    planner = Planner(pos, cfg)
    best, best_value = ("", ""), cfg.threshold
    runner_up, runner_value = ("", ""), -math.inf
    for s, t in attacks:
        value = planner.step(s, t, pos.chips[s], cfg.depth)
        if cfg.exposure:
            value -= _exposure(pos, s, t)
        if value > best_value + 1e-9:
            best, best_value = (s, t), value
        if value > runner_value:
            runner_up, runner_value = (s, t), value
    if not best[0]:
        if not runner_up[0]:
            return Choice("end", "end the attacks: no country of yours faces an enemy it can attack")
        s, t = runner_up
        odds = battle(pos.chips[s], pos.chips[t]).win
        return Choice("end", f"end the attacks: the best left, {NAME[t]} from {NAME[s]} at {_pct(odds)} to win,"
                             " is not worth the risk")
    s, t = best
    return Choice(f"attack {s} {t}", f"attack {NAME[t]} from {NAME[s]}: "
                                     f"{_pct(battle(pos.chips[s], pos.chips[t]).win)} to win{_gains(pos, t)}")


def _gains(pos: Position, t: str) -> str:
    """Returns what taking ``t`` brings, as the why's tail: a continent completed or broken, a rival out, a card."""
    x, k = pos.owner[t], CONTINENT_OF[t]
    said = []
    if pos.in_continent.get((pos.me, k), 0) + 1 == len(MEMBERS[k]):
        said.append(f"completes {CONTINENT[k]} (+{BONUS[k]} a turn)")
    if x is not None and x != NEUTRAL:
        if pos.owns_continent(x, k):
            said.append(f"breaks {x}'s {CONTINENT[k]}")
        if pos.count.get(x, 0) == 1:
            said.append(f"knocks {x} out" + (" and wins the game" if len(pos.rivals) == 1 else ""))
    if not pos.conquered:
        said.append("earns the turn's card")
    return ", " + ", ".join(said) if said else ""


def _exposure(pos: Position, s: str, t: str) -> float:
    """Returns the risk added by attacking ``t`` from ``s``: the source may be left with 1 chip."""
    b = battle(pos.chips[s], pos.chips[t])
    left = max(1, round(pos.chips[s] - b.attacker_losses))
    if b.win > 0:
        left = 1 if pos.border(t) else left
    return (pos.risk(s, left) - pos.risk(s, pos.chips[s])) * 0.5


def _invade(view: Mapping[str, Any], legal: list[str], seat: str, cfg: Level | None, rng: random.Random) -> Choice:
    inv = view["invade"]
    src, dst, most = inv["from"], inv["to"], inv["most"]
    pos = Position(view, seat)
    front_src, front_dst = pos.border(src), pos.border(dst)
    if not front_src:  # never leave chips where no enemy is left to face
        return Choice(f"invade {most}", f"move all {most} into {NAME[dst]}: {NAME[src]} faces no enemy any more")
    if cfg is None:
        return Choice(f"invade {rng.randint(0, most)}")
    if not front_dst:
        return Choice("invade 0", f"move none into {NAME[dst]}: it faces no enemy, {NAME[src]} does")
    if not cfg.weigh_invade:
        keep = 0
        if pos.threat(src) > 0:
            keep = min(most, max(0, pos.chips[src] - 1 - pos.chips[dst]) // 2)
        why = (f"move {most - keep} into {NAME[dst]}, keeping {keep} more on {NAME[src]}"
               f" against the {pos.threat(src)} chips that could strike it")
        return Choice(f"invade {most - keep}", why)
    planner = Planner(pos, replace(cfg, depth=min(cfg.depth, 3)))
    ns = sorted({0, most, *range(0, most + 1, max(1, most // 10))})
    base_src, base_dst = pos.chips[src], pos.chips[dst]

    def worth(n: int) -> float:
        a, b = base_src - n, base_dst + n
        return (max(planner.from_country(dst, b), planner.from_country(src, a))
                + 0.5 * min(planner.from_country(dst, b), planner.from_country(src, a))
                - pos.risk(src, a) - pos.risk(dst, b) + 0.001 * n)

    n = max(ns, key=worth)
    risk = pos.risk(src, base_src - n) + pos.risk(dst, base_dst + n)
    return Choice(f"invade {n}", f"move {n} into {NAME[dst]}: the best split of plans from both countries,"
                                 f" with {risk:.1f} chips of worth at risk")


def _front_distance(pos: Position) -> dict[str, int]:
    """Returns each owned country's steps (through owned countries) to one facing an enemy."""
    dist = {c: 0 for c in pos.mine if pos.border(c)}
    frontier = list(dist)
    while frontier:
        nxt = []
        for c in frontier:
            for n in NEIGHBOURS[c]:
                if pos.is_mine(n) and n not in dist:
                    dist[n] = dist[c] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


def _adjust(view: Mapping[str, Any], legal: list[str], seat: str, cfg: Level | None, rng: random.Random) -> Choice:
    pos = Position(view, seat)
    dist = _front_distance(pos)
    shift = cfg is not None and cfg.shift
    far = 10**6
    moves: list[tuple[float, str, str]] = []
    for a in pos.mine:
        spare = pos.chips[a] - 1
        if spare < 1:
            continue
        for b in NEIGHBOURS[a]:
            if not pos.is_mine(b):
                continue
            da, db = dist.get(a, far), dist.get(b, far)
            if da > 0 and db < da:
                weight = 1.0 + (pos.threat(b) if db == 0 else 0) * 0.01 + (1.0 if db == 0 else 0.0)
                where = "to the front" if db == 0 else "a step nearer the front"
                moves.append((spare * weight, f"adjust {a} {b} {spare}",
                              f"move {spare} from {NAME[a]} to {NAME[b]}: chips inside fight no one; this brings them"
                              f" {where}"))
            elif shift and da == 0 and db == 0:
                best = (0.0, 0)
                for n in sorted({spare, max(1, spare // 2), max(1, spare // 4)}):
                    saved = (pos.risk(a, pos.chips[a]) + pos.risk(b, pos.chips[b])
                             - pos.risk(a, pos.chips[a] - n) - pos.risk(b, pos.chips[b] + n))
                    if saved > best[0]:
                        best = (saved, n)
                if best[0] > 0.3:
                    moves.append((best[0], f"adjust {a} {b} {best[1]}",
                                  f"move {best[1]} from {NAME[a]} to {NAME[b]}: lowers the expected loss on the two"
                                  f" borders by {best[0]:.1f}"))
    if not moves:
        return Choice("end", "end the turn: no chips are stranded inside, and no shift between borders lowers the risk")
    if cfg is None:  # at random, the more chips a move brings the likelier
        if rng.random() >= 0.8:
            return Choice("end")
        return Choice(rng.choices([m for _, m, _ in moves], [w for w, _, _ in moves])[0])
    _, move, why = max(moves, key=lambda m: m[0])
    return Choice(move, why)


_PHASES = {"claim": _claim, "supply": _supply, "cardset": _supply, "attack": _attack,
           "invade": _invade, "adjust": _adjust}


def choose(view: Mapping[str, Any], legal: list[str], seat: str, level: str, rng: random.Random, *,
           deadline: float = math.inf, explain: bool = False) -> str | Choice:
    """Returns the move of ``seat`` at ``level`` from its own view and legal moves (never ``resign``).

    ``explain``: the considered move of ``normal`` (never a slip) as a :class:`Choice` with its why.
    Every think takes milliseconds, so ``deadline`` is never near.
    """
    options = [m for m in legal if m != "resign"]
    if not options:
        return Choice(legal[0], "nothing else is legal") if explain else legal[0]
    phase = _PHASES.get(view["phase"])
    slip = not explain and rng.random() < slip_chance(level, in_game(view))
    cfg = None if slip else considered(view)
    answer = phase(view, options, seat, cfg, rng) if phase else Choice("")
    if answer.move not in options:  # a guard: every phase answers a legal move
        answer = Choice(options[0] if cfg is not None else rng.choice(options))
    return answer if explain else answer.move
