"""Prints the speed of the NXS engine in random play (moves per second, moves = plies).

    python bench/nxs_engine.py [--games 40] [--layout medium] [--seed 1]

Each ply asks for the legal moves, picks one at random (never ``resign``) and plays it
through the full contract (``play``: turn check, snapshot, apply).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines import GAMES


def run(games: int, layout: str, seed: int) -> tuple[int, float, Counter[str]]:
    """Plays ``games`` random games; returns the plies played, the seconds taken and the endings."""
    rnd = random.Random(seed)
    plies, endings = 0, Counter[str]()
    start = time.perf_counter()
    for i in range(games):
        g = GAMES["nxs"].new(["ann", "bob"], seed=i, options={"layout": layout})
        while not g.is_over:
            player = g.to_act()[0]
            g.play(player, rnd.choice(g.legal_moves(player)[:-1]))
            plies += 1
        endings[g.view(None)["result"]["termination"]] += 1
    return plies, time.perf_counter() - start, endings


def main() -> None:
    """Parses the arguments, runs the benchmark and prints one line per figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--layout", default="medium")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    plies, seconds, endings = run(args.games, args.layout, args.seed)
    print(f"nxs {args.layout}: {args.games} games, {plies} moves in {seconds:.2f} s "
          f"= {plies / seconds:,.0f} moves/s ({plies / args.games:.0f} moves a game)")
    print("endings: " + ", ".join(f"{k} {v}" for k, v in endings.most_common()))


if __name__ == "__main__":
    main()
