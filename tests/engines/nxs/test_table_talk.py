"""Table talk: NXS refusals and events a player understands (suggestions, what is legal, order)."""

from __future__ import annotations

import pytest

from engines import BadNotation, GameError
from engines.nxs import Nxs
from engines.nxs.board import CELLS
from engines.nxs.rules import why_not_slide
from tests.engines.nxs.scenario import ANN, scenario

RACE = ("w sloop n4 N", "w merchant a1 N", "b merchant l1 SW")


def test_a_cell_off_its_column_says_how_far_the_column_runs() -> None:
    g = scenario(*RACE)
    with pytest.raises(BadNotation, match="'d9' is not a hex of the boards: column d runs from d1 to d7"):
        g.play(ANN, "move n4 d9")


def test_a_misspelt_cell_suggests_the_nearest_cell() -> None:
    g = scenario(*RACE)
    with pytest.raises(BadNotation, match="'4n' is not a hex of the boards: did you mean n4"):
        g.play(ANN, "move 4n n1")


def test_a_misspelt_move_word_suggests_the_move_and_lists_the_legal_moves() -> None:
    g = scenario("w sloop n4 N", "b merchant l1 SW")
    legal = g.legal_moves(ANN)
    assert legal == ["move n4 n1", "move n4 n2", "move n4 n3", "resign"]
    with pytest.raises(BadNotation) as err:
        g.play(ANN, "mvoe n4 n1")
    assert str(err.value) == "I can't read 'mvoe n4 n1': did you mean move? Legal now: " + ", ".join(legal) + "."


def test_a_bad_move_with_many_legal_moves_names_their_kinds() -> None:
    g = Nxs.new(["ann", "bob"])
    with pytest.raises(BadNotation) as err:
        g.play("ann", "sail")
    assert str(err.value).startswith("I can't read 'sail'. Legal now: ")
    assert str(err.value).endswith(f"{len(g.legal_moves('ann'))} moves (move <from> <to>, resign).")


def test_a_misspelt_ship_type_suggests_the_roster_ship() -> None:
    with pytest.raises(GameError, match="'slop' is not a ship of the roster: did you mean sloop"):
        scenario("w slop n4 N", "b merchant l1 SW")


def test_a_misspelt_layout_suggests_the_nearest_layout() -> None:
    with pytest.raises(GameError, match="no layout 'shrot': did you mean short"):
        Nxs.new(["ann", "bob"], options={"layout": "shrot"})


def test_a_winning_move_tells_the_move_first_then_one_ending() -> None:
    g = scenario(*RACE, "w sloop j2 N")
    kinds = [e["kind"] for e in g.play(ANN, "move n4 n1")]
    assert kinds == ["move", "territory", "win"]


def test_one_hex_is_singular() -> None:
    g = scenario("w frigate d4 N", "w merchant a1 N", "b merchant l1 SW")
    text = why_not_slide(g.pos, CELLS["d4"], CELLS["d7"], g.ships)
    assert text.endswith("up to 1 hex.") and "hex(es)" not in text
