"""Table talk: Nexohominis refusals a player understands (suggestions, what is legal, plurals)."""

from __future__ import annotations

import pytest

from engines.core.errors import BadNotation, IllegalMove
from tests.engines.nexo.support import HQ1, scenario_game, unit

FOUNDRY = {"id": "A2", "type": "foundry", "x": 12, "y": 6}


def _production():  # type: ignore[no-untyped-def]
    return scenario_game([], [unit("b5", "trooper", 20, 50)], phase="production", b1=[HQ1, FOUNDRY])


def test_a_misspelt_unit_type_suggests_the_datasheet() -> None:
    with pytest.raises(IllegalMove, match=r"^There is no unit type 'troper': did you mean trooper\?$"):
        _production().play("ann", "produce A2 troper")


def test_a_misspelt_building_type_suggests_one_that_can_be_built() -> None:
    with pytest.raises(IllegalMove, match=r"'foundyr' is not a building you can construct: did you mean foundry\?"):
        _production().play("ann", "construct foundyr 20,14")


def test_a_misspelt_id_suggests_the_nearest_piece() -> None:
    with pytest.raises(IllegalMove, match=r"^There is no unit or building 'A22': did you mean A2\?$"):
        _production().play("ann", "scrap A22")


def test_a_misspelt_weapon_suggests_the_units_weapon() -> None:
    g = scenario_game([unit("a1", "trooper", 20, 20)], [unit("b5", "trooper", 20, 30)], phase="action")
    with pytest.raises(IllegalMove, match=r"a1 has no ranged weapon called 'rilfe': did you mean rifle\?"):
        g.play("ann", "shoot a1 b5 rilfe")


def test_a_misspelt_order_suggests_it_and_names_the_orders_legal_now() -> None:
    with pytest.raises(BadNotation) as err:
        _production().play("ann", "prodcue A2 trooper")
    assert str(err.value).startswith("I can't read 'prodcue A2 trooper': 'prodcue' is not an order: "
                                     "did you mean produce? Legal now: produce <building> <unit type> [<x,y>]")
    assert "end" in str(err.value) and "moves (" not in str(err.value)


def test_one_pass_is_singular() -> None:
    g = scenario_game([unit("a1", "drudge", 10, 10)], [unit("b1", "drudge", 30, 50), unit("b2", "drudge", 32, 50)],
                      phase="initiative")
    texts = [e["text"] for e in g.play("ann", "first me")]
    assert "ann is outnumbered and gains 1 Pass this phase." in texts
