"""The Nexohominis Game on the engine contract: a whole game, round after round.

It sets up any position from a scenario (or the starting forces of core §4.3) and plays
the round of core §6.1: Initiative (``first me|them``), Upkeep, the Worker Phase, the
Action Phase and the Production Phase, until Elimination, a stall, the round limit or
``concede``::

    >>> g = Nexo.new(["ann", "bob"], seed=4)
    >>> g.view(None)["phase"], g.to_act() == [g.view(None)["initiative"]]
    ('initiative', True)
    >>> _ = g.play(g.to_act()[0], "first me")
    >>> g.view(None)["phase"]
    'worker'

Orders may be chained with ``;``: each is applied in turn and the chain stops at the first
refusal; when an earlier order was accepted, the refusal is reported as an event
(``refused``) and the accepted ones stand.

Readings chosen here:

- The Initiative roll of round 1 happens at set-up (it needs no choice); its dice are kept
  in the state and shown in the view as ``initiative_rolls`` (one pair per roll, ties included).
- Entering or leaving Blackout is reported the moment an order changes it (core §7.3).
- ``scrap`` is allowed in any phase but the Initiative Phase, outside an activation.
- Ruling 16's automatic skip ends an activation as soon as ``done`` is its only legal order
  (a worker that moved with no ability in reach, a unit that Dashed with no one to Fight).
- The view's ``last_move`` (``{"model": id, "path": [[x, y], ...]}``, the start point first,
  then the waypoints travelled) and ``last_attack`` (``{"attacker", "target", "kind",
  "weapon", "result", "from", "to"}``, ``result`` being ``"2 dmg"``, ``"saved"``, ``"miss"``
  or ``"destroyed"``) describe the latest Movement Action and the latest attack rolled
  (Overwatch reactions included). Each is kept until the next one replaces it and both are
  cleared when a new round begins, so a picture never shows an earlier round's marks; they
  are part of the state, so they survive a save.
- A "toward" form (``move a1 toward K1``, ``dash a5 cover``) is resolved to one end position
  before it is played (:mod:`engines.nexo.toward`); the order returned and logged is the
  resolved ``move a1 x,y``, so a replay plays exactly the same move.
- A lone word that may be an id or a grid cell (``move a1 K5``, ``move a2 b3``) is the
  depot, unit or building of that id when there is one: it plays as ``toward`` that goal,
  and the mover alone is sent a note (a private ``note`` event, so the log and a replay
  are unchanged): "K5 is the depot; for the cell write cell K5.". Else it is the cell.
- ``harvest all`` and ``done all`` are standing orders (ruling 16's "every worker that can
  harvest"): they are logged as typed and stand for the rest of the phase, in the player's
  ``standing`` field. Each time the turn is the player's, the engine plays the next activation
  for them at once: ``harvest all`` the first worker in id order that can reach a depot with
  room (nearest first; a move beside it if needed, then ``harvest``), ``done all`` the active
  piece, else the first piece still to activate, doing nothing. Alternation is kept: one
  activation per turn. When no worker can harvest, ``harvest all`` lapses and the turn rests
  with the player, who is sent a note. A new phase clears every standing order. Each played
  activation is announced (``standing`` event), so the board says what was done for whom.
- The turn clock (``timeout_moves``): ``forfeit`` is ``concede``. ``skip`` is one order,
  the player's current turn only (the turn then alternates): ``first them`` in the Initiative
  Phase (the player who is away does not open the round: the one who is there plays on);
  in the Worker and Action Phases ``done`` for the piece that is activating, else
  ``pass`` when the player may spend a Pass (it keeps every piece's activation for later,
  and unused Passes lapse at the end of the phase anyway), else ``done`` for their first
  eligible piece in id order (models, then buildings), one not in Overwatch first, which
  activates it doing nothing (core §6.3); ``end`` in the Production Phase. When the opponent
  has nothing left to activate, the turn stays with the player after it (core §6.3), and
  the clock starts again for their next activation.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace
from typing import Any

from engines.core import JSON, BadNotation, Event, Game, GameError, IllegalMove, event, shown
from engines.core.game import option_value
from engines.core.rng import Rng
from engines.nexo import economy, legal, production, rounds, toward
from engines.nexo.activation import finish, play_order
from engines.nexo.checks import check_state
from engines.nexo.data import default_ruleset
from engines.nexo.moves import (
    POSITION_FORMS,
    SHAPES,
    Ability,
    Ambiguous,
    Attack,
    Concede,
    Construct,
    First,
    Go,
    Move,
    Produce,
    Toward,
    Unary,
    Word,
    parse_move,
)
from engines.nexo.reader import DataError
from engines.nexo.scenario import field_of, load_scenario
from engines.nexo.state import SEATS, Phase, State, other, piece_to_json
from engines.nexo.terrain import Terrain
from engines.nexo.world import World


class Nexo(Game):
    """Nexohominis for two players: skirmish with an economy (core rules + house rules)."""

    NAME = "nexo"
    TITLE = "Nexohominis"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2
    MOVE_SHAPES = SHAPES
    LEGAL_MOVES_COMPLETE = False  # legal_moves is a sample of a continuous game
    FORFEIT_MOVE = "concede"
    TIMEOUT_DOCS = {
        "skip": "Passes or ends the player's turn: 'first them' at Initiative; 'done' for a unit that is "
        "activating, else a Pass when one may be spent, else 'done' for their first eligible piece (it does "
        "nothing); 'end' in the Production Phase.",
        "forfeit": "The player concedes and the other player wins.",
    }
    OPTIONS = {"scenario": None, "battlefield": "crossroads", "carbonite": 200, "round_limit": None}
    OPTION_DOCS = {
        "scenario": "A position to start from (see engines/nexo/scenario.py); none: a fresh game.",
        "battlefield": "A preset name (crossroads, dust_belt) or 'random' for a seeded battlefield.",
        "carbonite": "Starting Carbonite of each player (core §4.3).",
        "round_limit": ("After this round's Production Phase the game ends: the player whose surviving "
                        "units and buildings are worth more Carbonite (HQ 300, reserve and sites included, "
                        "banked Carbonite not) wins, equal worth is a draw; none: no limit."),
    }

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """Returns the completed options; raises GameError naming the option for a bad value or scenario."""
        opts = super().check_options(options)
        rules = default_ruleset()
        carb = opts["carbonite"]
        if isinstance(carb, bool) or not isinstance(carb, int) or carb < 0:
            raise GameError(f"carbonite must be a whole number of at least 0, not {option_value(carb)}.")
        battlefield = opts["battlefield"]
        known = ", ".join([*sorted(rules.presets), "random"])
        if not isinstance(battlefield, str):
            raise GameError(f"battlefield must be one of {known}, not {option_value(battlefield)}.")
        if battlefield not in (*rules.presets, "random"):
            raise GameError(f"There is no battlefield {option_value(battlefield)} (battlefields: {known}).")
        limit = opts["round_limit"]
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
            raise GameError(f"round_limit must be a whole number of at least 1, or none; not {option_value(limit)}.")
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
        self._terrain = Terrain(field_of(self.state), self.rules)
        self.state.sort()
        if self.state.phase == Phase.INITIATIVE and self.state.initiative is None:
            self._with_rng(lambda w, rng: rounds.roll_initiative(w, rng))
        elif self.state.phase in (Phase.WORKER, Phase.ACTION):
            self.state.first = self.state.first or self.state.turn or SEATS[0]
            self.state.turn = self.state.turn or self.state.first
            rounds.settle(self.world())  # a scenario may start where no one can act

    def _seat(self, player: str) -> str:
        return SEATS[self.players.index(player)]

    def _name(self, seat: str | None) -> str | None:
        return None if seat is None else self.players[SEATS.index(seat)]

    def world(self) -> World:
        """Returns the rules' view of the current state."""
        return World(self.state, self.rules, self._terrain, dict(zip(SEATS, self.players, strict=True)))

    def _with_rng(self, fn: Any) -> list[Event]:
        rng = Rng.load(self.state.rng)
        try:
            return list(fn(self.world(), rng))
        finally:
            self.state.rng = rng.saved()

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
        return legal.sample(self.world(), self._seat(player))

    @property
    def is_over(self) -> bool:
        return self.state.over

    @property
    def winners(self) -> list[str]:
        name = self._name(self.state.winner)
        return [name] if name else []

    def skip_moves(self, player: str) -> list[str]:
        """Returns the turn clock's skip for ``player``: one order that ends their turn (see the readings)."""
        s, seat = self.state, self._seat(player)
        if s.phase == Phase.INITIATIVE:
            return ["first them"]
        if s.phase == Phase.PRODUCTION:
            return ["end"]
        if s.active is not None:
            return [f"done {s.active}"]
        w = self.world()
        mine = w.eligible(seat, s.phase.value)
        if s.sides[seat].passes > 0 and mine and w.eligible(other(seat), s.phase.value):
            return ["pass"]
        idle = [p for p in mine if not p.overwatch] or mine
        return [f"done {idle[0].id}"] if idle else []

    def apply(self, player: str, text: str) -> tuple[str, list[Event]]:
        parts = [p for p in text.split(";") if p.strip()]
        if not parts:
            raise IllegalMove("Type an order, for example 'first me'.")
        done: list[str] = []
        events: list[Event] = []
        for part in parts:
            if done and (self.state.over or player not in self.to_act()):
                events.append(event("refused",
                                    f"'{shown(part)}' was not played: it is no longer your turn."))
                break
            saved = self.dump_state() if len(parts) > 1 else {}
            try:
                canonical, evs = self._apply_one(player, part)
            except GameError as err:
                if not done:
                    raise
                self.load_state(saved)
                events.append(event("refused", f"'{shown(part)}' was refused: {err}", to=player))
                break
            done.append(canonical)
            events += evs
        return "; ".join(done), events

    def _apply_one(self, player: str, text: str) -> tuple[str, list[Event]]:
        move = parse_move(text)
        seat = self._seat(player)
        before = {s: economy.blackout(self.state, s, self.rules.faction) for s in SEATS}
        canonical, events = self._with_rng_move(seat, move)
        w = self.world()
        for s in SEATS:
            now = w.blackout(s)
            if now != before[s]:
                kind, what = ("blackout", "enters") if now else ("blackout_end", "leaves")
                events.append(event(kind, f"{w.names[s]} {what} Blackout.", player=w.names[s]))
        events += rounds.check_elimination(w)
        self.state.sort()
        return canonical, events

    def _with_rng_move(self, seat: str, move: Move) -> tuple[str, list[Event]]:
        rng = Rng.load(self.state.rng)
        try:
            w = self.world()
            canonical, events = self._dispatch(w, rng, seat, move)
            return canonical, events + self._standing(w, rng)
        finally:
            self.state.rng = rng.saved()

    def _dispatch(self, w: World, rng: Rng, seat: str, move: Move) -> tuple[str, list[Event]]:
        s, player = self.state, w.names[seat]
        if isinstance(move, Concede):
            return str(move), rounds.finish_game(w, other(seat), "concede",
                                                 f"{player} concedes; {w.names[other(seat)]} wins.")
        if isinstance(move, First):
            if s.phase != Phase.INITIATIVE:
                raise IllegalMove("The first player is chosen in the Initiative Phase only.")
            s.first = seat if move.who == "me" else other(seat)
            first = w.names[s.first]
            events = [event("first", f"{player} chooses {first} to activate first this round.")]
            return str(move), events + rounds.upkeep(w)
        if s.phase == Phase.INITIATIVE:
            raise IllegalMove("Choose who activates first: 'first me' or 'first them'.")
        if isinstance(move, Unary) and move.verb == "scrap":
            if s.active is not None:
                raise IllegalMove(f"{s.active} is activating: finish it before scrapping.")
            events = production.scrap(w, seat, move.unit)
            return f"scrap {events[0]['unit']}", events + rounds.settle(w)
        if isinstance(move, Go | Toward | Ambiguous | Attack | Unary | Ability):
            if s.phase not in (Phase.WORKER, Phase.ACTION):
                raise IllegalMove(f"'{shown(str(move))}' is an activation order: units activate in the Worker "
                                  "and Action Phases.")
            move, note = _read_word(w, move) if isinstance(move, Ambiguous) else (move, None)
            try:
                move = toward.resolve(w, seat, move) if isinstance(move, Toward) else _resolved(w, move)
            except IllegalMove as err:
                raise type(err)(f"{str(err).rstrip('.')} ({note.rstrip('.')}).") if note else err from None
            events = play_order(w, rng, seat, move, s.phase.value)
            if note:
                events.insert(0, event("note", note, to=player))
            canonical = str(move)
            if s.active is not None and legal.only_done(w, w.piece(s.active)):
                events += finish(w)  # ruling 16: nothing but 'done' is left
            if s.active is None and not s.over:
                events += rounds.hand_over(w, seat)
            return canonical, events
        if isinstance(move, Word) and move.verb == "harvest all":
            return self._harvest_all(w, seat)
        if isinstance(move, Word) and move.verb == "done all":
            return self._done_all(w, seat)
        if isinstance(move, Word) and move.verb == "pass":
            return "pass", self._pass(w, seat)
        if s.phase != Phase.PRODUCTION:
            raise IllegalMove(f"'{shown(str(move))}' is a Production Phase order; this is the {s.phase.value} phase.")
        if isinstance(move, Produce):
            return str(move), production.produce(w, seat, move)
        if isinstance(move, Construct):
            return str(move), production.construct(w, seat, move)
        return "end", rounds.end_production(w, seat, rng, self.options["round_limit"])

    def _harvest_all(self, w: World, seat: str) -> tuple[str, list[Event]]:
        """Plays ruling 16's ``harvest all``: it stands for the rest of the Worker Phase (:meth:`_standing`)."""
        s = self.state
        if s.phase != Phase.WORKER:
            raise IllegalMove("'harvest all' is a Worker Phase order.")
        if legal.harvest_all(w, seat) is None:
            raise IllegalMove("None of your workers can reach a Carbonite depot with room this activation.")
        s.sides[seat].standing = "harvest all"
        return "harvest all", []

    def _done_all(self, w: World, seat: str) -> tuple[str, list[Event]]:
        """Plays ``done all``: it stands for the rest of the phase (:meth:`_standing`)."""
        s = self.state
        if s.phase not in (Phase.WORKER, Phase.ACTION):
            raise IllegalMove("'done all' is a Worker or Action Phase order.")
        if s.active is None and not w.eligible(seat, s.phase.value):
            raise IllegalMove("None of your pieces is left to activate.")
        s.sides[seat].standing = "done all"
        return "done all", []

    def _standing(self, w: World, rng: Rng) -> list[Event]:
        """Plays the standing orders of whoever has the turn, one activation after another.

        ``harvest all`` plays the player's first worker (in id order) that can reach a depot
        with room: a move beside it if needed, then ``harvest``; when none can, it lapses and the
        turn rests with the player, who is told so. ``done all`` ends the active piece's
        activation, else has the first piece still to activate activate doing nothing. Each
        played order is announced as the player's (``standing`` events). It stops when the turn
        is with a player who has no standing order; a new phase clears them all.
        """
        s = self.state
        events: list[Event] = []
        while not s.over and s.phase in (Phase.WORKER, Phase.ACTION) and s.turn is not None:
            seat = s.turn
            order = s.sides[seat].standing
            if order == "harvest all":
                found = legal.harvest_all(w, seat)
                if found is None:
                    s.sides[seat].standing = None
                    events.append(event("note", "None of your other workers can reach a Carbonite depot with "
                                        "room: your 'harvest all' has done what it can.", to=w.names[seat]))
                    break
                piece, texts = found[0].id, found[1]
            elif order == "done all":
                idle = [s.active] if s.active is not None else sorted(p.id for p in w.eligible(seat, s.phase.value))
                if not idle:
                    break
                piece, texts = idle[0], [f"done {idle[0]}"]
            else:
                break
            played: list[str] = []
            evs: list[Event] = []
            for text in texts:
                if piece not in s.models and piece not in s.buildings:
                    break  # shot down by Overwatch on the way
                canonical, more = self._dispatch(w, rng, seat, parse_move(text))
                played.append(canonical)
                evs += more
            if not played:
                break
            events.append(event("standing", f"{w.names[seat]}'s standing order '{order}': {'; '.join(played)}.",
                                player=w.names[seat], orders=played))
            events += evs
        return events

    def _pass(self, w: World, seat: str) -> list[Event]:
        s = self.state
        if s.phase not in (Phase.WORKER, Phase.ACTION):
            raise IllegalMove("Passes are spent in the Worker and Action Phases.")
        if s.active is not None:
            raise IllegalMove(f"{s.active} is activating: finish it with 'done {s.active}'.")
        if s.sides[seat].passes < 1:
            raise IllegalMove("You have no Pass to spend (core §6.4).")
        if not w.eligible(other(seat), s.phase.value):
            raise IllegalMove("Your opponent has nothing left to activate: a Pass would skip nothing.")
        s.sides[seat].passes -= 1
        events = [event("pass", f"{w.names[seat]} spends a Pass ({s.sides[seat].passes} left).",
                        player=w.names[seat])]
        return events + rounds.hand_over(w, seat)

    def view(self, player: str | None) -> JSON:
        s, f = self.state, self.rules.faction
        w = self.world()
        blackout = {seat: economy.blackout(s, seat, f) for seat in SEATS}
        return {
            "round": s.round, "phase": s.phase.value, "turn": self._name(s.turn),
            "initiative": self._name(s.initiative), "first": self._name(s.first),
            "initiative_rolls": [list(r) for r in s.initiative_rolls], "battlefield": s.battlefield,
            "active": s.active, "result": s.result, "quiet_rounds": s.quiet,
            "round_limit": self.options["round_limit"], "size": [s.width, s.length],
            "players": {
                self._name(seat): {
                    "carbonite": s.sides[seat].carbonite,
                    "energy_production": economy.energy_production(s, seat, f),
                    "energy_demand": economy.energy_demand(s, seat, f),
                    "blackout": blackout[seat], "passes": s.sides[seat].passes,
                    "reserve": [r.type for r in s.sides[seat].reserve],
                    "eligible": ([p.id for p in w.eligible(seat, s.phase.value)]
                                 if s.phase in (Phase.WORKER, Phase.ACTION) else []),
                } for seat in SEATS},
            "models": {
                m.id: {"owner": self._name(m.owner), "type": m.type, "x": m.x, "y": m.y, "hp": m.hp,
                       "wia": m.wia, "activated": m.activated, "overwatch": m.overwatch,
                       "moved": m.moved, "dashed": m.dashed, "attacked": m.attacked, "fresh": m.fresh}
                for m in s.models.values()},
            "buildings": {
                b.id: {"owner": self._name(b.owner), "type": b.type, "x": b.x, "y": b.y, "rot": b.rot,
                       "hp": b.hp, "complete": b.complete, "build_points": b.build_points,
                       "functional": economy.intact(b, f), "wreck": b.wreck,
                       "activated": b.activated, "overwatch": b.overwatch}
                for b in s.buildings.values()},
            "terrain": [piece_to_json(p) for p in s.terrain],
            "depots": [{"id": d.id, "x": d.x, "y": d.y} for d in s.depots],
            "last_move": s.last_move.to_json() if s.last_move else None,
            "last_attack": s.last_attack.to_json() if s.last_attack else None,
            "winners": self.winners,
        }

    # -- for suggestions and pictures ------------------------------------------------

    def toward_forms(self, player: str, unit_id: str) -> list[tuple[str, str]]:
        """Returns the (label, order) "toward" forms ``player`` may order ``unit_id`` now
        (:func:`engines.nexo.legal.toward_forms`); empty for someone not playing."""
        if player not in self.players:
            return []
        return legal.toward_forms(self.world(), self._seat(player), unit_id)

    # -- persistence ------------------------------------------------------------------

    def dump_state(self) -> JSON:
        return self.state.to_json()

    def check_state(self, data: JSON) -> None:
        """Checks a saved state's types, ranges and references (see :mod:`engines.nexo.checks`)."""
        check_state(data, default_ruleset())

    def load_state(self, data: JSON) -> None:
        self.rules = default_ruleset()
        old = getattr(self, "state", None)
        self.state = State.from_json(data)
        self.state.sort()
        if old is None or old.terrain != self.state.terrain or old.depots != self.state.depots:
            self._terrain = Terrain(field_of(self.state), self.rules)


def _read_word(w: World, move: Ambiguous) -> tuple[Go | Toward, str | None]:
    """Returns what the lone word of ``move`` means here, and the note the mover is sent.

    A depot, unit or building of that id comes first: ``move a1 K5`` goes toward depot K5,
    and when the word is also a grid cell the note says how to write the cell. Then a goal
    named in one word (``move a3 hq``, :func:`engines.nexo.toward.read_name`); a word that
    names nothing is the cell, or a position that cannot be read.
    """
    goal = toward.find_goal(w, move.word)
    if goal is not None:
        what = "the depot" if goal.kind == "depot" else f"a {goal.kind}"
        note = None if move.cell is None else f"{goal.id} is {what}; for the cell write cell {move.word.upper()}."
        return Toward(move.verb, move.unit, move.word), note
    if move.cell is None:
        with suppress(IllegalMove):
            if toward.read_name(w, w.model(move.unit).owner, move.word) is not None:
                return Toward(move.verb, move.unit, move.word), None  # a name in one word: 'move a3 hq'
        raise BadNotation(f"I can't read the position '{shown(move.word.lower(), 30)}': {POSITION_FORMS}.")
    return Go(move.verb, move.unit, (move.cell,)), None


def _resolved(w: World, move: Go | Attack | Unary | Ability) -> Go | Attack | Unary | Ability:
    """Returns ``move`` naming its pieces by their exact ids, resolved in the position before it.

    An exact id resolves to itself, so the logged order means the same piece on replay even
    when the typed case was ambiguous (``A2`` for ``a2``) or the piece is destroyed by the
    order itself. A name that resolves to nothing is left as typed: the order is refused.
    """
    unit = move.unit
    with suppress(IllegalMove):
        unit = w.resolve(move.unit)
    if isinstance(move, Attack):
        target = move.target
        with suppress(IllegalMove):
            target = w.resolve(move.target)
        return replace(move, unit=unit, target=target)
    return replace(move, unit=unit)
