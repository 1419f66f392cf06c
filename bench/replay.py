"""Benchmarks the replay GIF: its drawing time and size against each frame drawn as one PNG.

Run from the project root::

    python bench/replay.py [--runs 3] [--turns 300] [--out /tmp/replay]

It plays two seeded games of random legal moves (no resignations): XISK with three players
for ``turns`` turns (random play does not end a XISK game that soon) and NXS until it ends
(at most 2,000 moves), replays each log into one frame per turn (:func:`host.replay.turn_views`)
and animates the frames (:func:`render.replay.animate`), ``runs`` times turn about with the
floor: every frame drawn and encoded as one PNG (``render.render``, the live board's picture
of each turn). It prints the medians and their ratio, the GIF's size beside the floor's
PNGs together and beside the 8 MB limit, and the frames kept. Targets: a 300-turn XISK
replay keeps every turn and is under 8 MB; drawing it takes at most about 3× the floor.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image
from timing import interleaved_medians

from engines import GAMES
from host.replay import Frame, turn_views
from render import render
from render.replay import LIMIT, animate, picture


def random_log(game: str, seats: list[str], seed: int, *, turns: int | None = None,
               moves: int = 2000) -> list[tuple[str, str]]:
    """Returns (seat, canonical move) of seeded random legal moves until ``turns`` turns, ``moves`` or the end."""
    g = GAMES[game].new(seats, seed, {})
    rng = random.Random(seed)
    log: list[tuple[str, str]] = []
    acting, count = None, 0
    while len(log) < moves and not g.is_over:
        if tuple(g.to_act()) != acting:
            if count == turns:
                break
            acting, count = tuple(g.to_act()), count + 1
        player = g.to_act()[0]
        legal = [m for m in g.legal_moves(player) if m.split()[0] not in {"resign", "concede"}]
        g.play(player, rng.choice(legal))
        log.append((player, g.last_move or ""))
    return log


def floor(game: str, frames: list[Frame]) -> int:
    """Draws and encodes every frame as one PNG, as the live board does for each turn; returns their bytes."""
    return sum(len(render(game, f.view)) for f in frames)


def measure(label: str, game: str, seats: list[str], seed: int, log: list[tuple[str, str]], runs: int,
            out: Path | None) -> None:
    """Prints one game's replay figures."""
    t = time.perf_counter()
    frames = turn_views(game, seats, seed, {}, log)
    replay_ms = (time.perf_counter() - t) * 1000
    gif = animate(game, frames)
    png_bytes = floor(game, frames)
    gif_ms, floor_ms = interleaved_medians(lambda: animate(game, frames), lambda: floor(game, frames), runs)
    t = time.perf_counter()
    for f in frames:
        picture(game, f.view)
    draw_ms = (time.perf_counter() - t) * 1000
    kept = getattr(Image.open(io.BytesIO(gif)), "n_frames", 1)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.with_name(f"{out.name}-{game}.gif").write_bytes(gif)
    print(f"{label}: {len(log)} moves, {len(frames) - 1} turns, {len(frames)} frames "
          f"(log replayed in {replay_ms:.0f} ms)")
    print(f"  time: GIF {gif_ms:.0f} ms, floor (each frame one PNG) {floor_ms:.0f} ms, "
          f"ratio {gif_ms / floor_ms:.2f} (target <= 3); {gif_ms / len(frames):.1f} ms a frame; "
          f"drawing the pictures alone {draw_ms:.0f} ms, ratio {gif_ms / draw_ms:.2f}")
    print(f"  size: GIF {len(gif) / 1e6:.2f} MB, floor PNGs {png_bytes / 1e6:.2f} MB, "
          f"ratio {len(gif) / png_bytes:.3f}; {len(gif) / LIMIT:.2f} of the 8 MB limit; "
          f"{kept}/{len(frames)} frames kept")


def main() -> None:
    """Prints the figures of a long XISK game and of an NXS game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--out", type=Path, default=None, help="also write the GIFs as <out>-xisk.gif, <out>-nxs.gif")
    args = parser.parse_args()
    xisk = ["Ann", "Bob", "Cy"]
    log = random_log("xisk", xisk, 1, turns=args.turns, moves=100_000)
    measure(f"XISK, 3 players, {args.turns} turns", "xisk", xisk, 1, log, args.runs, args.out)
    nxs = ["Ann", "Bob"]
    log = random_log("nxs", nxs, 8)
    ended = GAMES["nxs"].new(nxs, 8, {})
    for player, move in log:
        ended.play(player, move)
    measure(f"NXS, {'to its end' if ended.is_over else 'unfinished'}", "nxs", nxs, 8, log, args.runs, args.out)


if __name__ == "__main__":
    main()
