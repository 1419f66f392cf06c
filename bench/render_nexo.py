"""Benchmarks the Nexohominis picture: render time against PNG-encoding time of the same picture.

Run from the project root::

    python bench/render_nexo.py [--runs 50] [--out /tmp/nexo.png] [--battlefield crossroads]

It plays a few random legal moves of a seeded game (falling back to the fresh game's view
if the engine cannot), adds a last move and a last attack, renders it and encodes the
finished picture alone, ``runs`` times each (turn about), and prints both medians, their
ratio and the PNG size; then the same for the ``/nexo show <unit>`` picture of one of the
first player's models (:func:`show_overlay`: ~150 Move and ~150 Dash squares, its weapons'
ranges, a sight line to each enemy). The target, for both: ratio ≤ 1.5 and PNG ≤ 400 KB.
"""

from __future__ import annotations

import argparse
import copy
import io
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image
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


def show_overlay(view: dict[str, Any], move: float = 7.0, dash: float = 9.9) -> tuple[dict[str, Any], dict[str, Any]]:
    """Returns a copy of ``view`` and an overlay like the engine's for the first player's last model.

    The model is moved to have ``dash`` inches of room all round; the overlay has the 1" squares
    within ``move`` inches of it (about 150), those within ``dash`` only (about 150), a rifle and a
    knife, and a sight line to every enemy (covers and ranges mixed).
    """
    view = copy.deepcopy(view)
    models = view.get("models") or {}
    unit = next((k for k, m in reversed(models.items()) if m["owner"] == PLAYERS[0]), None)
    if unit is None:
        return view, {}
    m = models[unit]
    width, length = view.get("size") or [44, 60]
    x, y = min(max(float(m["x"]), dash), width - dash), min(max(float(m["y"]), dash), length - dash)
    m["x"], m["y"] = x, y
    squares: tuple[list[list[float]], list[list[float]]] = ([], [])
    for i in range(-10, 11):
        for j in range(-10, 11):
            cx, cy = math.floor(x) + i + 0.5, math.floor(y) + j + 0.5
            d = math.hypot(cx - x, cy - y)
            if d <= dash:
                squares[d > move].append([cx, cy])
    weapons = [{"weapon": "rifle", "range": 24.0, "melee": False}, {"weapon": "knife", "range": 1.0, "melee": True}]
    covers = ["none", "light", "heavy"]
    sight = [{"target": k, "cover": covers[n % 3], "in_range": n % 2 == 0}
             for n, k in enumerate(k for k, e in models.items() if e["owner"] != PLAYERS[0])]
    return view, {"unit": unit, "cell": 1.0, "move": squares[0], "dash": squares[1], "ranges": weapons,
                  "sight": sight}


def measure(view: dict[str, Any], runs: int, **marks: Any) -> tuple[float, float, bytes]:
    """Returns the median render and encode-only times (ms) of ``view`` with ``marks``, and its PNG."""
    image = draw(view, **marks)
    render_ms, encode_ms = interleaved_medians(lambda: render(view, **marks),
                                               lambda: to_png(image, compress_level=COMPRESS_LEVEL), runs)
    return render_ms, encode_ms, render(view, **marks)


def main() -> None:
    """Prints the medians, their ratios and the PNG sizes, plain and with a show overlay."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--battlefield", default="crossroads")
    parser.add_argument("--out", type=Path, default=None, help="also write the pictures here (and *_show.png)")
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
    render_ms, encode_ms, png = measure(view, args.runs)
    shown, overlay = show_overlay(view)
    show_ms, show_encode_ms, show_png = measure(shown, args.runs, overlay=overlay)
    image = Image.open(io.BytesIO(show_png))
    if args.out:
        args.out.write_bytes(png)
        args.out.with_name(f"{args.out.stem}_show{args.out.suffix}").write_bytes(show_png)
    print(f"view: {source}, {view['battlefield']}, round {view['round']} {view['phase']}, "
          f"{len(view['models'])} models, {image.width}x{image.height}")
    print(f"static layer (once per battlefield): {first:.1f} ms")
    print(f"plain: render {render_ms:.1f} ms, encode-only {encode_ms:.1f} ms, "
          f"ratio {render_ms / encode_ms:.2f} (target <= 1.5), PNG {len(png) / 1024:.0f} KB (target <= 400)")
    print(f"show {overlay.get('unit')} ({len(overlay.get('move', []))} move, {len(overlay.get('dash', []))} dash "
          f"squares): render {show_ms:.1f} ms, encode-only {show_encode_ms:.1f} ms, "
          f"ratio {show_ms / show_encode_ms:.2f} (target <= 1.5), PNG {len(show_png) / 1024:.0f} KB (target <= 400)")

if __name__ == "__main__":
    main()
