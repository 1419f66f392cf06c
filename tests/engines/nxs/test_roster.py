"""Roster and layouts (house rules), kept as data in data/nxs/ and checked on load."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engines.nxs.board import BOARDS, CELLS, cell_name
from engines.nxs.roster import (
    LAYOUTS_FILE,
    ROSTER_FILE,
    DataError,
    load_layouts,
    load_roster,
    parse_layouts,
    parse_roster,
)

SHIPS = load_roster()
LAYOUTS = load_layouts(SHIPS)


def test_roster_table() -> None:
    table = {k: (s.code, s.arrows, s.range, s.corners) for k, s in SHIPS.items()}
    assert table == {
        "merchant": ("3-0", (0, 1, 5), 3, ()),
        "brigantine": ("4-2", (0, 1, 3, 5), 2, (1, 4)),
        "frigate": ("5-4", (0, 1, 2, 4, 5), 1, (0, 1, 4, 5)),
        "sloop": ("2-2", (0, 3), 4, (1, 4)),
        "cutter": ("1-2", (0,), 5, (0, 5)),
    }


def test_arrows_plus_range_make_six() -> None:
    assert all(len(s.arrows) + s.range == 6 for s in SHIPS.values())


def test_only_the_merchant_is_immune_and_has_no_bold_corner() -> None:
    assert [k for k, s in SHIPS.items() if s.immune] == ["merchant"]
    assert [k for k, s in SHIPS.items() if not s.corners] == ["merchant"]


@pytest.mark.parametrize(("name", "count"), [("short", 7), ("medium", 10), ("long", 13)])
def test_published_layouts_piece_counts_and_one_merchant_a_side(name: str, count: int) -> None:
    pieces = LAYOUTS[name].pieces
    for seat in (0, 1):
        mine = [p for p in pieces if p[0] == seat]
        assert len(mine) == count
        assert sum(p[1] == "merchant" for p in mine) == 1
        assert all(CELLS[p[2]] in BOARDS[seat] for p in mine)


def test_medium_layout_white_as_in_the_house_rules() -> None:
    white = {(ship, cell) for seat, ship, cell, _ in LAYOUTS["medium"].pieces if seat == 0}
    assert white == {("cutter", "f5"), ("cutter", "f1"), ("brigantine", "f4"), ("brigantine", "f3"),
                     ("brigantine", "f2"), ("sloop", "e5"), ("sloop", "e2"), ("frigate", "e4"),
                     ("frigate", "e3"), ("merchant", "d4")}


def test_short_layout_white_as_in_the_house_rules() -> None:
    white = {(ship, cell) for seat, ship, cell, _ in LAYOUTS["short"].pieces if seat == 0}
    assert white == {("cutter", "f5"), ("cutter", "f1"), ("brigantine", "f4"), ("brigantine", "f2"),
                     ("merchant", "f3"), ("frigate", "e4"), ("frigate", "e3")}


def test_long_layout_is_medium_plus_three() -> None:
    medium, long = set(LAYOUTS["medium"].pieces), set(LAYOUTS["long"].pieces)
    assert medium < long
    assert {(s, c) for seat, s, c, _ in long - medium if seat == 0} == {
        ("frigate", "d5"), ("brigantine", "d3"), ("cutter", "e1")}


@pytest.mark.parametrize("name", ["short", "medium", "long"])
def test_black_is_white_turned_half_round_facing_sw(name: str) -> None:
    pieces = LAYOUTS[name].pieces
    white = {(s, CELLS[c]) for seat, s, c, _ in pieces if seat == 0}
    black = {(s, CELLS[c]) for seat, s, c, _ in pieces if seat == 1}
    assert black == {(s, (7 - q, -3 - r)) for s, (q, r) in white}
    assert {f for seat, _, _, f in pieces if seat == 0} == {1}  # NE
    assert {f for seat, _, _, f in pieces if seat == 1} == {4}  # SW
    assert cell_name((7, -3)) == "k4"


def _roster() -> Any:
    return json.loads(ROSTER_FILE.read_text())


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["ships"]["sloop"].update(range=5), "ships.sloop.range"),
        (lambda d: d["ships"]["sloop"].update(arrows=[0, 9]), "ships.sloop.arrows"),
        (lambda d: d["ships"]["cutter"].update(corners=["0/2"]), "ships.cutter.corners[0]"),
        (lambda d: d["ships"]["frigate"].update(code="5-3"), "ships.frigate.code"),
        (lambda d: d.pop("ships"), "ships"),
    ],
)
def test_bad_roster_names_file_and_field(change: Callable[[Any], Any], field: str) -> None:
    data = _roster()
    change(data)
    with pytest.raises(DataError, match="^" + re.escape(f"roster.json: {field} ")):
        parse_roster(data, Path("roster.json"))


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["layouts"]["short"]["white"].update(galleon=["d4"]), "layouts.short.white.galleon"),
        (lambda d: d["layouts"]["short"]["white"].update(merchant=["z9"]), "layouts.short.white.merchant"),
        (lambda d: d["layouts"]["short"]["white"].update(merchant=["k4"]), "layouts.short.white.merchant"),
        (lambda d: d["layouts"]["short"]["white"].update(merchant=["f5"]), "layouts.short.white.merchant"),
        (lambda d: d["facing"].update(black="W"), "facing"),
        (lambda d: d.update(default="huge"), "default"),
    ],
)
def test_bad_layout_names_file_and_field(change: Callable[[Any], Any], field: str) -> None:
    data = json.loads(LAYOUTS_FILE.read_text())
    change(data)
    with pytest.raises(DataError, match="^" + re.escape(f"layouts.json: {field} ")):
        parse_layouts(data, Path("layouts.json"), SHIPS)


def test_unreadable_data_file_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "roster.json"
    bad.write_text("{not json")
    with pytest.raises(DataError, match=r"^roster\.json: line \d+: not valid JSON"):
        load_roster(bad)
    with pytest.raises(DataError, match=r"^nothere\.json: the file is missing"):
        load_roster(tmp_path / "nothere.json")
