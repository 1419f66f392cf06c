"""Replaying an export's log for :mod:`host.verify`: each entry against the seed, the host's rules, its neighbours.

:func:`replay` plays the log from the seed, each ``undo`` or ``takeback`` taking back the latest standing
move (as :func:`host.undo.play_log` does: a takeback keeps the draws the move made), and gives one
:class:`MoveCheck` per entry. An entry fails
(MISMATCH, naming the field) when

- ``seq``: it is not numbered in order from 1 (an entry left out, or moved);
- ``at``: its time goes back from the previous entry's, or lies before the game was created or
  after it ended;
- ``events`` / ``digest``: the public events it recorded are not the replay's (the dice above all),
  the state after it has another digest, or (version 2) the file leaves either out;
- ``move``: the rules refuse it here (then the replay stops: REFUSED), or it is an ``undo`` the live
  host refuses (:func:`undo_refused`): a die rolled, taken back and rolled again is what an altered
  record would hide there; or a ``takeback`` of a move that is not its player's own, or the clock's
  (:func:`takeback_refused`): agreed by everyone, it may take back dice, but never rolls them again;
- ``origin``: the turn clock did not play it: the clock plays for the first player to act, and
  plays their skip, their forfeit, or a bot's whole turn (the policy is not in the file, so a run
  of the clock's moves that ends the player's turn is taken as a bot's).

The replay also collects every keyed draw (:func:`engines.core.rng.recording`) and which entry
made it, for the check of the file's list of draws.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from engines import GameError
from engines.core import Event, Game, is_public
from engines.core.errors import shown
from engines.core.rng import Draw, recording
from host.export import BEFORE_DRAWS, Export, Move, parse_time
from host.fairness import digest
from host.undo import TAKEBACK, TAKING_BACK, UNDO, taken_back
from host.undo import refusal as undo_refusal

OK = "match"
MISMATCH = "MISMATCH"
NOT_RECORDED = "not recorded"
TAKEN_BACK = "undo"
REFUSED = "REFUSED"
UNCHECKED = "not checked"
CLOCK = "clock"
"""The ``origin`` of a move the turn clock played (the only origin the host writes)."""
SETUP = -1
"""The entry index of the draws made when the game was set up (the deal, the first shuffle)."""


@dataclass(frozen=True)
class MoveCheck:
    """What replaying one log entry found: ``status`` is one of the constants above."""

    seq: int
    player: str
    move: str
    status: str
    detail: str = ""

    @property
    def failed(self) -> bool:
        """True when the entry does not match the seed (or could not be replayed)."""
        return self.status in (MISMATCH, REFUSED, UNCHECKED)

    @property
    def head(self) -> str:
        """Names the entry: ``move 17 (ann: attack alaska kamchatka)``."""
        return f"move {self.seq} ({self.player}: {shown(self.move, 80)})"

    @property
    def reason(self) -> str:
        """The entry and what is wrong with it, naming the field (the line without its status)."""
        return f"{self.head}: {self.detail}" if self.detail else self.head

    def line(self) -> str:
        """Returns the entry's line, e.g. ``move 17 (ann: attack alaska kamchatka): dice 6-5-2 vs 4-4: match``."""
        return f"{self.reason}: {self.status}"


@dataclass
class Replay:
    """What :func:`replay` found: one check per entry, the game at the end (None: it stopped), the draws."""

    moves: list[MoveCheck] = field(default_factory=list)
    game: Game | None = None
    setup_error: str | None = None
    """Why the game could not be set up from the file (then nothing was replayed)."""
    draws: list[Draw] = field(default_factory=list)
    """Every keyed draw the replay made, in order (a number drawn twice, when a state was restored, twice)."""
    made_by: dict[int, int] = field(default_factory=dict)
    """Draw number → the index of the entry that first drew it (:data:`SETUP`: the setup)."""


def replay(data: Export) -> Replay:
    """Plays the log from the seed, checking each entry; see the module's docstring."""
    out = Replay()
    with recording() as draws:
        try:
            game = data.new_game()
        except GameError as err:
            out.setup_error = str(err)
            return out
        _owned(out, draws, 0, SETUP)
        out.game = _entries(data, game, out, draws)
    out.draws = list(draws)
    return out


def _entries(data: Export, game: Game, out: Replay, draws: list[Draw]) -> Game | None:
    standing: list[tuple[Move, str]] = []
    """Each standing move with the game as it was just before it (an undo goes back to that)."""
    clock_turn: tuple[int, int, dict[str, list[str]]] | None = None
    """The clock's run of moves being replayed: its first and last entry, and what the clock could have played."""
    last_time: tuple[int, datetime] | None = None
    for i, m in enumerate(data.moves):
        problems: list[str] = []
        if m.seq != i + 1:  # a move left out of the file, or moved: the log is numbered from 1 without gaps
            problems.append(f"seq: numbered {m.seq} where the log's entry {i + 1} belongs")
        if m.at is not None:
            problems += _time_problems(data, m, last_time)
            last_time = (i, parse_time(m.at))
        drawn = len(draws)
        if m.move in TAKING_BACK:
            if m.origin == CLOCK:
                problems.append("origin: the turn clock never takes a move back")
            game, check = _undo(data, m, game, standing, problems)
            out.moves.append(check)
            _owned(out, draws, drawn, i)
            continue
        if m.origin == CLOCK and not (i and _same_turn(data.moves[i - 1], m)):
            clock_turn = _clock_start(data, i, game, problems)
        before = game.to_json()
        try:
            events = game.play(m.player, m.move)
        except GameError as err:
            problems.append(f"move: the rules refuse it here ({shown(str(err), 120)})")
            out.moves.append(MoveCheck(m.seq, m.player, m.move, REFUSED, "; ".join(problems)))
            for later in data.moves[i + 1:]:
                out.moves.append(MoveCheck(later.seq, later.player, later.move, UNCHECKED,
                                           f"the replay stopped at move {m.seq}"))
            return None
        _owned(out, draws, drawn, i)
        standing.append((m, before))
        out.moves.append(_compare(data, m, _public(events), digest(game.dump_state()), problems))
        if clock_turn is not None and clock_turn[1] == i:
            _clock_end(data, clock_turn, game, out.moves)
            clock_turn = None
    return game


def _owned(out: Replay, draws: list[Draw], start: int, entry: int) -> None:
    for number, _, _ in draws[start:]:
        out.made_by.setdefault(number, entry)


def _time_problems(data: Export, m: Move, last: tuple[int, datetime] | None) -> list[str]:
    """Returns what is wrong with an entry's time: before the previous entry's, the game's creation, after its end."""
    assert m.at is not None
    stamp, problems = parse_time(m.at), []
    if last is not None and stamp < last[1]:
        earlier = data.moves[last[0]]
        problems.append(f"at: {m.at} is before move {earlier.seq}'s time {earlier.at} (times never go back)")
    if data.created is not None and stamp < parse_time(data.created):
        problems.append(f"at: {m.at} is before the game was created ({data.created})")
    if data.ended is not None and stamp > parse_time(data.ended):
        problems.append(f"at: {m.at} is after the game ended ({data.ended})")
    return problems


def _undo(data: Export, m: Move, game: Game, standing: list[tuple[Move, str]],
          problems: list[str]) -> tuple[Game, MoveCheck]:
    """Replays an ``undo`` or ``takeback`` entry: returns the game after it and the entry's check."""
    if not standing:
        problems.append("move: the host refuses it: there is no move to take back")
        return game, MoveCheck(m.seq, m.player, m.move, MISMATCH, "; ".join(problems))
    taken, before = standing.pop()
    previous = type(game).from_json(before)
    what = f"move {taken.seq} ({shown(taken.move, 40)})"
    why = undo_refused(m, taken, previous, game) if m.move == UNDO else takeback_refused(m, taken)
    previous.load_state(taken_back(previous.dump_state(), game.dump_state(), m.move))
    if why:  # the refusal says it all: what the record shows after it does not matter
        problems.append(f"move: the host refuses to take back {what}: {why}")
    else:
        problems += _record_problems(data, m, [], digest(previous.dump_state()))
    if problems:
        return previous, MoveCheck(m.seq, m.player, m.move, MISMATCH, "; ".join(problems))
    agreed = " by agreement (its draws stay drawn)" if m.move == TAKEBACK else ""
    return previous, MoveCheck(m.seq, m.player, m.move, TAKEN_BACK, f"takes back {what}{agreed}")


def undo_refused(undo: Move, taken: Move, before: Game, after: Game) -> str | None:
    """Returns why the live host would have refused ``undo`` of ``taken`` (played from ``before`` to ``after``).

    The host's own rule (:meth:`host.tables.Tables.undo`, :func:`host.undo.refusal`): only the player's own
    latest standing move, not one the turn clock played, and one that used no chance, showed nothing and
    put nothing new in their hand. An undo the host refuses in a record was written by someone else.
    """
    if undo.player != taken.player:
        return f"it is {shown(taken.player, 30)}'s move, not {shown(undo.player, 30)}'s"
    if taken.origin == CLOCK:
        return "the turn clock played it"
    return undo_refusal(before, after, taken.player)


def takeback_refused(takeback: Move, taken: Move) -> str | None:
    """Returns why the live host would have refused ``takeback`` of ``taken`` (:mod:`host.tables_takeback`).

    Only the player who made the latest standing move asks for it, and not for one the turn clock
    played; everyone else's agreement leaves no trace in the file, and chance does not matter.
    """
    if takeback.player != taken.player:
        return f"it is {shown(taken.player, 30)}'s move, not {shown(takeback.player, 30)}'s"
    if taken.origin == CLOCK:
        return "the turn clock played it"
    return None


# -- the turn clock's moves ---------------------------------------------------------------


def _same_turn(a: Move, b: Move) -> bool:
    """True when two entries are moves of one turn the clock played: the same player, at the same time."""
    return (a.origin == b.origin == CLOCK and not TAKING_BACK & {a.move, b.move} and a.player == b.player
            and a.at == b.at)


def _clock_start(data: Export, i: int, game: Game, problems: list[str]) -> tuple[int, int, dict[str, list[str]]]:
    """Starts checking the clock's run of moves at entry ``i``: returns its first and last entry, the clock's turns."""
    m, end = data.moves[i], i
    while end + 1 < len(data.moves) and _same_turn(data.moves[end], data.moves[end + 1]):
        end += 1
    acting = game.to_act()
    if acting and acting[0] != m.player:
        problems.append(f"origin: the turn clock plays for the first player to act ({shown(acting[0], 30)}),"
                        f" not {shown(m.player, 30)}")
    return i, end, _clock_turns(game, m.player)


def _clock_turns(game: Game, player: str) -> dict[str, list[str]]:
    """Returns what the clock's skip and forfeit would play for ``player`` now, as the log writes moves."""
    turns: dict[str, list[str]] = {}
    with recording():  # played on copies: these draws are none of the game's
        for policy in ("skip", "forfeit"):
            if policy not in game.ON_TIMEOUT:
                continue
            copy, played = game.clone(), []
            try:
                for move in copy.timeout_moves(player, policy):
                    copy.play(player, move)
                    played.append(copy.last_move or move)
            except (GameError, ValueError):
                continue
            if played:
                turns[policy] = played
    return turns


def _clock_end(data: Export, turn: tuple[int, int, dict[str, list[str]]], game: Game, checks: list[MoveCheck]) -> None:
    """Checks the clock's run of moves once replayed: its skip or forfeit, or a turn played to its end (a bot's)."""
    first, last, turns = turn
    played = [m.move for m in data.moves[first:last + 1]]
    player = data.moves[first].player
    if played in turns.values() or game.is_over or player not in game.to_act():
        return
    could = "; ".join(f"its {policy}: {', '.join(moves)}" for policy, moves in turns.items())
    _flag(checks, first, f"origin: the turn clock plays a whole turn for a player out of time ({could or 'no skip'}"
                         f", or a bot's turn), but {shown(player, 30)} is still to act after this")


def _flag(checks: list[MoveCheck], i: int, problem: str) -> None:
    """Adds a problem to the check of entry ``i``, which then fails."""
    c = checks[i]
    detail = problem if c.status != MISMATCH or not c.detail else f"{c.detail}; {problem}"
    checks[i] = replace(c, status=MISMATCH, detail=detail)


# -- the records: events and digests ------------------------------------------------------


def _public(events: list[Event]) -> list[Event]:
    """Returns the public events as the log records them (through JSON: tuples become lists)."""
    value: list[Event] = json.loads(json.dumps([e for e in events if is_public(e)]))
    return value


def _compare(data: Export, m: Move, events: list[Event], state: str, problems: list[str]) -> MoveCheck:
    if data.version == BEFORE_DRAWS and m.events is None and m.digest is None and not problems:
        return MoveCheck(m.seq, m.player, m.move, NOT_RECORDED, _dice_text(events))
    problems = problems + _record_problems(data, m, events, state)
    if problems:
        return MoveCheck(m.seq, m.player, m.move, MISMATCH, "; ".join(problems))
    return MoveCheck(m.seq, m.player, m.move, OK, _dice_text(events))


def _record_problems(data: Export, m: Move, events: list[Event], state: str) -> list[str]:
    """Returns how an entry's recorded events and digest differ from the replay's (version 2: both must be there)."""
    problems = []
    if m.events is None:
        if data.version > BEFORE_DRAWS:
            problems.append("events: the file has none (every move of a version-2 export carries its events)")
    elif m.events != events:
        recorded, recomputed = dice(m.events), dice(events)
        if recorded != recomputed:
            problems.append(f"events: recorded dice {recorded or 'none'}, recomputed {recomputed or 'none'}")
        else:
            problems.append(f"events: {_first_difference(m.events, events)}")
    if m.digest is None:
        if data.version > BEFORE_DRAWS:
            problems.append("digest: the file has none (every move of a version-2 export carries the digest"
                            " of the state after it)")
    elif m.digest != state:
        problems.append(f"digest: the state after it is not the recorded one (digest {state[:12]}…,"
                        f" recorded {m.digest[:12]}…)")
    return problems


def _dice_text(events: list[Event]) -> str:
    found = dice(events)
    return f"dice {found}" if found else ""


def _first_difference(recorded: list[Event], recomputed: list[Event]) -> str:
    """Returns the first way the recorded events differ from the recomputed ones, in words."""
    for n in range(max(len(recorded), len(recomputed))):
        a = recorded[n] if n < len(recorded) else None
        b = recomputed[n] if n < len(recomputed) else None
        if a == b:
            continue
        if a is not None and b is not None and a.get("text") == b.get("text"):
            key = next(k for k in sorted({*a, *b}, key=str) if a.get(k) != b.get(k))
            return (f"{_event_text(a)}: recorded {key} {_value(a.get(key))},"
                    f" recomputed {_value(b.get(key))}")
        return f"recorded {_event_text(a)}, recomputed {_event_text(b)}"
    return "recorded other events"  # unreachable: the lists differ


def _event_text(e: Event | None) -> str:
    if e is None:
        return "no event"
    return f"'{shown(str(e.get('text', e.get('kind', '?'))), 100)}'"


def _value(v: Any) -> str:
    return "none" if v is None else shown(json.dumps(v, ensure_ascii=False), 60)


def dice(events: list[Event]) -> str:
    """Returns the dice the events show: each event's dice fields joined with "vs", events with "; ".

    A field holds dice when its name ends in ``dice`` (XISK's ``attacker_dice``, Nexohominis'
    ``attack_dice``) or is ``rolls`` (Nexohominis' initiative pairs)::

        >>> dice([{"kind": "battle", "attacker_dice": [6, 5, 2], "defender_dice": [4, 4]}])
        '6-5-2 vs 4-4'
        >>> dice([{"kind": "initiative", "rolls": [[3, 3], [5, 2]]}, {"kind": "add"}])
        '3-3, then 5-2'
    """
    parts = []
    for e in events:
        fields = [v for k, v in e.items() if isinstance(k, str) and (k.endswith("dice") or k == "rolls")]
        shown_fields = [_dice_value(v) for v in fields if _dice_value(v)]
        if shown_fields:
            parts.append(" vs ".join(shown_fields))
    return "; ".join(parts)


def _dice_value(v: Any) -> str:
    if isinstance(v, int) and not isinstance(v, bool):
        return str(v)
    if isinstance(v, list) and v and all(isinstance(x, list) for x in v):
        return ", then ".join(_dice_value(x) for x in v)
    if isinstance(v, list):
        return "-".join(str(x) for x in v)
    return ""
