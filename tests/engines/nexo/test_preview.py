"""The preview of a typed move or dash position (engines/nexo/preview.py) agrees with the game."""

from __future__ import annotations

import math
import random

import pytest

from engines.core.errors import GameError
from engines.nexo.game import Nexo
from engines.nexo.moves import fmt_pos
from engines.nexo.preview import Preview, grid_cell, preview
from engines.nexo.state import SEATS
from tests.engines.nexo.support import CROSSROADS_P1, CROSSROADS_P2, crossroads_game, scenario_game, unit


def crossroads() -> Nexo:
    """The mid-game crossroads, Ann to act: her trooper a3 stands at (20, 22), Move 6"."""
    g: Nexo = crossroads_game(CROSSROADS_P1, CROSSROADS_P2)
    return g


def look(g: Nexo, verb: str, unit_id: str, text: str, player: str = "ann") -> Preview | None:
    return preview(g.world(), SEATS[g.players.index(player)], verb, unit_id, text)


def sure(g: Nexo, verb: str, unit_id: str, text: str, player: str = "ann") -> Preview:
    p = look(g, verb, unit_id, text, player)
    assert p is not None, text
    return p


def refusal(g: Nexo, player: str, order: str) -> str | None:
    """Returns why the game refuses ``order`` in ``g``'s position (left as it was), or None when it plays it."""
    trial = Nexo.from_json(g.to_json())
    try:
        trial.play(player, order)
    except GameError as err:
        return str(err)
    return None


def after(g: Nexo, player: str, order: str) -> Nexo:
    """Returns a copy of ``g`` with ``order`` played."""
    trial = Nexo.from_json(g.to_json())
    trial.play(player, order)
    return trial


def test_a_reachable_position_lands_there_with_its_cell_and_its_cost() -> None:
    g = crossroads()
    p = sure(g, "move", "a3", "20,26.5")
    assert p.lands and p.end == (20.0, 26.5) and grid_cell(p.end) == "K14"
    assert p.cost == pytest.approx(4.5) and p.allowance == 6 and p.allowance_text == '6" Move'
    assert p.order == "20,26.5" and p.instead is None
    moved = after(g, "ann", f"move a3 {p.order}")
    assert (moved.state.models["a3"].x, moved.state.models["a3"].y) == p.end


def test_a_position_too_far_says_how_far_and_offers_the_longest_step_toward_it() -> None:
    g = crossroads()
    p = sure(g, "move", "a3", "30.8,16")
    assert not p.lands and p.problem == '12.4" away; a3 can Move 6"'
    assert "a3 can move 6\", and that path costs 12.4\"" in (refusal(g, "ann", "move a3 30.8,16") or "")
    assert p.instead is not None and p.order == fmt_pos(p.instead[-1])
    assert refusal(g, "ann", f"move a3 {p.order}") is None
    assert p.instead_cost == pytest.approx(6, abs=0.02)  # as far as a Move goes, along the line
    start = (20.0, 22.0)
    assert math.dist(p.instead[-1], p.end) == pytest.approx(math.dist(start, p.end) - p.instead_cost, abs=0.02)


def test_a_dash_is_allowed_three_inches_more_than_the_move() -> None:
    g = crossroads()
    assert sure(g, "dash", "a3", "20,30").allowance == 9 and sure(g, "dash", "a3", "20,30").allowance_text == '9" Dash'
    assert not sure(g, "move", "a3", "26,25").lands  # 6.7" away
    dash = sure(g, "dash", "a3", "26,25")
    assert dash.lands and refusal(g, "ann", "dash a3 26,25") is None


def test_a_path_through_impassable_terrain_is_refused_in_the_games_words_with_a_way_that_works() -> None:
    g = crossroads()
    p = sure(g, "move", "a3", "16,29")
    assert p.problem == "crosses impassable terrain: the Sealed structure S1a"
    assert p.problem in (refusal(g, "ann", "move a3 16,29") or "")
    assert p.instead is not None and refusal(g, "ann", f"move a3 {p.order}") is None
    assert math.dist(p.instead[-1], p.end) < math.dist((20, 22), p.end)


def test_a_route_around_an_obstacle_is_offered_when_it_ends_nearer() -> None:
    wall = {"id": "S9", "type": "sealed", "poly": [[19, 12], [21, 12], [21, 13], [19, 13]]}
    g = scenario_game([unit("a3", "trooper", 20, 10)], [unit("b3", "trooper", 20, 50)], phase="action",
                      terrain=[wall])
    p = sure(g, "dash", "a3", "20,15")
    assert p.problem == "crosses impassable terrain: the Sealed structure S9"
    assert p.instead is not None and len(p.instead) > 1  # around the corners of the wall
    assert refusal(g, "ann", f"dash a3 {p.order}") is None
    assert math.dist(p.instead[-1], (20, 15)) < 1  # the straight step stops at the wall, 3.5" short


def test_difficult_ground_is_named_in_what_the_path_costs() -> None:
    p = sure(crossroads(), "move", "a3", "16.5,17.5")
    assert p.problem == 'that path costs 6.3" (0.6" of it through Difficult Ground); a3 can Move 6"'


@pytest.mark.parametrize("typed", ["P9", "p9", "p 9", "9P", "cell P9", "to P9", "31,17"])
def test_a_cell_is_previewed_at_its_centre(typed: str) -> None:
    p = sure(crossroads(), "move", "a3", typed)
    assert p.path == ((31.0, 17.0),) and grid_cell(p.end) == "P9" and p.problem == '12.1" away; a3 can Move 6"'


def test_a_word_that_names_a_depot_is_the_depot_and_cell_says_the_cell() -> None:
    g = crossroads()
    assert look(g, "move", "a3", "K5") is None  # the game goes toward depot K5
    assert sure(g, "move", "a3", "cell K5").path == ((21.0, 9.0),)


def test_the_bots_own_recap_form_is_previewed_where_it_says() -> None:
    g = crossroads()
    moved = Nexo.from_json(g.to_json())
    recap = next(str(e["text"]) for e in moved.play("ann", "move a3 20.5,25.99") if e["kind"] == "move")
    typed = recap[recap.index("("):recap.index(")") + 1]
    assert typed == "(20.5, 25.99)"
    p = sure(g, "move", "a3", typed)
    assert p.lands and p.end == (20.5, 25.99) and p.order == "20.5,25.99"
    assert sure(g, "move", "a3", "20.5 25.99") == p and sure(g, "move", "a3", '20.5",25.99"') == p


def test_a_path_of_two_waypoints_costs_both_legs() -> None:
    g = crossroads()
    p = sure(g, "move", "a3", "(19, 24) 18,26")
    assert p.lands and p.path == ((19.0, 24.0), (18.0, 26.0)) and p.order == "19,24 18,26"
    assert p.cost == pytest.approx(2 * math.hypot(1, 2))
    assert after(g, "ann", f"move a3 {p.order}").last_move == "move a3 19,24 18,26"
    long = sure(g, "move", "a3", "26,22 26,26")
    assert long.problem == 'that path is 10.0"; a3 can Move 6"'
    assert long.instead is not None and refusal(g, "ann", f"move a3 {long.order}") is None
    blocked = sure(g, "move", "a3", "20,26.5 16,29")
    assert blocked.problem == "the leg to 16,29 crosses impassable terrain: the Sealed structure S1a"


@pytest.mark.parametrize("typed", ["toward b7", "b7", "cover", "take cover", "K5", "30.", "30.8,", "north",
                                   "", "1,2,3", "hello there"])
def test_what_is_no_position_has_no_preview(typed: str) -> None:
    assert look(crossroads(), "move", "a3", typed) is None


def test_a_unit_that_cannot_move_now_says_why_as_the_game_does() -> None:
    g = crossroads()
    assert sure(g, "move", "b3", "24,36", player="bob").problem == "it is not your turn"
    assert sure(g, "move", "b3", "24,36").problem == "b3 is not yours"
    moved = after(g, "ann", "move a3 20,26")
    p = sure(moved, "move", "a3", "20,27")
    assert p.problem == "a3 has already used its Movement Action" and p.instead is None
    assert p.problem in (refusal(moved, "ann", "move a3 20,27") or "")
    other = sure(moved, "move", "a5", "31,22")
    assert other.problem == "a3 is activating: give it orders or 'done a3' first"
    assert other.problem in (refusal(moved, "ann", "move a5 31,22") or "")


def test_overwatch_that_could_fire_where_it_lands_is_named_and_fires() -> None:
    from tests.discord.tablehost.test_nexo_choices import in_action

    g = in_action()  # Bob's b3 (38, 38) is in Overwatch
    exposed = sure(g, "move", "a5", "31,21", player="Ann")
    assert exposed.lands and exposed.watchers == ("b3",)
    fired = Nexo.from_json(g.to_json()).play("Ann", "move a5 31,21")
    assert [e["attacker"] for e in fired if e["kind"] == "overwatch"] == ["b3"]
    hidden = sure(g, "move", "a4", "17,22", player="Ann")
    assert hidden.lands and hidden.watchers == ()
    assert not [e for e in Nexo.from_json(g.to_json()).play("Ann", "move a4 17,22") if e["kind"] == "overwatch"]


def random_position(seed: int) -> Nexo:
    """Returns a game after a few random legal orders (no giving up), in the Worker or Action Phase."""
    rng = random.Random(seed)
    g = Nexo.new(["ann", "bob"], seed=seed) if seed % 2 else crossroads_game(CROSSROADS_P1, CROSSROADS_P2, seed=seed)
    for _ in range(rng.randint(1, 12)):
        if g.is_over:
            break
        player = g.to_act()[0]
        legal = [m for m in g.legal_moves(player) if m.split()[0] not in ("concede", "scrap", "pass")]
        g.play(player, rng.choice(legal))
    return g


def typed_forms(rng: random.Random, path: list[tuple[float, float]]) -> str:
    """Returns ``path`` written as a player might: x,y, (x, y), x y or a cell."""
    out = []
    for x, y in path:
        form = rng.randrange(4)
        if form == 3 and 0 <= x < 44 and 0 <= y < 60:
            out.append("cell " + grid_cell((x, y)))
        else:
            out.append([f"{x:g},{y:g}", f"({x:g}, {y:g})", f"{x:g} {y:g}", f"{x:g},{y:g}"][form])
    return " ".join(out)


def test_every_preview_agrees_with_the_game_over_fifty_seeded_positions() -> None:
    lands = refused = offered = 0
    for seed in range(50):
        g = random_position(seed)
        if g.is_over:
            continue
        rng = random.Random(1000 + seed)
        player = g.to_act()[0]
        seat = SEATS[g.players.index(player)]
        mine = sorted(m.id for m in g.state.models.values() if m.owner == seat)
        ready = [g.state.active] if g.state.active else sorted(p.id for p in g.world().eligible(seat, g.state.phase))
        ready = [pid for pid in ready if pid in g.state.models] or mine
        for pick in range(3):
            uid, verb = rng.choice(mine if pick == 2 else ready), rng.choice(["move", "move", "dash"])
            m = g.state.models[uid]
            steps = 1 if rng.random() < 0.8 else 2
            path = [(round(m.x + rng.uniform(-8, 8), 2), round(m.y + rng.uniform(-8, 8), 2)) for _ in range(steps)]
            typed = typed_forms(rng, path)
            p = sure(g, verb, uid, typed, player)
            why = refusal(g, player, f"{verb} {uid} {' '.join(fmt_pos(q) for q in p.path)}")
            assert (why is None) == p.lands, (seed, verb, uid, typed, p, why)
            if p.lands:
                lands += 1
                assert refusal(g, player, f"{verb} {uid} {typed}") is None  # the typed text plays the same
                done = after(g, player, f"{verb} {uid} {p.order}")
                assert done.last_move == f"{verb} {uid} {p.order}"
                if uid in done.state.models:  # Overwatch may have destroyed it on arrival
                    assert (done.state.models[uid].x, done.state.models[uid].y) == p.end
                continue
            refused += 1
            if p.instead is not None:
                offered += 1
                assert refusal(g, player, f"{verb} {uid} {p.order}") is None, (seed, typed, p)
                assert math.dist(p.instead[-1], p.end) < math.dist((m.x, m.y), p.end)
    assert lands >= 15 and refused >= 15 and offered >= 10, (lands, refused, offered)
