"""Cardsets and card notation."""

from __future__ import annotations

from itertools import product

import pytest

from engines.core import BadNotation
from engines.core.deck import parse_card
from engines.xisk.cards import is_set, redeemable


def test_cardset_three_of_one_suit() -> None:
    assert is_set(["3C", "9C", "KC"])


def test_cardset_three_different_suits() -> None:
    assert is_set(["3C", "9D", "KS"])


def test_two_of_a_suit_and_one_other_is_not_a_cardset() -> None:
    assert not is_set(["3C", "9C", "KD"])


def test_redeemable_lists_every_set_in_deck_order() -> None:
    assert redeemable(["2C", "AS", "KH", "QD"]) == [
        ("AS", "KH", "QD"), ("AS", "KH", "2C"), ("AS", "QD", "2C"), ("KH", "QD", "2C")]
    assert redeemable(["AS", "KS", "AH", "KH"]) == []


def test_five_cards_always_hold_a_cardset() -> None:
    ranks = ["A", "K", "Q", "J", "10"]
    for suits in product("SHDC", repeat=5):
        hand = [r + s for r, s in zip(ranks, suits, strict=True)]
        assert redeemable(hand), hand


def test_card_notation_accepts_t_and_lowercase() -> None:
    assert parse_card("td") == "10D" and parse_card(" as ") == "AS"
    with pytest.raises(BadNotation, match="'1S'"):
        parse_card("1S")
