"""Tests of the "toward" forms of move and dash (house "Notation", engines/nexo/toward.py)."""

from __future__ import annotations

import itertools
import math
import random
import re

import pytest

from engines import GAMES
from engines.core.errors import BadNotation, IllegalMove
from engines.nexo.game import Nexo
from engines.nexo.moves import Go, Toward, parse_move, parse_pos
from engines.nexo.toward import lattice
from tests.engines.nexo.support import CROSSROADS_P1, CROSSROADS_P2, crossroads_game, scenario_game, unit

BARRICADE = {"id": "B9", "type": "barricade", "line": [[18, 24], [26, 24]]}
SEALED = {"id": "S9", "type": "sealed", "poly": [[19, 11.5], [25, 11.5], [25, 16], [19, 16]]}


def action(p1: list, p2: list, **kw: object) -> Nexo:  # type: ignore[type-arg]
    return scenario_game(p1, p2, phase="action", **kw)  # type: ignore[no-any-return]


def ends(g: Nexo) -> tuple[float, float]:
    """Returns the end position of the last move the game logged."""
    assert g.last_move is not None
    return parse_pos(g.last_move.split()[-1])


@pytest.mark.parametrize("text, canonical", [
    ("move a1 toward K1", "move a1 toward K1"), ("MOVE a1  Toward  b3", "move a1 toward b3"),
    ("dash a2 cover", "dash a2 cover"), ("Dash A2 COVER", "dash A2 cover"),
])
def test_toward_forms_round_trip(text: str, canonical: str) -> None:
    move = parse_move(text)
    assert isinstance(move, Toward) and str(move) == canonical and parse_move(canonical) == move


@pytest.mark.parametrize("text", ["move a1 toward", "move a1 toward K1 K2", "dash a1 cover 3,4", "move a1 toward 3,4"])
def test_bad_toward_forms_are_refused(text: str) -> None:
    with pytest.raises(BadNotation):
        parse_move(text)


def test_move_toward_a_depot_goes_a_full_move_and_is_logged_resolved() -> None:
    g = action([unit("a5", "trooper", 30, 40)], [unit("b5", "trooper", 40, 10)])
    g.play("ann", "move a5 toward K2")  # K2 at (34, 42): too near for a full move
    x, y = ends(g)
    assert g.last_move == "move a5 " + f"{x:g},{y:g}"
    assert math.dist((x, y), (34, 42)) == pytest.approx(2.0, abs=0.01)  # 1" depot + 0.5" base + 0.5"
    g2 = action([unit("a5", "trooper", 10, 40)], [unit("b5", "trooper", 40, 10)])
    g2.play("ann", "move a5 toward K1")  # K1 at (10, 18): 22" away
    assert g2.last_move == "move a5 10,34"


def test_a_worker_toward_a_depot_ends_within_harvest_reach() -> None:
    g = scenario_game([unit("a1", "drudge", 10, 12)], [unit("b1", "drudge", 34, 50)])
    g.play("ann", "move a1 toward k1; harvest a1 K1")
    assert g.last_move == "move a1 10,16; harvest a1 K1"


def test_toward_an_enemy_unit_ends_within_fight_reach() -> None:
    g = action([unit("a5", "trooper", 20, 20)], [unit("b5", "trooper", 20, 26)])
    g.play("ann", "move a5 toward b5")
    assert g.last_move == "move a5 20,24.4"
    g.play("ann", "fight a5 b5")
    assert g.state.models["a5"].attacked


def test_toward_a_building_stops_half_an_inch_from_its_footprint() -> None:
    g = action([unit("a5", "trooper", 22, 47)], [unit("b5", "trooper", 40, 30)])
    g.play("ann", "move a5 toward B1")  # the HQ at (22, 55): its footprint starts at y = 52
    assert ends(g) == pytest.approx((22, 51), abs=0.01)


def test_dash_toward_goes_three_inches_further() -> None:
    g = action([unit("a5", "trooper", 10, 40)], [unit("b5", "trooper", 40, 10)])
    g.play("ann", "dash a5 toward K1")
    assert g.last_move == "dash a5 10,31" and g.state.models["a5"].dashed


def test_a_blocked_straight_step_goes_around_else_stops_at_the_obstacle_else_is_refused() -> None:
    g = action([unit("a5", "trooper", 10, 8)], [unit("b5", "trooper", 10, 30)],
               terrain=[{"id": "S9", "type": "sealed", "poly": [[7, 12], [13, 12], [13, 16], [7, 16]]}])
    g.play("ann", "move a5 toward b5")  # straight on would cross the structure: round its corner
    path = [parse_pos(p) for p in str(g.last_move).split()[2:]]
    assert len(path) >= 2 and path[0] in ((6.45, 11.45), (13.55, 11.45))  # 0.55" off either corner
    assert sum(math.dist(a, b) for a, b in zip([(10, 8), *path], path, strict=False)) == pytest.approx(6, abs=0.02)
    wall = {"id": "S9", "type": "sealed", "poly": [[0, 12], [44, 12], [44, 13], [0, 13]]}
    g = action([unit("a5", "trooper", 10, 8)], [unit("b5", "trooper", 10, 30)], terrain=[wall])
    g.play("ann", "move a5 toward b5")  # no way around: as far as the wall, not half way
    assert g.last_move == "move a5 10,11.5"
    g = action([unit("a5", "trooper", 10, 11.5)], [unit("b5", "trooper", 10, 30)], terrain=[wall])
    with pytest.raises(IllegalMove, match=r"a5 cannot move toward b5: .*impassable terrain: the Sealed"):
        g.play("ann", "move a5 toward b5")


def test_refusals_name_the_problem() -> None:
    g = action([unit("a5", "trooper", 20, 20), unit("a1", "drudge", 8, 18)],
               [unit("b5", "trooper", 20, 21.5), unit("b6", "trooper", 30, 40)])
    with pytest.raises(IllegalMove, match="a5 cannot move toward b5: it is already beside b5"):
        g.play("ann", "move a5 toward b5")
    with pytest.raises(IllegalMove, match=r"there is no depot, unit or building 'K11' \(did you mean K1\?\)"):
        g.play("ann", "move a5 toward K11")
    with pytest.raises(IllegalMove, match="cannot move toward itself"):
        g.play("ann", "move a5 toward a5")
    with pytest.raises(IllegalMove, match="b6 is not yours"):
        g.play("ann", "move b6 toward K1")
    g.play("ann", "shoot a5 b5")
    with pytest.raises(IllegalMove, match="cannot Dash"):
        g.play("ann", "dash a5 toward K1")
    w = scenario_game([unit("a1", "drudge", 8, 12)], [unit("b1", "drudge", 34, 50)])
    with pytest.raises(IllegalMove, match="workers do not Dash"):
        w.play("ann", "dash a1 toward K1")


def test_cover_moves_to_the_nearest_spot_behind_a_barricade() -> None:
    g = action([unit("a5", "trooper", 22, 20)], [unit("b5", "trooper", 22, 40)], terrain=[BARRICADE])
    g.play("ann", "move a5 cover")
    assert g.last_move == "move a5 22,22.5"  # within 1" of the barricade the line from b5 crosses
    g.play("ann", "done a5")
    shot = [e for e in g.play("bob", "shoot b5 a5") if e["kind"] == "shoot"]
    assert shot[0]["cover"] == "light"


def test_cover_inside_a_ruin() -> None:
    ruin = {"id": "R9", "type": "ruin", "poly": [[25, 18], [30, 18], [30, 22], [25, 22]]}
    g = action([unit("a5", "trooper", 22, 20)], [unit("b5", "trooper", 22, 40)], terrain=[ruin])
    g.play("ann", "move a5 cover")
    assert g.last_move == "move a5 25,20"


def test_cover_routes_around_a_sealed_structure_when_no_straight_move_reaches_cover() -> None:
    wall = {"id": "S8", "type": "sealed", "poly": [[20, 25], [24, 25], [24, 27], [20, 27]]}
    g = action([unit("a5", "trooper", 22, 28.3)], [unit("b5", "trooper", 22, 45)], terrain=[wall])
    with pytest.raises(IllegalMove, match="no spot within 6\" gives it cover from b5"):
        g.play("ann", "move a5 cover")  # every spot behind the wall is over 6" away round it
    g.play("ann", "dash a5 cover")
    assert g.last_move is not None
    path = [(22.0, 28.3), *(parse_pos(p) for p in g.last_move.split()[2:])]
    assert len(path) >= 3 and path[-1][1] < 25  # round a corner, to behind the wall
    assert sum(math.dist(a, b) for a, b in itertools.pairwise(path)) <= 9
    assert g.to_act() == ["bob"]  # a Dash with no one to Fight ends the activation (ruling 16)
    shot = [e for e in g.play("bob", "shoot b5 a5") if e["kind"] == "shoot"]
    assert shot[0]["cover"] in ("light", "heavy")


def test_cover_is_refused_when_already_in_cover_or_nothing_to_hide_from() -> None:
    g = action([unit("a5", "trooper", 22, 23)], [unit("b5", "trooper", 22, 40)], terrain=[BARRICADE])
    with pytest.raises(IllegalMove, match="a5 cannot move into cover: it already has light cover from b5"):
        g.play("ann", "move a5 cover")
    g = action([unit("a5", "trooper", 22, 23)], [unit("b1", "drudge", 22, 40)])
    with pytest.raises(IllegalMove, match="no enemy piece has a ranged weapon"):
        g.play("ann", "move a5 cover")
    g = action([unit("a5", "trooper", 22, 10)], [unit("b5", "trooper", 22, 40)])
    with pytest.raises(IllegalMove, match="no spot within 6\" gives it cover from b5"):
        g.play("ann", "move a5 cover")
    assert g.legal_moves("ann")  # the refusal changed nothing


def test_the_lattice_is_nearest_first_and_exact_at_two_decimals() -> None:
    spots = lattice(3.14159, 2.5, 2)
    assert len(spots) == len(set(spots)) and all(parse_pos(f"{x},{y}") == (x, y) for x, y in spots)
    dists = [math.dist((3.14159, 2.5), s) for s in spots]
    assert dists == sorted(dists) and max(dists) <= 2 + 0.01


def test_toward_forms_label_where_they_end() -> None:
    g = action([unit("a5", "trooper", 22, 20)], [unit("b5", "trooper", 22, 40)], terrain=[BARRICADE])
    assert g.toward_forms("ann", "a5") == [
        ("toward enemy trooper b5 (ends 22,26, 6\")", "move a5 toward b5"),
        ("toward enemy trooper b5 (ends 22,29, 9\")", "dash a5 toward b5"),
        ("toward enemy headquarters B1 (ends 22,26, 6\")", "move a5 toward B1"),
        ("toward enemy headquarters B1 (ends 22,29, 9\")", "dash a5 toward B1"),
        ("into cover (ends 22,22.5, 2.5\", light vs b5)", "move a5 cover"),
    ]
    assert g.toward_forms("bob", "b5") == [] and g.toward_forms("ann", "b5") == []
    assert g.toward_forms("ann", "zz") == [] and g.toward_forms("cy", "a5") == []


def test_a_workers_forms_head_for_depots_and_its_site() -> None:
    site = {"id": "A4", "type": "generator", "x": 30, "y": 14, "hp": 25, "bp": 0}
    g = scenario_game([unit("a1", "drudge", 20, 20)], [unit("b1", "drudge", 34, 50)],
                      b1=[{"id": "A1", "type": "headquarters", "x": 22, "y": 5}, site])
    orders = [o for _, o in g.toward_forms("ann", "a1")]
    assert orders == ["move a1 toward K1", "move a1 toward K2", "move a1 toward A4"]  # no armed enemy: no cover


LABEL_END = re.compile(r"\((?:via ((?:-?[0-9.]+,-?[0-9.]+ ?)+), )?ends (-?[0-9.]+,-?[0-9.]+),")


def shown(label: str) -> str:
    """Returns the positions a label shows (``via`` waypoints, then the end), as an order writes them."""
    found = LABEL_END.search(label)
    assert found, label
    return f"{found.group(1)} {found.group(2)}" if found.group(1) else found.group(2)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_every_toward_form_offered_plays_back_where_its_label_says(seed: int) -> None:
    game = GAMES["nexo"].new(["ann", "bob"], seed, {})
    rng, tried, kinds = random.Random(seed), 0, set()
    for _ in range(70):
        if game.is_over:
            break
        player = game.to_act()[0]
        for uid in list(game.state.models):
            for label, order in game.toward_forms(player, uid):
                trial = GAMES["nexo"].from_json(game.to_json())
                trial.play(player, order)  # raises if the form were refused
                verb = order.split()[0]
                assert trial.last_move.split(";")[0] == f"{verb} {uid} {shown(label)}"
                tried += 1
                kinds.add(order.split()[2])
        moves = [m for m in game.legal_moves(player) if m != "concede"]
        game.play(player, rng.choice(moves))
    assert tried >= 20 and kinds == {"toward", "cover"}


def test_a_resolved_form_is_a_plain_go() -> None:
    g = action([unit("a5", "trooper", 10, 40)], [unit("b5", "trooper", 40, 10)])
    from engines.nexo import toward

    go = toward.resolve(g.world(), "p1", Toward("move", "a5", "K1"))
    assert go == Go("move", "a5", ((10.0, 34.0),))


@pytest.mark.parametrize("turn", ["p1", "p2"])
def test_every_form_offered_on_the_crossroads_plays_back(turn: str) -> None:
    game = crossroads_game(CROSSROADS_P1, CROSSROADS_P2, turn=turn)
    player = game.to_act()[0]
    offered = 0
    for uid in list(game.state.models):
        for label, order in game.toward_forms(player, uid):
            trial = GAMES["nexo"].from_json(game.to_json())
            trial.play(player, order)
            assert trial.last_move.split(";")[0] == f"{order.split()[0]} {uid} {shown(label)}"
            offered += 1
    assert offered >= 20
