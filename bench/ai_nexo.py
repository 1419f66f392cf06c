"""Nexohominis bots: ``hard`` against random and ``easy`` play under a round limit, and think time per level.

    python bench/ai_nexo.py [--games 200] [--round-limit 6] [--cap 3000] [--jobs 2] [--normal 0]

Each match-up plays games from seeds 0, 1, …: the bot under test takes the first seat in
even games and the second in odd ones, on the crossroads preset, with the option
``round_limit`` (the game then ends scored by surviving worth). "random" picks uniformly
among the legal moves except ``concede`` and ``scrap``. A game still running after
``--cap`` moves counts as not won. Think time is measured around ``engines.core.ai.think``
(which lists the legal moves and builds the view) for every bot move, as wall-clock time
and as the process's CPU time (the same on an idle machine; CPU time does not count what
other programs running meanwhile take); p50 and p99 are given per level.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.core.ai import BUDGET, LEVELS, think
from engines.nexo.game import Nexo

Task = tuple[str, str | None, int, int, int]
"""(bot level, opponent level or None for random, seed, round limit, move cap)."""
Result = tuple[str, dict[str, list[tuple[float, float]]], int]
"""(``won``/``lost``/``drawn``/``capped``, level → [(wall, cpu)] think times, worth margin)."""


def random_move(legal: list[str], rng: random.Random) -> str:
    """Returns a uniformly random legal move other than ``concede`` and ``scrap``."""
    keep = [m for m in legal if m != "concede" and not m.startswith("scrap")]
    return rng.choice(keep or legal)


def play(task: Task) -> Result:
    """Plays one seeded game of ``level`` against ``opponent``; returns its result for the bot."""
    level, opponent, seed, limit, cap = task
    g = Nexo.new(["ann", "bob"], seed=seed, options={"round_limit": limit})
    bot = "ann" if seed % 2 == 0 else "bob"
    sides = {bot: level, ("bob" if bot == "ann" else "ann"): opponent}
    rng = random.Random(seed * 7919 + 1)
    times: dict[str, list[tuple[float, float]]] = {}
    for _ in range(cap):
        if g.is_over:
            break
        player = g.to_act()[0]
        who = sides[player]
        if who is None:
            move = random_move(g.legal_moves(player), rng)
        else:
            wall, cpu = time.perf_counter(), time.process_time()
            move = think(g, player, who, rng)
            times.setdefault(who, []).append((time.perf_counter() - wall, time.process_time() - cpu))
        g.play(player, move)
    w = g.world()
    seat = "p1" if bot == "ann" else "p2"
    margin = w.worth(seat) - w.worth("p2" if seat == "p1" else "p1")
    if not g.is_over:
        return "capped", times, margin
    if not g.winners:
        return "drawn", times, margin
    return ("won" if g.winners == [bot] else "lost"), times, margin


def percentile(values: list[float], q: float) -> float:
    """Returns the ``q``-th percentile (nearest rank) of ``values``, 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def match(pool: multiprocessing.pool.Pool, level: str, opponent: str | None, games: int, limit: int,
          cap: int, times: dict[str, list[tuple[float, float]]]) -> str:
    """Plays ``games`` games and returns a line of results; adds the think times to ``times``."""
    tally = {"won": 0, "lost": 0, "drawn": 0, "capped": 0}
    margins = []
    for outcome, t, margin in pool.imap_unordered(play, [(level, opponent, seed, limit, cap)
                                                         for seed in range(games)]):
        tally[outcome] += 1
        margins.append(margin)
        for lvl, got in t.items():
            times.setdefault(lvl, []).extend(got)
    rate = tally["won"] / games
    return (f"{level} vs {opponent or 'random'}: {rate:.1%} won over {games} games "
            f"({tally['won']} won, {tally['lost']} lost, {tally['drawn']} drawn, {tally['capped']} capped); "
            f"mean worth margin {sum(margins) / len(margins):+.0f}")


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--round-limit", type=int, default=6)
    ap.add_argument("--cap", type=int, default=3000, help="moves after which a game counts as not won")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--normal", type=int, default=0, help="also play normal vs random over this many games")
    args = ap.parse_args(argv)
    times: dict[str, list[tuple[float, float]]] = {}
    print(f"Nexohominis, crossroads, round_limit {args.round_limit}, cap {args.cap} moves")
    with multiprocessing.Pool(args.jobs) as pool:
        print(match(pool, "hard", None, args.games, args.round_limit, args.cap, times), "(goal >= 95%)")
        print(match(pool, "hard", "easy", args.games, args.round_limit, args.cap, times), "(goal >= 70%)")
        if args.normal:
            print(match(pool, "normal", None, args.normal, args.round_limit, args.cap, times))
    for lvl in LEVELS:
        got = times.get(lvl, [])
        wall, cpu = [t[0] for t in got], [t[1] for t in got]
        print(f"  {lvl:>6}: think p50 {percentile(wall, 50) * 1000:.0f} ms, p99 {percentile(wall, 99) * 1000:.0f} ms "
              f"wall; p50 {percentile(cpu, 50) * 1000:.0f} ms, p99 {percentile(cpu, 99) * 1000:.0f} ms CPU "
              f"(goal p99 <= {BUDGET * 1000:.0f} ms) over {len(got)} moves")


if __name__ == "__main__":
    main(sys.argv[1:])
