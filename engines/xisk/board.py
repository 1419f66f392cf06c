"""The felt: 42 countries, 6 continents and 83 lines, loaded from ``data/xisk/map.json``.

The file is checked on load; anything wrong raises :class:`MapError` naming the
file and the field::

    >>> board = load_board()
    >>> len(board.countries), len(board.edges), len(board.intercontinental)
    (42, 83, 14)
    >>> board.adjacent("alaska", "kamchatka"), board.continent_of["egypt"]
    (True, 'africa')

Players name a country by its id, its name, its short code (printed on the picture) or a
unique prefix (:func:`resolve_country`)::

    >>> resolve_country("Great Britain", board), resolve_country("w. eur", board), resolve_country("nwt", board)
    ('great-britain', 'western-europe', 'northwest-territory')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engines.core.datafile import read_json
from engines.core.errors import IllegalMove, shown
from engines.core.words import did_you_mean

MAP_PATH = Path(__file__).resolve().parents[2] / "data" / "xisk" / "map.json"
"""Where the map lives, relative to the project root."""

COUNTRY_COUNT = 42
EDGE_COUNT = 83
INTERCONTINENTAL_COUNT = 14
CODE_LETTERS = (2, 4)
"""A country's code is this many uppercase letters (A–Z), at least and at most."""


class MapError(ValueError):
    """A map file that is missing, unreadable or inconsistent."""


@dataclass(frozen=True)
class Continent:
    """A continent: id, display name, colour and supply bonus."""

    id: str
    name: str
    colour: str
    bonus: int
    countries: tuple[str, ...]


@dataclass(frozen=True)
class Board:
    """The loaded map; country ids keep the file's order (the house rules' table order)."""

    countries: tuple[str, ...]
    names: dict[str, str]
    codes: dict[str, str]
    """Country → its short code (``ALA``): printed on the picture, accepted in any case in moves."""
    continent_of: dict[str, str]
    continents: dict[str, Continent]
    edges: tuple[tuple[str, str], ...]
    neighbours: dict[str, frozenset[str]]
    positions: dict[str, tuple[int, int]]
    canvas: tuple[int, int]

    @property
    def intercontinental(self) -> list[tuple[str, str]]:
        """Returns the edges whose ends lie on different continents."""
        return [(a, b) for a, b in self.edges if self.continent_of[a] != self.continent_of[b]]

    def adjacent(self, a: str, b: str) -> bool:
        """Returns True when a line on the felt joins ``a`` and ``b``."""
        return b in self.neighbours.get(a, frozenset())


def _need(cond: bool, path: Path, field: str, problem: str) -> None:
    if not cond:
        raise MapError(f"{path}: field '{field}' {problem}")


def _field(obj: Any, key: str, kind: type, path: Path, where: str) -> Any:
    _need(isinstance(obj, dict) and key in obj, path, f"{where}.{key}", "is missing")
    value = obj[key]
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    _need(ok, path, f"{where}.{key}", f"must be a {kind.__name__}, not {value!r}")
    return value


def _code(country: Any, path: Path, where: str, taken: dict[str, str]) -> str:
    """Returns the country's ``code``: 2–4 uppercase letters A–Z, used by no country before it."""
    code: str = _field(country, "code", str, path, where)
    least, most = CODE_LETTERS
    _need(least <= len(code) <= most and all("A" <= ch <= "Z" for ch in code), path, f"{where}.code",
          f"must be {least} to {most} uppercase letters A-Z, not {code!r}")
    other = next((c for c, k in taken.items() if k == code), None)
    _need(other is None, path, f"{where}.code", f"repeats '{code}', the code of '{other}'")
    return code


def parse_board(data: Any, path: Path) -> Board:
    """Returns the Board described by ``data``; raises MapError naming ``path`` and the field."""
    _need(isinstance(data, dict), path, "(top level)", "must be an object")
    canvas = _field(data, "canvas", dict, path, "map")
    width = _field(canvas, "width", int, path, "canvas")
    height = _field(canvas, "height", int, path, "canvas")
    continents_raw = _field(data, "continents", list, path, "map")
    countries_raw = _field(data, "countries", list, path, "map")
    edges_raw = _field(data, "edges", list, path, "map")

    cont_info: dict[str, tuple[str, str, int]] = {}
    for i, c in enumerate(continents_raw):
        where = f"continents[{i}]"
        cid = _field(c, "id", str, path, where)
        _need(cid not in cont_info, path, f"{where}.id", f"repeats '{cid}'")
        bonus = _field(c, "bonus", int, path, where)
        _need(bonus >= 0, path, f"{where}.bonus", "must not be negative")
        cont_info[cid] = (_field(c, "name", str, path, where), _field(c, "colour", str, path, where), bonus)

    ids: list[str] = []
    names: dict[str, str] = {}
    codes: dict[str, str] = {}
    continent_of: dict[str, str] = {}
    positions: dict[str, tuple[int, int]] = {}
    for i, c in enumerate(countries_raw):
        where = f"countries[{i}]"
        cid = _field(c, "id", str, path, where)
        _need(cid not in names, path, f"{where}.id", f"repeats '{cid}'")
        _need(cid == cid.lower() and " " not in cid and cid != "", path, f"{where}.id",
              f"must be a lowercase slug, not '{cid}'")
        cont = _field(c, "continent", str, path, where)
        _need(cont in cont_info, path, f"{where}.continent", f"names no continent: '{cont}'")
        x, y = _field(c, "x", int, path, where), _field(c, "y", int, path, where)
        _need(0 <= x <= width and 0 <= y <= height, path, f"{where}.x/y", "lies outside the canvas")
        ids.append(cid)
        names[cid] = _field(c, "name", str, path, where)
        codes[cid] = _code(c, path, where, codes)
        continent_of[cid] = cont
        positions[cid] = (x, y)
    _need(len(ids) == COUNTRY_COUNT, path, "countries",
          f"must hold {COUNTRY_COUNT} countries, not {len(ids)}")

    edges: list[tuple[str, str]] = []
    seen: set[frozenset[str]] = set()
    neighbours: dict[str, set[str]] = {cid: set() for cid in ids}
    for i, e in enumerate(edges_raw):
        where = f"edges[{i}]"
        _need(isinstance(e, list) and len(e) == 2, path, where, "must be a pair of country ids")
        a, b = e
        _need(a in names and b in names, path, where, f"names an unknown country: {e!r}")
        _need(a != b, path, where, f"joins '{a}' to itself")
        key = frozenset((a, b))
        _need(key not in seen, path, where, f"repeats the line {a} – {b}")
        seen.add(key)
        edges.append((a, b))
        neighbours[a].add(b)
        neighbours[b].add(a)
    _need(len(edges) == EDGE_COUNT, path, "edges", f"must hold {EDGE_COUNT} lines, not {len(edges)}")

    continents = {
        cid: Continent(cid, n, col, bonus, tuple(c for c in ids if continent_of[c] == cid))
        for cid, (n, col, bonus) in cont_info.items()
    }
    for cid, cont in continents.items():
        _need(bool(cont.countries), path, "continents", f"'{cid}' has no country")
    board = Board(
        countries=tuple(ids),
        names=names,
        codes=codes,
        continent_of=continent_of,
        continents=continents,
        edges=tuple(edges),
        neighbours={c: frozenset(n) for c, n in neighbours.items()},
        positions=positions,
        canvas=(width, height),
    )
    crossing = len(board.intercontinental)
    _need(crossing == INTERCONTINENTAL_COUNT, path, "edges",
          f"must hold {INTERCONTINENTAL_COUNT} lines between continents, not {crossing}")
    return board


def read_board(path: Path) -> Board:
    """Reads and checks a map file; raises MapError naming the file when it cannot."""
    return parse_board(read_json(path, MapError, label=str(path)), path)


@cache
def load_board() -> Board:
    """Returns the standard XISK map (read once; the Board is immutable)."""
    return read_board(MAP_PATH)


def country_key(text: str) -> str:
    """Returns ``text`` as country names are compared: no case, dashes or dots, single spaces."""
    return " ".join(text.replace("-", " ").replace(".", " ").casefold().split())


def exact_country(text: str, board: Board) -> str | None:
    """Returns the country whose id, whole name or code ``text`` is (any case, spaces for dashes), or None."""
    return _exact_keys(board).get(country_key(text))


_EXACT: dict[int, tuple[Board, dict[str, str]]] = {}
"""id(board) → (the board, its keys): the board is held, so its id cannot be reused by another."""


def _exact_keys(board: Board) -> dict[str, str]:
    """Id, whole-name and code keys → country id, built once per board (a move is parsed on every play)."""
    held = _EXACT.get(id(board))
    if held is not None and held[0] is board:
        return held[1]
    keys: dict[str, str] = {}
    for c in reversed(board.countries):  # the first country in map order wins a shared key
        keys[country_key(board.names[c])] = c
        keys[c.replace("-", " ")] = c
    for c in board.countries:  # an id or a whole name wins over a code
        keys.setdefault(country_key(board.codes[c]), c)
    _EXACT[id(board)] = (board, keys)
    return keys


def resolve_country(text: str, board: Board) -> str:
    """Returns the country id meant by an id, a name, a code or a unique prefix of its words.

    Each typed word must begin a word of the name (``w. eur``: Western Europe); an id,
    a whole name or a code (any case: ``ala``, ``EUS``) wins over prefixes. Raises
    IllegalMove naming what was typed: for no country, with the nearest name ("did you
    mean Alaska?"), or for several, naming them::

        >>> b = load_board()
        >>> resolve_country("Kamchatka", b), resolve_country("new", b), resolve_country("ALASKA", b)
        ('kamchatka', 'new-guinea', 'alaska')
        >>> resolve_country("eus", b), resolve_country("GB", b)
        ('eastern-united-states', 'great-britain')
        >>> resolve_country("Alsaka", b)
        Traceback (most recent call last):
        ...
        engines.core.errors.IllegalMove: 'Alsaka' is not a country on the map: did you mean Alaska?
        >>> resolve_country("western", b)
        Traceback (most recent call last):
        ...
        engines.core.errors.IllegalMove: 'western' could mean Western United States, Western Europe, \
Western Australia: type more of the name.
    """
    key = country_key(text)
    if not key:
        raise IllegalMove("Name a country.")
    exact = exact_country(text, board)
    if exact is not None:
        return exact
    words = key.split()
    found = [c for c in board.countries
             if all(any(w.startswith(k) for w in country_key(board.names[c]).split()) for k in words)]
    if len(found) == 1:
        return found[0]
    if found:
        names = ", ".join(board.names[c] for c in found[:6])
        raise IllegalMove(f"'{shown(text, 30)}' could mean {names}: type more of the name.")
    choices = {country_key(board.names[c]): board.names[c] for c in board.countries}
    choices.update({c.replace("-", " "): board.names[c] for c in board.countries})
    raise IllegalMove(f"'{shown(text, 30)}' is not a country on the map{did_you_mean(key, choices) or '.'}")
