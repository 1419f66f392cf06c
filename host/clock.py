"""The turn clock: when a player who must act is reminded, and when their time runs out.

Each game has one clock (a row of ``clocks``). Its windows start again at every move (a
player's or the clock's), at the start and at a resume; the stages then fall due in order::

    stage 0 → 1   the first reminder, ``remind_after`` after the start of the windows
    stage 1 → 2   the second reminder, halfway from the first to the timeout
    stage 2 → 3   the timeout: the clock plays ``on_timeout`` (``skip`` or ``forfeit``)

A stage is handled by claiming it: ``UPDATE … WHERE game_id AND version AND stage`` in the
same transaction as what it announces, so it happens once for a (game, version), however
many schedulers race for it or restarts replay it. Times are seconds since the epoch, from
the table service's clock, so tests move time by hand.

    >>> s = ClockSettings()
    >>> [(stage, due / 3600) for stage, due in s.stages(0.0)]
    [(1, 12.0), (2, 42.0), (3, 72.0)]
    >>> ClockSettings.parse(remind_after="2h", timeout="1d", on_timeout="forfeit").stages(0.0)[-1]
    (3, 86400.0)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines import GameError
from engines.core import Game, shown
from host.db import Row, Tx

HOUR = 3600.0
DEFAULT_REMIND = 12 * HOUR
DEFAULT_TIMEOUT = 72 * HOUR
LONGEST = 60 * 24 * HOUR
"""The longest window a clock may have (60 days)."""
SHORTEST = 60.0
"""The shortest (one minute; shorter would nag)."""
ON_TIMEOUT = ("skip", "forfeit", "bot-easy", "bot-normal", "bot-hard")
"""What a timeout does: the engine's skip or forfeit, or a bot of a level plays the turn (``bot`` is bot-normal)."""
TIMED_OUT = 3
"""The stage of a clock whose turn has timed out (nothing more falls due until the turn moves on)."""

_SPAN = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(m|min|mins|minutes?|h|hours?|d|days?)?\s*", re.IGNORECASE)
_UNITS = {"m": 60.0, "h": HOUR, "d": 24 * HOUR}


def parse_span(text: str | float | int, what: str) -> float:
    """Returns a duration in seconds from ``90m``, ``12h``, ``3d`` or a number of hours; raises GameError.

    >>> parse_span("90m", "remind_after"), parse_span("1.5d", "timeout"), parse_span(12, "timeout")
    (5400.0, 129600.0, 43200.0)
    >>> parse_span("soon", "timeout")
    Traceback (most recent call last):
    ...
    engines.core.errors.GameError: timeout: I can't read 'soon': write a time like 90m, 12h or 3d.
    """
    if isinstance(text, bool):
        raise GameError(f"{what}: write a time like 90m, 12h or 3d.")
    if isinstance(text, int | float):
        seconds = float(text) * HOUR
    else:
        m = _SPAN.fullmatch(text)
        if not m:
            raise GameError(f"{what}: I can't read '{shown(str(text), 30)}': write a time like 90m, 12h or 3d.")
        seconds = float(m.group(1)) * _UNITS[(m.group(2) or "h")[0].lower()]
    if not SHORTEST <= seconds <= LONGEST:
        raise GameError(f"{what} must be between 1 minute and 60 days, not {span_text(seconds)}.")
    return seconds


def span_text(seconds: float) -> str:
    """Returns a duration as players read it.

    >>> span_text(42 * 3600), span_text(90 * 60), span_text(30), span_text(3 * 86400 + 3600)
    ('1 d 18 h', '1 h 30 min', '30 s', '3 d 1 h')
    """
    s = max(0, round(seconds))
    days, rest = divmod(s, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    return f"{minutes} min" if minutes else f"{secs} s"



def has_skip(game: Game) -> bool:
    """True when the game has a "do the least" skip of its own (without one, ``skip`` means forfeit)."""
    return type(game).skip_moves is not Game.skip_moves


def will_do(game: Game, on_timeout: str) -> str:
    """Returns what the turn clock does when time runs out, in the game's own terms, for a reminder.

    ``skip`` in a game without one, and ``forfeit``, give up by the game's own move (NXS resigns,
    Nexohominis concedes); ``bot-<level>`` hands the turn to a bot.
    """
    if on_timeout.startswith("bot-"):
        return f"hands the turn to a bot ({on_timeout[4:]})"
    if on_timeout == "skip" and has_skip(game):
        return "skips the turn"
    move = game.FORFEIT_MOVE
    return f"{move}s for them" if move else "ends the game for them"

@dataclass(frozen=True)
class ClockSettings:
    """A game's clock: when to remind, when to time out, and what a timeout does."""

    remind_after: float = DEFAULT_REMIND
    timeout: float = DEFAULT_TIMEOUT
    on_timeout: str = "skip"

    @classmethod
    def parse(
        cls,
        *,
        remind_after: str | float | None = None,
        timeout: str | float | None = None,
        on_timeout: str | None = None,
        base: ClockSettings | None = None,
    ) -> ClockSettings:
        """Returns settings from typed values (None keeps ``base``'s, else the default); raises GameError.

        A timeout given alone, shorter than the reminder it would keep, brings the reminder
        forward to half of it:

            >>> ClockSettings.parse(timeout="5h").remind_after / 3600
            2.5
        """
        base = base or cls()
        remind = base.remind_after if remind_after is None else parse_span(remind_after, "remind_after")
        limit = base.timeout if timeout is None else parse_span(timeout, "timeout")
        if remind_after is None and remind >= limit:
            remind = limit / 2
        action = base.on_timeout if on_timeout is None else on_timeout.strip().lower()
        action = {"bot": "bot-normal"}.get(action, action)
        if action not in ON_TIMEOUT:
            raise GameError(f"on_timeout is skip, forfeit or bot (bot-easy, bot-normal, bot-hard), not"
                            f" '{shown(action, 20)}'.")
        if remind >= limit:
            raise GameError(
                f"The reminder ({span_text(remind)}) must come before the timeout ({span_text(limit)})."
            )
        return cls(remind, limit, action)

    def stages(self, started_at: float) -> list[tuple[int, float]]:
        """Returns (stage reached, when it falls due) for windows that start at ``started_at``."""
        second = self.remind_after + (self.timeout - self.remind_after) / 2
        return [(1, started_at + self.remind_after), (2, started_at + second), (TIMED_OUT, started_at + self.timeout)]

    def due(self, started_at: float, stage: int) -> float | None:
        """Returns when the clock at ``stage`` next falls due, or None when nothing is left."""
        return next((due for reached, due in self.stages(started_at) if reached > stage), None)

    def describe(self) -> str:
        """Returns "reminders after 12 h, timeout after 3 d (skip)"."""
        return f"reminders after {span_text(self.remind_after)}, timeout after {span_text(self.timeout)} " \
               f"({self.on_timeout})"


@dataclass(frozen=True)
class ClockRow:
    """A game's clock as stored: its settings, and where the current windows stand."""

    game_id: int
    settings: ClockSettings
    version: int
    started_at: float | None
    stage: int
    paused_at: float | None
    next_due: float | None

    @property
    def deadline(self) -> float | None:
        """When the current turn times out, or None (paused, not started, timed out)."""
        if self.started_at is None or self.paused_at is not None or self.stage >= TIMED_OUT:
            return None
        return self.started_at + self.settings.timeout


# -- steps run inside the store's transactions ------------------------------------------

COLUMNS = "game_id, remind_after, timeout, on_timeout, version, started_at, stage, paused_at, next_due"
CHANGED = "tablehost_clocks"
"""The channel a transaction that sets a clock's next deadline notifies (every process's timekeeper listens)."""


async def insert(tx: Tx, game_id: int, settings: ClockSettings) -> None:
    """Gives a new game its clock (not running until the start)."""
    await tx.execute(
        "INSERT INTO clocks (game_id, remind_after, timeout, on_timeout, version, stage) VALUES (?, ?, ?, ?, 0, 0)",
        game_id, settings.remind_after, settings.timeout, settings.on_timeout,
    )


async def read(tx: Tx, game_id: int) -> ClockRow | None:
    """Returns a game's clock, or None (a game from before clocks)."""
    r = await tx.fetchrow(f"SELECT {COLUMNS} FROM clocks WHERE game_id = ?", game_id)
    return row_of(r) if r else None


def row_of(r: Row) -> ClockRow:
    """Returns the clock a row of ``clocks`` holds."""
    settings = ClockSettings(float(r["remind_after"]), float(r["timeout"]), str(r["on_timeout"]))
    return ClockRow(int(r["game_id"]), settings, int(r["version"]), r["started_at"], int(r["stage"]),
                    r["paused_at"], r["next_due"])


async def restart(tx: Tx, game_id: int, version: int, at: float, *, running: bool = True) -> None:
    """Starts fresh windows at ``at`` for the game at ``version`` (none when it is over or paused)."""
    row = await read(tx, game_id)
    if row is None:
        return
    due = row.settings.due(at, 0) if running and row.paused_at is None else None
    await tx.execute(
        "UPDATE clocks SET version = ?, started_at = ?, stage = 0, next_due = ?, claimed_until = NULL"
        " WHERE game_id = ?",
        version, at, due, game_id,
    )
    if due is not None:
        await tx.notify(CHANGED)


async def claim(tx: Tx, game_id: int, version: int, reached: int) -> bool:
    """Moves the clock of the game at ``version`` on to stage ``reached``; False when it is there already.

    Keyed by (game, version, stage): of two claims of the same stage, one succeeds (on
    PostgreSQL the second waits for the first's row lock, then finds the stage moved on).
    A clock overdue by several stages (the bot was down) is claimed once, at the latest.
    """
    row = await read(tx, game_id)
    if row is None or row.version != version or row.stage >= reached or row.started_at is None:
        return False
    if row.paused_at is not None:
        return False
    due = row.settings.due(row.started_at, reached)
    changed = await tx.execute(
        "UPDATE clocks SET stage = ?, next_due = ?, claimed_until = NULL"
        " WHERE game_id = ? AND version = ? AND stage < ?",
        reached, due, game_id, version, reached,
    )
    return changed == 1


def reached_by(row: ClockRow, now: float) -> int:
    """Returns the latest stage due at ``now`` for a clock (its own stage when none is).

    >>> row = ClockRow(1, ClockSettings(), 4, 0.0, 0, None, 12 * 3600.0)
    >>> reached_by(row, 11 * 3600.0), reached_by(row, 50 * 3600.0), reached_by(row, 99 * 3600.0)
    (0, 2, 3)
    """
    if row.started_at is None or row.paused_at is not None:
        return row.stage
    return max([row.stage, *(stage for stage, due in row.settings.stages(row.started_at) if due <= now)])


async def stop(tx: Tx, game_id: int) -> None:
    """Stops a clock for good (its game finished or was aborted)."""
    await tx.execute("UPDATE clocks SET next_due = NULL WHERE game_id = ?", game_id)
