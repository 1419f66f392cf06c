"""Tests of the /nexo show overlay: reach, ranges and sight (engines/nexo/reach.py)."""

from __future__ import annotations

import json
import math
import statistics
import time

import pytest

from engines.core.errors import IllegalMove
from engines.nexo.activation import allowance
from engines.nexo.geometry import check_move, plan_move
from engines.nexo.reach import costs, overlay, reach
from engines.nexo.state import Model
from engines.nexo.world import World
from tests.engines.nexo.support import CROSSROADS_P1, CROSSROADS_P2, crossroads_game, scenario_game, unit

SEALED = {"id": "S9", "type": "sealed", "poly": [[18, 24], [26, 24], [26, 26], [18, 26]]}
BARRICADE = {"id": "B9", "type": "barricade", "line": [[18, 30], [26, 30]]}


def action(p1: list, p2: list, **kw: object):  # type: ignore[no-untyped-def]
    return scenario_game(p1, p2, phase="action", **kw)  # type: ignore[arg-type]


def straight_by_brute_force(w: World, m: Model, budget: float) -> dict[tuple[float, float], float]:
    """Every 1" square centre a one-position move reaches within ``budget``, and its cost."""
    out = {}
    for i in range(int(w.state.width)):
        for j in range(int(w.state.length)):
            c = (i + 0.5, j + 0.5)
            if math.dist(c, (m.x, m.y)) > budget + 1e-7:
                continue
            try:
                plan = plan_move(w.terrain, w.body(m), [c], w.bodies(),
                                 pathfinder="pathfinder" in w.unit_type(m).abilities)
                check_move(plan, budget, m.id)
            except IllegalMove:
                continue
            out[c] = plan.cost
    return out


@pytest.mark.parametrize("uid", [m["id"] for m in CROSSROADS_P1 + CROSSROADS_P2])
def test_straight_reach_is_exactly_what_plan_move_accepts(uid: str) -> None:
    g = crossroads_game(CROSSROADS_P1, CROSSROADS_P2)
    w = g.world()
    m = w.state.models[uid]
    budget = allowance(w, m, dash=True)
    straight = costs(w, m, budget, waypoints=False)
    brute = straight_by_brute_force(w, m, budget)
    assert set(straight) == set(brute)
    assert all(straight[c][0] == pytest.approx(brute[c], abs=1e-9) for c in brute)


@pytest.mark.parametrize("uid", [m["id"] for m in CROSSROADS_P1 + CROSSROADS_P2])
def test_every_square_shown_has_a_path_the_game_accepts(uid: str) -> None:
    g = crossroads_game(CROSSROADS_P1, CROSSROADS_P2)
    w = g.world()
    m = w.state.models[uid]
    budget = allowance(w, m, dash=True)
    found = costs(w, m, budget)
    assert set(found) >= set(costs(w, m, budget, waypoints=False))
    for cost, path in found.values():
        assert len(path) <= 20
        plan = plan_move(w.terrain, w.body(m), path, w.bodies(), pathfinder="pathfinder" in w.unit_type(m).abilities)
        check_move(plan, budget, m.id)
        assert plan.cost == pytest.approx(cost, abs=1e-6)


def test_waypoints_reach_round_a_sealed_structure() -> None:
    block = {"id": "S8", "type": "sealed", "poly": [[21.5, 24], [23.5, 24], [23.5, 25], [21.5, 25]]}
    g = action([unit("a5", "trooper", 22.5, 22)], [unit("b5", "trooper", 40, 50)], terrain=[block])
    w = g.world()
    m = w.state.models["a5"]
    move, dash = reach(w, m)
    straight_move, straight_dash = reach(w, m, waypoints=False)
    assert (23.5, 26.5) in move and (23.5, 26.5) not in straight_move  # round the corner: 5.9"
    assert (22.5, 26.5) in dash and (22.5, 26.5) not in straight_move + straight_dash  # 6.7"
    assert not any(21 < x < 24 and 23.5 < y < 25.5 for x, y in move + dash)  # never on it


def test_move_and_dash_squares_split_by_the_allowance() -> None:
    g = action([unit("a5", "trooper", 22, 20)], [unit("b5", "trooper", 40, 50)])
    w = g.world()
    move, dash = reach(w, w.state.models["a5"])
    assert not set(move) & set(dash)
    assert max(math.dist(c, (22, 20)) for c in move) <= 6 and max(math.dist(c, (22, 20)) for c in dash) <= 9
    assert min(math.dist(c, (22, 20)) for c in dash) > 6 - 1  # squares only a Dash reaches
    assert (22.5, 25.5) in move and (22.5, 28.5) in dash and (22.5, 29.5) not in move + dash


def test_squares_on_a_barricade_are_not_ends() -> None:
    g = action([unit("a5", "trooper", 22, 28)], [unit("b5", "trooper", 40, 50)], terrain=[BARRICADE])
    move, _ = reach(g.world(), g.state.models["a5"])
    assert (22.5, 30.5) not in move and (22.5, 31.5) in move  # the barricade (29.875–30.125) is crossed


def test_difficult_ground_costs_double_but_not_for_a_pathfinder() -> None:
    crater = {"id": "C9", "type": "crater", "poly": [[10, 10], [16, 10], [16, 30], [10, 30]]}
    g = action([unit("a5", "trooper", 17, 20), unit("a6", "outrider", 17, 24)], [unit("b5", "trooper", 40, 50)],
               terrain=[crater])
    w = g.world()
    move, dash = reach(w, w.state.models["a5"])
    assert (12.5, 20.5) in dash and (12.5, 20.5) not in move  # 4.5" away, 3.5" of it in the crater: 8"
    assert (11.5, 20.5) not in move + dash  # 5.5" away: 10"
    scout, _ = reach(w, w.state.models["a6"])
    assert (11.5, 24.5) in scout


def test_wia_limping_shrinks_the_reach() -> None:
    g = action([unit("a5", "trooper", 22, 20, wia="limping")], [unit("b5", "trooper", 40, 50)])
    move, _ = reach(g.world(), g.state.models["a5"])
    assert max(math.dist(c, (22, 20)) for c in move) <= 4


def test_who_gets_no_squares() -> None:
    g = action([unit("a5", "trooper", 22, 20), unit("a6", "trooper", 12, 20)],
               [unit("b5", "trooper", 22, 40), unit("b6", "trooper", 30, 50, activated=True)])
    w = g.world()
    assert overlay(w, "b5")["move"]  # the enemy's reach is shown too
    assert overlay(w, "b6")["move"] == [] and overlay(w, "b6")["dash"] == []  # its activation is over
    g.play("ann", "shoot a5 b5")
    marks = overlay(g.world(), "a5")
    assert marks["move"] and marks["dash"] == []  # it shot: no Dash
    g.play("ann", "move a5 22,22")
    assert overlay(g.world(), "a5")["move"] == []
    worker = scenario_game([unit("a1", "drudge", 20, 20)], [unit("b1", "drudge", 30, 50)])
    marks = overlay(worker.world(), "a1")
    assert marks["move"] and marks["dash"] == [] and marks["ranges"] == []


def test_a_turret_has_ranges_and_sight_but_no_move() -> None:
    turret = {"id": "A3", "type": "turret", "x": 22, "y": 16}
    g = action([], [unit("b5", "trooper", 22, 30), unit("b6", "trooper", 22, 45)],
               b1=[{"id": "A1", "type": "headquarters", "x": 22, "y": 5}, turret])
    marks = overlay(g.world(), "A3")
    assert marks["move"] == [] and marks["dash"] == []
    assert marks["ranges"] == [{"weapon": "autogun", "range": 24.0, "melee": False}]
    assert {s["target"]: s["in_range"] for s in marks["sight"]} == {"B1": False, "b5": True, "b6": False}


def test_sight_lists_visible_enemies_with_cover_and_range() -> None:
    g = action([unit("a5", "trooper", 22, 20)],
               [unit("b5", "trooper", 22, 31), unit("b6", "trooper", 22, 27.5), unit("b7", "trooper", 40, 21)],
               terrain=[SEALED, BARRICADE])
    marks = overlay(g.world(), "a5")
    seen = {s["target"]: s for s in marks["sight"]}
    assert "b6" not in seen and "b5" not in seen  # behind the sealed structure
    assert seen["b7"] == {"target": "b7", "cover": "none", "in_range": True}
    assert marks["ranges"] == [{"weapon": "rifle", "range": 24.0, "melee": False},
                               {"weapon": "knife", "range": 1.0, "melee": True}]
    g2 = action([unit("a5", "trooper", 22, 36)], [unit("b5", "trooper", 22, 28.5)], terrain=[BARRICADE])
    assert overlay(g2.world(), "a5")["sight"][1] == {"target": "b5", "cover": "light", "in_range": True}


def test_unknown_ids_are_refused_with_a_suggestion() -> None:
    g = action([unit("a5", "trooper", 22, 20)], [unit("b5", "trooper", 22, 40)])
    with pytest.raises(IllegalMove, match="There is no unit or building 'a55': did you mean a5"):
        overlay(g.world(), "a55")


def test_the_overlay_is_json_and_fast_on_the_crossroads() -> None:
    g = crossroads_game(CROSSROADS_P1, CROSSROADS_P2)
    w = g.world()
    for uid in ("a3", "a6", "a7", "b6"):
        marks = overlay(w, uid)
        assert json.loads(json.dumps(marks)) == marks and marks["unit"] == uid and marks["cell"] == 1.0
        assert all(len(c) == 2 for c in marks["move"] + marks["dash"])
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            overlay(w, uid)
            times.append(time.perf_counter() - t0)
        assert statistics.median(times) < 0.3, f"{uid}: {statistics.median(times):.3f}s"
