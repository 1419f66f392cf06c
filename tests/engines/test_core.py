"""The shared engine core: stored RNG, dice, the card deck, and the Game contract's guarantees."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engines.core import BadNotation, GameError, GameOver, NotAPlayer, NotYourTurn, Rng
from engines.core.deck import STANDARD_DECK, Deck, deck_order, parse_card
from engines.core.dice import roll, roll_sorted
from engines.core.words import did_you_mean, plural
from tests.support.tally import Tally


def test_rng_state_is_one_json_safe_integer_and_replays() -> None:
    rng = Rng.from_seed(123)
    rng.randint(1, 6)
    copy = Rng.load(json.loads(json.dumps(rng.saved())))
    assert [rng.randint(1, 6) for _ in range(50)] == [copy.randint(1, 6) for _ in range(50)]


def test_rng_dice_are_roughly_uniform() -> None:
    counts = Counter(roll(Rng.from_seed(9), 60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(9_400 < n < 10_600 for n in counts.values())


def test_rng_shuffle_is_a_permutation() -> None:
    cards = list(STANDARD_DECK)
    Rng.from_seed(4).shuffle(cards)
    assert sorted(cards) == sorted(STANDARD_DECK) and cards != STANDARD_DECK


def test_roll_sorted_is_high_to_low() -> None:
    dice = roll_sorted(Rng.from_seed(2), 3)
    assert dice == sorted(dice, reverse=True)


def test_deck_deals_one_card_at_a_time_in_turn() -> None:
    deck = Deck.fresh()
    hands = deck.deal(3, 2)
    assert hands == [["AS", "JS"], ["KS", "10S"], ["QS", "9S"]]
    assert deck.size == 46 and deck.draw() == "8S"


def test_an_empty_deck_draws_nothing() -> None:
    assert Deck(cards=[]).draw() is None


def test_cards_parse_forgivingly_and_sort_in_deck_order() -> None:
    assert [parse_card(t) for t in ("as", "th", "10d", " 2c ")] == ["AS", "10H", "10D", "2C"]
    assert deck_order(["2C", "AH", "KS"]) == ["KS", "AH", "2C"]
    with pytest.raises(GameError, match="'ZZ' is not a card"):
        parse_card("ZZ")


def test_new_checks_seats_and_names() -> None:
    with pytest.raises(GameError, match="needs 2–4 players, not 1"):
        Tally.new(["ann"])
    with pytest.raises(GameError, match="different name"):
        Tally.new(["ann", "ann"])


def test_play_refuses_non_players_out_of_turn_and_after_the_end() -> None:
    game = Tally.new(["ann", "bob"], options={"target": 2})
    with pytest.raises(NotAPlayer):
        game.play("cy", "add 1")
    with pytest.raises(NotYourTurn):
        game.play("bob", "add 1")
    game.play("ann", "add 2")
    with pytest.raises(GameOver):
        game.play("bob", "add 1")


def test_play_restores_the_exact_state_when_a_move_fails_midway() -> None:
    game = Tally.new(["ann", "bob"], seed=1)
    before = game.to_json()
    with pytest.raises(RuntimeError, match="boom"):
        game.play("ann", "boom")
    assert game.to_json() == before


def test_from_json_plays_on_with_the_same_dice() -> None:
    game = Tally.new(["ann", "bob"], seed=5)
    game.play("ann", "roll")
    twin = Tally.from_json(game.to_json())
    assert [e["dice"] for e in game.play("bob", "roll")] == [e["dice"] for e in twin.play("bob", "roll")]


def test_from_json_refuses_another_game_or_damage() -> None:
    with pytest.raises(GameError, match="not 'tally'"):
        Tally.from_json(json.dumps({"game": "xisk"}))
    with pytest.raises(GameError, match="damaged"):
        Tally.from_json("{not json")


def test_plurals_are_singular_for_one() -> None:
    assert [plural(n, "chip") for n in (0, 1, 2)] == ["0 chips", "1 chip", "2 chips"]
    assert plural(1, "country", "countries") == "1 country" and plural(2, "hex", "hexes") == "2 hexes"


def test_a_suggestion_is_made_only_when_a_name_is_near() -> None:
    assert did_you_mean("Alsaka", ["Alaska", "Alberta"]) == ": did you mean Alaska?"
    assert did_you_mean("qqqq", ["Alaska", "Alberta"]) == ""


def test_a_bad_move_text_is_answered_with_the_legal_moves() -> None:
    g = Tally.new(["ann", "bob"], seed=1)
    with pytest.raises(BadNotation) as err:
        g.play(g.to_act()[0], "ad 1")
    assert str(err.value).endswith("Legal now: " + ", ".join(g.legal_moves(g.to_act()[0])) + ".")
