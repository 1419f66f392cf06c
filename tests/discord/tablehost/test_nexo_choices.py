"""The /nexo suggestions: only what is legal now, within Discord's limits, and each one plays as shown."""

from __future__ import annotations

import json
import random

import pytest

from cogs import nexo_choices as choices
from cogs.nexo_choices import seat_of
from engines import GameError
from engines.nexo.game import Nexo
from tests.discord.tablehost.test_nexo_rounds import SCENARIO


def positions_of_a_played_game(seed: int, moves: int) -> Nexo:
    """Returns a crossroads game after random legal moves (no giving up)."""
    g = Nexo.new(["ann", "bob"], seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        player = g.to_act()[0]
        legal = [m for m in g.legal_moves(player) if m.split()[0] not in ("concede", "scrap")]
        g.play(player, rng.choice(legal))
    return g


def in_action() -> Nexo:
    """Returns the test scenario in its Action Phase, Ann to act with a4 and a5 free."""
    g = Nexo.new(["Ann", "Bob"], seed=20261130, options={"scenario": SCENARIO})
    for move in ["first me", "harvest a1 K1", "harvest all", "done a2", "done a3"]:
        g.play(g.to_act()[0], move)
    return g


def plays(game: Nexo, player: str, move: str) -> bool:
    """Returns whether ``move`` is accepted in ``game``'s position (which is left as it was)."""
    copy = Nexo.from_json(game.to_json())
    try:
        copy.play(player, move)
    except GameError as err:  # a refusal; anything else is a bug and fails the test itself
        print(move, err)
        return False
    return True


@pytest.mark.parametrize("seed", [3, 8])
def test_every_suggested_position_is_played_where_its_label_says(seed: int) -> None:
    g = positions_of_a_played_game(seed, 3)
    player = g.to_act()[0]
    for verb in ("move", "dash"):
        for _, unit in choices.units(g, player, verb, ""):
            suggested = choices.positions(g, player, verb, unit, "")
            assert suggested, (verb, unit)
            for label, value in suggested:
                assert len(label) <= choices.LABEL and plays(g, player, f"{verb} {unit} {value}"), (label, value)


def test_targets_and_weapons_carry_the_odds_and_play() -> None:
    g = in_action()
    targets = choices.targets(g, "Ann", "shoot", "a4", "")
    assert {v for _, v in targets} == {"b2", "b3"}
    label = dict((v, n) for n, v in targets)["b2"]
    assert label.startswith("b2 · Trooper · 8/8 HP") and "% to hit" in label and "light cover" in label
    assert all(plays(g, "Ann", f"shoot a4 {v}") for _, v in targets)
    weapons = choices.weapons(g, "Ann", "shoot", "a4", "b2", "")
    assert [v for _, v in weapons] == ["rifle"] and plays(g, "Ann", "shoot a4 b2 rifle")
    assert choices.targets(g, "Ann", "shoot", "zz9", "") == []  # a typo suggests nothing, and does not raise


def test_in_blackout_your_own_pieces_are_offered_last_and_marked_yours() -> None:
    state = json.loads(in_action().to_json())
    del state["state"]["buildings"]["A2"]  # Ann's only Generator gone: her demand exceeds her production
    g = Nexo.from_json(json.dumps(state))
    assert g.world().blackout(seat_of(g, "Ann"))
    targets = choices.targets(g, "Ann", "shoot", "a4", "")
    own = {"a5", "A3", "A4"}
    values = [v for _, v in targets]
    assert own <= set(values) and {"b2", "b3"} <= set(values)
    assert max(values.index(v) for v in ("b2", "b3")) < min(values.index(v) for v in own)  # the enemy first
    assert all(label.startswith("(yours) ") == (value in own) for label, value in targets)
    assert all(len(label) <= choices.LABEL and plays(g, "Ann", f"shoot a4 {v}") for label, v in targets)


def test_suggestions_filter_on_what_is_typed_and_stay_within_discord_limits() -> None:
    g = in_action()
    assert [v for _, v in choices.units(g, "Ann", "shoot", "a5")] == ["a5"]
    assert [v for _, v in choices.units(g, "Ann", "shoot", "gunner")] == ["a5"]  # the label matches too
    every = choices.models(g, "")
    assert len(every) <= choices.MAX_CHOICES and all(len(n) <= choices.LABEL for n, _ in every)
    assert "b3" in {v for _, v in every}  # /nexo show looks at the enemy's units too
    assert choices.units(g, "Bob", "move", "") == []  # not his turn


def test_production_suggests_affordable_types_and_sites_that_play() -> None:
    g = in_action()
    for move in ["shoot a4 b2", "done a4", "done b2", "done a5", "done b3", "done A4"]:
        g.play(g.to_act()[0], move)
    assert g.view(None)["phase"] == "production" and g.to_act() == ["Ann"]
    kinds = choices.building_types(g, "Ann", "")
    assert {v for _, v in kinds} >= {"generator", "foundry"}
    assert any(n.startswith("Generator · 100 Carbonite, makes 50 Energy") for n, _ in kinds)
    for _, kind in kinds:
        for _, site in choices.sites(g, "Ann", kind, ""):
            assert plays(g, "Ann", f"construct {kind} {site}"), (kind, site)
    types = choices.unit_types(g, "Ann", "A3", "")
    assert "gunner" in {v for _, v in types} and all(plays(g, "Ann", f"produce A3 {v}") for _, v in types)
    scrap = {v for _, v in choices.scrappable(g, "Ann", "")}
    assert {"a1", "A2", "A4"} <= scrap and not scrap & {"b1", "B1"}


def test_done_offers_all_beside_each_piece_and_all_plays() -> None:
    g = in_action()
    offered = [v for _, v in choices.units(g, "Ann", "done", "")]
    assert offered[0] == "all" and {"a4", "a5"} <= set(offered)
    assert plays(g, "Ann", "done all")


def test_a_typed_position_in_reach_is_suggested_first_with_its_cell_and_cost() -> None:
    g = in_action()  # Ann's a4, a trooper (Move 6"), at (20, 24); Bob's b3 waits in Overwatch
    label, value = choices.positions(g, "Ann", "move", "a4", "(21.5, 25.99)")[0]
    assert (label, value) == ('21.5,25.99 · K13 · 2.5" of 6" Move · Overwatch: b3 can fire', "21.5,25.99")
    assert plays(g, "Ann", f"move a4 {value}")
    label, value = choices.positions(g, "Ann", "dash", "a4", "24 30")[0]
    assert label.startswith('24,30 · M16 · 7.2" of 9" Dash') and value == "24,30"
    assert plays(g, "Ann", f"dash a4 {value}")
    label, _ = choices.positions(g, "Ann", "move", "a5", "31,21")[0]
    assert label == '31,21 · P11 · 4.2" of 5" Move · Overwatch: b3 can fire'


def test_a_typed_cell_is_suggested_as_the_position_it_stands_for() -> None:
    g = in_action()
    label, value = choices.positions(g, "Ann", "move", "a4", "k 13")[0]
    assert label.startswith("21,25 · K13 · ") and value == "21,25" and plays(g, "Ann", f"move a4 {value}")


def test_a_typed_position_out_of_reach_says_why_and_suggests_a_move_that_plays() -> None:
    g = in_action()
    label, value = choices.positions(g, "Ann", "move", "a4", "30.8,16")[0]
    assert label.startswith("can't reach 30.8,16: 13.4\" away; a4 can Move 6\" · instead: ")
    assert label.endswith('(6.0")')
    assert value in label and plays(g, "Ann", f"move a4 {value}") and not plays(g, "Ann", "move a4 30.8,16")
    label, value = choices.positions(g, "Ann", "move", "a4", "20,35")[0]  # Bob's b2 stands there
    assert label.startswith("can't reach 20,35: runs into b2 · instead: ") and plays(g, "Ann", f"move a4 {value}")


def test_a_typed_position_a_unit_may_not_move_to_now_is_refused_as_the_label_says() -> None:
    g = in_action()
    g.play("Ann", "shoot a4 b2")
    label, value = choices.positions(g, "Ann", "dash", "a4", "22,26")[0]
    assert label == "can't reach 22,26: a4 has shot or entered Overwatch and cannot Dash (core §16.5)"
    assert value == "22,26" and not plays(g, "Ann", f"dash a4 {value}")


def test_what_is_no_position_gets_the_usual_suggestions_only() -> None:
    g = in_action()
    for typed in ("", "toward", "b2", "22,"):
        assert not any(label.startswith("can't reach") or " of 6\" Move" in label
                       for label, _ in choices.positions(g, "Ann", "move", "a4", typed)), typed
    assert choices.positions(g, "Ann", "move", "a4", "toward")[0][1].startswith("toward ")


@pytest.mark.parametrize("typed", ["20,25 " * 16, "(20.25, 25.75) " * 7, "-12345.67,-12345.67",
                                   "43.99,59.99", "0,0", "30.8,16 31,17 12,40"])
def test_a_typed_preview_stays_within_discord_limits_and_plays_or_is_refused_as_labelled(typed: str) -> None:
    g = in_action()
    suggested = choices.positions(g, "Ann", "move", "a4", typed)
    assert len(suggested) <= choices.MAX_CHOICES
    for label, value in suggested[:1]:
        assert len(label) <= choices.LABEL and len(value) <= choices.LABEL
        assert plays(g, "Ann", f"move a4 {value}") == (not label.startswith("can't reach") or " · instead: " in label)


def test_a_typed_path_too_long_for_a_suggestions_value_is_not_previewed() -> None:
    g = in_action()
    assert choices.positions(g, "Ann", "move", "a4", "20,25 " * 16)[0][1] == " ".join(["20,25"] * 16)
    assert choices.positions(g, "Ann", "move", "a4", "20,25 " * 20) == []  # 119 characters
