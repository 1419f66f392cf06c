"""``resign`` (readings 12–15): leaving a game, which the rulebook has no move for."""

from __future__ import annotations

import pytest

from engines import BadNotation, IllegalMove
from engines.core.deck import STANDARD_DECK
from engines.xisk import Xisk
from engines.xisk.moves import parse
from engines.xisk.state import NEUTRAL, Phase
from tests.engines.xisk.helpers import ALL, position
from tests.engines.xisk.test_attack import _last_country, until_conquest


def _three(phase: Phase = Phase.ATTACK, **kw: object) -> Xisk:
    """ann owns alaska (4 chips) and alberta (2), bob owns kamchatka (3) and peru, cy the rest."""
    owners = {"alaska": "ann", "alberta": "ann", "kamchatka": "bob", "peru": "bob"}
    chips = {"alaska": 4, "alberta": 2, "kamchatka": 3}
    return position(("ann", "bob", "cy"), owners=owners, chips=chips, phase=phase, **kw)  # type: ignore[arg-type]


def test_resign_is_written_resign_alone() -> None:
    assert str(parse("  ReSiGn ")) == "resign"
    with pytest.raises(BadNotation, match="write it like 'resign'"):
        parse("resign now")


@pytest.mark.parametrize("phase", [Phase.SUPPLY, Phase.ATTACK, Phase.ADJUST, Phase.CARDSET])
def test_resign_is_legal_in_every_phase_and_listed_last(phase: Phase) -> None:
    g = _three(phase, supply_left=2)
    assert g.legal_moves("ann")[-1] == "resign"
    assert "resign" not in g.legal_moves("bob")  # only the player to act may move at all


def test_resign_is_legal_while_claiming() -> None:
    g = Xisk.new(["ann", "bob", "cy"], seed=2)
    assert g.legal_moves(g.to_act()[0])[-1] == "resign"


def test_resign_turns_the_resigners_countries_neutral_keeping_their_chips() -> None:
    g = _three()
    events = g.play("ann", "resign")
    view = g.view(None)
    assert view["countries"]["alaska"] == {"owner": NEUTRAL, "chips": 4}
    assert view["countries"]["alberta"] == {"owner": NEUTRAL, "chips": 2}
    assert events[0]["kind"] == "resign" and events[0]["countries"] == ["alaska", "alberta"]
    assert events[0]["text"] == "ann resigns: 2 countries turn neutral."


def test_resign_returns_the_cards_to_the_deck_shuffled() -> None:
    g = _three(hands={"ann": ["AS", "KS"]})
    g.play("ann", "resign")
    s = g.state
    assert s.hands["ann"] == [] and g.view(None)["cards_held"]["ann"] == 0
    assert sorted(s.deck + [c for h in s.hands.values() for c in h]) == sorted(STANDARD_DECK)
    assert s.deck != [c for c in STANDARD_DECK if c not in ("AS", "KS")] + ["AS", "KS"]


def test_resign_in_a_three_player_game_passes_the_turn_and_the_others_play_on() -> None:
    g = _three()
    events = g.play("ann", "resign")
    assert not g.is_over and g.to_act() == ["bob"] and g.view(None)["phase"] == "supply"
    assert g.view(None)["eliminated"] == ["ann"]
    assert [e["kind"] for e in events] == ["resign", "turn"]


def test_a_resigned_player_takes_no_more_turns() -> None:
    g = _three()
    g.play("ann", "resign")
    for _ in range(2):  # bob's turn, then cy's, then bob's again: never ann's
        player = g.to_act()[0]
        for move in g.timeout_moves(player, "skip"):
            g.play(player, move)
    assert g.to_act() == ["bob"]


def test_neutral_countries_of_a_resigner_defend_and_can_be_conquered() -> None:
    g = _three()
    g.play("ann", "resign")
    for move in g.timeout_moves("bob", "skip"):  # bob's supply, onto his largest stack: kamchatka
        if move.startswith("place"):
            g.play("bob", move)
    battle = g.play("bob", "attack kamchatka alaska")[0]
    assert battle["defender"] == NEUTRAL and len(battle["defender_dice"]) == 2


def test_resign_in_a_two_player_game_makes_the_other_the_winner() -> None:
    g = position(owners={"alaska": "ann"}, phase=Phase.SUPPLY, supply_left=3)
    events = g.play("ann", "resign")
    assert g.is_over and g.winners == ["bob"] and g.to_act() == []
    assert events[-1]["kind"] == "win" and events[-1]["text"] == "bob is the last player left and wins the game!"
    assert g.view(None)["countries"]["alaska"]["owner"] == NEUTRAL


def test_resign_while_claiming_drops_the_resigners_claims() -> None:
    g = Xisk.new(["ann", "bob", "cy"], seed=4, options={"cards_per_player": 3})
    first = g.to_act()[0]
    g.play(first, "claim alaska")
    player = g.to_act()[0]
    g.play(player, "resign")
    assert all(who != player for _, who in g.state.claim_queue)
    assert g.state.hands[player] == []
    while g.view(None)["phase"] == "claim":
        p = g.to_act()[0]
        assert p != player
        g.play(p, g.legal_moves(p)[0])
    view = g.view(None)
    owners = [v["owner"] for v in view["countries"].values()]
    assert owners.count(NEUTRAL) == 42 - 2 * 3  # the resigner's three cards claim nothing in the end
    assert player not in owners and view["order"][-1] == player and view["turn"] != player
    assert Xisk.from_json(g.to_json()).to_json() == g.to_json()


def test_resign_on_the_last_claim_ends_the_claiming() -> None:
    g = Xisk.new(["ann", "bob", "cy"], seed=5, options={"cards_per_player": 1})
    for _ in range(2):
        p = g.to_act()[0]
        g.play(p, g.legal_moves(p)[0])
    last = g.to_act()[0]
    events = g.play(last, "resign")
    kinds = [e["kind"] for e in events]
    assert kinds[0] == "resign" and "neutral" in kinds and "order" in kinds and kinds[-1] == "turn"
    rolled = {e["player"] for e in events if e["kind"] == "order_roll"}
    assert last not in rolled and len(rolled) == 2
    assert g.view(None)["phase"] == "supply" and g.view(None)["order"][-1] == last


def test_resign_while_claiming_in_a_two_player_game_ends_it() -> None:
    g = Xisk.new(["ann", "bob"], seed=6)
    player = g.to_act()[0]
    g.play(player, "resign")
    other = next(p for p in g.players if p != player)
    assert g.is_over and g.winners == [other]
    assert all(v["owner"] in (NEUTRAL, other) for v in g.view(None)["countries"].values())
    assert Xisk.from_json(g.to_json()).to_json() == g.to_json()


def test_resign_awaiting_an_invade_defeats_the_player_whose_last_country_fell() -> None:
    hands = {"bob": ["KH", "2C"]}
    g, _ = until_conquest(lambda s: _last_country(s, hands=hands), "ann", "attack alaska kamchatka")
    assert g.view(None)["phase"] == "invade"
    events = g.play("ann", "resign")
    view = g.view(None)
    assert view["eliminated"] == ["ann", "bob"] and g.is_over and g.winners == ["cy"]
    assert view["cards_held"]["bob"] == 0 and "KH" in g.state.deck
    assert [e["kind"] for e in events] == ["resign", "defeat", "win"]
    assert view["countries"]["kamchatka"]["owner"] == NEUTRAL


def test_the_last_player_left_may_not_resign() -> None:
    owners = {c: "ann" for c in ALL[:40]}
    g = position(owners=owners, rest=NEUTRAL, eliminated=("bob",))
    assert "resign" not in g.legal_moves("ann") and g.timeout_moves("ann", "forfeit") == []
    with pytest.raises(IllegalMove, match="last player left"):
        g.play("ann", "resign")


def test_no_resign_after_defeating_the_last_other_player() -> None:
    chips = {"alaska": 6, "kamchatka": 1}
    owners = {"alaska": "ann", "alberta": "ann", "kamchatka": "bob"}
    g, _ = until_conquest(lambda s: position(owners=owners, chips=chips, rest=NEUTRAL, seed=s),
                          "ann", "attack alaska kamchatka")
    assert g.view(None)["phase"] == "invade" and "resign" not in g.legal_moves("ann")
