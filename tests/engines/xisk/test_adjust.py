"""C. The adjust phase and the end of a turn (the card draw, the next player)."""

from __future__ import annotations

from typing import Any

import pytest

from engines import IllegalMove
from engines.core import is_public
from engines.xisk import Xisk
from engines.xisk.state import Phase
from tests.engines.xisk.helpers import position


def _adjusting(**kw: Any) -> Xisk:
    owners = {"alaska": "ann", "alberta": "ann", "ontario": "ann"}
    return position(owners=owners, chips={"alaska": 5}, phase=Phase.ADJUST, **kw)


def test_adjust_is_one_transfer_then_the_turn_ends() -> None:
    g = _adjusting()
    events = g.play("ann", "adjust alaska alberta 3")
    assert events[0]["kind"] == "adjust"
    assert g.view(None)["countries"]["alberta"]["chips"] == 4
    assert g.view(None)["turn"] == "bob" and g.view(None)["phase"] == "supply"


def test_adjust_leaves_one_chip_behind() -> None:
    g = _adjusting()
    with pytest.raises(IllegalMove, match="stay behind"):
        g.play("ann", "adjust alaska alberta 5")
    assert "adjust alaska alberta 4" in g.legal_moves("ann")
    assert "adjust alaska alberta 5" not in g.legal_moves("ann")


def test_adjust_only_between_adjacent_owned_countries() -> None:
    g = _adjusting()
    with pytest.raises(IllegalMove, match="no line"):
        g.play("ann", "adjust alaska ontario 1")
    with pytest.raises(IllegalMove, match="own both"):
        g.play("ann", "adjust alaska kamchatka 1")


def test_adjust_end_skips_the_transfer() -> None:
    g = _adjusting()
    g.play("ann", "end")
    assert g.view(None)["turn"] == "bob" and g.view(None)["countries"]["alaska"]["chips"] == 5


def test_adjust_phase_is_skipped_when_no_transfer_is_possible() -> None:
    g = position(owners={"alaska": "ann", "alberta": "ann"}, chips={"alaska": 2}, phase=Phase.ATTACK)
    g.state.chips["alaska"] = 2
    g.play("ann", "end")
    assert g.view(None)["turn"] == "ann" and g.view(None)["phase"] == "adjust"
    g2 = position(owners={"alaska": "ann", "peru": "ann"}, chips={"alaska": 2}, phase=Phase.ATTACK)
    g2.play("ann", "end")
    assert g2.view(None)["turn"] == "bob"


def test_card_drawn_after_a_conquering_turn() -> None:
    g = _adjusting()
    g.state.conquered = True
    top = g.state.deck[0]
    events = g.play("ann", "end")
    public = [e for e in events if is_public(e)]
    assert any(e["kind"] == "draw" for e in public) and all(top not in e["text"] for e in public)
    private = [e for e in events if not is_public(e)]
    assert private == [{"kind": "card", "text": f"You draw {top}.", "to": "ann", "card": top}]
    assert g.view("ann")["hand"] == [top] and g.view(None)["cards_held"]["ann"] == 1


def test_no_card_without_a_conquest() -> None:
    g = _adjusting()
    g.play("ann", "end")
    assert g.view(None)["cards_held"]["ann"] == 0 and g.view(None)["deck_size"] == 52


def test_an_empty_deck_draws_nothing() -> None:
    g = _adjusting()
    g.state.conquered = True
    g.state.hands["bob"] = g.state.deck
    g.state.deck = []
    events = g.play("ann", "end")
    assert any("empty" in e["text"] for e in events)
    assert g.view(None)["cards_held"]["ann"] == 0


def test_eliminated_players_are_skipped() -> None:
    g = position(("ann", "bob", "cy", "dee"), owners={"alaska": "ann", "peru": "dee"}, rest="cy",
                 phase=Phase.ADJUST, turn="cy", eliminated=("bob",))
    g.play("cy", "end")
    assert g.view(None)["turn"] == "dee"
    g.state.phase = Phase.ADJUST
    g.play("dee", "end")
    assert g.view(None)["turn"] == "ann"
    g.state.phase = Phase.ADJUST
    g.play("ann", "end")
    assert g.view(None)["turn"] == "cy"


def test_play_proceeds_to_the_next_player_in_turn_order() -> None:
    g = position(("ann", "bob", "cy"), owners={"alaska": "ann", "peru": "bob"}, rest="cy",
                 phase=Phase.ADJUST, turn="cy")
    g.state.order = ["cy", "ann", "bob"]
    g.state.turn_index = 0
    g.play("cy", "end")
    assert g.view(None)["turn"] == "ann"
    g.state.phase = Phase.ADJUST
    g.play("ann", "end")
    assert g.view(None)["turn"] == "bob"
    g.state.phase = Phase.ADJUST
    g.play("bob", "end")
    assert g.view(None)["turn"] == "cy"


def test_the_card_is_drawn_after_the_adjust_transfer() -> None:
    g = _adjusting()
    g.state.conquered = True
    events = g.play("ann", "adjust alaska alberta 1")
    kinds = [e["kind"] for e in events]
    assert kinds.index("adjust") < kinds.index("draw") < kinds.index("turn")
