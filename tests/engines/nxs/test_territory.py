"""Territory (rules: Territory; house rules: the three ways), recomputed after every move."""

from __future__ import annotations

from tests.engines.nxs.scenario import ANN, BOB, holds, scenario

# A White piece on k4 holds an edge line k4-j4-i4-h4 towards White's board (g4 is White's).
LINE = {"k4", "j4", "i4", "h4"}
HOME = ("w merchant a1 N", "b merchant n1 SW")


def test_occupation_holds_the_hex_of_a_piece_on_the_enemy_board() -> None:
    assert holds(scenario("w sloop n4 N", *HOME), 0) == {"n4"}
    assert holds(scenario("w sloop d4 N", *HOME), 0) == set()  # own board: nothing held


def test_edge_line_from_a_piece_to_the_own_board_edge() -> None:
    assert holds(scenario("w sloop k4 N", *HOME), 0) == LINE


def test_edge_line_held_by_black_towards_its_board() -> None:
    g = scenario("b sloop d4 S", *HOME)
    assert holds(g, 1) == {"d4", "e3", "f2", "g1"}


def test_piece_to_piece_line_holds_both_ends_and_between() -> None:
    assert holds(scenario("w sloop l4 N", *HOME), 0) == {"l4"}
    assert holds(scenario("w sloop l4 N", "w sloop n2 N", *HOME), 0) == {"l4", "m3", "n2"}


def test_piece_to_piece_line_broken_by_an_enemy_between() -> None:
    g = scenario("w sloop l4 N", "w sloop n2 N", "b frigate m3 SW", *HOME)
    assert holds(g, 0) == {"l4", "n2"}


def test_line_broken_by_an_enemy_piece() -> None:
    assert holds(scenario("w sloop k4 N", "b frigate i4 SW", *HOME), 0) == {"k4"}


def test_line_broken_by_an_enemy_merchant() -> None:
    assert holds(scenario("w sloop k4 N", "b merchant i4 SW", "w merchant a1 N"), 0) == {"k4"}


def test_own_piece_inside_a_line_does_not_break_it() -> None:
    g = scenario("w sloop k4 N", "w frigate j4 N", *HOME)
    assert holds(g, 0) >= LINE
    assert holds(g, 0) == LINE | {"i3", "h2"}  # j4 adds its own line j4-i3-h2


def test_a_hex_held_two_ways_counts_once() -> None:
    g = scenario("w sloop k4 N", "w frigate h4 N", *HOME)  # h4: occupied and on k4's line
    assert holds(g, 0) == LINE
    assert g.view(None)["score"][ANN] == 4


def test_line_broken_when_an_enemy_enters_and_restored_when_it_leaves() -> None:
    g = scenario("w sloop k4 N", "w merchant d4 N", "b frigate i3 SW", "b merchant n1 SW", to_move="black")
    assert g.view(None)["score"][ANN] == 4
    g.play(BOB, "move i3 i4")  # the Frigate (facing SW) sails N into the line
    assert g.view(None)["score"][ANN] == 1
    assert g.view(None)["territory"][ANN] == ["k4"]
    g.play(BOB, "rotate i4 right")  # now facing NW: it may sail SW, back out of the line
    g.play(ANN, "move d4 d5")
    g.play(ANN, "rotate d5 right")
    g.play(BOB, "move i4 h3")
    assert g.view(None)["score"][ANN] == 4
    assert g.view(None)["territory"][ANN] == sorted(LINE)


def test_territory_recomputed_after_a_capture() -> None:
    g = scenario("w brigantine g3 N", "w sloop k4 N", "b frigate i4 SW", "b merchant n1 SW")
    assert holds(g, 0) == {"k4"}
    g.play(ANN, "capture g3 i4")  # due east over g4/h3; the blocker leaves, the line is back
    assert holds(g, 0) == LINE | {"h3"}  # plus the Brigantine's own line i4-h3
    assert g.view(None)["score"][ANN] == 5
