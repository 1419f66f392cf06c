"""Tests of Energy, Blackout and building function (core §7, §14.3, house rulings 1–2)."""

from __future__ import annotations

from typing import Any

from engines.nexo import economy
from engines.nexo.data import default_ruleset
from engines.nexo.scenario import load_scenario
from engines.nexo.state import State

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
