"""Bots: win rates of ``hard`` against random and ``easy`` play, and think time per level.

    python bench/ai.py [games per match-up, default 200] [game ...]

Each match-up plays two-player games from fixed seeds, the bot taking the first seat in
even games and the second in odd ones. "random" picks uniformly among the legal moves
but giving up. A game still running after the move cap counts as not won. Each figure
stands beside its floor from the same run: a win rate beside random against random, a
think time beside the time to list the legal moves it chose from.
"""

from __future__ import annotations

import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import GAMES
from engines.core.ai import LEVELS, think

OPTIONS: dict[str, dict[str, Any]] = {"nexo": {"round_limit": 6}}
"""Options that keep a benchmark game finite (Nexohominis is scored by surviving worth after 6 rounds)."""
MOVE_CAP = {"xisk": 6_000, "nxs": 600, "nexo": 3_000}
GIVE_UP = {"concede", "resign", "scrap"}


def random_move(legal: list[str], rng: random.Random) -> str:
    """Returns a uniformly random legal move that does not give up (when there is one)."""
    keep = [m for m in legal if m.split()[0] not in GIVE_UP]
    return rng.choice(keep or legal)


def play(task: tuple[str, str | None, str | None, int]) -> tuple[int, dict[str, list[float]], list[float]]:
    """Plays one game; returns (1 if the first player's side won, else 0), think times by level, legal times."""
    name, level, opponent, seed = task
    cls = GAMES[name]
    game = cls.new(["p1", "p2"], seed, OPTIONS.get(name, {}))
    sides = {"p1": level, "p2": opponent} if seed % 2 == 0 else {"p1": opponent, "p2": level}
    rng = random.Random(seed * 7919 + 1)
    thinks: dict[str, list[float]] = {}
    listing: list[float] = []
    for _ in range(MOVE_CAP.get(name, 2_000)):
        if game.is_over:
            break
        seat = game.to_act()[0]
        who = sides[seat]
        t = time.perf_counter()
        legal = game.legal_moves(seat)
        listing.append(time.perf_counter() - t)
        if who is None:
            move = random_move(legal, rng)
        else:
            t = time.perf_counter()
            move = think(game, seat, who, rng)
            thinks.setdefault(who, []).append(time.perf_counter() - t)
        game.play(seat, move)
    bot_seat = "p1" if seed % 2 == 0 else "p2"
    return int(game.is_over and game.winners == [bot_seat]), thinks, listing


def match(pool: Any, name: str, level: str | None, opponent: str | None, games: int) -> tuple[float, dict, list]:
    """Returns the first side's win rate over ``games`` seeded games, and the times gathered."""
    results = pool.map(play, [(name, level, opponent, seed) for seed in range(games)])
    thinks: dict[str, list[float]] = {}
    listing: list[float] = []
    for _, t, lst in results:
        for lvl, times in t.items():
            thinks.setdefault(lvl, []).extend(times)
        listing.extend(lst)
    return sum(r[0] for r in results) / games, thinks, listing


def pct(values: list[float], q: float) -> float:
    """Returns the q-th percentile (0–100) in ms."""
    if not values:
        return 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1] * 1000 if len(values) > 1 \
        else values[0] * 1000


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 200
    names = argv[1:] or [n for n in ("xisk", "nxs", "nexo") if n in GAMES]
    with multiprocessing.Pool(2) as pool:
        for name in names:
            floor, _, _ = match(pool, name, None, None, games)
            vs_random, thinks, listing = match(pool, name, "hard", None, games)
            vs_easy, more, _ = match(pool, name, "hard", "easy", games)
            normal, most, _ = match(pool, name, "normal", None, max(games // 4, 10))
            for extra in (more, most):
                for lvl, times in extra.items():
                    thinks.setdefault(lvl, []).extend(times)
            print(f"{name}: hard vs random {vs_random:.0%} (goal >= 95%), hard vs easy {vs_easy:.0%} (goal >= 70%);"
                  f" floor: random vs random {floor:.0%}; {games} games each, normal vs random {normal:.0%}")
            list_p50 = pct(listing, 50)
            for lvl in LEVELS:
                times = thinks.get(lvl, [])
                p50, p99 = pct(times, 50), pct(times, 99)
                print(f"  {lvl:>6}: think p50 {p50:.1f} ms, p99 {p99:.1f} ms (goal <= 2000) over {len(times)} moves;"
                      f" floor: legal_moves p50 {list_p50:.2f} ms, ratio {p50 / list_p50 if list_p50 else 0:.1f}x")


if __name__ == "__main__":
    main(sys.argv[1:])
