"""Notation: parsing, canonical forms, and messages that name what was typed."""

from __future__ import annotations

import random

import pytest

from engines import BadNotation, IllegalMove
from engines.xisk import Xisk
from engines.xisk.moves import Adjust, Attack, Claim, End, Invade, Place, Redeem, parse
from engines.xisk.state import Phase
from tests.engines.xisk.helpers import position, random_move


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("claim alaska", Claim("alaska")),
        ("redeem 2C AS QH", Redeem(("AS", "QH", "2C"))),
        ("place peru 3", Place("peru", 3)),
        ("attack alaska kamchatka", Attack("alaska", "kamchatka")),
        ("invade 0", Invade(0)),
        ("adjust alaska alberta 2", Adjust("alaska", "alberta", 2)),
        ("end", End()),
    ],
)
def test_every_move_kind_parses_and_round_trips(text: str, move: object) -> None:
    assert parse(text) == move
    assert parse(str(move)) == move


def test_case_and_spaces_are_forgiven() -> None:
    assert str(parse("  ATTACK   Alaska\tKamchatka ")) == "attack alaska kamchatka"
    assert str(parse("Redeem td 9D jd")) == "redeem JD 10D 9D"


def test_play_returns_the_canonical_form_to_the_log() -> None:
    g = position(owners={"alaska": "ann"}, phase=Phase.SUPPLY, supply_left=3)
    g.play("ann", "PLACE  Alaska 2")
    assert g.last_move == "place alaska 2"


def test_every_legal_move_round_trips_through_parse() -> None:
    rnd = random.Random(5)
    g = Xisk.new(["ann", "bob", "cy"], seed=5)
    for _ in range(300):
        if g.is_over:
            break
        for m in g.legal_moves(g.to_act()[0]):
            assert str(parse(m)) == m
        g.play(*random_move(g, rnd, aggressive=0.7))


@pytest.mark.parametrize("text", ["", "   ", "atack alaska kamchatka", "place alaska", "place alaska x",
                                  "claim", "end now", "invade -1", "redeem AS AS KS", "redeem AS KS 1Z"])
def test_bad_notation_is_reported(text: str) -> None:
    with pytest.raises(BadNotation):
        parse(text)


def test_messages_name_what_was_typed() -> None:
    with pytest.raises(BadNotation, match="atack"):
        parse("atack alaska kamchatka")
    with pytest.raises(BadNotation, match="'1Z'"):
        parse("redeem AS KS 1Z")
    g = position(owners={"alaska": "ann"}, phase=Phase.SUPPLY, supply_left=3)
    with pytest.raises(IllegalMove, match="'atlantis'"):
        g.play("ann", "place atlantis 1")


def test_a_move_of_the_wrong_phase_says_what_is_expected() -> None:
    g = position(owners={"alaska": "ann"}, phase=Phase.SUPPLY, supply_left=3)
    with pytest.raises(IllegalMove, match="supply phase"):
        g.play("ann", "attack alaska kamchatka")


def test_an_ambiguous_prefix_names_the_countries_it_could_mean() -> None:
    g = position(owners={"western-united-states": "ann"}, phase=Phase.SUPPLY, supply_left=3)
    with pytest.raises(IllegalMove, match="'western' could mean Western United States, Western Europe"):
        g.play("ann", "place western 1")
    g.play("ann", "place Western-United-States 1")
    assert g.last_move == "place western-united-states 1"
