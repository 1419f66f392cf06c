"""Loading the NXS ship roster and starting layouts from ``data/nxs/`` (JSON).

Both files are checked on load; a mistake raises :class:`DataError` naming the file
and the field::

    >>> ships = load_roster()
    >>> ships["sloop"].arrows, ships["sloop"].range, ships["sloop"].corners
    ((0, 3), 4, (1, 4))
    >>> layouts = load_layouts(ships)
    >>> len(layouts["medium"].pieces), layouts["medium"].pieces[0]
    (20, (0, 'cutter', 'f5', 1))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engines.core.datafile import read_json
from engines.nxs.board import BOARDS, CELLS
from engines.nxs.hexes import FACING_INDEX

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "nxs"
ROSTER_FILE = DATA_DIR / "roster.json"
LAYOUTS_FILE = DATA_DIR / "layouts.json"
COLOURS = ("white", "black")


class DataError(ValueError):
    """A data file that does not hold a valid roster or layout; the message names file and field."""


@dataclass(frozen=True, slots=True)
class Ship:
    """A kind of ship: relative arrow sides, range, relative bold corners, immunity."""

    key: str
    name: str
    code: str
    arrows: tuple[int, ...]
    range: int
    corners: tuple[int, ...]
    """Corner ``c`` joins relative sides ``c`` and ``c + 1`` (``'5/0'`` is corner 5)."""
    immune: bool


@dataclass(frozen=True, slots=True)
class Layout:
    """A starting position: ``(seat, ship key, cell, facing)`` for every piece."""

    name: str
    pieces: tuple[tuple[int, str, str, int], ...]


def _read(path: Path) -> Any:
    return read_json(path, DataError)


def _need(cond: bool, path: Path, field: str, what: str) -> None:
    if not cond:
        raise DataError(f"{path.name}: {field} {what}.")


def _corner(text: Any, path: Path, field: str) -> int:
    parts = text.split("/") if isinstance(text, str) else []
    ok = len(parts) == 2 and all(p.isdigit() and int(p) < 6 for p in parts)
    _need(ok and (int(parts[0]) + 1) % 6 == int(parts[1]), path, field,
          f"must name two neighbouring sides clockwise, like '1/2' or '5/0', not {text!r}")
    return int(parts[0])


def parse_roster(data: Any, path: Path) -> dict[str, Ship]:
    """Returns the ships described by ``data``; raises DataError naming ``path`` and the field."""
    _need(isinstance(data, dict) and isinstance(data.get("ships"), dict) and data["ships"], path,
          "ships", "must be a non-empty object of ship key → ship")
    ships: dict[str, Ship] = {}
    for key, spec in data["ships"].items():
        f = f"ships.{key}"
        _need(isinstance(spec, dict), path, f, "must be an object")
        name, code = spec.get("name"), spec.get("code")
        _need(isinstance(name, str) and bool(name), path, f"{f}.name", "must be a non-empty string")
        arrows, rng, corners = spec.get("arrows"), spec.get("range"), spec.get("corners")
        _need(isinstance(arrows, list) and bool(arrows)
              and all(isinstance(a, int) and not isinstance(a, bool) and 0 <= a < 6 for a in arrows)
              and len(set(arrows)) == len(arrows),
              path, f"{f}.arrows", "must be a list of different sides 0–5")
        _need(isinstance(rng, int) and not isinstance(rng, bool) and rng >= 1, path, f"{f}.range",
              "must be a whole number of at least 1")
        _need(len(arrows) + rng == 6, path, f"{f}.range", f"plus the {len(arrows)} arrows must make 6")
        _need(isinstance(corners, list), path, f"{f}.corners", "must be a list like ['1/2', '4/5']")
        cs = tuple(_corner(c, path, f"{f}.corners[{i}]") for i, c in enumerate(corners))
        _need(len(set(cs)) == len(cs), path, f"{f}.corners", "must not repeat a corner")
        _need(code == f"{len(arrows)}-{len(cs)}", path, f"{f}.code",
              f"must be arrows-corners, '{len(arrows)}-{len(cs)}', not {code!r}")
        immune = spec.get("immune", False)
        _need(isinstance(immune, bool), path, f"{f}.immune", "must be true or false")
        ships[key] = Ship(key, name, code, tuple(sorted(arrows)), rng, tuple(sorted(cs)), immune)
    return ships


def parse_layouts(data: Any, path: Path, ships: dict[str, Ship]) -> dict[str, Layout]:
    """Returns the layouts described by ``data``; raises DataError naming ``path`` and the field."""
    _need(isinstance(data, dict) and isinstance(data.get("layouts"), dict) and data["layouts"], path,
          "layouts", "must be a non-empty object of layout name → sides")
    facing = data.get("facing")
    _need(isinstance(facing, dict) and all(isinstance(facing.get(c), str)
                                          and facing[c].upper() in FACING_INDEX for c in COLOURS),
          path, "facing", "must give white and black a facing (N, NE, SE, S, SW or NW)")
    layouts: dict[str, Layout] = {}
    for name, sides in data["layouts"].items():
        _need(isinstance(sides, dict), path, f"layouts.{name}", "must be an object with white and black")
        pieces: list[tuple[int, str, str, int]] = []
        seen: set[str] = set()
        for seat, colour in enumerate(COLOURS):
            f = f"layouts.{name}.{colour}"
            side = sides.get(colour)
            _need(isinstance(side, dict) and bool(side), path, f, "must be an object of ship → cells")
            for ship, cells in side.items():
                _need(ship in ships, path, f"{f}.{ship}", f"is not a ship of the roster ({', '.join(ships)})")
                _need(isinstance(cells, list), path, f"{f}.{ship}", "must be a list of cells")
                for cell in cells:
                    cf = f"{f}.{ship}"
                    _need(isinstance(cell, str) and cell.lower() in CELLS, path, cf,
                          f"holds {cell!r}, which is not a hex of the boards")
                    cell = cell.lower()
                    _need(CELLS[cell] in BOARDS[seat], path, cf, f"puts {cell} outside {colour}'s board")
                    _need(cell not in seen, path, cf, f"puts a second piece on {cell}")
                    seen.add(cell)
                    pieces.append((seat, ship, cell, FACING_INDEX[facing[colour].upper()]))
        layouts[name] = Layout(name, tuple(pieces))
    default = data.get("default")
    _need(default is None or default in layouts, path, "default", f"names no layout: {default!r}")
    return layouts


def load_roster(path: Path = ROSTER_FILE) -> dict[str, Ship]:
    """Returns the roster in ``path``; raises DataError when the file is missing or wrong."""
    return parse_roster(_read(path), path)


def load_layouts(ships: dict[str, Ship], path: Path = LAYOUTS_FILE) -> dict[str, Layout]:
    """Returns the layouts in ``path`` checked against ``ships``; raises DataError."""
    return parse_layouts(_read(path), path, ships)


@cache
def default_data() -> tuple[dict[str, Ship], dict[str, Layout]]:
    """Returns the roster and layouts shipped in ``data/nxs/`` (read once, never changed)."""
    ships = load_roster()
    return ships, load_layouts(ships)
