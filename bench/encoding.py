"""Benchmarks the board picture's encoding: today's PNG against lossless WebP and a palette PNG.

Run from the project root::

    python bench/encoding.py [--runs 7] [--samples 4] [--qualities 0 25 50 80] [--games xisk nxs nexo]

For each game it plays a seeded game with random legal moves and keeps the spectator view
after every move: XISK with 3 players to the end of turn 20, NXS for 60 moves, Nexohominis
for one round. On ``samples`` positions spread over the game it draws the finished picture
(what the renderer hands to the encoder) and encodes it with each candidate: the PNG the
game sends today, lossless WebP at every method 0..6 and each of ``qualities`` (for lossless
WebP the quality is the compression effort), and for a full-colour picture a 256-colour
palette PNG. Every figure is printed beside its floor measured in the same run, as a ratio:

* bytes per move (mean over the samples) and per game (that mean times the moves played)
  against today's PNG;
* encode time (median of ``runs``, timed turn about with today's PNG encode) against it;
* render+encode time (the drawing's median plus the encode) against today's render+encode;
* pixels: ``identical`` when the decoded picture equals the drawn one, else the largest
  difference of any channel of any pixel.

Then it names, per game, the candidate with the fewest bytes among those with identical
pixels and a render+encode time of at most 1.3× today's (the goal: at most 40% of today's
bytes per move).
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image, ImageChops
from timing import interleaved_medians

from render.common import to_png

View = dict[str, Any]
TIME_BUDGET = 1.3
"""Largest render+encode time of a choice, against today's."""
BYTES_GOAL = 0.40
"""Goal for the chosen encoding's bytes per move, against today's PNG."""


@dataclass(frozen=True)
class Game:
    """One game's positions and how its renderer draws and encodes them today."""

    name: str
    played: str
    views: list[View]
    draw: Callable[[View], Image.Image]
    today: Callable[[Image.Image], bytes]
    today_name: str


@dataclass(frozen=True)
class Codec:
    """A candidate encoding: a name and a function from a drawn picture to bytes."""

    name: str
    encode: Callable[[Image.Image], bytes]


@dataclass(frozen=True)
class Row:
    """One candidate's figures for one game."""

    name: str
    size: float
    encode_ms: float
    floor_ms: float
    draw_ms: float
    max_diff: int

    def total_ratio(self) -> float:
        """Returns render+encode time against today's, both measured in the same run."""
        return (self.draw_ms + self.encode_ms) / (self.draw_ms + self.floor_ms)


def random_move(game: Any, rng: random.Random, prefer: str | None = None) -> None:
    """Plays one random legal move (never a resignation), ``prefer``-prefixed ones 70% of the time."""
    player = game.to_act()[0]
    legal = [m for m in game.legal_moves(player) if not m.startswith(("concede", "resign"))]
    preferred = [m for m in legal if prefer and m.startswith(prefer)]
    game.play(player, rng.choice(preferred) if preferred and rng.random() < 0.7 else rng.choice(legal))


def xisk_game(seed: int = 3, turns: int = 20) -> Game:
    """Returns the views after each move of a 3-player XISK game to the end of turn ``turns``."""
    from engines.xisk.game import Xisk
    from render.xisk import draw_picture

    g, rng, views = Xisk.new(["ann", "bob", "cy"], seed=seed), random.Random(seed), []
    while not g.is_over and g.view(None)["turn_number"] <= turns:
        random_move(g, rng, prefer="attack")
        views.append(g.view(None))
    return Game("xisk", f"3 players, {len(views)} moves to the end of turn {turns}", views, draw_picture,
                lambda im: to_png(im, compress_level=6), "PNG level 6 (sent before WebP)")


def nxs_game(seed: int = 5, moves: int = 60) -> Game:
    """Returns the views after each of ``moves`` moves of a 2-player NXS game (captures preferred)."""
    from engines.nxs.game import Nxs
    from render.nxs import COMPRESS_LEVEL, paletted

    g, rng, views = Nxs.new(["ann", "bob"], seed=seed), random.Random(seed), []
    while not g.is_over and len(views) < moves:
        random_move(g, rng, prefer="capture")
        views.append(g.view(None))
    return Game("nxs", f"2 players, {len(views)} moves", views, lambda v: paletted(v),
                lambda im: to_png(im, compress_level=COMPRESS_LEVEL), f"PNG level {COMPRESS_LEVEL}")


def nexo_game(seed: int = 2, battlefield: str = "crossroads") -> Game:
    """Returns the views after each move of a Nexohominis game's first round."""
    from engines import GAMES
    from render.nexo import COMPRESS_LEVEL, draw

    g, rng, views = GAMES["nexo"].new(["ann", "bob"], seed, {"battlefield": battlefield}), random.Random(seed), []
    while not g.is_over and g.view(None)["round"] == 1:
        random_move(g, rng)
        views.append(g.view(None))
    return Game("nexo", f"2 players, {battlefield}, {len(views)} moves in round 1", views, draw,
                lambda im: to_png(im, compress_level=COMPRESS_LEVEL), f"PNG level {COMPRESS_LEVEL}")


GAMES: dict[str, Callable[[], Game]] = {"xisk": xisk_game, "nxs": nxs_game, "nexo": nexo_game}


def webp(method: int, quality: int) -> Codec:
    """Returns lossless WebP at ``method`` (0..6) and ``quality`` (the effort, 0..100)."""
    def encode(image: Image.Image) -> bytes:
        buf = io.BytesIO()
        image.save(buf, format="WEBP", lossless=True, method=method, quality=quality)
        return buf.getvalue()
    return Codec(f"webp m{method} q{quality}", encode)


def palette_png(image: Image.Image) -> bytes:
    """Returns ``image`` quantized to 256 colours (median cut, no dithering) as a level-3 PNG."""
    return to_png(image.quantize(colors=256, dither=Image.Dither.NONE), compress_level=3)


def max_difference(drawn: Image.Image, data: bytes) -> int:
    """Returns the largest channel difference between ``drawn`` and the decoded ``data`` (0: identical)."""
    decoded = Image.open(io.BytesIO(data)).convert("RGB")
    extrema = ImageChops.difference(drawn.convert("RGB"), decoded).getextrema()
    return max(high for _, high in extrema)  # type: ignore[misc]


def median_ms(fn: Callable[[], object], runs: int) -> float:
    """Returns the median wall time (ms) of ``fn()`` over ``runs`` calls."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def measure(game: Game, codecs: list[Codec], samples: int, runs: int) -> list[Row]:
    """Returns a row per codec (today's PNG first): sizes over the samples, times on the middle one."""
    step = max(1, len(game.views) // samples)
    pictures = [game.draw(v) for v in game.views[step - 1::step][:samples]]
    middle_view = game.views[(step - 1) + step * (len(pictures) // 2)]
    middle = pictures[len(pictures) // 2]
    draw_ms = median_ms(lambda: game.draw(middle_view), runs)
    rows = []
    for codec in [Codec(f"{game.today_name} (today)", game.today), *codecs]:
        data = [codec.encode(p) for p in pictures]
        if codec.encode is game.today:  # today's own row is its floor
            floor_ms = encode_ms = median_ms(lambda: game.today(middle), runs)
        else:
            floor_ms, encode_ms = interleaved_medians(lambda: game.today(middle), partial(codec.encode, middle), runs)
        diff = max(max_difference(p, d) for p, d in zip(pictures, data, strict=True))
        rows.append(Row(codec.name, statistics.mean(map(len, data)), encode_ms, floor_ms, draw_ms, diff))
    return rows


def report(game: Game, rows: list[Row], runs: int, samples: int) -> Row:
    """Prints a game's table and its choice, and returns the choice."""
    picture = game.draw(game.views[-1])
    colours = picture.getcolors(1 << 24) or []
    today, moves = rows[0], len(game.views)
    print(f"\n{game.name}: {game.played}; picture {picture.width}x{picture.height} {picture.mode}, "
          f"{len(colours)} colours; draw median {today.draw_ms:.1f} ms ({runs} runs); "
          f"bytes: mean of {samples} positions")
    print(f"{'encoding':<22}{'KiB/move':>9}{'×PNG':>6}{'KiB/game':>10}{'encode ms':>11}{'×PNG':>6}"
          f"{'render+enc ms':>15}{'×today':>8}  pixels")
    for r in rows:
        pixels = "identical" if r.max_diff == 0 else f"max diff {r.max_diff}"
        print(f"{r.name:<22}{r.size / 1024:>9.1f}{r.size / today.size:>6.2f}{r.size * moves / 1024:>10.0f}"
              f"{r.encode_ms:>11.1f}{r.encode_ms / r.floor_ms:>6.2f}{r.draw_ms + r.encode_ms:>15.1f}"
              f"{r.total_ratio():>8.2f}  {pixels}")
    fit = [r for r in rows if r.max_diff == 0 and r.total_ratio() <= TIME_BUDGET]
    best = min(fit, key=lambda r: r.size)
    print(f"choice: {best.name}: {best.size / today.size:.2f}× today's bytes (goal <= {BYTES_GOAL}), "
          f"{best.total_ratio():.2f}× today's render+encode (limit <= {TIME_BUDGET})")
    return best


def main() -> None:
    """Measures every candidate on every game asked for and prints the tables and choices."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--qualities", type=int, nargs="+", default=[0, 25, 50, 80])
    parser.add_argument("--methods", type=int, nargs="+", default=list(range(7)))
    parser.add_argument("--games", nargs="+", choices=sorted(GAMES), default=list(GAMES))
    args = parser.parse_args()
    codecs = [webp(m, q) for m in args.methods for q in args.qualities]
    for name in args.games:
        game = GAMES[name]()
        full_colour = game.draw(game.views[-1]).mode == "RGB"
        extra = [Codec("palette PNG 256", palette_png)] if full_colour else []
        report(game, measure(game, codecs + extra, args.samples, args.runs), args.runs, args.samples)


if __name__ == "__main__":
    main()
