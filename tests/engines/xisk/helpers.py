"""Builds XISK games at a chosen position by setting the state directly."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from engines.core import is_public
from engines.core.deck import STANDARD_DECK, deck_order
from engines.xisk import Xisk
from engines.xisk.board import load_board
from engines.xisk.state import Phase

BOARD = load_board()
ALL = list(BOARD.countries)


def position(
    players: tuple[str, ...] = ("ann", "bob"),
    *,
    owners: dict[str, str] | None = None,
    rest: str | None = None,
    chips: dict[str, int] | None = None,
    phase: Phase = Phase.ATTACK,
    turn: str | None = None,
    hands: dict[str, list[str]] | None = None,
    supply_left: int = 0,
    sets_redeemed: int = 0,
    seed: int = 1,
    eliminated: tuple[str, ...] = (),
) -> Xisk:
    """Returns a game in ``phase`` on ``turn``'s turn (default the first player).

    ``owners`` sets single countries; every other country belongs to ``rest`` (default
    the last player). Chips default to 1; hands default to empty; the deck holds the
    other cards in deck order.
    """
    g = Xisk.new(list(players), seed=seed)
    s = g.state
    rest = rest or players[-1]
    s.owner = {c: (owners or {}).get(c, rest) for c in ALL}
    s.chips = {c: (chips or {}).get(c, 1) for c in ALL}
    s.hands = {p: deck_order(list((hands or {}).get(p, []))) for p in players}
    held = {c for h in s.hands.values() for c in h}
    s.deck = [c for c in STANDARD_DECK if c not in held]
    s.claim_queue = []
    s.order = list(players)
    s.turn_index = players.index(turn or players[0])
    s.phase = phase
    s.supply_left = s.supply_base = supply_left
    s.sets_redeemed = sets_redeemed
    s.eliminated = list(eliminated)
    s.turn_number = 1
    return g


def public_texts(events: list[dict[str, Any]]) -> list[str]:
    """Returns the text of every public event."""
    return [e["text"] for e in events if is_public(e)]


def string_leaves(value: Any) -> set[str]:
    """Returns every string in a JSON value and every word of those strings."""
    out: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            out |= string_leaves(k) | string_leaves(v)
    elif isinstance(value, list):
        for v in value:
            out |= string_leaves(v)
    elif isinstance(value, str):
        out.add(value)
        out.update(value.replace(",", " ").replace(".", " ").replace(":", " ").split())
    return out


_CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AKQJ])[SHDC](?![0-9A-Za-z])")


def card_names(value: Any) -> set[str]:
    """Returns every card name (like ``AS`` or ``10H``) written anywhere in a JSON value."""
    return set(_CARD.findall(json.dumps(value)))


def leaked(cards: set[str], value: Any) -> set[str]:
    """Returns the cards of ``cards`` written anywhere in a JSON value (as whole words)."""
    text = json.dumps(value)
    if not any(c in text for c in cards):
        return set()
    return cards & set(_CARD.findall(text))


def random_move(g: Xisk, rnd: random.Random, *, aggressive: float = 0.0, resign: float = 0.0) -> tuple[str, str]:
    """Returns (player, move) picked at random among the legal moves (attacks favoured).

    ``resign`` is played with that chance when it is legal, and never otherwise.
    """
    player = g.to_act()[0]
    moves = g.legal_moves(player)
    if "resign" in moves:
        if resign and rnd.random() < resign:
            return player, "resign"
        moves.remove("resign")
    if aggressive and rnd.random() < aggressive:
        attacks = [m for m in moves if m.startswith(("attack", "invade"))]
        if attacks:
            return player, rnd.choice(attacks)
    return player, rnd.choice(moves)


def snapshot(g: Xisk) -> str:
    """Returns the game's JSON (for byte-identical comparisons)."""
    return json.dumps(json.loads(g.to_json()), sort_keys=True)


def greedy_move(g: Xisk) -> tuple[str, str]:
    """Returns (player, move) of a simple attacker that finishes games (as in the bench)."""
    s = g.state
    player = g.to_act()[0]
    moves = [m for m in g.legal_moves(player) if m != "resign"]
    head = moves[0].split()[0]
    if head in ("claim", "invade"):
        return player, moves[0] if head == "claim" else moves[-1]
    redeems = [m for m in moves if m.startswith("redeem")]
    if redeems:
        return player, redeems[0]
    if head == "place":
        def strength(c: str) -> int:
            border = any(s.owner[n] != player for n in BOARD.neighbours[c])
            return s.chips[c] + (1000 if border else 0)
        return player, f"place {max(s.countries_of(player), key=strength)} {s.supply_left}"
    attacks = [m.split() for m in moves if m.startswith("attack")]
    if attacks:
        _, a, b = max(attacks, key=lambda m: s.chips[m[1]] - s.chips[m[2]])
        if s.chips[a] > s.chips[b] or s.chips[a] >= 4:
            return player, f"attack {a} {b}"
    return player, "end"
