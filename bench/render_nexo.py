"""Benchmarks the Nexohominis picture: render time against encoding time of the same picture.

Run from the project root::

    python bench/render_nexo.py [--runs 50] [--out /tmp/nexo.webp] [--battlefield crossroads]

It takes two positions of a seeded game played with random legal moves: early (8 moves, round
1) and late (:func:`late_view`: the most crowded position of 360 moves, about round 30, with
about 11 models and 19 buildings), falling back to the fresh game's view if the engine cannot.
For each it adds a last move and a last attack, renders it (``render``: draw and encode) and
encodes the finished picture alone (``render.common.encode``, lossless WebP, the floor),
``runs`` times each (turn about), and prints both medians, their ratio and the picture's size;
then the same for the ``/nexo show <unit>`` picture of one of the first player's models
(:func:`show_overlay`: ~150 Move and ~150 Dash squares, its weapons' ranges, a sight line to
each enemy). Renders are timed twice: warm (the renderer's text and reach caches filled by
the previous run, as when a board is redrawn with the same tags) and cold (those caches
emptied before each run; the static battlefield layer stays cached). The target, for both
pictures of both positions: warm ratio ≤ 1.3 and picture ≤ 400 KB.
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
from render import nexo_field, nexo_overlay
from render.common import encode
from render.nexo import COMPRESS_LEVEL, draw, render
from render.nexo_field import static_layer

PLAYERS = ["ann", "bob"]
TARGET = 1.3
"""Largest render time against encode-only, warm, for every picture measured."""
SIZE_KB = 400
"""Largest encoded picture, KB."""
SKIP = ("concede", "resign", "scrap")


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


def late_view(battlefield: str, seed: int = 2, moves: int = 360) -> dict[str, Any]:
    """Returns the most crowded view (models + buildings, the later on a tie) of ``moves`` random legal moves.

    ``scrap`` is never played either: scrapping ends a random game within a round.
    """
    g = GAMES["nexo"].new(PLAYERS, seed, {"battlefield": battlefield})
    rng = random.Random(seed)
    best, crowd = g.view(None), -1
    for _ in range(moves):
        if g.is_over:
            break
        player = g.to_act()[0]
        legal = [m for m in g.legal_moves(player) if not m.startswith(SKIP)]
        if not legal:
            break
        g.play(player, rng.choice(legal))
        view = g.view(None)
        n = len(view.get("models") or {}) + len(view.get("buildings") or {})
        if n >= crowd:
            best, crowd = view, n
    return best


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


def cold_caches() -> None:
    """Empties the renderer's per-picture caches (glyph masks, ink boxes, text lengths, reach layers)."""
    for cached in (nexo_field._glyphs, nexo_field.ink_box, nexo_field.text_length, nexo_overlay._reach_layer):
        cached.cache_clear()


def measure(view: dict[str, Any], runs: int, **marks: Any) -> tuple[float, float, float, bytes]:
    """Returns the median render times (ms) of ``view`` with ``marks`` (warm, cold), encode-only time and bytes."""
    image = draw(view, **marks)

    def cold() -> bytes:
        cold_caches()
        return render(view, **marks)

    render_ms, encode_ms = interleaved_medians(lambda: render(view, **marks), lambda: encode(image), runs)
    cold_ms, _ = interleaved_medians(cold, lambda: encode(image), max(5, runs // 5))
    return render_ms, cold_ms, encode_ms, render(view, **marks)


def line(name: str, figures: tuple[float, float, float, bytes]) -> str:
    """Returns one printed line: render warm and cold, encode-only, their ratios against the target, and size."""
    warm, cold, floor, data = figures
    return (f"{name}: render {warm:.1f} ms (cold caches {cold:.1f}), encode-only {floor:.1f} ms, "
            f"ratio {warm / floor:.2f} (target <= {TARGET}; cold {cold / floor:.2f}), "
            f"{len(data) / 1024:.0f} KB (target <= {SIZE_KB})")


def main() -> None:
    """Prints the medians, their ratios and the picture sizes, plain and with a show overlay, early and late."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--battlefield", default="crossroads")
    parser.add_argument("--out", type=Path, default=None,
                        help="also write the pictures here (and *_show, *_late, *_late_show)")
    args = parser.parse_args()
    try:
        views = [("early", played_view(args.battlefield)), ("late", late_view(args.battlefield))]
        source = "engine, random moves"
    except Exception as err:  # the engine is being finished in parallel
        views = [("fresh", GAMES["nexo"].new(PLAYERS, 1, {"battlefield": args.battlefield}).view(None))]
        source = f"fresh game ({type(err).__name__}: {err})"
    t = time.perf_counter()
    static_layer(views[0][1])
    first = (time.perf_counter() - t) * 1000
    print(f"static layer (once per battlefield): {first:.1f} ms; views: {source}; encode: "
          f"lossless WebP (render.common.encode), PNG level {COMPRESS_LEVEL} for paletted pictures only")
    for name, view in views:
        view = with_marks(view)
        plain = measure(view, args.runs)
        shown, overlay = show_overlay(view)
        show = measure(shown, args.runs, overlay=overlay)
        image = Image.open(io.BytesIO(show[3]))
        if args.out:
            stem = args.out.stem + ("" if name == "early" else f"_{name}")
            args.out.with_name(f"{stem}{args.out.suffix}").write_bytes(plain[3])
            args.out.with_name(f"{stem}_show{args.out.suffix}").write_bytes(show[3])
        print(f"{name} view: {view['battlefield']}, round {view['round']} {view['phase']}, "
              f"{len(view['models'])} models, {len(view.get('buildings') or {})} buildings, "
              f"{image.width}x{image.height}")
        print(line("  plain", plain))
        print(line(f"  show {overlay.get('unit')} ({len(overlay.get('move', []))} move, "
                   f"{len(overlay.get('dash', []))} dash squares)", show))


if __name__ == "__main__":
    main()
