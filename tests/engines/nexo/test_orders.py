"""Tests of orders as the table types them: ids, case, difficult ground and placement limits."""

from __future__ import annotations

import pytest

from engines.core.errors import BadNotation, IllegalMove
from tests.discord.tablehost.test_nexo_choices import in_action
from tests.engines.nexo.support import HQ1, scenario_game, unit

CRATER = {"id": "C9", "type": "crater", "poly": [[18, 22], [26, 22], [26, 26], [18, 26]]}


def test_notation_ids_are_case_insensitive_unless_a_unit_and_a_building_share_one() -> None:
    g = scenario_game([unit("a1", "drudge", 22, 8.6)], [unit("b1", "drudge", 34, 48)],
                      b1=[{**HQ1, "hp": 30}])
    with pytest.raises(IllegalMove, match="A1 cannot activate"):
        g.play("ann", "REPAIR A1 a1")  # upper case: the Headquarters, not the worker
    g.play("ann", "Repair a1 a1")
    assert g.last_move == "repair a1 A1"


def test_notation_lower_case_names_the_unit_when_ids_collide() -> None:
    g = scenario_game([unit("a1", "drudge", 22, 8.6)], [unit("b1", "drudge", 34, 48)],
                      b1=[{**HQ1, "hp": 30}])
    g.play("ann", "repair a1 a1")
    assert g.last_move == "repair a1 A1" and g.state.buildings["A1"].hp == 33


def test_notation_canonical_forms_go_into_the_log() -> None:
    g = scenario_game([unit("a5", "trooper", 20, 10)], [unit("b5", "trooper", 20, 30)], phase="action")
    g.play("ann", "Move  A5   20 , 12")
    assert g.last_move == "move a5 20,12"
    g.play("ann", "SHOOT a5 B5")
    assert g.last_move == "shoot a5 b5"


def test_notation_unknown_ids_and_words_are_refused() -> None:
    g = scenario_game([unit("a5", "trooper", 20, 10)], [unit("b5", "trooper", 20, 30)], phase="action")
    with pytest.raises(IllegalMove, match="no unit or building 'z9'"):
        g.play("ann", "move z9 20,12")
    with pytest.raises(BadNotation):
        g.play("ann", "move a5 nowhere")
    with pytest.raises(IllegalMove, match="not yours"):
        g.play("ann", "move b5 20,28")


def test_5_13_difficult_ground_costs_double_and_pathfinders_ignore_it() -> None:
    g = scenario_game([unit("a5", "trooper", 22, 20), unit("a3", "outrider", 16, 20)],
                      [unit("b5", "trooper", 20, 50)], phase="action", terrain=[CRATER])
    with pytest.raises(IllegalMove, match="through Difficult Ground"):
        g.play("ann", "move a5 22,26")  # 6" of which 4" in the crater: costs 10"
    g.play("ann", "move a5 22,23")  # 3" with 1" inside: costs 4"
    g.play("ann", "done a5")
    g.play("bob", "done b5")
    g.play("ann", "move a3 20,26")  # the Outrider's 8" go straight across
    assert (g.state.models["a3"].x, g.state.models["a3"].y) == (20, 26)


def test_5_15_no_site_within_enemy_engagement_range_or_on_terrain() -> None:
    pit = {"id": "C8", "type": "crater", "poly": [[10, 12], [14, 12], [14, 15], [10, 15]]}
    g = scenario_game([], [unit("b5", "trooper", 22, 14)], phase="production", terrain=[pit])
    with pytest.raises(IllegalMove, match="engagement range of b5"):
        g.play("ann", "construct relay 22,12")
    with pytest.raises(IllegalMove, match="overlap terrain C8"):
        g.play("ann", "construct relay 12,13")


def test_11_every_qualifying_overwatch_fires_in_id_order() -> None:
    watchers = [unit("b6", "trooper", 26, 36, overwatch=True), unit("b5", "trooper", 18, 36, overwatch=True)]
    g = scenario_game([unit("a5", "trooper", 22, 20)], watchers, phase="action")
    events = g.play("ann", "move a5 22,22")
    shooters = [e["attacker"] for e in events if e["kind"] == "overwatch"]
    assert shooters[:1] == ["b5"] and set(shooters) <= {"b5", "b6"}
    if "a5" in g.state.models:
        assert shooters == ["b5", "b6"]


def test_6_4_a_pass_is_refused_when_the_opponent_has_nothing_left() -> None:
    g = scenario_game([unit("a1", "drudge", 10, 5)],
                      [unit("b1", "drudge", 34, 48), unit("b2", "drudge", 30, 48)], phase="initiative")
    g.play("ann", "first them")
    assert g.state.sides["p1"].passes == 1
    g.play("bob", "done b1")
    g.play("ann", "done a1")  # ann has nothing left: her Pass lapses, bob goes on
    assert g.to_act() == ["bob"] and g.state.sides["p1"].passes == 0


def test_done_all_stands_for_every_piece_left_this_phase() -> None:
    g = in_action()  # Ann: a4, a5 and turret A4 to activate; Bob: b1 and b2 (and maybe more)
    ann = ("a4", "a5", "A4")

    def activated() -> int:
        return sum(g.world().piece(p).activated for p in ann)

    assert g.to_act() == ["Ann"]
    g.play("Ann", "done all")  # strict alternation: one piece now, then Bob's turn
    assert g.to_act() == ["Bob"] and activated() == 1 and g.state.sides["p1"].standing == "done all"
    while g.view(None)["phase"] == "action":  # each time Bob hands back the turn, Ann's next piece is done
        assert g.to_act() == ["Bob"]
        bob_piece = next(p.id for p in g.world().eligible("p2", "action"))
        events = g.play("Bob", f"done {bob_piece}")
        assert not [e for e in events if e["kind"] == "standing" and "Bob" in e["text"]]
    assert activated() == 3 and g.view(None)["phase"] == "production"
    with pytest.raises(IllegalMove, match="Worker or Action Phase"):
        g.play(g.to_act()[0], "done all")
