"""Captures (rules: Captures; house rules: Capture): corner jumps, the flanking-hex block, the Merchant."""

from __future__ import annotations

import pytest

from engines import IllegalMove
from engines.nxs import piece_moves
from engines.nxs.board import CELLS
from tests.engines.nxs.scenario import ANN, facing, scenario

# A Brigantine on d4 facing N has bold corners 1/2 (NE-SE: due east, f3) and 4/5 (SW-NW: due
# west, b3); the jump to f3 passes between e4 and e3.
BRIG = "w brigantine d4 N"
FAR = "b merchant n1 SW"


def test_capture_by_a_corner_jump_in_a_bold_direction() -> None:
    g = scenario(BRIG, "b frigate f3 SW", "b sloop b3 SW", FAR)
    assert piece_moves(g, "d4")["captures"] == ["b3", "f3"]


def test_captured_piece_leaves_and_the_capturer_keeps_its_facing() -> None:
    g = scenario(BRIG, "b frigate f3 SW", FAR)
    events = g.play(ANN, "capture d4 f3")
    assert events[0]["kind"] == "capture"
    cells = {p["cell"]: p for p in g.view(None)["pieces"]}
    assert set(cells) == {"f3", "n1"} and cells["f3"]["owner"] == ANN
    assert facing(g, "f3") == "N"
    assert g.view(None)["captured"] == {"ann": 1, "bob": 0}


def test_capture_counts_as_the_move_then_the_rotation_follows() -> None:
    g = scenario(BRIG, "b frigate f3 SW", FAR)
    g.play(ANN, "capture d4 f3")
    assert g.to_act() == [ANN] and g.view(None)["step"] == "rotate"


def test_no_capture_through_a_corner_that_is_not_bold() -> None:
    g = scenario(BRIG, "b frigate e5 SW", "b frigate d6 SW", FAR)  # N-NE corner and straight ahead
    assert piece_moves(g, "d4")["captures"] == []
    with pytest.raises(IllegalMove, match="bold corners point NE-SE, SW-NW"):
        g.play(ANN, "capture d4 e5")


@pytest.mark.parametrize("flank", ["e4", "e3"])
def test_jump_blocked_by_an_enemy_on_either_flanking_hex(flank: str) -> None:
    g = scenario(BRIG, "b frigate f3 SW", f"b sloop {flank} SW", FAR)
    assert "f3" not in piece_moves(g, "d4")["captures"]
    with pytest.raises(IllegalMove, match=f"blocked by the enemy ship on {flank}"):
        g.play(ANN, "capture d4 f3")


def test_jump_blocked_by_an_enemy_merchant_on_a_flanking_hex() -> None:
    g = scenario(BRIG, "b frigate f3 SW", "b merchant e3 SW")
    assert piece_moves(g, "d4")["captures"] == []


@pytest.mark.parametrize("flank", ["e4", "e3"])
def test_jump_not_blocked_by_a_friend_on_a_flanking_hex(flank: str) -> None:
    g = scenario(BRIG, "b frigate f3 SW", f"w sloop {flank} N", FAR)
    assert piece_moves(g, "d4")["captures"] == ["f3"]
    g.play(ANN, "capture d4 f3")


def test_merchant_cannot_capture() -> None:
    g = scenario("w merchant d4 N", "b frigate f3 SW", "b frigate e5 SW", "b frigate b3 SW", FAR)
    assert piece_moves(g, "d4")["captures"] == []
    with pytest.raises(IllegalMove, match="no cannon"):
        g.play(ANN, "capture d4 f3")


def test_merchant_cannot_be_captured() -> None:
    g = scenario(BRIG, "b merchant f3 SW")
    assert piece_moves(g, "d4")["captures"] == []
    with pytest.raises(IllegalMove, match="Merchant on f3 cannot be captured"):
        g.play(ANN, "capture d4 f3")


def test_no_capture_of_an_own_ship_or_an_empty_hex() -> None:
    g = scenario(BRIG, "w frigate f3 N", FAR)
    with pytest.raises(IllegalMove, match="yours"):
        g.play(ANN, "capture d4 f3")
    with pytest.raises(IllegalMove, match="no ship on b3"):
        g.play(ANN, "capture d4 b3")


def test_a_move_cannot_land_on_an_enemy_and_a_capture_is_not_a_slide() -> None:
    g = scenario("w sloop d4 N", "b frigate d5 SW", FAR)
    with pytest.raises(IllegalMove, match="taken"):
        g.play(ANN, "move d4 d5")


def test_bold_corners_turn_with_the_facing() -> None:
    g = scenario("w brigantine d4 NE", "b frigate e2 SW", "b frigate c5 SW", "b frigate f3 SW", FAR)
    assert piece_moves(g, "d4")["captures"] == ["c5", "e2"]  # now SE-S and NW-N


# House rules: a corner is the sum of two neighbouring side directions (sides a and a+1);
# each ship's bold corners from the roster table, written as the first side of the pair.
SIDE_STEPS = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]
DIRS = ["N", "NE", "SE", "S", "SW", "NW"]
HOUSE_CORNERS = {"merchant": (), "brigantine": (1, 4), "frigate": (5, 0, 1, 4), "sloop": (1, 4),
                 "cutter": (5, 0)}


@pytest.mark.parametrize("ship", sorted(HOUSE_CORNERS))
@pytest.mark.parametrize("face", range(6))
def test_each_ship_captures_only_through_its_bold_corners(ship: str, face: int) -> None:
    names = {h: n for n, h in CELLS.items()}

    def corner(c: int) -> str:
        (aq, ar), (bq, br) = SIDE_STEPS[(face + c) % 6], SIDE_STEPS[(face + c + 1) % 6]
        return names[(aq + bq, ar + br)]

    targets = [f"b frigate {corner(c)} N" for c in range(6)]
    g = scenario(f"w {ship} d4 {DIRS[face]}", *targets, FAR, target=37)  # no close call here
    assert set(piece_moves(g, "d4")["captures"]) == {corner(c) for c in HOUSE_CORNERS[ship]}
