"""The felt: the map data and its checks on load."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from engines.xisk.board import MAP_PATH, MapError, load_board, read_board

BOARD = load_board()


def test_map_has_42_countries_83_edges_14_intercontinental() -> None:
    assert len(BOARD.countries) == 42
    assert len(BOARD.edges) == 83
    assert len(BOARD.intercontinental) == 14


def test_continent_sizes_colours_and_bonuses() -> None:
    table = {c.name: (len(c.countries), c.colour, c.bonus) for c in BOARD.continents.values()}
    assert table == {
        "North America": (9, "yellow", 5), "South America": (4, "cyan", 2),
        "Europe": (7, "blue", 5), "Africa": (6, "red", 3),
        "Asia": (12, "green", 7), "Australia": (4, "magenta", 2),
    }


def test_adjacency_is_symmetric_and_connected() -> None:
    for a, b in BOARD.edges:
        assert BOARD.adjacent(a, b) and BOARD.adjacent(b, a)
    seen, todo = {"alaska"}, ["alaska"]
    while todo:
        for n in BOARD.neighbours[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(BOARD.countries)


def test_degree_sum_is_twice_the_edges() -> None:
    degrees = Counter({c: len(n) for c, n in BOARD.neighbours.items()})
    assert sum(degrees.values()) == 2 * 83


def test_positions_look_like_a_world_map() -> None:
    pos = BOARD.positions
    assert pos["alaska"][0] < 200 and pos["alaska"][1] < 250
    assert pos["kamchatka"][0] > 1300 and pos["kamchatka"][1] < 250
    assert pos["argentina"][1] > pos["venezuela"][1]
    assert pos["eastern-australia"][0] > pos["madagascar"][0]
    assert all(0 <= x <= 1600 and 0 <= y <= 1000 for x, y in pos.values())


def _broken(tmp_path: Path, change: object) -> Path:
    data = json.loads(MAP_PATH.read_text())
    change(data)  # type: ignore[operator]
    path = tmp_path / "map.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["edges"].pop(), "edges"),
        (lambda d: d["countries"].pop(), "countries"),
        (lambda d: d["countries"][3].pop("continent"), "countries[3].continent"),
        (lambda d: d["countries"][0].__setitem__("continent", "atlantis"), "countries[0].continent"),
        (lambda d: d["continents"][1].__setitem__("bonus", "two"), "continents[1].bonus"),
        (lambda d: d["edges"].__setitem__(0, ["alaska", "narnia"]), "edges[0]"),
        (lambda d: d["edges"].__setitem__(1, list(d["edges"][0])), "edges[1]"),
    ],
)
def test_bad_map_file_names_file_and_field(tmp_path: Path, change: object, field: str) -> None:
    path = _broken(tmp_path, change)
    with pytest.raises(MapError) as err:
        read_board(path)
    assert str(path) in str(err.value) and field in str(err.value)


def test_unreadable_map_file_names_file(tmp_path: Path) -> None:
    path = tmp_path / "map.json"
    path.write_text("{ not json")
    with pytest.raises(MapError, match=r"map\.json"):
        read_board(path)
    with pytest.raises(MapError, match=r"missing\.json"):
        read_board(tmp_path / "missing.json")
