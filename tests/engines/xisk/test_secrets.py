"""Hidden hands: no held card reaches the public view or a public event."""

from __future__ import annotations

import random

from engines.core import is_public
from engines.core.deck import deck_order
from engines.xisk import Xisk
from tests.engines.xisk.helpers import leaked, random_move

GAMES = 200
MOVES = 80


def _held(g: Xisk) -> set[str]:
    return {c for h in g.state.hands.values() for c in h}


def test_no_held_card_in_the_public_view_or_public_events_over_200_games() -> None:
    private_seen = 0
    for seed in range(GAMES):
        n = 2 + seed % 5
        options = {"cards_per_player": 1 + seed % 3} if seed % 2 else {}
        g = Xisk.new([f"p{i}" for i in range(n)], seed=seed, options=options)
        rnd = random.Random(seed)
        public = [e for e in g.opening_events() if is_public(e)]
        assert not leaked(_held(g), public)
        for i in range(MOVES):
            if g.is_over:
                break
            events = g.play(*random_move(g, rnd, aggressive=0.9))
            held = _held(g)
            public = [e for e in events if is_public(e)]
            private_seen += len(events) - len(public)
            assert not leaked(held, public), (seed, leaked(held, public))
            assert not leaked(held, g.view(None)), seed
            for e in events:
                assert e.get("to") in (None, *g.players)
            if i % 4:
                continue
            player = rnd.choice(g.players)
            others = held - set(g.state.hands[player])
            assert not leaked(others, g.view(player))
    assert private_seen > 0


def test_view_of_a_player_adds_only_their_hand() -> None:
    g = Xisk.new(["ann", "bob"], seed=3)
    public = g.view(None)
    assert "hand" not in public and "redeemable" not in public
    mine = g.view("ann")
    assert set(mine) - set(public) == {"hand", "redeemable"}
    assert mine["hand"] == deck_order(mine["hand"])
    assert len(mine["hand"]) == public["cards_held"]["ann"] == 21
