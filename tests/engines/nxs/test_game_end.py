"""Game end (rules: Game end; house rules: Win, close call, no legal move, stalemate guard)."""

from __future__ import annotations

import pytest

from engines import GameError, GameOver, IllegalMove
from engines.nxs import Nxs, piece_moves
from engines.nxs.board import CELLS, cell_name
from engines.nxs.position import position_key
from engines.nxs.rules import slides
from tests.engines.nxs.scenario import ANN, BOB, scenario

# White's Sloop on n4 holds n4; sailing S to n1 it holds the edge line n1-m2-l3-k4-j4-i4-h4 (7).
# White's Sloop on j2 holds j2-i2-h2 (3).
RACE = ("w sloop n4 N", "w merchant a1 N", "b merchant l1 SW")


def _result(g: Nxs) -> tuple[str, list[str]] | None:
    r = g.view(None)["result"]
    return None if r is None else (r["termination"], r["winners"])


def test_default_target_is_10_hexes() -> None:
    assert Nxs.OPTIONS["target"] == 10
    g = scenario(*RACE, "w sloop j2 N")
    assert g.view(None)["score"][ANN] == 4
    g.play(ANN, "move n4 n1")
    assert g.view(None)["score"][ANN] == 10
    assert g.is_over and g.winners == [ANN] and _result(g) == ("target", [ANN])


def test_reaching_the_target_ends_the_game_at_once_without_rotation() -> None:
    g = scenario(*RACE, target=7)
    g.play(ANN, "move n4 n1")
    assert g.to_act() == [] and g.legal_moves(ANN) == [] and g.view(None)["turn"] is None
    with pytest.raises(GameOver):
        g.play(ANN, "rotate n1 left")


def test_below_the_target_the_game_goes_on() -> None:
    g = scenario(*RACE)
    g.play(ANN, "move n4 n1")
    assert not g.is_over and g.view(None)["step"] == "rotate"


@pytest.mark.parametrize("key", [ANN, "white"])
def test_handicap_gives_one_player_a_lower_target(key: str) -> None:
    g = scenario(*RACE, handicap={key: 7})
    assert g.view(None)["target"] == {ANN: 7, BOB: 10}
    g.play(ANN, "move n4 n1")
    assert g.winners == [ANN]


def test_handicap_for_the_other_player_does_not_help() -> None:
    g = scenario(*RACE, handicap={BOB: 7})
    g.play(ANN, "move n4 n1")
    assert not g.is_over


def test_bad_options_are_refused() -> None:
    for options in ({"target": 0}, {"target": 38}, {"layout": "huge"}, {"handicap": {ANN: 0}},
                    {"handicap": {"cy": 5}}, {"quiet_turns": 0}, {"colour": "red"}):
        with pytest.raises(GameError):
            Nxs.new([ANN, BOB], options=options)


# Close call: White (target 4 by handicap) holds k4; Black's Frigate on i4 breaks White's line
# k4-j4-i4-h4. Moving it out (i4 -> i3) gives White 4 hexes: White's target.
CLOSE = ("w sloop k4 N", "w merchant a1 N", "b frigate i4 SW", "b merchant n1 SW")


def test_close_call_a_move_giving_the_opponent_the_target_is_illegal() -> None:
    g = scenario(*CLOSE, to_move="black", handicap={ANN: 4})
    assert "move i4 i3" not in g.legal_moves(BOB)
    assert "move i4 h4" in g.legal_moves(BOB)  # still on the line: allowed
    before = g.to_json()
    with pytest.raises(IllegalMove, match="would give ann 4 hexes"):
        g.play(BOB, "move i4 i3")
    assert g.to_json() == before


def test_close_call_a_tie_is_not_more_so_the_move_stays_illegal() -> None:
    g = scenario(*CLOSE, "b sloop d4 S", to_move="black", handicap={ANN: 4})  # Black holds 4 too
    assert g.view(None)["score"] == {ANN: 1, BOB: 4}
    with pytest.raises(IllegalMove, match="close call"):
        g.play(BOB, "move i4 i3")


def test_close_call_the_mover_with_more_territory_wins() -> None:
    g = scenario(*CLOSE, "b sloop d4 S", "b sloop d3 S", to_move="black", handicap={ANN: 4})
    assert g.view(None)["score"] == {ANN: 1, BOB: 7}
    assert "move i4 i3" in g.legal_moves(BOB)
    g.play(BOB, "move i4 i3")
    assert g.view(None)["score"] == {ANN: 4, BOB: 7}
    assert _result(g) == ("close call", [BOB])


def test_a_player_with_no_legal_move_loses() -> None:
    # White's only ship, a Cutter on f5 facing NE, can neither sail nor fire off the board.
    g = scenario("w cutter f5 NE", "b merchant k4 SW", to_move="black", step="rotate")
    g.play(BOB, "rotate k4 left")
    assert _result(g) == ("no move", [BOB])
    assert g.to_act() == []


def test_a_player_whose_every_move_the_close_call_forbids_loses() -> None:
    # Black's only ship, a Cutter on i4 facing S, breaks White's line k4-j4-i4-h4. It can sail
    # to i3, i2 or i1, but each gives White (target 4) the line: Black has no legal move.
    g = scenario("w sloop k4 N", "w merchant a1 N", "b cutter i4 S", to_move="white", step="rotate",
                 handicap={ANN: 4})
    assert [cell_name(h) for h in slides(g.pos, CELLS["i4"], g.ships)] == ["i3", "i2", "i1"]
    assert piece_moves(g, "i4") == {"moves": [], "captures": []}
    g.play(ANN, "rotate a1 left")
    assert _result(g) == ("no move", [ANN])


PIECES = ("w sloop d4 N", "w merchant a1 N", "b sloop k4 N", "b merchant n1 N")


def _shuffle(g: Nxs, out: bool) -> None:
    """Plays one turn each: the Sloops step out (or back) and the Merchants turn right (or left)."""
    way = "right" if out else "left"
    g.play(ANN, "move d4 d5" if out else "move d5 d4")
    g.play(ANN, f"rotate a1 {way}")
    g.play(BOB, "move k4 k5" if out else "move k5 k4")
    g.play(BOB, f"rotate n1 {way}")


def test_stalemate_guard_quiet_turns_end_the_game() -> None:
    g = scenario(*PIECES, quiet_turns=3)
    g.play(ANN, "move d4 d5")
    g.play(ANN, "rotate a1 right")
    g.play(BOB, "move k4 k5")
    g.play(BOB, "rotate n1 right")
    assert not g.is_over and g.view(None)["quiet_turns"] == 2
    g.play(ANN, "move d5 d4")
    g.play(ANN, "rotate a1 left")
    assert _result(g) == ("quiet turns", [])  # 0-0 in territory and captures: a draw


def test_stalemate_guard_default_is_60_quiet_turns() -> None:
    assert Nxs.OPTIONS["quiet_turns"] == 60
    g = scenario(*PIECES, repetitions=100)
    for i in range(29):
        _shuffle(g, out=i % 2 == 0)
    assert not g.is_over and g.view(None)["quiet_turns"] == 58
    _shuffle(g, out=False)
    assert _result(g) == ("quiet turns", [])


def test_stalemate_guard_more_territory_wins() -> None:
    g = scenario("w sloop n4 N", "w merchant a1 N", "b merchant n1 SW", quiet_turns=1)
    g.play(ANN, "move a1 a2")
    g.play(ANN, "rotate a2 right")
    assert _result(g) == ("quiet turns", [ANN])


def test_stalemate_guard_then_more_pieces_captured_wins() -> None:
    g = scenario("w brigantine d4 N", "b frigate f3 SW", "b merchant n1 SW", "w merchant a1 N",
                 quiet_turns=2)
    g.play(ANN, "capture d4 f3")
    g.play(ANN, "rotate f3 left")
    assert g.view(None)["quiet_turns"] == 0
    g.play(BOB, "move n1 m1")
    g.play(BOB, "rotate m1 right")
    g.play(ANN, "move a1 a2")
    g.play(ANN, "rotate a2 right")
    assert _result(g) == ("quiet turns", [ANN])


def test_stalemate_guard_third_repetition_ends_the_game() -> None:
    g = scenario(*PIECES)
    _shuffle(g, out=True)
    _shuffle(g, out=False)  # the start position, White to move, for the second time
    _shuffle(g, out=True)
    assert not g.is_over
    _shuffle(g, out=False)  # ... and the third
    assert _result(g) == ("repetition", [])


def test_resign_at_either_step() -> None:
    g = scenario(*PIECES)
    g.play(ANN, "resign")
    assert _result(g) == ("resign", [BOB])
    g = scenario(*PIECES)
    g.play(ANN, "move d4 d5")
    assert "resign" in g.legal_moves(ANN)
    g.play(ANN, "RESIGN")
    assert g.winners == [BOB]


def test_stalemate_guard_repetition_count_is_an_option() -> None:
    g = scenario(*PIECES, repetitions=2)
    _shuffle(g, out=True)
    _shuffle(g, out=False)
    assert _result(g) == ("repetition", [])


def test_a_capture_clears_the_repetition_record() -> None:
    g = scenario("w brigantine d4 N", "b frigate f3 SW", "b merchant n1 SW", "w merchant a1 N")
    g.play(ANN, "capture d4 f3")
    g.play(ANN, "rotate f3 left")
    assert len(g.dump_state()["seen"]) == 1


def test_stalemate_guard_same_position_means_same_facings_and_side_to_move() -> None:
    g = scenario(*PIECES, repetitions=2)
    _shuffle(g, out=True)  # the Merchants turn right ...
    g.play(ANN, "move d5 d4")
    g.play(ANN, "rotate a1 right")  # ... and right again: the same cells, other facings
    g.play(BOB, "move k5 k4")
    g.play(BOB, "rotate n1 right")
    assert not g.is_over
    start = scenario(*PIECES)
    assert position_key(start.pos, 0) != position_key(start.pos, 1)
