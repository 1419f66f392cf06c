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
12. ``resign`` (added here: the rulebook has no way to leave a game) is legal for the player
    to act in every phase and is listed last in ``legal_moves``. Their countries turn
    neutral, keeping their chips (neutral chips defend and never attack); their cards go
    back to the deck, which is shuffled; they are listed in ``eliminated`` and take no more
    turns. While claiming, their claims still to come are dropped (those countries end up
    neutral, like any unclaimed one) and the deck is shuffled when the claiming ends.
13. A resignation that leaves one player ends the game at once with that player the winner
    (a two-player game's resignation), neutral countries or not: reading 7's last survivor
    plays on against the neutral chips only after a conquest. With two or more left the game
    goes on: the next claim, or the next player's turn (the resigner draws no card). The last
    player left (reading 7's survivor, or one whose awaited ``invade`` follows the defeat of
    the last other player) may not resign: no one would win. Their ``forfeit`` is ``[]``.
14. Resigning while an ``invade`` is awaited after taking another player's last country:
    that player is defeated as well, and their cards go back to the deck (the conqueror who
    would take them has left).
15. Players who resigned while claiming do not roll for the turn order; they follow the
    others in ``order``.
16. The turn clock (:meth:`Xisk.timeout_moves`): ``forfeit`` is ``resign``. ``skip`` plays
    the least, move by move (:mod:`engines.xisk.clock`), until the player's turn has passed:
    ``end`` in the attack phase, ``invade 0`` when an invade is awaited, ``end`` in the adjust
    phase; the turn then ends as usual (a card is drawn after a conquest earlier in the turn).
17. The skip's supply (and interim cardset) phase: a cardset is redeemed only while compulsory
    (5 cards or more), the first in deck order, as often as needed; then the chips are placed
    one ``place <country> 1`` at a time, each on the player's largest stack: the owned country
    with the most chips, a tie going to the first in map order (so, in effect, all on one).
18. The skip while claiming: the first unclaimed country in map order, for each of the
    player's claims in a row; it stops when the next claim is another player's or the
    claiming ends (a first turn of theirs that begins then is a new turn, with a new clock).
19. A last survivor against neutral countries (reading 7) has one turn skipped: the skip
    stops when their next turn begins, though they are still the one to act.
"""

from __future__ import annotations

from engines.xisk.game import Xisk

__all__ = ["Xisk"]
