"""Tests of Upkeep, WIA durations and victory (core §7, §12, §15, house rulings 10, "Victory")."""

from __future__ import annotations

from engines.nexo.game import Nexo
from tests.engines.nexo.support import HQ1, HQ2, scenario_game, unit


def _round_over(g: Nexo) -> None:
    """Ends the current Production Phase for both players."""
    for _ in range(2):
        if g.state.phase == "production" and not g.is_over:
            g.play(g.to_act()[0], "end")


def test_12_bleeding_loses_1_hp_at_each_upkeep_never_below_1() -> None:
    g = scenario_game([unit("a5", "trooper", 20, 20, hp=2, wia="bleeding")], [unit("b5", "trooper", 20, 50)],
                      phase="initiative")
    events = g.play("ann", "first me")
    assert g.state.models["a5"].hp == 1 and "bleeding" in [e["kind"] for e in events]
    while g.state.phase != "production":
        p = g.to_act()[0]
        g.play(p, next(m for m in g.legal_moves(p) if m.startswith("done")))
    _round_over(g)
    g.play(g.to_act()[0], "first me")
    assert g.state.models["a5"].hp == 1


def test_12_shaken_lasts_until_the_end_of_the_next_round() -> None:
    g = scenario_game([unit("a5", "trooper", 20, 20, wia="shaken")], [unit("b5", "trooper", 20, 50)],
                      phase="production")  # the scenario's round 1 counts as the round it was rolled
    _round_over(g)
    assert g.state.round == 2 and g.state.models["a5"].wia == "shaken"
    g.play(g.to_act()[0], "first me")
    while g.state.phase != "production":
        p = g.to_act()[0]
        g.play(p, next(m for m in g.legal_moves(p) if m.startswith("done")))
    _round_over(g)
    assert g.state.round == 3 and g.state.models["a5"].wia is None


def test_12_pinned_skips_the_next_activation() -> None:
    g = scenario_game([unit("a5", "trooper", 20, 20, wia="pinned"), unit("a6", "trooper", 10, 20)],
                      [unit("b5", "trooper", 20, 50)], phase="initiative")
    events = g.play("ann", "first me")  # no workers: the Action Phase opens at once
    assert g.state.phase == "action" and "pinned" in [e["kind"] for e in events]
    assert g.state.models["a5"].activated and g.state.models["a5"].wia is None
    assert [p.id for p in g.world().eligible("p1", "action")] == ["a6"]
    assert (g.state.sides["p1"].passes, g.state.sides["p2"].passes) == (0, 0)  # a5 does not count


def test_7_3_energy_demand_is_checked_the_instant_it_changes() -> None:
    b1 = [HQ1, {"id": "A2", "type": "foundry", "x": 12, "y": 6},
          {"id": "A3", "type": "relay", "x": 32, "y": 4}]
    g = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="production", b1=b1)
    assert not g.view(None)["players"]["ann"]["blackout"]  # 40 of 50
    events = g.play("ann", "construct generator 22,15")
    assert not g.view(None)["players"]["ann"]["blackout"] and "blackout" not in [e["kind"] for e in events]
    events = g.play("ann", "scrap A1")  # the Headquarters' 50 Energy is gone at once
    assert [e["kind"] for e in events] == ["scrap", "blackout"]
    assert g.view(None)["players"]["ann"]["blackout"]


def test_15_1_elimination_when_nothing_is_left() -> None:
    g = scenario_game([unit("a5", "trooper", 20, 20)], [], phase="production", b2=[HQ2], turn="p2",
                      initiative="p2")
    events = g.play("bob", "scrap B1")
    assert g.is_over and g.winners == ["ann"] and events[-1]["kind"] == "game_over"
    assert g.view(None)["result"] == "elimination" and g.to_act() == []


def test_15_1_reserve_units_and_sites_count_as_survivors() -> None:
    site = {"id": "B2", "type": "relay", "x": 22, "y": 45, "bp": 0}
    g = scenario_game([unit("a5", "trooper", 20, 20)], [], phase="production", b2=[HQ2, site], turn="p2",
                      initiative="p2")
    g.play("bob", "scrap B1")
    assert not g.is_over


def test_option_round_limit_the_richer_side_wins_after_that_round() -> None:
    g = scenario_game([unit("a5", "trooper", 20, 20)], [unit("b1", "drudge", 20, 50)], phase="production",
                      options={"round_limit": 1})
    _round_over(g)
    assert g.is_over and g.winners == ["ann"] and g.view(None)["result"] == "round_limit"


def test_option_round_limit_equal_worth_is_a_draw() -> None:
    g = scenario_game([unit("a5", "trooper", 20, 20)], [unit("b5", "trooper", 20, 50)], phase="production",
                      options={"round_limit": 1})
    _round_over(g)
    assert g.is_over and g.winners == []


def test_victory_stall_five_quiet_rounds_are_a_draw() -> None:
    g = scenario_game([], [], phase="production")
    for _ in range(5):
        _round_over(g)
        if g.is_over:
            break
        g.play(g.to_act()[0], "first me")  # no one can activate: straight to Production
    assert g.is_over and g.winners == [] and g.view(None)["result"] == "stall"
