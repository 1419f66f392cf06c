"""The NXS game on the engine contract: turns of two steps, endings, saving.

A turn is two moves by the same player: ``move``/``capture`` (step ``move``), then
``rotate`` (step ``rotate``)::

    >>> g = Nxs.new(["ann", "bob"])
    >>> g.to_act(), g.view(None)["step"]
    (['ann'], 'move')
    >>> [e["text"] for e in g.play("ann", "move f4 h3")][0]
    'ann moves the Brigantine f4 → h3.'
    >>> g.to_act(), g.view(None)["step"], g.legal_moves("ann")[:2]
    (['ann'], 'rotate', ['rotate d4 left', 'rotate d4 right'])
    >>> _ = g.play("ann", "rotate h3 right"); g.to_act()
    ['bob']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from engines.core import JSON, Event, Game, GameError, IllegalMove, event, shown
from engines.core.game import option_value
from engines.core.hexgrid import Hex
from engines.core.reader import show_value
from engines.core.words import did_you_mean, plural
from engines.nxs.board import CELLS, cell_hex, cell_name
from engines.nxs.checks import check_state
from engines.nxs.hexes import DIRECTIONS, parse_facing
from engines.nxs.moves import SHAPES, Capture, Resign, Rotate, Slide, parse
from engines.nxs.position import Piece, Position, pieces_of, position_key
from engines.nxs.roster import COLOURS, default_data
from engines.nxs.rules import (
    Verdict,
    captures,
    first_steps,
    has_first_step,
    judge_move,
    rotated,
    slides,
    why_not_capture,
    why_not_slide,
)
from engines.nxs.territory import scores
from engines.nxs.view import build_view

MAX_TERRITORY = 37


class Step(Enum):
    """The two steps of a turn (rule: Game play)."""

    MOVE = "move"
    """Move or capture with one of your ships."""
    ROTATE = "rotate"
    """Rotate one of your ships by one facing (compulsory)."""


class Termination(Enum):
    """How a game ended."""

    TARGET = "target"
    """The mover reached their territory target (rule: Game end)."""
    CLOSE_CALL = "close call"
    """The move gave the opponent their target but left the mover ahead (house rule)."""
    NO_MOVE = "no move"
    """The player to move had no legal move or capture and lost (house rule)."""
    RESIGN = "resign"
    """A player resigned."""
    QUIET_TURNS = "quiet turns"
    """Stalemate guard: too many turns with no capture and no change of score."""
    REPETITION = "repetition"
    """Stalemate guard: the same position with the same side to move for the third time."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result: how the game ended and the winning seat (None: a draw)."""

    termination: Termination
    winner: int | None


class Nxs(Game):
    """NXS, the two-player hex ship duel for territory; seat 0 is White and moves first."""

    NAME = "nxs"
    TITLE = "NXS"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2
    MOVE_SHAPES = SHAPES
    FORFEIT_MOVE = "resign"
    TIMEOUT_DOCS = {
        "skip": "NXS has no skip (a turn's move and rotation are compulsory): the player resigns.",
        "forfeit": "The player resigns and the other player wins.",
    }
    OPTIONS = {"layout": "medium", "target": 10, "handicap": {}, "quiet_turns": 60, "repetitions": 3}
    OPTION_DOCS = {
        "layout": "The starting layout from data/nxs/layouts.json: short (7 ships), medium (10)"
        " or long (13).",
        "target": "The number of enemy hexes a player must hold to win (1–37).",
        "handicap": "Per-player targets that replace `target`, as {player or 'white'/'black': hexes},"
        " e.g. {\"bob\": 8}.",
        "quiet_turns": "The stalemate guard: turns in a row with no capture and no score change that end"
        " the game.",
        "repetitions": "The stalemate guard: how many times the same position may occur before it ends"
        " the game.",
    }

    # -- options and set-up -----------------------------------------------------------

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """Returns the options completed and checked; raises GameError naming the option for a bad value.

        A value of the wrong type (a list for ``layout``, text for ``target``) is refused like
        one out of range::

            >>> Nxs.check_options({"layout": []})
            Traceback (most recent call last):
            ...
            engines.core.errors.GameError: layout must be one of short, medium, long, not a list.
        """
        opts = super().check_options(options)
        _, layouts = default_data()
        layout = opts["layout"]
        if not isinstance(layout, str):  # a list or an object cannot even be looked up
            raise GameError(f"layout must be one of {', '.join(layouts)}, not {option_value(layout)}.")
        if layout not in layouts:
            near = did_you_mean(layout, list(layouts))
            raise GameError(f"NXS has no layout {option_value(layout)}{near} (layouts: {', '.join(layouts)}).")
        if not _whole(opts["target"], 1, MAX_TERRITORY):
            raise GameError(
                f"target must be a whole number from 1 to {MAX_TERRITORY}, not {option_value(opts['target'])}."
            )
        handicap = opts["handicap"]
        wanted = f"handicap must map a player (or white/black) to a target from 1 to {MAX_TERRITORY}"
        if not isinstance(handicap, dict):
            raise GameError(f"{wanted}, not {option_value(handicap)}.")
        for key, value in handicap.items():
            if not isinstance(key, str) or not _whole(value, 1, MAX_TERRITORY):
                raise GameError(f"{wanted}, not {option_value(value)} for {option_value(key)}.")
        opts["handicap"] = dict(handicap)
        for name, low, high in (("quiet_turns", 1, 10_000), ("repetitions", 2, 100)):
            if not _whole(opts[name], low, high):
                raise GameError(f"{name} must be a whole number from {low} to {high}, not {option_value(opts[name])}.")
        return opts

    def setup(self) -> None:
        """Builds the starting position of the chosen layout; raises GameError for a bad handicap."""
        for key in self.options["handicap"]:
            if key not in self.players and key not in COLOURS:
                raise GameError(f"handicap names {show_value(key)}, who is not playing (nor white/black).")
        self.ships, layouts = default_data()
        layout = layouts[self.options["layout"]]
        self._reset({CELLS[cell]: Piece(seat, ship, facing) for seat, ship, cell, facing in layout.pieces})

    def _reset(self, pos: Position, *, turn: int = 0, step: Step = Step.MOVE) -> None:
        self.pos: Position = pos
        self.turn = turn
        self.step = step
        self.captured = [0, 0]
        self.quiet = 0
        self.eventful = False
        self.seen: dict[str, int] = {position_key(pos, turn): 1}
        self.last: dict[str, str] | None = None
        self.outcome: Outcome | None = None
        self.scores = scores(pos)

    @classmethod
    def from_position(
        cls,
        players: list[str],
        pieces: Iterable[tuple[str, int, str, str]],
        *,
        turn: int = 0,
        step: str = "move",
        options: dict[str, Any] | None = None,
    ) -> Nxs:
        """Returns a game set at a given position: pieces as ``(cell, seat, ship, facing)``.

        Raises GameError for an unknown cell, ship or facing, or two pieces on one hex.
        """
        game = cls.new(players, options=options)
        pos: Position = {}
        for cell, seat, ship, facing in pieces:
            try:
                h = cell_hex(cell)
                f = parse_facing(facing)
            except ValueError as err:
                raise GameError(str(err)) from err
            if ship not in game.ships:
                near = did_you_mean(ship, {k: k for k in game.ships} | {s.name: k for k, s in game.ships.items()})
                raise GameError(f"'{shown(ship, 20)}' is not a ship of the roster{near or '.'}")
            if seat not in (0, 1) or h in pos:
                raise GameError(f"Cannot place seat {seat}'s {game.ships[ship].name} on {cell}.")
            pos[h] = Piece(seat, ship, f)
        game._reset(pos, turn=turn, step=Step(step))
        return game

    # -- the contract -----------------------------------------------------------------

    @property
    def targets(self) -> tuple[int, int]:
        """Each seat's target: the handicap for that player or colour, else ``target``."""
        h, t = self.options["handicap"], self.options["target"]
        return (
            int(h.get(self.players[0], h.get("white", t))),
            int(h.get(self.players[1], h.get("black", t))),
        )

    def to_act(self) -> list[str]:
        """Returns the player to act, or ``[]`` once the game is over."""
        return [] if self.outcome else [self.players[self.turn]]

    def legal_moves(self, player: str) -> list[str]:
        """Returns the legal moves of ``player``: first steps or rotations, then ``resign``."""
        if player not in self.to_act():
            return []
        if self.step is Step.MOVE:
            steps = first_steps(self.pos, self.turn, self.ships, self.targets)
            moves = [f"{k} {cell_name(a)} {cell_name(b)}" for k, a, b in steps]
            return [*sorted(moves, key=_move_order), "resign"]
        mine = pieces_of(self.pos, self.turn)
        return [*(f"rotate {cell_name(h)} {way}" for h in mine for way in ("left", "right")), "resign"]

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.outcome is not None

    @property
    def winners(self) -> list[str]:
        """The winner, or nobody while running or on a draw."""
        if self.outcome is None or self.outcome.winner is None:
            return []
        return [self.players[self.outcome.winner]]

    def view(self, player: str | None) -> JSON:
        """Returns the public view (NXS has no secrets); see :mod:`engines.nxs.view`."""
        return build_view(self)

    # -- applying moves ---------------------------------------------------------------

    def apply(self, player: str, text: str) -> tuple[str, list[Event]]:
        """Applies one step of ``player``'s turn; raises IllegalMove for anything the rules forbid."""
        move = parse(text)
        seat = self.players.index(player)
        if isinstance(move, Resign):
            self.outcome = Outcome(Termination.RESIGN, 1 - seat)
            other = self.players[1 - seat]
            return "resign", [event("resign", f"{player} resigns: {other} wins.", winner=other)]
        if self.step is Step.MOVE:
            if isinstance(move, Rotate):
                raise IllegalMove(
                    f"First move or capture with a ship, then rotate ('{shown(text)}' comes next)."
                )
            return str(move), self._first_step(player, seat, move)
        if not isinstance(move, Rotate):
            raise IllegalMove(
                "You have moved: now rotate one of your ships, e.g. 'rotate left' (the ship that moved)"
                " or 'rotate <cell> right'."
            )
        if move.cell is None:
            if self.last is None:
                raise IllegalMove("Say which ship to rotate, e.g. 'rotate d4 left'.")
            move = Rotate(self.last["to"], move.way)
        return str(move), self._rotate(player, seat, move)

    def _own(self, seat: int, cell: str) -> tuple[Hex, Piece]:
        h = CELLS[cell]
        piece = self.pos.get(h)
        if piece is None:
            raise IllegalMove(f"There is no ship on {cell}.")
        if piece.owner != seat:
            raise IllegalMove(f"The {self.ships[piece.ship].name} on {cell} is not yours.")
        return h, piece

    def _first_step(self, player: str, seat: int, move: Slide | Capture) -> list[Event]:
        src, piece = self._own(seat, move.src)
        dst = CELLS[move.dst]
        ship = self.ships[piece.ship]
        if isinstance(move, Slide):
            if dst not in slides(self.pos, src, self.ships):
                raise IllegalMove(why_not_slide(self.pos, src, dst, self.ships))
        elif dst not in captures(self.pos, src, self.ships):
            raise IllegalMove(why_not_capture(self.pos, src, dst, self.ships))
        verdict, after, new_scores = judge_move(self.pos, src, dst, seat, self.targets, self.scores)
        other = self.players[1 - seat]
        if verdict is Verdict.ILLEGAL:
            raise IllegalMove(
                f"'{move}' would give {other} {plural(new_scores[1 - seat], 'hex', 'hexes')} (their target is "
                f"{self.targets[1 - seat]}) while you hold {new_scores[seat]}: a close call you lose, "
                "so it is not allowed."
            )
        prey = self.pos.get(dst)
        events: list[Event]
        if isinstance(move, Capture) and prey is not None:
            self.captured[seat] += 1
            self.seen = {}  # fewer pieces: no earlier position can come back
            events = [event("capture", f"{player} captures {other}'s {self.ships[prey.ship].name} on "
                            f"{move.dst} with the {ship.name} from {move.src}.", src=move.src, dst=move.dst)]
        else:
            events = [event("move", f"{player} moves the {ship.name} {move.src} → {move.dst}.",
                            src=move.src, dst=move.dst)]
        self.eventful = isinstance(move, Capture) or new_scores != self.scores
        if new_scores != self.scores:
            events.append(event("territory", f"Territory: {self.players[0]} {new_scores[0]}, "
                                f"{self.players[1]} {new_scores[1]}.", score=list(new_scores)))
        self.pos, self.scores = after, new_scores
        kind = "capture" if isinstance(move, Capture) else "move"
        self.last = {"kind": kind, "from": move.src, "to": move.dst}
        if verdict is Verdict.TARGET:
            self.outcome = Outcome(Termination.TARGET, seat)
            events.append(event("win", f"{player} holds {plural(new_scores[seat], 'hex', 'hexes')} and wins!",
                                winner=player))
        elif verdict is Verdict.CLOSE_CALL:
            self.outcome = Outcome(Termination.CLOSE_CALL, seat)
            events.append(event("win", f"Close call: {other} reaches the target, but {player} holds more "
                                f"({new_scores[seat]} to {new_scores[1 - seat]}) and wins!", winner=player))
        else:
            self.step = Step.ROTATE
        return events

    def _rotate(self, player: str, seat: int, move: Rotate) -> list[Event]:
        assert move.cell is not None
        h, piece = self._own(seat, move.cell)
        self.pos = rotated(self.pos, h, move.way)
        facing = DIRECTIONS[self.pos[h].facing]
        events = [event("rotate", f"{player} turns the {self.ships[piece.ship].name} on {move.cell} "
                        f"{move.way}: it now faces {facing}.", cell=move.cell, way=move.way)]
        self.quiet = 0 if self.eventful else self.quiet + 1
        self.eventful = False
        self.turn, self.step = 1 - seat, Step.MOVE
        key = position_key(self.pos, self.turn)
        self.seen[key] = self.seen.get(key, 0) + 1
        if not has_first_step(self.pos, self.turn, self.ships, self.targets):
            self.outcome = Outcome(Termination.NO_MOVE, seat)
            events.append(event("win", f"{self.players[self.turn]} has no legal move or capture: "
                                f"{player} wins!", winner=player))
        elif self.quiet >= self.options["quiet_turns"]:
            events.append(self._adjudicate(Termination.QUIET_TURNS,
                                           f"{self.quiet} turns without a capture or a change of score"))
        elif self.seen[key] >= self.options["repetitions"]:
            events.append(self._adjudicate(Termination.REPETITION,
                                           f"the same position for the {_nth(self.seen[key])} time"))
        return events

    def _adjudicate(self, why: Termination, reason: str) -> Event:
        s, c = self.scores, self.captured
        winner = 0 if (s[0], c[0]) > (s[1], c[1]) else 1 if (s[1], c[1]) > (s[0], c[0]) else None
        self.outcome = Outcome(why, winner)
        if winner is None:
            return event("draw", f"The game ends after {reason}: a draw.", winner=None)
        name = self.players[winner]
        return event("win", f"The game ends after {reason}: {name} wins on territory, then captures.",
                     winner=name)

    # -- persistence ------------------------------------------------------------------

    def dump_state(self) -> JSON:
        """Returns the state as a fresh JSON-safe dict (territory is recomputed on load)."""
        return {
            "pieces": [[cell_name(h), p.owner, p.ship, DIRECTIONS[p.facing]]
                       for h, p in sorted(self.pos.items(), key=lambda hp: cell_name(hp[0]))],
            "turn": self.turn,
            "step": self.step.value,
            "captured": list(self.captured),
            "quiet": self.quiet,
            "eventful": self.eventful,
            "seen": dict(self.seen),
            "last": dict(self.last) if self.last else None,
            "outcome": None if self.outcome is None
            else {"termination": self.outcome.termination.value, "winner": self.outcome.winner},
        }

    def check_state(self, data: JSON) -> None:
        """Checks a saved state's types, ranges and references (see :mod:`engines.nxs.checks`)."""
        check_state(data, default_data()[0], self.options, steps=tuple(s.value for s in Step),
                    terminations=tuple(t.value for t in Termination))

    def load_state(self, data: JSON) -> None:
        """Replaces the state with one made by :meth:`dump_state`; raises ValueError or KeyError."""
        self.ships = default_data()[0]
        self.pos = {CELLS[c]: Piece(int(o), str(s), DIRECTIONS.index(f)) for c, o, s, f in data["pieces"]}
        if len(self.pos) != len(data["pieces"]) or any(
            p.ship not in self.ships or p.owner not in (0, 1) for p in self.pos.values()
        ):
            raise ValueError("pieces: a doubled hex, an unknown ship or a bad seat")
        self.turn = int(data["turn"])
        self.step = Step(data["step"])
        self.captured = [int(x) for x in data["captured"]]
        self.quiet = int(data["quiet"])
        self.eventful = bool(data["eventful"])
        self.seen = {str(k): int(v) for k, v in data["seen"].items()}
        self.last = dict(data["last"]) if data["last"] else None
        out = data["outcome"]
        self.outcome = None if out is None else Outcome(Termination(out["termination"]), out["winner"])
        self.scores = scores(self.pos)


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _nth(n: int) -> str:
    return {2: "second", 3: "third", 4: "fourth"}.get(n, f"{n}th")


def _move_order(text: str) -> tuple[str, str, str]:
    kind, a, b = text.split()
    return (kind, a, b)

