"""Views: the spectator's picture of a game, and a player's (with their hand).

``public_view`` never reads a hand or the claim queue except to count cards, so a
hidden card cannot reach it; ``player_view`` adds only that player's own secrets.
"""

from __future__ import annotations

from engines.core import JSON
from engines.xisk.board import Board
from engines.xisk.cards import redeemable
from engines.xisk.moves import Redeem
from engines.xisk.rules import to_act
from engines.xisk.state import Phase, XiskState


def public_view(s: XiskState, board: Board) -> JSON:
    """Returns the JSON-safe view every spectator may see."""
    invade = None
    if s.phase is Phase.INVADE and s.invade is not None:
        src, dst = s.invade
        invade = {"from": src, "to": dst, "most": s.chips[src] - 1}
    return {
        "phase": s.phase.value,
        "turn": s.turn,
        "turn_number": s.turn_number,
        "to_act": to_act(s),
        "order": list(s.order),
        "countries": {c: {"owner": s.owner[c], "chips": s.chips[c]} for c in board.countries},
        "cards_held": {p: len(h) for p, h in s.hands.items()},
        "deck_size": len(s.deck),
        "sets_redeemed": s.sets_redeemed,
        "next_set_value": s.sets_redeemed + 1,
        "supply_left": s.supply_left,
        # Who claimed what; the cards are in the claim events only, since a claimed card
        # goes back to the deck and may later be held by someone.
        "claims": [{"player": c["player"], "country": c["country"]} for c in s.claims],
        "claims_left": len(s.claim_queue),
        "conquered_this_turn": s.conquered,
        "invade": invade,
        "last_battle": dict(s.last_battle) if s.last_battle else None,
        "eliminated": list(s.eliminated),
        "winner": s.winner,
    }


def player_view(s: XiskState, board: Board, player: str | None) -> JSON:
    """Returns the public view, plus ``hand`` and ``redeemable`` when ``player`` is seated."""
    out = public_view(s, board)
    if player is not None:
        out.update(private_part(s, player))
    return out


def private_part(s: XiskState, player: str) -> JSON:
    """Returns ``hand`` and ``redeemable`` of a seated ``player`` (nothing for anyone else)."""
    if player not in s.hands:
        return {}
    return {
        "hand": list(s.hands[player]),
        "redeemable": [str(Redeem(cs)) for cs in redeemable(s.hands[player])],
    }
