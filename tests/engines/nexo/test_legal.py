"""Tests of the sampled legal moves (DESIGN "The engine contract": finite, every kind included)."""

from __future__ import annotations

import random

from engines.nexo.game import Nexo
from tests.engines.nexo.support import HQ1, scenario_game, unit


def kinds(moves: list[str]) -> set[str]:
    """Returns the verbs of a list of orders."""
    return {m.split()[0] for m in moves}


def test_the_action_phase_sample_holds_every_kind_of_order() -> None:
    enemies = [unit("b5", "trooper", 20, 21.5), unit("b6", "trooper", 30, 30), unit("b7", "trooper", 40, 55)]
    g = scenario_game([unit("a5", "trooper", 20, 20)], enemies, phase="initiative")
    g.play("ann", "first me")
    moves = g.legal_moves("ann")
    assert kinds(moves) == {"move", "dash", "shoot", "fight", "overwatch", "done", "pass", "scrap", "concede"}
    assert {"shoot a5 b5 rifle", "shoot a5 b6 rifle", "fight a5 b5 knife"} <= set(moves)
    assert g.state.sides["p1"].passes == 2  # 1 unit against 3
    g.play("ann", "done a5")
    assert "pass" not in g.legal_moves("bob") and g.legal_moves("ann") == []  # not ann's turn


def test_the_worker_phase_sample_holds_harvest_build_and_repair() -> None:
    site = {"id": "A2", "type": "relay", "x": 12, "y": 14, "bp": 0}
    hq = {**HQ1, "hp": 30}
    g = scenario_game([unit("a1", "drudge", 10, 16), unit("a2", "drudge", 22, 8.6)],
                      [unit("b1", "drudge", 34, 48)], b1=[hq, site])
    moves = g.legal_moves("ann")
    assert {"harvest a1 K1", "build a1 A2", "repair a2 A1", "done a1", "done a2"} <= set(moves)
    assert any(m.startswith("move a1 ") for m in moves) and "dash" not in kinds(moves)


def test_the_production_sample_holds_produce_construct_and_end() -> None:
    foundry = {"id": "A2", "type": "foundry", "x": 12, "y": 6}
    g = scenario_game([], [unit("b5", "trooper", 20, 50)], phase="production", b1=[HQ1, foundry],
                      carbonite=400)
    moves = g.legal_moves("ann")
    assert {"produce A1 drudge", "produce A2 trooper", "end"} <= set(moves)
    assert kinds(moves) == {"produce", "construct", "end", "scrap", "concede"}


def test_every_sampled_order_is_accepted_by_play() -> None:
    for bf in ("crossroads", "dust_belt"):
        g = Nexo.new(["ann", "bob"], seed=5, options={"battlefield": bf})
        rng = random.Random(5)
        for step in range(160):
            p = g.to_act()[0]
            moves = g.legal_moves(p)
            if step % 8 == 0:
                saved = g.to_json()
                for m in moves:
                    Nexo.from_json(saved).play(p, m)
            g.play(p, rng.choice([m for m in moves if m != "concede" and not m.startswith("scrap")]))


def test_the_bulk_site_test_agrees_with_construct_problem() -> None:
    """legal_moves tests sites in bulk (SiteContext.fits); it must agree with the one-by-one test."""
    from engines.nexo import production

    wall = [{"id": "S1", "type": "sealed", "poly": [[26, 10], [30, 10], [30, 14], [26, 14]]},
            {"id": "W1", "type": "barricade", "line": [[12, 14], [18, 14]]},
            {"id": "R1", "type": "ruin", "poly": [[14, 18], [20, 18], [20, 22], [14, 22]]}]
    b1 = [HQ1, {"id": "A2", "type": "foundry", "x": 12, "y": 6}, {"id": "A3", "type": "relay", "x": 22, "y": 16},
          {"id": "A4", "type": "generator", "x": 33, "y": 5, "hp": 0}]
    g = scenario_game([unit("a1", "drudge", 17, 10), unit("a2", "drudge", 23.3, 12)],
                      [unit("b5", "trooper", 28, 18), unit("b6", "outrider", 10, 21)], phase="production",
                      b1=b1, terrain=wall)
    w = g.world()
    ctx = production.SiteContext(w, "p1")
    for btype in ("relay", "foundry", "turret", "generator"):
        bt = w.faction.buildings[btype]
        cands = [(x / 2, y / 2) for x in range(0, 89, 3) for y in range(0, 70, 3)]
        fits = ctx.fits(w, [production.site_shape(bt, x, y, 0) for x, y in cands])
        expect = [production.construct_problem(w, "p1", btype, pos, 0) is None for pos in cands]
        assert list(fits) == expect and any(expect) and not all(expect)
