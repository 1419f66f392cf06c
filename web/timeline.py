"""A game as the web table shows it: every standing move, and the public position after each.

:func:`build` plays a game's log again from its seed (as :mod:`host.replay` does, undos and
takebacks taken back, :func:`host.undo.play_log`) and keeps, for position ``n`` (0: the start,
``n``: after the ``n``-th standing move), the spectator view (``view(None)``: nothing secret), its
caption and its alt text, and for each move its public events' lines. One numbering everywhere:
"Move n of count", ``#m=n`` in the page's address, ``board/n.png``.

A live game grows: :meth:`Timeline.extend` plays only the new entries of the log when nothing in
them takes a move back, and a takeback rebuilds the whole timeline (its ``epoch`` changes, so a
cached picture of an old position is not shown for the new one)::

    >>> t = build("nxs", ["Ann", "Bob"], 1, {}, [])
    >>> t.count, t.positions[0].caption
    (0, 'Ann to act')

The engine work is CPU-bound: call :func:`build` and :meth:`Timeline.extend` in a worker thread.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from cogs.surface import surface_of, title_of
from engines import GAMES
from engines.core import Game, is_public
from host.replay import position_caption, result_text, turn_number
from host.undo import TAKING_BACK, play_log

_epochs = itertools.count(1)


@dataclass(frozen=True)
class Position:
    """The public position after ``n`` standing moves: its view, the caption and the picture's alt text."""

    n: int
    view: dict[str, Any]
    caption: str
    alt: str
    acting: tuple[str, ...] = ()
    """Who must act in it (none once the game is over)."""


@dataclass(frozen=True)
class Step:
    """The ``n``-th standing move: who played it, its notation and its public events' lines."""

    n: int
    player: str
    move: str
    events: tuple[str, ...]
    at: str | None = None
    """When it was played (ISO 8601), as the log says."""


@dataclass
class Timeline:
    """A game's positions (``count + 1`` of them) and standing moves, built from ``entries`` of its log."""

    name: str
    entries: int
    """How many entries of the log (undos and takebacks counted) it was built from."""
    positions: list[Position]
    steps: list[Step]
    epoch: int = field(default_factory=lambda: next(_epochs))
    _game: Game | None = field(default=None, repr=False)

    @property
    def count(self) -> int:
        """Standing moves: positions are numbered 0 to count."""
        return len(self.steps)

    @property
    def acting(self) -> tuple[str, ...]:
        """Who must act now (the last position)."""
        return self.positions[-1].acting

    def extend(self, log: list[tuple[str, str]], times: list[str | None] | None = None) -> bool:
        """Plays the entries of ``log`` past :attr:`entries` when none takes a move back; False (nothing
        changed) when one does, or when the log is shorter, and the caller builds again."""
        new = log[self.entries:]
        if self._game is None or len(log) < self.entries or any(move in TAKING_BACK for _, move in new):
            return False
        for i, (player, move) in enumerate(new, start=self.entries):
            events = self._game.play(player, move)
            self._add(player, move, events, times[i] if times else None)
        self.entries = len(log)
        return True

    def _add(self, player: str, move: str, events: list[dict[str, Any]], at: str | None) -> None:
        assert self._game is not None
        n = len(self.steps) + 1
        lines = tuple(str(e.get("text", "")) for e in events if is_public(e) and e.get("text"))
        self.steps.append(Step(n, player, move, lines, at))
        self.positions.append(position(self.name, n, self._game))


def position(name: str, n: int, game: Game) -> Position:
    """Returns the public position of ``game`` as position ``n``."""
    view = game.view(None)
    over = result_text(list(game.winners)) if game.is_over else None
    acting = [] if game.is_over else list(game.to_act())
    if turn_number(view) is not None:
        caption = position_caption(view, acting, over=over)
    elif over:
        caption = f"Game over: {over}"
    else:
        caption = " & ".join(acting) + " to act" if acting else "Start"
    surface = surface_of(name)
    return Position(n, view, caption, surface.alt(title_of(name), view), tuple(acting))


def build(name: str, seats: list[str], seed: int | str, options: dict[str, Any],
          log: list[tuple[str, str]], times: list[str | None] | None = None) -> Timeline:
    """Returns the timeline of a started game from its seat names, seed, options and whole log (``times``:
    when each entry was played).

    Raises GameError when the rules refuse an entry (a damaged log), KeyError for a game not offered here.
    """
    game = GAMES[name].new(seats, seed, options)
    timeline = Timeline(name, 0, [position(name, 0, game)], [], _game=game)
    for i, events in play_log(game, log):
        player, move = log[i]
        timeline._add(player, move, events, times[i] if times else None)
    timeline.entries = len(log)
    return timeline
