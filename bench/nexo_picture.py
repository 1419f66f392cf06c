"""Benchmarks Nexohominis command → picture: one move played, its view taken and its picture encoded.

Run from the project root::

    python bench/nexo_picture.py [--seed 2] [--rounds 30] [--moves 600] [--battlefield crossroads]

It plays a seeded game with random legal moves (never ``concede``, ``resign`` or ``scrap``:
scrapping ends a random game within a round, and the goal is about crowded late positions)
until round ``rounds`` ends, the game is over or ``moves`` were played. For each move it
times ``game.play(...)`` + ``game.view(None)`` + ``render.render("nexo", view)`` (the
command's cost, not choosing it: ``legal_moves`` is left out), then, turn about, the floor:
``render.common.encode`` of the same finished picture alone. It prints p50 and p99 of both,
their ratios, and the goal (command → picture p99 ≤ 150 ms); then the same over the moves of
the last third of the game (the late, crowded positions) alone.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import render
from engines import GAMES
from render.common import encode
from render.nexo import draw

PLAYERS = ["ann", "bob"]
GOAL_P99_MS = 150.0
"""Goal for the command → picture p99, milliseconds."""
SKIP = ("concede", "resign", "scrap")


def percentile(times: list[float], q: float) -> float:
    """Returns the ``q`` quantile of ``times`` (nearest rank), 0 for none."""
    if not times:
        return 0.0
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def play(seed: int, battlefield: str, rounds: int, moves: int) -> list[tuple[int, int, float, float]]:
    """Returns per move: (round, models, command → picture ms, encode-only ms of the same picture)."""
    g = GAMES["nexo"].new(PLAYERS, seed, {"battlefield": battlefield})
    rng = random.Random(seed)
    out: list[tuple[int, int, float, float]] = []
    while not g.is_over and len(out) < moves and g.view(None)["round"] <= rounds:
        player = g.to_act()[0]
        legal = [m for m in g.legal_moves(player) if not m.startswith(SKIP)]
        if not legal:
            break
        move = rng.choice(legal)
        t = time.perf_counter()
        g.play(player, move)
        view = g.view(None)
        render.render("nexo", view)
        total = time.perf_counter() - t
        image = draw(view)
        t = time.perf_counter()
        encode(image)
        floor = time.perf_counter() - t
        out.append((int(view["round"]), len(view.get("models") or {}), total * 1000, floor * 1000))
    return out


def summary(name: str, rows: list[tuple[int, int, float, float]]) -> str:
    """Returns one line: p50 and p99 of command → picture and of its floor, their ratios, against the goal."""
    total, floor = [r[2] for r in rows], [r[3] for r in rows]
    p50, p99, f50, f99 = (percentile(total, 0.5), percentile(total, 0.99), percentile(floor, 0.5),
                          percentile(floor, 0.99))
    return (f"{name}: {len(rows)} moves, rounds {rows[0][0]}-{rows[-1][0]}, up to {max(r[1] for r in rows)} models; "
            f"command -> picture p50 {p50:.1f} ms, p99 {p99:.1f} ms (goal <= {GOAL_P99_MS:.0f}: "
            f"{'met' if p99 <= GOAL_P99_MS else 'NOT met'}); encode-only p50 {f50:.1f} ms, p99 {f99:.1f} ms; "
            f"ratio p50 {p50 / f50:.2f}, p99 {p99 / f99:.2f}")


def main() -> None:
    """Plays the game and prints the whole game's figures, then the last third's."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--battlefield", default="crossroads")
    args = parser.parse_args()
    render.render("nexo", GAMES["nexo"].new(PLAYERS, args.seed, {"battlefield": args.battlefield}).view(None))
    rows = play(args.seed, args.battlefield, args.rounds, args.moves)
    if not rows:
        print("no move could be played")
        return
    print(f"{args.battlefield}, seed {args.seed} (static layer warmed first)")
    print(summary("whole game", rows))
    late = rows[len(rows) * 2 // 3:]
    print(summary("last third", late))


if __name__ == "__main__":
    main()
