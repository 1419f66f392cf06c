"""Keyed draws: dice and 52-card shuffles per second, beside the old SplitMix64 and ``secrets``.

    cd bench && python draws.py [--runs 7] [--draws 20000] [--shuffles 1000]

Each keyed draw is one HMAC-SHA256 (:class:`engines.core.rng.KeyedDraws`). Its floors, measured
in the same run and timed turn about with it (so a busy machine's slow spell lands on all of
them): ``secrets.randbelow`` (the operating system's generator, what a bot with no replayable
dice would use) and the old :class:`engines.core.rng.SplitMix64`, which keyed draws replace.
A shuffle is Fisher–Yates of 52 cards, 51 draws; its floors are the same shuffle on SplitMix64
and ``random.SystemRandom().shuffle``. Each figure is the median of ``runs`` timed batches.
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.core.rng import KeyedDraws, SplitMix64

SEED = "5e" * 32
ENTROPY = "1183000000000000001:my lucky words|1183000000000000002|bot"


def per_second(batches: dict[str, Callable[[], None]], size: int, runs: int) -> dict[str, float]:
    """Returns each batch's rate (``size`` / median wall time), the batches timed turn about ``runs`` times."""
    times: dict[str, list[float]] = {name: [] for name in batches}
    for _ in range(runs):
        for name, batch in batches.items():
            t = time.perf_counter()
            batch()
            times[name].append(time.perf_counter() - t)
    return {name: size / statistics.median(spent) for name, spent in times.items()}


def dice(count: int, runs: int) -> dict[str, float]:
    keyed, old = KeyedDraws(key=SEED, entropy=ENTROPY, counter=0), SplitMix64(state=7)
    batch = range(count)

    def keyed_d6() -> None:
        for _ in batch:
            keyed.below(6)

    def secrets_d6() -> None:
        for _ in batch:
            secrets.randbelow(6)

    def old_d6() -> None:
        for _ in batch:
            old.below(6)

    return per_second({"keyed": keyed_d6, "secrets": secrets_d6, "old": old_d6}, count, runs)


def shuffles(count: int, runs: int) -> dict[str, float]:
    keyed, old, system = KeyedDraws(key=SEED, entropy=ENTROPY, counter=0), SplitMix64(state=7), random.SystemRandom()
    cards = list(range(52))

    def of(shuffle: Callable[[list[int]], None]) -> Callable[[], None]:
        def batch() -> None:
            for _ in range(count):
                shuffle(cards)
        return batch

    return per_second({"keyed": of(keyed.shuffle), "system": of(system.shuffle), "old": of(old.shuffle)}, count, runs)


def main() -> None:
    """Prints the dice and shuffle figures, each beside its floors."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--draws", type=int, default=20_000, help="d6 draws in one timed batch")
    parser.add_argument("--shuffles", type=int, default=1_000, help="52-card shuffles in one timed batch")
    args = parser.parse_args()
    d = dice(args.draws, args.runs)
    print(f"keyed d6: {d['keyed']:,.0f} draws/s = {d['keyed'] / d['secrets']:.2f}× secrets.randbelow "
          f"({d['secrets']:,.0f}/s), {d['keyed'] / d['old']:.2f}× the old SplitMix64 ({d['old']:,.0f}/s); "
          f"{1e6 / d['keyed']:.2f} µs a draw")
    s = shuffles(args.shuffles, args.runs)
    print(f"keyed 52-card shuffle: {s['keyed']:,.0f} shuffles/s = {s['keyed'] / s['old']:.2f}× the old SplitMix64 "
          f"({s['old']:,.0f}/s), {s['keyed'] / s['system']:.2f}× random.SystemRandom().shuffle "
          f"({s['system']:,.0f}/s); {1e3 / s['keyed']:.3f} ms a shuffle")
    print(f"  (median of {args.runs} batches of {args.draws:,} draws and of {args.shuffles:,} shuffles, turn about)")


if __name__ == "__main__":
    main()
