"""Move notation of Nexohominis (house "Notation"): value types that round-trip as text.

The orders, by phase (``legal_moves`` lists them in exactly these canonical forms)::

    Initiative   first me | first them
    Worker       move <worker> <pos> [<pos> ...]   harvest <worker> <depot>
                 build <worker> <building>         repair <worker> <building>
                 harvest all                       done <unit>      pass
    Action       move|dash <unit> <pos> [<pos> ...]
                 move|dash <unit> toward <id>      move|dash <unit> cover
                 shoot|fight <unit> <target> [<weapon>]
                 overwatch <unit>                  done <unit>      pass
    Production   produce <building> <unit type> [<pos>]
                 construct <building type> <pos> [r90]              end
    Any phase    scrap <id> (not during an activation, not at Initiative)   concede

Several orders may be chained with ``;`` in one message (see :mod:`engines.nexo.game`).
Every order is a frozen dataclass; :func:`parse_move` reads forgiving text (any case, extra
spaces) and ``str`` gives the canonical form::

    >>> parse_move("  FIRST   Me ")
    First(who='me')
    >>> str(parse_move("move a1  C7 12.5, 30"))
    'move a1 5,13 12.5,30'
    >>> str(parse_move("Dash a3 20,24")), str(parse_move("shoot a5 b3"))
    ('dash a3 20,24', 'shoot a5 b3')
    >>> parse_move("move a1 Toward k1"), str(parse_move("DASH a2 cover"))
    (Toward(verb='move', unit='a1', goal='k1'), 'dash a2 cover')
    >>> str(parse_move("fight a5 b3 knife")), str(parse_move("overwatch A7"))
    ('fight a5 b3 knife', 'overwatch A7')
    >>> str(parse_move("harvest a1 k1")), str(parse_move("build a2 a9")), str(parse_move("repair a2 A1"))
    ('harvest a1 K1', 'build a2 A9', 'repair a2 A1')
    >>> str(parse_move("done a1")), str(parse_move("pass")), str(parse_move("end"))
    ('done a1', 'pass', 'end')
    >>> str(parse_move("Harvest ALL"))
    'harvest all'
    >>> str(parse_move("produce A1 drudge")), str(parse_move("produce a3 Trooper 14,9.5"))
    ('produce A1 drudge', 'produce A3 trooper 14,9.5')
    >>> str(parse_move("construct foundry 20,14 R90")), str(parse_move("scrap b4"))
    ('construct foundry 20,14 r90', 'scrap b4')
    >>> parse_pos("C7"), parse_pos("12.5, 30")
    ((5.0, 13.0), (12.5, 30.0))
    >>> parse_move("shoot a5")
    Traceback (most recent call last):
    ...
    engines.core.errors.BadNotation: I can't read 'shoot a5': write 'shoot <unit> <target> [<weapon>]'.

Positions are ``x,y`` in inches or a 2" grid cell: columns A–V across, rows 1–30 along,
``C7`` being the centre of column C, row 7; canonical positions are ``x,y`` (at most two
decimals). Ids: units are lower case (``a5``), buildings and depots upper case (``A1``,
``K3``). ``build``/``repair`` targets and ``produce`` buildings are upper-cased here; other
ids keep the case typed until the game resolves them (:mod:`engines.nexo.world`), and the
game's log holds the resolved ids (``shoot A5 B5`` is logged ``shoot a5 b5``).

"Toward" forms (``move|dash <unit> toward <id>``, ``move|dash <unit> cover``) name a goal
instead of positions: a Carbonite depot (``K1``) or a unit or building (``b3``, ``B1``), or
the nearest spot in cover. They are what suggestions offer; the game resolves one to a
single straight-line end position before playing it, and logs the resolved ``move a1 x,y``
(see :mod:`engines.nexo.toward`), so a replay never depends on how a form was resolved.

Readings chosen here:

- ``shoot``/``fight`` without a weapon use the unit's first weapon of that kind; the
  canonical form names the weapon only when it was typed.
- ``done <unit>`` on a model that has not acted yet is a legal activation that does
  nothing (core §6.3 "activated or passed").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.core.errors import BadNotation, shown
from engines.core.words import did_you_mean

_CELL = re.compile(r"([a-v])([0-9]{1,2})")
_NUM = r"(-?[0-9]{1,5}(?:\.[0-9]{1,20})?)"
_XY = re.compile(_NUM + r"\s*,\s*" + _NUM)
_ID = re.compile(r"[a-z][a-z0-9_]{0,11}")
# ASCII only: '\d' and str.isdigit() also accept other scripts' digits (and '²').

Pos = tuple[float, float]
SHAPES: dict[str, str] = {
    "first": "first me|them", "move": "move <unit> <x,y> …|toward <id>|cover",
    "dash": "dash <unit> <x,y> …|toward <id>|cover",
    "shoot": "shoot <unit> <target> [<weapon>]", "fight": "fight <unit> <target> [<weapon>]",
    "overwatch": "overwatch <unit>", "harvest": "harvest <worker> <depot>|all",
    "build": "build <worker> <building>", "repair": "repair <worker> <building>", "done": "done <unit>",
    "pass": "pass", "produce": "produce <building> <unit type> [<x,y>]",
    "construct": "construct <building type> <x,y> [r90]", "end": "end", "scrap": "scrap <id>", "concede": "concede",
}
"""How each order is written, by its first word."""
DECIMALS = 2
"""Positions are read, applied and logged at this many decimals."""
MAX_WAYPOINTS = 20
"""The most positions one ``move`` or ``dash`` may list."""


def _coord(text: str) -> float:
    return round(float(text), DECIMALS) + 0.0  # + 0.0: -0.0 becomes 0.0


def _fmt(v: float) -> str:
    text = f"{round(v, DECIMALS) + 0.0:.{DECIMALS}f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def fmt_pos(p: Pos) -> str:
    """Returns a position in canonical ``x,y`` form (two decimals at most).

    :func:`parse_pos` rounds to the same two decimals, so what is applied is what is logged::

        >>> fmt_pos((12.5, 30.0)), fmt_pos((1234.567, -0.001))
        ('12.5,30', '1234.57,0')
        >>> parse_pos(fmt_pos(parse_pos("3.14159,2.71828"))) == parse_pos("3.14159,2.71828")
        True
    """
    return f"{_fmt(p[0])},{_fmt(p[1])}"


@dataclass(frozen=True)
class First:
    """``first me|them``: the Initiative Player picks who activates first (core §6.2)."""

    who: str

    def __str__(self) -> str:
        return f"first {self.who}"


@dataclass(frozen=True)
class Concede:
    """``concede``: the player gives up; the opponent wins (house "Victory")."""

    def __str__(self) -> str:
        return "concede"


@dataclass(frozen=True)
class Go:
    """``move``/``dash <unit> <pos> …``: a Movement Action along waypoints (core §9.2–9.3)."""

    verb: str
    unit: str
    path: tuple[Pos, ...]

    def __str__(self) -> str:
        return f"{self.verb} {self.unit} " + " ".join(fmt_pos(p) for p in self.path)


@dataclass(frozen=True)
class Toward:
    """``move|dash <unit> toward <goal>`` or ``move|dash <unit> cover`` (``goal`` None): a Movement
    Action toward a depot, unit or building, or into the nearest cover (core §9.2–9.3).

    The game plays it as the :class:`Go` it resolves to (:func:`engines.nexo.toward.resolve`).
    """

    verb: str
    unit: str
    goal: str | None = None

    def __str__(self) -> str:
        return f"{self.verb} {self.unit} " + (f"toward {self.goal}" if self.goal else "cover")


@dataclass(frozen=True)
class Attack:
    """``shoot|fight <unit> <target> [<weapon>]``: an Attack Action (core §10.1–10.2)."""

    verb: str
    unit: str
    target: str
    weapon: str | None = None

    def __str__(self) -> str:
        return f"{self.verb} {self.unit} {self.target}" + (f" {self.weapon}" if self.weapon else "")


@dataclass(frozen=True)
class Unary:
    """``overwatch|done <unit>`` and ``scrap <id>``: an order naming one piece."""

    verb: str
    unit: str

    def __str__(self) -> str:
        return f"{self.verb} {self.unit}"


@dataclass(frozen=True)
class Ability:
    """``harvest <worker> <depot>``, ``build|repair <worker> <building>`` (core §8)."""

    verb: str
    unit: str
    target: str

    def __str__(self) -> str:
        return f"{self.verb} {self.unit} {self.target}"


@dataclass(frozen=True)
class Word:
    """``pass`` (core §6.4), ``end`` (the Production Phase) or ``harvest all`` (ruling 16)."""

    verb: str

    def __str__(self) -> str:
        return self.verb


@dataclass(frozen=True)
class Produce:
    """``produce <building> <unit type> [<pos>]`` (core §13.1)."""

    building: str
    unit_type: str
    pos: Pos | None = None

    def __str__(self) -> str:
        return f"produce {self.building} {self.unit_type}" + (f" {fmt_pos(self.pos)}" if self.pos else "")


@dataclass(frozen=True)
class Construct:
    """``construct <building type> <pos> [r90]`` (core §13.2, house ruling 11)."""

    building_type: str
    pos: Pos
    rot: int = 0

    def __str__(self) -> str:
        return f"construct {self.building_type} {fmt_pos(self.pos)}" + (" r90" if self.rot else "")


Move = First | Concede | Go | Toward | Attack | Unary | Ability | Word | Produce | Construct


def _ident(text: str, word: str, *, upper: bool = False) -> str:
    if not word.isascii() or not _ID.fullmatch(word.lower()):
        raise BadNotation(f"I can't read '{shown(text)}': '{shown(word, 20)}' is not an id.")
    return word.upper() if upper else word


def parse_move(text: str) -> Move:
    """Returns the move written in ``text``; raises BadNotation.

    Ids keep the case typed (the game resolves them, see :mod:`engines.nexo.world`); the
    targets of ``harvest``/``build``/``repair`` and the building of ``produce`` are upper-cased.
    """
    raw = text.strip()
    typed = raw.replace(", ", ",").replace(" ,", ",").split()
    words = [w.lower() for w in typed]
    if not words:
        raise BadNotation("Type an order, for example 'first me'.")
    verb, args, orig = words[0], words[1:], typed[1:]

    def ident(i: int) -> str:
        return _ident(raw, orig[i])

    def need(n: int, shape: str, most: int | None = None) -> None:
        if not n <= len(args) <= (n if most is None else most):
            raise BadNotation(f"I can't read '{shown(raw)}': write '{shape}'.")

    if verb == "first":
        if args in (["me"], ["them"]):
            return First(args[0])
        raise BadNotation(f"I can't read '{shown(raw)}': write 'first me' or 'first them'.")
    if verb in ("concede", "pass", "end"):
        need(0, verb)
        return Concede() if verb == "concede" else Word(verb)
    if verb in ("move", "dash"):
        if args[1:] == ["cover"]:
            return Toward(verb, ident(0))
        if args[1:2] == ["toward"]:
            need(3, f"{verb} <unit> toward <depot|unit|building>")
            return Toward(verb, ident(0), ident(2))
        if not 2 <= len(args) <= 1 + MAX_WAYPOINTS:
            raise BadNotation(f"I can't read '{shown(raw)}': write '{verb} <unit> <x,y> [<x,y> …]' "
                              f"(at most {MAX_WAYPOINTS} positions).")
        return Go(verb, ident(0), tuple(parse_pos(a) for a in args[1:]))
    if verb in ("shoot", "fight"):
        need(2, f"{verb} <unit> <target> [<weapon>]", 3)
        return Attack(verb, ident(0), ident(1), _ident(raw, args[2]) if len(args) == 3 else None)
    if verb in ("overwatch", "done", "scrap"):
        need(1, f"{verb} <{'id' if verb == 'scrap' else 'unit'}>")
        return Unary(verb, ident(0))
    if verb == "harvest" and args == ["all"]:
        return Word("harvest all")
    if verb in ("harvest", "build", "repair"):
        need(2, f"{verb} <worker> <{'depot' if verb == 'harvest' else 'building'}>")
        return Ability(verb, ident(0), _ident(raw, args[1], upper=True))
    if verb == "produce":
        need(2, "produce <building> <unit type> [<x,y>]", 3)
        pos = parse_pos(args[2]) if len(args) == 3 else None
        return Produce(_ident(raw, args[0], upper=True), _ident(raw, args[1]), pos)
    if verb == "construct":
        need(2, "construct <building type> <x,y> [r90]", 3)
        if len(args) == 3 and args[2] not in ("r90", "r0"):
            raise BadNotation(f"I can't read '{shown(raw)}': the turn is written 'r90'.")
        return Construct(_ident(raw, args[0]), parse_pos(args[1]), 90 if args[2:] == ["r90"] else 0)
    near = did_you_mean(verb, list(SHAPES))
    raise BadNotation(f"I can't read '{shown(raw)}': '{shown(words[0], 20)}' is not an order{near or '.'}")


def parse_pos(text: str) -> Pos:
    """Returns a position from ``x,y`` or a grid cell like ``C7``; raises BadNotation."""
    t = text.strip().lower()
    m = _XY.fullmatch(t)
    if m:
        return (_coord(m.group(1)), _coord(m.group(2)))
    m = _CELL.fullmatch(t)
    if m and 1 <= int(m.group(2)) <= 30:
        return (float(2 * (ord(m.group(1)) - ord("a")) + 1), float(2 * (int(m.group(2)) - 1) + 1))
    raise BadNotation(f"I can't read the position '{shown(text, 30)}': write x,y in inches or a cell like C7.")
