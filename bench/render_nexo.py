"""Benchmarks the Nexohominis picture: render time against PNG-encoding time of the same picture.

Run from the project root::

    python bench/render_nexo.py [--runs 50] [--out /tmp/nexo.png] [--battlefield crossroads]

It plays a few random legal moves of a seeded game (falling back to the fresh game's view
if the engine cannot), adds a last move and a last attack, renders it and encodes the
finished picture alone, ``runs`` times each (turn about), and prints both medians, their
ratio and the PNG size. The target: ratio ≤ 1.5 and PNG ≤ 400 KB.
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

from engines import GAMES
from render.common import to_png
from render.nexo import COMPRESS_LEVEL, draw, render
from render.nexo_field import static_layer

PLAYERS = ["ann", "bob"]


def played_view(battlefield: str, seed: int = 2, moves: int = 8) -> dict[str, Any]:
    """Returns the spectator view after ``moves`` random legal moves (no concessions)."""
    g = GAMES["nexo"].new(PLAYERS, seed, {"battlefield": battlefield})
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        player = g.to_act()[0]
        legal = [m for m in g.legal_moves(player) if not m.startswith(("concede", "resign"))]
        if not legal:
            break
        g.play(player, rng.choice(legal))
    return g.view(None)


def with_marks(view: dict[str, Any]) -> dict[str, Any]:
    """Adds a last move and a last attack between the first model of each side, when there are two."""
    models = view.get("models") or {}
    ann = next((k for k, m in models.items() if m["owner"] == PLAYERS[0]), None)
    bob = next((k for k, m in models.items() if m["owner"] == PLAYERS[1]), None)
    if ann and bob:
        m = models[ann]
        view["last_move"] = {"model": ann, "path": [[m["x"] - 3, m["y"] - 4], [m["x"] - 1, m["y"] - 2],
                                                    [m["x"], m["y"]]]}
        view["last_attack"] = {"attacker": ann, "target": bob, "result": "1 hit: 2 damage"}
    return view


def main() -> None:
    """Prints the medians, their ratio and the PNG size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--battlefield", default="crossroads")
    parser.add_argument("--out", type=Path, default=None, help="also write the picture here")
    args = parser.parse_args()
    try:
        view, source = played_view(args.battlefield), "engine, random moves"
    except Exception as err:  # the engine is being finished in parallel
        view = GAMES["nexo"].new(PLAYERS, 1, {"battlefield": args.battlefield}).view(None)
        source = f"fresh game ({type(err).__name__}: {err})"
    view = with_marks(view)
    t = time.perf_counter()
    static_layer(view)
    first = (time.perf_counter() - t) * 1000
    png = render(view)
    image = draw(view)
    render_ms, encode_ms = interleaved_medians(lambda: render(view),
                                               lambda: to_png(image, compress_level=COMPRESS_LEVEL), args.runs)
    if args.out:
        args.out.write_bytes(png)
    print(f"view: {source}, {view['battlefield']}, round {view['round']} {view['phase']}, "
          f"{len(view['models'])} models, {image.width}x{image.height}")
    print(f"static layer (once per battlefield): {first:.1f} ms")
    print(f"render median: {render_ms:.1f} ms")
    print(f"encode-only median: {encode_ms:.1f} ms")
    print(f"ratio: {render_ms / encode_ms:.2f} (target <= 1.5)")
    print(f"PNG: {len(png) / 1024:.0f} KB (target <= 400)")


if __name__ == "__main__":
    main()
