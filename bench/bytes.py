"""Benchmarks what a board costs to send: bytes and CPU per move, against an earlier revision.

Run from the project root::

    python bench/bytes.py [--baseline e64263b] [--games xisk nexo nxs] [--repeats 2]

Each game is played from a fixed seed with random legal moves (attacks preferred in XISK,
captures in NXS, never a resignation): XISK with 3 players to the end of turn 20,
Nexohominis for its first round, NXS for 60 moves. After every move the board picture is
drawn and encoded exactly as the bot sends it (``render.render``). The same script is run in
this tree and in the baseline revision (exported with ``git archive`` to a temporary
folder), each in a fresh process, ``repeats`` times in turn; per game it prints:

* bytes per move (the mean over every move) and per game (their sum), and
* CPU per move (process time of drawing and encoding every move, divided by the moves;
  the least of the repeats, so a busy moment does not count),

each beside the baseline's figure as a ratio. The default baseline, ``e64263b``, is main
as it stood when the issue on board size was filed (1600×1200 PNG for XISK, PNG for
Nexohominis). The issue's goal: at most 0.40× the bytes per move at at most 1.3× the CPU.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "e64263b"
"""main when the issue on board size was filed."""
BYTES_GOAL, CPU_LIMIT = 0.40, 1.3
PLAYS: dict[str, str] = {"xisk": "3 players to the end of turn 20", "nexo": "2 players, round 1",
                         "nxs": "2 players, 60 moves"}


def _random_move(game: Any, rng: random.Random, prefer: str | None) -> None:
    """Plays one random legal move (never a give-up), ``prefer``-prefixed ones 70% of the time."""
    player = game.to_act()[0]
    legal = [m for m in game.legal_moves(player) if not m.startswith(("concede", "resign"))]
    preferred = [m for m in legal if prefer and m.startswith(prefer)]
    game.play(player, rng.choice(preferred) if preferred and rng.random() < 0.7 else rng.choice(legal))


def views(name: str) -> list[dict[str, Any]]:
    """Returns the spectator view after every move of the seeded game ``name`` (see the module)."""
    from engines import GAMES

    if name == "xisk":
        game, rng = GAMES["xisk"].new(["ann", "bob", "cy"], 3, {}), random.Random(3)
        go, prefer = (lambda: game.view(None)["turn_number"] <= 20), "attack"
    elif name == "nexo":
        game, rng = GAMES["nexo"].new(["ann", "bob"], 2, {"battlefield": "crossroads"}), random.Random(2)
        go, prefer = (lambda: game.view(None)["round"] == 1), None
    else:
        game, rng = GAMES["nxs"].new(["ann", "bob"], 5, {}), random.Random(5)
        count = iter(range(60))
        go, prefer = (lambda: next(count, None) is not None), "capture"
    out = []
    while not game.is_over and go():
        _random_move(game, rng, prefer)
        out.append(game.view(None))
    return out


def child(name: str) -> None:
    """Prints, as JSON, the moves, bytes per move and CPU seconds of drawing every move of ``name``."""
    from render import render

    positions = views(name)
    render(name, positions[0])  # the cached layers are built once per process, not per move
    start = time.process_time()
    sizes = [len(render(name, v)) for v in positions]
    cpu = time.process_time() - start
    print(json.dumps({"moves": len(positions), "bytes": sizes, "cpu": cpu}))


def run(tree: Path, name: str) -> dict[str, Any]:
    """Returns the child's figures for ``name`` measured in ``tree`` (a fresh process)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", name], cwd=tree, env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def export(revision: str, into: Path) -> Path:
    """Returns a folder holding ``revision``'s tree (``git archive``)."""
    archive = into / "tree.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", "-o", str(archive), revision], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "tree", filter="data")
    return into / "tree"


def best(tree: Path, name: str, repeats: int) -> dict[str, Any]:
    """Returns one run's figures with the least CPU of ``repeats`` runs in ``tree``."""
    return min((run(tree, name) for _ in range(repeats)), key=lambda r: r["cpu"])


def main() -> None:
    """Measures this tree against the baseline revision and prints each figure beside the baseline's."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--games", nargs="+", choices=sorted(PLAYS), default=["xisk", "nexo", "nxs"])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--child", choices=sorted(PLAYS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, os.getcwd())
        child(args.child)
        return
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = export(args.baseline, Path(tmp))
        print(f"baseline {args.baseline} against this tree; CPU: least of {args.repeats} runs each")
        print(f"{'game':<6}{'moves':>7}{'KiB/move':>10}{'then':>8}{'×':>6}{'MiB/game':>10}{'then':>8}"
              f"{'CPU ms/move':>13}{'then':>8}{'×':>6}")
        for name in args.games:
            now, then = best(ROOT, name, args.repeats), best(old_tree, name, args.repeats)
            per_now, per_then = (sum(r["bytes"]) / r["moves"] for r in (now, then))
            cpu_now, cpu_then = (r["cpu"] * 1000 / r["moves"] for r in (now, then))
            print(f"{name:<6}{now['moves']:>7}{per_now / 1024:>10.1f}{per_then / 1024:>8.1f}"
                  f"{per_now / per_then:>6.2f}{sum(now['bytes']) / 2**20:>10.1f}{sum(then['bytes']) / 2**20:>8.1f}"
                  f"{cpu_now:>13.1f}{cpu_then:>8.1f}{cpu_now / cpu_then:>6.2f}"
                  + ("" if now["moves"] == then["moves"] else f"  (baseline played {then['moves']} moves)"))
            print(f"      {PLAYS[name]}; goal: bytes <= {BYTES_GOAL}×, CPU <= {CPU_LIMIT}×")


if __name__ == "__main__":
    main()
