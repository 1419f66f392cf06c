"""Tally's bot, for tests of the shared layers: it adds the most it may, from its seat's view only."""

from __future__ import annotations

import math
import random
from typing import Any

from engines.core.ai import Choice


def choose(view: dict[str, Any], legal: list[str], seat: str, level: str, rng: random.Random, *,
           deadline: float = math.inf, explain: bool = False) -> str | Choice:
    """Returns the largest ``add``, or any legal move (``easy`` picks at random among the adds)."""
    adds = [m for m in legal if m.startswith("add ")]
    if level == "easy" and adds and not explain:
        return rng.choice(adds)
    move = max(adds, key=lambda m: int(m.split()[1])) if adds else legal[0]
    return Choice(move, f"the most you may add, toward {view.get('target', 'the target')}") if explain else move
