"""A. The supply phase: country supply, continent bonuses, cardsets, placing."""

from __future__ import annotations

import pytest

from engines import IllegalMove
from engines.core import is_public
from engines.xisk import Xisk
from engines.xisk.rules import turn_supply
from engines.xisk.state import Phase
from tests.engines.xisk.helpers import BOARD, position

AUSTRALIA = ["indonesia", "new-guinea", "western-australia", "eastern-australia"]


def _owning(countries: list[str]) -> dict[str, str]:
    return dict.fromkeys(countries, "ann")


def _start_turn_of_ann(owned: list[str]) -> Xisk:
    """Returns a game where bob ends his adjust phase and ann's turn starts."""
    g = position(owners=_owning(owned), phase=Phase.ADJUST, turn="bob")
    g.play("bob", "end")
    return g


def test_supply_minimum_three_chips() -> None:
    g = _start_turn_of_ann(["alaska", "peru"])
    assert g.view(None)["supply_left"] == 3 and g.view(None)["turn"] == "ann"


def test_supply_one_chip_per_three_countries_rounded_down() -> None:
    asia = list(BOARD.continents["asia"].countries)
    eleven, twelve = asia[:11], [*asia[:11], "alaska"]
    assert _start_turn_of_ann(eleven).view(None)["supply_left"] == 3
    assert _start_turn_of_ann(twelve).view(None)["supply_left"] == 4


def test_continent_bonus_for_a_whole_continent_at_turn_start() -> None:
    g = _start_turn_of_ann(AUSTRALIA)
    assert g.view(None)["supply_left"] == 3 + 2


@pytest.mark.parametrize(("cont", "bonus"), [("north-america", 5), ("south-america", 2), ("europe", 5),
                                              ("africa", 3), ("asia", 7), ("australia", 2)])
def test_continent_bonus_values(cont: str, bonus: int) -> None:
    countries = list(BOARD.continents[cont].countries)
    g = position(owners=_owning(countries))
    assert turn_supply(g.state, BOARD, "ann") == max(3, len(countries) // 3) + bonus


def test_no_continent_bonus_when_one_country_is_missing() -> None:
    g = _start_turn_of_ann(AUSTRALIA[:3])
    assert g.view(None)["supply_left"] == 3


def test_supply_left_at_turn_start_excludes_cardsets() -> None:
    g = position(owners=_owning(["alaska"]), phase=Phase.ADJUST, turn="bob",
                 hands={"ann": ["AS", "KS", "QS"]})
    g.play("bob", "end")
    assert g.view(None)["supply_left"] == 3
    assert g.view("ann")["redeemable"] == ["redeem AS KS QS"]


def test_place_chips_one_country_at_a_time() -> None:
    g = position(owners=_owning(["alaska", "peru"]), phase=Phase.SUPPLY, supply_left=3)
    events = g.play("ann", "place alaska 2")
    assert events[0]["kind"] == "place" and g.view(None)["countries"]["alaska"]["chips"] == 3
    assert g.view(None)["supply_left"] == 1 and g.view(None)["phase"] == "supply"


def test_place_on_a_country_not_owned_is_illegal() -> None:
    g = position(owners=_owning(["alaska"]), phase=Phase.SUPPLY, supply_left=3)
    with pytest.raises(IllegalMove, match="on Peru: you don't own it"):
        g.play("ann", "place peru 1")


@pytest.mark.parametrize("n", [0, 4])
def test_place_more_than_supply_or_nothing_is_illegal(n: int) -> None:
    g = position(owners=_owning(["alaska"]), phase=Phase.SUPPLY, supply_left=3)
    with pytest.raises(IllegalMove):
        g.play("ann", f"place alaska {n}")


def test_supply_phase_ends_when_every_chip_is_placed() -> None:
    g = position(owners=_owning(["alaska"]), phase=Phase.SUPPLY, supply_left=3)
    g.play("ann", "place alaska 3")
    assert g.view(None)["phase"] == "attack"


def test_legal_moves_list_every_place_count() -> None:
    g = position(owners=_owning(["alaska", "peru"]), phase=Phase.SUPPLY, supply_left=2)
    assert g.legal_moves("ann") == ["place alaska 1", "place alaska 2",
                                    "place peru 1", "place peru 2", "resign"]


def test_compulsory_redemption_at_five_cards() -> None:
    hand = ["AS", "KS", "QH", "JH", "2C"]
    g = position(owners=_owning(["alaska"]), phase=Phase.SUPPLY, supply_left=3, hands={"ann": hand})
    assert all(m.startswith("redeem") for m in g.legal_moves("ann")[:-1])
    assert g.legal_moves("ann")[-1] == "resign"
    with pytest.raises(IllegalMove, match="redeem"):
        g.play("ann", "place alaska 1")
    g.play("ann", "redeem AS QH 2C")
    assert "place alaska 4" in g.legal_moves("ann")


def test_optional_redemption_with_four_cards_or_fewer() -> None:
    g = position(owners=_owning(["alaska"]), phase=Phase.SUPPLY, supply_left=3,
                 hands={"ann": ["AS", "KS", "QS", "2C"]})
    moves = g.legal_moves("ann")
    assert "redeem AS KS QS" in moves and "place alaska 3" in moves
    g.play("ann", "place alaska 3")
    assert g.view(None)["phase"] == "attack" and g.view(None)["cards_held"]["ann"] == 4


def test_cardset_counter_is_shared_and_gives_n_chips() -> None:
    g = position(owners=_owning(["alaska"]), phase=Phase.SUPPLY, supply_left=3, sets_redeemed=4,
                 hands={"ann": ["AS", "KH", "QD"]})
    events = g.play("ann", "redeem qd kh as")
    assert events[0]["set_number"] == 5 and g.view(None)["sets_redeemed"] == 5
    assert g.view(None)["supply_left"] == 3 + 5


def test_several_cardsets_in_one_supply_phase() -> None:
    hand = ["AS", "KS", "QS", "AH", "KH", "QH"]
    g = position(owners=_owning(["alaska"]), phase=Phase.SUPPLY, supply_left=3, hands={"ann": hand})
    g.play("ann", "redeem AS KS QS")
    g.play("ann", "redeem AH KH QH")
    assert g.view(None)["supply_left"] == 3 + 1 + 2 and g.view("ann")["hand"] == []


def test_redeemed_set_goes_back_to_the_deck() -> None:
    g = position(owners=_owning(["alaska"]), phase=Phase.SUPPLY, supply_left=3,
                 hands={"ann": ["AS", "KS", "QS"]})
    g.play("ann", "redeem AS KS QS")
    assert {"AS", "KS", "QS"} <= set(g.state.deck) and len(g.state.deck) == 52


def test_redeeming_cards_not_held_or_not_a_set_is_illegal() -> None:
    g = position(owners=_owning(["alaska"]), phase=Phase.SUPPLY, supply_left=3,
                 hands={"ann": ["AS", "KS", "QH"]})
    with pytest.raises(IllegalMove, match="JS"):
        g.play("ann", "redeem AS KS JS")
    with pytest.raises(IllegalMove, match="suit"):
        g.play("ann", "redeem AS KS QH")


def test_redeemed_set_is_shown_publicly_and_the_deck_reshuffled() -> None:
    g = position(owners=_owning(["alaska"]), phase=Phase.SUPPLY, supply_left=3,
                 hands={"ann": ["AS", "KS", "QS"]})
    before = list(g.state.deck)
    events = g.play("ann", "redeem AS KS QS")
    assert is_public(events[0]) and events[0]["cards"] == ["AS", "KS", "QS"]
    assert "AS KS QS" in events[0]["text"]
    assert g.state.deck != [*before, "AS", "KS", "QS"] and sorted(g.state.deck) == sorted([*before, "AS", "KS", "QS"])


def test_placed_chips_cannot_be_retracted() -> None:
    g = position(owners=_owning(["alaska", "peru"]), phase=Phase.SUPPLY, supply_left=3)
    g.play("ann", "place alaska 2")
    assert g.view(None)["countries"]["alaska"]["chips"] == 3
    assert all(m.startswith("place") and int(m.split()[2]) >= 1 for m in g.legal_moves("ann")[:-1])
    with pytest.raises(IllegalMove):
        g.play("ann", "place alaska -1")
    g.play("ann", "place peru 1")
    assert g.view(None)["countries"]["alaska"]["chips"] == 3

