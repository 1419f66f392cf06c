"""Bots: each game's policy picks a move for a seat from what that seat may see, and nothing else.

A game's policy is a function ``choose`` (see :class:`~engines.core.kit.Choose`), usually in
``engines/<game>/ai.py``, that its kit names (``GameKit.ai``). The host asks it through
:func:`think`, which hands it only the seat's own view (``view(seat)``, the same as the
player's) and the seat's legal moves: never the state, so a bot cannot know another hand or
a die to come. Levels, each beating the one below by a measured margin (``bench/ai.py``):

- ``easy``: beats random play, but not by much thought; never absurd (no giving up, no
  pointless move when a sensible one exists);
- ``normal``: plays the game's plain good sense (and coaches: :func:`advise`);
- ``hard``: as strong as fits the think-time budget.

**The budget.** Every think is given a wall-clock budget in seconds (:data:`BUDGET`, the
host's ``TABLEHOST_BOT_BUDGET``). The policy gets its ``deadline`` (a ``time.perf_counter()``
value, :data:`SEARCH_SHARE` of the budget from the start, the rest kept for listing the
moves and answering) and plays its best move so far when the search is not done by then.

**The coach.** A policy may answer a :class:`Choice`: the move, and one line of why, made
from what it weighed ("attack Ukraine from Ural: 78% to win"). :func:`advise` asks the
``normal`` level for one, on the seat's own view, for ``/game hint``: its considered move
(``explain=True``), never one of the slips that keep ``normal`` a step below ``hard``.

``rng`` is the bot's own randomness, drawn apart from the game's seed, so its choices
reveal nothing of the dice.

    >>> LEVELS
    ('easy', 'normal', 'hard')
    >>> Choice("end", "nothing is worth the risk").move
    'end'
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engines.core.kit import Choose
from engines.core.registry import KITS

if TYPE_CHECKING:
    from engines.core.game import Game

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
COACH = "normal"
"""The level whose move a hint suggests."""
BUDGET = 1.0
"""Seconds a bot may think over a move by default (the p99 goal is this; the maximum 1.5 times it)."""
SEARCH_SHARE = 0.7
"""The share of the budget a policy may search for; the rest is the margin for the host's own steps."""

__all__ = ["BUDGET", "COACH", "LEVELS", "SEARCH_SHARE", "Choice", "Choose", "advise", "has_bots", "policy", "think"]


@dataclass(frozen=True)
class Choice:
    """A bot's move, with one line of why when the policy gives one (a hint shows it)."""

    move: str
    why: str = ""


def policy(game: str) -> Choose:
    """Returns a game's ``choose`` (its kit's ``ai``); raises LookupError when it has no bots."""
    kit = KITS.get(game)
    if kit is None or kit.ai is None:
        raise LookupError(f"{game} has no bots")
    return kit.ai


def has_bots(game: str) -> bool:
    """Returns whether a game has a bot policy."""
    try:
        policy(game)
    except LookupError:
        return False
    return True


def decide(game: Game, seat: str, level: str, rng: random.Random, *, budget: float = BUDGET,
           explain: bool = False) -> Choice:
    """Returns the bot's :class:`Choice` for ``seat`` (who must act), from the seat's own view and legal moves only.

    ``explain`` asks the policy for its considered move of ``level`` and why (never a slip).
    """
    start = time.perf_counter()
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    if budget <= 0:
        raise ValueError(f"the budget must be a positive number of seconds, not {budget!r}")
    legal = game.legal_moves(seat)
    if not legal:
        raise LookupError(f"{seat} has no legal move")
    answer = policy(game.NAME)(game.view(seat), legal, seat, level, rng, deadline=start + budget * SEARCH_SHARE,
                               explain=explain)
    return answer if isinstance(answer, Choice) else Choice(answer)


def think(game: Game, seat: str, level: str, rng: random.Random, *, budget: float = BUDGET) -> str:
    """Returns the bot's move for ``seat`` (who must act) within ``budget`` seconds (see :func:`decide`)."""
    return decide(game, seat, level, rng, budget=budget).move


def advise(game: Game, seat: str, rng: random.Random, *, budget: float = BUDGET) -> Choice:
    """Returns the coach's move for ``seat`` and why: the :data:`COACH` level on the seat's own view."""
    return decide(game, seat, COACH, rng, budget=budget, explain=True)
