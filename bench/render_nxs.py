"""Benchmarks the NXS picture: render time against PNG-encode time of the same picture.

Builds a mid-game view from seeded random legal play (captures preferred, no resigning),
selects the ship with the most moves and captures, then prints the median render time, the
median encode-only time of the finished (paletted) picture, their ratio against its target
(≤ :data:`TARGET`: drawing may add at most 30 % to the encoding) and the PNG size (target ≤ 200 KB)::

    /work/main/.venv/bin/python bench/render_nxs.py [--seed 5] [--turns 60] [--runs 41]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.nxs.game import Nxs
from engines.nxs.view import piece_moves
from render.common import to_png
from render.nxs import COMPRESS_LEVEL, paletted, render

TARGET = 1.3
"""Most a render (draw + encode) may take, as a multiple of the encode-only time of its picture."""


def mid_game(seed: int, turns: int) -> dict[str, Any]:
    """Returns the view after ``turns`` random legal moves (captures first) of a seeded game."""
    game = Nxs.new(["ann", "bob"], seed=seed)
    rng = random.Random(seed)
    for _ in range(turns):
        if game.is_over:
            break
        who = game.to_act()[0]
        legal = [m for m in game.legal_moves(who) if m != "resign"]
        caps = [m for m in legal if m.startswith("capture")]
        game.play(who, rng.choice(caps or legal))
    return game.view(None)


def marks(view: dict[str, Any]) -> dict[str, Any]:
    """Returns the selection marks of the mover's busiest ship (as ``/nxs show`` would)."""
    mover = view["turn"] or view["players"][0]
    best: dict[str, Any] = {}
    for p in view["pieces"]:
        if p["owner"] != mover:
            continue
        pm = piece_moves(view, p["cell"])
        if len(pm["moves"]) + len(pm["captures"]) > len(best.get("moves", [])) + len(best.get("captures", [])):
            best = {"selected": p["cell"], **pm}
    return best


def timed(fn: Callable[[], object]) -> float:
    """Returns the seconds one call of ``fn`` takes."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    """Runs the benchmark and prints its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--runs", type=int, default=41)
    args = parser.parse_args()
    view = mid_game(args.seed, args.turns)
    mk = marks(view)
    render(view, **mk)  # warm the static layer and tile caches
    picture = paletted(view, **mk)
    renders, encodes = [], []
    for _ in range(args.runs):  # interleaved, so drift in machine load hits both alike
        renders.append(timed(lambda: render(view, **mk)))
        encodes.append(timed(lambda: to_png(picture, compress_level=COMPRESS_LEVEL)))
    png = render(view, **mk)
    r, e = statistics.median(renders), statistics.median(encodes)
    print(f"view: {len(view['pieces'])} ships, score {view['score']}, marks {mk}")
    print(f"picture: {picture.width}x{picture.height}")
    print(f"median render: {r * 1000:.1f} ms")
    print(f"median encode: {e * 1000:.1f} ms")
    print(f"ratio: {r / e:.2f} (target <= {TARGET}: {'met' if r / e <= TARGET else 'MISSED'})")
    print(f"png: {len(png) / 1024:.0f} KB (target <= 200)")


if __name__ == "__main__":
    main()
