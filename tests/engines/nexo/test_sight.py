"""Tests of line of sight, Obscuring and cover (core §5.3–5.14, house rulings 8–9)."""

from __future__ import annotations

import time
from typing import Any

from engines.nexo.data import default_ruleset
from engines.nexo.geometry import Body, building_body, model_body
from engines.nexo.sight import Cover, cover, visible
from engines.nexo.terrain import Terrain
from tests.engines.nexo.support import HQ2, piece, rect, scenario_game, terrain, unit

RULES = default_ruleset()
RUIN = piece("R1", "ruin", rect(10, 20, 20, 30))


def m(id: str, x: float, y: float, r: float = 0.5) -> Body:
    """Returns a model body (test shorthand)."""
    return model_body(id, x, y, r)


def test_5_3_a_clear_line_is_visible() -> None:
    assert visible(terrain(), m("a", 5, 5), m("b", 30, 40))


def test_5_3_terrain_that_fully_blocks_the_view_hides_the_target() -> None:
    t = terrain(piece("S1", "sealed", rect(10, 20, 20, 30)))
    assert not visible(t, m("a", 15, 10), m("b", 15, 40))


def test_5_3_a_partly_hidden_target_is_visible() -> None:
    t = terrain(piece("S1", "sealed", rect(10, 20, 20, 30)))
    assert visible(t, m("a", 20.2, 10), m("b", 20.2, 40))  # rim lines pass beside the structure


def test_5_7_no_shooting_through_obscuring_from_outside() -> None:
    assert not visible(terrain(RUIN), m("a", 15, 10), m("b", 15, 40))


def test_5_7_being_close_to_the_edge_does_not_allow_shooting_through() -> None:
    # Both just outside opposite sides; every sampled line runs through the footprint.
    assert not visible(terrain(RUIN), m("a", 15, 19.4), m("b", 15, 30.6))


def test_5_7_a_line_beside_the_footprint_is_clear() -> None:
    assert visible(terrain(RUIN), m("a", 21, 10), m("b", 21, 40))


def test_5_7_shooting_into_obscuring() -> None:
    assert visible(terrain(RUIN), m("a", 15, 10), m("b", 15, 28))


def test_5_7_shooting_out_of_obscuring() -> None:
    assert visible(terrain(RUIN), m("a", 15, 28), m("b", 15, 50))


def test_5_7_shooting_within_the_same_obscuring_footprint() -> None:
    assert visible(terrain(RUIN), m("a", 12, 22), m("b", 18, 28))


def test_5_7_out_of_one_ruin_but_through_another_is_blocked() -> None:
    t = terrain(RUIN, piece("R2", "ruin", rect(10, 35, 20, 40)))
    assert not visible(t, m("a", 15, 25), m("b", 15, 50))


def test_5_12_a_hill_blocks_a_line_between_lower_models() -> None:
    t = terrain(piece("H1", "hill", rect(10, 20, 20, 30), height=5))
    assert not visible(t, m("a", 15, 10), m("b", 15, 40))


def test_5_12_a_model_on_the_hill_sees_over_it() -> None:
    t = terrain(piece("H1", "hill", rect(10, 20, 20, 30), height=5))
    assert visible(t, m("a", 15, 25), m("b", 15, 40))


def test_5_14_buildings_block_sight_and_wreckage_does_not() -> None:
    foundry = RULES.faction.buildings["foundry"]  # 5" x 4"
    wall = building_body("F1", foundry, 15, 25)
    assert not visible(terrain(), m("a", 15, 10), m("b", 15, 40), [wall])
    wreck = building_body("F1", foundry, 15, 25, wreck=True)
    assert visible(terrain(), m("a", 15, 10), m("b", 15, 40), [wreck])


def test_models_never_block_sight() -> None:
    big = model_body("s", 15, 25, 1.5)
    assert visible(terrain(), m("a", 15, 10), m("b", 15, 40), [big])


def test_a_building_target_is_seen_past_an_obscuring_corner() -> None:
    hq = building_body("H", RULES.faction.buildings["headquarters"], 17, 45)  # x 14..20, y 42..48
    assert visible(terrain(RUIN), m("a", 22, 10), hq)


def test_5_8_light_cover_inside_a_ruin() -> None:
    assert cover(terrain(RUIN), m("a", 15, 10), m("b", 15, 22)) == Cover.LIGHT


def test_5_8_heavy_feature_inside_a_ruin_gives_heavy() -> None:
    ruin = piece("R1", "ruin", rect(10, 20, 20, 30), features=[(rect(12, 23, 18, 23.5), "heavy")])
    t = terrain(ruin)
    assert cover(t, m("a", 15, 10), m("b", 15, 24.5)) == Cover.HEAVY
    assert cover(t, m("a", 15, 40), m("b", 15, 24.5)) == Cover.LIGHT  # the feature is behind


def test_5_9_crater_gives_light_cover_inside() -> None:
    t = terrain(piece("C1", "crater", rect(10, 20, 14, 24)))
    assert cover(t, m("a", 12, 5), m("b", 12, 22)) == Cover.LIGHT
    assert cover(t, m("a", 12, 5), m("b", 12, 26)) == Cover.NONE


def test_5_10_barricade_gives_light_when_crossed_within_one_inch() -> None:
    t = terrain(piece("B1", "barricade", line=((5, 20), (15, 20))))
    assert cover(t, m("a", 10, 5), m("b", 10, 20.8)) == Cover.LIGHT
    assert cover(t, m("a", 10, 5), m("b", 10, 22)) == Cover.NONE  # more than 1" behind it
    assert cover(t, m("a", 10, 30), m("b", 10, 20.8)) == Cover.NONE  # the line does not cross


def test_5_10_large_barricade_gives_heavy() -> None:
    t = terrain(piece("B1", "barricade", line=((5, 20), (15, 20)), cover="heavy"))
    assert cover(t, m("a", 10, 5), m("b", 10, 20.8)) == Cover.HEAVY


def test_5_4_only_the_better_cover_applies() -> None:
    t = terrain(piece("C1", "crater", rect(8, 20.5, 12, 24)),
                piece("B1", "barricade", line=((5, 20), (15, 20)), cover="heavy"))
    assert cover(t, m("a", 10, 5), m("b", 10, 21)) == Cover.HEAVY


def test_5_12_five_inches_higher_ignores_light_but_not_heavy() -> None:
    hill = piece("H1", "hill", rect(5, 2, 15, 8), height=5)
    light = terrain(hill, piece("C1", "crater", rect(8, 20, 12, 24)))
    assert cover(light, m("a", 10, 5), m("b", 10, 22)) == Cover.NONE
    assert cover(light, m("a", 20, 5), m("b", 10, 22)) == Cover.LIGHT  # not on the hill
    heavy = terrain(hill, piece("B1", "barricade", line=((5, 20), (15, 20)), cover="heavy"))
    assert cover(heavy, m("a", 10, 5), m("b", 10, 20.8)) == Cover.HEAVY


def test_5_14_a_building_gives_light_cover_to_units_behind_it() -> None:
    relay = building_body("Y", RULES.faction.buildings["relay"], 10, 20)  # y 19..21
    assert cover(terrain(), m("a", 10.9, 5), m("b", 10.9, 21.8), [relay]) == Cover.LIGHT


def test_14_buildings_claim_no_cover() -> None:
    hq = building_body("H", RULES.faction.buildings["headquarters"], 15, 25)
    assert cover(terrain(RUIN), m("a", 15, 5), hq) == Cover.NONE


def test_line_of_sight_on_a_full_preset_is_fast() -> None:
    t = Terrain(RULES.presets["crossroads"], RULES)
    pairs = [(m("a", 3 + (i * 7) % 38, 2 + (i * 5) % 20), m("b", 3 + (i * 11) % 38, 38 + (i * 3) % 20))
             for i in range(200)]
    start = time.perf_counter()
    seen = sum(visible(t, a, b) for a, b in pairs)
    elapsed = time.perf_counter() - start
    assert 0 < seen < 200
    assert elapsed < 2.0, f"200 sight queries took {elapsed:.2f}s"


# Scenario-built checks (rules audit): a5 (p1) looks at b5 (p2) on a field holding only ``pieces``.

def _look(a: tuple[float, float], b: tuple[float, float], pieces: list[dict[str, Any]],
          b2: list[dict[str, Any]] | None = None) -> tuple[bool, Cover]:
    """Returns whether a5 sees b5 in a scenario, and the cover b5 claims against it."""
    g = scenario_game([unit("a5", "trooper", *a)], [unit("b5", "trooper", *b)], phase="action",
                      terrain=pieces, b2=b2)
    w = g.world()
    s, t = w.body(g.state.models["a5"]), w.body(g.state.models["b5"])
    return visible(w.terrain, s, t, w.bodies()), cover(w.terrain, s, t, w.bodies())


def _box(id: str, type: str, x0: float, y0: float, x1: float, y1: float, **more: Any) -> dict[str, Any]:
    """Returns a scenario terrain piece with a rectangular footprint."""
    return {"id": id, "type": type, "poly": [list(p) for p in rect(x0, y0, x1, y1)], **more}


def test_5_11_debris_gives_light_cover_when_it_partly_hides_the_target() -> None:
    crate = _box("D1", "debris", 8, 20, 12, 21)
    assert _look((10, 5), (10, 21.8), [crate]) == (True, Cover.LIGHT)
    assert _look((10, 40), (10, 21.8), [crate]) == (True, Cover.NONE)  # it does not hide b5 from there


def test_5_11_large_debris_may_give_heavy_cover_or_block_sight() -> None:
    assert _look((10, 5), (10, 21.8), [_box("D1", "debris", 8, 20, 12, 21, cover="heavy")]) == (
        True, Cover.HEAVY)
    seen, _ = _look((10, 5), (10, 30), [_box("D1", "debris", 4, 20, 16, 21, blocks_sight=True)])
    assert not seen


def test_5_12_height_does_not_let_a_shooter_see_through_obscuring() -> None:
    hill, ruin = _box("H1", "hill", 5, 2, 15, 8, height=5), _box("R1", "ruin", 5, 20, 15, 30)
    seen, _ = _look((10, 5), (10, 40), [hill, ruin])
    assert not seen


def test_5_8_shooting_out_of_a_ruin_the_target_may_claim_cover_from_another_piece() -> None:
    ruin = _box("R1", "ruin", 5, 20, 15, 30)
    barricade = {"id": "T1", "type": "barricade", "line": [[5, 40], [15, 40]]}
    assert _look((10, 25), (10, 40.8), [ruin, barricade]) == (True, Cover.LIGHT)
    assert _look((10, 25), (10, 40.8), [ruin]) == (True, Cover.NONE)


def test_5_8_the_ruin_footprint_gives_light_cover_to_a_target_inside() -> None:
    assert _look((10, 5), (10, 22), [_box("R1", "ruin", 5, 20, 15, 30)]) == (True, Cover.LIGHT)


def test_5_14_and_10_7_destroyed_building_wreckage_counts_as_debris() -> None:
    relay = {"id": "B2", "type": "relay", "x": 10, "y": 20}  # y 19..21
    standing = _look((10.9, 5), (10.9, 21.8), [], b2=[HQ2, relay])
    wreck = _look((10.9, 5), (10.9, 21.8), [], b2=[HQ2, {**relay, "hp": 0}])
    assert standing == (True, Cover.LIGHT) and wreck == (True, Cover.LIGHT)
    assert not _look((10, 5), (10, 30), [], b2=[HQ2, relay])[0]  # a standing building blocks sight
    assert _look((10, 5), (10, 30), [], b2=[HQ2, {**relay, "hp": 0}])[0]  # its wreckage does not


FOUNDRY = RULES.faction.buildings["foundry"]


def test_5_14_touching_buildings_block_sight_together() -> None:
    """Two Foundries built flush (9.5–14.5 and 14.5–19.5) form a 10" wall with no gap at the seam."""
    walls = [building_body("A2", FOUNDRY, 12, 30), building_body("A3", FOUNDRY, 17, 30)]
    t = terrain()
    assert not visible(t, m("a", 14.5, 20), m("b", 14.5, 40), walls)  # straight along the shared edge
    assert not visible(t, m("a", 14.8, 20), m("b", 14.8, 40), walls)  # 0.3" off the seam
    assert visible(t, m("a", 14.5, 20), m("b", 14.5, 40), walls[:1])  # one alone: the edge is clear
    assert visible(t, m("a", 20, 20), m("b", 20, 40), walls)  # past the end of the wall


def test_5_7_touching_obscuring_ruins_block_sight_together() -> None:
    t = terrain(piece("R1", "ruin", rect(10, 20, 14.5, 30)), piece("R2", "ruin", rect(14.5, 20, 20, 30)))
    assert not visible(t, m("a", 14.5, 10), m("b", 14.5, 40))  # along the seam
    assert not visible(t, m("a", 14.8, 10), m("b", 14.8, 40))
    assert visible(t, m("a", 14.5, 10), m("b", 14.5, 25))  # into the ruins is still allowed
    assert visible(terrain(piece("R1", "ruin", rect(10, 20, 14.5, 30))), m("a", 14.5, 10), m("b", 14.5, 40))
