"""B. The attack phase: dice, one roll per command, conquest, invasion, defeat, the end."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engines import IllegalMove
from engines.core import is_public
from engines.xisk import Xisk
from engines.xisk.state import Phase
from tests.engines.xisk.helpers import ALL, position

Events = list[dict[str, Any]]


def until_conquest(build: Callable[[int], Xisk], player: str, move: str) -> tuple[Xisk, Events]:
    """Returns the first seeded position where ``move`` conquers, with its events."""
    for seed in range(1, 500):
        g = build(seed)
        events = g.play(player, move)
        if any(e["kind"] == "conquer" for e in events):
            return g, events
    raise AssertionError("no conquest in 500 seeds")


def _duel(seed: int = 1, *, att: int = 4, dfn: int = 1, **kw: Any) -> Xisk:
    """ann holds alaska (att chips) and alberta; bob holds kamchatka (dfn chips) and the rest."""
    chips = {"alaska": att, "kamchatka": dfn, **kw.pop("chips", {})}
    owners = {"alaska": "ann", "alberta": "ann", **kw.pop("owners", {})}
    return position(owners=owners, chips=chips, seed=seed, **kw)


@pytest.mark.parametrize(("att", "dfn", "dice"), [(2, 1, (1, 1)), (3, 1, (2, 1)), (4, 2, (3, 2)),
                                                  (9, 5, (3, 2)), (3, 3, (2, 2))])
def test_dice_are_not_chosen_but_follow_the_chips(att: int, dfn: int, dice: tuple[int, int]) -> None:
    g = _duel(att=att, dfn=dfn)
    battle = g.play("ann", "attack alaska kamchatka")[0]
    assert (len(battle["attacker_dice"]), len(battle["defender_dice"])) == dice


def test_one_command_is_one_roll() -> None:
    g = _duel(att=10, dfn=10)
    battle = g.play("ann", "attack alaska kamchatka")[0]
    assert battle["attacker_losses"] + battle["defender_losses"] == 2
    chips = g.view(None)["countries"]
    assert chips["alaska"]["chips"] == 10 - battle["attacker_losses"]
    assert chips["kamchatka"]["chips"] == 10 - battle["defender_losses"]
    assert g.view(None)["phase"] == "attack"


def test_battle_event_carries_sorted_dice_and_losses() -> None:
    g = _duel(att=6, dfn=3)
    battle = g.play("ann", "attack alaska kamchatka")[0]
    assert battle["kind"] == "battle" and is_public(battle)
    assert battle["source"] == "alaska" and battle["target"] == "kamchatka"
    for key in ("attacker_dice", "defender_dice"):
        assert battle[key] == sorted(battle[key], reverse=True)
    last = g.view(None)["last_battle"]
    assert last["from"] == "alaska" and last["to"] == "kamchatka"
    assert last["attacker_dice"] == battle["attacker_dice"]


def test_a_country_with_one_chip_cannot_attack() -> None:
    g = _duel(att=1, chips={"alberta": 3})
    with pytest.raises(IllegalMove, match="1 chip"):
        g.play("ann", "attack alaska kamchatka")


def test_attack_needs_a_line_between_the_countries() -> None:
    g = _duel()
    with pytest.raises(IllegalMove, match="no line"):
        g.play("ann", "attack alaska peru")


def test_attacking_an_owned_country_or_from_a_foreign_one_is_illegal() -> None:
    g = _duel()
    with pytest.raises(IllegalMove, match="yours"):
        g.play("ann", "attack alaska alberta")
    with pytest.raises(IllegalMove, match="don't own"):
        g.play("ann", "attack kamchatka alaska")


def test_conquest_moves_as_many_chips_as_dice_rolled() -> None:
    g, events = until_conquest(lambda s: _duel(s, att=6, dfn=1), "ann", "attack alaska kamchatka")
    battle = events[0]
    moved = len(battle["attacker_dice"])
    conquer = next(e for e in events if e["kind"] == "conquer")
    assert conquer["moved"] == moved == 3
    assert g.view(None)["countries"]["kamchatka"] == {"owner": "ann", "chips": 3}
    assert g.view(None)["countries"]["alaska"]["chips"] == 6 - battle["attacker_losses"] - 3


def test_invade_must_be_answered_before_anything_else() -> None:
    g, _ = until_conquest(lambda s: _duel(s, att=6, dfn=1), "ann", "attack alaska kamchatka")
    view = g.view(None)
    assert view["phase"] == "invade" and view["invade"]["from"] == "alaska"
    most = view["countries"]["alaska"]["chips"] - 1
    assert g.legal_moves("ann") == [*(f"invade {n}" for n in range(most + 1)), "resign"]
    with pytest.raises(IllegalMove, match="invade"):
        g.play("ann", "end")


def test_invade_leaves_at_least_one_chip_behind() -> None:
    g, _ = until_conquest(lambda s: _duel(s, att=6, dfn=1), "ann", "attack alaska kamchatka")
    most = g.view(None)["countries"]["alaska"]["chips"] - 1
    with pytest.raises(IllegalMove, match="stay behind"):
        g.play("ann", f"invade {most + 1}")
    g.play("ann", f"invade {most}")
    assert g.view(None)["countries"]["alaska"]["chips"] == 1
    assert g.view(None)["countries"]["kamchatka"]["chips"] == 3 + most


def test_invade_zero_is_allowed() -> None:
    g, _ = until_conquest(lambda s: _duel(s, att=6, dfn=1), "ann", "attack alaska kamchatka")
    g.play("ann", "invade 0")
    assert g.view(None)["phase"] == "attack" and g.view(None)["countries"]["kamchatka"]["chips"] == 3


def test_invade_is_skipped_when_no_extra_chip_can_move() -> None:
    g, _ = until_conquest(lambda s: _duel(s, att=2, dfn=1, chips={"alberta": 3}),
                          "ann", "attack alaska kamchatka")
    assert g.view(None)["phase"] == "attack"
    assert g.view(None)["countries"]["alaska"]["chips"] == 1


def _last_country(seed: int, **kw: Any) -> Xisk:
    """bob owns only kamchatka (1 chip); cy owns the rest; ann attacks from alaska."""
    return _duel(seed, att=6, dfn=1, players=("ann", "bob", "cy"),
                 owners={"kamchatka": "bob"}, rest="cy", **kw)


def test_defeat_passes_cards_and_gives_one_chip() -> None:
    hands = {"ann": ["AS"], "bob": ["KH", "2C"]}
    g, events = until_conquest(lambda s: _last_country(s, hands=hands), "ann", "attack alaska kamchatka")
    events += g.play("ann", "invade 0")
    defeat = next(e for e in events if e["kind"] == "defeat")
    assert is_public(defeat) and defeat["cards_taken"] == 2 and "KH" not in defeat["text"]
    private = next(e for e in events if e["kind"] == "cards_taken")
    assert private["to"] == "ann" and private["cards"] == ["KH", "2C"]
    view = g.view("ann")
    assert view["hand"] == ["AS", "KH", "2C"] and view["cards_held"]["bob"] == 0
    assert view["phase"] == "cardset" and view["supply_left"] == 1
    assert view["eliminated"] == ["bob"]


def test_defeat_comes_after_the_invade_answer() -> None:
    g, events = until_conquest(_last_country, "ann", "attack alaska kamchatka")
    assert g.view(None)["phase"] == "invade" and not any(e["kind"] == "defeat" for e in events)


def test_defeat_interim_cardset_is_compulsory_at_five_cards() -> None:
    hands = {"ann": ["AS", "KS", "QH"], "bob": ["JD", "2C"]}
    g, _ = until_conquest(lambda s: _last_country(s, hands=hands), "ann", "attack alaska kamchatka")
    g.play("ann", "invade 0")
    assert all(m.startswith("redeem") for m in g.legal_moves("ann")[:-1])
    assert g.legal_moves("ann")[-1] == "resign"
    g.play("ann", "redeem AS QH 2C")
    assert g.view(None)["supply_left"] == 2
    g.play("ann", "place alberta 2")
    assert g.view(None)["phase"] == "attack"


def test_defeat_interim_redeem_is_optional_with_four_cards_or_fewer() -> None:
    hands = {"ann": ["AS", "KS"], "bob": ["QS"]}
    g, _ = until_conquest(lambda s: _last_country(s, hands=hands), "ann", "attack alaska kamchatka")
    g.play("ann", "invade 0")
    moves = g.legal_moves("ann")
    assert "redeem AS KS QS" in moves and "place alberta 1" in moves
    g.play("ann", "place kamchatka 1")
    assert g.view(None)["phase"] == "attack" and g.view(None)["cards_held"]["ann"] == 3


def test_defeated_player_takes_no_more_turns() -> None:
    g = position(("ann", "bob", "cy"), owners={"alaska": "ann"}, rest="cy", phase=Phase.ADJUST,
                 turn="ann", eliminated=("bob",))
    g.play("ann", "end")
    assert g.view(None)["turn"] == "cy"


def test_neutral_countries_defend_and_never_act() -> None:
    g = _duel(att=6, dfn=2, owners={"kamchatka": "neutral"})
    battle = g.play("ann", "attack alaska kamchatka")[0]
    assert battle["defender"] == "neutral" and len(battle["defender_dice"]) == 2
    assert "neutral" not in g.to_act()


def test_taking_a_neutral_last_chip_defeats_no_one() -> None:
    g, events = until_conquest(lambda s: _duel(s, att=6, dfn=1, owners={"kamchatka": "neutral"}),
                               "ann", "attack alaska kamchatka")
    events += g.play("ann", "invade 0")
    assert not any(e["kind"] == "defeat" for e in events)
    assert g.view(None)["phase"] == "attack" and g.view(None)["eliminated"] == []


def test_game_ends_when_one_player_owns_all_42() -> None:
    g, events = until_conquest(lambda s: position(rest="ann", owners={"kamchatka": "bob"},
                                                  chips={"alaska": 6}, seed=s),
                               "ann", "attack alaska kamchatka")
    assert events[-1]["kind"] == "win"
    assert g.is_over and g.winners == ["ann"] and g.to_act() == []
    assert g.view(None)["phase"] == "over" and g.view(None)["winner"] == "ann"
    assert g.view(None)["invade"] is None


def test_last_survivor_keeps_turns_until_the_neutrals_are_taken() -> None:
    owners = {c: "ann" for c in ALL}
    owners["kamchatka"] = "neutral"
    g = position(owners=owners, phase=Phase.ADJUST, eliminated=("bob",))
    g.play("ann", "end")
    assert g.view(None)["turn"] == "ann" and g.view(None)["phase"] == "supply"
    assert not g.is_over


def test_end_moves_to_the_adjust_phase() -> None:
    g = _duel(chips={"alberta": 2})
    g.play("ann", "end")
    assert g.view(None)["phase"] == "adjust"


def test_attack_phase_ends_by_itself_when_no_attack_is_possible() -> None:
    australia = ["indonesia", "new-guinea", "western-australia", "eastern-australia"]
    g = position(owners=dict.fromkeys(australia, "ann"), phase=Phase.SUPPLY, supply_left=2)
    g.play("ann", "place eastern-australia 2")
    assert g.view(None)["phase"] == "adjust"


def test_attack_phase_ends_by_itself_when_the_last_attacker_drops_to_one() -> None:
    for seed in range(1, 200):
        g = _duel(seed, att=2, dfn=3)
        g.play("ann", "attack alaska kamchatka")
        if g.view(None)["countries"]["alaska"]["chips"] == 1:
            assert g.view(None)["phase"] != "attack"
            return
    raise AssertionError("the attacker never lost")


def test_no_card_is_drawn_when_the_game_ends() -> None:
    g, events = until_conquest(lambda s: position(rest="ann", owners={"kamchatka": "bob"},
                                                  chips={"alaska": 6}, seed=s),
                               "ann", "attack alaska kamchatka")
    assert not any(e["kind"] in ("draw", "card") for e in events)
    assert g.view(None)["cards_held"]["ann"] == 0 and g.view(None)["deck_size"] == 52


@pytest.mark.parametrize("att", [2, 3, 4])
def test_conquest_always_leaves_a_chip_on_the_attacking_country(att: int) -> None:
    g, events = until_conquest(lambda s: _duel(s, att=att, dfn=1), "ann", "attack alaska kamchatka")
    dice = len(events[0]["attacker_dice"])
    assert dice == min(3, att - 1)
    assert g.view(None)["countries"]["alaska"]["chips"] >= 1
    assert g.view(None)["countries"]["kamchatka"]["chips"] == dice


def test_the_attack_phase_allows_any_number_of_attacks() -> None:
    g = _duel(att=20, dfn=9)
    for _ in range(3):
        assert g.play("ann", "attack alaska kamchatka")[0]["kind"] == "battle"
    assert g.view(None)["phase"] == "attack" and g.view(None)["turn"] == "ann"


def test_the_second_pair_is_compared_only_when_both_roll_two_dice() -> None:
    g = _duel(att=6, dfn=1)
    battle = g.play("ann", "attack alaska kamchatka")[0]
    assert battle["attacker_losses"] + battle["defender_losses"] == 1
    g = _duel(att=2, dfn=5)
    battle = g.play("ann", "attack alaska kamchatka")[0]
    assert battle["attacker_losses"] + battle["defender_losses"] == 1
    g = _duel(att=6, dfn=5)
    battle = g.play("ann", "attack alaska kamchatka")[0]
    assert battle["attacker_losses"] + battle["defender_losses"] == 2
