"""Movement (rules: Movement): along arrows, up to range, through empty hexes, keeping the facing."""

from __future__ import annotations

import pytest

from engines import IllegalMove
from engines.nxs import piece_moves
from engines.nxs.board import CELLS
from tests.engines.nxs.scenario import ANN, facing, scenario


def test_moves_along_arrows_up_to_range() -> None:
    g = scenario("w sloop d4 N", "b merchant n1 SW")  # Sloop: arrows front and back, range 4
    assert piece_moves(g, "d4")["moves"] == ["d1", "d2", "d3", "d5", "d6", "d7"]


def test_moves_only_in_arrow_directions() -> None:
    g = scenario("w cutter d4 N", "b merchant n1 SW")  # Cutter: one arrow (front), range 5
    assert piece_moves(g, "d4")["moves"] == ["d5", "d6", "d7"]
    with pytest.raises(IllegalMove, match="cannot reach d3: it sails N, up to 5"):
        g.play(ANN, "move d4 d3")


def test_range_limits_the_slide() -> None:
    g = scenario("w frigate d4 N", "b merchant n1 SW")  # Frigate: range 1
    assert piece_moves(g, "d4")["moves"] == ["c3", "c4", "d5", "e3", "e4"]
    with pytest.raises(IllegalMove):
        g.play(ANN, "move d4 d6")


def test_cannot_move_through_a_piece_of_either_side() -> None:
    g = scenario("w sloop d4 N", "w cutter d6 N", "b frigate d2 SW", "b merchant n1 SW")
    assert piece_moves(g, "d4")["moves"] == ["d3", "d5"]
    with pytest.raises(IllegalMove, match="blocked"):
        g.play(ANN, "move d4 d7")
    with pytest.raises(IllegalMove, match="d2 is taken"):
        g.play(ANN, "move d4 d2")


def test_move_keeps_the_facing() -> None:
    g = scenario("w brigantine d4 NE", "b merchant n1 SW")
    g.play(ANN, "move d4 f4")
    assert facing(g, "f4") == "NE"


def test_slide_crosses_onto_the_other_board_and_stops_at_the_edge() -> None:
    g = scenario("w cutter f3 SE", "b merchant n4 SW")
    assert piece_moves(g, "f3")["moves"] == ["g2", "h2", "i2", "j2", "k2"]
    g2 = scenario("w cutter d6 N", "b merchant n4 SW")
    assert piece_moves(g2, "d6")["moves"] == ["d7"]


def test_cannot_move_an_enemy_ship_or_from_an_empty_hex() -> None:
    g = scenario("w sloop d4 N", "b merchant k4 SW")
    with pytest.raises(IllegalMove, match="not yours"):
        g.play(ANN, "move k4 j4")
    with pytest.raises(IllegalMove, match="no ship on d5"):
        g.play(ANN, "move d5 d6")


# House rules, Roster: each ship's arrows (relative sides) and range; Geometry: the side
# directions clockwise from N, and the two boards. Computed here without the engine's tables.
DIRS = ["N", "NE", "SE", "S", "SW", "NW"]
SIDE_STEPS = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]
HOUSE_ARROWS = {"merchant": ((0, 1, 5), 3), "brigantine": ((0, 1, 3, 5), 2),
                "frigate": ((0, 1, 2, 4, 5), 1), "sloop": ((0, 3), 4), "cutter": ((0,), 5)}


def _on_boards(q: int, r: int) -> bool:
    """Tells whether (q, r) is on board A (centre 0,0) or board B (centre 7,-3)."""
    return any(max(abs(q - cq), abs(r - cr), abs(q - cq + r - cr)) <= 3 for cq, cr in ((0, 0), (7, -3)))


@pytest.mark.parametrize("ship", sorted(HOUSE_ARROWS))
@pytest.mark.parametrize("face", range(6))
def test_each_ship_moves_along_its_arrows_as_far_as_its_dots(ship: str, face: int) -> None:
    arrows, reach = HOUSE_ARROWS[ship]
    names = {h: n for n, h in CELLS.items()}
    expected = set()
    for side in arrows:
        dq, dr = SIDE_STEPS[(face + side) % 6]
        for k in range(1, reach + 1):
            if not _on_boards(k * dq, k * dr):
                break
            expected.add(names[(k * dq, k * dr)])
    g = scenario(f"w {ship} d4 {DIRS[face]}", "b merchant n1 SW")
    assert set(piece_moves(g, "d4")["moves"]) == expected
