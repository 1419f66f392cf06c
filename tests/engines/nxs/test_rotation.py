"""Rotation (rules: Game play, Rotation): compulsory, one facing, any own ship, after the move."""

from __future__ import annotations

import pytest

from engines import BadNotation, IllegalMove, NotYourTurn
from tests.engines.nxs.scenario import ANN, BOB, facing, scenario

PIECES = ("w sloop d4 N", "w merchant a1 N", "b sloop k4 N", "b merchant n1 N")


def test_a_turn_is_a_move_then_a_rotation_by_the_same_player() -> None:
    g = scenario(*PIECES)
    g.play(ANN, "move d4 d5")
    assert g.to_act() == [ANN] and g.view(None)["step"] == "rotate"
    assert all(m.startswith("rotate") for m in g.legal_moves(ANN)[:-1])
    with pytest.raises(NotYourTurn):
        g.play(BOB, "move k4 k5")
    g.play(ANN, "rotate d5 right")
    assert g.to_act() == [BOB] and g.view(None)["step"] == "move"


def test_rotation_is_compulsory_no_second_move_and_no_pass() -> None:
    g = scenario(*PIECES)
    g.play(ANN, "move d4 d5")
    with pytest.raises(IllegalMove, match="now rotate"):
        g.play(ANN, "move d5 d6")
    with pytest.raises(BadNotation):
        g.play(ANN, "pass")
    assert "pass" not in g.legal_moves(ANN)


def test_rotation_comes_after_the_move_not_before() -> None:
    g = scenario(*PIECES)
    with pytest.raises(IllegalMove, match="First move or capture"):
        g.play(ANN, "rotate d4 left")


def test_rotate_by_one_facing_left_or_right() -> None:
    g = scenario(*PIECES)
    g.play(ANN, "move d4 d5")
    g.play(ANN, "rotate d5 left")
    assert facing(g, "d5") == "NW"
    g.play(BOB, "move k4 k5")
    g.play(BOB, "rotate k5 right")
    assert facing(g, "k5") == "NE"


def test_rotate_any_own_ship_not_only_the_one_moved() -> None:
    g = scenario(*PIECES)
    g.play(ANN, "move d4 d5")
    g.play(ANN, "rotate a1 right")
    assert facing(g, "a1") == "NE" and facing(g, "d5") == "N"


def test_cannot_rotate_an_enemy_ship_or_an_empty_hex() -> None:
    g = scenario(*PIECES)
    g.play(ANN, "move d4 d5")
    with pytest.raises(IllegalMove, match="not yours"):
        g.play(ANN, "rotate k4 left")
    with pytest.raises(IllegalMove, match="no ship on d4"):
        g.play(ANN, "rotate d4 left")


def test_rotation_never_changes_territory() -> None:
    g = scenario("w sloop k4 N", "w merchant a1 N", "b merchant n1 N", to_move="white", step="rotate")
    before = g.view(None)["territory"]
    g.play(ANN, "rotate k4 left")
    assert g.view(None)["territory"] == before


def test_rotate_without_a_cell_turns_the_ship_that_just_moved() -> None:
    g = scenario(*PIECES)
    g.play(ANN, "move d4 d5")
    g.play(ANN, "rotate left")
    assert g.last_move == "rotate d5 left" and facing(g, "d5") == "NW"


def test_rotate_without_a_cell_needs_a_ship_that_moved() -> None:
    g = scenario(*PIECES, step="rotate")
    with pytest.raises(IllegalMove, match="Say which ship"):
        g.play(ANN, "rotate left")
