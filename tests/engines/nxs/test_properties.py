"""Property tests: random legal play keeps every invariant; random text never changes a game."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import IllegalMove
from engines.nxs import Nxs
from engines.nxs.board import CELLS, cell_name
from engines.nxs.rules import Verdict, captures, is_legal, judge_move, slides
from engines.nxs.territory import held

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LAYOUTS = st.sampled_from(["short", "medium", "long"])
SEEDS = st.integers(min_value=0, max_value=2**32)
PLIES = st.integers(min_value=1, max_value=500)


def _pick(g: Nxs, rnd: random.Random) -> tuple[str, str]:
    """Returns a random legal move of the player to act (resigning about once in 300 moves)."""
    player = g.to_act()[0]
    moves = g.legal_moves(player)
    playable = moves if rnd.random() < 1 / 300 else moves[:-1]
    return player, rnd.choice(playable)


def _check(g: Nxs) -> None:
    v = g.view(None)
    cells = [p["cell"] for p in v["pieces"]]
    assert len(cells) == len(set(cells)), "two pieces on one hex"
    assert all(c in CELLS for c in cells), "a piece off the board"
    assert len(g.pos) == len(cells)
    for seat, player in enumerate(g.players):
        fresh = sorted(cell_name(h) for h in held(g.pos, seat))
        assert v["territory"][player] == fresh
        assert v["score"][player] == len(fresh)
    assert sum(p["seat"] == 0 for p in v["pieces"]) >= 1 and sum(p["seat"] == 1 for p in v["pieces"]) >= 1


@SETTINGS
@given(layout=LAYOUTS, seed=SEEDS, plies=PLIES)
def test_random_legal_play_keeps_the_invariants(layout: str, seed: int, plies: int) -> None:
    g = Nxs.new(["ann", "bob"], options={"layout": layout})
    rnd = random.Random(seed)
    for _ in range(plies):
        if g.is_over:
            assert g.to_act() == [] and all(g.legal_moves(p) == [] for p in g.players)
            break
        step = g.view(None)["step"]
        player, move = _pick(g, rnd)
        g.play(player, move)
        _check(g)
        if g.is_over:
            continue
        if step == "move":  # the mover always rotates next
            assert g.to_act() == [player] and g.view(None)["step"] == "rotate"
        else:
            assert g.to_act() != [player] and g.view(None)["step"] == "move"
            assert g.legal_moves(g.to_act()[0])[:-1], "a player to move has a legal move"


def _words() -> st.SearchStrategy[str]:
    cells = st.sampled_from([*CELLS, "z9", "a0", "h8"])
    verb = st.sampled_from(["move", "capture", "rotate", "resign", "MOVE", "pass", ""])
    tail = st.sampled_from(["left", "right", "l", "cw", "up", ""])
    structured = st.builds(lambda v, a, b, t: f"{v} {a} {b} {t}", verb, cells, cells, tail)
    rotate = st.builds(lambda a, t: f"rotate {a} {t}", cells, tail)
    return st.one_of(st.text(max_size=30), structured, rotate)


@SETTINGS
@given(layout=LAYOUTS, seed=SEEDS, plies=st.integers(0, 200),
       texts=st.lists(_words(), min_size=1, max_size=15))
def test_random_text_never_changes_the_state(layout: str, seed: int, plies: int, texts: list[str]) -> None:
    g = Nxs.new(["ann", "bob"], options={"layout": layout})
    rnd = random.Random(seed)
    for _ in range(plies):
        if g.is_over:
            break
        g.play(*_pick(g, rnd))
    for text in texts:
        player = g.to_act()[0] if g.to_act() else "ann"
        before = g.to_json()
        try:
            g.play(player, text)
        except IllegalMove:
            assert g.to_json() == before
        else:
            _check(g)


@SETTINGS
@given(layout=LAYOUTS, seed=SEEDS, plies=PLIES, cut=st.integers(0, 400))
def test_saved_game_plays_on_identically(layout: str, seed: int, plies: int, cut: int) -> None:
    g = Nxs.new(["ann", "bob"], options={"layout": layout})
    rnd = random.Random(seed)
    h: Nxs | None = None
    for i in range(plies):
        if i == cut:
            h = Nxs.from_json(g.to_json())
        if g.is_over:
            break
        player, move = _pick(g, rnd)
        if h is not None:
            assert h.legal_moves(player) == g.legal_moves(player)
        g.play(player, move)
        if h is not None:
            h.play(player, move)
            assert h.to_json() == g.to_json()
    if h is not None:
        assert h.view(None) == g.view(None) and h.winners == g.winners


@settings(max_examples=15, deadline=None)
@given(layout=LAYOUTS, seed=SEEDS, plies=st.integers(1, 300), target=st.integers(3, 12))
def test_fast_close_call_check_agrees_with_the_full_judgement(
    layout: str, seed: int, plies: int, target: int
) -> None:
    g = Nxs.new(["ann", "bob"], options={"layout": layout, "target": target})
    rnd = random.Random(seed)
    for _ in range(plies):
        if g.is_over:
            break
        seat, pos = g.turn, g.pos
        for src in [h for h, p in pos.items() if p.owner == seat]:
            for dst in slides(pos, src, g.ships) + captures(pos, src, g.ships):
                verdict = judge_move(pos, src, dst, seat, g.targets, g.scores)[0]
                assert is_legal(pos, src, dst, seat, g.targets, g.scores) == (verdict is not Verdict.ILLEGAL)
        g.play(*_pick(g, rnd))
