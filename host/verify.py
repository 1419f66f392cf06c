"""Checking an export, trusting nothing in it: the seed was the one sealed, and every die, deal and state came from it.

:func:`verify` checks a file that :func:`host.export.load_export` read (its schema and fields):

- the commitment: SHA-256 of the server seed (keyed draws), or of ``"<seed>:<salt>"`` (the old
  scheme), is the one posted; with keyed draws the entropy is the players' joins. Only a version-1
  file may lack it (a game from before fair dice), and then it lacks both salt and commitment;
- the seats: numbered in order, each id once, a bot's seat joined by a bot (``bot``), and a
  Discord account made before the interaction that seated it (ids are snowflakes, which carry their
  time);
- the log, entry by entry (:mod:`host.verify_log`): numbering, times, the events and digest each
  move recorded, the host's undo and takeback rules (a takeback keeps its move's draws), the turn clock's moves;
- the draws (keyed draws): the file lists exactly the draws the replay makes, and ends at the draw
  counter of its final state;
- the end: the replay's final state, status and winners are the file's.

``python bot.py --verify FILE`` prints :meth:`Report.text` and exits 0 when everything holds, 1 when
something does not (the first line then gives the first reason, the second how many were found),
2 when the file is not an export (:func:`main`).

What a file cannot show: a log cut short whose final state, draws and status were recomputed to
match (it reads as a game aborted there), a (move, undo) pair that used no chance removed and the
log renumbered (the pair left no trace in any state or draw), a seat's id swapped for another
account older than the join, and the turn clock's moves relabelled as the player's own.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from engines.core.errors import shown
from engines.core.rng import KEYED
from host.bot_seats import is_bot
from host.export import BEFORE_DRAWS, Export, ExportError, in_order, load_export, parse_time
from host.fairness import BOT_JOIN, commitment, digest, game_entropy, seal
from host.verify_log import (
    MISMATCH,
    NOT_RECORDED,
    OK,
    REFUSED,
    SETUP,
    TAKEN_BACK,
    UNCHECKED,
    MoveCheck,
    Replay,
    dice,
    replay,
    undo_refused,
)

DISCORD_EPOCH_MS = 1_420_070_400_000
"""A Discord id's time counts milliseconds from 2015-01-01 in the bits above its 22nd."""


@dataclass
class Report:
    """The result of :func:`verify`: the commitment, the record, each entry of the log, the draws, the end."""

    game: str
    commitment: str
    commitment_ok: bool | None
    """True: it matches; False: it does not; None: the game has none (it is older than fair dice)."""
    commitment_reason: str = ""
    """What is wrong with the commitment (when ``commitment_ok`` is False), naming the field."""
    record: list[str] = field(default_factory=list)
    """What contradicts itself in the file outside the log (seats, ids, times), each naming the field."""
    moves: list[MoveCheck] = field(default_factory=list)
    draws: list[str] = field(default_factory=list)
    """What is wrong with the file's list of draws, naming the draw (and the move that made it)."""
    end: list[str] = field(default_factory=list)
    """Lines about the final state and winners."""
    end_problems: list[str] = field(default_factory=list)
    end_ok: bool = True
    stopped: bool = False
    """True when the replay stopped before the end of the log (a move the rules refuse)."""
    signature: str = ""
    """The line about the bot's signature (version 2; empty for version 1, which has none)."""
    signature_problem: str | None = None
    """Why the file is not as the bot signed it (it was changed, or another key signed it)."""

    @property
    def played(self) -> list[MoveCheck]:
        """The entries that are moves (not undos)."""
        return [m for m in self.moves if m.status != TAKEN_BACK]

    @property
    def failures(self) -> list[MoveCheck]:
        """The moves that do not match."""
        return [m for m in self.moves if m.failed]

    @property
    def reasons(self) -> list[str]:
        """Every problem found, first the commitment's, then the record's, the log's, the draws', the end's."""
        first = [self.commitment_reason] if self.commitment_ok is False else []
        log = [m.reason for m in self.moves if m.status in (MISMATCH, REFUSED)]
        signed = [self.signature_problem] if self.signature_problem else []
        return first + self.record + log + self.draws + self.end_problems + signed

    @property
    def ok(self) -> bool:
        """True when the commitment (if any), the record, every move, the draws and the end all hold."""
        return (self.commitment_ok is not False and not self.record and not self.failures and not self.draws
                and self.end_ok and self.signature_problem is None)

    def text(self, *, every: bool = False) -> str:
        """Returns the report: on failure the first reason and a count first; the commitment, the record, the
        moves that fail (``every``: each move), the draws, the end and a summary."""
        lines = []
        reasons = self.reasons
        if not self.ok and reasons:
            lines += [f"MISMATCH: {reasons[0]}", f"{len(reasons)} problem{'' if len(reasons) == 1 else 's'} found."]
        lines += [self.game, self.commitment]
        lines += [f"{problem}: MISMATCH" for problem in self.record]
        unrecorded = [m for m in self.moves if m.status == NOT_RECORDED]
        for m in self.moves:
            if every or m.failed:
                lines.append(m.line())
        if unrecorded and not every:
            first, last = unrecorded[0].seq, unrecorded[-1].seq
            span = f"move {first}" if first == last else f"moves {first}–{last}"
            lines.append(f"{len(unrecorded)} move(s) ({span}) were played before the bot kept records of"
                         " dice and states: they were replayed, but there is nothing to compare them with.")
        lines += [f"{problem}: MISMATCH" for problem in self.draws]
        lines += self.end
        if self.signature:
            lines.append(self.signature)
        lines.append(self.summary())
        return "\n".join(lines)

    def summary(self) -> str:
        """Returns the last line: all fair, or what does not match."""
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
        if self.record:
            problems.append("the record contradicts itself")
        if self.draws:
            problems.append("the draws listed are not the replay's")
        if not self.end_ok:
            problems.append("the end cannot be checked" if self.stopped else "the end does not match")
        if self.signature_problem:
            problems.append("the file is not as the bot signed it")
        text = "; ".join(problems)
        return text[0].upper() + text[1:] + ": this record is not what the seed gives."


def verify(data: Export, *, key: str | None = None) -> Report:
    """Checks an export's commitment and record, replays its log from the seed and compares every move, the
    draws and the end; and the bot's signature, by the key of fingerprint ``key`` if given."""
    title = f"{data.title} game" + (f" {data.game_id}" if data.game_id is not None else "")
    seed = f"server seed {data.server_seed}" if data.scheme == KEYED else f"seed {data.seed}"
    report = Report(
        game=f"{title} ({data.status}): {', '.join(data.names)}; {seed}; {len(data.moves)} log entries.",
        commitment="", commitment_ok=None,
    )
    _check_commitment(data, report)
    _check_record(data, report)
    done = replay(data)
    report.moves = done.moves
    _check_draws(data, done, report)
    _check_end(data, done, report)
    _check_signature(data, key, report)
    return report


def _check_signature(data: Export, key: str | None, report: Report) -> None:
    """The last check: the file is the bot's own (:mod:`host.signing`), with no entry added, changed or removed."""
    if data.signature is None:  # version 1: written before exports were signed
        if key is not None:
            report.signature_problem = "signature: a version-1 file carries none, so it is not signed by that key"
            report.signature = f"{report.signature_problem}: MISMATCH."
        return
    holds, said = data.signature
    trusted = key.strip().lower() if key is not None else None
    if holds and trusted not in (None, said):
        holds, said = False, f"signature: signed by key {said}, not by the bot's key {trusted}"
    if holds:
        which = "the key you gave" if trusted else "compare it with the key /game help shows"
        report.signature = f"Signature: the file is as the bot signed it, with key {said} ({which}): match."
    else:
        report.signature_problem = said
        report.signature = f"{said}: MISMATCH."


def _check_commitment(data: Export, report: Report) -> None:
    if data.scheme == KEYED:
        sealed = seal(data.server_seed or "")
        report.commitment_ok = sealed == data.commitment
        parts = game_entropy([p.part for p in data.players])
        if not report.commitment_ok:
            report.commitment_reason = (f"dice.commitment: SHA-256 of the server seed is {sealed}, but the file says"
                                        f" {data.commitment} was posted")
            report.commitment = f"Commitment: {report.commitment_reason.removeprefix('dice.commitment: ')}: MISMATCH."
        elif parts != data.entropy:
            report.commitment_ok = False
            report.commitment_reason = (f"dice.entropy: the players' joins give '{shown(parts, 200)}', but the file"
                                        f" says the game's entropy was '{shown(data.entropy or '', 200)}'")
            report.commitment = f"Entropy: {report.commitment_reason.removeprefix('dice.entropy: ')}: MISMATCH."
        else:
            report.commitment = (f"Commitment: SHA-256 of the server seed is {sealed}, the one posted when the table"
                                 " opened: match. Entropy: the players' joins: match.")
        return
    where = "commitment" if data.version == BEFORE_DRAWS else "dice.commitment"
    if data.version == BEFORE_DRAWS and data.salt is None and data.commitment is None:
        report.commitment = ("Commitment: none recorded (a version-1 file of a game older than fair dice), so only"
                             " the replay below is checked, not that the seed was sealed before the first move.")
        return
    if data.seed is None or data.salt is None or data.commitment is None:  # half a record: the schema allows it in 1
        report.commitment_ok = False
        has = "a salt but no commitment" if data.salt is not None else "a commitment but no salt"
        report.commitment_reason = f"{where}: the file has {has} (a game sealed at the start has both)"
        report.commitment = f"Commitment: the file has {has}: MISMATCH."
        return
    sealed = commitment(data.seed, data.salt)
    report.commitment_ok = sealed == data.commitment
    scheme = "Commitment (the old scheme, splitmix64: the game started before keyed draws)"
    if report.commitment_ok:
        report.commitment = (f"{scheme}: SHA-256 of \"{data.seed}:{data.salt}\" is {sealed}, the one posted at"
                             " the start: match.")
    else:
        report.commitment_reason = (f"{where}: SHA-256 of \"{data.seed}:{data.salt}\" is {sealed}, but the file says"
                                    f" {data.commitment} was posted")
        report.commitment = f"{scheme}: {report.commitment_reason.removeprefix(where + ': ')}: MISMATCH."


def _check_record(data: Export, report: Report) -> None:
    """Checks the seats, their ids and the game's times against each other."""
    seen: dict[str, int] = {}
    for i, p in enumerate(data.players):
        where = f"players[{i}]"
        if i and p.seat <= data.players[i - 1].seat:
            report.record.append(f"{where}.seat: seat {p.seat} comes after seat {data.players[i - 1].seat}"
                                 " (the seats are listed in seat order, each once)")
        if p.id is None:
            continue
        if p.id in seen:
            report.record.append(f"{where}.id: '{shown(p.id, 30)}' is seated twice (players[{seen[p.id]}] too)")
        seen.setdefault(p.id, i)
        if data.scheme != KEYED:
            continue
        if is_bot(p.id) and p.joined not in (None, BOT_JOIN):
            report.record.append(f"{where}.joined: a bot's seat is joined as '{BOT_JOIN}', not"
                                 f" '{shown(p.joined or '', 30)}'")
        elif p.joined == BOT_JOIN and not is_bot(p.id):
            report.record.append(f"{where}.id: '{shown(p.id, 30)}' is no bot's id, but a bot took the seat"
                                 f" (joined '{BOT_JOIN}')")
        elif p.joined is not None and _snowflake(p.id) and _snowflake(p.joined) and made(p.id) > made(p.joined):
            report.record.append(f"{where}.id: Discord made the account {p.id} at {made(p.id):%Y-%m-%d %H:%M}"
                                 f" UTC, after the join {p.joined} that seated it ({made(p.joined):%Y-%m-%d %H:%M}"
                                 " UTC): it is not the account that joined")
    if data.created is not None and data.ended is not None and parse_time(data.ended) < parse_time(data.created):
        report.record.append(f"ended: {data.ended} is before the game was created ({data.created})")


def _snowflake(text: str) -> bool:
    """True for what may be a Discord id: up to 20 ASCII digits."""
    return text.isascii() and text.isdigit() and len(text) <= 20


def made(snowflake: str) -> datetime:
    """Returns when Discord made the thing of an id (a user's account, an interaction).

    >>> made("175928847299117063").isoformat()
    '2016-04-30T11:18:25.796000+00:00'
    """
    return datetime.fromtimestamp(((int(snowflake) >> 22) + DISCORD_EPOCH_MS) / 1000, UTC)


def _check_draws(data: Export, done: Replay, report: Report) -> None:
    """Keyed draws: the file lists exactly the replay's draws, and its list ends at the final state's counter."""
    if data.scheme != KEYED:
        return
    listed = data.draws
    rng = data.final_state.get("rng") if data.final_state is not None else None
    counter = rng.get("counter") if isinstance(rng, dict) else None
    if listed is not None and isinstance(counter, int):
        last = listed[-1][0] if listed else 0
        if last != counter:
            report.draws.append(f"dice.draws: the list ends at draw {last}, but the final state's draw counter is"
                                f" {counter} (the file's draws and its final state disagree)")
    if done.game is None:
        return  # the replay stopped: its draws prove nothing about the file's
    drawn = in_order(done.draws)
    if listed is None:
        report.draws.append(f"dice.draws: the file lists none, but the replay draws {len(drawn)} (a version-2"
                            " export of keyed draws lists every one)")
        return
    for n in range(max(len(listed), len(drawn))):
        mine = listed[n] if n < len(listed) else None
        theirs = drawn[n] if n < len(drawn) else None
        if mine == theirs:
            continue
        where = f"dice.draws[{n}]"
        if mine is None and theirs is not None:
            problem = (f"dice.draws: draw {theirs[0]} is missing: the replay draws range {theirs[1]} value"
                       f" {theirs[2]}, the file's list ends at draw {listed[-1][0] if listed else 0}")
        elif theirs is None and mine is not None:
            problem = (f"{where}: draw {mine[0]} (range {mine[1]} value {mine[2]}) is extra: the replay draws"
                       f" nothing after draw {drawn[-1][0] if drawn else 0}")
        elif mine is not None and theirs is not None and mine[0] == theirs[0]:
            problem = (f"{where}: draw {mine[0]}: the file says range {mine[1]} value {mine[2]}, the replay draws"
                       f" range {theirs[1]} value {theirs[2]}")
        else:
            assert mine is not None and theirs is not None
            problem = (f"{where}: the file lists draw {mine[0]}, the replay's next draw is draw {theirs[0]} (range"
                       f" {theirs[1]} value {theirs[2]})")
        report.draws.append(_made_by(data, done, theirs[0] if theirs else None) + problem)
        return


def _made_by(data: Export, done: Replay, number: int | None) -> str:
    entry = done.made_by.get(number, None) if number is not None else None
    if entry is None:
        return ""
    if entry == SETUP:
        return "the setup: "
    return f"{done.moves[entry].head}: "


def _check_end(data: Export, done: Replay, report: Report) -> None:
    game = done.game
    if game is None:
        report.stopped = True
        report.end_ok = False
        if done.setup_error is not None:
            report.end.append(f"The game cannot be set up from the file: {done.setup_error}")
            report.end_problems.append(f"the game cannot be set up from the file (its options, seats and seed):"
                                       f" {done.setup_error}")
        else:
            report.end.append("The end cannot be checked: the replay stopped.")
        return
    if data.final_state is None:  # every export of a game that replays carries it: left out, it proves nothing
        _fail(report, "Final state: not in the file, so the end cannot be checked: MISMATCH.",
              "final_state: the file has none, so the end cannot be checked")
    elif digest(data.final_state) == digest(game.dump_state()):
        report.end.append("Final state: the replay ends in the file's final state: match.")
    else:
        _fail(report, "Final state: the replay ends elsewhere than the file's final state: MISMATCH.",
              "final_state: the replay ends elsewhere than the file's final state (a log cut short, or a state"
              " written by hand)")
    if data.status == "finished":
        if not game.is_over:
            _fail(report, "Winners: the file says the game finished, but the replayed game is not over: MISMATCH.",
                  "status: the file says the game finished, but the replayed game is not over")
        elif data.winners is None:
            _fail(report, f"Winners: not in the file, the replay gives {_names(game.winners)}: MISMATCH.",
                  f"winners: the file has none for a finished game, the replay gives {_names(game.winners)}")
        elif sorted(data.winners) != sorted(game.winners):
            _fail(report, f"Winners: the file says {_names(data.winners)}, the replay gives"
                          f" {_names(game.winners)}: MISMATCH.",
                  f"winners: the file says {_names(data.winners)}, the replay gives {_names(game.winners)}")
        else:
            report.end.append(f"Winners: {_names(game.winners)}: match.")
    elif game.is_over:  # a game its rules ended is finished: the host can no longer abort it
        _fail(report, "Status: the file says the game was aborted, but the replay ends it by its rules"
                      f" ({_names(game.winners)} won): MISMATCH.",
              f"status: the file says the game was aborted, but the replay ends it by its rules"
              f" ({_names(game.winners)} won)")
    elif data.winners is not None:
        _fail(report, f"Winners: the file names {_names(data.winners)} for an aborted game: MISMATCH.",
              f"winners: an aborted game has none, the file says {_names(data.winners)}")
    else:
        report.end.append("The game was aborted before it ended.")


def _fail(report: Report, line: str, reason: str) -> None:
    report.end.append(line)
    report.end_problems.append(reason)
    report.end_ok = False


def _names(names: list[str]) -> str:
    return " and ".join(names) if names else "none (a draw)"


def main(path: str, out: TextIO | None = None, *, every: bool = False, key: str | None = None) -> int:
    """Verifies the export at ``path`` and prints the report; returns 0 (all hold), 1 (not) or 2 (not an export)."""
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
    report = verify(data, key=key)
    print(report.text(every=every), file=out)
    return 0 if report.ok else 1


__all__ = ["MISMATCH", "NOT_RECORDED", "OK", "REFUSED", "TAKEN_BACK", "UNCHECKED", "MoveCheck", "Report", "dice",
           "made", "main", "undo_refused", "verify"]
