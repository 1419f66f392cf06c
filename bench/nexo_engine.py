"""Measures the Nexohominis engine: moves per second of random play, and one line-of-sight query.

Run from the repository root::

    python bench/nexo_engine.py [--moves 1500] [--seed 1]

Random play picks uniformly among ``legal_moves`` (no ``concede``/``scrap``), so the figure
includes building the legal sample, which dominates. The p99 of one ``legal_moves`` call is
reported for the calls after move 1,000 (goal: at most 50 ms; the host's autocomplete calls
it), when the battlefield is crowded; a line-of-sight query is timed on the
``crossroads`` preset (full terrain) between deployed models across the battlefield.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.nexo.game import Nexo
from engines.nexo.sight import visible

LATE = 1000
"""legal_moves calls from this move on make the p99 figure."""


def p99(times: list[float]) -> float:
    """Returns the 99th percentile of ``times`` (nearest rank), 0 for none."""
    if not times:
        return 0.0
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, max(0, round(0.99 * len(ordered)) - 1))]


def random_play(battlefield: str, moves: int, seed: int,
                late: list[float] | None = None) -> tuple[int, float, int, float]:
    """Plays random legal moves; returns (moves, seconds, rounds, seconds in legal_moves).

    ``late`` collects the milliseconds of each legal_moves call from move LATE on.
    """
    g = Nexo.new(["ann", "bob"], seed=seed, options={"battlefield": battlefield})
    rng = random.Random(seed)
    n, t_legal, t0 = 0, 0.0, time.perf_counter()
    while n < moves:
        if g.is_over:
            g = Nexo.new(["ann", "bob"], seed=seed + n, options={"battlefield": battlefield})
        p = g.to_act()[0]
        t1 = time.perf_counter()
        legal = [m for m in g.legal_moves(p) if m != "concede" and not m.startswith("scrap")]
        dt = time.perf_counter() - t1
        t_legal += dt
        if late is not None and n >= LATE:
            late.append(dt * 1000)
        g.play(p, rng.choice(legal))
        n += 1
    return n, time.perf_counter() - t0, g.state.round, t_legal


def sight_query(repeat: int = 200) -> tuple[float, float]:
    """Returns (median, worst) milliseconds of one visibility query on crossroads."""
    g = Nexo.new(["ann", "bob"], seed=1, options={"battlefield": "crossroads"})
    w = g.world()
    bodies = w.bodies()
    pairs = [(w.body(a), w.body(b)) for a in g.state.models.values() for b in g.state.models.values()
             if a.owner == "p1" and b.owner == "p2"]
    times = []
    for i in range(repeat):
        a, b = pairs[i % len(pairs)]
        t0 = time.perf_counter()
        visible(w.terrain, a, b, bodies)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    """Prints the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for bf in ("crossroads", "dust_belt"):
        late: list[float] = []
        n, secs, rounds, t_legal = random_play(bf, args.moves, args.seed, late)
        print(f"{bf:>10}: {n} random moves in {secs:.2f} s = {n / secs:.0f} moves/s "
              f"({100 * t_legal / secs:.0f}% in legal_moves; last game at round {rounds}); "
              f"legal_moves after move {LATE}: p99 {p99(late):.1f} ms over {len(late)} calls (goal <= 50)")
    med, worst = sight_query()
    print(f"line of sight on crossroads (18 pieces): median {med:.2f} ms, worst {worst:.2f} ms")


if __name__ == "__main__":
    main()
