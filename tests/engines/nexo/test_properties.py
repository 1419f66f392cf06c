"""Property tests: random legal play keeps every invariant; bad text never changes a game.

Random play is seeded (fast and repeatable); text fuzzing uses hypothesis.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import GAMES
from engines.core.errors import GameError
from engines.nexo.game import Nexo
from engines.nexo.geometry import base

MAX_ROUNDS = 30
MAX_MOVES = 700
POLYGON_SLACK = 0.002
"""Bases are 64-sided polygons (geometry.base): two touching bases may stand up to
r·(1 − cos(π/64)) ≈ 0.12% of their radii closer than true circles would."""


def choose(g: Nexo, rng: random.Random) -> tuple[str, str]:
    """Returns a random legal order of the player to act (no concede, rarely scrap)."""
    p = g.to_act()[0]
    moves = [m for m in g.legal_moves(p)
             if m != "concede" and (not m.startswith("scrap") or rng.random() < 0.02)]
    return p, rng.choice(moves)


def energy(g: Nexo, seat: str) -> tuple[int, int]:
    """Returns (production, demand) recomputed from the datasheets, independently of economy.py."""
    f, s = g.rules.faction, g.state
    prod = demand = 0
    for b in s.buildings.values():
        if b.owner != seat or b.hp <= 0:
            continue
        bt = f.buildings[b.type]
        if b.complete and 2 * b.hp >= bt.hp:
            prod += bt.energy_production
        if b.complete or bt.energy_production == 0:
            demand += bt.energy
    demand += sum(f.units[m.type].energy for m in s.models.values()
                  if m.owner == seat and f.units[m.type].powered)
    return prod, demand


def check_invariants(g: Nexo) -> None:
    """Asserts the invariants of a position (bases, battlefield, terrain, Carbonite, Blackout)."""
    s, f, w = g.state, g.rules.faction, g.world()
    models = list(s.models.values())
    radius = {m.id: f.units[m.type].base_radius for m in models}
    for i, a in enumerate(models):
        r = radius[a.id]
        assert r - 1e-6 <= a.x <= s.width - r + 1e-6 and r - 1e-6 <= a.y <= s.length - r + 1e-6, a
        for b in models[i + 1:]:
            reach = r + radius[b.id]
            assert math.dist((a.x, a.y), (b.x, b.y)) >= reach * (1 - POLYGON_SLACK), (a.id, b.id)
        shape = base(a.x, a.y, r)
        for p in w.terrain.touching(shape):
            assert not p.traits.impassable or shape.intersection(p.shape).area < 1e-6, (a.id, p.id)
        for b in s.buildings.values():
            if not b.wreck:
                assert shape.intersection(w.body(b).shape).area < 1e-6, (a.id, b.id)
    view = g.view(None)
    for seat, name in zip(("p1", "p2"), g.players, strict=True):
        assert s.sides[seat].carbonite >= 0
        prod, demand = energy(g, seat)
        v = view["players"][name]
        assert (v["energy_production"], v["energy_demand"]) == (prod, demand)
        assert v["blackout"] == (demand > prod)


def play_randomly(g: Nexo, seed: int) -> list[str]:
    """Plays random legal orders, checking invariants; returns the log."""
    rng = random.Random(seed)
    activated: set[tuple[int, str, str]] = set()
    log: list[str] = []
    while not g.is_over and g.state.round <= MAX_ROUNDS and len(log) < MAX_MOVES:
        p, move = choose(g, rng)
        rnd = g.state.round
        blackout = {seat: g.world().blackout(seat) for seat in ("p1", "p2")}
        events = g.play(p, move)
        log.append(move)
        for e in events:
            if e["kind"] == "activate":
                key = (rnd, e["phase"], e["unit"])
                assert key not in activated, f"{e['unit']} activated twice in {key}"
                activated.add(key)
            if e["kind"] == "produce":  # core §7.4: no production in Blackout
                assert not blackout[g.state.buildings[e["building"]].owner]
            if e["kind"] == "initiative":
                activated = {k for k in activated if k[0] >= g.state.round}
        check_invariants(g)
        if len(log) % 60 == 0:
            check_round_trip(g, rng)
    return log


def check_round_trip(g: Nexo, rng: random.Random) -> None:
    """Asserts that a restored copy plays the next orders exactly like the original."""
    h = GAMES["nexo"].from_json(g.to_json())
    for _ in range(4):
        if g.is_over:
            return
        p, move = choose(g, random.Random(rng.random()))
        assert g.legal_moves(p) == h.legal_moves(p)
        assert g.play(p, move) == h.play(p, move)
        assert g.to_json() == h.to_json()


@pytest.mark.parametrize(("battlefield", "seed"), [("crossroads", 11), ("dust_belt", 12)])
def test_random_play_keeps_every_invariant(battlefield: str, seed: int) -> None:
    g = Nexo.new(["ann", "bob"], seed=seed, options={"battlefield": battlefield})
    check_invariants(g)
    log = play_randomly(g, seed)
    print(battlefield, len(log), "orders,", g.state.round, "rounds", g.state.result)
    assert g.state.round >= 5 or g.is_over, f"only {len(log)} orders"


def test_random_play_on_a_generated_battlefield() -> None:
    g = Nexo.new(["ann", "bob"], seed=21, options={"battlefield": "random", "round_limit": 4})
    play_randomly(g, 21)
    assert g.is_over and g.view(None)["result"] in ("round_limit", "elimination", "stall")


def _midgame() -> dict[str, Any]:
    g = Nexo.new(["ann", "bob"], seed=3)
    rng = random.Random(3)
    for _ in range(40):
        g.play(*choose(g, rng))
    return g.to_json()


MIDGAME = _midgame()
WORDS = ["move", "dash", "shoot", "fight", "overwatch", "harvest", "build", "repair", "done", "pass",
         "produce", "construct", "scrap", "end", "first", "me", "a1", "A1", "b2", "K1", "C7", "99,99",
         "-1,5", "20,20", "trooper", "r90", ";", "rifle", ",", "1e9,1", "nan,1"]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=30), st.lists(st.sampled_from(WORDS), max_size=5).map(" ".join)))
def test_random_text_never_changes_a_game_it_is_refused_by(text: str) -> None:
    g = Nexo.from_json(MIDGAME)
    before = g.to_json()
    player = g.to_act()[0]
    try:
        g.play(player, text)
    except GameError:
        assert g.to_json() == before
