"""How far the "toward" forms go, and how they route around obstacles (engines/nexo/toward.py, route.py).

Over 300 positions of seeded games played with random legal orders, every ``toward`` form
offered must take the longest legal step: at least 95% of the unit's allowance, or of the way
to its goal's stop when that is nearer, whenever a path that long exists; and no offered move
(``toward`` or ``cover``) may cross impassable terrain.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import shapely
from shapely.geometry import LineString

from engines import GAMES
from engines.nexo import toward
from engines.nexo.activation import allowance
from engines.nexo.game import Nexo
from engines.nexo.moves import Go, Toward, parse_move, parse_pos
from engines.nexo.toward import along, longest_step, path_problem, routed_path, toward_start
from tests.engines.nexo.support import scenario_game, unit

POSITIONS = 300
SEEDS = range(12)
PLIES = 25
FULL = 0.95


def positions() -> Iterator[Nexo]:
    """Yields POSITIONS positions: PLIES random legal orders into games of several seeds."""
    seen = 0
    for seed in SEEDS:
        game = GAMES["nexo"].new(["ann", "bob"], seed, {})
        assert isinstance(game, Nexo)
        rng = random.Random(seed)
        for _ in range(PLIES):
            if game.is_over or seen >= POSITIONS:
                break
            yield game
            seen += 1
            player = game.to_act()[0]
            game.play(player, rng.choice([m for m in game.legal_moves(player) if m != "concede"]))
    assert seen == POSITIONS


SHOWN = re.compile(r"\((?:via ((?:-?[0-9.]+,-?[0-9.]+ ?)+), )?ends (-?[0-9.]+,-?[0-9.]+), ")


def shown_path(label: str) -> list[tuple[float, float]]:
    """Returns the waypoints a suggestion's label shows: ``(via 1,2 3,4, ends 5,6, 6")``."""
    found = SHOWN.search(label)
    assert found, label
    return [parse_pos(p) for p in [*(found.group(1) or "").split(), found.group(2)]]


def test_the_shown_path_reads_back() -> None:
    assert shown_path('toward depot K1 (via 1,2 3.5,4, ends 5,6, 6")') == [(1, 2), (3.5, 4), (5, 6)]
    assert shown_path('into cover (ends 9,22, 2.5", light vs b3)') == [(9, 22)]


@dataclass
class Tally:
    """What the survey found."""

    positions: int = 0
    toward: int = 0
    routed: int = 0
    full: int = 0
    short: list[str] | None = None
    crossing: list[str] | None = None


@pytest.fixture(scope="module")
def survey() -> Tally:
    """Resolves every form offered over the positions and records what falls short or crosses."""
    t = Tally(short=[], crossing=[])
    assert t.short is not None and t.crossing is not None
    for game in positions():
        t.positions += 1
        player = game.to_act()[0]
        w, seat = game.world(), game._seat(player)
        impassable = [p.shape for p in w.terrain.pieces if p.traits.impassable]
        bodies = w.bodies()
        for uid in sorted(m.id for m in w.state.models.values() if m.owner == seat):
            m = w.state.models[uid]
            radius = w.unit_type(m).base_radius
            for label, order in game.toward_forms(player, uid):
                form = parse_move(order)
                assert isinstance(form, Toward)
                path = shown_path(label)  # what the suggestion shows is what is played
                swept = LineString([(m.x, m.y), *path]).buffer(radius)
                if any(shapely.intersection(swept, s).area > 1e-6 for s in impassable):
                    t.crossing.append(f"{order}: {path}")
                if form.goal is None:
                    continue
                t.toward += 1
                t.routed += len(path) > 1
                gone = sum(math.dist(a, b) for a, b in zip([(m.x, m.y), *path], path, strict=False))
                reach = allowance(w, m, dash=form.verb == "dash")
                goal = toward.find_goal(w, form.goal)
                assert goal is not None
                dist = toward.room(m, radius, goal)
                frac = dist / math.dist((m.x, m.y), (goal.x, goal.y))
                straight = [(m.x + (goal.x - m.x) * frac, m.y + (goal.y - m.y) * frac)]
                want = min(reach, dist)
                exists = path_problem(w, m, along((m.x, m.y), straight, want), reach, bodies) is None
                if not exists:
                    way = routed_path(w, m, bodies, goal)
                    if way is not None:
                        want = min(reach, sum(math.dist(a, b) for a, b in zip([(m.x, m.y), *way], way, strict=False)))
                        exists = path_problem(w, m, along((m.x, m.y), way, want), reach, bodies) is None
                if exists:
                    t.full += 1
                    if gone < FULL * want:
                        t.short.append(f"{order}: {path} goes {gone:.2f}\" of {want:.2f}\"")
    return t


def test_a_toward_form_goes_the_whole_allowance_when_a_path_that_long_exists(survey: Tally) -> None:
    assert survey.positions == POSITIONS and survey.full >= 300
    assert survey.short == []


def test_routed_moves_never_cross_impassable_terrain(survey: Tally) -> None:
    assert survey.routed >= 10  # the survey does meet obstacles
    assert survey.crossing == []


def test_the_printed_end_never_lengthens_the_move() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        start = (round(rng.uniform(0, 44), 2), round(rng.uniform(0, 60), 2))
        a = rng.uniform(0, 2 * math.pi)
        end = (start[0] + 6 * math.cos(a), start[1] + 6 * math.sin(a))
        printed = toward_start(start, end)
        assert math.dist(start, printed) <= 6 + 1e-9 and math.dist(printed, end) < 0.015
        assert printed == parse_move(f"move a1 {printed[0]},{printed[1]}").path[0]  # type: ignore[union-attr]


def test_a_diagonal_toward_move_is_a_full_move_not_half() -> None:
    g = scenario_game([unit("a5", "trooper", 10, 30)], [unit("b5", "trooper", 40.37, 47.11)], phase="action")
    r = toward.resolve_full(g.world(), "p1", Toward("move", "a5", "b5"))
    assert 5.98 <= r.distance <= 6 and len(r.go.path) == 1
    g.play("ann", "move a5 toward b5")
    assert g.last_move == str(r.go)


SEALED = {"id": "S9", "type": "sealed", "poly": [[19, 11.5], [25, 11.5], [25, 16], [19, 16]]}


def test_a_move_toward_a_unit_behind_a_sealed_structure_goes_around_it() -> None:
    g = scenario_game([unit("a5", "trooper", 22, 10)], [unit("b5", "trooper", 22, 22)], phase="action",
                      terrain=[SEALED])
    w = g.world()
    r = toward.resolve_full(w, "p1", Toward("dash", "a5", "b5"))
    assert len(r.go.path) >= 2 and r.distance >= FULL * 9
    g.play("ann", "dash a5 toward b5")
    assert g.last_move == str(r.go)
    path = LineString([(22, 10), *r.go.path]).buffer(0.5)
    assert path.intersection(w.terrain.by_id["S9"].shape).area < 1e-6


def test_a_route_is_shown_as_waypoints_in_the_suggestion() -> None:
    g = scenario_game([unit("a5", "trooper", 22, 10)], [unit("b5", "trooper", 22, 22)], phase="action",
                      terrain=[SEALED])
    forms = dict((o, lbl) for lbl, o in g.toward_forms("ann", "a5"))
    r = toward.resolve_full(g.world(), "p1", Toward("move", "a5", "b5"))
    via = " ".join(f"{x:g},{y:g}" for x, y in r.go.path[:-1])
    assert f"via {via}" in forms["move a5 toward b5"]


def test_a_step_blocked_part_way_stops_at_the_obstacle_not_half_way() -> None:
    wall = {"id": "S9", "type": "sealed", "poly": [[0, 12], [44, 12], [44, 13], [0, 13]]}
    g = scenario_game([unit("a5", "trooper", 30, 8)], [unit("b5", "trooper", 30, 30)], phase="action",
                      terrain=[wall])
    w = g.world()
    m = w.state.models["a5"]
    path, why = longest_step(w, m, w.bodies(), 6, [(30, 14)])
    assert why is None and path is not None and path[-1] == pytest.approx((30, 11.5), abs=0.011)
    assert toward.resolve(w, "p1", Toward("move", "a5", "b5")) == Go("move", "a5", path)
