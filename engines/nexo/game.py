"""The Nexohominis Game: a skeleton on the engine contract (not registered in GAMES yet).

It sets up any position from a scenario (or the starting forces of core §4.3), rolls
Initiative (core §6.2), takes ``first me|them`` and ``concede``, keeps its dice in the state
and shows the full view. The other orders of the house notation are refused as not yet
available::

    >>> g = Nexo.new(["ann", "bob"], seed=4)
    >>> g.view(None)["phase"], g.to_act() == [g.view(None)["initiative"]]
    ('initiative', True)

Readings chosen here:

- The Initiative roll of round 1 happens at set-up (it needs no choice); its dice are kept
  in the state and shown in the view as ``initiative_rolls`` (one pair per roll, ties included).
- Upkeep needs no order: Energy is computed live, so after ``first`` the round goes straight
  on to the Worker Phase, where the skeleton stops.
"""

from __future__ import annotations

from typing import Any

from engines.core import JSON, Event, Game, GameError, event
from engines.core.dice import roll
from engines.core.rng import Rng
from engines.nexo import economy
from engines.nexo.data import default_ruleset
from engines.nexo.moves import Concede, First, parse_move
from engines.nexo.reader import DataError
from engines.nexo.scenario import load_scenario
from engines.nexo.state import SEATS, Phase, State, other, piece_to_json


class Nexo(Game):
    """Nexohominis for two players: skirmish with an economy (core rules + house rules)."""

    NAME = "nexo"
    TITLE = "Nexohominis"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2
    OPTIONS = {"scenario": None, "battlefield": "crossroads", "carbonite": 200, "round_limit": None}
    OPTION_DOCS = {
        "scenario": "A position to start from (see engines/nexo/scenario.py); none: a fresh game.",
        "battlefield": "A preset name (crossroads, dust_belt) or 'random' for a seeded battlefield.",
        "carbonite": "Starting Carbonite of each player (core §4.3).",
        "round_limit": "After this round's Production Phase the richer army wins; none: no limit.",
    }

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """Returns the completed options; raises GameError for a bad value or scenario."""
        opts = super().check_options(options)
        rules = default_ruleset()
        carb = opts["carbonite"]
        if isinstance(carb, bool) or not isinstance(carb, int) or carb < 0:
            raise GameError(f"carbonite must be a whole number of at least 0, not {carb!r}.")
        if opts["battlefield"] not in (*rules.presets, "random"):
            known = ", ".join([*sorted(rules.presets), "random"])
            raise GameError(f"There is no battlefield {opts['battlefield']!r} (battlefields: {known}).")
        limit = opts["round_limit"]
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
            raise GameError(f"round_limit must be a whole number of at least 1, or none; not {limit!r}.")
        if opts["scenario"] is not None:
            try:
                load_scenario(opts["scenario"], rules, seed=0, carbonite=carb,
                              battlefield=opts["battlefield"])
            except DataError as err:
                raise GameError(f"The scenario is not valid: {err}") from err
        return opts

    # -- set-up and seats -------------------------------------------------------------

    def setup(self) -> None:
        self.rules = default_ruleset()
        opts = self.options
        self.state = load_scenario(opts["scenario"], self.rules, seed=self.seed,
                                   carbonite=opts["carbonite"], battlefield=opts["battlefield"])
        if self.state.phase == Phase.INITIATIVE and self.state.initiative is None:
            self._roll_initiative()

    def _seat(self, player: str) -> str:
        return SEATS[self.players.index(player)]

    def _name(self, seat: str | None) -> str | None:
        return None if seat is None else self.players[SEATS.index(seat)]

    def _roll_initiative(self) -> list[Event]:
        """Rolls 1D6 each, re-rolling ties (core §6.2), and records the dice."""
        rng = Rng(self.state.rng)
        self.state.initiative_rolls = []
        while True:
            pair = roll(rng, 2)
            self.state.initiative_rolls.append(pair)
            if pair[0] != pair[1]:
                break
        self.state.rng = rng.state
        self.state.initiative = SEATS[0] if pair[0] > pair[1] else SEATS[1]
        rolls = ", then ".join(f"{a}-{b}" for a, b in self.state.initiative_rolls)
        winner = self._name(self.state.initiative)
        return [event("initiative", f"Initiative: {self.players[0]} v {self.players[1]} rolled {rolls}; "
                      f"{winner} has the Initiative.", rolls=self.state.initiative_rolls)]

    # -- the contract -----------------------------------------------------------------

    def to_act(self) -> list[str]:
        if self.state.over:
            return []
        if self.state.phase == Phase.INITIATIVE:
            return [self._name(self.state.initiative) or self.players[0]]
        return [self._name(self.state.turn or self.state.first or SEATS[0]) or self.players[0]]

    def legal_moves(self, player: str) -> list[str]:
        if player not in self.to_act():
            return []
        if self.state.phase == Phase.INITIATIVE:
            return ["first me", "first them", "concede"]
        return ["concede"]

    @property
    def is_over(self) -> bool:
        return self.state.over

    @property
    def winners(self) -> list[str]:
        name = self._name(self.state.winner)
        return [name] if name else []

    def apply(self, player: str, text: str) -> tuple[str, list[Event]]:
        move = parse_move(text)
        seat = self._seat(player)
        if isinstance(move, Concede):
            self.state.over, self.state.winner = True, other(seat)
            return str(move), [event("concede", f"{player} concedes; {self._name(other(seat))} wins.")]
        assert isinstance(move, First)
        if self.state.phase != Phase.INITIATIVE:
            raise GameError("The first player is chosen in the Initiative Phase only.")
        self.state.first = seat if move.who == "me" else other(seat)
        self.state.phase = Phase.WORKER
        self.state.turn = self.state.first
        first = self._name(self.state.first)
        return str(move), [event("first", f"{player} chooses {first} to activate first this round.")]

    def view(self, player: str | None) -> JSON:
        s, f = self.state, self.rules.faction
        blackout = {seat: economy.blackout(s, seat, f) for seat in SEATS}
        return {
            "round": s.round, "phase": s.phase.value, "turn": self._name(s.turn),
            "initiative": self._name(s.initiative), "first": self._name(s.first),
            "initiative_rolls": [list(r) for r in s.initiative_rolls], "battlefield": s.battlefield,
            "size": [s.width, s.length],
            "players": {
                self._name(seat): {
                    "carbonite": s.sides[seat].carbonite,
                    "energy_production": economy.energy_production(s, seat, f),
                    "energy_demand": economy.energy_demand(s, seat, f),
                    "blackout": blackout[seat], "passes": s.sides[seat].passes,
                    "reserve": [r.type for r in s.sides[seat].reserve],
                } for seat in SEATS},
            "models": {
                m.id: {"owner": self._name(m.owner), "type": m.type, "x": m.x, "y": m.y, "hp": m.hp,
                       "wia": m.wia, "activated": m.activated, "overwatch": m.overwatch}
                for m in s.models.values()},
            "buildings": {
                b.id: {"owner": self._name(b.owner), "type": b.type, "x": b.x, "y": b.y, "rot": b.rot,
                       "hp": b.hp, "complete": b.complete, "build_points": b.build_points,
                       "functional": economy.intact(b, f), "wreck": b.wreck}
                for b in s.buildings.values()},
            "terrain": [piece_to_json(p) for p in s.terrain],
            "depots": [{"id": d.id, "x": d.x, "y": d.y} for d in s.depots],
            "winners": self.winners,
        }

    # -- persistence ------------------------------------------------------------------

    def dump_state(self) -> JSON:
        return self.state.to_json()

    def load_state(self, data: JSON) -> None:
        self.rules = default_ruleset()
        self.state = State.from_json(data)
