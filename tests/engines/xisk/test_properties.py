"""Properties of random play: invariants after every move; bad input never changes a game."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import IllegalMove, NotYourTurn
from engines.core.deck import DECK_INDEX, STANDARD_DECK
from engines.xisk import Xisk
from engines.xisk.moves import parse
from tests.engines.xisk.helpers import ALL, BOARD, greedy_move, random_move

FAST = settings(max_examples=25, deadline=None)


def expected_supply(view: dict[str, Any], player: str) -> int:
    """Computes the turn supply from a view alone (an independent reading of the rule)."""
    owned = {c for c, v in view["countries"].items() if v["owner"] == player}
    bonus = sum(k.bonus for k in BOARD.continents.values() if set(k.countries) <= owned)
    return max(3, len(owned) // 3) + bonus


def new_game(seed: int, n: int, cpp: int | None) -> Xisk:
    """Returns a new game of n players; cpp (when given) is capped at 42 ÷ n."""
    options = {} if cpp is None else {"cards_per_player": min(cpp, 42 // n)}
    return Xisk.new([f"p{i}" for i in range(n)], seed=seed, options=options)


def check_invariants(g: Xisk, before: dict[str, Any], events: list[dict[str, Any]],
                     dealt: dict[str, str]) -> None:
    """Asserts every invariant of the state after one move."""
    view, s = g.view(None), g.state
    claiming = view["phase"] == "claim"
    for c in ALL:
        owner, chips = view["countries"][c]["owner"], view["countries"][c]["chips"]
        if claiming and owner is None:
            assert chips == 0
        else:
            assert owner in g.players or owner == "neutral", (c, owner)
            assert chips >= 1, (c, chips)
    cards = s.deck + [c for h in s.hands.values() for c in h]
    assert sorted(cards, key=DECK_INDEX.__getitem__) == STANDARD_DECK
    assert view["sets_redeemed"] >= before["sets_redeemed"]
    assert view["cards_held"] == {p: len(h) for p, h in s.hands.items()}
    for p in view["eliminated"]:
        assert not any(v["owner"] == p for v in view["countries"].values())
        assert view["cards_held"][p] == 0 and p not in g.to_act()
    if any(e["kind"] == "turn" for e in events) and not g.is_over:
        assert view["supply_left"] == expected_supply(view, view["turn"])
    for e in events:
        if e["kind"] == "claim":
            assert e["card"] == min(dealt, key=DECK_INDEX.__getitem__)
            assert dealt.pop(e["card"]) == e["player"]
        if e["kind"] == "resign":  # a resigner's claims still to come are dropped (reading 12)
            for card in [c for c, p in dealt.items() if p == e["player"] or g.is_over]:
                del dealt[card]  # and once one player is left, no claim is made any more
    if not claiming:
        assert not dealt
    if g.is_over and any(e["kind"] == "resign" for e in events):  # reading 13: the last player left wins
        assert g.to_act() == [] and [p for p in g.players if p not in view["eliminated"]] == g.winners
    elif g.is_over:
        assert g.to_act() == [] and len({v["owner"] for v in view["countries"].values()}) == 1
    else:
        assert len(g.to_act()) == 1 and g.to_act()[0] not in view["eliminated"]


def _out_of_turn(g: Xisk, rnd: random.Random) -> None:
    others = [p for p in g.players if p not in g.to_act()]
    if others and not g.is_over:
        saved = g.to_json()
        player = rnd.choice(others)
        move = rnd.choice(g.legal_moves(g.to_act()[0]))
        try:
            g.play(player, move)
        except NotYourTurn:
            pass
        else:
            raise AssertionError(f"{player} played {move} out of turn")
        assert g.to_json() == saved


@FAST
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6), cpp=st.none() | st.integers(1, 4))
def test_random_play_keeps_every_invariant(seed: int, n: int, cpp: int | None) -> None:
    g = new_game(seed, n, cpp)
    rnd = random.Random(seed)
    dealt = {c: p for p in g.players for c in g.view(p)["hand"]}
    for i in range(250):
        if g.is_over:
            break
        before = g.view(None)
        events = g.play(*random_move(g, rnd, aggressive=0.8))
        check_invariants(g, before, events, dealt)
        if i % 7 == 0:
            _out_of_turn(g, rnd)


@FAST
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6), cpp=st.none() | st.integers(1, 4))
def test_random_play_with_resignations_keeps_every_invariant(seed: int, n: int, cpp: int | None) -> None:
    g = new_game(seed, n, cpp)
    rnd = random.Random(seed)
    dealt = {c: p for p in g.players for c in g.view(p)["hand"]}
    for _ in range(250):
        if g.is_over:
            break
        before = g.view(None)
        events = g.play(*random_move(g, rnd, aggressive=0.8, resign=0.03))
        check_invariants(g, before, events, dealt)
        assert Xisk.from_json(g.to_json()).to_json() == g.to_json()


def _midgame(seed: int, n: int, moves: int) -> Xisk:
    g = new_game(seed, n, 2 if seed % 2 else None)
    rnd = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        g.play(*random_move(g, rnd, aggressive=0.8))
    return g


def _assert_refused_unchanged(g: Xisk, player: str, text: str, saved: str, why: str) -> None:
    """Asserts that ``text`` raises IllegalMove and leaves the game byte-identical to ``saved``."""
    try:
        g.play(player, text)
    except IllegalMove:
        pass
    else:
        raise AssertionError(f"{text!r} was accepted{why}")
    assert g.to_json() == saved


@FAST
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6), moves=st.integers(0, 80),
       text=st.text(max_size=40))
def test_random_text_raises_and_never_changes_the_game(seed: int, n: int, moves: int, text: str) -> None:
    g = _midgame(seed, n, moves)
    if g.is_over:
        return
    saved = g.to_json()
    player = g.to_act()[0]
    try:
        canonical = str(parse(text))
    except IllegalMove:
        canonical = None
    if canonical in g.legal_moves(player):
        return
    _assert_refused_unchanged(g, player, text, saved, "")


WORDS = st.sampled_from([*ALL, "atlantis", "Alaska"])
COUNTS = st.integers(0, 40).map(str)
CARDS = st.sampled_from(STANDARD_DECK)
WELL_FORMED = st.one_of(
    st.builds(lambda c: f"claim {c}", WORDS),
    st.builds(lambda a, b, c: f"redeem {a} {b} {c}", CARDS, CARDS, CARDS),
    st.builds(lambda c, n: f"place {c} {n}", WORDS, COUNTS),
    st.builds(lambda a, b: f"attack {a} {b}", WORDS, WORDS),
    st.builds(lambda n: f"invade {n}", COUNTS),
    st.builds(lambda a, b, n: f"adjust {a} {b} {n}", WORDS, WORDS, COUNTS),
    st.just("end"),
    st.just("resign"),
)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6), moves=st.integers(0, 120), text=WELL_FORMED)
def test_well_formed_illegal_moves_raise_and_change_nothing(seed: int, n: int, moves: int,
                                                            text: str) -> None:
    g = _midgame(seed, n, moves)
    if g.is_over:
        return
    player = g.to_act()[0]
    try:
        canonical = str(parse(text))
    except IllegalMove:
        return
    saved = g.to_json()
    if canonical in g.legal_moves(player):
        g.play(player, text)
        return
    _assert_refused_unchanged(g, player, text, saved, " though not among the legal moves")


def test_greedy_games_keep_every_invariant_to_the_end() -> None:
    for seed, n in ((1, 2), (2, 3), (3, 3)):
        g = new_game(seed, n, None)
        dealt = {c: p for p in g.players for c in g.view(p)["hand"]}
        for _ in range(6000):
            if g.is_over:
                break
            before = g.view(None)
            events = g.play(*greedy_move(g))
            check_invariants(g, before, events, dealt)
        assert g.is_over and g.winners == [g.view(None)["winner"]]
        assert events[-1]["kind"] == "win"
