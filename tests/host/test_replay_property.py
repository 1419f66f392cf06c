"""The move log is the truth: the canonical moves alone rebuild every game exactly.

For each game, 50 to 150 seeded random games are played from ``legal_moves``, some
moves typed the way players type them (any case, extra spaces, cards out of order,
positions with more decimals than the log keeps). Each accepted move's ``last_move``
is recorded, as the host logs it; replaying those from ``new(players, seed, options)``
must give the very same ``to_json()``. Each non-canonical move is also checked on its
own: in the same position, its canonical form gives the same state.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest

from engines import GAMES, GameError
from engines.core import Game

Typist = Callable[[str, random.Random], str]


def shout_or_pad(move: str, rnd: random.Random) -> str:
    """Returns the move in upper case, in mixed case or with extra spaces (or as listed)."""
    r = rnd.random()
    if r < 0.25:
        return move.upper()
    if r < 0.4:
        return "".join(c.upper() if rnd.random() < 0.5 else c for c in move)
    if r < 0.6:
        return "  " + "   ".join(move.split()) + " \t"
    return move


def xisk_typist(move: str, rnd: random.Random) -> str:
    """Types XISK moves loosely: cards in any order, 10 as T, chip counts with leading zeros."""
    words = move.split()
    if words[0] == "redeem" and rnd.random() < 0.5:
        cards = [("T" + c[2:] if c.startswith("10") else c).lower() for c in words[1:]]
        rnd.shuffle(cards)
        move = " ".join(["redeem", *cards])
    elif words[-1].isascii() and words[-1].isdigit() and rnd.random() < 0.3:
        move = " ".join([*words[:-1], "0" + words[-1]])
    return shout_or_pad(move, rnd)


def nxs_typist(move: str, rnd: random.Random) -> str:
    """Types NXS moves loosely: a dash between cells, 'rotate l', the way before the cell."""
    words = move.split()
    if words[0] in ("move", "capture") and rnd.random() < 0.3:
        move = f"{words[0]} {words[1]}-{words[2]}"
    elif words[0] == "rotate" and rnd.random() < 0.5:
        way = {"left": rnd.choice(["l", "ccw", "left"]), "right": rnd.choice(["r", "cw", "right"])}[words[2]]
        move = f"rotate {way} {words[1]}" if rnd.random() < 0.5 else f"rotate {words[1]} {way}"
    return shout_or_pad(move, rnd)


def nexo_typist(move: str, rnd: random.Random) -> str:
    """Types Nexohominis orders loosely: positions with 3+ decimals, ids in upper case."""

    def more_decimals(m: re.Match[str]) -> str:
        x, y = (float(v) + rnd.choice([0.0, 0.001, -0.0042, 0.00049]) for v in (m.group(1), m.group(2)))
        return f"{x:.{rnd.choice([3, 4, 6])}f}, {y:.3f}" if rnd.random() < 0.5 else f"{x:.3f},{y:.5f}"

    if rnd.random() < 0.5:
        move = re.sub(r"(-?[0-9]+(?:\.[0-9]+)?),(-?[0-9]+(?:\.[0-9]+)?)", more_decimals, move)
    return shout_or_pad(move, rnd)


def play_random(
    name: str, players: list[str], seed: int, options: dict[str, object], cap: int, typist: Typist
) -> tuple[Game, list[tuple[str, str]]]:
    """Plays up to ``cap`` random legal moves, some typed loosely; returns the game and its log.

    Every loosely typed move that is accepted is checked against its canonical form played
    in the same position.
    """
    g = GAMES[name].new(players, seed, options)
    rnd = random.Random(seed)
    log: list[tuple[str, str]] = []
    for _ in range(cap):
        if g.is_over:
            break
        player = g.to_act()[0]
        moves = [m for m in g.legal_moves(player) if m not in ("concede", "resign")]
        if not moves:
            break
        listed = rnd.choice(moves)
        typed = typist(listed, rnd)
        saved = g.dump_state()
        try:
            g.play(player, typed)
        except GameError:
            typed = listed  # a looser form may round onto an illegal spot: play as listed
            g.play(player, listed)
        assert g.last_move is not None
        if typed != g.last_move:  # the canonical form, in the same position, does the same
            after, canonical = g.to_json(), g.last_move
            g.load_state(saved)
            g.play(player, canonical)
            assert g.to_json() == after, (typed, canonical)
        log.append((player, g.last_move))
    return g, log


def replay(name: str, players: list[str], seed: int, options: dict[str, object], log: list[tuple[str, str]]) -> Game:
    """Returns the game rebuilt from its seed, options and canonical moves alone."""
    g = GAMES[name].new(players, seed, options)
    for player, move in log:
        g.play(player, move)
        assert g.last_move == move, "a canonical move must be its own canonical form"
    return g


def xisk_setup(seed: int) -> tuple[list[str], dict[str, object]]:
    """Returns 2–6 players and, for most games, a short deal (more games reach the attacks)."""
    n = 2 + seed % 5
    return [f"p{i}" for i in range(n)], ({"cards_per_player": 1 + seed % 3} if seed % 4 else {})


def two_players(seed: int) -> tuple[list[str], dict[str, object]]:
    """Returns two players and the default options."""
    return ["ann", "bob"], {}


CASES = [
    pytest.param("xisk", 120, 120, xisk_setup, xisk_typist, id="xisk"),  # xisk_setup's 60 kinds of table twice
    pytest.param("nxs", 150, 80, two_players, nxs_typist, id="nxs"),
    pytest.param("nexo", 50, 30, two_players, nexo_typist, id="nexo"),
]


@pytest.mark.parametrize(("name", "games", "cap", "setup", "typist"), CASES)
def test_the_canonical_log_alone_replays_every_game_to_the_same_snapshot(
    name: str, games: int, cap: int, setup: Callable[[int], tuple[list[str], dict[str, object]]], typist: Typist
) -> None:
    for seed in range(games):
        players, options = setup(seed)
        played, log = play_random(name, players, seed, options, cap, typist)
        assert replay(name, players, seed, options, log).to_json() == played.to_json(), (name, seed)


@pytest.mark.parametrize("nudge", [0.004, -0.0049, 0.00001])
def test_a_nexo_position_typed_with_more_decimals_is_applied_as_logged(nudge: float) -> None:
    g = GAMES["nexo"].new(["ann", "bob"], 4)
    g.play(g.to_act()[0], "first me")
    player = g.to_act()[0]
    listed = next(m for m in g.legal_moves(player) if m.startswith("move "))
    _, unit, pos = listed.split()
    x, y = (float(v) + nudge for v in pos.split(","))
    twin = GAMES["nexo"].from_json(g.to_json())
    g.play(player, f"MOVE {unit} {x:.5f} , {y:.3f}")
    assert g.last_move == listed
    twin.play(player, listed)
    assert twin.to_json() == g.to_json()
