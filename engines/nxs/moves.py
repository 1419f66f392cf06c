"""NXS moves as values, and their notation.

A turn is two moves by the same player: first ``move`` or ``capture``, then ``rotate``.

=============================  ==========================================================
``move <from> <to>``           slide a ship along one of its arrows through empty hexes
``capture <from> <to>``        jump through a bold corner onto an enemy ship (it leaves)
``rotate <cell> left|right``   turn a ship one facing (``left`` = counter-clockwise);
                               ``rotate left|right`` turns the ship that just moved
``resign``                     give the game up (on your turn, at either step)
=============================  ==========================================================

Case and extra spaces do not matter; ``l``/``r``, ``ccw``/``cw`` are read as
``left``/``right``, ``rotate left d4`` as ``rotate d4 left``, and a dash may join the
two cells. :func:`parse` and ``str`` round-trip::

    >>> parse("  MOVE  F4 h3 ")
    Slide(src='f4', dst='h3')
    >>> str(parse("capture e4-g3"))
    'capture e4 g3'
    >>> str(parse("rotate right D4")), str(parse("rotate d4 ccw"))
    ('rotate d4 right', 'rotate d4 left')
    >>> parse(str(Rotate("k4", "left"))) == Rotate("k4", "left")
    True
    >>> parse("rotate L"), str(Rotate(None, "left"))
    (Rotate(cell=None, way='left'), 'rotate left')
    >>> parse("fly d4 d5")
    Traceback (most recent call last):
    ...
    engines.core.errors.BadNotation: I can't read 'fly d4 d5'.
    >>> parse("rotaet d4 left")
    Traceback (most recent call last):
    ...
    engines.core.errors.BadNotation: I can't read 'rotaet d4 left': did you mean rotate?

A game's refusal adds what is legal now (:meth:`engines.core.game.Game.play`).
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.core.errors import BadNotation, shown
from engines.core.words import did_you_mean
from engines.nxs.board import cell_hex, cell_name
from engines.nxs.hexes import Turn

SHAPES: dict[str, str] = {"move": "move <from> <to>", "capture": "capture <from> <to>",
                          "rotate": "rotate <cell> left|right", "resign": "resign"}
"""How each kind of move is written, by its first word."""
_WAYS: dict[str, Turn] = {"left": "left", "l": "left", "ccw": "left", "right": "right", "r": "right",
                          "cw": "right"}


@dataclass(frozen=True, slots=True)
class Slide:
    """``move <src> <dst>``: a slide along an arrow (the turn's first step)."""

    src: str
    dst: str

    def __str__(self) -> str:
        return f"move {self.src} {self.dst}"


@dataclass(frozen=True, slots=True)
class Capture:
    """``capture <src> <dst>``: a corner jump onto an enemy ship (the turn's first step)."""

    src: str
    dst: str

    def __str__(self) -> str:
        return f"capture {self.src} {self.dst}"


@dataclass(frozen=True, slots=True)
class Rotate:
    """``rotate <cell> left|right``: the compulsory turn of one ship (the turn's second step).

    ``cell`` None stands for the ship that just moved; the game writes the cell into the log.
    """

    cell: str | None
    way: Turn

    def __str__(self) -> str:
        return f"rotate {self.way}" if self.cell is None else f"rotate {self.cell} {self.way}"


@dataclass(frozen=True, slots=True)
class Resign:
    """``resign``: the player to act gives the game up."""

    def __str__(self) -> str:
        return "resign"


Move = Slide | Capture | Rotate | Resign


def _cell(word: str, text: str) -> str:
    try:
        return cell_name(cell_hex(word))
    except BadNotation as err:
        raise BadNotation(f"In '{shown(text)}': {err}") from None


def parse(text: str) -> Move:
    """Returns the move written in ``text``; raises BadNotation when it is not a move."""
    words = text.lower().replace("-", " ").split()
    if words == ["resign"]:
        return Resign()
    if len(words) == 3 and words[0] in ("move", "capture"):
        src, dst = _cell(words[1], text), _cell(words[2], text)
        return Slide(src, dst) if words[0] == "move" else Capture(src, dst)
    if len(words) == 2 and words[0] == "rotate" and words[1] in _WAYS:
        return Rotate(None, _WAYS[words[1]])
    if len(words) == 3 and words[0] == "rotate":
        if words[1] in _WAYS and words[2] not in _WAYS:
            words[1], words[2] = words[2], words[1]
        if words[2] in _WAYS:
            return Rotate(_cell(words[1], text), _WAYS[words[2]])
    if words and words[0] in SHAPES:
        raise BadNotation(f"I can't read '{shown(text)}': write '{SHAPES[words[0]]}'.")
    guess = did_you_mean(words[0], list(SHAPES)) if words else ""
    raise BadNotation(f"I can't read '{shown(text)}'{guess or '.'}")
