"""The thinker: bots and the coach think off the event loop, within the host's budget."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import replace
from typing import Any

import pytest

from engines.core.ai import Choice
from engines.core.registry import KITS
from engines.xisk import Xisk
from engines.xisk.ai import choose
from host.thinker import GRACE, Thinker


def _game() -> Xisk:
    g = Xisk.new(["ann", "bob"], seed=5)
    rng = random.Random(5)
    while g.view(None)["phase"] == "claim":
        seat = g.to_act()[0]
        g.play(seat, choose(g.view(seat), g.legal_moves(seat), seat, "normal", rng))
    return g


async def test_a_bot_move_is_legal_and_leaves_the_game_untouched() -> None:
    g = _game()
    seat, before = g.to_act()[0], g.view(None)
    thinker = Thinker(budget=0.5)
    try:
        move = await thinker.move(g, seat, "hard")
    finally:
        thinker.close()
    assert move in g.legal_moves(seat) and g.view(None) == before and thinker.overruns == 0


async def test_the_hint_is_the_coachs_move_with_its_why() -> None:
    g = _game()
    seat = g.to_act()[0]
    thinker = Thinker(budget=0.5)
    try:
        hint = await thinker.hint(g, seat)
    finally:
        thinker.close()
    assert isinstance(hint, Choice) and hint.move in g.legal_moves(seat) and hint.why


async def test_an_overrun_plays_the_easy_move_and_the_loop_stays_free(monkeypatch: pytest.MonkeyPatch) -> None:
    """A policy that ignores its deadline is cut off at GRACE times the budget; meanwhile the loop runs."""
    kit = KITS["xisk"]

    def stubborn(view: dict[str, Any], legal: list[str], seat: str, level: str, rng: random.Random, *,
                 deadline: float, explain: bool = False) -> str | Choice:
        if level != "easy":
            time.sleep(1.0)  # a search that never looks at the clock
        return choose(view, legal, seat, level, rng, deadline=deadline, explain=explain)

    KITS.add(replace(kit, ai=stubborn))
    thinker = Thinker(budget=0.2)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.create_task(tick())
    try:
        g = _game()
        seat = g.to_act()[0]
        t = time.perf_counter()
        move = await thinker.move(g, seat, "hard")
        took = time.perf_counter() - t
        hint = await thinker.hint(g, seat)
    finally:
        ticker.cancel()
        KITS.add(kit)
        thinker.close()
    assert move in g.legal_moves(seat) and took < 0.2 * GRACE + 0.5
    assert hint == Choice(hint.move, "") and thinker.overruns == 2
    assert ticks >= 10  # the loop kept waking while the thread slept


def test_a_bad_budget_is_refused() -> None:
    with pytest.raises(ValueError, match="more than 0 seconds"):
        Thinker(budget=0)
