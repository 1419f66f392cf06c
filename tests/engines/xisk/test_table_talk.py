"""Table talk: refusals and events a player understands (names, suggestions, what is legal)."""

from __future__ import annotations

import re

import pytest

from engines import BadNotation, IllegalMove
from engines.xisk import Xisk
from engines.xisk.moves import Adjust, Attack, Claim, Place, parse
from engines.xisk.state import Phase
from tests.engines.xisk.helpers import ALL, BOARD, position

_ID = re.compile(r"\b[a-z]+(?:-[a-z]+)+\b")
"""A dashed country id such as ``western-united-states`` written in a sentence."""


def _refusal(g: object, player: str, move: str) -> str:
    with pytest.raises(IllegalMove) as err:
        g.play(player, move)  # type: ignore[attr-defined]
    return str(err.value)


def test_a_misspelt_country_suggests_the_nearest_name() -> None:
    g = position(owners={"alaska": "ann"}, phase=Phase.SUPPLY, supply_left=3)
    assert _refusal(g, "ann", "place Alsaka 1") == "'Alsaka' is not a country on the map: did you mean Alaska?"


def test_a_misspelt_move_word_suggests_the_move() -> None:
    with pytest.raises(BadNotation, match="did you mean attack"):
        parse("atack alaska kamchatka")


def test_a_country_is_read_as_the_xisk_commands_take_it() -> None:
    assert parse("claim Great Britain") == parse("claim great-britain") == Claim("great-britain")
    assert parse("place GREAT brit 2") == Place("great-britain", 2)
    assert parse("place w. eur 2") == Place("western-europe", 2)


def test_a_claim_by_name_plays_and_logs_like_a_claim_by_id() -> None:
    by_name, by_id = Xisk.new(["ann", "bob"], seed=3), Xisk.new(["ann", "bob"], seed=3)
    player = by_name.to_act()[0]
    assert by_name.play(player, "claim Great Britain") == by_id.play(player, "claim great-britain")
    assert by_name.last_move == by_id.last_move == "claim great-britain"
    assert by_name.to_json() == by_id.to_json()


def test_two_multi_word_countries_are_split_at_the_names() -> None:
    assert parse("attack North Africa Egypt") == Attack("north-africa", "egypt")
    assert parse("attack egypt north africa") == Attack("egypt", "north-africa")
    assert parse("adjust Western Europe Great Britain 2") == Adjust("western-europe", "great-britain", 2)
    assert parse("attack east africa congo") == Attack("east-africa", "congo")


def test_every_pair_of_country_ids_reads_back_as_written() -> None:
    for a in ALL:
        for b in ALL:
            assert parse(f"attack {a} {b}") == Attack(a, b)
    for a in ALL:
        assert parse(f"attack {BOARD.names[a]} {BOARD.names['kamchatka']}") == Attack(a, "kamchatka")


def test_a_misspelt_country_in_a_pair_is_the_one_named() -> None:
    with pytest.raises(IllegalMove, match=r"^'egpyt' is not a country on the map: did you mean Egypt\?$"):
        parse("attack north africa egpyt")
    with pytest.raises(IllegalMove, match=r"^'Alsaka' is not a country on the map: did you mean Alaska\?$"):
        parse("attack Alsaka kamchatka")


def test_refusals_name_countries_never_ids() -> None:
    owners = {"western-united-states": "ann", "eastern-united-states": "ann", "alaska": "ann"}
    g = position(owners=owners, chips={"western-united-states": 3})
    assert _refusal(g, "ann", "attack western-united-states eastern-united-states") == (
        "You can't attack Eastern United States from Western United States: "
        "Eastern United States is yours already.")
    texts = [
        _refusal(g, "ann", "attack alaska kamchatka"),
        _refusal(g, "ann", "attack western-united-states great-britain"),
        _refusal(g, "ann", "attack north-africa egypt"),
        _refusal(g, "ann", "place western-united-states 1"),
    ]
    g = position(owners=owners, chips={"western-united-states": 3}, phase=Phase.ADJUST)
    texts += [
        _refusal(g, "ann", "adjust western-united-states great-britain 1"),
        _refusal(g, "ann", "adjust western-united-states alaska 1"),
        _refusal(g, "ann", "adjust western-united-states eastern-united-states 5"),
        _refusal(g, "ann", "adjust eastern-united-states western-united-states 1"),
    ]
    assert all(not _ID.search(t) for t in texts), texts


def test_a_bad_move_lists_the_legal_moves_when_few() -> None:
    g = position(owners={"alaska": "ann"}, chips={"alaska": 2}, phase=Phase.ATTACK)
    message = _refusal(g, "ann", "hit kamchatka")
    assert message == ("I can't read 'hit kamchatka'. Legal now: attack alaska alberta, "
                       "attack alaska kamchatka, attack alaska northwest-territory, end, resign.")


def test_a_bad_move_names_the_kinds_of_move_when_many() -> None:
    g = position(owners={"alaska": "ann", "peru": "ann"}, phase=Phase.SUPPLY, supply_left=5,
                 hands={"ann": ["AS", "KS", "QS"]})
    message = _refusal(g, "ann", "plac alaska")
    assert message.startswith("I can't read 'plac alaska': did you mean place? Legal now: 12 moves (")
    assert message.endswith("(redeem <card> <card> <card>, place <country> <n>, resign).")


def test_a_refused_move_leaves_the_game_unchanged() -> None:
    g = position(owners={"alaska": "ann"}, chips={"alaska": 2}, phase=Phase.ATTACK)
    before = g.to_json()
    _refusal(g, "ann", "hit kamchatka")
    assert g.to_json() == before


def test_one_chip_and_one_card_are_singular() -> None:
    g = position(owners={"alaska": "ann"}, phase=Phase.SUPPLY, supply_left=2)
    assert g.play("ann", "place alaska 1")[0]["text"] == "ann places 1 chip on Alaska."
    assert _refusal(g, "ann", "place alaska 2") == "You can't place 2 chips: you have 1 to place."
