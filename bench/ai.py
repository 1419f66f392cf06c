"""Bots: the ladder of levels with 95% intervals, think time per level, and the event loop's lag.

    python bench/ai.py [--games 200] [--jobs 2] [--budget 1.0] [--players 2,3,4] [--rungs ...] [game ...]

**The ladder.** Each rung is a level against the one below (``hard-normal``, ``normal-easy``,
``easy-random``; "random" picks uniformly among the legal moves but giving up). A match-up
plays ``--games`` games from seeds 0, 1, …, the level under test in seat ``seed % players``
and the level below in every other seat, so each seat is taken in turn. XISK is played at
2, 3 and 4 players (one of the level against one, two or three of the level below);
Nexohominis under ``round_limit 6`` (scored by surviving worth). The figure is the tested
level's win share (a draw counts half; a game still running at the move cap counts as not
won) with its Wilson 95% interval, beside its floor measured in the same run: the level
below in every seat, over a quarter as many games, whose share for the same seat is what
seating alone gives (about 1/players).

**Think time.** Every bot move of the ladder is timed on the wall clock around
``engines.core.ai.think`` with the host's budget (``--budget``, the default of
``TABLEHOST_BOT_BUDGET``), while ``--jobs`` games run at once: a loaded machine. p99 and the
maximum per level and game stand beside the goals (p99 <= budget, max <= 1.5 x budget) and
beside the floor, the time to list the legal moves.

**The loop's lag.** Hard bots think through the host's own path (``host.bots.Thinker``), two
at once, for ``--lag-seconds`` per game, while a task on the event loop asks to wake every
10 ms; its lateness p99 stands beside the floor, the same task with no bot thinking (goal
p99 <= 50 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import GAMES
from engines.core.ai import BUDGET, LEVELS, think

OPTIONS: dict[str, dict[str, Any]] = {"nexo": {"round_limit": 6}}
"""Options that keep a benchmark game finite (Nexohominis is scored by surviving worth after 6 rounds)."""
MOVE_CAP = {"xisk": 6_000, "nxs": 600, "nexo": 3_000}
GIVE_UP = {"concede", "resign", "scrap"}
RUNGS = (("hard", "normal"), ("normal", "easy"), ("easy", "random"))
GOAL = {"hard": 0.65, "normal": 0.65, "easy": 0.80}
"""The win share each level must reach against the level below."""
RANDOM = "random"


def random_move(legal: list[str], rng: random.Random) -> str:
    """Returns a uniformly random legal move that does not give up (when there is one)."""
    keep = [m for m in legal if m.split()[0] not in GIVE_UP]
    return rng.choice(keep or legal)


@dataclass
class Game:
    """One seeded game's result for the tested seat, and its times."""

    share: float
    """1 won, 0.5 a draw, 0 lost or capped."""
    thinks: dict[str, list[float]] = field(default_factory=dict)
    listing: list[float] = field(default_factory=list)


Task = tuple[str, int, str, str, int, float]
"""(game, players, tested level, level below, seed, budget)."""


def play(task: Task) -> Game:
    """Plays one game; the tested level sits at ``seed % players``, the level below everywhere else."""
    name, players, level, below, seed, budget = task
    seats = [f"p{i + 1}" for i in range(players)]
    game = GAMES[name].new(seats, seed, OPTIONS.get(name, {}))
    tested = seats[seed % players]
    sides = {s: (level if s == tested else below) for s in seats}
    rng = random.Random(seed * 7919 + 1)
    out = Game(0.0)
    for _ in range(MOVE_CAP.get(name, 2_000)):
        if game.is_over:
            break
        seat = game.to_act()[0]
        who = sides[seat]
        t = time.perf_counter()
        legal = game.legal_moves(seat)
        out.listing.append(time.perf_counter() - t)
        if who == RANDOM:
            move = random_move(legal, rng)
        else:
            t = time.perf_counter()
            move = think(game, seat, who, rng, budget=budget)
            out.thinks.setdefault(who, []).append(time.perf_counter() - t)
        game.play(seat, move)
    if game.is_over:
        out.share = 1.0 if game.winners == [tested] else 0.5 if not game.winners else 0.0
    return out


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Returns the Wilson 95% interval of a proportion ``share`` observed over ``n`` trials.

    >>> [round(x, 3) for x in wilson(0.5, 100)]
    [0.404, 0.596]
    """
    if n == 0:
        return 0.0, 1.0
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def pct(values: list[float], q: float) -> float:
    """Returns the q-th percentile (nearest rank, 0–100) of ``values``, in ms (0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))] * 1000


def match(pool: Any, name: str, players: int, level: str, below: str, games: int, budget: float,
          thinks: dict[str, list[float]], listing: list[float]) -> float:
    """Returns the tested level's win share over ``games`` seeded games; adds the times gathered."""
    results = pool.map(play, [(name, players, level, below, seed, budget) for seed in range(games)], chunksize=1)
    for r in results:
        for lvl, times in r.thinks.items():
            thinks.setdefault(lvl, []).extend(times)
        listing.extend(r.listing)
    return sum(r.share for r in results) / games


def ladder(pool: Any, name: str, players: int, games: int, budget: float, rungs: list[tuple[str, str]],
           thinks: dict[str, list[float]], listing: list[float]) -> list[bool]:
    """Prints one game's rungs at ``players`` players; returns whether each met its goal."""
    met = []
    for level, below in rungs:
        start = time.perf_counter()
        share = match(pool, name, players, level, below, games, budget, thinks, listing)
        floor = match(pool, name, players, below, below, max(games // 4, 4), budget, thinks, listing)
        low, high = wilson(share, games)
        met.append(share >= GOAL[level])
        ratio = share / floor if floor else math.inf
        print(f"  {name} {players}p  {level:>6} vs {below:<6} {share:6.1%} [{low:.1%}–{high:.1%}]"
              f" (goal >= {GOAL[level]:.0%}{'' if met[-1] else ': MISSED'})"
              f" over {games} games; floor {below} vs {below} {floor:.1%}, ratio {ratio:.2f}x"
              f"  [{time.perf_counter() - start:.0f} s]", flush=True)
    return met


def times_report(name: str, thinks: dict[str, list[float]], listing: list[float], budget: float) -> bool:
    """Prints think p50/p99/max per level beside the goals and the floor; returns whether all goals hold."""
    ok = True
    floor = pct(listing, 99)
    for lvl in LEVELS:
        times = thinks.get(lvl, [])
        if not times:
            continue
        p99, most = pct(times, 99), max(times) * 1000
        good = p99 <= budget * 1000 and most <= budget * 1500
        ok &= good
        print(f"  {name} {lvl:>6} think p50 {pct(times, 50):6.1f} ms  p99 {p99:6.1f} ms  max {most:6.1f} ms"
              f" (goals p99 <= {budget * 1000:.0f}, max <= {budget * 1500:.0f}{'' if good else ': MISSED'})"
              f" over {len(times)} moves; floor legal_moves p99 {floor:.2f} ms,"
              f" ratio {p99 / floor if floor else 0:.0f}x")
    return ok


# -- the loop's lag ------------------------------------------------------------------------------


def hard_positions(name: str, count: int, seed: int = 1) -> list[tuple[Any, str]]:
    """Returns (game, seat) pairs where a hard bot must act, from a seeded game of hard against normal."""
    game = GAMES[name].new(["p1", "p2"], seed, OPTIONS.get(name, {}))
    rng = random.Random(seed)
    out: list[tuple[Any, str]] = []
    for _ in range(MOVE_CAP[name]):
        if game.is_over or len(out) >= count:
            break
        seat = game.to_act()[0]
        if seat == "p1":
            out.append((game.clone(), seat))
        game.play(seat, think(game, seat, "normal", rng, budget=0.2))
    return out


async def _ticks(stop: asyncio.Event, every: float = 0.01) -> list[float]:
    """Returns how late each 10 ms wake-up came until ``stop`` is set."""
    late = []
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(every)
        late.append(max(0.0, time.perf_counter() - t - every))
    return late


async def _lag(name: str, seconds: float, budget: float, think_too: bool) -> list[float]:
    from host.thinker import Thinker

    thinker = Thinker(budget=budget)
    positions = hard_positions(name, 24)
    stop = asyncio.Event()
    ticker = asyncio.create_task(_ticks(stop))

    async def channel(k: int) -> None:
        i = k
        while not stop.is_set():
            game, seat = positions[i % len(positions)]
            await thinker.move(game.clone(), seat, "hard")
            i += 2

    workers = [asyncio.create_task(channel(k)) for k in range(2)] if think_too else []
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*workers)
    late = await ticker
    thinker.close()
    return late


def lag_report(names: list[str], seconds: float, budget: float) -> bool:
    """Prints the loop's lag p99 while two hard bots think, beside the idle loop's; returns whether the goal holds."""
    ok = True
    for name in names:
        floor = asyncio.run(_lag(name, seconds / 4, budget, think_too=False))
        late = asyncio.run(_lag(name, seconds, budget, think_too=True))
        p99, base = pct(late, 99), pct(floor, 99)
        ok &= p99 <= 50
        print(f"  {name} loop lag while 2 hard bots think: p99 {p99:.1f} ms, max {max(late) * 1000:.1f} ms"
              f" (goal p99 <= 50) over {len(late)} wake-ups; floor with no bot thinking p99 {base:.1f} ms,"
              f" ratio {p99 / base if base else 0:.1f}x", flush=True)
    return ok


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="games (default: every game with bots)")
    ap.add_argument("--games", type=int, default=200, help="games per match-up")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--budget", type=float, default=BUDGET, help="seconds a bot may think (TABLEHOST_BOT_BUDGET)")
    ap.add_argument("--players", default="2,3,4", help="XISK's numbers of players")
    ap.add_argument("--rungs", default=",".join(f"{a}-{b}" for a, b in RUNGS), help="e.g. hard-normal,easy-random")
    ap.add_argument("--lag-seconds", type=float, default=20.0, help="seconds of hard thinking per game (0: skip)")
    args = ap.parse_args(argv)
    names = args.names or [n for n in ("xisk", "nxs", "nexo") if n in GAMES]
    rungs = [tuple(r.split("-", 1)) for r in args.rungs.split(",") if r]
    ok = True
    print(f"Ladder: {args.games} games per match-up, {args.jobs} at once, budget {args.budget:.2f} s")
    with multiprocessing.Pool(args.jobs) as pool:
        for name in names:
            thinks: dict[str, list[float]] = {}
            listing: list[float] = []
            counts = [int(p) for p in args.players.split(",")] if name == "xisk" else [2]
            for players in counts:
                ok &= all(ladder(pool, name, players, args.games, args.budget, rungs, thinks, listing))
            ok &= times_report(name, thinks, listing, args.budget)
    if args.lag_seconds > 0:
        ok &= lag_report(names, args.lag_seconds, args.budget)
    print("every goal met" if ok else "some goal MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
