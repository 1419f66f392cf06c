"""The engine contract for NXS: registry, seats, options, saving, and the layer rule."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engines import GAMES, GameError, NotYourTurn
from engines.nxs import Nxs
from tests.engines.nxs.scenario import ANN, BOB


def test_registered_under_nxs() -> None:
    assert GAMES["nxs"] is Nxs
    assert (Nxs.NAME, Nxs.TITLE, Nxs.MIN_PLAYERS, Nxs.MAX_PLAYERS) == ("nxs", "NXS", 2, 2)


def test_every_option_is_documented() -> None:
    assert set(Nxs.OPTION_DOCS) == set(Nxs.OPTIONS)
    assert Nxs.OPTIONS["layout"] == "medium"


def test_two_players_exactly() -> None:
    with pytest.raises(GameError):
        Nxs.new([ANN])
    with pytest.raises(GameError):
        Nxs.new([ANN, BOB, "cy"])


def test_white_moves_first() -> None:
    g = Nxs.new([ANN, BOB])
    assert g.to_act() == [ANN]
    assert g.legal_moves(BOB) == []
    with pytest.raises(NotYourTurn):
        g.play(BOB, "move i2 h2")


@pytest.mark.parametrize(("layout", "count"), [("short", 14), ("medium", 20), ("long", 26)])
def test_layout_option(layout: str, count: int) -> None:
    assert len(Nxs.new([ANN, BOB], options={"layout": layout}).view(None)["pieces"]) == count


def test_saved_game_mid_turn_plays_on_identically() -> None:
    g = Nxs.new([ANN, BOB], seed=5)
    g.play(ANN, "move f4 h3")
    h = Nxs.from_json(g.to_json())
    assert h.to_json() == g.to_json() and h.view(None) == g.view(None)
    for _ in range(3):
        player = g.to_act()[0]
        assert h.legal_moves(player) == g.legal_moves(player)
        move = g.legal_moves(player)[0]
        g.play(player, move)
        h.play(player, move)
        assert h.to_json() == g.to_json()


def test_damaged_save_is_refused() -> None:
    with pytest.raises(GameError):
        Nxs.from_json('{"game": "nxs", "players": ["a", "b"], "seed": 0, "options": {}, "state": {}}')


def test_engines_import_no_discord_pil_or_aiosqlite() -> None:
    code = ("import sys, engines, engines.nxs; "
            "print([m for m in ('discord', 'PIL', 'aiosqlite') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "piece",
    [
        ["a1", 0, "galleon", "N"],  # unknown ship
        ["a1", 2, "sloop", "N"],  # no third seat
        ["z9", 0, "sloop", "N"],  # off the boards
        ["a1", 0, "sloop", "W"],  # not a facing
        ["d4", 0, "sloop", "N"],  # d4 holds the Merchant already
    ],
)
def test_save_with_a_bad_piece_is_refused(piece: list[object]) -> None:
    g = Nxs.new([ANN, BOB])
    data = json.loads(g.to_json())
    data["state"]["pieces"].append(piece)
    with pytest.raises(GameError, match="damaged"):
        Nxs.from_json(json.dumps(data))
