"""The two NXS boards and the names players type for their hexes.

White's board A is the hex-hex of radius 3 around (0, 0); Black's board B is A
shifted by (+7, −3). A column letter a–n stands for q = −3..10, and the rank is
counted from the bottom of that column (largest r), 1 first::

    >>> cell_name((0, 0)), cell_name((7, -3)), cell_hex("K4")
    ('d4', 'k4', (7, -3))
    >>> len(BOARDS[0]), len(BOARDS[1]), len(CELLS)
    (37, 37, 74)
    >>> home_of(CELLS["g1"]), home_of(CELLS["h1"])      # whose territory a hex is
    (0, 1)
    >>> sorted(cell_name(h) for h in SEAM)
    ['g1', 'g2', 'g3', 'g4', 'h1', 'h2', 'h3', 'h4']
"""

from __future__ import annotations

from engines.core.errors import BadNotation, shown
from engines.core.hexgrid import Hex, add, hexagon, neighbours
from engines.core.words import did_you_mean

OFFSET_B: Hex = (7, -3)
BOARD_A: frozenset[Hex] = hexagon(3)
BOARD_B: frozenset[Hex] = frozenset(add(h, OFFSET_B) for h in BOARD_A)
BOARDS: tuple[frozenset[Hex], frozenset[Hex]] = (BOARD_A, BOARD_B)
"""Home board (territory) of seat 0 (White) and seat 1 (Black)."""
ALL_HEXES: frozenset[Hex] = BOARD_A | BOARD_B

COLUMNS = "abcdefghijklmn"
FIRST_Q = -3


def _names() -> dict[Hex, str]:
    names: dict[Hex, str] = {}
    for i, letter in enumerate(COLUMNS):
        q = FIRST_Q + i
        column = sorted((h for h in ALL_HEXES if h[0] == q), key=lambda h: -h[1])
        for rank, h in enumerate(column, start=1):
            names[h] = f"{letter}{rank}"
    return names


CELL_NAMES: dict[Hex, str] = _names()
"""Hex → cell name."""
CELLS: dict[str, Hex] = {name: h for h, name in CELL_NAMES.items()}
"""Cell name → hex."""
COLUMN_LENGTH: dict[str, int] = {c: sum(name[0] == c for name in CELLS) for c in COLUMNS}
"""Column letter → how many hexes it holds (its highest rank)."""

SEAM: frozenset[Hex] = frozenset(
    h for h in ALL_HEXES for n in neighbours(h) if n in ALL_HEXES and (h in BOARD_A) != (n in BOARD_A)
)
"""The hexes of either board that touch the other board."""


def cell_name(h: Hex) -> str:
    """Returns the name of a hex on the boards; raises KeyError for a hex off them."""
    return CELL_NAMES[h]


def cell_hex(text: str) -> Hex:
    """Returns the hex named ``text`` (any case); raises BadNotation for a name off the boards.

    The message says how far the column runs, or suggests the nearest cell::

        >>> cell_hex("d9")
        Traceback (most recent call last):
        ...
        engines.core.errors.BadNotation: 'd9' is not a hex of the boards: column d runs from d1 to d7.
        >>> cell_hex("4d")
        Traceback (most recent call last):
        ...
        engines.core.errors.BadNotation: '4d' is not a hex of the boards: did you mean d4?
    """
    key = text.strip().lower()
    if key not in CELLS:
        raise BadNotation(f"'{shown(text, 20)}' is not a hex of the boards: {_cell_hint(key)}")
    return CELLS[key]


def _cell_hint(key: str) -> str:
    """Returns how to name a hex, as near to what was typed as can be said."""
    letter, rank = key[:1], key[1:]
    if letter and letter in COLUMNS and rank.isdigit():
        return f"column {letter} runs from {letter}1 to {letter}{COLUMN_LENGTH[letter]}."
    flipped = key[-1:] + key[:-1]
    if flipped in CELLS:
        return f"did you mean {flipped}?"
    near = did_you_mean(key, list(CELLS))
    return near[2:] if near else (
        "columns a–g are White's board, h–n Black's, ranks count from 1 at the bottom of each column.")


def home_of(h: Hex) -> int:
    """Returns the seat whose board (territory) holds ``h``."""
    return 0 if h in BOARD_A else 1
