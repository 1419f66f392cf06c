"""Saving and loading: a reloaded game plays on identically, dice included."""

from __future__ import annotations

import json
import random

import pytest

from engines import GAMES, GameError
from engines.xisk import Xisk
from tests.engines.xisk.helpers import random_move

GAMES_PLAYED = 200


def test_from_json_mid_game_plays_on_identically_over_200_games() -> None:
    for seed in range(GAMES_PLAYED):
        n = 2 + seed % 5
        options = {"cards_per_player": 1 + seed % 4} if seed % 3 else {}
        g = Xisk.new([f"p{i}" for i in range(n)], seed=seed, options=options)
        rnd = random.Random(seed)
        for _ in range(rnd.randint(0, 90)):
            if g.is_over:
                break
            g.play(*random_move(g, rnd, aggressive=0.8))
        h = GAMES["xisk"].from_json(g.to_json())
        assert h.to_json() == g.to_json() and h.view(None) == g.view(None)
        for _ in range(40):
            if g.is_over:
                break
            player, move = random_move(g, rnd, aggressive=0.8)
            assert g.play(player, move) == h.play(player, move)
            assert h.to_json() == g.to_json()
        assert h.is_over == g.is_over and h.winners == g.winners


def test_state_round_trip_is_byte_identical() -> None:
    g = Xisk.new(["ann", "bob", "cy"], seed=8)
    assert Xisk.from_json(g.to_json()).to_json() == g.to_json()


def test_a_damaged_save_raises_game_error() -> None:
    data = json.loads(Xisk.new(["ann", "bob"], seed=1).to_json())
    data["state"]["phase"] = "lunch"
    with pytest.raises(GameError, match="damaged"):
        Xisk.from_json(json.dumps(data))
    del data["state"]["chips"]
    with pytest.raises(GameError):
        Xisk.from_json(json.dumps(data))
