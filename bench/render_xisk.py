"""Benchmarks the XISK picture: render time against encoding time of the same picture.

Run from the project root::

    python bench/render_xisk.py [--runs 50] [--out /tmp/xisk.webp]

It plays random legal moves of a seeded 4-player game to a mid-game position (falling
back to a hand-made view if the engine cannot), renders it and encodes the finished picture
alone as it is sent (lossless WebP), ``runs`` times each (turn about), and prints both
medians, their ratio and the picture's size. The target: ratio ≤ 1.3 (the issue on board size)
and at most 200 KB.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import interleaved_medians

from engines.xisk.board import load_board
from render.common import to_webp
from render.xisk import WEBP_EFFORT, WEBP_METHOD, draw_picture, render
from render.xisk_palette import paletted_felt

PLAYERS = ["ann", "bob", "cy", "dee"]


def played_view(seed: int = 3, moves: int = 260) -> dict[str, Any]:
    """Returns the spectator view after ``moves`` random legal moves (attacks preferred)."""
    from engines.xisk.game import Xisk

    g = Xisk.new(PLAYERS, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        player = g.to_act()[0]
        legal = g.legal_moves(player)
        attacks = [m for m in legal if m.startswith("attack")]
        g.play(player, rng.choice(attacks) if attacks and rng.random() < 0.7 else rng.choice(legal))
    return g.view(None)


def hand_made_view() -> dict[str, Any]:
    """Returns a plausible mid-game view built without the engine."""
    board = load_board()
    rng = random.Random(5)
    countries = {c: {"owner": rng.choice(PLAYERS), "chips": rng.randint(1, 14)} for c in board.countries}
    countries["peru"]["owner"] = "neutral"
    return {
        "phase": "attack", "turn": "bob", "turn_number": 23, "to_act": ["bob"], "order": PLAYERS,
        "countries": countries, "cards_held": dict.fromkeys(PLAYERS, 3), "sets_redeemed": 4,
        "next_set_value": 5, "supply_left": 0, "claims_left": 0, "invade": None,
        "last_battle": {"from": "brazil", "to": "north-africa", "attacker_dice": [6, 4, 2],
                        "defender_dice": [5, 3], "attacker_losses": 1, "defender_losses": 1},
        "eliminated": [], "winner": None,
    }


def main() -> None:
    """Prints the medians, their ratio and the picture's size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--out", type=Path, default=None, help="also write the picture here")
    args = parser.parse_args()
    try:
        view, source = played_view(), "engine"
    except Exception as err:  # the engine is being finished in parallel
        view, source = hand_made_view(), f"hand-made ({type(err).__name__}: {err})"
    t = time.perf_counter()
    paletted_felt()
    first = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    png = render(view)
    cold = (time.perf_counter() - t) * 1000
    image = draw_picture(view)
    render_ms, encode_ms = interleaved_medians(lambda: render(view),
                                               lambda: to_webp(image, method=WEBP_METHOD, effort=WEBP_EFFORT),
                                               args.runs)
    if args.out:
        args.out.write_bytes(png)
    print(f"view: {source}, phase {view['phase']}, {image.width}x{image.height}")
    print(f"static layer and palette (once): {first:.1f} ms")
    print(f"first render (disc patches not yet cached): {cold:.1f} ms")
    print(f"render median: {render_ms:.1f} ms")
    print(f"encode-only median: {encode_ms:.1f} ms")
    print(f"ratio: {render_ms / encode_ms:.2f} (target <= 1.3)")
    print(f"picture (lossless WebP): {len(png) / 1024:.0f} KB (target <= 200)")


if __name__ == "__main__":
    main()
