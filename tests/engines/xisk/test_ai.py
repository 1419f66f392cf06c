"""XISK bots: they see only their seat's view, always answer a legal move in time, and play sensibly."""

from __future__ import annotations

import ast
import random
import time
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import engines.xisk.ai as ai
from engines.core.ai import BUDGET, LEVELS, Choice, think
from engines.core.deck import DECK_INDEX
from engines.core.registry import KITS
from engines.xisk import Xisk
from engines.xisk.ai import choose
from engines.xisk.state import Phase
from tests.engines.xisk.helpers import ALL, BOARD, position

AUSTRALIA = ["indonesia", "new-guinea", "western-australia", "eastern-australia"]


def positions(games: int, moves: int, *, seed0: int = 0) -> Iterator[Xisk]:
    """Yields positions of seeded games of 2–6 players, played by a mix of bots and random moves."""
    for seed in range(seed0, seed0 + games):
        rnd = random.Random(seed)
        n = 2 + seed % 5
        options = {"cards_per_player": rnd.randint(1, 42 // n)} if seed % 3 == 2 else {}
        g = Xisk.new([f"p{i}" for i in range(n)], seed=seed, options=options)
        levels = {p: rnd.choice((*LEVELS, "random")) for p in g.players}
        for i in range(moves):
            if g.is_over:
                break
            seat = g.to_act()[0]
            legal = g.legal_moves(seat)
            yield g
            if levels[seat] == "random" or rnd.random() < 0.1:
                move = rnd.choice([m for m in legal if m != "resign"] or legal)
                if seat == g.players[-1] and i == moves // 2 and "resign" in legal:
                    move = "resign"  # now and then someone leaves: their countries turn neutral
            else:
                move = choose(g.view(seat), legal, seat, levels[seat], random.Random(i))
            g.play(seat, move)


def twin(g: Xisk, rnd: random.Random) -> Xisk:
    """Returns a copy of ``g`` whose other players hold other cards (and the deck and dice differ),
    while the seat to act sees exactly the same view."""
    t = g.clone()
    s = t.state
    seat = g.to_act()[0]
    if s.phase is Phase.CLAIM:
        head = DECK_INDEX[s.claim_queue[0][0]]
        claimed = {c["card"] for c in s.claims}
        spare = [c for c in s.deck if c not in claimed and DECK_INDEX[c] > head]
        for p, hand in s.hands.items():
            if p == seat:
                continue
            for i, card in enumerate(hand):
                if DECK_INDEX[card] > head and spare:
                    new = spare.pop(rnd.randrange(len(spare)))
                    s.deck[s.deck.index(new)] = card
                    hand[i] = new
            hand.sort(key=DECK_INDEX.__getitem__)
        s.claim_queue = sorted(([c, p] for p, h in s.hands.items() for c in h), key=lambda cp: DECK_INDEX[cp[0]])
    else:
        for p, hand in s.hands.items():
            if p == seat:
                continue
            for i, card in enumerate(hand):
                j = rnd.randrange(len(s.deck)) if s.deck else None
                if j is not None:
                    hand[i], s.deck[j] = s.deck[j], card
            hand.sort(key=DECK_INDEX.__getitem__)
        rnd.shuffle(s.deck)
    s.rng.state = rnd.getrandbits(32) + 1  # other dice to come
    assert t.view(seat) == g.view(seat)
    return t


class StrictView(Mapping[str, Any]):
    """A view that fails the test on any read of a key it does not hold, and records what was read."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        assert key in self.data, f"the policy read {key!r}, which view(seat) does not hold"
        self.read.add(key)
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


# -- what a bot may see ---------------------------------------------------------------------


def test_xisk_bot_sees_only_its_seat() -> None:
    """Two positions alike for the seat but not in the other hands, the deck or the dice to come:
    every level decides the same with the same rng seed; and it reads only keys of view(seat)."""
    rnd = random.Random(5)
    checked: dict[str, int] = {}
    secret_cards = 0
    for i, g in enumerate(positions(24, 160)):
        if i % 3:
            continue
        seat = g.to_act()[0]
        other = twin(g, rnd)
        hands_differ = any(other.state.hands[p] != g.state.hands[p] for p in g.players if p != seat)
        secret_cards += hands_differ
        legal = g.legal_moves(seat)
        assert other.legal_moves(seat) == legal
        for level, explain in [(lv, False) for lv in LEVELS] + [("normal", True)]:  # True: the hint
            view = StrictView(g.view(seat))
            a = choose(view, legal, seat, level, random.Random(i), explain=explain)
            b = choose(StrictView(other.view(seat)), legal, seat, level, random.Random(i), explain=explain)
            assert a == b, (i, level, explain)
            assert view.read <= set(g.view(seat)) - {"hands", "deck", "claim_queue", "rng"}
        phase = g.view(None)["phase"]
        checked[phase] = checked.get(phase, 0) + 1
    assert set(checked) >= {"claim", "supply", "attack", "invade", "adjust"}, checked
    assert secret_cards > 50


def test_think_gives_the_policy_the_seats_view_and_legal_moves_only() -> None:
    seen: list[tuple[Any, ...]] = []

    def spy(view: dict[str, Any], legal: list[str], seat: str, level: str, rng: random.Random, *,
            deadline: float, explain: bool = False) -> str | Choice:
        seen.append((view, legal, seat, level))
        return choose(view, legal, seat, level, rng, deadline=deadline, explain=explain)

    kit = KITS["xisk"]
    KITS.add(replace(kit, ai=spy))  # think() asks the game's kit for its policy
    try:
        g = position(owners={c: "ann" for c in AUSTRALIA}, chips={"indonesia": 6, "siam": 2},
                     hands={"ann": ["AS", "KH"], "bob": ["QS", "JD", "10C"]})
        move = think(g, "ann", "hard", random.Random(1))
    finally:
        KITS.add(kit)
    assert move in g.legal_moves("ann")
    (view, legal, seat, level), = seen
    assert view == g.view("ann") and legal == g.legal_moves("ann") and (seat, level) == ("ann", "hard")
    assert "QS" not in str(view)


def test_the_policy_imports_no_engine_state() -> None:
    """Only the pure helpers over the board data and the dice, never the state, rules or views."""
    allowed = {"engines.core.ai", "engines.core.deck", "engines.xisk.board", "engines.xisk.battle",
               "engines.xisk.ai_odds"}
    for name in ("ai.py", "ai_odds.py"):
        tree = ast.parse((Path(ai.__file__).parent / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("engines"):
                assert node.module in allowed, (name, node.module)
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("engines") for a in node.names), name


# -- always a legal move, in time -------------------------------------------------------------


def test_every_level_always_returns_a_move_play_accepts() -> None:
    times: dict[str, list[float]] = {level: [] for level in LEVELS}
    kinds: set[str] = set()
    for i, g in enumerate(positions(30, 260, seed0=100)):
        seat = g.to_act()[0]
        legal = g.legal_moves(seat)
        view = g.view(seat)
        for level in LEVELS:
            t = time.perf_counter()
            move = choose(view, legal, seat, level, random.Random(i))
            times[level].append(time.perf_counter() - t)
            assert move != "resign"
            if move not in legal:  # a move of its own making must still be legal
                g.clone().play(seat, move)
            kinds.add(move.split()[0])
    assert kinds >= {"claim", "redeem", "place", "attack", "invade", "adjust", "end"}
    for level, ts in times.items():
        ts.sort()
        assert ts[-1] < BUDGET, level
        assert ts[int(len(ts) * 0.99)] < 0.25, level


def test_crowded_boards_are_thought_through_within_the_budget() -> None:
    """Six players, huge stacks everywhere: the hard plans stay well inside the 2 s budget."""
    players = tuple(f"p{i}" for i in range(6))
    rnd = random.Random(3)
    owners = {c: players[i % 6] for i, c in enumerate(ALL)}
    chips = {c: rnd.randint(50, 400) for c in ALL}
    cases = [
        position(players, owners=owners, chips=chips, phase=Phase.SUPPLY, supply_left=300),
        position(players, owners=owners, chips=chips, phase=Phase.ATTACK),
        position(players, owners=owners, chips=chips, phase=Phase.ADJUST),
    ]
    inv = position(players, owners=owners, chips=chips, phase=Phase.INVADE)
    src = next(c for c in ALL if owners[c] == "p0")
    dst = next(n for n in sorted(BOARD.neighbours[src]) if owners[n] != "p0")
    inv.state.owner[dst], inv.state.chips[dst] = "p0", 3
    inv.state.invade = [src, dst]
    cases.append(inv)
    for g in cases:
        legal = g.legal_moves("p0")
        for level in LEVELS:
            t = time.perf_counter()
            move = choose(g.view("p0"), legal, "p0", level, random.Random(0))
            assert time.perf_counter() - t < BUDGET / 4
            assert move in legal


def test_no_level_resigns_even_when_lost() -> None:
    g = position(owners={"siam": "ann"}, chips={"siam": 1, "china": 30, "india": 30, "indonesia": 30})
    g.state.phase, g.state.supply_left = Phase.SUPPLY, 3
    for level in LEVELS:
        assert choose(g.view("ann"), g.legal_moves("ann"), "ann", level, random.Random(0)).startswith("place siam ")


# -- sensible play -------------------------------------------------------------------------


def _choose(g: Xisk, level: str, seat: str = "ann", seed: int = 0) -> str:
    return choose(g.view(seat), g.legal_moves(seat), seat, level, random.Random(seed))


def claim_position(mine: list[str], theirs: list[str]) -> Xisk:
    """Returns a two-player claiming with ann to claim; the countries not named are still free."""
    g = position(phase=Phase.CLAIM)
    s = g.state
    for c in ALL:
        s.owner[c] = "ann" if c in mine else "bob" if c in theirs else None
        s.chips[c] = 0 if s.owner[c] is None else 1
    s.hands = {"ann": ["AS", "QS"], "bob": ["KS", "JS"]}
    s.deck = [c for c in s.deck if c not in {"AS", "KS", "QS", "JS"}]
    s.claim_queue = [["AS", "ann"], ["KS", "bob"], ["QS", "ann"], ["JS", "bob"]]
    s.order, s.turn_index = [], 0
    return g


def test_claims_block_a_rival_about_to_own_a_continent() -> None:
    g = claim_position(mine=["alaska", "alberta"], theirs=AUSTRALIA[:3])
    for level in ("normal", "hard"):
        assert _choose(g, level) == "claim eastern-australia"


def test_claims_build_toward_a_continent_no_rival_has_entered() -> None:
    g = claim_position(mine=["venezuela", "brazil", "peru"], theirs=["alaska", "china", "egypt"])
    for level in ("normal", "hard"):
        assert _choose(g, level) == "claim argentina"


def test_a_compulsory_cardset_is_redeemed_at_every_level() -> None:
    hand = ["AS", "KS", "QH", "JD", "10C"]
    g = position(owners={c: "ann" for c in AUSTRALIA}, hands={"ann": hand}, phase=Phase.SUPPLY, supply_left=3)
    for level in LEVELS:
        assert _choose(g, level).startswith("redeem ")
    # normal and hard keep cards of different suits: they redeem with one spade only
    assert _choose(g, "hard") in ("redeem AS QH 10C", "redeem KS QH 10C", "redeem AS QH JD", "redeem KS QH JD",
                                  "redeem AS JD 10C", "redeem KS JD 10C")


def test_an_optional_cardset_is_redeemed_before_placing() -> None:
    g = position(owners={c: "ann" for c in AUSTRALIA}, hands={"ann": ["AS", "KH", "QD"]},
                 phase=Phase.SUPPLY, supply_left=3)
    for level in ("normal", "hard"):
        assert _choose(g, level) == "redeem AS KH QD"


def test_the_supply_goes_where_a_continent_can_be_completed() -> None:
    owners = {c: "ann" for c in AUSTRALIA[1:]} | {c: "ann" for c in ("india", "alaska", "iceland", "egypt", "peru")}
    chips = {"indonesia": 2, "brazil": 10, "argentina": 10, "venezuela": 10}  # South America is out of reach
    g = position(owners=owners, chips=chips, phase=Phase.SUPPLY, supply_left=6)
    for level in ("normal", "hard"):
        assert _choose(g, level) in ("place new-guinea 6", "place western-australia 6")
    move = _choose(g, "easy")
    country = move.split()[1]
    assert any(g.state.owner[n] != "ann" for n in BOARD.neighbours[country])  # easy places on a border too


def test_attacks_complete_a_continent_and_stop_against_bad_odds() -> None:
    owners = {c: "ann" for c in AUSTRALIA[1:]}
    g = position(owners=owners, chips={"new-guinea": 8, "indonesia": 2})
    for level in ("normal", "hard"):
        assert _choose(g, level) == "attack new-guinea indonesia"
    g = position(owners=owners, chips={"new-guinea": 2, "western-australia": 2, "indonesia": 12})
    for level in LEVELS:
        assert _choose(g, level) == "end"


def test_the_hint_says_why_from_what_the_policy_weighed() -> None:
    """The coach's why names the battle, its exact odds and what the conquest brings."""
    g = position(owners={c: "ann" for c in AUSTRALIA[1:]}, chips={"new-guinea": 8, "indonesia": 2})
    hint = choose(g.view("ann"), g.legal_moves("ann"), "ann", "normal", random.Random(1), explain=True)
    assert isinstance(hint, Choice) and hint.move == "attack new-guinea indonesia"
    assert hint.why.startswith("attack Indonesia from New Guinea: ") and "% to win" in hint.why
    assert "completes Australia" in hint.why and len(hint.why) <= 150


def test_the_hint_is_the_considered_move_never_a_slip() -> None:
    """``normal`` slips to the easy move on a share of its moves; the coach never does."""
    g = position(owners={c: "ann" for c in AUSTRALIA[1:]}, chips={"new-guinea": 8, "indonesia": 2})
    legal = g.legal_moves("ann")
    plays = {choose(g.view("ann"), legal, "ann", "normal", random.Random(i)) for i in range(60)}
    hints = {choose(g.view("ann"), legal, "ann", "normal", random.Random(i), explain=True).move for i in range(60)}
    assert len(plays) > 1 and hints == {"attack new-guinea indonesia"}


def test_the_turns_card_is_worth_a_fair_risk_for_the_first_conquest_only() -> None:
    chips = {c: 2 for c in ALL} | {"alaska": 3}
    g = position(owners={"alaska": "ann", "siam": "ann"}, chips=chips)  # siam: bob holds no continent whole
    for level in ("normal", "hard"):
        assert _choose(g, level).startswith("attack alaska ")  # 3 chips against 2 for a card
    g.state.conquered = True  # a card is coming already
    for level in ("normal", "hard"):
        assert _choose(g, level) == "end"


def test_an_invasion_moves_everything_forward_from_a_country_left_inside() -> None:
    owners = {"eastern-australia": "ann", "new-guinea": "ann", "western-australia": "ann"}
    g = position(owners=owners, chips={"western-australia": 9, "indonesia": 3}, phase=Phase.INVADE)
    g.state.owner["indonesia"] = "ann"
    g.state.invade = ["western-australia", "indonesia"]
    for level in ("normal", "hard"):
        assert _choose(g, level) == "invade 8"
    g.state.invade = ["indonesia", "western-australia"]  # the other way round: the taken country is inside
    g.state.chips["indonesia"], g.state.chips["western-australia"] = 9, 3
    for level in ("normal", "hard"):
        assert _choose(g, level) == "invade 0"


def test_the_adjust_brings_chips_from_inside_to_the_border() -> None:
    owners = {c: "ann" for c in AUSTRALIA}
    g = position(owners=owners, chips={"eastern-australia": 7, "siam": 5}, phase=Phase.ADJUST)
    for level in ("normal", "hard"):
        assert _choose(g, level) in ("adjust eastern-australia new-guinea 6",
                                     "adjust eastern-australia western-australia 6")
    g.state.chips["eastern-australia"] = 1
    g.state.chips["new-guinea"] = 1
    g.state.chips["indonesia"] = 2
    assert _choose(g, "hard") == "end"  # nothing inside to bring


def test_easy_is_close_to_random_but_never_absurd() -> None:
    owners = {c: "ann" for c in AUSTRALIA}
    g = position(owners=owners, chips={"indonesia": 2, "siam": 9})
    assert {_choose(g, "easy", seed=s) for s in range(20)} == {"end"}  # never 2 chips against 9
    g = position(owners=owners, chips={"indonesia": 9}, phase=Phase.SUPPLY, supply_left=5)
    places = {_choose(g, "easy", seed=s) for s in range(40)}
    assert all(m.startswith("place indonesia ") for m in places) and len(places) > 1  # only the border, any count
    g = position(owners=owners, chips={"indonesia": 30, "siam": 9})
    g.state.last_battle = {"attacker": "ann", "from": "indonesia", "to": "siam"}
    assert {_choose(g, "easy", seed=s) for s in range(20)} == {"attack indonesia siam"}  # a battle begun goes on
    g = position(owners=owners | {"siam": "ann"}, chips={"indonesia": 9}, phase=Phase.INVADE)
    g.state.invade = ["indonesia", "siam"]
    assert {_choose(g, "easy", seed=s) for s in range(10)} == {"invade 8"}  # nothing left behind inside


def test_games_of_easy_bots_end() -> None:
    for seed in range(4):
        g = Xisk.new(["p1", "p2"], seed=seed)
        rng = random.Random(seed)
        while not g.is_over and g.state.turn_number <= 300:
            seat = g.to_act()[0]
            g.play(seat, choose(g.view(seat), g.legal_moves(seat), seat, "easy", rng))
        assert g.is_over, seed


# -- strength (the 200-game bench is bench/ai.py) -------------------------------------------


def _match(level: str, opponent: str, games: int, turns: int) -> int:
    won = 0
    for seed in range(games):
        g = Xisk.new(["p1", "p2"], seed=seed)
        bot = "p1" if seed % 2 == 0 else "p2"
        rng = random.Random(seed)
        while not g.is_over and g.state.turn_number <= turns:
            seat = g.to_act()[0]
            legal = g.legal_moves(seat)
            if seat == bot or opponent != "random":
                lv = level if seat == bot else opponent
                move = choose(g.view(seat), legal, seat, lv, rng)
            else:
                move = rng.choice([m for m in legal if m != "resign"])
            g.play(seat, move)
        won += g.winners == [bot]
    return won


def test_hard_beats_random_in_short_seeded_games() -> None:
    assert _match("hard", "random", 10, 60) >= 9


def test_hard_beats_easy_in_short_seeded_games() -> None:
    assert _match("hard", "easy", 10, 60) >= 7
