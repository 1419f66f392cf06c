"""The view (what the renderer and the cog rely on) and the piece_moves highlight helper."""

from __future__ import annotations

import json

import pytest

from engines import BadNotation, IllegalMove
from engines.nxs import Nxs, piece_moves
from tests.engines.nxs.scenario import ANN, BOB, scenario


def test_view_fields() -> None:
    v = Nxs.new([ANN, BOB]).view(None)
    assert {"pieces", "territory", "score", "step", "turn", "last_move", "target"} <= set(v)
    assert v["step"] == "move" and v["turn"] == ANN and v["last_move"] is None
    assert v["target"] == {ANN: 10, BOB: 10} and v["score"] == {ANN: 0, BOB: 0}
    assert v["territory"] == {ANN: [], BOB: []}
    assert v["colours"] == {ANN: "white", BOB: "black"}
    assert len(v["pieces"]) == 20
    for p in v["pieces"]:
        assert {"cell", "owner", "ship", "facing", "arrows", "range", "corners"} <= set(p)
        assert p["facing"] in ("N", "NE", "SE", "S", "SW", "NW")
    json.dumps(v)


def test_view_is_the_same_for_everyone() -> None:
    g = Nxs.new([ANN, BOB])
    assert g.view(ANN) == g.view(BOB) == g.view(None)


def test_view_gives_absolute_arrows_and_corners() -> None:
    g = scenario("w cutter d4 NE", "b brigantine k4 SW", "b merchant n1 S")
    pieces = {p["cell"]: p for p in g.view(None)["pieces"]}
    assert pieces["d4"]["arrows"] == ["NE"] and pieces["d4"]["range"] == 5
    assert sorted(pieces["d4"]["corners"]) == ["N-NE", "NE-SE"]
    assert pieces["k4"]["arrows"] == ["SW", "NW", "NE", "S"] and pieces["k4"]["corners"] == ["NW-N", "SE-S"]
    assert pieces["n1"]["arrows"] == ["S", "SW", "SE"] and pieces["n1"]["corners"] == []
    assert pieces["n1"]["owner"] == BOB and pieces["n1"]["ship"] == "merchant"


def test_view_last_move_step_and_turn() -> None:
    g = Nxs.new([ANN, BOB])
    g.play(ANN, "move f4 h3")
    v = g.view(None)
    assert v["last_move"] == {"kind": "move", "from": "f4", "to": "h3"}
    assert v["step"] == "rotate" and v["turn"] == ANN
    assert v["territory"][ANN] == ["h3"] and v["score"][ANN] == 1


def test_piece_moves_on_a_game_and_on_its_view() -> None:
    g = scenario("w brigantine d4 N", "b frigate f3 SW", "b merchant n1 SW")
    assert piece_moves(g, "d4") == {
        "moves": ["b4", "c4", "d2", "d3", "d5", "d6", "e4", "f4"], "captures": ["f3"]}
    assert piece_moves(g.view(None), "d4") == piece_moves(g, "d4")
    # any piece, whoever's turn it is: the Frigate fires back through its SW-NW corner
    assert piece_moves(g, "f3") == {"moves": ["e3", "e4", "f2", "f4", "g2"], "captures": ["d4"]}


def test_piece_moves_errors() -> None:
    g = Nxs.new([ANN, BOB])
    with pytest.raises(IllegalMove, match="no ship on a1"):
        piece_moves(g, "a1")
    with pytest.raises(BadNotation):
        piece_moves(g, "z9")
