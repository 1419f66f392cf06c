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
