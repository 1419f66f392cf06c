"""Tests of bodies, distances, movement and engagement (core §5, §9, §10.2, §13.3)."""

from __future__ import annotations

import pytest

from engines.core.errors import IllegalMove
from engines.nexo.data import default_ruleset
from engines.nexo.geometry import (
    building_body,
    check_move,
    edge_distance,
    engaged,
    fight_reach,
    in_range,
    model_body,
    placement_problem,
    plan_move,
)
from engines.nexo.terrain import Terrain
from tests.engines.nexo.support import piece, rect, terrain

RULES = default_ruleset()


def test_5_13_difficult_ground_costs_double() -> None:
    t = terrain(piece("U1", "rubble", rect(10, 10, 14, 14)))
    plan = plan_move(t, model_body("a", 8, 12, 0.5), [(16, 12)], [])
    assert plan.length == pytest.approx(8)
    assert plan.difficult == pytest.approx(4)
    assert plan.cost == pytest.approx(12)
    check_move(plan, 12, "a")
    with pytest.raises(IllegalMove, match=r"a can move 8\", and that path costs 12.0\""):
        check_move(plan, 8, "a")


def test_5_13_pathfinder_ignores_difficult_ground() -> None:
    t = terrain(piece("C1", "crater", rect(10, 10, 14, 14)))
    plan = plan_move(t, model_body("a", 8, 12, 0.5), [(16, 12)], [], pathfinder=True)
    assert plan.cost == pytest.approx(8)


def test_9_2_paths_with_waypoints_add_their_segments() -> None:
    plan = plan_move(terrain(), model_body("a", 5, 5, 0.5), [(5, 9), (8, 9)], [])
    assert plan.cost == pytest.approx(7)
    assert plan.end == (8, 9)


def test_5_12_impassable_footprint_cannot_be_crossed_but_can_be_walked_around() -> None:
    t = terrain(piece("S1", "sealed", rect(10, 10, 14, 14)))
    mover = model_body("a", 8, 12, 0.5)
    with pytest.raises(IllegalMove, match="crosses impassable terrain: the Sealed structure S1"):
        plan_move(t, mover, [(16, 12)], [])
    with pytest.raises(IllegalMove, match="crosses impassable terrain: the Sealed structure S1"):
        plan_move(t, mover, [(9.6, 12)], [])  # the base overlaps the footprint's edge
    plan = plan_move(t, mover, [(8, 15), (16, 15), (16, 12)], [])
    assert plan.cost == pytest.approx(14)


def test_other_bases_cannot_be_crossed_but_may_be_touched() -> None:
    mover = model_body("a", 5, 5, 0.5)
    other = model_body("b", 5, 8, 0.5)
    with pytest.raises(IllegalMove, match="runs into b"):
        plan_move(terrain(), mover, [(5, 12)], [other])
    assert plan_move(terrain(), mover, [(5, 7)], [other]).cost == pytest.approx(2)


def test_4_1_a_move_stays_on_the_battlefield() -> None:
    with pytest.raises(IllegalMove, match="leaves the battlefield"):
        plan_move(terrain(), model_body("a", 2, 5, 0.5), [(0.2, 5)], [])
    assert plan_move(terrain(), model_body("a", 2, 5, 0.5), [(0.5, 5)], []).cost == pytest.approx(1.5)


def test_5_10_a_move_crosses_a_barricade_but_does_not_stop_on_it() -> None:
    t = terrain(piece("B1", "barricade", line=((5, 10), (15, 10))))
    mover = model_body("a", 10, 8, 0.5)
    assert plan_move(t, mover, [(10, 12)], []).cost == pytest.approx(4)
    with pytest.raises(IllegalMove, match="cannot stop on the Barricade B1"):
        plan_move(t, mover, [(10, 10.3)], [])


def test_5_14_buildings_block_moves_and_wreckage_does_not() -> None:
    gen = RULES.faction.buildings["generator"]
    mover = model_body("a", 10, 5, 0.5)
    with pytest.raises(IllegalMove, match="runs into G1"):
        plan_move(terrain(), mover, [(10, 15)], [building_body("G1", gen, 10, 10)])
    wreck = building_body("G1", gen, 10, 10, wreck=True)
    assert plan_move(terrain(), mover, [(10, 15)], [wreck]).cost == pytest.approx(10)


def test_distances_are_edge_to_edge() -> None:
    hq = building_body("H", RULES.faction.buildings["headquarters"], 22, 5)  # x 19..25
    trooper = model_body("t", 28, 5, 0.5)
    assert edge_distance(trooper, hq) == pytest.approx(2.5)
    assert in_range(trooper, hq, 2.5) and not in_range(trooper, hq, 2.4)


def test_engagement_range_is_one_inch_edge_to_edge() -> None:
    a = model_body("a", 10, 10, 0.5)
    assert engaged(a, model_body("b", 12, 10, 0.5))
    assert not engaged(a, model_body("b", 12.1, 10, 0.5))


def test_10_2_fight_reaches_one_inch() -> None:
    a = model_body("a", 10, 10, 0.5)
    assert fight_reach(terrain(), a, model_body("b", 12, 10, 0.5))
    assert not fight_reach(terrain(), a, model_body("b", 13, 10, 0.5))


def test_5_10_fight_across_a_barricade_reaches_two_inches() -> None:
    t = terrain(piece("B1", "barricade", line=((5, 10), (15, 10))))
    a = model_body("a", 10, 8.6, 0.5)
    assert fight_reach(t, a, model_body("b", 10, 11.6, 0.5))  # 2" apart, both within 1"
    assert not fight_reach(t, a, model_body("b", 10, 11.8, 0.5))  # more than 2"
    far = model_body("a", 10, 8.3, 0.5)  # 1.2" from the barricade's edge
    assert not fight_reach(t, far, model_body("b", 10, 11.3, 0.5))
    assert not fight_reach(terrain(), a, model_body("b", 10, 11.6, 0.5))  # no barricade


def test_5_15_building_placement_is_checked() -> None:
    t = terrain(piece("S1", "sealed", rect(10, 10, 14, 14)))
    relay = RULES.faction.buildings["relay"]
    shape = building_body("X", relay, 14.5, 12).shape
    assert placement_problem(t, shape, [], []) == "it would stand on impassable terrain S1"
    shape = building_body("X", relay, 20, 12).shape
    assert placement_problem(t, shape, [], []) is None
    assert placement_problem(t, shape, [model_body("m", 21, 12, 0.5)], []) == "it would overlap m"
    assert placement_problem(t, shape, [], [model_body("e", 22.5, 12, 0.5)]) == (
        "it would be within engagement range of e")
    assert placement_problem(t, building_body("X", relay, 0.5, 12).shape, [], []) == (
        "it would leave the battlefield")


def test_terrain_index_finds_pieces_and_hills() -> None:
    t = Terrain(RULES.presets["crossroads"], RULES)
    assert [p.id for p in t.at(7, 23)] == ["R1a"]
    assert t.elevation(39, 16) == 5 and t.elevation(22, 30) == 0
