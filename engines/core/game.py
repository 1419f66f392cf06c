"""The engine contract that every game follows exactly.

A game is a class with a small declarative header (name, seat counts, options)
and a handful of methods over a JSON-serialisable state::

    >>> from engines import GAMES                                   # doctest: +SKIP
    >>> g = GAMES["xisk"].new(players=["ann", "bob", "cy"], seed=7)  # doctest: +SKIP
    >>> g.to_act(); g.legal_moves("ann"); g.play("ann", "claim alaska")  # doctest: +SKIP

:meth:`Game.play` is transactional: it checks the seat and the turn, lets the
game apply the move, and restores the exact previous state when anything goes
wrong, so a rejected move never changes a game.

:meth:`Game.timeout_moves` gives the moves the host's turn clock plays for a player whose
time ran out: the game's "do the least" ``skip`` or its ``forfeit`` (:data:`ON_TIMEOUT`).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Self

from engines.core.errors import BadNotation, GameError, GameOver, NotAPlayer, NotYourTurn, shown
from engines.core.events import Event
from engines.core.reader import FieldError, Reader, check_plain, show_value
from engines.core.rng import is_seed
from engines.core.words import legal_hint

JSON = dict[str, Any]

ON_TIMEOUT: tuple[str, ...] = ("skip", "forfeit")
"""What the turn clock may do for a player whose time ran out (:meth:`Game.timeout_moves`)."""


def option_value(value: Any) -> str:
    """Returns an option's value as a refusal quotes it: :func:`~engines.core.reader.show_value`,
    except that a number with a point keeps it, so a float where a whole number is due reads as one.

    >>> [option_value(v) for v in (7.0, 2.5, 7, "seven", [7], None)]
    ['7.0', '2.5', '7', "'seven'", 'a list', 'null']
    """
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return f"{value:.1f}"
    return show_value(value)


class Game(ABC):
    """Base class of every engine; subclasses fill in the abstract methods.

    Subclasses set :attr:`NAME`, :attr:`TITLE`, :attr:`MIN_PLAYERS`,
    :attr:`MAX_PLAYERS` and :attr:`OPTIONS` (name → default) with
    :attr:`OPTION_DOCS` (name → one sentence).
    """

    NAME: ClassVar[str]
    TITLE: ClassVar[str]
    MIN_PLAYERS: ClassVar[int]
    MAX_PLAYERS: ClassVar[int]
    OPTIONS: ClassVar[dict[str, Any]] = {}
    OPTION_DOCS: ClassVar[dict[str, str]] = {}
    HAS_SECRETS: ClassVar[bool] = False
    """True when ``view(player)`` holds something ``view(None)`` does not (a hand)."""
    MOVE_SHAPES: ClassVar[dict[str, str]] = {}
    """A move's first word → how it is written (``"attack <from> <to>"``), for refusals."""
    LEGAL_MOVES_COMPLETE: ClassVar[bool] = True
    """False when ``legal_moves`` is a sample (a continuous game): refusals then never list it."""
    ON_TIMEOUT: ClassVar[tuple[str, ...]] = ON_TIMEOUT
    """The turn clock's policies :meth:`timeout_moves` takes."""
    FORFEIT_MOVE: ClassVar[str | None] = None
    """The move by which the player to act gives up (``resign``, ``concede``); None: there is none."""
    TIMEOUT_DOCS: ClassVar[dict[str, str]] = {}
    """Policy (``skip``, ``forfeit``) → one sentence of what the turn clock plays, for players."""

    def __init__(self, players: list[str], seed: int | str, options: dict[str, Any]) -> None:
        self.players: list[str] = list(players)
        self.seed = seed
        self.options: dict[str, Any] = dict(options)
        self.last_move: str | None = None
        """Canonical notation of the last move :meth:`play` accepted (not part of the state)."""

    # -- construction -----------------------------------------------------------------

    @classmethod
    def new(cls, players: list[str], seed: int | str = 0, options: dict[str, Any] | None = None) -> Self:
        """Returns a new game; raises GameError for a bad seat count, names, seed or options.

        ``seed`` is a keyed seed (:func:`engines.core.rng.keyed_seed`: keyed draws) or, for games
        from before keyed draws and for tests, an integer (SplitMix64).
        """
        players = list(players)
        if not is_seed(seed):
            raise GameError("A game's seed is an integer or '<server seed>:<entropy>'.")
        if not all(isinstance(p, str) and p for p in players):
            raise GameError("Every player needs a name.")
        if not cls.MIN_PLAYERS <= len(players) <= cls.MAX_PLAYERS:
            raise GameError(
                f"{cls.TITLE} needs {cls._seat_range()} players, not {len(players)}."
            )
        if len(set(players)) != len(players):
            raise GameError("Every player needs a different name.")
        game = cls(players, seed, cls.check_options(options or {}))
        game.setup()
        return game

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """Returns the options completed with defaults; raises GameError for unknown ones.

        Refuses anything but plain JSON (text keys; nested at most a few levels, see
        :func:`engines.core.reader.check_plain`) with a GameError, never a RecursionError.
        Subclasses extend this to check values, and call ``super()`` first: a value of any
        JSON type (a list, an object, null, true, a float where a whole number is due) is
        checked for its type before it is used, and refused with a GameError whose message
        names the option (quoting it with :func:`option_value`), never a TypeError.
        """
        if not isinstance(options, dict):
            raise GameError(f"{cls.TITLE} options must be name=value pairs.")
        try:
            check_plain(options, "options")
        except FieldError as err:
            raise GameError(f"{cls.TITLE} cannot take these options ({err}).") from None
        unknown = sorted(set(options) - set(cls.OPTIONS))
        if unknown:
            known = ", ".join(sorted(cls.OPTIONS)) or "none"
            raise GameError(f"{cls.TITLE} has no option '{shown(unknown[0], 30)}' (options: {known}).")
        return {**cls.OPTIONS, **options}

    @classmethod
    def _seat_range(cls) -> str:
        if cls.MIN_PLAYERS == cls.MAX_PLAYERS:
            return str(cls.MIN_PLAYERS)
        return f"{cls.MIN_PLAYERS}–{cls.MAX_PLAYERS}"

    @abstractmethod
    def setup(self) -> None:
        """Builds the starting state from ``players``, ``seed`` and ``options``."""

    def opening_events(self) -> list[Event]:
        """Returns what the table announces when the game starts (a deal, private hands).

        Computed from the starting state, so it is the same after a reload.
        """
        return []

    # -- the contract -----------------------------------------------------------------

    @abstractmethod
    def to_act(self) -> list[str]:
        """Returns who may act now; ``[]`` once the game is over."""

    @abstractmethod
    def legal_moves(self, player: str) -> list[str]:
        """Returns every legal move of ``player`` now, in canonical notation."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """True once the game has ended."""

    @property
    @abstractmethod
    def winners(self) -> list[str]:
        """The winners; empty while running or on a draw."""

    @abstractmethod
    def view(self, player: str | None) -> JSON:
        """Returns the JSON-safe view of ``player`` (``None``: a spectator)."""

    def private_view(self, player: str) -> JSON:
        """Returns what ``view(player)`` holds that ``view(None)`` does not: the player's secrets.

        The host calls it for every seat after every move, to learn whose secret
        changed; a game with secrets overrides it with something cheaper than this
        difference of two whole views.
        """
        if not self.HAS_SECRETS:
            return {}
        public = self.view(None)
        return {k: v for k, v in self.view(player).items() if k not in public or public[k] != v}

    def play(self, player: str, text: str) -> list[Event]:
        """Applies one move and returns its events.

        Raises :class:`IllegalMove` (or a subclass) with a player-readable message;
        whatever is raised, the state is exactly as before the call. A
        :class:`BadNotation` ends with what is legal now (:meth:`legal_hint`), so a
        player who cannot be read is told what they could type.
        """
        if self.is_over:
            raise GameOver("The game is over: no more moves.")
        if player not in self.players:
            raise NotAPlayer(f"{player} is not playing in this game.")
        acting = self.to_act()
        if player not in acting:
            raise NotYourTurn(f"It is not your turn, {player}: waiting for {', '.join(acting)}.")
        saved = self.dump_state()
        try:
            canonical, events = self.apply(player, text)
        except BadNotation as err:
            self.load_state(saved)
            raise BadNotation(f"{err} {self.legal_hint(player)}") from None
        except BaseException:
            self.load_state(saved)
            raise
        self.last_move = canonical
        return events

    # -- the turn clock ---------------------------------------------------------------

    def timeout_moves(self, player: str, on_timeout: str) -> list[str]:
        """Returns the moves the turn clock plays for ``player`` whose time ran out, in order.

        ``skip``: the game's documented "do the least" completion of the player's turn (or of
        their part of it, when several must act); ``forfeit``: the player leaves the game as its
        rules allow. A game without a skip falls back to forfeit. Each move is an ordinary move
        in the game's notation, accepted by ``play`` in turn; the host logs them as the clock's.

        Returns ``[]`` when ``player`` is not to act now (or the game is over): a clock that
        fires late plays nothing. Also ``[]`` for a forfeit in a game with no give-up move
        (:attr:`FORFEIT_MOVE` None): the host then ends the game itself. Raises ValueError
        for a policy not in :data:`ON_TIMEOUT`. Never changes the game.
        """
        if on_timeout not in self.ON_TIMEOUT:
            raise ValueError(f"on_timeout must be one of {', '.join(self.ON_TIMEOUT)}, not {on_timeout!r}.")
        if self.is_over or player not in self.to_act():
            return []
        if on_timeout == "skip":
            moves = self.skip_moves(player)
            if moves is not None:
                return moves
        return self.forfeit_moves(player)

    def skip_moves(self, player: str) -> list[str] | None:
        """Returns the game's skip for ``player`` (who is to act), or None when it has none.

        Games with a skip override this (the default: none, so ``skip`` means forfeit). It
        must not change the game: simulate on :meth:`clone` when the moves depend on each other.
        """
        return None

    def forfeit_moves(self, player: str) -> list[str]:
        """Returns the moves by which ``player`` (who is to act) leaves: :attr:`FORFEIT_MOVE`, if any."""
        return [self.FORFEIT_MOVE] if self.FORFEIT_MOVE else []

    def clone(self) -> Self:
        """Returns an independent copy of the game (the same state, dice included)."""
        return type(self).from_json(self.to_json())

    def legal_hint(self, player: str) -> str:
        """Returns a sentence of the moves ``player`` may make now: each one when there are
        few (see :func:`engines.core.words.legal_hint`), else their kinds."""
        return legal_hint(self.legal_moves(player), self.MOVE_SHAPES, complete=self.LEGAL_MOVES_COMPLETE)

    @abstractmethod
    def apply(self, player: str, text: str) -> tuple[str, list[Event]]:
        """Parses and applies a move of a seated player who may act.

        Returns the canonical notation and the events. May raise IllegalMove at any
        point: :meth:`play` restores the state.
        """

    # -- persistence ------------------------------------------------------------------

    @abstractmethod
    def dump_state(self) -> JSON:
        """Returns the mutable state (RNG included) as a fresh JSON-safe dict."""

    @abstractmethod
    def load_state(self, data: JSON) -> None:
        """Replaces the mutable state with one made by :meth:`dump_state`."""

    def to_json(self) -> str:
        """Returns the whole game as a canonical JSON string (same game, same bytes)."""
        return json.dumps(
            {
                "game": self.NAME,
                "players": self.players,
                "seed": self.seed,
                "options": self.options,
                "state": self.dump_state(),
            },
            sort_keys=True,
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> Self:
        """Returns the game stored by :meth:`to_json`; raises GameError when it cannot.

        The snapshot is checked before it is used (:meth:`check_state`): a value of the
        wrong type, out of range or naming nothing raises a GameError that names the
        field, so a damaged game is refused once instead of failing at every move.
        """
        damaged = f"The saved {cls.TITLE} game is damaged"
        try:
            data = json.loads(text)
            r = Reader("snapshot")
            check_plain(r.obj(data, ""), "snapshot")
            game_name = r.text(data, "game", "")
            if game_name != cls.NAME:
                raise GameError(f"This is a saved '{shown(game_name, 20)}' game, not '{cls.NAME}'.")
            players = [r.word(p, f"players[{i}]") for i, p in enumerate(r.items(data, "players", ""))]
            r.need(cls.MIN_PLAYERS <= len(players) <= cls.MAX_PLAYERS, "players",
                   f"{cls.TITLE} needs {cls._seat_range()} players, not {len(players)}")
            r.need(len(set(players)) == len(players), "players", "a name is seated twice")
            seed = r.field(data, "seed", "")
            r.need(is_seed(seed), "seed", "expected an integer (SplitMix64) or '<server seed>:<entropy>' (keyed draws)")
            try:
                options = cls.check_options(r.obj(r.field(data, "options", ""), "options"))
            except GameError as err:
                raise GameError(f"{damaged}: {err}") from err
            game = cls(players, seed, options)
            state = r.obj(r.field(data, "state", ""), "state")
            game.check_state(state)
            game.load_state(state)
        except GameError:
            raise
        except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as err:
            reason = str(err) if isinstance(err, FieldError) else f"{type(err).__name__} {shown(str(err))}"
            raise GameError(f"{damaged}: {reason}.") from err
        return game

    def check_state(self, data: JSON) -> None:
        """Checks a saved state (from :meth:`dump_state`) before :meth:`load_state` reads it.

        Raises GameError (or a ``FieldError`` naming the field) for any value of the wrong
        type, out of range or inconsistent with the rest. Every engine overrides this; the
        default (kept for small test games) accepts any state.
        """
        return None

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"to act: {', '.join(self.to_act())}"
        return f"<{type(self).__name__} {', '.join(self.players)} ({state})>"
