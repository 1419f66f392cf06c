"""Tests of the Action Phase (core §9–11, §6.3–6.4, §7.4, house rulings 3, 4, 6)."""

from __future__ import annotations

import pytest

from engines.core.errors import IllegalMove
from engines.nexo.attacks import pick_weapon, profile
from tests.engines.nexo.support import scenario_game, unit

RUIN = {"id": "R9", "type": "ruin", "poly": [[18, 28], [26, 28], [26, 32], [18, 32]]}


def action(p1: list, p2: list, **kw: object):  # type: ignore[no-untyped-def]
    """Returns a game in the Action Phase, ann to act."""
    return scenario_game(p1, p2, phase="action", **kw)  # type: ignore[arg-type]


def test_9_1_a_unit_moves_and_shoots_in_either_order() -> None:
    g = action([unit("a5", "trooper", 20, 20), unit("a6", "trooper", 10, 20)],
               [unit("b5", "trooper", 20, 36), unit("b6", "trooper", 30, 36)])
    g.play("ann", "shoot a5 b5")
    assert g.to_act() == ["ann"] and g.state.active == "a5"
    events = g.play("ann", "move a5 20,24")
    assert events[-1]["kind"] == "done" and g.to_act() == ["bob"]  # both actions used: done
    g.play("bob", "move b6 30,32")
    g.play("bob", "shoot b6 a6 rifle")
    assert g.last_move == "shoot b6 a6 rifle" and g.to_act() == ["ann"]


def test_9_3_dash_adds_3_inches_to_the_move() -> None:
    g = action([unit("a5", "trooper", 20, 10)], [unit("b5", "trooper", 20, 50)])
    with pytest.raises(IllegalMove, match="can move 6\""):
        g.play("ann", "move a5 20,18.5")
    g.play("ann", "dash a5 20,18.5")
    assert g.state.models["a5"].y == 18.5 and g.state.models["a5"].dashed
    with pytest.raises(IllegalMove, match="can move 9\""):
        g2 = action([unit("a5", "trooper", 20, 10)], [unit("b5", "trooper", 20, 50)])
        g2.play("ann", "dash a5 20,19.5")


def test_9_3_after_a_dash_a_unit_may_fight_but_not_shoot_or_overwatch() -> None:
    g = action([unit("a5", "trooper", 20, 20)], [unit("b5", "trooper", 20, 29.5)])
    g.play("ann", "dash a5 20,28")
    with pytest.raises(IllegalMove, match="Dashed and cannot Shoot"):
        g.play("ann", "shoot a5 b5")
    with pytest.raises(IllegalMove, match="Dashed and cannot enter Overwatch"):
        g.play("ann", "overwatch a5")
    assert "fight a5 b5 knife" in g.legal_moves("ann")
    events = g.play("ann", "fight a5 b5")
    assert events[0]["kind"] == "fight" and g.state.active is None


def test_ruling_3_a_unit_that_shot_cannot_dash() -> None:
    g = action([unit("a5", "trooper", 20, 20)], [unit("b5", "trooper", 20, 36)])
    g.play("ann", "shoot a5 b5")
    with pytest.raises(IllegalMove, match="cannot Dash"):
        g.play("ann", "dash a5 20,28")
    assert not any(m.startswith("dash") for m in g.legal_moves("ann"))


def test_9_4_one_attack_action_per_activation() -> None:
    g = action([unit("a5", "trooper", 20, 20)],
               [unit("b5", "trooper", 20, 36), unit("b6", "trooper", 24, 36)])
    g.play("ann", "overwatch a5")
    with pytest.raises(IllegalMove, match="already used its Attack Action"):
        g.play("ann", "shoot a5 b5")


def test_10_2_fight_needs_the_target_within_1_inch() -> None:
    g = action([unit("a5", "trooper", 20, 20)], [unit("b5", "trooper", 20, 22.2)])
    with pytest.raises(IllegalMove, match="not within 1\""):
        g.play("ann", "fight a5 b5")
    g.play("ann", "move a5 20,21")
    g.play("ann", "fight a5 b5 knife")
    assert g.state.active is None


def test_5_7_no_shooting_through_obscuring_terrain() -> None:
    g = action([unit("a5", "trooper", 22, 20)], [unit("b5", "trooper", 22, 40)], terrain=[RUIN])
    with pytest.raises(IllegalMove, match="cannot see b5"):
        g.play("ann", "shoot a5 b5")
    assert not any(m.startswith("shoot") for m in g.legal_moves("ann"))


def test_10_1_range_is_checked() -> None:
    g = action([unit("a5", "trooper", 22, 10)], [unit("b5", "trooper", 22, 40)])
    with pytest.raises(IllegalMove, match="beyond the 24\" range"):
        g.play("ann", "shoot a5 b5")


def test_6_3_no_model_activates_twice_in_a_phase() -> None:
    g = action([unit("a5", "trooper", 20, 20), unit("a6", "trooper", 10, 20)],
               [unit("b5", "trooper", 20, 40), unit("b6", "trooper", 10, 40)])
    g.play("ann", "done a5")
    g.play("bob", "done b5")
    with pytest.raises(IllegalMove, match="a5 has already activated"):
        g.play("ann", "move a5 20,22")


def test_11_overwatch_fires_once_at_minus_1_aim_when_an_enemy_moves_into_view() -> None:
    g = action([unit("a5", "trooper", 22, 20)], [unit("b5", "trooper", 16, 40, overwatch=True)],
               terrain=[RUIN])
    w = g.world()
    b5 = g.state.models["b5"]
    rifle = pick_weapon(w, b5, "shoot", None)
    assert rifle is not None
    assert profile(w, b5, rifle, overwatch=True).modifier == profile(w, b5, rifle).modifier - 1
    assert not any(m.startswith("shoot a5") for m in g.legal_moves("ann"))  # hidden at first
    events = g.play("ann", "move a5 17,22")
    kinds = [e["kind"] for e in events]
    assert "overwatch" in kinds and not g.state.models["b5"].overwatch


def test_11_overwatch_waits_while_the_mover_stays_hidden() -> None:
    g = action([unit("a5", "trooper", 22, 20)], [unit("b5", "trooper", 22, 40, overwatch=True)],
               terrain=[RUIN])
    events = g.play("ann", "move a5 23,24")
    assert "overwatch" not in [e["kind"] for e in events] and g.state.models["b5"].overwatch


def test_11_overwatch_ends_when_the_unit_activates_again() -> None:
    g = action([unit("a5", "trooper", 22, 20, overwatch=True)], [unit("b5", "trooper", 10, 50)])
    g.play("ann", "move a5 22,22")
    assert not g.state.models["a5"].overwatch


def test_6_4_passes_in_the_action_phase_count_eligible_units() -> None:
    g = scenario_game([unit("a5", "trooper", 20, 20), unit("a6", "trooper", 10, 20),
                       unit("a1", "drudge", 30, 5)],
                      [unit("b5", "trooper", 20, 40)], phase="worker")
    g.play("ann", "done a1")  # the Worker Phase ends; the Action Phase opens
    assert g.state.phase == "action" and (g.state.sides["p1"].passes, g.state.sides["p2"].passes) == (0, 1)


def test_7_4_powered_weapons_are_silent_in_blackout() -> None:
    hq = {"id": "A1", "type": "headquarters", "x": 22, "y": 5, "hp": 19}  # below half: 0 Energy
    g = action([unit("a7", "gunner", 22, 20)], [unit("b5", "trooper", 22, 40)], b1=[hq])
    assert g.view(None)["players"]["ann"]["blackout"]
    with pytest.raises(IllegalMove, match="powered and you are in Blackout"):
        g.play("ann", "shoot a7 b5")


def test_7_6_a_turret_below_half_hp_does_not_activate() -> None:
    tur = {"id": "A3", "type": "turret", "x": 22, "y": 20}
    g = action([], [unit("b5", "trooper", 22, 40)], b1=[{"id": "A1", "type": "headquarters", "x": 22, "y": 5},
                                                          tur])
    assert "shoot A3 b5 autogun" in g.legal_moves("ann")
    g2 = action([], [unit("b5", "trooper", 22, 40)],
                b1=[{"id": "A1", "type": "headquarters", "x": 22, "y": 5}, {**tur, "hp": 7}])
    assert g2.world().eligible("p1", "action") == [] and g2.to_act() == ["bob"]  # ann is skipped


def test_10_7_a_destroyed_unit_is_removed_and_elimination_ends_the_game() -> None:
    for seed in range(30):
        g = action([unit("a5", "breacher", 20, 20)], [unit("b5", "drudge", 20, 21.5, hp=1)], b2=[], seed=seed)
        events = g.play("ann", "fight a5 b5 maul")
        if "b5" not in g.state.models:
            assert g.is_over and g.winners == ["ann"] and events[-1]["kind"] == "game_over"
            return
    raise AssertionError("no seed destroyed the drudge")


def test_12_a_unit_pinned_before_activating_skips_this_phase_only() -> None:
    from engines.nexo.attacks import resolve
    from tests.engines.nexo.test_combat import FixedRng

    g = action([unit("a5", "trooper", 20, 20)], [unit("b5", "trooper", 20, 30, hp=5)])
    w = g.world()
    a5, b5 = g.state.models["a5"], g.state.models["b5"]
    rifle = pick_weapon(w, a5, "shoot", None)
    assert rifle is not None
    events = resolve(w, FixedRng([6, 1, 1, 1, 1, 1]), a5, b5, rifle, "shoot")  # 3 damage, save 1, WIA 1
    assert [e["kind"] for e in events] == ["shoot", "wia", "pinned"]
    assert b5.hp == 2 and b5.activated and b5.wia is None and b5.ever_wia


def test_7_6_a_functional_turret_activates_and_shoots_once() -> None:
    tur = {"id": "A3", "type": "turret", "x": 22, "y": 20}
    enemies = [unit("b5", "trooper", 22, 40), unit("b6", "trooper", 30, 50)]
    g = action([unit("a5", "trooper", 10, 10)], enemies,
               b1=[{"id": "A1", "type": "headquarters", "x": 22, "y": 5}, tur])
    events = g.play("ann", "shoot A3 b5")
    assert events[0]["kind"] == "activate" and events[1]["weapon"] == "Autogun"
    assert g.state.buildings["A3"].activated and g.to_act() == ["bob"]
    g.play("bob", "done b5")
    with pytest.raises(IllegalMove, match="A3 has already activated"):
        g.play("ann", "shoot A3 b6")


def test_10_1_shoot_uses_a_ranged_weapon_and_10_2_fight_a_melee_one() -> None:
    g = action([unit("a5", "trooper", 20, 20)], [unit("b5", "trooper", 20, 21.2)])
    with pytest.raises(IllegalMove, match="no ranged weapon called 'knife'"):
        g.play("ann", "shoot a5 b5 knife")
    with pytest.raises(IllegalMove, match="no melee weapon called 'rifle'"):
        g.play("ann", "fight a5 b5 rifle")
    assert g.state.active is None and g.state.models["b5"].hp == 8


def test_10_3_ranged_attacks_add_aim_and_fight_attacks_add_fight() -> None:
    g = action([unit("a5", "breacher", 20, 20)], [unit("b5", "trooper", 20, 30)])
    w, a5 = g.world(), g.state.models["a5"]  # Breacher: Aim +0, Fight +2
    gun, maul = pick_weapon(w, a5, "shoot", None), pick_weapon(w, a5, "fight", None)
    assert gun is not None and maul is not None
    assert (profile(w, a5, gun).modifier, profile(w, a5, maul).modifier) == (0, 2)


def test_7_4_a_defensive_building_cannot_attack_in_blackout() -> None:
    tur = {"id": "A3", "type": "turret", "x": 22, "y": 20}
    g = action([unit("a5", "trooper", 10, 10)], [unit("b5", "trooper", 22, 40)],
               b1=[{"id": "A1", "type": "headquarters", "x": 22, "y": 5, "hp": 10}, tur])
    assert g.view(None)["players"]["ann"]["blackout"]
    assert [p.id for p in g.world().eligible("p1", "action")] == ["a5"]
    with pytest.raises(IllegalMove, match="cannot activate"):
        g.play("ann", "shoot A3 b5")


def test_13_2_a_turret_under_construction_does_not_activate() -> None:
    site = {"id": "A3", "type": "turret", "x": 22, "y": 20, "bp": 5}
    g = action([unit("a5", "trooper", 10, 10)], [unit("b5", "trooper", 22, 40)],
               b1=[{"id": "A1", "type": "headquarters", "x": 22, "y": 5}, site])
    assert [p.id for p in g.world().eligible("p1", "action")] == ["a5"]
    with pytest.raises(IllegalMove, match="cannot activate"):
        g.play("ann", "shoot A3 b5")


def test_11_overwatch_needs_the_mover_within_weapon_range() -> None:
    g = action([unit("a5", "trooper", 22, 20)], [unit("b5", "trooper", 22, 51, overwatch=True)])
    events = g.play("ann", "move a5 22,25")  # in plain view, 26" from the Rifle's 24"
    assert "overwatch" not in [e["kind"] for e in events] and g.state.models["b5"].overwatch


def test_11_overwatch_uses_the_attack_action_and_lasts_until_the_next_activation() -> None:
    g = action([unit("a5", "trooper", 22, 20)], [unit("b5", "trooper", 22, 40), unit("b6", "trooper", 10, 50)])
    events = g.play("ann", "overwatch a5")
    assert g.state.models["a5"].overwatch and g.state.active == "a5"
    assert not any(m.startswith(("shoot a5", "fight a5", "overwatch a5")) for m in g.legal_moves("ann"))
    g.play("ann", "done a5")
    assert g.state.models["a5"].overwatch  # still waiting through the opponent's turn
    assert events


def test_12_buildings_do_not_suffer_wia_and_10_7_a_destroyed_one_stays_as_wreckage() -> None:
    from engines.nexo.attacks import resolve
    from tests.engines.nexo.test_combat import FixedRng

    relay = {"id": "B2", "type": "relay", "x": 22, "y": 40}
    g = action([unit("a5", "strider", 22, 20)], [unit("b5", "trooper", 10, 50)],
               b2=[{"id": "B1", "type": "headquarters", "x": 22, "y": 55}, relay])
    w = g.world()
    a5, b2 = g.state.models["a5"], g.state.buildings["B2"]
    las = pick_weapon(w, a5, "shoot", "lascannon")
    assert las is not None
    events = resolve(w, FixedRng([6, 1, 1]), a5, b2, las, "shoot")  # one critical hit, save fails
    assert b2.hp == 7 and [e["kind"] for e in events] == ["shoot"]  # below half, no WIA
    events = resolve(w, FixedRng([6, 6, 1, 1]), a5, b2, las, "shoot")
    assert [e["kind"] for e in events] == ["shoot", "wreck"]
    assert "B2" in g.state.buildings and g.state.buildings["B2"].wreck and b2.hp == 0


def test_5_10_units_on_opposite_sides_of_a_barricade_fight_at_2_inches() -> None:
    wall = {"id": "T1", "type": "barricade", "line": [[15, 20], [25, 20]]}
    g = action([unit("a5", "trooper", 20, 18.6)], [unit("b5", "trooper", 20, 21.6)], terrain=[wall])
    g.play("ann", "fight a5 b5 knife")  # 2" apart edge to edge, both within 1" of the barricade
    g2 = action([unit("a5", "trooper", 20, 18.6)], [unit("b5", "trooper", 20, 21.6)])
    with pytest.raises(IllegalMove, match="not within 1\""):
        g2.play("ann", "fight a5 b5 knife")  # no barricade: 1" is the reach


def test_12_becomes_wia_at_half_or_more_of_starting_hp_lost_on_odd_hp() -> None:
    from engines.nexo.combat import becomes_wia

    assert not becomes_wia(5, 9, ever_wia=False)  # Gunner lost 4 of 9: less than half
    assert becomes_wia(4, 9, ever_wia=False)  # lost 5 of 9


def test_5_7_cannot_see_names_what_is_in_the_way() -> None:
    foundry = {"id": "B2", "type": "foundry", "x": 32, "y": 30}
    g = action([unit("a5", "trooper", 22, 20), unit("a6", "trooper", 32, 20)],
               [unit("b5", "trooper", 22, 40), unit("b6", "trooper", 32, 40)],
               terrain=[RUIN], b2=[{"id": "B1", "type": "headquarters", "x": 22, "y": 55}, foundry])
    with pytest.raises(IllegalMove, match="a5 cannot see b5: the Ruin R9 is in the way"):
        g.play("ann", "shoot a5 b5")
    with pytest.raises(IllegalMove, match="a6 cannot see b6: the Foundry B2 is in the way"):
        g.play("ann", "shoot a6 b6")
