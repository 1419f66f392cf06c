"""XISK: world conquest for 2–6 players, with hidden card hands.

Modules: ``board`` (the map from ``data/xisk/map.json``), ``state`` (the state and its
phases), ``moves`` (notation), ``battle`` (dice), ``cards`` (cardsets), ``setup`` (deal,
claims, turn order), ``rules`` (legal moves and applying them), ``view``, ``game``.

Readings chosen here (cases neither the rulebook nor the house rules settle):

1. The player name ``neutral`` is refused: it is the owner of neutral countries.
2. ``cards_per_player`` may lower the deal (1 to 42 ÷ players); the unclaimed
   countries then all get a neutral chip, as with 4 or 5 players.
3. An ``attack`` that leaves no attack possible (the source drops to 1 chip and no
   other country can attack) ends the attack phase by itself (house reading 5).
4. A ``redeem`` is refused once no supply chip is left to place (the phase is over).
5. The cards a defeated player held are merged into the conqueror's hand in deck order.
6. Turn-order rolls happen after the last claim (the rulebook's order), so ``order`` is
   empty while claiming; re-rolls among tied players are public events with ``round`` > 1.
7. The deal is told by :meth:`Xisk.opening_events` (a public count, and each hand
   privately), since ``new`` returns no events.
8. ``end`` in the attack phase goes to the adjust phase; when no transfer is possible
   the turn ends at once (house reading 5).
9. Battle and adjust events name their countries ``source`` and ``target``, not
   ``from``/``to``: an event's ``to`` marks it private (``engines.core.events``). The
   view's ``last_battle`` carries ``from`` and ``to`` as well, for the renderer's arrow.
10. The view's ``claims`` list gives player and country only; the claimed card is in
    the public claim event. Claimed cards go back to the deck and may later be held,
    so the view never names them.
11. A saved game is reloaded with countries in map order and hands in seat order, so
    ``legal_moves`` and events list things in the same order before and after a save.
"""

from __future__ import annotations

from engines.xisk.game import Xisk

__all__ = ["Xisk"]
