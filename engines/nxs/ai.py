"""NXS bots: a search over whole turns (move or capture, then rotate) from the seat's view.

The policy (:func:`choose`, the contract of :mod:`engines.core.ai`) sees only
``view(seat)`` and ``legal_moves(seat)``. NXS has no hidden information: the view lists
every piece with its facing, both scores and targets, the step and the ship that moved, so
the bot rebuilds the whole position from it (:func:`engines.nxs.ai_board.from_view`) and
searches on its own copy, never on the game. What the view does not hold is the stalemate
guard's history of positions (repetitions) and its limits: the bots do not plan around it.
Each call is fresh: nothing is remembered between moves, and the rotation step searches
again from the position the move step left.

A turn is a first step (move or capture), then a compulsory rotation. The search looks at
whole turns: every first step × every rotation, and plays the first step of the best.

- ``easy``: random among the sensible first steps: it takes a win in one, never hands
  the opponent a win in one or a ship for nothing (a new capture for them that is not
  paid by a capture of ours) when another move avoids it, never resigns; any rotation.
- ``normal``: one turn of lookahead: each whole turn is judged by :func:`evaluate` with the
  opponent to move (territory against target, ships, who threatens what, the Merchant,
  mobility), and first steps that let the opponent win at once are avoided.
- ``hard``: the same whole turns searched deeper, by iterative deepening over half-turns
  (first steps): our whole turn, then every first step of the opponent (judged with us to
  move), then every first step of ours (judged with them to move): min-max with
  alpha-beta cut-offs, the candidates in the order the shallower judgement gave; a win
  in one, or no move left, ends a line at once. The opponent's rotation is not searched
  (a rotation never changes territory, only what the turned ship may do). A clock stops
  the search at the host's deadline (or :data:`HARD_BUDGET` seconds, if sooner), keeping
  the best whole turn of the deepest pass that judged the previous best.

    >>> import random
    >>> from engines.nxs.game import Nxs
    >>> g = Nxs.new(["ann", "bob"])
    >>> move = choose(g.view("ann"), g.legal_moves("ann"), "ann", "normal", random.Random(1))
    >>> move in g.legal_moves("ann") and move != "resign"
    True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable
from typing import Any

from engines.core.ai import Choice
from engines.core.hexgrid import distance
from engines.nxs.ai_board import (
    ARROWS,
    CODES,
    GUNS,
    HEXES,
    HOME,
    IMMUNE,
    JUMPS,
    OWNER,
    RANGE,
    RAYS,
    SHIP,
    TURNED,
    WIN,
    Board,
    Pos,
    first_steps,
    from_view,
    index,
    moved,
    name,
    scores_after,
    verdict,
)

HARD_BUDGET = 0.5
"""Seconds the hard search may take at most, before the host's deadline cuts it shorter."""
WIN_VALUE = 10_000.0
"""The value of a won position (a lost one is its negative)."""

SHIP_VALUE: dict[str, float] = {"merchant": 0.0, "cutter": 3.0, "sloop": 3.5, "brigantine": 4.0,
                                "frigate": 4.0}
"""What a ship is worth, in hexes of territory (the Merchant cannot be taken)."""
_DEFAULT_VALUE = 3.5
TAKE = 0.8
"""The share of a ship's value the side to move is credited for a capture it can make now."""
THREAT = (0.1, 0.35)
"""The shares credited to the side not to move for its best and second-best threatened prey."""
MOBILITY = 0.04
"""Per slide a side has."""
INVADER = 0.25
"""Per ship standing on the enemy board (it holds a hex and may draw lines)."""
MERCHANT_ABROAD = 1.5
"""For a Merchant on the enemy board: it holds its hexes and can never be taken."""
MERCHANT_STEP = 0.25
"""Per hex the Merchant stands nearer the enemy board."""

Step = tuple[int, int, bool, Pos, tuple[int, int], int]
"""A first step as :func:`engines.nxs.ai_board.first_steps` gives it."""


def _values() -> list[float]:
    return [0.0] + [SHIP_VALUE.get(SHIP[c], _DEFAULT_VALUE) if not IMMUNE[c] else 0.0 for c in range(1, CODES)]


VALUE: list[float] = _values()
"""Piece code → ship value."""


def _home_distance() -> tuple[tuple[int, ...], tuple[int, ...]]:
    out = []
    for seat in (0, 1):
        enemy = [h for i, h in enumerate(HEXES) if HOME[i] != seat]
        out.append(tuple(min(distance(h, e) for e in enemy) for h in HEXES))
    return out[0], out[1]


TO_ENEMY = _home_distance()
"""``TO_ENEMY[seat][i]``: how many steps hex ``i`` is from the enemy board of ``seat`` (0 on it)."""


def territory_value(held: int, target: int) -> float:
    """Returns what holding ``held`` hexes is worth: more per hex as the target nears.

    >>> territory_value(0, 10), territory_value(5, 10), territory_value(9, 10)
    (0.0, 6.25, 13.05)
    """
    return held + held * held / (2 * target)


def evaluate(pos: Pos, scores: tuple[int, int], targets: tuple[int, int], me: int, to_move: int) -> float:
    """Returns how good ``pos`` is for seat ``me`` when ``to_move`` is to play a first step.

    Terms (each side's, ours minus theirs): territory held against the target, ship values,
    the best capture the side to move can make now (:data:`TAKE`) and the threats of the
    other side (:data:`THREAT`, a second prey counts more: only one can be saved), ships on
    the enemy board, the Merchant's progress, and mobility.
    """
    if scores[me] >= targets[me] and scores[1 - me] < targets[1 - me]:
        return WIN_VALUE
    if scores[1 - me] >= targets[1 - me] and scores[me] < targets[me]:
        return -WIN_VALUE
    side = [territory_value(scores[0], targets[0]), territory_value(scores[1], targets[1])]
    prey: tuple[list[float], list[float]] = ([], [])
    mobility = [0, 0]
    get = pos.get
    for at, c in pos.items():
        o = OWNER[c]
        abroad = HOME[at] != o
        if IMMUNE[c]:
            side[o] += MERCHANT_ABROAD if abroad else -MERCHANT_STEP * TO_ENEMY[o][at]
        else:
            side[o] += VALUE[c] + (INVADER if abroad else 0.0)
        r = RANGE[c]
        rays = RAYS[at]
        m = 0
        for d in ARROWS[c]:
            for j in rays[d][:r]:
                if j in pos:
                    break
                m += 1
        mobility[o] += m
        guns = GUNS[c]
        if guns:
            jumps = JUMPS[at]
            for k in guns:
                t, a, b = jumps[k]
                if t < 0:
                    continue
                v = get(t)
                if v is None or OWNER[v] == o or IMMUNE[v]:
                    continue
                pa = get(a) if a >= 0 else None
                if pa is not None and OWNER[pa] != o:
                    continue
                pb = get(b) if b >= 0 else None
                if pb is not None and OWNER[pb] != o:
                    continue
                prey[o].append(VALUE[v] + t * 1e-6)  # a tiny tag keeps two prey of one value apart
    for o in (0, 1):
        side[o] += MOBILITY * mobility[o]
        hits = sorted(set(prey[o]), reverse=True)
        if not hits:
            continue
        if o == to_move:
            side[o] += TAKE * hits[0]
        else:
            side[o] += THREAT[0] * hits[0] + (THREAT[1] * hits[1] if len(hits) > 1 else 0.0)
    return side[me] - side[1 - me]


# -- the policy -----------------------------------------------------------------------


def choose(view: dict[str, Any], legal: list[str], seat: str, level: str, rng: random.Random, *,
           deadline: float = math.inf, explain: bool = False) -> str | Choice:
    """Returns the move of ``seat`` at ``level`` (easy, normal, hard): one of ``legal``, never resign
    while another move is legal. ``explain``: the same move as a :class:`Choice`, with why (:func:`why`)."""
    moves = [m for m in legal if m != "resign"]
    if not moves:
        return Choice(legal[0], "no other move is legal") if explain else legal[0]
    board = from_view(view)
    me = board.seat_of(seat)
    deadline = min(deadline, time.perf_counter() + HARD_BUDGET)
    if moves[0].startswith("rotate"):
        move = _rotation(board, me, moves, level, rng, deadline)
    else:
        move = _first_step(board, me, moves, level, rng, deadline)
    return Choice(move, why(board, me, move)) if explain else move


def why(board: Board, me: int, move: str) -> str:
    """Returns one line on what ``move`` does for ``me``: the ship, the capture, territory against the targets,
    and whether it leaves a ship open to capture.

    >>> from engines.nxs.game import Nxs
    >>> g = Nxs.new(["ann", "bob"])
    >>> why(from_view(g.view("ann")), 0, g.legal_moves("ann")[0]).startswith("your ")
    True
    """
    if move.startswith("rotate"):
        at, way = _parse_rotation(move)
        after = _turned(board.pos, at, way)
        head = f"your {SHIP[board.pos[at]]} on {name(at)} turns {way}"
        both = board.scores
    else:
        src, dst = _parse_step(move)
        after = moved(board.pos, src, dst)
        both = scores_after(after, src, dst, board.scores)
        ship = SHIP[board.pos[src]]
        if move.startswith("capture"):
            head = f"your {ship} takes the {SHIP[board.pos[dst]]} on {name(dst)}"
        else:
            head = f"your {ship} sails {name(src)} to {name(dst)}"
        if verdict(both, me, board.targets) == WIN:
            return f"{head}: your territory reaches {board.targets[me]}, the game"
    mine, theirs = both[me], both[1 - me]
    line = f"{head}: territory {mine} of {board.targets[me]}, theirs {theirs} of {board.targets[1 - me]}"
    _value, at = _open_ship(after, me)
    return f"{line}; {f'your {SHIP[after[at]]} on {name(at)} is left open' if at >= 0 else 'no ship left open'}"


def _parse_step(move: str) -> tuple[int, int]:
    _, a, b = move.split()
    return index(a), index(b)


def _parse_rotation(move: str) -> tuple[int, str]:
    _, cell, way = move.split()
    return index(cell), way


def _first_step(board: Board, me: int, moves: list[str], level: str, rng: random.Random, deadline: float) -> str:
    steps: list[tuple[str, Step]] = []
    for move in moves:
        src, dst = _parse_step(move)
        after = moved(board.pos, src, dst)
        both = scores_after(after, src, dst, board.scores)
        steps.append((move, (src, dst, move.startswith("capture"), after, both, verdict(both, me, board.targets))))
    wins = [m for m, s in steps if s[5] == WIN]
    if wins:
        return rng.choice(wins)
    if level == "easy":
        return _easy(board, me, steps, rng)
    return _search(board, me, steps, level == "hard", deadline, rng)[0]


def _rotation(board: Board, me: int, moves: list[str], level: str, rng: random.Random, deadline: float) -> str:
    if level == "easy":
        return rng.choice(moves)
    step: Step = (-1, -1, False, board.pos, board.scores, 0)
    return _search(board, me, [("", step)], level == "hard", deadline, rng, rotations=moves)[1]


# -- easy -----------------------------------------------------------------------------


def _loss(pos: Pos, me: int) -> float:
    """Returns the value of the best ship of ``me`` the opponent may capture now."""
    return _open_ship(pos, me)[0]


def _open_ship(pos: Pos, me: int) -> tuple[float, int]:
    """Returns the value and hex of the best ship of ``me`` the opponent may capture now (0.0, -1 for none)."""
    best, where = 0.0, -1
    get = pos.get
    for at, c in pos.items():
        o = OWNER[c]
        if o == me:
            continue
        jumps = JUMPS[at]
        for k in GUNS[c]:
            t, a, b = jumps[k]
            v = get(t) if t >= 0 else None
            if v is None or OWNER[v] != me or IMMUNE[v]:
                continue
            pa = get(a) if a >= 0 else None
            pb = get(b) if b >= 0 else None
            if (pa is not None and OWNER[pa] == me) or (pb is not None and OWNER[pb] == me):
                continue
            if VALUE[v] > best:
                best, where = VALUE[v], t
    return best, where


def _opponent_wins(board: Board, me: int, after: Pos, both: tuple[int, int]) -> bool:
    """Returns whether the opponent, to move in ``after``, may win at once."""
    return any(r[5] == WIN for r in first_steps(after, 1 - me, board.targets, both))


def _easy(board: Board, me: int, steps: list[tuple[str, Step]], rng: random.Random) -> str:
    now = _loss(board.pos, me)
    sensible: list[str] = []
    for move, (_src, dst, capture, after, both, _v) in steps:
        gain = VALUE[board.pos[dst]] if capture else 0.0
        if _loss(after, me) > max(now, gain):
            continue  # a ship given away for nothing
        if _opponent_wins(board, me, after, both):
            continue
        sensible.append(move)
    return rng.choice(sensible or [m for m, _ in steps])


# -- normal and hard ------------------------------------------------------------------


class _OutOfTime(Exception):
    """The hard search's clock ran out: the deepest finished judgement stands."""


Candidate = tuple[int, tuple[int, str]]
"""A whole turn at the root: the index of its first step and its rotation (hex, way)."""


def _rotations(pos: Pos, me: int) -> list[tuple[int, str]]:
    return [(at, way) for at in sorted(pos) if OWNER[pos[at]] == me for way in ("left", "right")]


def _turned(pos: Pos, at: int, way: str) -> Pos:
    out = dict(pos)
    out[at] = TURNED[way][out[at]]
    return out


def _name_rotation(rot: tuple[int, str]) -> str:
    return f"rotate {name(rot[0])} {rot[1]}"


def _order(step: Step) -> float:
    """Orders first steps for the search: wins, then captures (the richer prey first), then territory."""
    _s, _d, capture, _after, both, v = step
    return -(1000.0 * (v == WIN) + 10.0 * capture + both[0] + both[1])


class _Search:
    """Alpha-beta over half-turns (first steps) below a root of whole turns, on a clock."""

    def __init__(self, board: Board, me: int, deadline: float) -> None:
        self.targets = board.targets
        self.me = me
        self.deadline = deadline
        self.nodes = 0

    def tick(self) -> None:
        """Counts a node; raises _OutOfTime past the deadline."""
        self.nodes += 1
        if time.perf_counter() > self.deadline:
            raise _OutOfTime

    def node(self, pos: Pos, scores: tuple[int, int], to_move: int, depth: int,
             alpha: float, beta: float) -> float:
        """Returns the value for ``me`` of ``pos`` with ``to_move`` to play, ``depth`` half-turns deep."""
        self.tick()
        me, targets = self.me, self.targets
        if depth == 0:
            return evaluate(pos, scores, targets, me, to_move)
        steps = first_steps(pos, to_move, targets, scores)
        mine = to_move == me
        if not steps:
            return -WIN_VALUE if mine else WIN_VALUE
        if any(s[5] == WIN for s in steps):
            return WIN_VALUE if mine else -WIN_VALUE
        steps.sort(key=_order)
        return self.children([(s[3], s[4]) for s in steps], 1 - to_move, depth - 1, alpha, beta, mine)

    def children(self, positions: list[tuple[Pos, tuple[int, int]]], to_move: int, depth: int,
                 alpha: float, beta: float, maximise: bool) -> float:
        """Returns the best (``maximise``) or worst value among ``positions`` with ``to_move`` to play."""
        best = -2 * WIN_VALUE if maximise else 2 * WIN_VALUE
        for pos, scores in positions:
            value = self.node(pos, scores, to_move, depth, alpha, beta)
            if maximise:
                if value > best:
                    best = value
                    alpha = max(alpha, value)
            elif value < best:
                best = value
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    def root(self, after: Pos, both: tuple[int, int], replies: list[Step], rot: tuple[int, str],
             depth: int, alpha: float) -> float:
        """Returns the value of a whole turn (``after`` its first step, then ``rot``) ``depth`` half-turns
        deep, or at most ``alpha`` when it is no better than that."""
        them = 1 - self.me
        if depth == 1:  # no clock: the one-turn judgement of every whole turn always finishes
            return evaluate(_turned(after, *rot), both, self.targets, self.me, them)
        if not replies:
            return WIN_VALUE
        at, way = rot
        leaves: list[tuple[Pos, tuple[int, int]]] = []
        for _s, dst, _c, pos, scores, v in replies:
            if v == WIN:
                return -WIN_VALUE
            if dst != at:  # else the rotated ship was taken
                pos = dict(pos)
                pos[at] = TURNED[way][pos[at]]
            leaves.append((pos, scores))
        return self.children(leaves, self.me, depth - 2, alpha, 2 * WIN_VALUE, False)


MAX_DEPTH = 3
"""The deepest the hard search goes, in half-turns (our whole turn, their first step, ours)."""


def _search(board: Board, me: int, steps: list[tuple[str, Step]], deep: bool, deadline: float,
            rng: random.Random, rotations: Iterable[str] | None = None) -> tuple[str, str]:
    """Returns the best whole turn as (first step, rotation): one turn deep (normal), or deepening
    on a clock up to :data:`MAX_DEPTH` half-turns (hard)."""
    targets, them = board.targets, 1 - me
    wanted = None if rotations is None else [_parse_rotation(m) for m in rotations]
    search = _Search(board, me, deadline)
    replies: list[list[Step]] = []
    scored: list[tuple[float, Candidate]] = []
    for i, (_move, (_s, _d, _c, after, both, _v)) in enumerate(steps):
        answers = sorted(first_steps(after, them, targets, both), key=_order)
        replies.append(answers)
        rots = wanted if wanted is not None else _rotations(after, me)
        if not answers:  # the opponent cannot move: a win
            return steps[i][0], _name_rotation(rots[0])
        danger = -WIN_VALUE / 2 if answers[0][5] == WIN else 0.0
        for rot in rots:
            value = search.root(after, both, answers, rot, 1, 0.0) + danger
            scored.append((value + rng.random() * 1e-3, (i, rot)))
    scored.sort(key=lambda c: -c[0])
    best = scored[0][1]
    depth = 2
    while deep and depth <= MAX_DEPTH and len(scored) > 1:
        found: list[tuple[float, Candidate]] = []
        alpha = -2 * WIN_VALUE
        try:
            for _old, (i, rot) in scored:
                _m, (_s, _d, _c, after, both, _v) = steps[i]
                value = search.root(after, both, replies[i], rot, depth, alpha)
                found.append((value, (i, rot)))
                if value > alpha:
                    alpha, best = value, (i, rot)
        except _OutOfTime:
            break
        rank = {c: k for k, (_v, c) in enumerate(scored)}
        scored = sorted(found, key=lambda c: (-c[0], rank[c[1]]))
        if alpha >= WIN_VALUE or alpha <= -WIN_VALUE:
            break  # a forced win found, or every turn loses: deeper changes nothing
        depth += 1
    i, rot = best
    return steps[i][0], _name_rotation(rot)
