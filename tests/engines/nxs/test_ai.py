"""NXS bots: legal moves at every level, the view as the only input, sense, think time (strength: bench/ai.py)."""

from __future__ import annotations

import copy
import random
import time
from collections.abc import Iterator

import pytest

from engines.core import ai as core_ai
from engines.nxs import Nxs, ai
from engines.nxs import ai_board as fast
from engines.nxs.board import CELLS, cell_name
from engines.nxs.rules import Verdict, captures, first_steps, judge_move
from engines.nxs.territory import scores
from tests.engines.nxs.scenario import ANN, BOB

LAYOUTS = ("short", "medium", "long")


def positions(count: int, seed: int, max_plies: int = 160, target: int = 10) -> Iterator[Nxs]:
    """Yields ``count`` running games reached by random play (either step, any layout)."""
    rnd = random.Random(seed)
    made = 0
    while made < count:
        g = Nxs.new([ANN, BOB], options={"layout": rnd.choice(LAYOUTS), "target": target})
        for _ in range(rnd.randrange(max_plies)):
            if g.is_over:
                break
            p = g.to_act()[0]
            g.play(p, rnd.choice(g.legal_moves(p)[:-1]))
        if not g.is_over:
            made += 1
            yield g


def ask(g: Nxs, level: str, seed: int = 0) -> str:
    p = g.to_act()[0]
    return ai.choose(g.view(p), g.legal_moves(p), p, level, random.Random(seed))


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A short clock for the hard search, so many positions can be tried."""
    monkeypatch.setattr(ai, "HARD_BUDGET", 0.1)


@pytest.fixture
def exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hard search bounded by depth, not by the clock: two asks give one answer, however loaded the machine."""
    monkeypatch.setattr(ai, "HARD_BUDGET", 60.0)
    monkeypatch.setattr(ai, "MAX_DEPTH", 2)


# -- the fast board agrees with the engine ---------------------------------------------


def test_fast_board_agrees_with_the_rules() -> None:
    for g in positions(60, seed=11):
        b = fast.from_view(g.view(g.to_act()[0]))
        assert b.scores == scores(g.pos)
        assert b.to_move == g.turn and b.step == g.step.value
        for seat in (0, 1):
            engine = sorted((k, cell_name(a), cell_name(c)) for k, a, c in first_steps(g.pos, seat, g.ships, g.targets))
            mine = sorted(("capture" if cap else "move", fast.name(s), fast.name(d))
                          for s, d, cap, _a, _b, _v in fast.first_steps(b.pos, seat, b.targets, b.scores))
            assert mine == engine


# -- every level plays a legal move ----------------------------------------------------


@pytest.mark.usefixtures("quick")
@pytest.mark.parametrize("level", core_ai.LEVELS)
def test_every_level_returns_a_move_play_accepts(level: str) -> None:
    for k, g in enumerate(positions(40, seed=3)):
        p = g.to_act()[0]
        move = ask(g, level, seed=k)
        assert move in g.legal_moves(p) and move != "resign"
        g.play(p, move)  # accepted


@pytest.mark.usefixtures("quick")
@pytest.mark.parametrize("level", core_ai.LEVELS)
def test_whole_games_at_every_level_through_the_contract(level: str) -> None:
    assert core_ai.policy("nxs") is ai.choose
    g = Nxs.new([ANN, BOB], options={"layout": "short"})
    rng = random.Random(5)
    for _ in range(60):
        if g.is_over:
            break
        p = g.to_act()[0]
        g.play(p, core_ai.think(g, p, level, rng))


def test_resign_only_when_nothing_else_is_legal() -> None:
    view = Nxs.new([ANN, BOB]).view(ANN)
    for level in core_ai.LEVELS:
        assert ai.choose(view, ["resign"], ANN, level, random.Random(0)) == "resign"


@pytest.mark.usefixtures("exact")
def test_same_seed_same_move() -> None:
    for g in positions(8, seed=21):
        for level in core_ai.LEVELS:
            assert ask(g, level, seed=4) == ask(g, level, seed=4)


# -- the bot sees the view only --------------------------------------------------------


@pytest.mark.usefixtures("exact")
def test_the_policy_reads_only_what_it_needs_of_the_view() -> None:
    """Keys the position does not depend on may go or change, a private key may be added: same move."""
    for k, g in enumerate(positions(10, seed=8)):
        p = g.to_act()[0]
        view, legal = g.view(p), g.legal_moves(p)
        noisy = copy.deepcopy(view)
        for key in ("territory", "score", "captured", "colours", "layout", "result", "quiet_turns"):
            noisy.pop(key, None)
        noisy["hand"] = ["a secret that is not NXS's"]
        for piece in noisy["pieces"]:
            piece["name"] = "?"
        for level in core_ai.LEVELS:
            assert ai.choose(noisy, list(legal), p, level, random.Random(k)) == \
                ai.choose(copy.deepcopy(view), list(legal), p, level, random.Random(k))


@pytest.mark.usefixtures("quick")
def test_the_policy_never_touches_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """choose is given a dict and a list: it neither calls the game nor changes what it is given."""
    games = list(positions(6, seed=9))
    asked = [(g.view(g.to_act()[0]), g.legal_moves(g.to_act()[0]), g.to_act()[0]) for g in games]

    def forbidden(*_a: object, **_k: object) -> None:
        raise AssertionError("the bot called into the game")

    for method in ("view", "legal_moves", "play", "apply", "dump_state", "load_state", "clone", "to_json",
                   "from_position", "new"):
        monkeypatch.setattr(Nxs, method, forbidden)
    for view, legal, p in asked:
        before = (copy.deepcopy(view), list(legal))
        for level in core_ai.LEVELS:
            move = ai.choose(view, legal, p, level, random.Random(1))
            assert move in legal
        assert (view, legal) == before


def test_nxs_has_no_secrets_so_the_view_is_the_whole_position() -> None:
    """What the bot rebuilds from a seat's view is the game's own position: both seats see the same."""
    assert not Nxs.HAS_SECRETS
    for g in positions(10, seed=12):
        assert g.view(ANN) == g.view(BOB) == g.view(None)
        b = fast.from_view(g.view(ANN))
        assert b.pos == {fast.index(cell_name(h)): fast.code(p.owner, p.ship, p.facing) for h, p in g.pos.items()}
        assert b.targets == g.targets


# -- sense -----------------------------------------------------------------------------


def _hangs(g: Nxs, move: str) -> tuple[bool, float]:
    """Plays ``move`` on a copy; returns whether it won and the best ship the opponent may then take."""
    h = Nxs.from_json(g.to_json())
    seat = h.turn
    h.play(h.to_act()[0], move)
    if h.is_over:
        return True, 0.0
    best = 0.0
    for at, piece in h.pos.items():
        if piece.owner != seat:
            for t in captures(h.pos, at, h.ships):
                best = max(best, ai.SHIP_VALUE[h.pos[t].ship])
    return False, best


def test_easy_never_gives_a_ship_away_when_it_need_not() -> None:
    checked = 0
    for g in positions(80, seed=5):
        if g.step.value != "move":
            continue
        p = g.to_act()[0]
        moves = g.legal_moves(p)[:-1]
        now = max((ai.SHIP_VALUE[g.pos[t].ship] for at, pc in g.pos.items() if pc.owner != g.turn
                   for t in captures(g.pos, at, g.ships)), default=0.0)
        info = {m: _hangs(g, m) for m in moves}
        if any(won for won, _ in info.values()):
            continue
        safe = {m for m, (_w, loss) in info.items() if loss <= now and not m.startswith("capture")}
        if not safe:
            continue
        for seed in range(3):
            pick = ask(g, "easy", seed=seed)
            loss = info[pick][1]
            prey = ai.SHIP_VALUE[g.pos[CELLS[pick.split()[2]]].ship] if pick.startswith("capture") else 0.0
            assert loss <= max(now, prey), (pick, loss, now)
            checked += 1
    assert checked > 20


@pytest.mark.usefixtures("quick")
@pytest.mark.parametrize("level", core_ai.LEVELS)
def test_every_level_takes_a_win_in_one(level: str) -> None:
    found = 0
    for g in positions(40, seed=17, max_plies=200, target=3):
        if g.step.value != "move":
            continue
        moves = g.legal_moves(g.to_act()[0])[:-1]
        wins = {m for m in moves if _hangs(g, m)[0]}
        if wins and len(wins) < len(moves):
            found += 1
            assert ask(g, level, seed=found) in wins
    assert found >= 4


@pytest.mark.usefixtures("quick")
@pytest.mark.parametrize("level", core_ai.LEVELS)
def test_no_level_hands_the_opponent_a_win_in_one(level: str) -> None:
    checked = 0
    for g in positions(40, seed=14, max_plies=200, target=4):
        if g.step.value != "move":
            continue
        p = g.to_act()[0]
        moves = g.legal_moves(p)[:-1]

        def gives(move: str, g: Nxs = g, p: str = p) -> bool:
            """Whether the opponent may win at once after ``move`` (the rotation never changes that)."""
            h = Nxs.from_json(g.to_json())
            h.play(p, move)
            if h.is_over:
                return False
            them = 1 - g.turn
            return any(judge_move(h.pos, a, b, them, h.targets, h.scores)[0] is not Verdict.GOES_ON
                       for _k, a, b in first_steps(h.pos, them, h.ships, h.targets))

        bad = {m for m in moves if gives(m)}
        if not bad or len(bad) == len(moves):
            continue
        assert ask(g, level) not in bad
        checked += 1
    assert checked >= 4


def test_the_hint_says_what_the_move_does() -> None:
    """The coach's why is the move's own facts: the ship, the territory after it, a ship left open."""
    g = Nxs.new([ANN, BOB])
    legal = g.legal_moves(ANN)
    hint = ai.choose(g.view(ANN), legal, ANN, "normal", random.Random(1), explain=True)
    assert isinstance(hint, core_ai.Choice) and hint.move in legal
    assert hint.move == ai.choose(g.view(ANN), legal, ANN, "normal", random.Random(1))
    src, dst = hint.move.split()[1:]
    assert hint.why.startswith("your ") and f"{src} to {dst}" in hint.why and "territory " in hint.why
    assert len(hint.why) <= 150


def test_the_hint_names_the_ship_a_capture_takes() -> None:
    g = Nxs.new([ANN, BOB])
    board = fast.from_view(g.view(ANN))
    src = next(i for i, c in board.pos.items() if fast.OWNER[c] == 0 and fast.SHIP[c] == "frigate")
    dst = next(i for i, c in board.pos.items() if fast.OWNER[c] == 1 and fast.SHIP[c] == "sloop")
    why = ai.why(board, 0, f"capture {fast.name(src)} {fast.name(dst)}")
    assert why.startswith(f"your frigate takes the sloop on {fast.name(dst)}: territory ")


# -- think time and strength -----------------------------------------------------------


def test_hard_budget_leaves_a_margin() -> None:
    assert ai.HARD_BUDGET <= core_ai.BUDGET / 2


@pytest.mark.parametrize("layout", LAYOUTS)
def test_think_time_stays_within_the_budget(layout: str) -> None:
    rnd = random.Random(len(layout))
    g = Nxs.new([ANN, BOB], options={"layout": layout})
    for _ in range(30):
        p = g.to_act()[0]
        g.play(p, rnd.choice(g.legal_moves(p)[:-1]))
    worst = 0.0
    for level in core_ai.LEVELS:
        for seed in range(2):
            t = time.perf_counter()
            ask(g, level, seed=seed)
            worst = max(worst, time.perf_counter() - t)
    assert worst <= ai.HARD_BUDGET + 0.5 <= core_ai.BUDGET


