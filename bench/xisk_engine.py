#!/usr/bin/env python3
"""Benchmarks the XISK engine: moves per second and full-game time.

    python bench/xisk_engine.py [--games N] [--cap MOVES]

Two policies, 3 and 6 players each: ``random`` picks uniformly among the legal moves
(such a game may never finish, so it is capped at ``--cap`` moves and the report says
how many finished), and ``aggressive`` redeems at once, piles its supply on its
strongest border country, attacks whenever it has the upper hand and invades with
everything. Times cover ``legal_moves`` and ``play`` (what a host does per move).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.xisk import Xisk
from engines.xisk.board import load_board

BOARD = load_board()
Policy = Callable[[Xisk, str, list[str], random.Random], str]


def random_policy(g: Xisk, player: str, moves: list[str], rnd: random.Random) -> str:
    """Returns a uniformly random legal move."""
    return rnd.choice(moves)


def aggressive_policy(g: Xisk, player: str, moves: list[str], rnd: random.Random) -> str:
    """Returns the move of a simple greedy attacker."""
    s = g.state
    head = moves[0].split()[0]
    if head in ("claim", "invade"):
        return moves[0] if head == "claim" else moves[-1]
    redeems = [m for m in moves if m.startswith("redeem")]
    if redeems:
        return redeems[0]
    if head == "place":
        def border_strength(c: str) -> int:
            foreign = any(s.owner[n] != player for n in BOARD.neighbours[c])
            return s.chips[c] + (1000 if foreign else 0)
        best = max(s.countries_of(player), key=border_strength)
        return f"place {best} {s.supply_left}"
    attacks = [m for m in moves if m.startswith("attack")]
    if attacks:
        def edge(m: str) -> int:
            _, a, b = m.split()
            return s.chips[a] - s.chips[b]
        best_attack = max(attacks, key=edge)
        _, a, b = best_attack.split()
        if s.chips[a] > s.chips[b] or s.chips[a] >= 4:
            return best_attack
    return "end"


def run(players: int, policy: Policy, seed: int, cap: int) -> tuple[int, float, bool]:
    """Plays one game; returns (moves, seconds, finished)."""
    g = Xisk.new([f"p{i}" for i in range(players)], seed=seed)
    rnd = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    while not g.is_over and moves < cap:
        player = g.to_act()[0]
        g.play(player, policy(g, player, g.legal_moves(player), rnd))
        moves += 1
    return moves, time.perf_counter() - start, g.is_over


def main() -> None:
    """Runs every policy and player count and prints one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--cap", type=int, default=5000)
    args = parser.parse_args()
    print(f"{'policy':<11}{'players':>8}{'moves/s':>10}{'finished':>10}{'moves/game':>12}"
          f"{'s/game':>9}{'s/finished game':>17}")
    for name, policy in (("random", random_policy), ("aggressive", aggressive_policy)):
        for players in (3, 6):
            results = [run(players, policy, seed, args.cap) for seed in range(args.games)]
            total_moves = sum(m for m, _, _ in results)
            total_time = sum(t for _, t, _ in results)
            done = [t for _, t, over in results if over]
            finished = f"{len(done)}/{len(results)}"
            per_done = f"{statistics.mean(done):.3f}" if done else "-"
            print(f"{name:<11}{players:>8}{total_moves / total_time:>10.0f}{finished:>10}"
                  f"{total_moves / len(results):>12.0f}{total_time / len(results):>9.3f}{per_done:>17}")
    print(f"(random games stop at {args.cap} moves; an unfinished game counts its capped moves)")


if __name__ == "__main__":
    main()
