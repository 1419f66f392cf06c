"""Thinking for the bots and the coach, off the event loop and within the host's budget.

Every think runs on a copy of the game in a worker thread of the thinker's own (so the
pictures' worker threads are never queued behind a long search), and is given the budget
(``TABLEHOST_BOT_BUDGET``, default :data:`engines.core.ai.BUDGET`) as its deadline. The
policies stop searching at the deadline and play their best move so far; should one still
overrun, the thinker keeps the budget itself: past :data:`GRACE` times the budget it plays
the ``easy`` move of the same position (quick by design) and logs that the level overran.

Threads rather than processes: the policies are pure Python, and the interpreter hands the
lock back to the event loop every few milliseconds, so the loop's lag while two hard bots
think stays far under the 50 ms goal (``bench/ai.py`` prints it); a process pool would
copy every position across and start workers that import every game.

    >>> import asyncio
    >>> from engines.nxs.game import Nxs
    >>> t = Thinker(budget=0.5)
    >>> g = Nxs.new(["ann", "bob"])
    >>> asyncio.run(t.move(g, "ann", "normal")) in g.legal_moves("ann")
    True
    >>> t.close()
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import random
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from engines.core.ai import BUDGET, Choice, advise, decide
from host.bot_seats import bot_rng

if TYPE_CHECKING:
    from engines.core.game import Game

log = logging.getLogger(__name__)

GRACE = 1.4
"""Times the budget after which the thinker stops waiting and plays the easy move instead."""


class Thinker:
    """Asks the game's policy for a bot's move or a hint, in its own worker threads, within ``budget`` seconds."""

    def __init__(self, budget: float = BUDGET, *, workers: int | None = None) -> None:
        if not budget > 0:
            raise ValueError(f"the bots' budget must be more than 0 seconds, not {budget!r}")
        self.budget = budget
        self._pool = ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 2,
                                        thread_name_prefix="tablehost-think")
        self.overruns = 0
        """Thinks that outlasted the grace and were answered with the easy move."""

    async def move(self, game: Game, seat: str, level: str) -> str:
        """Returns the move of a bot of ``level`` for ``seat`` (who must act) in ``game`` (left untouched)."""
        return (await self._ask(game, seat, level)).move

    async def hint(self, game: Game, seat: str) -> Choice:
        """Returns the coach's move for ``seat`` and why, from the seat's own view (``game`` left untouched)."""
        return await self._ask(game, seat, None)

    def turn(self, game: Game, seat: str, level: str, *, most: int = 300) -> list[str]:
        """Plays a bot's whole turn for ``seat`` on ``game`` (a copy, changed) in the calling thread; returns its moves.

        For the turn clock's ``bot-<level>`` timeout, already run in a worker; each move keeps the budget.
        """
        moves: list[str] = []
        rng = bot_rng()
        while len(moves) < most and not game.is_over and seat in game.to_act():
            move = decide(game, seat, level, rng, budget=self.budget).move
            game.play(seat, move)
            moves.append(game.last_move or move)
        return moves

    async def _ask(self, game: Game, seat: str, level: str | None) -> Choice:
        loop = asyncio.get_running_loop()
        rng = bot_rng()
        if level is None:
            call = functools.partial(advise, game.clone(), seat, rng, budget=self.budget)
        else:
            call = functools.partial(decide, game.clone(), seat, level, rng, budget=self.budget)
        start = time.perf_counter()
        future = loop.run_in_executor(self._pool, call)
        try:
            async with asyncio.timeout(self.budget * GRACE):
                return await asyncio.shield(future)
        except TimeoutError:
            pass
        self.overruns += 1
        log.warning("a %s think in %s outlasted its %.1f s budget: the easy move is played instead",
                    level or "coach", game.NAME, self.budget)
        future.add_done_callback(_forget)
        quick = await asyncio.to_thread(decide, game.clone(), seat, "easy", random.Random(rng.random()),
                                        budget=self.budget)
        log.debug("the easy move took %.3f s after %.3f s", time.perf_counter() - start, self.budget * GRACE)
        return quick if level is not None else Choice(quick.move, "")

    def close(self) -> None:
        """Lets the worker threads go (a think still running finishes; nothing waits for it)."""
        self._pool.shutdown(wait=False, cancel_futures=True)


def _forget(future: asyncio.Future[Choice]) -> None:
    """Reads a late think's outcome, so that its error (if any) is not logged as never retrieved."""
    if not future.cancelled():
        future.exception()


__all__ = ["GRACE", "Thinker"]
