"""Notation (house rules: Notation): parse and str round-trip; case and spaces do not matter."""

from __future__ import annotations

import pytest

from engines import BadNotation
from engines.nxs import Nxs
from engines.nxs.moves import Capture, Resign, Rotate, Slide, parse


def test_every_legal_move_round_trips() -> None:
    g = Nxs.new(["ann", "bob"], options={"layout": "long"})
    moves = g.legal_moves("ann")
    g.play("ann", "move f4 h3")
    moves += g.legal_moves("ann")
    for text in moves:
        assert str(parse(text)) == text
        assert parse(str(parse(text))) == parse(text)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("move f4 h3", Slide("f4", "h3")),
        ("  MoVe   F4  H3 ", Slide("f4", "h3")),
        ("move f4-h3", Slide("f4", "h3")),
        ("capture d4 f3", Capture("d4", "f3")),
        ("rotate d4 left", Rotate("d4", "left")),
        ("rotate D4 R", Rotate("d4", "right")),
        ("rotate right d4", Rotate("d4", "right")),
        ("rotate d4 ccw", Rotate("d4", "left")),
        ("Resign", Resign()),
    ],
)
def test_notation_is_case_insensitive_and_forgiving(text: str, move: object) -> None:
    assert parse(text) == move


@pytest.mark.parametrize("text", ["", "move", "move d4", "move d4 d5 d6", "fly d4 d5", "move z9 d5",
                                  "rotate d4 up", "rotate d4", "rotate left right", "capture d4 o1"])
def test_bad_notation_names_what_was_typed(text: str) -> None:
    with pytest.raises(BadNotation) as err:
        parse(text)
    assert f"'{text.strip()}'" in str(err.value) or "'z9'" in str(err.value) or "'o1'" in str(err.value)


def test_the_log_gets_the_canonical_form() -> None:
    g = Nxs.new(["ann", "bob"])
    g.play("ann", " MOVE  F4-H3 ")
    assert g.last_move == "move f4 h3"
    g.play("ann", "rotate right h3")
    assert g.last_move == "rotate h3 right"
