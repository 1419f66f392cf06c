"""Checking an export: the seed was the one sealed at the start, and every die and deal came from it.

:func:`verify` checks three things of a file written by :mod:`host.export`:

- the commitment: SHA-256 of ``"<seed>:<salt>"`` is the one posted when the game started;
- the log: replayed from the seed (each ``undo`` taking back the latest standing move, as
  :func:`host.undo.effective_moves` does), every move gives the public events it recorded
  (the dice above all) and leaves a state with the digest it recorded, and every ``undo`` is
  one the live host allows (:func:`undo_refused`): a die rolled and then taken back, to roll
  again, is what an altered record would hide there;
- the end: the replayed game's final state and winners are the file's.

``python bot.py --verify FILE`` prints :meth:`Report.text` and exits 0 when everything
matches, 1 when something does not, 2 when the file cannot be read (:func:`main`).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from engines import GameError
from engines.core import Event, Game, is_public
from engines.core.errors import shown
from engines.core.rng import KEYED
from host.export import Export, ExportError, Move, load_export
from host.fairness import commitment, digest, game_entropy, seal
from host.undo import UNDO
from host.undo import refusal as undo_refusal

OK = "match"
MISMATCH = "MISMATCH"
NOT_RECORDED = "not recorded"
TAKEN_BACK = "undo"
REFUSED = "REFUSED"
UNCHECKED = "not checked"


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

    def line(self) -> str:
        """Returns the entry's line, e.g. ``move 17 (ann: attack alaska kamchatka): dice 6-5-2 vs 4-4: match``."""
        head = f"move {self.seq} ({self.player}: {shown(self.move, 80)})"
        return f"{head}: {self.detail}: {self.status}" if self.detail else f"{head}: {self.status}"


@dataclass
class Report:
    """The result of :func:`verify`: the commitment, each entry of the log, the end, and ``ok`` overall."""

    game: str
    commitment: str
    commitment_ok: bool | None
    """True: it matches; False: it does not; None: the game has none (it is older than fair dice)."""
    moves: list[MoveCheck] = field(default_factory=list)
    end: list[str] = field(default_factory=list)
    """Lines about the final state and winners."""
    end_ok: bool = True
    stopped: bool = False
    """True when the replay stopped before the end of the log (a move the rules refuse)."""

    @property
    def played(self) -> list[MoveCheck]:
        """The entries that are moves (not undos)."""
        return [m for m in self.moves if m.status != TAKEN_BACK]

    @property
    def failures(self) -> list[MoveCheck]:
        """The moves that do not match."""
        return [m for m in self.moves if m.failed]

    @property
    def ok(self) -> bool:
        """True when the commitment (if any), every recorded move and the end all match the seed."""
        return self.commitment_ok is not False and not self.failures and self.end_ok

    def text(self, *, every: bool = False) -> str:
        """Returns the report: the commitment, the moves that fail (``every``: each move), the end, a summary."""
        lines = [self.game, self.commitment]
        unrecorded = [m for m in self.moves if m.status == NOT_RECORDED]
        for m in self.moves:
            if every or m.failed:
                lines.append(m.line())
        if unrecorded and not every:
            first, last = unrecorded[0].seq, unrecorded[-1].seq
            span = f"move {first}" if first == last else f"moves {first}–{last}"
            lines.append(f"{len(unrecorded)} move(s) ({span}) were played before the bot kept records of"
                         " dice and states: they were replayed, but there is nothing to compare them with.")
        lines += self.end
        lines.append(self.summary())
        return "\n".join(lines)

    def summary(self) -> str:
        """Returns the last line: all fair, or how many moves do not match."""
        played, failed = len(self.played), len(self.failures)
        if self.ok:
            checked = sum(1 for m in self.played if m.status == OK)
            if checked == played:
                return f"All {played} moves match the seed: the dice were fair."
            return (f"All {checked} recorded moves of {played} match the seed"
                    f" ({played - checked} not recorded): the dice were fair.")
        problems = []
        if failed:
            problems.append(f"{failed} of {played} moves do not match")
        if self.commitment_ok is False:
            problems.append("the seed is not the one sealed at the start")
        if not self.end_ok:
            problems.append("the end cannot be checked" if self.stopped else "the end does not match")
        text = "; ".join(problems)
        return text[0].upper() + text[1:] + ": this record is not what the seed gives."


def verify(data: Export) -> Report:
    """Checks an export's commitment, replays its log from the seed and compares every move and the end."""
    title = f"{data.title} game" + (f" {data.game_id}" if data.game_id is not None else "")
    report = Report(
        game=f"{title} ({data.status}): {', '.join(data.names)}; seed {data.seed}; {len(data.moves)} log entries.",
        commitment="", commitment_ok=None,
    )
    _check_commitment(data, report)
    game = _replay(data, report)
    _check_end(data, game, report)
    return report


def _check_commitment(data: Export, report: Report) -> None:
    if data.scheme == KEYED:
        sealed = seal(data.server_seed or "")
        report.commitment_ok = sealed == data.commitment
        parts = game_entropy([p.part for p in data.players])
        if not report.commitment_ok:
            report.commitment = (f"Commitment: SHA-256 of the server seed is {sealed}, but the file says"
                                 f" {data.commitment} was posted: MISMATCH.")
        elif parts != data.entropy:
            report.commitment_ok = False
            report.commitment = (f"Entropy: the players' joins give '{shown(parts, 200)}', but the file says the"
                                 f" game's entropy was '{shown(data.entropy or '', 200)}': MISMATCH.")
        else:
            report.commitment = (f"Commitment: SHA-256 of the server seed is {sealed}, the one posted when the table"
                                 " opened: match. Entropy: the players' joins: match.")
        return
    if data.seed is None or data.salt is None or data.commitment is None:
        report.commitment = ("Commitment: none recorded (the game is older than fair dice), so only the replay"
                             " below is checked, not that the seed was sealed before the first move.")
        return
    sealed = commitment(data.seed, data.salt)
    report.commitment_ok = sealed == data.commitment
    if report.commitment_ok:
        report.commitment = (f"Commitment: SHA-256 of \"{data.seed}:{data.salt}\" is {sealed}, the one posted at"
                             " the start: match.")
    else:
        report.commitment = (f"Commitment: SHA-256 of \"{data.seed}:{data.salt}\" is {sealed}, but the file says"
                             f" {data.commitment} was posted: MISMATCH.")


def _replay(data: Export, report: Report) -> Game | None:
    """Plays the log from the seed, checking each move; returns the game at the end (None: it stopped)."""
    try:
        game = data.new_game()
    except GameError as err:
        report.end.append(f"The game cannot be set up from the file: {err}")
        report.end_ok = False
        return None
    standing: list[tuple[Move, str]] = []
    """Each standing move with the game as it was just before it (an undo goes back to that)."""
    for i, m in enumerate(data.moves):
        if m.seq != i + 1:  # a move left out of the file, or moved: the log is numbered from 1 without gaps
            report.moves.append(MoveCheck(m.seq, m.player, m.move, MISMATCH,
                                          f"numbered {m.seq} where the log's entry {i + 1} belongs"))
            if m.move != UNDO:
                before = game.to_json()
                try:
                    game.play(m.player, m.move)
                except GameError:
                    _stop(data, i, report)
                    return None
                standing.append((m, before))
            continue
        if m.move == UNDO:
            if standing:
                taken, before = standing.pop()
                previous = type(game).from_json(before)
                what = f"move {taken.seq} ({shown(taken.move, 40)})"
                why = undo_refused(m, taken, previous, game)
                report.moves.append(MoveCheck(m.seq, m.player, m.move, MISMATCH,
                                              f"the host refuses to take back {what}: {why}") if why else
                                    MoveCheck(m.seq, m.player, m.move, TAKEN_BACK, f"takes back {what}"))
                game = previous
            else:
                report.moves.append(MoveCheck(m.seq, m.player, m.move, MISMATCH,
                                              "the host refuses it: there is no move to take back"))
            continue
        before = game.to_json()
        try:
            events = game.play(m.player, m.move)
        except GameError as err:
            report.moves.append(MoveCheck(m.seq, m.player, m.move, REFUSED,
                                          f"the rules refuse it here ({shown(str(err), 120)})"))
            _stop(data, i, report, refused=True)
            return None
        standing.append((m, before))
        report.moves.append(_compare(m, _public(events), digest(game.dump_state())))
    return game


def undo_refused(undo: Move, taken: Move, before: Game, after: Game) -> str | None:
    """Returns why the live host would have refused ``undo`` of ``taken`` (played from ``before`` to ``after``).

    The host's own rule (:meth:`host.tables.Tables.undo`, :func:`host.undo.refusal`): only the player's own
    latest standing move, not one the turn clock played, and one that used no chance, showed nothing and
    put nothing new in their hand. An undo the host refuses in a record was written by someone else.
    """
    if undo.player != taken.player:
        return f"it is {shown(taken.player, 30)}'s move, not {shown(undo.player, 30)}'s"
    if taken.origin == "clock":
        return "the turn clock played it"
    return undo_refusal(before, after, taken.player)


def _stop(data: Export, i: int, report: Report, *, refused: bool = False) -> None:
    """Ends the replay at entry ``i`` (the rules refuse it): the later entries are not checked."""
    m = data.moves[i]
    if not refused:
        report.moves[-1] = MoveCheck(m.seq, m.player, m.move, REFUSED,
                                     report.moves[-1].detail + "; the rules refuse it here")
    for later in data.moves[i + 1:]:
        report.moves.append(MoveCheck(later.seq, later.player, later.move, UNCHECKED,
                                      f"the replay stopped at move {m.seq}"))


def _public(events: list[Event]) -> list[Event]:
    """Returns the public events as the log records them (through JSON: tuples become lists)."""
    value: list[Event] = json.loads(json.dumps([e for e in events if is_public(e)]))
    return value


def _compare(m: Move, events: list[Event], state: str) -> MoveCheck:
    if m.events is None and m.digest is None:
        return MoveCheck(m.seq, m.player, m.move, NOT_RECORDED, _dice_text(events, "dice"))
    problems = []
    if m.events is not None and m.events != events:
        recorded, recomputed = dice(m.events), dice(events)
        if recorded != recomputed:
            problems.append(f"recorded dice {recorded or 'none'}, recomputed {recomputed or 'none'}")
        else:
            problems.append(_first_difference(m.events, events))
    if m.digest is not None and m.digest != state:
        problems.append(f"the state after it is not the recorded one (digest {state[:12]}…,"
                        f" recorded {m.digest[:12]}…)")
    if problems:
        return MoveCheck(m.seq, m.player, m.move, MISMATCH, "; ".join(problems))
    return MoveCheck(m.seq, m.player, m.move, OK, _dice_text(events, "dice"))


def _dice_text(events: list[Event], label: str) -> str:
    found = dice(events)
    return f"{label} {found}" if found else ""


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


def _check_end(data: Export, game: Game | None, report: Report) -> None:
    if game is None:
        report.stopped = True
        if not report.end:
            report.end.append("The end cannot be checked: the replay stopped.")
        report.end_ok = False
        return
    if data.final_state is None:  # every export of a game that replays carries it: left out, it proves nothing
        report.end.append("Final state: not in the file, so the end cannot be checked: MISMATCH.")
        report.end_ok = False
    elif digest(data.final_state) == digest(game.dump_state()):
        report.end.append("Final state: the replay ends in the file's final state: match.")
    else:
        report.end.append("Final state: the replay ends elsewhere than the file's final state: MISMATCH.")
        report.end_ok = False
    if data.status == "finished":
        if not game.is_over:
            report.end.append("Winners: the file says the game finished, but the replayed game is not over:"
                              " MISMATCH.")
            report.end_ok = False
        elif data.winners is not None and sorted(data.winners) != sorted(game.winners):
            report.end.append(f"Winners: the file says {_names(data.winners)}, the replay gives"
                              f" {_names(game.winners)}: MISMATCH.")
            report.end_ok = False
        else:
            report.end.append(f"Winners: {_names(game.winners)}: match.")
    elif game.is_over:  # a game its rules ended is finished: the host can no longer abort it
        report.end.append("Status: the file says the game was aborted, but the replay ends it by its rules"
                          f" ({_names(game.winners)} won): MISMATCH.")
        report.end_ok = False
    else:
        report.end.append("The game was aborted before it ended.")


def _names(names: list[str]) -> str:
    return " and ".join(names) if names else "none (a draw)"


def main(path: str, out: TextIO | None = None, *, every: bool = False) -> int:
    """Verifies the export at ``path`` and prints the report; returns 0 (all match), 1 (not) or 2 (unreadable)."""
    out = out or sys.stdout
    try:
        raw = Path(path).read_bytes()
    except OSError as err:
        print(f"error: cannot read {path}: {err.strerror or err}", file=out)
        return 2
    try:
        data = load_export(raw)
    except ExportError as err:
        print(f"error: {path}: {err}", file=out)
        return 2
    report = verify(data)
    print(report.text(every=every), file=out)
    return 0 if report.ok else 1
