"""Geometry (house rules): the two boards, how they touch, cell names, directions, corners."""

from __future__ import annotations

from engines.core.hexgrid import SIDES, add, distance, hexagon, neighbours, rotate_cw, to_pixel
from engines.nxs.board import BOARD_A, BOARD_B, CELLS, SEAM, cell_hex, cell_name
from engines.nxs.hexes import CORNERS, DIRECTIONS, corner_flanks, corner_target, turn


def test_each_board_is_a_hex_hex_of_4_a_side() -> None:
    assert len(BOARD_A) == len(BOARD_B) == 37
    assert hexagon(3) == BOARD_A
    assert all(max(abs(q), abs(r), abs(q + r)) <= 3 for q, r in BOARD_A)


def test_board_b_is_board_a_shifted_by_7_minus_3() -> None:
    assert {add(h, (7, -3)) for h in BOARD_A} == BOARD_B
    assert not BOARD_A & BOARD_B


def test_boards_touch_along_columns_q3_and_q4_in_7_pairs() -> None:
    pairs = {(a, b) for a in BOARD_A for b in neighbours(a) if b in BOARD_B}
    assert len(pairs) == 7
    assert {a[0] for a, _ in pairs} == {3} and {b[0] for _, b in pairs} == {4}
    assert {cell_name(h) for h in SEAM} == {"g1", "g2", "g3", "g4", "h1", "h2", "h3", "h4"}


def test_cell_names_columns_a_to_n_ranks_from_the_bottom() -> None:
    assert cell_hex("d4") == (0, 0) and cell_hex("k4") == (7, -3)
    assert cell_hex("d1") == (0, 3) and cell_hex("d7") == (0, -3)  # rank 1 at the bottom (largest r)
    assert {n[0] for n, h in CELLS.items() if h in BOARD_A} == set("abcdefg")
    assert {n[0] for n, h in CELLS.items() if h in BOARD_B} == set("hijklmn")
    assert all(cell_hex(cell_name(h)) == h for h in BOARD_A | BOARD_B)


def test_cell_names_are_case_insensitive() -> None:
    assert cell_hex(" K4 ") == cell_hex("k4")


def test_side_directions_clockwise_from_north() -> None:
    assert dict(zip(DIRECTIONS, SIDES, strict=True)) == {
        "N": (0, -1), "NE": (1, -1), "SE": (1, 0), "S": (0, 1), "SW": (-1, 1), "NW": (-1, 0),
    }


def test_corner_direction_is_the_sum_of_two_neighbouring_sides_two_hexes_away() -> None:
    for i in range(6):
        target = corner_target((0, 0), i)
        assert target == add(SIDES[i], SIDES[(i + 1) % 6])
        assert distance((0, 0), target) == 2
        a, b = corner_flanks((0, 0), i)
        assert {a, b} == {SIDES[i], SIDES[(i + 1) % 6]}
        assert distance(a, target) == distance(b, target) == 1
    assert corner_target((0, 0), DIRECTIONS.index("NE")) == (2, -1)  # NE+SE: due east
    assert CORNERS[1] == "NE-SE"


def test_rotation_by_one_facing_left_is_counter_clockwise() -> None:
    assert DIRECTIONS[turn(DIRECTIONS.index("N"), "left")] == "NW"
    assert DIRECTIONS[turn(DIRECTIONS.index("N"), "right")] == "NE"
    assert DIRECTIONS[turn(DIRECTIONS.index("NW"), "right")] == "N"


def test_board_a_is_drawn_left_of_board_b() -> None:
    assert max(to_pixel(h, 1.0)[0] for h in BOARD_A) < min(to_pixel(h, 1.0)[0] for h in BOARD_B)
    assert to_pixel(cell_hex("d7"), 1.0)[1] < to_pixel(cell_hex("d1"), 1.0)[1]  # rank 1 at the bottom


def test_turning_a_side_direction_clockwise_gives_the_next_side() -> None:
    assert [rotate_cw(d) for d in SIDES] == [*SIDES[1:], SIDES[0]]
    assert all(rotate_cw(d, 6) == d for d in SIDES)
