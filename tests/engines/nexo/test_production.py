"""Tests of the Production Phase (core §13, §8.3, §7.4, §14.3, house rulings 11 and 13)."""

from __future__ import annotations

import pytest

from engines.core.errors import IllegalMove
from engines.nexo.geometry import base, edge_distance
from tests.engines.nexo.support import HQ1, HQ2, scenario_game, unit

FOUNDRY = {"id": "A2", "type": "foundry", "x": 12, "y": 6}
GEN = {"id": "A3", "type": "generator", "x": 32, "y": 4}


def prod(**kw: object):  # type: ignore[no-untyped-def]
    """Returns a game in the Production Phase, ann (Initiative) to act."""
    kw.setdefault("b1", [HQ1, FOUNDRY, GEN])
    return scenario_game([], [unit("b5", "trooper", 20, 50)], phase="production", **kw)  # type: ignore[arg-type]


def test_13_1_a_unit_is_placed_within_2_inches_and_cannot_activate_this_round() -> None:
    g = prod()
    events = g.play("ann", "produce A2 trooper")
    uid = events[0]["unit"]
    m = g.state.models[uid]
    w = g.world()
    assert edge_distance(base(m.x, m.y, 0.5), w.body(g.state.buildings["A2"])) <= 2 + 1e-6
    assert g.state.sides["p1"].carbonite == 100 and m.fresh
    assert uid not in [p.id for p in w.eligible("p1", "action")]
    g.play("ann", "end")
    g.play("bob", "end")
    assert g.state.round == 2 and not g.state.models[uid].fresh


def test_13_1_one_unit_per_building_per_phase() -> None:
    g = prod(carbonite=500)
    g.play("ann", "produce A2 trooper")
    with pytest.raises(IllegalMove, match="already produced"):
        g.play("ann", "produce A2 breacher")
    g.play("ann", "produce A1 drudge")


def test_13_1_the_carbonite_cost_and_live_energy_are_checked() -> None:
    g = prod(carbonite=90)
    with pytest.raises(IllegalMove, match="costs 100 Carbonite and you have 90"):
        g.play("ann", "produce A2 trooper")
    g = prod(carbonite=500, b1=[HQ1, FOUNDRY])  # 50 Energy, the Foundry demands 30
    with pytest.raises(IllegalMove, match="needs 25 spare Energy and you have 20"):
        g.play("ann", "produce A2 strider")


def test_13_1_a_producer_must_make_that_type() -> None:
    with pytest.raises(IllegalMove, match="A Headquarters cannot produce a Trooper"):
        prod().play("ann", "produce A1 trooper")


def test_13_3_a_chosen_position_must_be_legal() -> None:
    g = prod()
    with pytest.raises(IllegalMove, match="within 2\" of A2"):
        g.play("ann", "produce A2 trooper 30,30")
    g.play("ann", "produce A2 trooper 12,9.6")
    assert (g.state.models["a1"].x, g.state.models["a1"].y) == (12, 9.6)


def test_13_3_with_no_space_the_unit_waits_in_reserve() -> None:
    hq = {"id": "A1", "type": "headquarters", "x": 3, "y": 3}
    walls = [{"id": "S1", "type": "sealed", "poly": [[6, 0], [10, 0], [10, 10], [0, 10], [0, 6], [6, 6]]}]
    g = prod(b1=[hq], terrain=walls)
    events = g.play("ann", "produce A1 drudge")
    assert events[0]["reserve"] and [r.type for r in g.state.sides["p1"].reserve] == ["drudge"]
    assert g.state.sides["p1"].carbonite == 150 and g.world().survivors("p1") == 2


def test_13_3_a_reserve_unit_is_placed_at_the_next_production_phase() -> None:
    g = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="action", turn="p2",
                      b1=[HQ1, FOUNDRY, GEN], reserve1=[{"id": "a9", "type": "trooper"}])
    events = g.play("bob", "done b5")
    assert g.state.phase == "production" and "deploy" in [e["kind"] for e in events]
    assert g.state.sides["p1"].reserve == [] and g.state.models["a9"].fresh


def test_13_2_construct_pays_and_places_a_site_within_12_inches() -> None:
    g = prod()
    with pytest.raises(IllegalMove, match="within 12\""):
        g.play("ann", "construct relay 22,30")
    with pytest.raises(IllegalMove, match="overlap a Carbonite depot"):
        g.play("ann", "construct relay 10,17")
    g.play("ann", "construct relay 22,16")
    site = g.state.buildings["A4"]
    assert (site.complete, site.build_points) == (False, 0) and g.state.sides["p1"].carbonite == 125


def test_13_2_construct_needs_spare_energy() -> None:
    g = prod(b1=[HQ1, FOUNDRY], carbonite=500)  # spare 20
    with pytest.raises(IllegalMove, match="needs 30 spare Energy"):
        g.play("ann", "construct foundry 22,17")
    g.play("ann", "construct generator 22,14")  # a Generator site demands nothing


def test_13_production_goes_in_initiative_order_then_a_new_round() -> None:
    g = prod(initiative="p2", turn="p2")
    assert g.to_act() == ["bob"]
    with pytest.raises(IllegalMove, match="not your turn"):
        g.play("ann", "end")
    g.play("bob", "end")
    assert g.to_act() == ["ann"]
    events = g.play("ann", "end")
    assert g.state.round == 2 and g.state.phase == "initiative" and events[-1]["kind"] == "initiative"


def _to_production(g) -> list:  # type: ignore[no-untyped-def]
    """Plays both players through to the next Production Phase and returns its opening events."""
    events: list = []
    g.play("ann", "end")
    events += g.play("bob", "end")
    events += g.play(g.to_act()[0], "first me")
    while g.state.phase != "production":
        p = g.to_act()[0]
        active = [m for m in g.legal_moves(p) if m.startswith("done")]
        events += g.play(p, active[0])
    return events


def _built(sites: list[dict], hq: dict = HQ1) -> object:  # type: ignore[type-arg]
    """Returns a game whose worker a1 has just brought site A4 to its Build Points, in the Worker Phase."""
    g = scenario_game([unit("a1", "drudge", 22, 17.6)], [unit("b5", "trooper", 20, 50)],
                      b1=[hq, *sites])
    g.play("ann", "build a1 A4")
    return g


def _to_production(g) -> list:  # type: ignore[no-untyped-def]
    """Plays 'done' until the Production Phase opens and returns the events on the way."""
    events: list = []
    while g.state.phase != "production":
        p = g.to_act()[0]
        events += g.play(p, next(m for m in g.legal_moves(p) if m.startswith("done")))
    return events


def test_8_3_a_site_with_its_build_points_completes_at_the_next_production_phase() -> None:
    g = _built([{"id": "A4", "type": "relay", "x": 22, "y": 16, "bp": 2}])
    assert g.state.buildings["A4"].build_points == 4 and not g.state.buildings["A4"].complete
    events = _to_production(g)
    assert g.state.buildings["A4"].complete and "complete" in [e["kind"] for e in events]


def test_13_2_no_site_becomes_functional_in_blackout_but_a_generator_may() -> None:
    hq = {**HQ1, "hp": 10}  # below half: no Energy
    gen = {"id": "A4", "type": "generator", "x": 22, "y": 15.5, "bp": 4}
    g = _built([gen, {"id": "A7", "type": "relay", "x": 30, "y": 16, "bp": 2}], hq=hq)
    assert g.view(None)["players"]["ann"]["blackout"]  # the Relay site demands 10, nothing produces
    _to_production(g)
    b = g.state.buildings
    assert b["A4"].complete and not g.world().blackout("p1")


def test_13_2_a_relay_site_stays_unfinished_in_blackout() -> None:
    hq = {**HQ1, "hp": 10}
    g = _built([{"id": "A4", "type": "relay", "x": 22, "y": 16, "bp": 2}], hq=hq)
    assert g.world().blackout("p1")
    _to_production(g)
    assert not g.state.buildings["A4"].complete


def test_8_3_a_damaged_site_does_not_complete() -> None:
    g = _built([{"id": "A4", "type": "relay", "x": 22, "y": 16, "bp": 2, "hp": 7}])
    _to_production(g)
    assert not g.state.buildings["A4"].complete


def test_7_4_blackout_stops_production() -> None:
    g = prod(b1=[{**HQ1, "hp": 10}, FOUNDRY, {**GEN, "hp": 10}])
    with pytest.raises(IllegalMove, match="Blackout"):
        g.play("ann", "produce A2 trooper")
    assert not any(m.startswith("produce") for m in g.legal_moves("ann"))


def test_ruling_13_scrap_removes_without_refund_and_energy_is_live() -> None:
    relay = {"id": "A7", "type": "relay", "x": 30, "y": 16}
    g = prod(b1=[HQ1, FOUNDRY, GEN, {"id": "A6", "type": "turret", "x": 14, "y": 16}, relay])
    events = g.play("ann", "scrap A3")  # demand 60 > production 50 from that instant
    assert "A3" not in g.state.buildings and g.state.sides["p1"].carbonite == 200
    assert [e["kind"] for e in events] == ["scrap", "blackout"]


def test_13_1_only_a_completed_production_building_produces() -> None:
    g = prod(b1=[HQ1, GEN, {**FOUNDRY, "bp": 5}])
    with pytest.raises(IllegalMove, match="not functional"):
        g.play("ann", "produce A2 trooper")


def test_13_3_a_produced_unit_is_not_placed_on_impassable_terrain_or_overlapping() -> None:
    wall = [{"id": "S1", "type": "sealed", "poly": [[15, 8], [17, 8], [17, 10], [15, 10]]}]
    g = scenario_game([unit("a1", "drudge", 12, 9.6)], [unit("b5", "trooper", 20, 50)], phase="production",
                      b1=[HQ1, FOUNDRY, GEN], terrain=wall)
    for pos, why in (("15.5,8.8", "impassable terrain S1"), ("12.3,9.8", "overlap a1"), ("12,8.2", "overlap A2")):
        with pytest.raises(IllegalMove, match=why):
            g.play("ann", f"produce A2 trooper {pos}")
    assert len(g.state.models) == 2


def test_13_3_a_produced_unit_is_not_placed_inside_enemy_engagement_range() -> None:
    g = scenario_game([], [unit("b6", "outrider", 10, 10.6)], phase="production", b1=[HQ1, FOUNDRY, GEN])
    with pytest.raises(IllegalMove, match="engagement"):
        g.play("ann", "produce A2 trooper 10,9.4")
    g.play("ann", "produce A2 trooper 14,9.4")


def test_5_15_and_14_2_no_site_overlapping_a_model_or_building_or_off_the_battlefield() -> None:
    g = scenario_game([unit("a1", "drudge", 22, 16)], [unit("b5", "trooper", 20, 50)], phase="production",
                      b1=[HQ1, FOUNDRY, GEN])
    for pos, why in (("22,16.5", "overlap a1"), ("13,8.5", "overlap A2"), ("22,0.5", "leave the battlefield")):
        with pytest.raises(IllegalMove, match=why):
            g.play("ann", f"construct relay {pos}")
    assert g.state.sides["p1"].carbonite == 200


def test_generator_can_be_started_in_blackout() -> None:
    """Core §7.5 / §13.2, ruling 2: a Generator site demands nothing, so Blackout does not stop it."""
    turret, relay = {"id": "A6", "type": "turret", "x": 14, "y": 16}, {"id": "A7", "type": "relay", "x": 30, "y": 16}
    g = prod(b1=[HQ1, FOUNDRY, turret, relay])  # 50 produced, 60 demanded
    w = g.world()
    assert w.blackout("p1") and w.state.sides["p1"].carbonite == 200
    moves = g.legal_moves("ann")
    gens = [m for m in moves if m.startswith("construct generator ")]
    assert gens and not any(m.startswith(("construct relay", "construct foundry", "construct turret"))
                            for m in moves)
    with pytest.raises(IllegalMove, match="needs 10 spare Energy and you have -10"):
        g.play("ann", "construct relay 22,16")
    g.play("ann", gens[0])
    site = next(b for b in g.state.buildings.values() if b.type == "generator")
    assert not site.complete and g.state.sides["p1"].carbonite == 100


@pytest.mark.parametrize(("relay_id", "gen_id"), [("A4", "A7"), ("A7", "A4")])
def test_8_3_site_completion_does_not_depend_on_id_order(relay_id: str, gen_id: str) -> None:
    """Core §8.3 / §13.2: Generators complete first, then Blackout is re-evaluated for the rest."""
    hq = {**HQ1, "hp": 10}  # below half: no Energy
    sites = [{"id": relay_id, "type": "relay", "x": 30, "y": 16, "bp": 4},
             {"id": gen_id, "type": "generator", "x": 22, "y": 15.5, "bp": 6}]
    g = scenario_game([], [unit("b5", "trooper", 20, 50)], b1=[hq, *sites])
    for site in sites:  # all Build Points in, waiting for the Production Phase
        g.state.buildings[site["id"]].complete = False
    assert g.world().blackout("p1")
    events = _to_production(g)
    b = g.state.buildings
    assert b[gen_id].complete and b[relay_id].complete and not g.world().blackout("p1")
    done = [e["building"] for e in events if e["kind"] == "complete"]
    assert done == [gen_id, relay_id]


def test_13_3_a_produced_unit_is_not_placed_on_a_barricade() -> None:
    """Core §13.3: a move may not end on a barricade, so no produced model may stand there."""
    wall = [{"id": "W1", "type": "barricade", "line": [[8, 8.8], [16, 8.8]]}]
    g = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="production", b1=[HQ1, FOUNDRY, GEN], terrain=wall)
    with pytest.raises(IllegalMove, match="Barricade W1, where no move may end"):
        g.play("ann", "produce A2 trooper 12,8.8")
    uid = g.play("ann", "produce A2 trooper")[0]["unit"]
    m, w = g.state.models[uid], g.world()
    assert edge_distance(base(m.x, m.y, 0.5), w.terrain.by_id["W1"].shape) > 0


def test_13_3_and_5_15_enemy_engagement_range_is_one_rule() -> None:
    """Enemy buildings count for produced units as they do for sites (house ruling 7, core §5.14)."""
    turret = {"id": "B2", "type": "turret", "x": 17, "y": 6}
    g = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="production", b1=[HQ1, FOUNDRY, GEN],
                      b2=[{"id": "B1", "type": "headquarters", "x": 22, "y": 55}, turret])
    with pytest.raises(IllegalMove, match="engagement range of B2"):
        g.play("ann", "produce A2 trooper 15.3,6")
    with pytest.raises(IllegalMove, match="engagement range of B2"):
        g.play("ann", "construct relay 17,8.5")
    g.play("ann", "produce A2 trooper 12,8.6")


def test_13_3_a_reserve_unit_waits_for_spare_energy() -> None:
    """Core §13.1 step 3: a reserve Gunner (10 Energy) does not come in with 0 spare."""
    relays = [{"id": "A6", "type": "relay", "x": 30, "y": 16}, {"id": "A7", "type": "relay", "x": 14, "y": 16}]
    g = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="action", turn="p2",
                      b1=[HQ1, FOUNDRY, *relays], reserve1=[{"id": "a9", "type": "gunner"}])  # 50 v 50
    g.play("bob", "done b5")
    assert g.state.phase == "production" and [r.id for r in g.state.sides["p1"].reserve] == ["a9"]
    assert "a9" not in g.state.models and not g.world().blackout("p1")


def test_13_3_reserves_come_in_initiative_order() -> None:
    foundry2 = {"id": "B2", "type": "foundry", "x": 32, "y": 54}
    g = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="action", turn="p2", initiative="p2", first="p2",
                      b1=[HQ1, FOUNDRY, GEN], reserve1=[{"id": "a9", "type": "trooper"}],
                      b2=[HQ2, foundry2, {"id": "B3", "type": "generator", "x": 10, "y": 56}],
                      reserve2=[{"id": "b9", "type": "trooper"}])
    events = g.play("bob", "done b5")
    assert [e["unit"] for e in events if e["kind"] == "deploy"] == ["b9", "a9"]
