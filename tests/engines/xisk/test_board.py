"""The felt: the map data and its checks on load."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from engines.xisk.board import MAP_PATH, MapError, exact_country, load_board, read_board, resolve_country

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
        (lambda d: d["countries"][2].pop("code"), "countries[2].code"),
        (lambda d: d["countries"][4].__setitem__("code", "ont"), "countries[4].code"),
        (lambda d: d["countries"][4].__setitem__("code", "ONTARIO"), "countries[4].code"),
        (lambda d: d["countries"][4].__setitem__("code", "O"), "countries[4].code"),
        (lambda d: d["countries"][5].__setitem__("code", "ALA"), "countries[5].code"),
    ],
)
def test_bad_map_file_names_file_and_field(tmp_path: Path, change: object, field: str) -> None:
    path = _broken(tmp_path, change)
    with pytest.raises(MapError) as err:
        read_board(path)
    assert str(path) in str(err.value) and field in str(err.value)


def test_every_country_has_a_unique_code_of_two_to_four_uppercase_letters() -> None:
    codes = [BOARD.codes[c] for c in BOARD.countries]
    assert len(set(codes)) == 42
    assert all(2 <= len(k) <= 4 and k.isascii() and k.isalpha() and k.isupper() for k in codes)
    assert BOARD.codes["alaska"] == "ALA"


@pytest.mark.parametrize("typed", ["ALA", "ala", "Ala", " aLa "])
def test_a_country_code_names_the_country(typed: str) -> None:
    assert resolve_country(typed, BOARD) == "alaska"
    assert exact_country(typed, BOARD) == "alaska"


def test_every_code_resolves_to_its_own_country_and_moves_read_it() -> None:
    from engines.xisk.moves import parse

    assert all(resolve_country(BOARD.codes[c].lower(), BOARD) == c for c in BOARD.countries)
    assert str(parse("attack ala kam")) == "attack alaska kamchatka"
    assert str(parse("adjust NWT gb 3")) == "adjust northwest-territory great-britain 3"
    assert resolve_country("ind", BOARD) == "india"  # the code, where the prefix was India or Indonesia


def test_unreadable_map_file_names_file(tmp_path: Path) -> None:
    path = tmp_path / "map.json"
    path.write_text("{ not json")
    with pytest.raises(MapError, match=r"map\.json"):
        read_board(path)
    with pytest.raises(MapError, match=r"missing\.json"):
        read_board(tmp_path / "missing.json")


HOUSE_CONTINENTS = {
    "north-america": "alaska northwest-territory greenland alberta ontario quebec "
                     "western-united-states eastern-united-states central-america",
    "south-america": "venezuela brazil peru argentina",
    "europe": "iceland great-britain scandinavia northern-europe western-europe southern-europe ukraine",
    "africa": "north-africa egypt east-africa congo south-africa madagascar",
    "asia": "middle-east afghanistan india siam china mongolia japan kamchatka irkutsk yakutsk "
            "siberia ural",
    "australia": "indonesia new-guinea western-australia eastern-australia",
}
"""The felt, house table: the country ids of each continent."""

HOUSE_EDGES = """
alaska: alberta, kamchatka, northwest-territory
northwest-territory: alberta, greenland, ontario
greenland: iceland, ontario, quebec
alberta: ontario, western-united-states
ontario: eastern-united-states, quebec, western-united-states
quebec: eastern-united-states
western-united-states: central-america, eastern-united-states
eastern-united-states: central-america
central-america: venezuela
venezuela: brazil, peru
brazil: argentina, north-africa, peru
peru: argentina
iceland: great-britain, scandinavia
great-britain: northern-europe, scandinavia, western-europe
scandinavia: northern-europe, ukraine
northern-europe: southern-europe, ukraine, western-europe
western-europe: north-africa, southern-europe
southern-europe: egypt, middle-east, north-africa, ukraine
ukraine: afghanistan, middle-east, ural
north-africa: congo, east-africa, egypt
egypt: east-africa, middle-east
east-africa: congo, madagascar, middle-east, south-africa
congo: south-africa
south-africa: madagascar
middle-east: afghanistan, india
afghanistan: china, india, ural
india: china, siam
siam: china, indonesia
china: mongolia, siberia, ural
mongolia: irkutsk, japan, kamchatka, siberia
japan: kamchatka
kamchatka: irkutsk, yakutsk
irkutsk: siberia, yakutsk
yakutsk: siberia
siberia: ural
indonesia: new-guinea, western-australia
new-guinea: eastern-australia, western-australia
western-australia: eastern-australia
"""
"""The felt, house adjacency list: each line on the felt, listed once."""


def test_continent_countries_are_the_house_table_ids() -> None:
    for cid, ids in HOUSE_CONTINENTS.items():
        assert list(BOARD.continents[cid].countries) == ids.split(), cid
    assert all(c == c.lower() and " " not in c for c in BOARD.countries)


def test_adjacent_countries_are_the_lines_of_the_house_edge_list() -> None:
    house = {frozenset((a, b.strip())) for line in HOUSE_EDGES.strip().splitlines()
             for a, rest in [line.split(": ")] for b in rest.split(",")}
    assert {frozenset(e) for e in BOARD.edges} == house
    for a, b in map(tuple, house):
        assert BOARD.adjacent(a, b)
    assert not BOARD.adjacent("alaska", "greenland") and not BOARD.adjacent("brazil", "egypt")


def test_grey_lines_join_differing_continents_and_coloured_lines_one_continent() -> None:
    home = {c: cid for cid, ids in HOUSE_CONTINENTS.items() for c in ids.split()}
    crossing = {frozenset(e) for e in BOARD.edges if home[e[0]] != home[e[1]]}
    assert {frozenset(e) for e in BOARD.intercontinental} == crossing and len(crossing) == 14
