"""Climb's bots: they see only their seat's view and legal moves, never another hand or the deck's order.

- ``easy``: any legal move but ``resign``, at random;
- ``normal`` and ``hard``: the lowest card that can be played (keeping the high ones for a
  high pile), else ``draw``.

    >>> import random
    >>> legal = ["play 3", "play 8", "draw", "resign"]
    >>> choose({"hand": [3, 8]}, legal, "ann", "normal", random.Random(1))
    'play 3'
    >>> choose({"hand": [2]}, ["draw", "resign"], "ann", "hard", random.Random(1))
    'draw'
    >>> choose({"hand": [3, 8]}, legal, "ann", "easy", random.Random(1)) in legal[:3]
    True
"""

from __future__ import annotations

import math
import random
from typing import Any


def choose(view: dict[str, Any], legal: list[str], seat: str, level: str, rng: random.Random, *,
           deadline: float = math.inf, explain: bool = False) -> str:
    """Returns the move of ``seat`` at ``level``: one of ``legal``, never ``resign`` while another exists.

    A plain move answers ``explain`` too (the host shows a hint without a why).
    """
    moves = [m for m in legal if m != "resign"] or list(legal)
    if level == "easy":
        return rng.choice(moves)
    plays = [m for m in moves if m.startswith("play ")]
    if plays:
        return min(plays, key=lambda m: int(m.split()[1]))
    return "draw" if "draw" in moves else moves[0]
