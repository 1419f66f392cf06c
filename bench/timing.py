"""Timing shared by the benchmarks (each script puts bench/ on the path by being run from it)."""

from __future__ import annotations

import statistics
import time
from typing import Any


def interleaved_medians(first: Any, second: Any, runs: int) -> tuple[float, float]:
    """Returns the median wall times (ms) of ``first()`` and ``second()``, timed turn about.

    Alternating the two keeps a busy machine's slow spells from landing on one side only.
    """
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(runs):
        for fn, out in ((first, times[0]), (second, times[1])):
            t = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t)
    return statistics.median(times[0]) * 1000, statistics.median(times[1]) * 1000
