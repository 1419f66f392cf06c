"""Tests of the Worker Phase (core §8, §6.3–6.4, house rulings 3, 4, 12)."""

from __future__ import annotations

import pytest

from engines.core.errors import IllegalMove
from engines.nexo.game import Nexo
from tests.engines.nexo.support import scenario_game, unit


def test_8_1_a_worker_moves_then_harvests_and_the_turn_alternates() -> None:
    g = scenario_game([unit("a1", "drudge", 10, 12)], [unit("b1", "drudge", 34, 48)])
    g.play("ann", "move a1 10,16")
    assert g.to_act() == ["ann"] and g.state.active == "a1"
    events = g.play("ann", "harvest a1 k1")
    assert g.last_move == "harvest a1 K1"
    assert [e["kind"] for e in events] == ["harvest", "done"]
    assert g.state.sides["p1"].carbonite == 250 and g.to_act() == ["bob"]


def test_8_1_a_worker_moves_no_further_than_its_move_and_does_not_dash() -> None:
    g = scenario_game([unit("a1", "drudge", 10, 5)], [unit("b1", "drudge", 34, 48)], b1=[])
    with pytest.raises(IllegalMove, match="can move 6\""):
        g.play("ann", "move a1 10,11.5")
    with pytest.raises(IllegalMove, match="workers do not Dash"):
        g.play("ann", "dash a1 10,12")
    g.play("ann", "move a1 10,11")
    assert (g.state.models["a1"].x, g.state.models["a1"].y) == (10, 11)


def test_8_1_the_ability_ends_the_activation() -> None:
    g = scenario_game([unit("a1", "drudge", 10, 16), unit("a2", "drudge", 12, 16)],
                      [unit("b1", "drudge", 34, 48)])
    g.play("ann", "harvest a1 K1")
    assert g.state.active is None and g.state.models["a1"].activated
    g.play("bob", "done b1")
    with pytest.raises(IllegalMove, match="a1 has already activated"):
        g.play("ann", "move a1 10,14")


def test_8_2_harvest_needs_the_worker_within_1_inch() -> None:
    g = scenario_game([unit("a1", "drudge", 10, 14.4)], [unit("b1", "drudge", 34, 48)])
    with pytest.raises(IllegalMove, match="not within 1\" of depot K1"):
        g.play("ann", "harvest a1 K1")
    assert g.state.active is None  # a refused first order starts nothing


def test_8_2_at_most_two_workers_of_a_player_per_depot_per_phase() -> None:
    ws = [unit("a1", "drudge", 10, 16), unit("a2", "drudge", 12, 17), unit("a3", "drudge", 8, 17)]
    g = scenario_game(ws, [unit("b1", "drudge", 11, 20)])
    g.play("ann", "harvest a1 K1")
    g.play("bob", "harvest b1 K1")  # an enemy worker may harvest the same depot
    g.play("ann", "harvest a2 K1")
    with pytest.raises(IllegalMove, match="already harvested K1"):
        g.play("ann", "harvest a3 K1")
    assert g.state.sides["p1"].carbonite == 300 and g.state.sides["p2"].carbonite == 250


def test_8_3_build_adds_2_build_points_up_to_the_requirement() -> None:
    site = {"id": "A2", "type": "relay", "x": 10, "y": 10, "bp": 3}
    g = scenario_game([unit("a1", "drudge", 10, 11.6)], [unit("b1", "drudge", 34, 48)],
                      b1=[{"id": "A1", "type": "headquarters", "x": 22, "y": 5}, site])
    events = g.play("ann", "build a1 a2")
    assert g.state.buildings["A2"].build_points == 4
    assert [e["kind"] for e in events] == ["activate", "build", "done"]
    assert not g.state.buildings["A2"].complete  # completes at the next Production Phase


def test_8_3_repair_restores_3_hp_for_10_carbonite() -> None:
    g = scenario_game([unit("a1", "drudge", 22, 8.6)], [unit("b1", "drudge", 34, 48)],
                      b1=[{"id": "A1", "type": "headquarters", "x": 22, "y": 5, "hp": 30}])
    g.play("ann", "repair a1 A1")
    assert g.state.buildings["A1"].hp == 33 and g.state.sides["p1"].carbonite == 190


def test_6_4_the_outnumbered_player_gains_passes_for_the_worker_phase() -> None:
    ws = [unit("a1", "drudge", 10, 5), unit("a2", "drudge", 12, 5), unit("a3", "drudge", 14, 5)]
    g = scenario_game(ws, [unit("b1", "drudge", 34, 48)], phase="initiative", turn="p1")
    g.play("ann", "first them")
    assert g.state.phase == "worker" and g.to_act() == ["bob"]
    assert (g.state.sides["p1"].passes, g.state.sides["p2"].passes) == (0, 2)
    assert "pass" in g.legal_moves("bob")
    g.play("bob", "pass")
    assert g.to_act() == ["ann"] and g.state.sides["p2"].passes == 1
    with pytest.raises(IllegalMove, match="no Pass"):
        g.play("ann", "pass")


def test_6_3_a_player_with_nothing_left_is_skipped_and_the_phase_ends() -> None:
    g = scenario_game([unit("a1", "drudge", 10, 5), unit("a2", "drudge", 12, 5)],
                      [unit("b1", "drudge", 34, 48), unit("b9", "trooper", 30, 50)])
    g.play("ann", "done a1")
    g.play("bob", "done b1")
    assert g.to_act() == ["ann"]
    g.play("ann", "done a2")  # the Worker Phase is over: the Action Phase opens
    assert g.state.phase == "action" and g.to_act() == ["bob"]  # only bob has an eligible unit


def test_6_3_only_the_active_model_acts_until_done() -> None:
    g = scenario_game([unit("a1", "drudge", 10, 12), unit("a2", "drudge", 12, 5)],
                      [unit("b1", "drudge", 34, 48)])
    g.play("ann", "move a1 10,16")  # K1 is in reach: a1 may still harvest
    with pytest.raises(IllegalMove, match="a1 is activating"):
        g.play("ann", "move a2 12,7")
    g.play("ann", "done a1")
    assert g.to_act() == ["bob"]


def test_ruling_16_an_activation_with_only_done_left_ends_by_itself() -> None:
    g = scenario_game([unit("a1", "drudge", 10, 5), unit("a2", "drudge", 12, 5)],
                      [unit("b1", "drudge", 34, 48)])
    events = g.play("ann", "move a1 10,7")  # nothing in reach to harvest, build or repair
    assert events[-1]["kind"] == "done" and g.to_act() == ["bob"]


def test_ruling_3_chained_orders_apply_in_turn() -> None:
    g = scenario_game([unit("a1", "drudge", 10, 12)], [unit("b1", "drudge", 34, 48)])
    events = g.play("ann", "move a1 10,16; harvest a1 K1; move b1 30,30")
    assert g.last_move == "move a1 10,16; harvest a1 K1"
    assert events[-1]["kind"] == "refused" and g.state.sides["p1"].carbonite == 250


def test_ruling_16_harvest_all_sends_every_worker_that_can_harvest_to_its_nearest_free_depot() -> None:
    ws = [unit("a1", "drudge", 10, 12), unit("a2", "drudge", 12, 14), unit("a3", "drudge", 36, 5)]
    g = scenario_game(ws, [unit("b1", "drudge", 34, 48)])
    assert "harvest all" in g.legal_moves("ann")
    events = g.play("ann", "harvest all")  # bob has a worker to activate: one worker now, the rest stands
    assert g.last_move == "harvest all" and g.state.sides["p1"].standing == "harvest all"
    assert next(e["orders"] for e in events if e["kind"] == "standing")[-1] == "harvest a1 K1"
    assert g.to_act() == ["bob"] and g.state.sides["p1"].carbonite == 250
    events = g.play("bob", "done b1")  # ann's turn again: her standing order plays a2; a3 is too far
    standing = [e for e in events if e["kind"] == "standing"]
    assert [e["orders"][-1] for e in standing] == ["harvest a2 K1"] and "ann's standing order" in standing[0]["text"]
    assert g.state.sides["p1"].carbonite == 300 and g.to_act() == ["ann"]
    assert g.state.sides["p1"].standing is None  # it lapsed: the turn rests with ann, who is told so
    assert any(e["kind"] == "note" and e.get("to") == "ann" for e in events)
    with pytest.raises(IllegalMove, match="None of your workers"):
        g.play("ann", "harvest all")


def test_ruling_16_a_standing_order_is_replayed_from_the_log_and_survives_a_save() -> None:
    ws = [unit("a1", "drudge", 10, 12), unit("a2", "drudge", 12, 14)]
    g = scenario_game(ws, [unit("b1", "drudge", 34, 48), unit("b2", "drudge", 30, 48)])
    g.play("ann", "harvest all")
    saved = Nexo.from_json(g.to_json())  # bob to act, ann's order standing
    assert saved.state.sides["p1"].standing == "harvest all"
    saved.play("bob", "done b1")
    g.play("bob", "done b1")
    assert saved.dump_state() == g.dump_state() and g.state.sides["p1"].carbonite == 300


def test_ruling_16_standing_orders_end_with_their_phase() -> None:
    ws = [unit("a1", "drudge", 10, 12), unit("a5", "trooper", 20, 20)]
    g = scenario_game(ws, [unit("b1", "drudge", 34, 48), unit("b2", "drudge", 30, 48)])
    g.play("ann", "harvest all")
    g.play("bob", "done b1")
    g.play("bob", "done b2")  # ann had nothing left: the Worker Phase is over
    assert g.state.phase.value == "action" and all(side.standing is None for side in g.state.sides.values())


def test_ruling_6_overwatch_also_fires_at_workers_moving_in_the_worker_phase() -> None:
    g = scenario_game([unit("a1", "drudge", 10, 12)], [unit("b5", "trooper", 10, 30, overwatch=True)])
    events = g.play("ann", "move a1 10,16")
    assert "overwatch" in [e["kind"] for e in events] and not g.state.models["b5"].overwatch


def test_6_4_spending_a_pass_activates_no_model() -> None:
    ws = [unit("a1", "drudge", 10, 5), unit("a2", "drudge", 12, 5)]
    g = scenario_game(ws, [unit("b1", "drudge", 34, 48)], phase="initiative")
    g.play("ann", "first them")
    g.play("bob", "pass")
    assert g.state.active is None and not g.state.models["b1"].activated
    assert [p.id for p in g.world().eligible("p2", "worker")] == ["b1"] and g.to_act() == ["ann"]


def test_6_4_unused_passes_are_lost_and_counted_afresh_for_the_next_phase() -> None:
    ws = [unit("a1", "drudge", 10, 5), unit("a2", "drudge", 12, 5), unit("a3", "drudge", 14, 5),
          unit("a5", "trooper", 20, 20)]
    g = scenario_game(ws, [unit("b1", "drudge", 34, 48), unit("b5", "trooper", 20, 40),
                           unit("b6", "trooper", 30, 40)], phase="initiative")
    g.play("ann", "first them")
    assert (g.state.sides["p1"].passes, g.state.sides["p2"].passes) == (0, 2)
    g.play("bob", "done b1")  # bob keeps both Passes unspent
    for a in ("a1", "a2", "a3"):
        g.play("ann", f"done {a}")
    assert g.state.phase.value == "action"
    assert (g.state.sides["p1"].passes, g.state.sides["p2"].passes) == (1, 0)  # 1 v 2 units now


def test_8_worker_phase_activates_only_workers_and_action_phase_only_the_others() -> None:
    g = scenario_game([unit("a1", "drudge", 10, 5), unit("a5", "trooper", 20, 20)],
                      [unit("b1", "drudge", 34, 48)])
    assert [p.id for p in g.world().eligible("p1", "worker")] == ["a1"]
    with pytest.raises(IllegalMove):
        g.play("ann", "move a5 20,22")
    assert [p.id for p in g.world().eligible("p1", "action")] == ["a5"]


def test_8_2_the_two_worker_limit_is_per_worker_phase() -> None:
    ws = [unit("a1", "drudge", 10, 16), unit("a2", "drudge", 12, 17)]
    g = scenario_game(ws, [unit("b1", "drudge", 34, 55)])
    g.play("ann", "harvest a1 K1")
    g.play("bob", "done b1")
    g.play("ann", "harvest a2 K1")  # the Worker Phase is over; the Action Phase is empty
    assert g.state.phase.value == "production" and g.state.sides["p1"].carbonite == 300
    g.play(g.to_act()[0], "end")
    g.play(g.to_act()[0], "end")
    g.play(g.to_act()[0], "first me")
    assert g.state.phase.value == "worker" and g.state.harvests == {}
    g.play("ann", "harvest a1 K1")  # a new Worker Phase: the depot takes two again
    assert g.state.sides["p1"].carbonite == 350


def test_ruling_4_cannot_activate_says_when_it_can() -> None:
    g = scenario_game([unit("a3", "drudge", 10, 12), unit("a5", "trooper", 20, 20), unit("a6", "trooper", 24, 20)],
                      [unit("b5", "trooper", 20, 50)], phase="action")
    with pytest.raises(IllegalMove, match="a3 cannot activate in this phase: workers activate only in the Worker"):
        g.play("ann", "move a3 10,14")
    g.state.models["a6"].fresh = True  # as if produced this round
    with pytest.raises(IllegalMove, match="a6 cannot activate this round: it was produced this round"):
        g.play("ann", "move a6 24,22")
    g2 = scenario_game([unit("a3", "drudge", 10, 12), unit("a5", "trooper", 20, 20)],
                       [unit("b1", "drudge", 34, 48)])
    with pytest.raises(IllegalMove, match="a5 cannot activate in this phase: it activates in the Action Phase"):
        g2.play("ann", "move a5 20,22")
    with pytest.raises(IllegalMove, match="A1 cannot activate: a Headquarters never does"):
        g2.play("ann", "done A1")


def test_8_3_build_on_a_complete_building_says_it_is_complete() -> None:
    g = scenario_game([unit("a1", "drudge", 10, 12)], [unit("b1", "drudge", 34, 48)])
    with pytest.raises(IllegalMove, match="A1 is complete"):
        g.play("ann", "build a1 A1")
