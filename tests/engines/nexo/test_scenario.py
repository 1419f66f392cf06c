"""Tests of the scenario format (house "Scenario format") and the starting forces (core §4.3)."""

from __future__ import annotations

from typing import Any

import pytest

from engines.nexo.data import default_ruleset
from engines.nexo.reader import DataError
from engines.nexo.scenario import load_scenario
from engines.nexo.state import Phase, State

RULES = default_ruleset()

HOUSE_EXAMPLE: dict[str, Any] = {
    "battlefield": {"preset": "crossroads"},
    "terrain": [{"id": "R1", "type": "ruin", "poly": [[14, 26], [22, 26], [22, 32], [14, 32]],
                 "features": [{"poly": [[17, 28], [19, 28], [19, 28.5], [17, 28.5]], "cover": "heavy"}]},
                {"id": "H1", "type": "hill", "poly": [[30, 20], [38, 20], [38, 26], [30, 26]], "height": 5}],
    "depots": [{"id": "K1", "x": 10, "y": 18}, {"id": "K2", "x": 34, "y": 42}],
    "round": 3, "phase": "action", "initiative": "p1", "first": "p2", "turn": "p1",
    "sides": {
        "p1": {"carbonite": 150,
               "models": [{"id": "a1", "type": "drudge", "x": 11, "y": 17.5},
                          {"id": "a5", "type": "trooper", "x": 20, "y": 24, "hp": 3, "wia": "shaken",
                           "activated": True, "overwatch": True}],
               "reserve": [{"id": "a9", "type": "gunner"}],
               "buildings": [{"id": "A1", "type": "headquarters", "x": 22, "y": 5, "hp": 28},
                             {"id": "A4", "type": "foundry", "x": 14, "y": 9, "rot": 90, "bp": 6}]},
        "p2": {"carbonite": 200, "models": [], "buildings": []}},
}


def test_the_house_example_scenario_loads() -> None:
    s = load_scenario(HOUSE_EXAMPLE, RULES, seed=1)
    assert (s.round, s.phase, s.initiative, s.first, s.turn) == (3, Phase.ACTION, "p1", "p2", "p1")
    assert [p.id for p in s.terrain] == ["R1", "H1"] and [d.id for d in s.depots] == ["K1", "K2"]
    a5 = s.models["a5"]
    assert (a5.hp, a5.wia, a5.wia_until, a5.ever_wia, a5.activated, a5.overwatch) == (
        3, "shaken", 4, True, True, True)
    assert s.models["a1"].hp == 5 and not s.models["a1"].activated
    assert s.buildings["A1"].hp == 28 and s.buildings["A4"].complete and s.buildings["A4"].rot == 90
    assert s.sides["p1"].carbonite == 150 and [r.type for r in s.sides["p1"].reserve] == ["gunner"]
    assert s.sides["p2"].carbonite == 200 and not any(m.owner == "p2" for m in s.models.values())


def test_state_round_trips_through_json() -> None:
    s = load_scenario(HOUSE_EXAMPLE, RULES, seed=1)
    assert State.from_json(s.to_json()) == s


def test_4_3_without_sides_both_players_get_the_starting_force() -> None:
    s = load_scenario(None, RULES, seed=1, carbonite=300)
    for seat in ("p1", "p2"):
        buildings = sorted(b.type for b in s.buildings.values() if b.owner == seat)
        models = sorted(m.type for m in s.models.values() if m.owner == seat)
        assert buildings == ["generator", "headquarters"] and models == ["drudge", "drudge", "outrider"]
        assert s.sides[seat].carbonite == 300
    # Player 2's deployment is player 1's half-turn (house ruling 15).
    assert (s.buildings["B1"].x, s.buildings["B1"].y) == (44 - s.buildings["A1"].x, 60 - s.buildings["A1"].y)
    assert all(m.y <= 12 for m in s.models.values() if m.owner == "p1")
    assert all(m.y >= 48 for m in s.models.values() if m.owner == "p2")


def test_a_scenario_may_generate_its_battlefield() -> None:
    a = load_scenario({"battlefield": {"generate": 9}}, RULES, seed=1)
    b = load_scenario({"battlefield": {"generate": 9}}, RULES, seed=2)
    assert a.terrain == b.terrain and a.battlefield == "generated"


def test_a_building_under_construction() -> None:
    s = load_scenario({"sides": {"p1": {"buildings": [{"id": "A7", "type": "turret", "x": 30, "y": 6,
                                                       "bp": 2}]}}}, RULES, seed=1)
    assert not s.buildings["A7"].complete and s.buildings["A7"].build_points == 2


@pytest.mark.parametrize(
    ("scenario", "message"),
    [
        ({"colour": "red"}, "scenario: colour: unknown field"),
        ({"phase": "lunch"},
         "scenario: phase: must be one of initiative, upkeep, worker, action, production"),
        ({"battlefield": {"preset": "moon"}}, "scenario: battlefield.preset: unknown preset 'moon'"),
        ({"sides": {"p3": {}}}, "scenario: sides.p3: seats are p1 and p2"),
        ({"sides": {"p1": {"models": [{"id": "a1", "type": "tank", "x": 5, "y": 5}]}}},
         "scenario: sides.p1.models[0].type: must be one of drudge"),
        ({"sides": {"p1": {"models": [{"id": "a1", "type": "drudge", "x": 5, "y": 5, "hp": 9}]}}},
         "scenario: sides.p1.models[0].hp: a drudge has at most 5 HP, got 9"),
        ({"sides": {"p1": {"models": [{"id": "a1", "type": "drudge", "x": 5, "y": 5, "wia": "sad"}]}}},
         "scenario: sides.p1.models[0].wia: must be one of pinned"),
        ({"sides": {"p1": {"models": [{"id": "a1", "type": "drudge", "x": 5, "y": 5}],
                           "reserve": [{"id": "a1", "type": "drudge"}]}}},
         "scenario: sides.p1.reserve[0].id: the id 'a1' is used twice"),
        ({"sides": {"p1": {"models": [{"id": "a1", "type": "drudge", "x": 0.2, "y": 5}]}}},
         "scenario: sides.p1.models[0]: a1 at (0.2, 5): it would leave the battlefield"),
        ({"sides": {"p1": {"models": [{"id": "a1", "type": "drudge", "x": 5, "y": 5},
                                      {"id": "a2", "type": "drudge", "x": 5.5, "y": 5}]}}},
         "scenario: sides.p1.models[1]: a2 at (5.5, 5): it would overlap a1"),
        ({"terrain": [{"id": "S", "type": "sealed", "poly": [[2, 2], [8, 2], [8, 8], [2, 8]]}],
          "sides": {"p1": {"models": [{"id": "a1", "type": "drudge", "x": 5, "y": 5}]}}},
         "scenario: sides.p1.models[0]: a1 at (5, 5): it would stand on impassable terrain S"),
        ({"sides": {"p1": {"buildings": [{"id": "A1", "type": "relay", "x": 5, "y": 5, "bp": 5}]}}},
         "scenario: sides.p1.buildings[0].bp: a relay needs 4 Build Points, got 5"),
        ({"sides": {"p1": {"buildings": [{"id": "A1", "type": "relay", "x": 5, "y": 5, "rot": 45}]}}},
         "scenario: sides.p1.buildings[0].rot: must be 0 or 90, got 45"),
        ({"depots": [{"id": "K1", "x": 50, "y": 5}]},
         "scenario: depots[0]: K1 at (50, 5) is off the battlefield"),
        ({"terrain": [{"id": "R", "type": "ruin", "poly": [[40, 2], [48, 2], [48, 8]]}]},
         "scenario: terrain[0]: R leaves the battlefield"),
    ],
)
def test_bad_scenarios_name_the_field(scenario: dict[str, Any], message: str) -> None:
    with pytest.raises(DataError) as err:
        load_scenario(scenario, RULES, seed=1)
    assert str(err.value).startswith(message)


@pytest.mark.parametrize("field", sorted(RULES.presets))
def test_4_2_every_starting_piece_deploys_inside_its_zone_on_the_short_edges(field: str) -> None:
    from engines.nexo.game import Nexo

    g = Nexo.new(["ann", "bob"], seed=1, options={"battlefield": field})
    w = g.world()
    pieces = [*g.state.models.values(), *g.state.buildings.values()]
    assert len(pieces) == 10
    for p in pieces:
        x0, y0, x1, y1 = w.body(p).shape.bounds
        assert x0 >= 0 and x1 <= 44
        assert y1 <= 12 if p.owner == "p1" else y0 >= 48, p.id
