"""The ways players type a position or a destination, and the refusals of what is no position."""

from __future__ import annotations

import re

import pytest

from engines.core.errors import BadNotation, GameError, IllegalMove
from engines.nexo.game import Nexo
from engines.nexo.moves import Ambiguous, Construct, Go, Produce, Toward, parse_move, parse_pos
from engines.nexo.toward import resolve_full
from tests.engines.nexo.support import crossroads_game, unit

CELL_K5 = (21.0, 9.0)
"""The centre of grid cell K5 (column K, row 5); depot K5 of the crossroads is at (22, 24)."""
NOTE = "K5 is the depot; for the cell write cell K5."


def game() -> Nexo:
    """Ann's trooper a3 at (22, 14) on the crossroads, 10" short of depot K5, 5" from cell K5."""
    g: Nexo = crossroads_game([unit("a3", "trooper", 22, 14)], [unit("b3", "trooper", 22, 46)])
    return g


def played(text: str) -> tuple[Nexo, list[dict[str, object]]]:
    g = game()
    return g, g.play("ann", text)


def end_of(g: Nexo) -> tuple[float, float]:
    """Where the last move logged ended (the log holds the canonical ``move a3 x,y``)."""
    assert g.last_move is not None and re.fullmatch(r"move a3 -?[0-9.]+,-?[0-9.]+", g.last_move), g.last_move
    return parse_pos(g.last_move.split()[-1])


def notes(events: list[dict[str, object]]) -> list[object]:
    return [e["text"] for e in events if e["kind"] == "note"]


def test_the_bots_own_recap_form_x_comma_y_in_parentheses_is_read() -> None:
    _, events = played("move a3 20.5,12.99")
    recap = next(str(e["text"]) for e in events if e["kind"] == "move")
    assert re.fullmatch(r'a3 moves [0-9.]+" to \(20\.5, 12\.99\)\.', recap), recap
    typed = recap[recap.index("("):recap.index(")") + 1]  # '(20.5, 12.99)'
    g2, _ = played(f"move a3 {typed}")
    assert end_of(g2) == (20.5, 12.99) and g2.last_move == "move a3 20.5,12.99"


def test_x_comma_space_y_in_parentheses_is_read() -> None:
    assert parse_move("move a1 (30.79, 15.99)") == Go("move", "a1", ((30.79, 15.99),))
    assert parse_move("move a1 ( 30.79 , 15.99 )") == Go("move", "a1", ((30.79, 15.99),))


def test_x_space_y_two_numbers_are_one_position() -> None:
    assert parse_move("move a1 30.79 15.99") == Go("move", "a1", ((30.79, 15.99),))
    assert parse_move("dash a1 1 2 3 4") == Go("dash", "a1", ((1.0, 2.0), (3.0, 4.0)))


def test_inch_marks_after_the_numbers_are_read() -> None:
    assert parse_move('move a1 30.79",15.99"') == Go("move", "a1", ((30.79, 15.99),))
    assert parse_move('move a1 30.79" 15.99"') == Go("move", "a1", ((30.79, 15.99),))
    assert parse_move("move a1 30.79\u201d, 15.99\u2033") == Go("move", "a1", ((30.79, 15.99),))  # a phone's marks


def test_a_path_of_positions_in_parentheses_may_have_commas_between() -> None:
    assert parse_move("move a1 (1, 2), (3, 4) C7") == Go("move", "a1", ((1.0, 2.0), (3.0, 4.0), (5.0, 13.0)))


@pytest.mark.parametrize("text", ["P9", "p9", "P 9", "p 9", "9P", "9p", "P9.", "cell P9", "cell p 9"])
def test_a_cell_in_any_case_spacing_and_order_is_read(text: str) -> None:
    assert parse_pos(text) == (31.0, 17.0)  # column P (the 16th), row 9


@pytest.mark.parametrize("text", ["move a1 p 9", "move a1 9P", "move a1 cell P9", "move a1 to 9p"])
def test_a_cell_as_a_destination_is_a_plain_move(text: str) -> None:
    assert parse_move(text) == Go("move", "a1", ((31.0, 17.0),))


def test_a_cell_shaped_lone_word_waits_for_the_game_to_say_whether_it_is_an_id() -> None:
    assert parse_move("move a1 P9.") == Ambiguous("move", "a1", "P9", (31.0, 17.0))
    assert str(parse_move("move a1 K5")) == "move a1 K5" and parse_move("move a1 K5") == parse_move("move a1 K5")


def test_a_lone_cell_that_names_no_piece_is_the_cell_with_no_note() -> None:
    g, events = played("move a3 K7.")  # the crossroads' depots are K1-K6: there is no piece K7
    assert end_of(g) == (21.0, 13.0) and notes(events) == []


def test_bare_k5_is_the_depot_and_the_reply_says_how_to_write_the_cell() -> None:
    g, events = played("move a3 K5")
    x, y = end_of(g)
    assert (x, y) != CELL_K5 and x == pytest.approx(22) and 14 < y < 24  # straight on toward K5 (22, 24)
    assert notes(events) == [NOTE]
    assert all(e.get("to") == "ann" for e in events if e["kind"] == "note")  # private: the log is unchanged
    towards, _ = played("move a3 towards K5")
    assert towards.last_move == g.last_move  # the same move as the explicit form


def test_the_logged_move_of_bare_k5_replays_to_the_same_state() -> None:
    g, _ = played("move a3 K5")
    assert g.last_move is not None
    replay = game()
    events = replay.play("ann", g.last_move)
    assert replay.dump_state() == g.dump_state() and notes(events) == []


def test_cell_k5_is_the_grid_cell() -> None:
    g, events = played("move a3 cell K5")
    assert end_of(g) == CELL_K5 and notes(events) == []


def test_k5_typed_in_lower_case_is_the_depot_too() -> None:
    g, events = played("move a3 k5")
    assert notes(events) == [NOTE] and end_of(g) == end_of(played("move a3 toward K5")[0])


def test_a_lone_unit_id_is_the_unit_and_the_note_names_the_cell() -> None:
    g, events = played("move a3 b3")
    assert notes(events) == ["b3 is a unit; for the cell write cell B3."]
    assert end_of(g) == end_of(played("move a3 toward b3")[0])


def test_a_refused_move_toward_an_ambiguous_word_says_how_to_write_the_cell() -> None:
    g = crossroads_game([unit("a3", "trooper", 22, 21.8)], [unit("b3", "trooper", 22, 46)])
    with pytest.raises(IllegalMove, match=re.escape(f"already beside K5 ({NOTE.rstrip('.')}).")):
        g.play("ann", "move a3 K5")


@pytest.mark.parametrize("text", ["move a3 to K5", "move a3 toward K5", "move a3 towards K5", "move a3 to depot K5",
                                  "move a3 depot K5", "move a3 towards k5."])
def test_to_toward_and_towards_lead_a_goal(text: str) -> None:
    g, _ = played(text)
    assert end_of(g) == end_of(played("move a3 toward K5")[0])


@pytest.mark.parametrize("text, goal", [
    ("move a3 toward the enemy HQ", "the enemy HQ"), ("move a3 towards enemy headquarters.", "enemy headquarters"),
    ("move a3 to the enemy gunner", "the enemy gunner"), ("move a3 toward bob's generator", "bob's generator"),
    ("move a3 toward depot", "depot"), ("move a3 the nearest depot", "the nearest depot"),
    ("move a3 to enemy", "enemy"), ("move a3 enemy", "enemy"), ("move a3 toward the K5", "the K5"),
])
def test_a_goal_named_in_words_is_a_toward_form_kept_as_typed(text: str, goal: str) -> None:
    assert parse_move(text) == Toward("move", "a3", goal)


@pytest.mark.parametrize("text, goal", [("move a3 toward the enemy HQ", "B1"), ("move a3 to the nearest depot", "K5"),
                                       ("move a3 to my generator", "A2"), ("move a3 toward enemy", "b3")])
def test_a_goal_named_in_words_plays_as_the_piece_it_names(text: str, goal: str) -> None:
    move = parse_move(text)
    assert isinstance(move, Toward)
    r = resolve_full(game().world(), "p1", move)
    assert r.goal is not None and r.goal.id == goal
    g, _ = played(text)
    assert g.last_move == str(r.go) == played(f"move a3 toward {goal}")[0].last_move


@pytest.mark.parametrize("text", ["move a1 to (3, 4)", "move a1 to p 9", "move a1 to cell k5", "move a1 to 9p k5",
                                  "move a1 to 3 4"])
def test_positions_after_to_are_never_read_as_names(text: str) -> None:
    assert isinstance(parse_move(text), Go)


def test_to_before_a_position_is_the_position() -> None:
    assert parse_move("move a1 to (3, 4)") == Go("move", "a1", ((3.0, 4.0),))
    assert parse_move("dash a1 to 3,4 5,6") == Go("dash", "a1", ((3.0, 4.0), (5.0, 6.0)))


def test_towards_is_toward_and_round_trips_in_the_canonical_form() -> None:
    move = parse_move("move a1 towards K5")
    assert move == Toward("move", "a1", "K5") and str(move) == "move a1 toward K5" and parse_move(str(move)) == move


@pytest.mark.parametrize("text", ["move a1 take cover", "move a1 cover", "move a1 into cover", "move a1 Take Cover."])
def test_take_cover_is_the_cover_form(text: str) -> None:
    assert parse_move(text) == Toward("move", "a1")


def test_take_cover_plays_as_cover() -> None:
    g, _ = played("move a3 take cover")
    assert end_of(g) == end_of(played("move a3 cover")[0])


def test_four_inches_forward_is_refused_naming_the_forms_accepted() -> None:
    with pytest.raises(BadNotation) as err:
        parse_move("move a1 4 inches forward")
    text = str(err.value)
    assert "no facing" in text and "x,y" in text and "C7" in text and "toward <id>" in text and "cover" in text


def test_a_unit_typed_as_a_space_4_is_the_unit_a4() -> None:
    assert parse_move("move a 4 30,12") == Go("move", "a4", ((30.0, 12.0),))
    assert parse_move("shoot a 4 b 3") == parse_move("shoot a4 b3")
    g, _ = played("move a 3 (21, 9)")
    assert end_of(g) == (21.0, 9.0)


def test_an_unreadable_unit_in_two_words_is_named_as_the_unit_not_the_position() -> None:
    with pytest.raises(BadNotation, match=r"I can't read the unit in 'move a 4\.5 30,12': a unit is one word"):
        parse_move("move a 4.5 30,12")


def test_produce_and_construct_read_the_same_positions() -> None:
    assert parse_move("produce A1 trooper (14, 9.5)") == Produce("A1", "trooper", (14.0, 9.5))
    assert parse_move('construct foundry 20" 14" r90') == Construct("foundry", (20.0, 14.0), 90)
    assert parse_move("construct foundry cell K5") == Construct("foundry", CELL_K5, 0)


@pytest.mark.parametrize("text, quoted", [
    ("move a3 (1,2,3)", "(1,2,3)"), ("move a3 nan,1", "nan,1"), ("move a3 1,2,3", "1,2,3"), ("move a3 (1,2", "(1,2"),
    ("move a3 1,", "1,"), ("move a3 \u0663,4", "\u0663,4"), ("move a3 1,2\u00b2", "\u00b2"),
    ("move a3 cell 3,4", "cell 3,4"),
])
def test_junk_positions_are_refused_with_a_short_message(text: str, quoted: str) -> None:
    with pytest.raises(BadNotation) as err:
        game().play("ann", text)
    message = str(err.value)
    assert message.startswith(f"I can't read the position '{quoted}': write x,y in inches or a cell like C7")
    assert len(message) <= 300 and "Traceback" not in message and "Error" not in message


@pytest.mark.parametrize("text, quoted", [("move a3 P99", "p99"), ("move a3 W5", "w5"), ("move a3 nan", "nan")])
def test_a_lone_word_that_is_no_cell_and_no_piece_is_refused_as_a_position(text: str, quoted: str) -> None:
    g = game()
    before = g.dump_state()
    with pytest.raises(BadNotation, match=re.escape(f"I can't read the position '{quoted}': write x,y in inches")):
        g.play("ann", text)
    assert g.dump_state() == before


@pytest.mark.parametrize("text", ["move a1 toward 3,4", "dash a1 cover 3,4", "move a1 toward", "move a1 toward K1 K2",
                                  "move a1", "move a1 .", "construct foundry 20,14 r45", "produce A1 trooper 1,2 3,4"])
def test_malformed_destinations_are_short_bad_notation(text: str) -> None:
    with pytest.raises(GameError) as err:
        parse_move(text)
    assert isinstance(err.value, BadNotation) and str(err.value).startswith("I can't read")
    assert len(str(err.value)) <= 200


def test_a_long_junk_path_is_refused_quickly_and_shortly() -> None:
    with pytest.raises(BadNotation) as err:
        parse_move("move a1 " + "1 " * 100_000)
    assert len(str(err.value)) <= 200
