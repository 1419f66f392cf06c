"""The Game subclass that puts the XISK pieces together on the engine contract.

    >>> g = Xisk.new(["ann", "bob", "cy"], seed=7)
    >>> g.view(None)["phase"], len(g.to_act()), g.view(None)["cards_held"]["ann"]
    ('claim', 1, 14)
"""

from __future__ import annotations

from typing import Any

from engines.core import JSON, Event, GameError, Rng
from engines.core.game import Game, option_value
from engines.xisk.board import Board, load_board
from engines.xisk.checks import check_state
from engines.xisk.clock import skip_step
from engines.xisk.moves import SHAPES, parse
from engines.xisk.rules import apply_move, can_resign, legal_moves, to_act
from engines.xisk.setup import CARDS_PER_PLAYER, deal, deal_events
from engines.xisk.state import NEUTRAL, Phase, XiskState
from engines.xisk.view import player_view, private_part


class Xisk(Game):
    """XISK: world conquest for 2–6 players with hidden card hands."""

    NAME = "xisk"
    TITLE = "XISK"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 6
    HAS_SECRETS = True
    MOVE_SHAPES = SHAPES
    OPTIONS = {"cards_per_player": None}
    OPTION_DOCS = {
        "cards_per_player": "Cards dealt to each player for the claim (None: 21/14/10/8/7 for "
        "2–6 players; 1 up to 42 ÷ players for a shorter or more neutral game).",
    }
    FORFEIT_MOVE = "resign"
    TIMEOUT_DOCS = {
        "skip": "Claims the first free country; in a turn, redeems only a compulsory set, places the supply "
        "one chip at a time on the largest stack, attacks nothing, invades with 0 and makes no adjustment.",
        "forfeit": "The player resigns: their countries turn neutral, their cards go back to the deck, and "
        "the last player left wins.",
    }
    SKIP_LIMIT = 1000
    """More moves than any skip takes (a supply of chips placed one at a time): a guard, never reached."""

    board: Board
    state: XiskState

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """Returns the completed options; raises GameError for a bad ``cards_per_player``."""
        opts = super().check_options(options)
        cpp = opts["cards_per_player"]
        if cpp is not None and (not isinstance(cpp, int) or isinstance(cpp, bool) or not 1 <= cpp <= 21):
            raise GameError(f"cards_per_player must be a whole number from 1 to 21, not {option_value(cpp)}.")
        return opts

    def __init__(self, players: list[str], seed: int | str, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        self.board = load_board()

    def setup(self) -> None:
        """Deals the cards; the claiming starts with the holder of the highest dealt card."""
        if NEUTRAL in self.players:
            raise GameError(f"'{NEUTRAL}' is the name of the neutral chips: choose another name.")
        n = len(self.players)
        cpp = self.options["cards_per_player"] or CARDS_PER_PLAYER[n]
        if n * cpp > len(self.board.countries):
            raise GameError(f"With {n} players, cards_per_player can be at most "
                            f"{len(self.board.countries) // n}, not {cpp}.")
        self.state = deal(self.players, cpp, Rng.from_seed(self.seed), self.board)

    def opening_events(self) -> list[Event]:
        """Returns the events of the deal (each hand privately), for the table to announce."""
        return deal_events(self.state)

    def to_act(self) -> list[str]:
        """Returns the next claimant, or the player whose turn it is; [] once over."""
        return to_act(self.state)

    def legal_moves(self, player: str) -> list[str]:
        """Returns every legal move of ``player`` in canonical notation ([] when not theirs)."""
        return [str(m) for m in legal_moves(self.state, self.board, player)]

    @property
    def is_over(self) -> bool:
        """True once one player owns all 42 countries."""
        return self.state.phase is Phase.OVER

    @property
    def winners(self) -> list[str]:
        """The player who owns all 42 countries, once there is one."""
        return [self.state.winner] if self.state.winner else []

    def view(self, player: str | None) -> JSON:
        """Returns the public view, plus the hand and redeemable sets of a seated ``player``."""
        return player_view(self.state, self.board, player)

    def private_view(self, player: str) -> JSON:
        """Returns the player's hand and the cardsets it holds, without building the public view."""
        return private_part(self.state, player)

    def skip_moves(self, player: str) -> list[str]:
        """Returns the turn clock's skip for ``player`` (readings 16–19): played on a copy until
        their turn has passed (or, while claiming, their claims in a row), or the game is over."""
        game = self.clone()
        claiming, turn_number = game.state.phase is Phase.CLAIM, game.state.turn_number
        moves: list[str] = []
        for _ in range(self.SKIP_LIMIT):
            s = game.state
            if s.phase is Phase.OVER or player not in to_act(s):
                return moves
            if (s.phase is not Phase.CLAIM) if claiming else (s.turn_number != turn_number):
                return moves  # a new turn has begun (the lone survivor's, or the first after claiming)
            game.play(player, str(skip_step(s, game.board, player)))
            assert game.last_move is not None
            moves.append(game.last_move)
        raise AssertionError(f"The skip of {player} did not end within {self.SKIP_LIMIT} moves.")

    def forfeit_moves(self, player: str) -> list[str]:
        """Returns ``["resign"]``, or ``[]`` for the last player left, who may not resign (reading 13)."""
        return ["resign"] if can_resign(self.state, player) else []

    def apply(self, player: str, text: str) -> tuple[str, list[Event]]:
        """Parses and applies a move; raises BadNotation or IllegalMove naming what was typed."""
        move = parse(text, self.board)
        events = apply_move(self.state, self.board, self.players, player, move)
        return str(move), events

    def dump_state(self) -> JSON:
        """Returns the state as a fresh JSON-safe dict (RNG, deck and hands included)."""
        return self.state.to_json()

    def check_state(self, data: JSON) -> None:
        """Checks a saved state's types, ranges and references (see :mod:`engines.xisk.checks`)."""
        check_state(data, self.board, self.players)

    def load_state(self, data: JSON) -> None:
        """Replaces the state with one from :meth:`dump_state`."""
        s = XiskState.from_json(data)
        # JSON sorts keys; iteration order (legal moves, events) follows the map and the seats.
        s.owner = {c: s.owner[c] for c in self.board.countries}
        s.chips = {c: s.chips[c] for c in self.board.countries}
        s.hands = {p: s.hands[p] for p in self.players}
        self.state = s
