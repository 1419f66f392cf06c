"""Climb's rules: play a card higher than the pile's top, or draw; the first to empty their hand wins.

A deck of the cards 1–9, four of each (36), is shuffled with the game's stored
:class:`~engines.core.Rng` and each player is dealt ``hand`` cards (default 5). On your turn:

- ``play <n>`` puts a card from your hand on the pile. It must be higher than the pile's
  top card; any card may start an empty pile.
- ``draw`` takes the deck's top card into your hand and clears the pile. You may draw
  while the deck has cards; once it is empty, only when you cannot play (so every game ends).
- ``resign``: you leave the game and your cards are set aside; the last player left wins.

The first player to empty their hand wins. The turn clock's skip plays the lowest card
that can be played, else draws. A short game::

    >>> g = Climb.new(["ann", "bob"], seed=21, options={"hand": 2})
    >>> [e["text"] for e in g.opening_events()]
    ['The deal: 2 cards each.', 'You are dealt 1 · 4.', 'You are dealt 5 · 7.']
    >>> g.to_act(), g.legal_moves("ann")
    (['ann'], ['play 1', 'play 4', 'draw', 'resign'])
    >>> [e["text"] for e in g.play("ann", " Play 01 ")]
    ['ann plays 1.']
    >>> [e["text"] for e in g.play("bob", "play 7")]
    ['bob plays 7.']
    >>> g.play("ann", "play 4")
    Traceback (most recent call last):
    ...
    engines.core.errors.IllegalMove: 4 is not higher than the pile's top card, 7: play a higher card, or draw.
    >>> [e["text"] for e in g.play("ann", "draw")]
    ['ann draws a card.', 'You draw a 7.', 'The pile of 2 cards is cleared.']
    >>> [e["text"] for e in g.play("bob", "play 5")]
    ['bob plays 5: their last card.']
    >>> g.is_over, g.winners
    (True, ['bob'])
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any, ClassVar

from engines.core import JSON, BadNotation, Event, Game, GameError, IllegalMove, Rng, event, shown
from engines.core.reader import Reader
from engines.core.words import plural

CARDS: tuple[int, ...] = tuple(range(1, 10))
"""The card values, lowest first."""
COPIES = 4
"""Copies of each value in the deck."""
DECK_SIZE = len(CARDS) * COPIES
"""Cards in the deck: 36."""
MAX_HAND = 8
"""The most cards a hand may be dealt."""

_PLAY = re.compile(r"(?:play\s*)?([0-9]+)")
_PLAY_WORD = re.compile(r"play\s+(.+)")


def dots(cards: list[int]) -> str:
    """Returns cards as a player reads them, lowest first.

    >>> dots([9, 2, 5]), dots([])
    ('2 · 5 · 9', 'no cards')
    """
    return " · ".join(str(c) for c in sorted(cards)) if cards else "no cards"


def either(cards: list[int]) -> str:
    """Returns "7", "7 or 9", "2, 7 or 9" for a refusal naming the cards that can be played."""
    names = [str(c) for c in cards]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


class Climb(Game):
    """Climb the pile with ever higher cards; draw when you cannot (or would rather not)."""

    NAME = "climb"
    TITLE = "Climb"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    OPTIONS: ClassVar[dict[str, Any]] = {"hand": 5}
    OPTION_DOCS: ClassVar[dict[str, str]] = {"hand": "Cards dealt to each player, 1 to 8 (default 5)."}
    HAS_SECRETS = True
    FORFEIT_MOVE = "resign"
    MOVE_SHAPES: ClassVar[dict[str, str]] = {"play": "play <card>", "draw": "draw", "resign": "resign"}
    TIMEOUT_DOCS: ClassVar[dict[str, str]] = {
        "skip": "The clock plays their lowest card that can be played, or draws when none can.",
        "forfeit": "The player resigns: their cards are set aside, and the last player left wins.",
    }

    # -- setting up -------------------------------------------------------------------

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """Completes the options; ``hand`` must be a whole number from 1 to 8."""
        opts = super().check_options(options)
        hand = opts["hand"]
        if isinstance(hand, bool) or not isinstance(hand, int) or not 1 <= hand <= MAX_HAND:
            raise GameError(f"hand must be a whole number from 1 to {MAX_HAND}, not {shown(str(hand), 20)}.")
        return opts

    def setup(self) -> None:
        """Shuffles the deck with the seeded RNG and deals each player their hand, one card at a time."""
        per_hand = int(self.options["hand"])
        if per_hand * len(self.players) > DECK_SIZE:
            raise GameError(f"{len(self.players)} hands of {per_hand} need more than the {DECK_SIZE} cards.")
        self.rng = Rng.from_seed(self.seed)
        self.deck: list[int] = [c for c in CARDS for _ in range(COPIES)]
        self.rng.shuffle(self.deck)
        self.hands: dict[str, list[int]] = {p: [] for p in self.players}
        for _ in range(per_hand):
            for p in self.players:
                self.hands[p].append(self.deck.pop(0))
        self.pile: list[int] = []
        self.turn = 0
        self.resigned: list[str] = []
        self.winner: str | None = None
        self.last: dict[str, str] | None = None
        self.moves = 0

    def opening_events(self) -> list[Event]:
        """Announces the deal, and tells each player their hand privately."""
        return [
            event("deal", f"The deal: {plural(int(self.options['hand']), 'card')} each."),
            *(event("hand", f"You are dealt {dots(self.hands[p])}.", to=p) for p in self.players),
        ]

    # -- the contract -----------------------------------------------------------------

    def to_act(self) -> list[str]:
        return [] if self.winner else [self.players[self.turn]]

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def winners(self) -> list[str]:
        return [self.winner] if self.winner else []

    def playable(self, player: str) -> list[int]:
        """Returns the distinct cards of ``player``'s hand that may go on the pile now, lowest first."""
        top = self.pile[-1] if self.pile else 0
        return sorted({c for c in self.hands[player] if c > top})

    def may_draw(self, player: str) -> bool:
        """Tells whether ``player`` may draw: while the deck has cards, or when they cannot play."""
        return bool(self.deck) or not self.playable(player)

    def legal_moves(self, player: str) -> list[str]:
        if player not in self.to_act():
            return []
        moves = [f"play {c}" for c in self.playable(player)]
        if self.may_draw(player):
            moves.append("draw")
        return [*moves, "resign"]

    def view(self, player: str | None) -> JSON:
        out: JSON = {
            "players": list(self.players),
            "pile_top": self.pile[-1] if self.pile else None,
            "pile_size": len(self.pile),
            "deck": len(self.deck),
            "hands": {p: len(self.hands[p]) for p in self.players},
            "resigned": list(self.resigned),
            "turn": None if self.winner else self.players[self.turn],
            "turn_number": self.moves + 1,
            "last_move": dict(self.last) if self.last else None,
            "winner": self.winner,
        }
        if player is not None and player in self.hands:
            out["hand"] = sorted(self.hands[player])
        return out

    def private_view(self, player: str) -> JSON:
        """Returns the player's hand, lowest first (nothing for someone not seated)."""
        return {"hand": sorted(self.hands[player])} if player in self.hands else {}

    def skip_moves(self, player: str) -> list[str] | None:
        """The turn clock's skip: the lowest card that can be played, else ``draw``."""
        cards = self.playable(player)
        return [f"play {cards[0]}"] if cards else ["draw"]

    # -- moves ------------------------------------------------------------------------

    def apply(self, player: str, text: str) -> tuple[str, list[Event]]:
        said = " ".join(text.lower().split())
        if said == "draw":
            canonical, events = "draw", self._draw(player)
        elif said == "resign":
            canonical, events = "resign", self._resign(player)
        elif m := _PLAY.fullmatch(said):
            card = int(m[1])
            canonical, events = f"play {card}", self._play(player, card, m[1])
        elif m := _PLAY_WORD.fullmatch(said):
            raise BadNotation(f"'{shown(m[1], 20)}' is not a card: the cards are numbers from 1 to 9, like 'play 7'.")
        else:
            raise BadNotation(f"I can't read '{shown(text)}': write 'play 7', 'draw' or 'resign'.")
        self.moves += 1
        self.last = {"player": player, "move": canonical}
        return canonical, events

    def _play(self, player: str, card: int, typed: str) -> list[Event]:
        hand = self.hands[player]
        if card not in CARDS:
            raise IllegalMove(f"There is no card {shown(typed, 20)}: the cards are 1 to 9.")
        if card not in hand:
            raise IllegalMove(f"You have no {card}: your hand is {dots(hand)}.")
        if self.pile and card <= self.pile[-1]:
            other = "play a higher card, or draw" if self.may_draw(player) else "play a higher card"
            raise IllegalMove(f"{card} is not higher than the pile's top card, {self.pile[-1]}: {other}.")
        hand.remove(card)
        self.pile.append(card)
        if not hand:
            self.winner = player
            return [event("play", f"{player} plays {card}: their last card.", card=card)]
        self._advance()
        return [event("play", f"{player} plays {card}.", card=card)]

    def _draw(self, player: str) -> list[Event]:
        if not self.may_draw(player):
            raise IllegalMove(f"The deck is empty, so you must play while you can: you can play "
                              f"{either(self.playable(player))}.")
        if self.deck:
            card = self.deck.pop(0)
            self.hands[player].append(card)
            events = [event("draw", f"{player} draws a card.", deck=len(self.deck)),
                      event("drawn", f"You draw a {card}.", to=player)]
        else:
            events = [event("draw", f"{player} cannot play, and the deck is empty: they draw nothing.", deck=0)]
        if self.pile:
            events.append(event("clear", f"The pile of {plural(len(self.pile), 'card')} is cleared."))
            self.pile = []
        self._advance()
        return events

    def _resign(self, player: str) -> list[Event]:
        aside = len(self.hands[player])
        self.hands[player] = []
        self.resigned.append(player)
        events = [event("resign", f"{player} resigns; their {plural(aside, 'card')} are set aside.")]
        left = [p for p in self.players if p not in self.resigned]
        if len(left) == 1:
            self.winner = left[0]
            events.append(event("last", f"{self.winner} is the last player left."))
        else:
            self._advance()
        return events

    def _advance(self) -> None:
        """Passes the turn to the next player still in the game."""
        n = len(self.players)
        for step in range(1, n + 1):
            seat = (self.turn + step) % n
            if self.players[seat] not in self.resigned:
                self.turn = seat
                return

    # -- persistence ------------------------------------------------------------------

    def dump_state(self) -> JSON:
        return {
            "rng": self.rng.saved(),
            "deck": list(self.deck),
            "hands": {p: list(h) for p, h in self.hands.items()},
            "pile": list(self.pile),
            "turn": self.turn,
            "resigned": list(self.resigned),
            "winner": self.winner,
            "last": dict(self.last) if self.last else None,
            "moves": self.moves,
        }

    def check_state(self, data: JSON) -> None:
        """Checks a saved state: whole numbers in range, cards 1–9 no more than four of each, known players."""
        r = Reader("state")
        r.rng(data, "rng", "")
        r.int_(data, "turn", "", high=len(self.players) - 1)
        r.int_(data, "moves", "")
        cards: list[int] = []
        for key in ("deck", "pile"):
            cards += [r.whole(c, f"{key}[{i}]", low=1, high=9) for i, c in enumerate(r.items(data, key, ""))]
        hands = r.obj(r.field(data, "hands", ""), "hands")
        r.need(sorted(hands) == sorted(self.players), "hands", "must hold one hand per player")
        for p, hand in hands.items():
            cards += [r.whole(c, f"hands.{p}[{i}]", low=1, high=9) for i, c in enumerate(r.list_(hand, f"hands.{p}"))]
        r.need(all(a < b for a, b in pairwise(data["pile"])), "pile", "must climb")
        r.need(all(cards.count(c) <= COPIES for c in CARDS), "", "more than four copies of a card")
        listed = r.items(data, "resigned", "")
        resigned = [r.word(p, f"resigned[{i}]", choices=self.players) for i, p in enumerate(listed)]
        r.need(len(set(resigned)) == len(resigned), "resigned", "a player resigned twice")
        winner = r.opt_text(data, "winner", "", choices=self.players, required=True)
        r.need(winner is not None or self.players[data["turn"]] not in resigned, "turn", "a resigned player's turn")
        last = r.field(data, "last", "")
        if last is not None:
            r.text(r.obj(last, "last"), "player", "last", choices=self.players)
            r.text(last, "move", "last")

    def load_state(self, data: JSON) -> None:
        self.rng = Rng.load(data["rng"])
        self.deck = [int(c) for c in data["deck"]]
        self.hands = {p: [int(c) for c in data["hands"][p]] for p in self.players}
        self.pile = [int(c) for c in data["pile"]]
        self.turn = int(data["turn"])
        self.resigned = [str(p) for p in data["resigned"]]
        self.winner = data["winner"]
        self.last = {"player": str(data["last"]["player"]), "move": str(data["last"]["move"])} if data["last"] else None
        self.moves = int(data["moves"])
