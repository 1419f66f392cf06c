"""Every position legal_moves suggests is legal when typed back (rounding never loses a full step)."""

from __future__ import annotations

import random

import pytest

from engines import GAMES


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_suggested_move_plays_back_in_the_same_position(seed: int) -> None:
    game = GAMES["nexo"].new(["ann", "bob"], seed, {})
    rng, tried = random.Random(seed), 0
    for _ in range(60):
        if game.is_over:
            break
        player = game.to_act()[0]
        moves = [m for m in game.legal_moves(player) if m != "concede"]
        for move in moves:
            if move.split()[0] in {"move", "dash", "advance"}:
                trial = GAMES["nexo"].from_json(game.to_json())
                trial.play(player, move)  # raises if the suggestion were refused
                tried += 1
        game.play(player, rng.choice(moves))
    assert tried >= 20
