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
decimals). Read as well (:func:`parse_positions`): ``x, y``, ``(x, y)`` (how the game's
announcements write a position), ``x y``, inch marks (``30.79",15.99"``), cells in any
case, spacing and order (``p9``, ``P 9``, ``9P``, ``cell P9``), and a full stop after the
order. Ids: units are lower case (``a5``), buildings and depots upper case (``A1``,
``K3``); an id typed in two words (``a 4``) is one. ``build``/``repair`` targets and
``produce`` buildings are upper-cased here; other ids keep the case typed until the game
resolves them (:mod:`engines.nexo.world`), and the game's log holds the resolved ids
(``shoot A5 B5`` is logged ``shoot a5 b5``).

"Toward" forms (``move|dash <unit> toward <id>``, ``move|dash <unit> cover``) name a goal
instead of positions: a Carbonite depot (``K1``) or a unit or building (``b3``, ``B1``), or
the nearest spot in cover; a goal may be named in words too (``toward the enemy HQ``,
``to bob's generator``, ``toward the nearest depot``), which :class:`Toward` keeps as typed
for :mod:`engines.nexo.toward` to read. They are what suggestions offer; the game resolves
one to a single straight-line end position before playing it, and logs the resolved
``move a1 x,y`` (see :mod:`engines.nexo.toward`), so a replay never depends on how a form
was resolved.
``towards`` is ``toward``, ``take cover`` is ``cover``, and ``to`` may lead any destination
(:func:`destination`). A lone word that may be an id or a cell (``move a1 K5``: depot K5 or
cell K5) is an :class:`Ambiguous` order the game resolves, the id first (see
:mod:`engines.nexo.game`); ``cell K5`` is always the cell.

Readings chosen here:

- ``shoot``/``fight`` without a weapon use the unit's first weapon of that kind; the
  canonical form names the weapon only when it was typed.
- ``done <unit>`` on a model that has not acted yet is a legal activation that does
  nothing (core §6.3 "activated or passed").
- Two numbers are one position, so ``move a1 1 2 3 4`` goes to 1,2 then 3,4; a comma may
  follow ``(x, y)`` before the next position, but ``1,2,3`` (three numbers) is refused.
- Directions (``forward``, ``left``, ``north`` …) name no place: a model has no facing in
  the core or house rules, so ``move a1 4 inches forward`` is refused, saying what to write.
- Only a ``move``/``dash`` with a lone word as its destination is :class:`Ambiguous`; in a
  path of several positions, and in ``produce``/``construct``, a cell-shaped word is a cell.
- Words are a goal's name (:func:`names_goal`) only where they cannot be positions: each
  starts with a letter (or is an apostrophe), one is two letters or more with no digit, and
  none is ``cell``. After ``to``/``toward``/``towards`` any such words are a name; without
  them the first must be one of :data:`NAME_LEADS` (``the``, ``enemy``, ``my``,
  ``nearest``, ``depot`` …) or the words hold a possessive ``'s``, so ``move a1 foo bar``
  is still refused as a position. A lone word is a name after ``toward``, after ``to`` when
  it is two letters or more with no digit (``to enemy``), or when it is one of
  :data:`NAME_LEADS` (``move a1 enemy``); any other lone word stays :class:`Ambiguous`
  (``to K5``, ``move a1 hq``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from engines.core.errors import BadNotation, shown
from engines.core.words import did_you_mean

_CELL = re.compile(r"([a-v])([0-9]{1,2})")
_CELL_BACK = re.compile(r"([0-9]{1,2})([a-v])")
_NUMBER = re.compile(r"-?[0-9]{1,5}(?:\.[0-9]{1,20})?")
_ID = re.compile(r"[a-z][a-z0-9_]{0,11}")
_NAME_WORD = re.compile(r"[a-z][a-z0-9_\-]*")
_LETTER = re.compile(r"[A-Za-z]")
_DIGITS = re.compile(r"[0-9]{1,3}")
_SPACED_UNIT = re.compile(r"\s+([0-9]{1,3})(?=\s|$)(?!\s*,)")
_TOKEN = re.compile(r"\s+|[A-Za-z0-9_.\-]+|.", re.S)
# ASCII only: '\d' and str.isdigit() also accept other scripts' digits (and '²').
INCH_MARKS = frozenset('"″”“')
"""What may follow a number as an inch mark: ``"`` and the ``″ ” “`` phones type for it."""
DIRECTIONS = frozenset({"forward", "forwards", "ahead", "back", "backward", "backwards", "left", "right",
                        "up", "down", "north", "south", "east", "west"})
"""Words for a direction: a model has no facing (core rules, house "Notation"), so none names a place."""
ROWS = 30
"""Grid rows 1–30 (columns A–V)."""
POSITION_FORMS = "write x,y in inches or a cell like C7 (A–V, 1–30)"
"""How a refusal says positions are written."""

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
OWN_WORDS = frozenset({"my", "own", "our"})
"""Words before a goal's name meaning the mover's side (``toward my foundry``)."""
ENEMY_WORDS = frozenset({"enemy", "their"})
"""Words before a goal's name meaning the opponent's side (``toward the enemy HQ``)."""
NEAREST_WORDS = frozenset({"nearest", "closest"})
"""Words a goal's name may hold that change nothing: of several, the nearest is taken anyway."""
KIND_WORDS = ("depot", "unit", "building")
"""Words naming a kind of goal: ``toward depot K5``, ``toward the nearest depot``."""
NAME_LEADS = frozenset({"the", *OWN_WORDS, *ENEMY_WORDS, *NEAREST_WORDS, *KIND_WORDS})
"""Words that start a goal's name without ``to``/``toward`` (``move a1 the enemy HQ``)."""
APOSTROPHES = frozenset("'\u2019\u2018`")
"""What a possessive is written with: ``'`` and the ``’ ‘ ` `` phones and keyboards type."""
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

    ``goal`` is an id or a name in words, as typed (``K1``, ``the enemy HQ``).

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
    """``pass`` (core §6.4), ``end`` (the Production Phase), ``harvest all`` (ruling 16) or ``done all``."""

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


@dataclass(frozen=True)
class Ambiguous:
    """``move|dash <unit> <word>``: one word that may be an id or a grid cell (``K5``, ``b3``).

    The game reads it as the depot, unit or building of that id when there is one (and says
    so), else as the cell ``cell`` (None: ``word`` is no cell, and the move is refused).
    """

    verb: str
    unit: str
    word: str
    cell: Pos | None = None

    def __str__(self) -> str:
        return f"{self.verb} {self.unit} {self.word}"


Move = First | Concede | Go | Toward | Ambiguous | Attack | Unary | Ability | Word | Produce | Construct


def _ident(text: str, word: str, *, upper: bool = False) -> str:
    if not word.isascii() or not _ID.fullmatch(word.lower()):
        raise BadNotation(f"I can't read '{shown(text)}': '{shown(word, 20)}' is not an id.")
    return word.upper() if upper else word


def _glue(typed: list[str]) -> list[str]:
    """Returns ``typed`` with each id typed in two words joined (``a 4`` is ``a4``)."""
    out: list[str] = []
    for w in typed:
        if out and _DIGITS.fullmatch(w) and _LETTER.fullmatch(out[-1]):
            out[-1] += w
        else:
            out.append(w)
    return out


def parse_move(text: str) -> Move:
    """Returns the move written in ``text``; raises BadNotation.

    Ids keep the case typed (the game resolves them, see :mod:`engines.nexo.world`); the
    targets of ``harvest``/``build``/``repair`` and the building of ``produce`` are upper-cased.
    """
    raw = text.strip()
    typed = raw.split()
    words = [w.lower() for w in typed]
    if not words:
        raise BadNotation("Type an order, for example 'first me'.")
    verb = words[0]
    if verb in ("move", "dash"):
        return _parse_go(raw, verb)
    if verb == "produce":
        return _parse_produce(raw)
    if verb == "construct":
        return _parse_construct(raw)
    orig = _glue(typed[1:])
    args = [w.lower() for w in orig]

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
    if verb in ("shoot", "fight"):
        need(2, f"{verb} <unit> <target> [<weapon>]", 3)
        return Attack(verb, ident(0), ident(1), _ident(raw, args[2]) if len(args) == 3 else None)
    if verb == "done" and args == ["all"]:
        return Word("done all")
    if verb in ("overwatch", "done", "scrap"):
        need(1, f"{verb} <{'id' if verb == 'scrap' else 'unit'}>")
        return Unary(verb, ident(0))
    if verb == "harvest" and args == ["all"]:
        return Word("harvest all")
    if verb in ("harvest", "build", "repair"):
        need(2, f"{verb} <worker> <{'depot' if verb == 'harvest' else 'building'}>")
        return Ability(verb, ident(0), _ident(raw, args[1], upper=True))
    near = did_you_mean(verb, list(SHAPES))
    raise BadNotation(f"I can't read '{shown(raw)}': '{shown(words[0], 20)}' is not an order{near or '.'}")


def _head(raw: str, n: int) -> tuple[list[str], str] | None:
    """Returns the first ``n`` words of ``raw`` and the text after them, or None when it has fewer."""
    m = re.match(r"\s*" + r"\s+".join([r"(\S+)"] * n) + r"(.*)", raw, re.S)
    return None if m is None else (list(m.groups()[:n]), m.group(n + 1))


def _parse_go(raw: str, verb: str) -> Go | Toward | Ambiguous:
    """Reads ``move|dash <unit> <where>`` (see :func:`destination`)."""
    shape = f"I can't read '{shown(raw)}': write '{SHAPES[verb]}'."
    head = _head(raw, 2)
    if head is None:
        raise BadNotation(shape)
    unit, rest = head[0][1], head[1]
    lone = bool(_LETTER.fullmatch(unit))
    glued = _SPACED_UNIT.match(rest) if lone else None
    if glued:  # 'move a 4 30,12': the unit a4
        unit, rest = unit + glued.group(1), rest[glued.end():]
    unit = _ident(raw, unit)
    if not rest.strip():
        raise BadNotation(shape)
    try:
        return destination(verb, unit, rest, raw)
    except BadNotation:
        if lone and not glued:
            raise BadNotation(f"I can't read the unit in '{shown(raw)}': a unit is one word, like a4.") from None
        raise


def destination(verb: str, unit: str, text: str, raw: str | None = None) -> Go | Toward | Ambiguous:
    """Returns the ``move``/``dash`` of ``unit`` to where ``text`` says; raises BadNotation.

    ``text`` is positions (:func:`parse_positions`), ``cover`` (also ``take cover``), or a
    goal: ``toward|towards <id>``, or ``[to] [depot|unit|building] <id>``, or a goal named in
    words (:func:`names_goal`). A lone word that may be an id (``K5``, ``b3``, ``z9``) is
    :class:`Ambiguous`: the game reads it as a depot, unit or building when there is one,
    else as a grid cell; ``cell K5`` is always the cell. ``to`` may lead any of these::

        >>> destination("move", "a1", "(30.79, 15.99)"), destination("move", "a1", "to p 9")
        (Go(verb='move', unit='a1', path=((30.79, 15.99),)), Go(verb='move', unit='a1', path=((31.0, 17.0),)))
        >>> destination("move", "a1", "towards K5"), destination("dash", "a1", "take cover")
        (Toward(verb='move', unit='a1', goal='K5'), Toward(verb='dash', unit='a1', goal=None))
        >>> destination("move", "a1", "to K5")
        Ambiguous(verb='move', unit='a1', word='K5', cell=(21.0, 9.0))
        >>> destination("move", "a1", "toward  the enemy HQ."), destination("move", "a1", "to depot")
        (Toward(verb='move', unit='a1', goal='the enemy HQ'), Toward(verb='move', unit='a1', goal='depot'))
    """
    raw = raw if raw is not None else f"{verb} {unit} {text}"
    body = text.strip().rstrip(".!?")
    toks = _tokens(body)
    words = [t for t, _, _ in toks]
    if "cover" in words:
        if words[:-1] in ([], ["take"], ["into"], ["to"], ["toward"], ["towards"]) and words[-1] == "cover":
            return Toward(verb, unit)
        raise BadNotation(f"I can't read '{shown(raw)}': write '{verb} <unit> cover' on its own.")
    facing = next((w for w in words if w in DIRECTIONS), None)
    if facing:
        raise BadNotation(f"I can't read '{shown(raw, 30)}': a unit has no facing ('{facing}'); "
                          "write x,y in inches, a cell like C7, toward <id> or cover.")
    explicit = bool(words) and words[0] in ("toward", "towards")
    led = bool(words) and words[0] in ("to", "toward", "towards")
    if led:
        toks, words = toks[1:], words[1:]
    if words and words[0] in KIND_WORDS:
        explicit = True
        if len(toks) == 2 and _ID.fullmatch(words[1]):  # 'depot K5': the id
            toks, words = toks[1:], words[1:]
    if len(toks) == 1 and _ID.fullmatch(words[0]):
        typed = body[toks[0][1]:toks[0][2]]
        if explicit or (led and words[0].isalpha() and len(words[0]) > 1) or words[0] in NAME_LEADS:
            return Toward(verb, unit, typed)
        return Ambiguous(verb, unit, typed, _cell(words[0]))
    if names_goal(words, led=led or explicit):
        return Toward(verb, unit, " ".join(body[toks[0][1]:toks[-1][2]].split()))
    if explicit or not toks:
        raise BadNotation(f"I can't read '{shown(raw)}': write '{verb} <unit> toward <depot|unit|building>'.")
    path = _read(body, toks)
    if len(path) > MAX_WAYPOINTS:
        raise BadNotation(f"I can't read '{shown(raw)}': a {verb} lists at most {MAX_WAYPOINTS} positions.")
    return Go(verb, unit, tuple(path))


def names_goal(words: list[str], *, led: bool) -> bool:
    """True when ``words`` (lower case, as :func:`destination` splits them) name a goal in words,
    not positions; ``led``: they follow ``to``, ``toward`` or ``towards``.

        >>> names_goal(["enemy", "hq"], led=False), names_goal(["bob", "'", "s", "generator"], led=False)
        (True, True)
        >>> names_goal(["foo", "bar"], led=True), names_goal(["foo", "bar"], led=False)
        (True, False)
        >>> names_goal(["cell", "k5"], led=True), names_goal(["k1", "k2"], led=True), names_goal(["p", "9"], led=True)
        (False, False, False)
    """
    if not words or "cell" in words:
        return False
    if not all(w.isalpha() or _NAME_WORD.fullmatch(w) or w in APOSTROPHES for w in words):
        return False
    if not any(w.isalpha() and len(w) > 1 for w in words):
        return False
    possessive = any(a in APOSTROPHES and b == "s" for a, b in pairwise(words))
    return led or words[0] in NAME_LEADS or possessive


def _parse_produce(raw: str) -> Produce:
    head = _head(raw, 3)
    shape = f"I can't read '{shown(raw)}': write 'produce <building> <unit type> [<x,y>]'."
    if head is None:
        raise BadNotation(shape)
    (_, building, unit_type), rest = head
    path = parse_positions(rest) if rest.strip() else []
    if len(path) > 1:
        raise BadNotation(shape)
    return Produce(_ident(raw, building, upper=True), _ident(raw, unit_type.lower()), path[0] if path else None)


def _parse_construct(raw: str) -> Construct:
    head = _head(raw, 2)
    shape = f"I can't read '{shown(raw)}': write 'construct <building type> <x,y> [r90]'."
    if head is None:
        raise BadNotation(shape)
    (_, building_type), rest = head
    toks = _tokens(rest)
    rot = 0
    if toks and re.fullmatch(r"r[0-9]+", toks[-1][0]):
        if toks[-1][0] not in ("r90", "r0"):
            raise BadNotation(f"I can't read '{shown(raw)}': the turn is written 'r90'.")
        rot, rest = (90 if toks[-1][0] == "r90" else 0), rest[:toks[-1][1]]
    path = parse_positions(rest) if rest.strip() else []
    if len(path) != 1:
        raise BadNotation(shape)
    return Construct(_ident(raw, building_type.lower()), path[0], rot)


# -- positions ------------------------------------------------------------------------

Token = tuple[str, int, int]
"""A token of a position: its text (lower case), where it starts and ends."""


class _Unread(Exception):
    """A position that cannot be read: the tokens it started and failed at."""

    def __init__(self, start: int, fail: int) -> None:
        super().__init__()
        self.start, self.fail = start, fail


def _tokens(text: str) -> list[Token]:
    return [(m.group().lower(), m.start(), m.end()) for m in _TOKEN.finditer(text) if not m.group().isspace()]


def _cell(word: str) -> Pos | None:
    """Returns the centre of the grid cell ``word`` (``c7`` or ``7c``, lower case), or None."""
    m = _CELL.fullmatch(word)
    col, row = (m.group(1), m.group(2)) if m else ("", "")
    m = m or _CELL_BACK.fullmatch(word)
    if m and not col:
        col, row = m.group(2), m.group(1)
    if not m or not 1 <= int(row) <= ROWS:
        return None
    return (float(2 * (ord(col) - ord("a")) + 1), float(2 * (int(row) - 1) + 1))


def _number(toks: list[Token], i: int, start: int) -> tuple[float, int]:
    """Reads a number, with an inch mark after it or not."""
    if i >= len(toks) or not _NUMBER.fullmatch(toks[i][0]):
        raise _Unread(start, min(i, len(toks) - 1))
    x = _coord(toks[i][0])
    return x, i + 2 if i + 1 < len(toks) and toks[i + 1][0] in INCH_MARKS else i + 1


def _one(toks: list[Token], i: int) -> tuple[Pos, int]:
    """Reads the position starting at token ``i``; returns it and the index after it."""
    start, t = i, toks[i][0]
    if t == "cell":
        i += 1
        t = toks[i][0] if i < len(toks) else ""
    if t == "(" or (_NUMBER.fullmatch(t) and start == i):
        j = i + 1 if t == "(" else i
        x, j = _number(toks, j, start)
        j += 1 if j < len(toks) and toks[j][0] == "," else 0
        y, j = _number(toks, j, start)
        if t == "(":
            if j >= len(toks) or toks[j][0] != ")":
                raise _Unread(start, min(j, len(toks) - 1))
            j += 1
        elif j < len(toks) and toks[j][0] == ",":  # a third coordinate
            raise _Unread(start, j)
        return (x, y), j
    pos = _cell(t)
    if pos is not None:
        return pos, i + 1
    if _LETTER.fullmatch(t) and i + 1 < len(toks) and _DIGITS.fullmatch(toks[i + 1][0]):
        pos = _cell(t + toks[i + 1][0])  # 'p 9'
        if pos is not None:
            return pos, i + 2
    raise _Unread(start, min(i, len(toks) - 1))


def _read(text: str, toks: list[Token]) -> list[Pos]:
    """Reads every position in ``toks`` (the tokens of ``text``); raises BadNotation."""
    out: list[Pos] = []
    i = 0
    try:
        while i < len(toks) and len(out) <= MAX_WAYPOINTS:
            pos, i = _one(toks, i)
            out.append(pos)
            if i < len(toks) and toks[i][0] == "," and toks[i - 1][0] == ")":
                i += 1  # '(1,2), (3,4)'
    except _Unread as err:
        end = re.compile(r"\S*").match(text, toks[err.fail][2])
        quoted = text[toks[err.start][1]:end.end() if end else None]
        raise BadNotation(f"I can't read the position '{shown(quoted.lower(), 30)}': {POSITION_FORMS}.") from None
    return out


def parse_positions(text: str) -> list[Pos]:
    """Returns the positions written in ``text``, in order; raises BadNotation.

    A position is ``x,y`` in inches (``x, y``, ``(x, y)``, ``x y``, with inch marks or not)
    or a grid cell (``C7``, ``c 7``, ``7C``, ``cell C7``); a ``,`` may follow ``(x, y)``::

        >>> parse_positions('(30.79, 12.99) 30.79",15.99" 1 2 p 9 9P cell k5')
        [(30.79, 12.99), (30.79, 15.99), (1.0, 2.0), (31.0, 17.0), (31.0, 17.0), (21.0, 9.0)]
    """
    body = text.strip().rstrip(".!?")
    toks = _tokens(body)
    if not toks:
        raise BadNotation(f"I can't read the position '{shown(text.lower(), 30)}': {POSITION_FORMS}.")
    return _read(body, toks)


def parse_pos(text: str) -> Pos:
    """Returns a position from ``x,y`` or a grid cell like ``C7`` (any form
    :func:`parse_positions` reads); raises BadNotation."""
    path = parse_positions(text)
    if len(path) != 1:
        raise BadNotation(f"I can't read the position '{shown(text.lower(), 30)}': {POSITION_FORMS}.")
    return path[0]
