"""Tests of the view's last_move and last_attack marks (game.py "Readings", state.py)."""

from __future__ import annotations

import json

import pytest

from engines.nexo.attacks import result_text
from engines.nexo.checks import check_state
from engines.nexo.combat import AttackResult
from engines.nexo.game import Nexo
from engines.nexo.reader import DataError
from engines.nexo.sight import Cover
from engines.nexo.state import LastAttack, LastMove, State
from tests.engines.nexo.support import scenario_game, unit


def action(p1: list, p2: list, **kw: object) -> Nexo:  # type: ignore[type-arg]
    return scenario_game(p1, p2, phase="action", **kw)  # type: ignore[no-any-return]


def test_a_new_game_has_no_marks() -> None:
    v = Nexo.new(["ann", "bob"], seed=1).view(None)
    assert v["last_move"] is None and v["last_attack"] is None


def test_last_move_holds_the_start_and_every_waypoint() -> None:
    g = action([unit("a5", "trooper", 20, 20)], [unit("b5", "trooper", 20, 50)])
    g.play("ann", "move a5 20,22 22,24")
    assert g.view(None)["last_move"] == {"model": "a5", "path": [[20, 20], [20, 22], [22, 24]]}
    g.play("ann", "done a5")
    g.play("bob", "dash b5 toward a5")
    last = g.view(None)["last_move"]
    assert last["model"] == "b5" and last["path"][0] == [20, 50] and len(last["path"]) == 2
    assert last["path"][1] == [float(v) for v in g.last_move.split()[-1].split(",")]


def test_last_attack_holds_the_attack_and_its_result() -> None:
    g = action([unit("a5", "trooper", 20, 20)], [unit("b5", "trooper", 20, 30)])
    events = g.play("ann", "shoot a5 b5")
    shot = next(e for e in events if e["kind"] == "shoot")
    last = g.view(None)["last_attack"]
    assert {k: last[k] for k in ("attacker", "target", "kind", "weapon", "from", "to")} == {
        "attacker": "a5", "target": "b5", "kind": "shoot", "weapon": "rifle", "from": [20, 20], "to": [20, 30]}
    expected = f"{shot['damage']} dmg" if shot["damage"] else ("saved" if shot["hits"] else "miss")
    assert last["result"] == expected
    assert g.view(None)["last_move"] is None  # nothing moved yet this round


def test_a_destroyed_target_is_named_and_placed() -> None:
    for seed in range(40):
        g = action([unit("a5", "trooper", 20, 20)],
                   [unit("b5", "trooper", 20, 21.5, hp=1), unit("b6", "trooper", 5, 50)], seed=seed)
        g.play("ann", "fight a5 b5")
        if "b5" not in g.state.models:
            break
    else:
        pytest.fail("no seed destroyed b5")
    last = g.view(None)["last_attack"]
    assert last["result"] == "destroyed" and last["target"] == "b5" and last["to"] == [20, 21.5]
    assert last["kind"] == "fight" and last["weapon"] == "knife"


def test_an_overwatch_reaction_is_the_last_attack() -> None:
    g = action([unit("a5", "trooper", 22, 20)], [unit("b5", "trooper", 22, 40, overwatch=True)])
    events = g.play("ann", "move a5 22,24")
    assert "overwatch" in [e["kind"] for e in events]
    v = g.view(None)
    assert v["last_attack"]["attacker"] == "b5" and v["last_attack"]["kind"] == "overwatch"
    assert v["last_attack"]["to"] == [22, 24] and v["last_move"]["model"] == "a5"


@pytest.mark.parametrize("hits, dealt, hp_left, text", [
    (0, 0, 8, "miss"), (2, 0, 8, "saved"), (2, 3, 5, "3 dmg"), (3, 5, 0, "destroyed")])
def test_result_text(hits: int, dealt: int, hp_left: int, text: str) -> None:
    r = AttackResult((), hits, 0, Cover.NONE, (), 0, 0, dealt, dealt, hp_left)
    assert result_text(r) == text


def test_marks_survive_a_save_and_are_checked() -> None:
    g = action([unit("a5", "trooper", 22, 20)], [unit("b5", "trooper", 22, 40, overwatch=True)])
    g.play("ann", "move a5 22,22 22,24")
    data = g.dump_state()
    assert json.loads(json.dumps(data)) == data
    check_state(data, g.rules)
    assert State.from_json(data) == g.state
    h = Nexo.from_json(g.to_json())
    assert h.view(None)["last_move"] == g.view(None)["last_move"]
    assert h.view(None)["last_attack"] == g.view(None)["last_attack"]


def test_states_saved_before_the_marks_still_load() -> None:
    g = action([unit("a5", "trooper", 22, 20)], [unit("b5", "trooper", 22, 40)])
    g.play("ann", "move a5 22,24")
    old = {k: v for k, v in g.dump_state().items() if k not in ("last_move", "last_attack")}
    check_state(old, g.rules)
    g.load_state(old)
    assert g.view(None)["last_move"] is None and g.view(None)["last_attack"] is None


@pytest.mark.parametrize("key, value, problem", [
    ("last_move", {"model": "a5", "path": [[1, 2]]}, "must hold 2 to 21 points"),
    ("last_move", {"model": "a5", "path": [[1, 2], [99, 2]]}, "must be at most 44"),
    ("last_move", {"model": "a5"}, "must hold exactly model, path"),
    ("last_move", [1, 2], "expected an object"),
    ("last_attack", {"attacker": "a5", "target": "b5", "kind": "bite", "weapon": "rifle", "result": "miss",
                     "from": [1, 2], "to": [3, 4]}, "must be one of shoot, fight, overwatch"),
    ("last_attack", {"attacker": "a5", "target": "b5", "kind": "shoot", "weapon": "rifle", "result": "lots",
                     "from": [1, 2], "to": [3, 4]}, "must be 'miss'"),
    ("last_attack", {"attacker": "a5", "target": "b5", "kind": "shoot", "weapon": "rifle", "result": "0 dmg",
                     "from": [1, 2], "to": [3, 4]}, "must be 'miss'"),
    ("last_attack", {"attacker": "a5", "target": "b5", "kind": "shoot", "weapon": "rifle", "result": "2 dmg",
                     "from": [1], "to": [3, 4]}, "expected 2 items"),
])
def test_damaged_marks_are_refused(key: str, value: object, problem: str) -> None:
    g = Nexo.new(["ann", "bob"], seed=1)
    with pytest.raises(DataError, match=problem):
        check_state({**g.dump_state(), key: value}, g.rules)


def test_marks_are_cleared_when_a_new_round_begins() -> None:
    g = scenario_game([unit("a5", "trooper", 22, 20)], [unit("b5", "trooper", 22, 40)], phase="production")
    g.state.last_move = LastMove("a5", [(22.0, 18.0), (22.0, 20.0)])
    g.state.last_attack = LastAttack("a5", "b5", "shoot", "rifle", "miss", (22.0, 20.0), (22.0, 40.0))
    g.play("ann", "end")
    assert g.view(None)["last_move"] is not None  # kept through the Production Phase
    g.play("bob", "end")
    v = g.view(None)
    assert v["round"] == 2 and v["last_move"] is None and v["last_attack"] is None
