"""The setup: dealing, the card-claim in deck order, neutral chips and the turn-order roll.

    >>> from engines.core import Rng
    >>> CARDS_PER_PLAYER[3], neutral_count(4, 10)
    (14, 2)
    >>> order, events = roll_for_order(Rng.from_seed(1), ["ann", "bob", "cy"])
    >>> sorted(order)
    ['ann', 'bob', 'cy']
"""

from __future__ import annotations

from engines.core import Event, Rng, event
from engines.core.deck import DECK_INDEX, Deck
from engines.core.dice import roll
from engines.xisk.board import Board
from engines.xisk.state import NEUTRAL, Phase, XiskState

CARDS_PER_PLAYER: dict[int, int] = {2: 21, 3: 14, 4: 10, 5: 8, 6: 7}
"""The Setup, Cards Per Player: cards dealt to each player by the number of players."""


def neutral_count(players: int, per_player: int) -> int:
    """Returns how many countries stay unclaimed (and get a neutral chip)."""
    return 42 - players * per_player


def deal(players: list[str], per_player: int, rng: Rng, board: Board) -> XiskState:
    """Returns the claiming state: a shuffled deck dealt, the claim queue in deck order."""
    deck = Deck.fresh()
    deck.shuffle(rng)
    dealt = deck.deal(len(players), per_player)
    hands = {p: sorted(h, key=DECK_INDEX.__getitem__) for p, h in zip(players, dealt, strict=True)}
    queue = sorted(([c, p] for p, h in hands.items() for c in h), key=lambda cp: DECK_INDEX[cp[0]])
    return XiskState(
        phase=Phase.CLAIM,
        rng=rng,
        deck=deck.cards,
        hands=hands,
        owner={c: None for c in board.countries},
        chips={c: 0 for c in board.countries},
        claim_queue=queue,
    )


def deal_events(s: XiskState) -> list[Event]:
    """Returns the events of the deal: a public count, and each hand privately to its holder."""
    counts = {p: len(h) for p, h in s.hands.items()}
    per = max(counts.values(), default=0)
    out = [event("deal", f"The cards are dealt: {per} to each player.", cards_held=counts)]
    for p, hand in s.hands.items():
        out.append(event("hand", f"Your hand: {' '.join(hand)}.", to=p, cards=list(hand)))
    return out


def roll_for_order(rng: Rng, players: list[str]) -> tuple[list[str], list[Event]]:
    """Returns the turn order by 3-dice rolls (highest first; tied players re-roll) and the rolls."""
    events: list[Event] = []

    def rank(group: list[str], round_no: int) -> list[str]:
        totals: dict[str, int] = {}
        for p in group:
            dice = roll(rng, 3)
            totals[p] = sum(dice)
            dash = "-".join(map(str, dice))
            again = " (re-roll)" if round_no > 1 else ""
            events.append(event("order_roll", f"{p} rolls {dash} = {totals[p]}{again}.",
                                player=p, dice=dice, total=totals[p], round=round_no))
        out: list[str] = []
        for total in sorted(set(totals.values()), reverse=True):
            tied = [p for p in group if totals[p] == total]
            out.extend(tied if len(tied) == 1 else rank(tied, round_no + 1))
        return out

    order = rank(list(players), 1)
    events.append(event("order", "Turn order: " + ", ".join(order) + ".", order=order))
    return order, events


def finish_claims(s: XiskState, players: list[str]) -> list[Event]:
    """Ends the claiming: cards back and shuffled, neutral chips, the turn-order roll.

    Only players still playing roll; any who resigned while claiming follow them in ``order``.
    """
    for hand in s.hands.values():
        s.deck.extend(hand)
        hand.clear()
    s.rng.shuffle(s.deck)
    events: list[Event] = []
    free = [c for c, o in s.owner.items() if o is None]
    for c in free:
        s.owner[c] = NEUTRAL
        s.chips[c] = 1
    if free:
        events.append(event("neutral", f"A neutral chip goes on each of the {len(free)} unclaimed "
                            "countries.", countries=free))
    playing = [p for p in players if p not in s.eliminated]
    order = playing
    if len(playing) > 1:  # players who resigned while claiming roll for nothing; they come last
        order, order_events = roll_for_order(s.rng, playing)
        events.extend(order_events)
    s.order = order + [p for p in players if p in s.eliminated]
    return events
