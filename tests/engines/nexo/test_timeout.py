"""The turn clock's moves for Nexohominis: skip passes or ends one turn, forfeit concedes."""

from __future__ import annotations

import pytest

from engines.nexo.game import Nexo
from tests.engines.nexo.support import scenario_game, unit

DRUDGES = [unit("a1", "drudge", 10, 12), unit("a2", "drudge", 14, 8)]
ENEMY = [unit("b1", "drudge", 34, 48), unit("b2", "drudge", 30, 48)]


def play_all(g: Nexo, player: str, moves: list[str]) -> None:
    """Plays ``moves`` for ``player`` one by one, as the host does (each must be accepted)."""
    for move in moves:
        g.play(player, move)


def test_nexo_timeout_skip_at_initiative_lets_the_other_player_go_first() -> None:
    g = Nexo.new(["ann", "bob"], seed=4)
    player = g.to_act()[0]
    assert g.view(None)["phase"] == "initiative"
    assert g.timeout_moves(player, "skip") == ["first them"]
    play_all(g, player, ["first them"])
    assert g.view(None)["phase"] == "worker" and g.view(None)["first"] != player


def test_nexo_timeout_skip_ends_the_activation_of_the_unit_that_is_activating() -> None:
    g = scenario_game(DRUDGES, ENEMY)
    g.play("ann", "move a1 10,16")  # beside depot K1: a harvest is still open to it
    assert g.state.active == "a1"
    assert g.timeout_moves("ann", "skip") == ["done a1"]
    play_all(g, "ann", ["done a1"])
    assert g.to_act() == ["bob"] and g.state.models["a1"].activated


def test_nexo_timeout_skip_spends_a_pass_when_one_may_be_spent() -> None:
    g = scenario_game(DRUDGES[:1], ENEMY, phase="initiative")
    g.play("ann", "first me")  # one worker against two: ann holds a Pass (core §6.4)
    assert g.view(None)["players"]["ann"]["passes"] == 1
    moves = g.timeout_moves("ann", "skip")
    assert moves == ["pass"]
    play_all(g, "ann", moves)
    assert g.to_act() == ["bob"] and not g.state.models["a1"].activated
    assert g.view(None)["players"]["ann"]["passes"] == 0


def test_nexo_timeout_skip_without_a_pass_activates_the_first_eligible_piece_doing_nothing() -> None:
    g = scenario_game(DRUDGES, ENEMY)
    moves = g.timeout_moves("ann", "skip")
    assert moves == ["done a1"]
    play_all(g, "ann", moves)
    a1 = g.state.models["a1"]
    assert g.to_act() == ["bob"] and a1.activated and (a1.x, a1.y) == (10, 12)
    assert g.state.sides["p1"].carbonite == 200


def test_nexo_timeout_skip_keeps_a_unit_in_overwatch_for_later() -> None:
    p1 = [unit("a5", "trooper", 20, 10, overwatch=True), unit("a6", "trooper", 24, 10)]
    p2 = [unit("b5", "trooper", 20, 50), unit("b6", "trooper", 24, 50)]
    g = scenario_game(p1, p2, phase="action")
    assert g.timeout_moves("ann", "skip") == ["done a6"]


def test_nexo_timeout_skip_is_one_activation_even_when_the_turn_stays() -> None:
    g = scenario_game([*DRUDGES, unit("a3", "drudge", 18, 8)], ENEMY[:1])
    g.play("ann", "done a1")
    g.play("bob", "done b1")  # bob has nothing left: ann activates on (core §6.3)
    moves = g.timeout_moves("ann", "skip")
    assert moves == ["done a2"]
    play_all(g, "ann", moves)
    assert g.to_act() == ["ann"] and g.view(None)["players"]["ann"]["eligible"] == ["a3"]


def test_nexo_timeout_skip_in_the_production_phase_ends_production() -> None:
    g = scenario_game(DRUDGES, ENEMY, phase="production")
    player = g.to_act()[0]
    assert g.timeout_moves(player, "skip") == ["end"]
    play_all(g, player, ["end"])
    assert g.to_act() != [player] and g.state.sides["p1"].ended


def test_nexo_timeout_forfeit_concedes_and_the_other_player_wins() -> None:
    g = scenario_game(DRUDGES, ENEMY)
    moves = g.timeout_moves("ann", "forfeit")
    assert moves == ["concede"]
    play_all(g, "ann", moves)
    assert g.is_over and g.winners == ["bob"] and g.view(None)["result"] == "concede"


@pytest.mark.parametrize("policy", ["skip", "forfeit"])
def test_nexo_timeout_of_a_player_not_to_act_is_empty(policy: str) -> None:
    g = scenario_game(DRUDGES, ENEMY)
    assert g.timeout_moves("bob", policy) == [] and g.timeout_moves("cy", policy) == []


def test_nexo_timeout_moves_never_change_the_game() -> None:
    g = scenario_game(DRUDGES, ENEMY)
    before = g.to_json()
    g.timeout_moves("ann", "skip")
    g.timeout_moves("ann", "forfeit")
    assert g.to_json() == before


def test_nexo_timeout_policies_are_documented() -> None:
    assert set(Nexo.TIMEOUT_DOCS) == set(Nexo.ON_TIMEOUT) and Nexo.FORFEIT_MOVE == "concede"
