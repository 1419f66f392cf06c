"""Views: the fields the tests and the renderer rely on, JSON-safe."""

from __future__ import annotations

import json
import random

from engines.xisk import Xisk
from tests.engines.xisk.helpers import random_move

FIELDS = {"phase", "turn", "order", "countries", "cards_held", "sets_redeemed", "supply_left",
          "to_act", "claims", "last_battle", "eliminated", "winner"}


def test_public_view_has_the_contract_fields_and_is_json_safe() -> None:
    g = Xisk.new(["ann", "bob", "cy"], seed=1, options={"cards_per_player": 2})
    rnd = random.Random(1)
    for _ in range(60):
        view = g.view(None)
        assert set(view) >= FIELDS
        assert json.loads(json.dumps(view)) == view
        assert isinstance(view["phase"], str)
        assert set(view["countries"]) == set(g.board.countries)
        g.play(*random_move(g, rnd, aggressive=0.9))
    assert g.view(None)["last_battle"] is not None


def test_turn_is_none_while_claiming() -> None:
    g = Xisk.new(["ann", "bob"], seed=1)
    view = g.view(None)
    assert view["turn"] is None and view["to_act"] == g.to_act() and view["order"] == []
    assert all(v == {"owner": None, "chips": 0} for v in view["countries"].values())


def test_options_are_documented() -> None:
    assert set(Xisk.OPTIONS) == set(Xisk.OPTION_DOCS)
    assert Xisk.OPTIONS == {"cards_per_player": None}
