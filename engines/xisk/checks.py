"""Checking a saved XISK state before it is loaded: types, ranges and references.

:func:`check_state` raises ``FieldError`` naming the first bad field, so a damaged
snapshot is refused on load instead of failing at every move::

    >>> from engines.xisk import Xisk
    >>> g = Xisk.new(["ann", "bob"], seed=1)
    >>> check_state(g.dump_state(), g.board, g.players)
    >>> bad = {**g.dump_state(), "turn_index": 7}
    >>> check_state(bad, g.board, g.players)
    Traceback (most recent call last):
    ...
    engines.core.reader.FieldError: state: turn_index: must be at most 0, got 7
"""

from __future__ import annotations

from typing import Any

from engines.core.deck import DECK_INDEX
from engines.core.reader import Reader, at
from engines.xisk.board import Board
from engines.xisk.state import NEUTRAL, Phase

MAX_CHIPS = 100_000
"""More chips than a country can ever hold."""


def check_state(data: dict[str, Any], board: Board, players: list[str]) -> None:
    """Checks the dict of ``XiskState.to_json``; raises FieldError for the first bad field."""
    r = Reader("state")
    phase = Phase(r.text(data, "phase", "", choices=tuple(p.value for p in Phase)))
    r.rng(data, "rng", "")
    seats = tuple(players)
    cards = tuple(DECK_INDEX)

    deck = [r.word(c, at("deck", i), choices=cards) for i, c in enumerate(r.items(data, "deck", ""))]
    hands_raw = r.obj(r.field(data, "hands", ""), "hands")
    r.need(sorted(hands_raw) == sorted(seats), "hands", "must hold one hand per player")
    hands = {p: [r.word(c, at(at("hands", p), i), choices=cards) for i, c in enumerate(r.list_(h, at("hands", p)))]
             for p, h in hands_raw.items()}
    every = deck + [c for h in hands.values() for c in h]
    r.need(sorted(every) == sorted(cards), "deck", "the deck and the hands must hold each of the 52 cards once")

    countries = board.countries
    owner = r.obj(r.field(data, "owner", ""), "owner")
    chips = r.obj(r.field(data, "chips", ""), "chips")
    r.need(sorted(owner) == sorted(countries), "owner", "must name every country of the map once")
    r.need(sorted(chips) == sorted(countries), "chips", "must name every country of the map once")
    for c in countries:
        who, n = owner[c], r.int_(chips, c, "chips", high=MAX_CHIPS)
        if who is None:
            r.need(phase is Phase.CLAIM, at("owner", c), "is unowned after the claiming")
            r.need(n == 0, at("chips", c), f"an unowned country holds no chips, not {n}")
        else:
            r.word(who, at("owner", c), choices=(*seats, NEUTRAL))
            r.need(n >= 1, at("chips", c), "an owned country holds at least 1 chip")

    queue = r.items(data, "claim_queue", "")
    for i, item in enumerate(queue):
        card, who = r.list_(item, at("claim_queue", i), length=2)
        r.word(who, at(at("claim_queue", i), 1), choices=seats)
        r.need(card in hands[who], at("claim_queue", i), "names a card its player does not hold")
    r.need((phase is Phase.CLAIM) == bool(queue), "claim_queue", "must be waiting exactly while claiming")
    for i, claim in enumerate(r.items(data, "claims", "")):
        claim = r.obj(claim, at("claims", i))
        r.text(claim, "card", at("claims", i), choices=cards)
        r.text(claim, "player", at("claims", i), choices=seats)
        r.text(claim, "country", at("claims", i), choices=countries)

    order = [r.word(p, at("order", i), choices=seats) for i, p in enumerate(r.items(data, "order", ""))]
    if phase is Phase.CLAIM:
        r.need(not order, "order", "is rolled after the claiming")
    else:
        r.need(sorted(order) == sorted(seats), "order", "must list every player once")
    turn_index = r.int_(data, "turn_index", "", high=max(len(order) - 1, 0))
    for key in ("supply_left", "supply_base", "sets_redeemed", "turn_number"):
        r.int_(data, key, "", high=MAX_CHIPS)
    r.flag(data, "conquered", "")

    eliminated = [r.word(p, at("eliminated", i), choices=seats) for i, p in enumerate(r.items(data, "eliminated", ""))]
    r.need(len(set(eliminated)) == len(eliminated) < len(seats), "eliminated", "names a player twice, or everyone")
    if phase not in (Phase.CLAIM, Phase.OVER):
        r.need(order[turn_index] not in eliminated, "turn_index", "gives the turn to an eliminated player")

    invade = r.field(data, "invade", "")
    if phase is Phase.INVADE:
        src, dst = r.list_(invade, "invade", length=2)
        r.word(src, "invade[0]", choices=countries)
        r.word(dst, "invade[1]", choices=countries)
    else:
        r.need(invade is None, "invade", "is set outside the invade phase")
    if data.get("defeated_pending") is not None:
        r.text(data, "defeated_pending", "", choices=seats)
    winner = r.opt_text(data, "winner", "", choices=seats, required=True)
    r.need((phase is Phase.OVER) == (winner is not None), "winner", "is set exactly when the game is over")
    battle = r.field(data, "last_battle", "")
    if battle is not None:
        battle = r.obj(battle, "last_battle")
        r.text(battle, "from", "last_battle", choices=countries)
        r.text(battle, "to", "last_battle", choices=countries)
