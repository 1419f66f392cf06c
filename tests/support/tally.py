"""Tally: a tiny game that exists only for tests of the shared layers.

Players take turns adding 1, 2 or 3 to a shared total; whoever brings it to the
target (default 21) wins. Each player also holds a secret card (a number drawn
from the stored RNG) that only ``view(player)`` shows, and ``roll`` throws a die
so tests can check that dice survive a save. ``boom`` changes the state and then
fails, to prove that :meth:`Game.play` rolls back. ``resign`` gives the win to the
next player; the turn clock's skip is ``add 1``::

    >>> g = Tally.new(["ann", "bob"], seed=3)
    >>> g.to_act(), g.legal_moves("ann")
    (['ann'], ['add 1', 'add 2', 'add 3', 'roll'])
    >>> [e["text"] for e in g.play("ann", " ADD  2 ") if "to" not in e]
    ['ann adds 2: the total is 2.']
"""

from __future__ import annotations

from typing import Any

from engines.core import JSON, BadNotation, Event, Game, IllegalMove, Rng, event
from engines.core.dice import roll
from engines.core.kit import GameKit
from tests.support.tally_ai import choose


class Tally(Game):
    """Race to the target total."""

    NAME = "tally"
    TITLE = "Tally"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    OPTIONS = {"target": 21}
    OPTION_DOCS = {"target": "The total that wins."}
    HAS_SECRETS = True
    FORFEIT_MOVE = "resign"

    def setup(self) -> None:
        self.rng = Rng.from_seed(self.seed)
        self.total = 0
        self.turn = 0
        self.winner: str | None = None
        self.secrets = {p: self.rng.randint(1, 99) for p in self.players}
        self.rolls: list[int] = []

    def opening_events(self) -> list[Event]:
        """Announces the race and tells each player their first secret."""
        return [
            event("race", f"The race to {self.options['target']} begins."),
            *(event("secret", f"Your secret is {n}.", to=p) for p, n in self.secrets.items()),
        ]

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        opts = super().check_options(options)
        if not isinstance(opts["target"], int) or opts["target"] < 1:
            raise IllegalMove("target must be a whole number of at least 1.")
        return opts

    def to_act(self) -> list[str]:
        return [] if self.winner else [self.players[self.turn]]

    def legal_moves(self, player: str) -> list[str]:
        if player not in self.to_act():
            return []
        left = self.options["target"] - self.total
        return [f"add {n}" for n in range(1, min(3, left) + 1)] + ["roll"]

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def winners(self) -> list[str]:
        return [self.winner] if self.winner else []

    def view(self, player: str | None) -> JSON:
        out: JSON = {
            "total": self.total,
            "target": self.options["target"],
            "turn": None if self.winner else self.players[self.turn],
            "rolls": list(self.rolls),
        }
        if player is not None and player in self.secrets:
            out["secret"] = self.secrets[player]
        return out

    def skip_moves(self, player: str) -> list[str] | None:
        """The turn clock's skip: the least move, ``add 1``."""
        return ["add 1"]

    def apply(self, player: str, text: str) -> tuple[str, list[Event]]:
        words = text.lower().split()
        if words == ["resign"]:
            self._advance()
            self.winner = self.players[self.turn]
            return "resign", [event("resign", f"{player} resigns: {self.winner} wins.")]
        if words == ["roll"]:
            (die,) = roll(self.rng, 1)
            self.rolls.append(die)
            self._advance()
            return "roll", [event("roll", f"{player} rolls {die}.", dice=[die])]
        if words[:1] == ["boom"]:
            self.total += 100
            raise RuntimeError("boom: a bug in the middle of a move")
        if len(words) != 2 or words[0] != "add" or not words[1].isdigit():
            raise BadNotation(f"I can't read '{text}': try 'add 1', 'add 2', 'add 3' or 'roll'.")
        n = int(words[1])
        if n not in (1, 2, 3):
            raise IllegalMove(f"You may add 1, 2 or 3, not {n}.")
        if self.total + n > self.options["target"]:
            raise IllegalMove(f"Adding {n} would pass {self.options['target']}.")
        self.total += n
        events = [event("add", f"{player} adds {n}: the total is {self.total}.")]
        if self.total == self.options["target"]:
            self.winner = player
            events.append(event("win", f"{player} wins!"))
        else:
            self._advance()
            new_secret = self.rng.randint(1, 99)
            self.secrets[player] = new_secret
            events.append(event("secret", f"Your new secret is {new_secret}.", to=player))
        return f"add {n}", events

    def _advance(self) -> None:
        self.turn = (self.turn + 1) % len(self.players)

    def dump_state(self) -> JSON:
        return {
            "rng": self.rng.saved(),
            "total": self.total,
            "turn": self.turn,
            "winner": self.winner,
            "secrets": dict(self.secrets),
            "rolls": list(self.rolls),
        }

    def load_state(self, data: JSON) -> None:
        self.rng = Rng.load(data["rng"])
        self.total = int(data["total"])
        self.turn = int(data["turn"])
        self.winner = data["winner"]
        self.secrets = {str(k): int(v) for k, v in data["secrets"].items()}
        self.rolls = [int(r) for r in data["rolls"]]


KIT = GameKit(engine=Tally, ai=choose)
"""Tally's kit: its engine and its bot, no picture (the generic card) and no Discord surface of its own."""
