"""Goals named in words: ``move a3 toward the enemy HQ`` (engines/nexo/toward.py, named_goal)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engines.core.errors import BadNotation, IllegalMove
from engines.nexo import toward
from engines.nexo.game import Nexo
from engines.nexo.moves import Ambiguous, Go, Toward, parse_move
from tests.engines.nexo.support import HQ1, HQ2, crossroads_game, scenario_game, unit

FOUNDRY = {"id": "A2", "type": "foundry", "x": 36, "y": 8}
NEAR_GENERATOR = {"id": "B2", "type": "generator", "x": 8, "y": 50}
FAR_GENERATOR = {"id": "B3", "type": "generator", "x": 36, "y": 56}


def field(p1: list[dict[str, Any]] | None = None, p2: list[dict[str, Any]] | None = None, **kw: Any) -> Nexo:
    """Ann's trooper a3 at (22, 30), midway between depots K1 (10, 18) and K2 (34, 42), in the
    Action Phase; bob's trooper b3 (22, 40, 10" away) and gunner b5 (33, 30, 11"); ann's foundry A2 and bob's
    generators B2 (24.4" from a3) and B3 (29.5")."""
    g: Nexo = scenario_game(
        p1 if p1 is not None else [unit("a3", "trooper", 22, 30), unit("a1", "drudge", 30, 12)],
        p2 if p2 is not None else [unit("b3", "trooper", 22, 40), unit("b5", "gunner", 33, 30)],
        phase="action", b1=kw.pop("b1", [HQ1, FOUNDRY]), b2=kw.pop("b2", [HQ2, NEAR_GENERATOR, FAR_GENERATOR]), **kw)
    return g


def goal_of(text: str, g: Nexo | None = None, unit_id: str = "a3") -> str:
    """Returns the id of the goal ``move <unit_id> <text>`` heads for (ann's order)."""
    g = g or field()
    move = parse_move(f"move {unit_id} {text}")
    assert isinstance(move, Toward), move
    r = toward.resolve_full(g.world(), "p1", move)
    assert r.goal is not None
    return r.goal.id


@pytest.mark.parametrize("text, goal", [
    ("toward the enemy HQ", "B1"), ("toward enemy headquarters", "B1"), ("towards the Enemy Hq.", "B1"),
    ("toward their headquarters", "B1"), ("toward my foundry", "A2"), ("toward our Foundry", "A2"),
    ("toward own foundry", "A2"), ("toward bob's generator", "B2"), ("to the enemy gunner", "b5"),
    ("toward enemy", "b3"), ("toward nearest enemy", "b3"), ("to enemy", "b3"), ("move enemy hq", "B1"),
])
def test_each_named_form_heads_for_the_piece_it_names(text: str, goal: str) -> None:
    assert goal_of(text.removeprefix("move ")) == goal


@pytest.mark.parametrize("text", ["toward the nearest depot", "toward depot", "toward the closest depot",
                                  "to depot", "toward carbonite depot", "the nearest depot"])
def test_the_nearest_depot_ties_by_id(text: str) -> None:
    assert goal_of(text) == "K1"  # a3 is 16.97" from both K1 and K2
    nearer_k2 = field([unit("a3", "trooper", 24, 32)])
    assert goal_of(text, nearer_k2) == "K2"


def test_of_several_the_nearest_to_the_mover_is_taken() -> None:
    assert goal_of("toward the enemy generator") == "B2"  # 24.4" against B3's 29.5"
    g = field([unit("a3", "trooper", 34, 40)])
    assert goal_of("toward the enemy generator", g) == "B3"
    assert goal_of("toward enemy", g) == "b5" and goal_of("toward enemy trooper", g) == "b3"  # b5 10.05", b3 12"


def test_no_owner_word_is_either_side_nearest() -> None:
    g = field([unit("a3", "trooper", 22, 15)])  # 10" from ann's HQ (22, 5), 40" from bob's
    assert goal_of("toward the HQ", g) == "A1" and goal_of("toward headquarters", g) == "A1"
    assert goal_of("toward the trooper", g) == "b3"  # a3 itself is never its own goal


@pytest.mark.parametrize("text", ["toward bob's generator", "toward Bob's generator", "toward bob generator",
                                  "toward bob\u2019s generator", "toward the bob's generator",
                                  "to bob's nearest generator"])
def test_a_players_name_with_or_without_s_names_their_pieces(text: str) -> None:
    assert goal_of(text) == "B2"


def test_a_players_own_name_names_the_movers_side() -> None:
    assert goal_of("toward ann's foundry") == "A2"
    assert goal_of("toward ann's drudge") == "a1" and goal_of("toward my drudge") == "a1"


def test_a_named_goal_plays_as_the_same_move_as_its_id_and_logs_the_resolved_move() -> None:
    named, by_id = field(), field()
    named.play("ann", "move a3 toward the enemy gunner")
    by_id.play("ann", "move a3 toward b5")
    assert named.last_move == by_id.last_move
    assert named.last_move is not None and re.fullmatch(r"move a3 [0-9.]+,[0-9.]+", named.last_move)
    elsewhere = field()
    elsewhere.play("ann", "move a3 toward b3")
    assert elsewhere.last_move != named.last_move  # the goal picked matters


def test_the_label_says_which_piece_a_name_picked() -> None:
    g = field()
    r = toward.resolve_full(g.world(), "p1", Toward("move", "a3", "the enemy HQ"))
    assert toward.label(g.world(), r).startswith("toward enemy headquarters B1 (ends ")
    r = toward.resolve_full(g.world(), "p1", Toward("move", "a3", "my foundry"))
    assert toward.label(g.world(), r).startswith("toward own foundry A2 (ends ")
    r = toward.resolve_full(g.world(), "p1", Toward("move", "a3", "depot"))
    assert toward.label(g.world(), r).startswith("toward depot K1 (ends ")


def test_a_name_that_matches_nothing_is_refused_naming_what_there_is() -> None:
    g = field(b2=[HQ2, {"id": "B2", "type": "generator", "x": 31, "y": 55}])
    before = g.dump_state()
    with pytest.raises(IllegalMove, match=re.escape(
            "There is no enemy Foundry; enemy buildings: B1 Headquarters, B2 Generator.")):
        g.play("ann", "move a3 toward the enemy foundry")
    assert g.dump_state() == before


@pytest.mark.parametrize("text, message", [
    ("toward my generator", "You have no Generator; your buildings: A1 Headquarters, A2 Foundry."),
    ("toward bob's foundry", "bob has no Foundry; bob's buildings: B1 Headquarters, B2 Generator, B3 Generator."),
    ("toward my trooper", "You have no other Trooper; your units: a1 Drudge."),
    ("toward the strider", "There is no Strider; units: a1 Drudge, b3 Trooper, b5 Gunner."),
    ("toward my depot", "A depot belongs to no one: write toward depot, or a depot's id like K1."),
])
def test_each_refusal_names_the_owner_and_the_pieces_of_that_kind(text: str, message: str) -> None:
    with pytest.raises(IllegalMove, match=f"^{re.escape(message)}$"):
        field().play("ann", f"move a3 {text}")


def test_words_that_name_nothing_are_refused_with_a_hint() -> None:
    with pytest.raises(IllegalMove, match=re.escape(
            "a3 cannot move toward the enemy foundary: there is no depot, unit or building "
            "'the enemy foundary' (did you mean the enemy foundry?).")):
        field().play("ann", "move a3 toward the enemy foundary")
    with pytest.raises(IllegalMove, match=r"'the big rock' \(name it by its id, like K1 or b3, or in words"):
        field().play("ann", "move a3 toward the big rock")


def test_wreckage_is_named_by_id_only() -> None:
    wrecked = {"id": "B2", "type": "generator", "x": 8, "y": 50, "hp": 0}
    g = field(b2=[HQ2, wrecked, FAR_GENERATOR])
    assert goal_of("toward the enemy generator", g) == "B3"
    assert goal_of("toward B2", g) == "B2"


def test_an_id_after_a_name_word_is_that_piece() -> None:
    assert goal_of("toward the K2") == "K2" and goal_of("toward the enemy b3") == "b3"
    with pytest.raises(IllegalMove, match=re.escape("You have no b3; your units: a1 Drudge.")):
        field().play("ann", "move a3 toward my b3")


def test_named_forms_round_trip_as_typed() -> None:
    move = parse_move("move a3  toward the  enemy HQ.")
    assert move == Toward("move", "a3", "the enemy HQ") and str(move) == "move a3 toward the enemy HQ"
    assert parse_move(str(move)) == move
    assert parse_move("dash a3 to bob's generator") == Toward("dash", "a3", "bob's generator")


def test_ids_and_cells_keep_their_meaning() -> None:
    assert parse_move("move a3 K5") == Ambiguous("move", "a3", "K5", (21.0, 9.0))
    assert parse_move("move a3 to K5") == Ambiguous("move", "a3", "K5", (21.0, 9.0))
    assert parse_move("move a3 b1") == Ambiguous("move", "a3", "b1", (3.0, 1.0))
    assert parse_move("move a3 toward K5") == Toward("move", "a3", "K5")
    assert parse_move("move a3 toward depot K5") == Toward("move", "a3", "K5")
    assert parse_move("move a3 cell K5") == Go("move", "a3", ((21.0, 9.0),))
    assert parse_move("move a3 to p 9") == Go("move", "a3", ((31.0, 17.0),))
    assert parse_move("move a3 take cover") == Toward("move", "a3")


def test_k5_and_b1_still_play_as_the_depot_and_the_unit() -> None:
    g = crossroads_game([unit("a3", "trooper", 22, 14)], [unit("b1", "trooper", 22, 30)])
    w = g.world()
    depot = toward.resolve_full(w, "p1", Toward("move", "a3", "K5"))
    unit_b1 = toward.resolve_full(w, "p1", Toward("move", "a3", "b1"))
    hq_b1 = toward.resolve_full(w, "p1", Toward("move", "a3", "B1"))
    assert depot.goal is not None and depot.goal.id == "K5"
    assert unit_b1.goal is not None and unit_b1.goal.id == "b1"  # the unit, not the building B1
    assert hq_b1.goal is not None and hq_b1.goal.id == "B1"
    g.play("ann", "move a3 b1")
    assert g.last_move == str(unit_b1.go)


def test_words_that_are_no_name_stay_a_position_error() -> None:
    with pytest.raises(BadNotation, match=r"^I can't read the position 'foo': write x,y"):
        parse_move("move a3 foo bar")
    with pytest.raises(BadNotation, match=r"^I can't read 'move a3 toward K1 K2'"):
        parse_move("move a3 toward K1 K2")


def test_a_goal_named_in_one_word_without_to_is_read_as_that_goal() -> None:
    g = field()
    g.play("ann", "move a3 generator")  # not a cell, not an id: the nearest Generator, bob's B2
    w = g.world()
    b2, start = w.piece("B2"), (22, 30)
    moved = w.piece("a3")
    assert abs(moved.x - b2.x) + abs(moved.y - b2.y) < abs(start[0] - b2.x) + abs(start[1] - b2.y)
    with pytest.raises(BadNotation, match="can't read the position 'zzz'"):
        field().play("ann", "move a3 zzz")
