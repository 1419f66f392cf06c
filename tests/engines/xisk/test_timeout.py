"""The turn clock's moves for XISK (readings 16–19): skip does the least, forfeit resigns."""

from __future__ import annotations

import pytest

from engines.xisk import Xisk
from engines.xisk.state import NEUTRAL, Phase
from tests.engines.xisk.helpers import ALL, position
from tests.engines.xisk.test_attack import _last_country, until_conquest


def play_all(g: Xisk, player: str, moves: list[str]) -> None:
    """Plays ``moves`` for ``player`` one by one, as the host does (each must be accepted)."""
    for move in moves:
        g.play(player, move)


def _front(phase: Phase = Phase.SUPPLY, *, chips: dict[str, int] | None = None, **kw: object) -> Xisk:
    """ann owns alaska (2 chips), northwest-territory (4) and alberta (4); bob the rest (1 each)."""
    owners = {"alaska": "ann", "northwest-territory": "ann", "alberta": "ann"}
    chips = chips or {"alaska": 2, "northwest-territory": 4, "alberta": 4}
    return position(owners=owners, chips=chips, phase=phase, **kw)  # type: ignore[arg-type]


def test_xisk_timeout_skip_places_supply_on_largest_stack_and_ends_turn() -> None:
    g = _front(supply_left=3)
    moves = g.timeout_moves("ann", "skip")
    # northwest-territory and alberta tie at 4: the first in map order is the largest stack
    assert moves == ["place northwest-territory 1"] * 3 + ["end", "end"]
    play_all(g, "ann", moves)
    assert g.view(None)["countries"]["northwest-territory"]["chips"] == 7
    assert g.to_act() == ["bob"] and g.view(None)["phase"] == "supply"


def test_xisk_timeout_skip_places_on_the_stack_that_is_largest_now() -> None:
    g = _front(supply_left=2, chips={"alaska": 2, "northwest-territory": 4, "alberta": 5})
    assert g.timeout_moves("ann", "skip")[:2] == ["place alberta 1", "place alberta 1"]


def test_xisk_timeout_skip_redeems_a_compulsory_cardset_first() -> None:
    g = _front(supply_left=3, hands={"ann": ["AS", "KS", "QS", "JH", "2C"]})
    moves = g.timeout_moves("ann", "skip")
    assert moves[0] == "redeem AS KS QS" and moves[1:] == ["place northwest-territory 1"] * 4 + ["end", "end"]
    play_all(g, "ann", moves)
    assert g.view(None)["cards_held"]["ann"] == 2 and g.to_act() == ["bob"]


def test_xisk_timeout_skip_redeems_as_many_sets_as_are_compulsory() -> None:
    hand = ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7H"]
    g = _front(supply_left=3, hands={"ann": hand})
    moves = g.timeout_moves("ann", "skip")
    assert [m for m in moves if m.startswith("redeem")] == ["redeem AS KS QS", "redeem JS 10S 9S"]
    play_all(g, "ann", moves)
    assert g.view(None)["cards_held"]["ann"] == 2


def test_xisk_timeout_skip_makes_no_optional_redeem() -> None:
    g = _front(supply_left=3, hands={"ann": ["AS", "KS", "QS", "2C"]})
    moves = g.timeout_moves("ann", "skip")
    assert not any(m.startswith("redeem") for m in moves)
    play_all(g, "ann", moves)
    assert g.view(None)["cards_held"]["ann"] == 4


def test_xisk_timeout_skip_in_the_attack_phase_ends_it_and_skips_the_adjust() -> None:
    g = _front(Phase.ATTACK)
    assert g.timeout_moves("ann", "skip") == ["end", "end"]
    play_all(g, "ann", ["end", "end"])
    assert g.to_act() == ["bob"]


def test_xisk_timeout_skip_with_no_transfer_possible_ends_the_attack_only() -> None:
    g = position(owners={"alaska": "ann", "peru": "ann"}, chips={"alaska": 3}, phase=Phase.ATTACK)
    assert g.timeout_moves("ann", "skip") == ["end"]  # house reading 5: the adjust ends by itself


def test_xisk_timeout_skip_in_the_adjust_phase_makes_no_adjustment() -> None:
    g = _front(Phase.ADJUST)
    assert g.timeout_moves("ann", "skip") == ["end"]
    before = g.view(None)["countries"]
    g.play("ann", "end")
    assert g.view(None)["countries"] == before and g.to_act() == ["bob"]


def test_xisk_timeout_skip_answers_an_invade_with_the_minimum() -> None:
    g, _ = until_conquest(lambda s: position(owners={"alaska": "ann", "alberta": "ann"},
                                             chips={"alaska": 6}, seed=s), "ann", "attack alaska kamchatka")
    assert g.view(None)["phase"] == "invade"
    moves = g.timeout_moves("ann", "skip")
    assert moves == ["invade 0", "end", "end"]
    events = [e for m in moves for e in g.play("ann", m)]
    assert g.to_act() == ["bob"]
    assert any(e["kind"] == "draw" for e in events)  # a conquest earlier in the turn still draws its card


def test_xisk_timeout_skip_after_a_defeat_places_the_interim_supply() -> None:
    hands = {"ann": ["AS", "KS", "QH"], "bob": ["JD", "2C"]}
    g, _ = until_conquest(lambda s: _last_country(s, hands=hands), "ann", "attack alaska kamchatka")
    moves = g.timeout_moves("ann", "skip")
    assert moves[:2] == ["invade 0", "redeem AS QH JD"]  # 5 cards with bob's: the first set in deck order
    assert moves[2:] == ["place alaska 1"] * 2 + ["end", "end"]
    play_all(g, "ann", moves)
    assert g.to_act() == ["cy"]


def test_xisk_timeout_skip_claims_the_first_free_country_for_each_claim_in_a_row() -> None:
    for seed in range(1, 60):  # a deal whose first claimant holds the next card too
        g = Xisk.new(["ann", "bob", "cy"], seed=seed)
        queue = g.state.claim_queue
        if queue[0][1] == queue[1][1] != queue[2][1]:
            break
    else:
        raise AssertionError("no deal with two claims in a row")
    player = g.to_act()[0]
    moves = g.timeout_moves(player, "skip")
    assert moves == ["claim alaska", "claim northwest-territory"]
    play_all(g, player, moves)
    assert g.to_act() != [player] and g.view(None)["phase"] == "claim"


def test_xisk_timeout_skip_of_the_last_claim_stops_when_the_claiming_ends() -> None:
    g = Xisk.new(["ann", "bob"], seed=3, options={"cards_per_player": 1})
    first = g.to_act()[0]
    g.play(first, "claim peru")
    last = g.to_act()[0]
    assert g.timeout_moves(last, "skip") == ["claim alaska"]
    g.play(last, "claim alaska")
    assert g.view(None)["phase"] == "supply"


def test_xisk_timeout_skip_of_a_last_survivor_stops_at_their_next_turn() -> None:
    owners = {c: "ann" for c in ALL[:40]}
    g = position(owners=owners, rest=NEUTRAL, eliminated=("bob",), phase=Phase.ADJUST)
    number = g.view(None)["turn_number"]
    moves = g.timeout_moves("ann", "skip")
    assert moves == ["end"]
    play_all(g, "ann", moves)
    assert g.to_act() == ["ann"] and g.view(None)["turn_number"] == number + 1  # reading 7: ann plays on


def test_xisk_timeout_forfeit_resigns_and_ends_a_two_player_game() -> None:
    g = _front(Phase.ATTACK)
    assert g.timeout_moves("ann", "forfeit") == ["resign"]
    g.play("ann", "resign")
    assert g.is_over and g.winners == ["bob"]


def test_xisk_timeout_forfeit_in_a_three_player_game_leaves_the_others_playing_with_neutral_countries() -> None:
    owners = {"alaska": "ann", "alberta": "ann", "kamchatka": "bob"}
    g = position(("ann", "bob", "cy"), owners=owners, chips={"alaska": 5}, phase=Phase.SUPPLY, supply_left=3,
                 hands={"ann": ["AS", "2C"]})
    moves = g.timeout_moves("ann", "forfeit")
    assert moves == ["resign"]
    play_all(g, "ann", moves)
    view = g.view(None)
    assert not g.is_over and g.to_act() == ["bob"] and view["eliminated"] == ["ann"]
    assert view["countries"]["alaska"] == {"owner": NEUTRAL, "chips": 5}
    assert view["countries"]["alberta"]["owner"] == NEUTRAL and view["cards_held"]["ann"] == 0
    assert g.timeout_moves("ann", "skip") == []


def test_xisk_timeout_forfeit_while_claiming_resigns() -> None:
    g = Xisk.new(["ann", "bob", "cy"], seed=9)
    player = g.to_act()[0]
    assert g.timeout_moves(player, "forfeit") == ["resign"]
    g.play(player, "resign")
    assert not g.is_over and player in g.view(None)["eliminated"]


@pytest.mark.parametrize("policy", ["skip", "forfeit"])
def test_xisk_timeout_of_a_player_not_to_act_is_empty(policy: str) -> None:
    g = _front(supply_left=3)
    assert g.timeout_moves("bob", policy) == [] and g.timeout_moves("nobody", policy) == []


def test_xisk_timeout_once_the_game_is_over_is_empty() -> None:
    g = _front(Phase.ATTACK)
    g.play("ann", "resign")
    assert g.timeout_moves("bob", "skip") == [] and g.timeout_moves("ann", "forfeit") == []


def test_xisk_timeout_moves_never_change_the_game() -> None:
    g = _front(supply_left=3, hands={"ann": ["AS", "KS", "QS", "JH", "2C"]})
    before = g.to_json()
    g.timeout_moves("ann", "skip")
    g.timeout_moves("ann", "forfeit")
    assert g.to_json() == before


def test_xisk_timeout_policies_are_documented() -> None:
    assert set(Xisk.TIMEOUT_DOCS) == set(Xisk.ON_TIMEOUT) and Xisk.FORFEIT_MOVE == "resign"
