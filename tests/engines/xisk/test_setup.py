"""The setup: dealing, the card-claim, neutral chips and the turn order."""

from __future__ import annotations

from collections import Counter

import pytest

from engines import GAMES, GameError, IllegalMove
from engines.core import Rng, is_public
from engines.core.deck import DECK_INDEX
from engines.xisk import Xisk
from engines.xisk.setup import roll_for_order


def _claim_all(g: Xisk) -> list[dict]:
    events: list[dict] = []
    while g.view(None)["phase"] == "claim":
        player = g.to_act()[0]
        events += g.play(player, g.legal_moves(player)[0])
    return events


def test_xisk_is_registered() -> None:
    assert GAMES["xisk"] is Xisk
    assert (Xisk.MIN_PLAYERS, Xisk.MAX_PLAYERS, Xisk.HAS_SECRETS) == (2, 6, True)


@pytest.mark.parametrize(("n", "cards"), [(2, 21), (3, 14), (4, 10), (5, 8), (6, 7)])
def test_cards_per_player_by_player_count(n: int, cards: int) -> None:
    g = Xisk.new([f"p{i}" for i in range(n)], seed=n)
    assert set(g.view(None)["cards_held"].values()) == {cards}
    assert g.view(None)["phase"] == "claim" and g.view(None)["turn"] is None


def test_claim_order_follows_deck_order_of_dealt_cards() -> None:
    g = Xisk.new(["ann", "bob", "cy"], seed=11)
    dealt = {c: p for p in g.players for c in g.view(p)["hand"]}
    _claim_all(g)
    claims = g.state.claims
    assert [c["card"] for c in claims] == sorted(dealt, key=DECK_INDEX.__getitem__)
    assert all(dealt[c["card"]] == c["player"] for c in claims)


def test_claim_reveals_the_card_and_drops_it_from_the_hand() -> None:
    g = Xisk.new(["ann", "bob"], seed=3)
    player = g.to_act()[0]
    first = min((c for p in g.players for c in g.view(p)["hand"]), key=DECK_INDEX.__getitem__)
    events = g.play(player, "claim Alaska")
    assert events[0]["card"] == first and is_public(events[0])
    assert g.view(None)["cards_held"][player] == 20
    assert first not in g.view(player)["hand"]
    assert g.view(None)["countries"]["alaska"] == {"owner": player, "chips": 1}


def test_claiming_a_claimed_country_is_illegal() -> None:
    g = Xisk.new(["ann", "bob"], seed=3)
    g.play(g.to_act()[0], "claim alaska")
    with pytest.raises(IllegalMove, match=r"You can't claim Alaska: .* already owns it"):
        g.play(g.to_act()[0], "claim alaska")


def test_claiming_your_own_country_says_you_already_own_it() -> None:
    """The refusal speaks to the player: "you already own it", not their own name."""
    for seed in range(100):  # a deal where one player claims twice in a row
        g = Xisk.new(["ann", "bob"], seed=seed)
        first = g.to_act()[0]
        g.play(first, "claim alaska")
        if g.to_act() == [first]:
            break
    else:
        pytest.fail("no deal gives one player two claims in a row")
    with pytest.raises(IllegalMove, match=r"^You can't claim Alaska: you already own it\.$"):
        g.play(first, "claim alaska")


def test_neutral_chip_on_unclaimed_countries_with_4_players() -> None:
    g = Xisk.new(["a", "b", "c", "d"], seed=5)
    _claim_all(g)
    owners = Counter(v["owner"] for v in g.view(None)["countries"].values())
    assert owners["neutral"] == 2 and all(owners[p] == 10 for p in g.players)
    assert all(v["chips"] == 1 for v in g.view(None)["countries"].values())


def test_no_neutral_country_with_3_players() -> None:
    g = Xisk.new(["a", "b", "c"], seed=5)
    _claim_all(g)
    assert all(v["owner"] != "neutral" for v in g.view(None)["countries"].values())


def test_cards_return_to_the_deck_after_claiming() -> None:
    g = Xisk.new(["a", "b", "c", "d", "e"], seed=2)
    _claim_all(g)
    assert set(g.view(None)["cards_held"].values()) == {0}
    assert g.view(None)["deck_size"] == 52


def test_turn_order_by_three_dice_highest_first_ties_reroll() -> None:
    ties = 0
    for seed in range(60):
        order, events = roll_for_order(Rng.from_seed(seed), ["a", "b", "c", "d", "e", "f"])
        rolls = [e for e in events if e["kind"] == "order_roll"]
        first = {e["player"]: e["total"] for e in rolls if e["round"] == 1}
        assert all(len(e["dice"]) == 3 and sum(e["dice"]) == e["total"] for e in rolls)
        assert [first[p] for p in order] == sorted(first.values(), reverse=True)
        tied_totals = {t for t, k in Counter(first.values()).items() if k > 1}
        rerolled = {e["player"] for e in rolls if e["round"] == 2}
        assert rerolled == {p for p, t in first.items() if t in tied_totals}
        ties += bool(rerolled)
        assert sorted(order) == ["a", "b", "c", "d", "e", "f"]
    assert ties > 0


def test_first_turn_starts_with_supply_after_claims() -> None:
    g = Xisk.new(["ann", "bob", "cy"], seed=4)
    events = _claim_all(g)
    view = g.view(None)
    assert view["phase"] == "supply" and view["turn"] == view["order"][0] == g.to_act()[0]
    assert view["supply_left"] == 4  # 14 countries: 14 ÷ 3 = 4
    assert [e["kind"] for e in events].count("order") == 1


@pytest.mark.parametrize("bad", [0, 22, "7", True, 2.5])
def test_cards_per_player_option_is_validated(bad: object) -> None:
    with pytest.raises(GameError, match="cards_per_player"):
        Xisk.new(["a", "b"], options={"cards_per_player": bad})


def test_cards_per_player_option_cannot_claim_more_than_42() -> None:
    with pytest.raises(GameError, match="at most 7"):
        Xisk.new(["a", "b", "c", "d", "e", "f"], options={"cards_per_player": 8})


def test_cards_per_player_option_shortens_the_deal() -> None:
    g = Xisk.new(["a", "b", "c"], seed=1, options={"cards_per_player": 2})
    _claim_all(g)
    owners = Counter(v["owner"] for v in g.view(None)["countries"].values())
    assert owners["neutral"] == 36


def test_player_named_neutral_is_refused() -> None:
    with pytest.raises(GameError, match="neutral"):
        Xisk.new(["ann", "neutral"])


def test_the_deal_tells_each_hand_privately() -> None:
    g = Xisk.new(["ann", "bob"], seed=9)
    events = g.opening_events()
    public = [e for e in events if is_public(e)]
    assert public and all("cards" not in e for e in public)
    private = {e["to"]: e["cards"] for e in events if not is_public(e)}
    assert private == {p: g.view(p)["hand"] for p in g.players}


def test_consecutive_cards_of_one_player_give_consecutive_claims() -> None:
    g = Xisk.new(["ann", "bob"], seed=1)
    queue = [p for _, p in g.state.claim_queue]
    i = next(i for i in range(len(queue) - 1) if queue[i] == queue[i + 1])
    for _ in range(i):
        g.play(g.to_act()[0], g.legal_moves(g.to_act()[0])[0])
    player = g.to_act()[0]
    g.play(player, g.legal_moves(player)[0])
    assert g.to_act() == [player]


def test_the_ace_of_spades_claims_first_and_any_country_may_be_claimed() -> None:
    for seed in range(1, 40):
        g = Xisk.new(["ann", "bob"], seed=seed)
        holder = next((p for p in g.players if "AS" in g.view(p)["hand"]), None)
        if holder is not None:
            break
    assert holder is not None
    assert g.to_act() == [holder] and len([m for m in g.legal_moves(holder) if m.startswith("claim")]) == 42
    events = g.play(holder, "claim madagascar")
    assert events[0]["card"] == "AS" and "AS" in events[0]["text"] and is_public(events[0])


def test_deck_is_shuffled_when_the_cards_return_after_claiming() -> None:
    g = Xisk.new(["a", "b", "c"], seed=7)
    undealt = list(g.state.deck)
    hands = sorted((c for p in g.players for c in g.view(p)["hand"]), key=DECK_INDEX.__getitem__)
    _claim_all(g)
    assert sorted(g.state.deck) == sorted(undealt + hands)
    assert g.state.deck != undealt + hands and g.state.deck != sorted(g.state.deck, key=DECK_INDEX.__getitem__)


@pytest.mark.parametrize(("n", "neutral"), [(2, 0), (3, 0), (4, 2), (5, 2), (6, 0)])
def test_neutral_chips_occur_with_4_or_5_players(n: int, neutral: int) -> None:
    g = Xisk.new([f"p{i}" for i in range(n)], seed=n)
    _claim_all(g)
    countries = g.view(None)["countries"].values()
    assert sum(v["owner"] == "neutral" for v in countries) == neutral
    assert all(v["chips"] == 1 for v in countries)
