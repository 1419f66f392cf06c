"""The turn clock's moves for NXS: no skip, so both policies resign and the other player wins."""

from __future__ import annotations

import pytest

from engines.nxs import Nxs, Termination
from tests.engines.nxs.scenario import ANN, BOB


@pytest.mark.parametrize("policy", ["skip", "forfeit"])
def test_nxs_timeout_at_the_move_step_resigns_and_the_other_player_wins(policy: str) -> None:
    g = Nxs.new([ANN, BOB])
    assert g.timeout_moves(ANN, policy) == ["resign"]
    g.play(ANN, "resign")
    assert g.is_over and g.winners == [BOB] and g.outcome is not None
    assert g.outcome.termination is Termination.RESIGN


@pytest.mark.parametrize("policy", ["skip", "forfeit"])
def test_nxs_timeout_at_the_rotate_step_resigns_too(policy: str) -> None:
    g = Nxs.new([ANN, BOB])
    g.play(ANN, "move f4 h3")
    assert g.view(None)["step"] == "rotate"
    moves = g.timeout_moves(ANN, policy)
    assert moves == ["resign"]
    for move in moves:
        g.play(ANN, move)
    assert g.is_over and g.winners == [BOB]


def test_nxs_timeout_of_the_second_player_makes_the_first_the_winner() -> None:
    g = Nxs.new([ANN, BOB])
    g.play(ANN, "move f4 h3")
    g.play(ANN, "rotate h3 right")
    for move in g.timeout_moves(BOB, "skip"):
        g.play(BOB, move)
    assert g.winners == [ANN]


@pytest.mark.parametrize("policy", ["skip", "forfeit"])
def test_nxs_timeout_of_a_player_not_to_act_is_empty(policy: str) -> None:
    g = Nxs.new([ANN, BOB])
    assert g.timeout_moves(BOB, policy) == [] and g.timeout_moves("cy", policy) == []
    g.play(ANN, "resign")
    assert g.timeout_moves(BOB, policy) == [] and g.timeout_moves(ANN, policy) == []


def test_nxs_timeout_policies_are_documented_and_unknown_ones_refused() -> None:
    assert set(Nxs.TIMEOUT_DOCS) == set(Nxs.ON_TIMEOUT) and Nxs.FORFEIT_MOVE == "resign"
    with pytest.raises(ValueError, match="skip, forfeit"):
        Nxs.new([ANN, BOB]).timeout_moves(ANN, "bot")
