"""Tests of Energy, Blackout and building function (core §7, §14.3, house rulings 1–2)."""

from __future__ import annotations

from typing import Any

import pytest

from engines.core.errors import IllegalMove
from engines.nexo import economy
from engines.nexo.data import default_ruleset
from engines.nexo.scenario import load_scenario
from engines.nexo.state import State
from tests.engines.nexo.support import HQ1, scenario_game, unit

RULES = default_ruleset()
F = RULES.faction


def side(**p1: Any) -> State:
    """Returns a position where only player 1 has the given models and buildings."""
    return load_scenario({"sides": {"p1": p1}}, RULES, seed=1)


def test_7_2_headquarters_and_generator_produce_fifty_each() -> None:
    s = load_scenario(None, RULES, seed=1)
    assert economy.energy_production(s, "p1", F) == 100
    assert economy.energy_demand(s, "p1", F) == 0 and not economy.blackout(s, "p1", F)


def test_7_6_a_building_below_half_hp_loses_its_function() -> None:
    s = side(buildings=[{"id": "A1", "type": "headquarters", "x": 22, "y": 5, "hp": 19},
                        {"id": "A2", "type": "generator", "x": 10, "y": 5, "hp": 13}])
    assert not economy.intact(s.buildings["A1"], F)  # 19 < 20
    assert economy.intact(s.buildings["A2"], F)  # 13 >= 12.5
    assert economy.energy_production(s, "p1", F) == 50


def test_7_3_demand_from_buildings_under_construction_and_powered_units() -> None:
    s = side(buildings=[{"id": "A1", "type": "headquarters", "x": 22, "y": 5},
                        {"id": "A3", "type": "foundry", "x": 10, "y": 5, "bp": 0},
                        {"id": "A4", "type": "generator", "x": 34, "y": 5, "bp": 2}],
             models=[{"id": "a1", "type": "gunner", "x": 22, "y": 14},
                     {"id": "a2", "type": "strider", "x": 30, "y": 14}])
    # Foundry 30 (under construction), Generator 0 (ruling 2), Gunner 10, Strider 25.
    assert economy.energy_demand(s, "p1", F) == 65
    assert economy.energy_production(s, "p1", F) == 50
    assert economy.blackout(s, "p1", F) and economy.spare_energy(s, "p1", F) == -15


def test_10_7_wreckage_demands_and_produces_nothing() -> None:
    s = side(buildings=[{"id": "A1", "type": "headquarters", "x": 22, "y": 5, "hp": 0},
                        {"id": "A3", "type": "foundry", "x": 10, "y": 5, "hp": 0}])
    assert economy.energy_production(s, "p1", F) == 0 and economy.energy_demand(s, "p1", F) == 0


# Scenario-built checks of §3, §7.4–7.6 and §14.3 (rules audit).

GEN = {"id": "A3", "type": "generator", "x": 32, "y": 4}
FOUNDRY = {"id": "A2", "type": "foundry", "x": 12, "y": 6}
TURRET = {"id": "A6", "type": "turret", "x": 14, "y": 16}
RELAY = {"id": "A7", "type": "relay", "x": 30, "y": 16}


def _end_round(g: Any) -> None:
    """Ends the Production Phase for both players (a new round opens)."""
    g.play(g.to_act()[0], "end")
    g.play(g.to_act()[0], "end")


def _energy(g: Any, player: str = "ann") -> tuple[int, int]:
    """Returns a player's (Energy Production, Energy Demand) as the view shows them."""
    p = g.view(None)["players"][player]
    return p["energy_production"], p["energy_demand"]


def test_3_1_unused_carbonite_carries_over_between_rounds() -> None:
    g = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="production", carbonite=175)
    _end_round(g)
    assert g.state.round == 2 and g.state.sides["p1"].carbonite == 175


def test_3_2_energy_does_not_carry_over_and_is_not_stored() -> None:
    g = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="production", b1=[HQ1, GEN],
                      carbonite=1000)
    assert _energy(g) == (100, 0)
    _end_round(g)  # 100 Energy went unused in round 1
    assert g.state.round == 2 and _energy(g) == (100, 0)
    assert not hasattr(g.state.sides["p1"], "energy")  # no bank: Energy is a live value only


def test_3_2_using_more_energy_than_produced_is_blackout_at_once() -> None:
    g = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="production", b1=[HQ1, FOUNDRY, TURRET])
    assert _energy(g) == (50, 50) and not g.view(None)["players"]["ann"]["blackout"]
    events = g.play("ann", "scrap A1")
    assert "blackout" in [e["kind"] for e in events] and g.view(None)["players"]["ann"]["blackout"]


def test_7_4_blackout_ends_as_soon_as_production_equals_demand() -> None:
    g = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="production",
                      b1=[HQ1, FOUNDRY, TURRET, RELAY])
    assert _energy(g) == (50, 60) and g.view(None)["players"]["ann"]["blackout"]
    events = g.play("ann", "scrap A7")  # 50 produced, 50 demanded
    assert "blackout_end" in [e["kind"] for e in events]
    assert not g.view(None)["players"]["ann"]["blackout"]


def test_7_5_and_7_6_repairing_a_headquarters_to_half_hp_restores_its_energy() -> None:
    hq = {**HQ1, "hp": 18}  # below 20 of 40: no Energy
    g = scenario_game([unit("a1", "drudge", 22, 8.6)], [unit("b1", "drudge", 34, 48)],
                      b1=[hq, FOUNDRY, TURRET, RELAY, GEN])
    assert _energy(g) == (50, 60) and g.view(None)["players"]["ann"]["blackout"]
    events = g.play("ann", "repair a1 A1")  # +3 HP: 21 of 40
    assert g.state.buildings["A1"].hp == 21 and _energy(g) == (100, 60)
    assert "blackout_end" in [e["kind"] for e in events]


def test_7_5_in_blackout_a_player_may_attack_own_pieces_that_demand_energy() -> None:
    own = [unit("a5", "trooper", 20, 20), unit("a7", "gunner", 20, 21.5), unit("a6", "trooper", 21.4, 20)]
    g = scenario_game(own, [unit("b5", "trooper", 20, 50)], phase="action", b1=[{**HQ1, "hp": 10}])
    assert _energy(g) == (0, 10) and g.view(None)["players"]["ann"]["blackout"]
    with pytest.raises(IllegalMove, match="on your side"):
        g.play("ann", "fight a5 a6 knife")  # a Trooper demands no Energy
    assert "fight a5 a7 knife" in g.legal_moves("ann") and "fight a5 a6 knife" not in g.legal_moves("ann")
    events = g.play("ann", "fight a5 a7 knife")
    assert events[1]["kind"] == "fight" and events[1]["target"] == "a7"


def test_7_5_in_blackout_own_buildings_that_demand_energy_may_be_shot() -> None:
    g = scenario_game([unit("a5", "trooper", 22, 12)], [unit("b5", "trooper", 20, 50)], phase="action",
                      b1=[{**HQ1, "hp": 10}, {**TURRET, "x": 22, "y": 24}, {**GEN, "hp": 5}])
    assert g.view(None)["players"]["ann"]["blackout"]
    with pytest.raises(IllegalMove, match="on your side"):
        g.play("ann", "shoot a5 A3 rifle")  # a Generator demands no Energy
    events = g.play("ann", "shoot a5 A6 rifle")
    assert events[1]["kind"] == "shoot" and events[1]["target"] == "A6"


def test_7_5_a_unit_in_blackout_cannot_attack_itself() -> None:
    g = scenario_game([unit("a8", "strider", 20, 20)], [unit("b5", "trooper", 20, 50)], phase="action",
                      b1=[{**HQ1, "hp": 10}])
    with pytest.raises(IllegalMove, match="cannot attack itself"):
        g.play("ann", "fight a8 a8 stomp")


def test_7_5_own_pieces_cannot_be_attacked_outside_blackout() -> None:
    own = [unit("a5", "trooper", 20, 20), unit("a7", "gunner", 20, 21.5)]
    g = scenario_game(own, [unit("b5", "trooper", 20, 50)], phase="action")
    assert not g.view(None)["players"]["ann"]["blackout"]
    with pytest.raises(IllegalMove, match="on your side"):
        g.play("ann", "fight a5 a7 knife")


def test_7_6_and_14_3_a_headquarters_below_half_hp_cannot_produce_units() -> None:
    g = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="production", b1=[{**HQ1, "hp": 19}, GEN])
    with pytest.raises(IllegalMove, match="not functional"):
        g.play("ann", "produce A1 drudge")
    assert not any(m.startswith("produce") for m in g.legal_moves("ann"))
    g2 = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="production", b1=[{**HQ1, "hp": 20}, GEN])
    g2.play("ann", "produce A1 drudge")  # at exactly half it works


def test_14_3_a_production_building_below_half_hp_cannot_produce_units() -> None:
    g = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="production",
                      b1=[HQ1, GEN, {**FOUNDRY, "hp": 19}])
    with pytest.raises(IllegalMove, match="not functional"):
        g.play("ann", "produce A2 trooper")


def test_14_3_a_relay_below_half_hp_does_not_extend_building_range() -> None:
    relay = {"id": "A7", "type": "relay", "x": 22, "y": 20}  # 12" from the HQ's footprint
    g = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="production", b1=[HQ1, GEN, relay])
    g.play("ann", "construct relay 22,32")  # within 12" of the Relay only
    g2 = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="production",
                       b1=[HQ1, GEN, {**relay, "hp": 7}])
    with pytest.raises(IllegalMove, match="within 12\""):
        g2.play("ann", "construct relay 22,32")


def test_14_3_a_generator_below_half_hp_produces_no_energy() -> None:
    g = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="production", b1=[HQ1, {**GEN, "hp": 12}])
    assert _energy(g) == (50, 0)


def test_13_2_a_generator_under_construction_produces_no_energy() -> None:
    g = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="production", b1=[HQ1, {**GEN, "bp": 5}])
    assert _energy(g) == (50, 0)


def test_7_5_cancelling_a_site_that_demands_energy_ends_blackout() -> None:
    g = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="production",
                      b1=[HQ1, FOUNDRY, {**TURRET, "bp": 0}, {**RELAY, "bp": 0}])
    assert _energy(g) == (50, 60) and g.view(None)["players"]["ann"]["blackout"]
    events = g.play("ann", "scrap A7")  # the Relay site is cancelled: 50 of 50
    assert "A7" not in g.state.buildings and "blackout_end" in [e["kind"] for e in events]
