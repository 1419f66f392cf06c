"""Tests of the Nexo skeleton on the engine contract (DESIGN "The engine contract")."""

from __future__ import annotations

import json

import pytest

from engines.core.errors import BadNotation, GameError, IllegalMove, NotYourTurn
from engines.nexo.game import Nexo
from tests.engines.nexo.test_scenario import HOUSE_EXAMPLE


def test_header() -> None:
    assert (Nexo.NAME, Nexo.TITLE, Nexo.MIN_PLAYERS, Nexo.MAX_PLAYERS) == ("nexo", "Nexohominis", 2, 2)
    assert set(Nexo.OPTIONS) == set(Nexo.OPTION_DOCS)


def test_6_2_initiative_is_rolled_with_ties_rerolled() -> None:
    for seed in range(20):
        g = Nexo.new(["ann", "bob"], seed=seed)
        rolls = g.state.initiative_rolls
        assert all(a == b for a, b in rolls[:-1]) and rolls[-1][0] != rolls[-1][1]
        winner = "ann" if rolls[-1][0] > rolls[-1][1] else "bob"
        assert g.view(None)["initiative"] == winner and g.to_act() == [winner]
        assert g.legal_moves(winner) == ["first me", "first them", "concede"]


def test_6_2_the_initiative_player_chooses_who_goes_first() -> None:
    g = Nexo.new(["ann", "bob"], seed=3)
    winner = g.to_act()[0]
    loser = "bob" if winner == "ann" else "ann"
    with pytest.raises(NotYourTurn):
        g.play(loser, "first me")
    events = g.play(winner, "FIRST  them")
    assert g.last_move == "first them" and events[0]["kind"] == "first"
    assert g.view(None)["phase"] == "worker" and g.view(None)["turn"] == loser and g.to_act() == [loser]


def test_refused_orders_leave_the_state_unchanged() -> None:
    g = Nexo.new(["ann", "bob"], seed=3)
    before = g.to_json()
    winner = g.to_act()[0]
    with pytest.raises(BadNotation, match="'fly' is not an order"):
        g.play(winner, "fly a1 C7")
    with pytest.raises(IllegalMove, match="Choose who activates first"):
        g.play(winner, "move a1 C7")
    assert g.to_json() == before


def test_concede_ends_the_game() -> None:
    g = Nexo.new(["ann", "bob"], seed=3)
    winner = g.to_act()[0]
    g.play(winner, "concede")
    assert g.is_over and g.to_act() == [] and g.winners == ["bob" if winner == "ann" else "ann"]


def test_view_has_the_contract_fields_and_is_json_safe() -> None:
    g = Nexo.new(["ann", "bob"], seed=3)
    v = g.view(None)
    assert json.loads(json.dumps(v)) == v
    assert set(v) >= {"round", "phase", "turn", "initiative", "players", "models", "buildings", "terrain",
                      "depots"}
    assert set(v["players"]["ann"]) >= {"carbonite", "energy_production", "energy_demand", "blackout",
                                        "eligible", "passes"}
    assert v["players"]["ann"]["energy_production"] == 100 and v["players"]["bob"]["carbonite"] == 200
    assert set(v["models"]["a1"]) >= {"owner", "type", "x", "y", "hp", "wia", "activated", "overwatch"}
    assert set(v["buildings"]["A1"]) >= {"owner", "type", "x", "y", "hp", "complete", "build_points",
                                         "functional"}
    assert len(v["depots"]) == 6 and len(v["terrain"]) == 18
    assert g.view("ann") == v  # no secrets in Nexohominis


def test_save_and_restore_continue_identically() -> None:
    g = Nexo.new(["ann", "bob"], seed=8, options={"battlefield": "random"})
    h = Nexo.from_json(g.to_json())
    assert h.to_json() == g.to_json() and h.view(None) == g.view(None)
    winner = g.to_act()[0]
    assert g.play(winner, "first me") == h.play(winner, "first me")
    assert h.to_json() == g.to_json()


def test_a_game_starts_from_a_scenario() -> None:
    g = Nexo.new(["ann", "bob"], seed=1, options={"scenario": HOUSE_EXAMPLE})
    v = g.view(None)
    # nothing in the example can still activate (a5 has, a1 is a worker): Production opens at once
    assert (v["round"], v["phase"], v["turn"], v["initiative"]) == (3, "production", "ann", "ann")
    assert v["models"]["a5"]["wia"] == "shaken" and v["buildings"]["A1"]["hp"] == 28


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"carbonite": -5}, "carbonite must be a whole number of at least 0"),
        ({"battlefield": "moon"}, "There is no battlefield 'moon'"),
        ({"round_limit": 0}, "round_limit must be a whole number of at least 1"),
        ({"scenario": {"round": 0}}, "The scenario is not valid: scenario: round: must be at least 1"),
        ({"speed": 3}, "Nexohominis has no option 'speed'"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(GameError, match=message):
        Nexo.new(["ann", "bob"], options=options)


def test_two_players_exactly() -> None:
    with pytest.raises(GameError, match="needs 2 players"):
        Nexo.new(["ann"])


def test_nexo_is_registered() -> None:
    from engines import GAMES

    assert GAMES["nexo"] is Nexo
    g = GAMES["nexo"].new(players=["ann", "bob"], seed=2, options={})
    assert g.legal_moves(g.to_act()[0]) == ["first me", "first them", "concede"]


def test_pieces_are_kept_in_the_order_a_restored_game_has() -> None:
    from tests.engines.nexo.support import HQ1, scenario_game

    gen = {"id": "A2", "type": "generator", "x": 32, "y": 4}
    g = scenario_game([], [], phase="production", b1=[HQ1, gen])
    g.play("ann", "construct relay 22,15")  # A3, inserted after B1
    assert list(g.state.buildings) == ["A1", "A2", "A3", "B1"]
    h = Nexo.from_json(g.to_json())
    assert list(h.state.buildings) == list(g.state.buildings) and h.legal_moves("ann") == g.legal_moves("ann")


def test_6_1_a_round_runs_initiative_upkeep_worker_action_production() -> None:
    from tests.engines.nexo.support import scenario_game, unit

    g = scenario_game([unit("a1", "drudge", 10, 5), unit("a5", "trooper", 20, 20, hp=2, wia="bleeding")],
                      [unit("b1", "drudge", 34, 55), unit("b5", "trooper", 20, 40)], phase="initiative")
    seen = [g.state.phase.value]
    events = g.play("ann", "first me")  # Upkeep (Bleeding) runs between Initiative and Workers
    assert [e["kind"] for e in events] == ["first", "bleeding"] and g.state.phase.value == "worker"
    while g.state.phase.value != "initiative":
        if g.state.phase.value not in seen:
            seen.append(g.state.phase.value)
        p = g.to_act()[0]
        g.play(p, next(m for m in g.legal_moves(p) if m.startswith(("done", "end"))))
    assert seen == ["initiative", "worker", "action", "production"] and g.state.round == 2
