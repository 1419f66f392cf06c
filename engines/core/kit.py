"""A game's kit: the one object through which the shared layers ask a game for everything.

A game is one slice: its engine (``engines/<game>/``), its pictures (``render/``), its bots,
its rules summary and its Discord surface (``cogs/``). The slice presents itself as one
:class:`GameKit`, found through the entry-point group ``tablehost.games``
(:mod:`engines.core.registry`); the shared layers ask the kit and keep a default for what it
leaves out. A layer reads only its own parts: the host the engine and the bots, ``render/``
the pictures, ``cogs/`` the surface, so no shared module names a game::

    >>> from engines.core.game import Game
    >>> class Solo(Game):
    ...     NAME, TITLE, MIN_PLAYERS, MAX_PLAYERS = "solo", "Solo", 1, 1
    >>> kit = GameKit(engine=Solo)
    >>> kit.name, kit.title, kit.group, kit.ai is None, kit.surface is None
    ('solo', 'Solo', None, True, True)

The parts above the engines are typed loosely here, since this module sits below them:
``render`` returns PNG bytes and ``picture`` an image for the replay (:mod:`render`), and
``surface`` is a :class:`cogs.surface.Surface` (its quick moves, hand picker, board title,
event lines, secret text, hand alerts and slash command group), read only by ``cogs/``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from engines.core.game import JSON, Game


class Choose(Protocol):
    """``choose(view, legal, seat, level, rng, *, deadline, explain) -> move``: a bot's policy (:mod:`engines.core.ai`).

    It answers a move of ``legal``, or an ``engines.core.ai.Choice`` (the move and why), by
    ``deadline`` (a ``time.perf_counter()`` value). With ``explain`` it answers a ``Choice``:
    the level's considered move (no deliberate slip) and one line of why.
    """

    def __call__(self, view: JSON, legal: list[str], seat: str, level: str, rng: random.Random, *,
                 deadline: float = ..., explain: bool = ...) -> Any: ...

Renderer = Callable[..., bytes]
"""``render(view, **marks) -> bytes``: the PNG picture of a view."""
Picture = Callable[[JSON], Any]
"""``picture(view) -> PIL.Image.Image``: the picture before encoding (the replay's frames)."""
SecretText = Callable[[JSON], str]
"""``describe(private view) -> str``: a player's hidden part in plain words (the console's ``hand``)."""


@dataclass(frozen=True)
class GameKit:
    """One game, as the shared layers see it. Only ``engine`` is required."""

    engine: type[Game]
    """The rules: a :class:`~engines.core.game.Game` subclass (its ``NAME`` names the kit)."""
    rules: Path | None = None
    """The rules summary: Markdown pages separated by ``---`` lines (``/<game> rules``)."""
    notation: str = ""
    """How its moves are written, one short paragraph for players; empty: its engine's ``MOVE_SHAPES``."""
    group: str | None = None
    """The name of its own slash command group (``xisk``: ``/xisk new``), when its surface has one."""
    ai: Choose | None = None
    """Its bots' policy; None: it has no bots."""
    render: Renderer | None = None
    """Its picture; None: the generic status card."""
    picture: Picture | None = None
    """Its picture as an image, for the replay; None: the PNG of ``render`` is decoded."""
    replay_turn: Callable[[JSON], Hashable] | None = None
    """What one turn of its replay lasts for, from the spectator view after a move; None: while the same
    players must act."""
    replay_note: Callable[[JSON], str] | None = None
    """A note on a replay turn for its caption, from the view at the turn's start; None: no note."""
    replay_unit: str = "turn"
    """What a replay turn is called in its captions and post ("phase": Nexohominis, whose turns are phases)."""
    describe_secret: SecretText | None = None
    """A player's private view in plain words; None: one line per field."""
    surface: object | None = None
    """Its Discord surface (a ``cogs.surface.Surface``); None: the shared defaults."""

    @property
    def name(self) -> str:
        """Returns the game's short name (``xisk``)."""
        return self.engine.NAME

    @property
    def title(self) -> str:
        """Returns the game's title (``XISK``)."""
        return self.engine.TITLE

    @property
    def notation_help(self) -> str:
        """Returns how its moves are written: ``notation``, else the engine's move shapes.

        >>> from engines.core.game import Game
        >>> class Race(Game):
        ...     NAME, TITLE, MIN_PLAYERS, MAX_PLAYERS = "race", "Race", 2, 2
        ...     MOVE_SHAPES = {"add": "add <n>", "roll": "roll"}
        >>> GameKit(engine=Race).notation_help
        'Moves: `add <n>`, `roll`.'
        """
        if self.notation:
            return self.notation
        shapes = ", ".join(f"`{shape}`" for shape in self.engine.MOVE_SHAPES.values())
        return f"Moves: {shapes}." if shapes else ""

    @property
    def timeout_wording(self) -> dict[str, str]:
        """Returns what the turn clock plays at a timeout, one sentence per policy (``skip``, ``forfeit``)."""
        return dict(self.engine.TIMEOUT_DOCS)
