"""A game's replay as positions: the start, then the position after each turn (no Discord, no pictures).

:func:`turn_views` plays a game's standing log again from its seed and gives one
:class:`Frame` per turn: the spectator view (``view(None)``, so nothing secret), the
turn's number, who played it and a caption. A game that numbers its own turns (a view with
``turn_number``: XISK) is replayed by its numbers, so a frame says what the board of the same
move says: one frame per turn number (and before the first turn, per claimant, as the live
board), its ``turn`` the view's ``turn_number`` and its caption the position's, "Turn 13 · Ann to
act", with ``player`` the one to act. Otherwise a turn ends when the players to act change,
as on the live board (:mod:`cogs.board`), unless the game's kit says what its turns are
(``GameKit.replay_turn``): a Nexohominis turn is one phase of one round, as its live
board, so its alternating activations make one turn, and its caption names the phase
(``GameKit.replay_note``); its frames are counted as phases, "Phase 3 · Ann & Bob · round 2 action
phase" (``GameKit.replay_unit``), since its board has rounds and phases but no turn number. NXS has
no turn number either: a frame is one NXS turn (a player's move and rotation), "Turn 5 · Ann".
The caller maps each entry of the log to its seat's name; undo and takeback entries take back
moves as the live host did (:func:`host.undo.play_log`: a takeback keeps the draws the move made),
and only the moves that stand make frames::

    >>> frames = turn_views("nxs", ["Ann", "Bob"], 1, {}, [])
    >>> [(f.turn, f.player, f.caption) for f in frames]
    [(0, None, 'Start')]

The last frame of a finished game says who won ("Turn 40 · Bob · Game over: Ann wins"; XISK:
"Turn 56 · Game over: Ann wins", the final board's turn); the moves after the last finished turn
of a running game make a last frame of their own, "Turn 12 · Bob, so far" (XISK: "Turn 12 · Bob
to act, so far"), so the replay ends on the position as it stands. :func:`turns_of` is the number
of turns a replay shows, the last frame's.
:func:`game_frames` reads a stored game and gives the arguments (the engine work itself
is CPU-bound: run :func:`turn_views` in a worker thread).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from engines import KITS, GameError
from host.store import GameRow, Store
from host.undo import play_log


@dataclass(frozen=True)
class Frame:
    """One position of a replay: ``turn`` 0 is the start; ``player`` None at the start or for several.

    In a game that numbers its turns, ``turn`` is the view's ``turn_number`` and ``player`` the one
    to act in it; otherwise ``turn`` counts the replay's turns and ``player`` is who played the last.
    """

    view: dict[str, Any]
    turn: int
    player: str | None
    caption: str


def result_text(winners: list[str]) -> str:
    """Returns "Ann wins", "Ann and Bob win" or "a draw".

    >>> result_text(["Ann"]), result_text(["Ann", "Bob"]), result_text([])
    ('Ann wins', 'Ann and Bob win', 'a draw')
    """
    if not winners:
        return "a draw"
    return " and ".join(winners) + (" wins" if len(winners) == 1 else " win")


def caption(turn: int, movers: list[str], note: str | None = None, *, over: str | None = None,
            partial: bool = False, unit: str = "turn") -> str:
    """Returns a frame's caption: "Turn 12 · Bob", with the turn's note and the result when given.

    >>> caption(12, ["Bob"]), caption(3, ["Ann", "Bob"], "round 1 action phase")
    ('Turn 12 · Bob', 'Turn 3 · Ann & Bob · round 1 action phase')
    >>> caption(40, ["Bob"], over="Ann wins"), caption(7, ["Cy"], partial=True)
    ('Turn 40 · Bob · Game over: Ann wins', 'Turn 7 · Cy, so far')
    >>> caption(3, ["Ann", "Bob"], "round 2 action phase", unit="phase")
    'Phase 3 · Ann & Bob · round 2 action phase'
    """
    parts = [f"{unit.capitalize()} {turn}", " & ".join(movers) + (", so far" if partial else "")]
    if note:
        parts.append(note)
    if over:
        parts.append(f"Game over: {over}")
    return " · ".join(parts)


def turn_number(view: dict[str, Any]) -> int | None:
    """Returns the game's own turn number in ``view`` (XISK's ``turn_number``), or None for a game without one.

    >>> turn_number({"turn_number": 13}), turn_number({"round": 2})
    (13, None)
    """
    number = view.get("turn_number")
    return number if isinstance(number, int) and not isinstance(number, bool) else None


def position_caption(view: dict[str, Any], acting: list[str], *, over: str | None = None,
                     partial: bool = False) -> str:
    """Returns the caption of a position in a game that numbers its turns, as its board says it.

    The game's turn number and who is to act ("Turn 13 · Ann to act"); before the first turn
    (turn 0: XISK's claims) the phase instead, as the board's title has no number then::

        >>> position_caption({"turn_number": 13}, ["Ann"])
        'Turn 13 · Ann to act'
        >>> position_caption({"turn_number": 0, "phase": "claim"}, ["Bob"])
        'Claim phase · Bob to act'
        >>> position_caption({"turn_number": 56}, [], over="Ann wins")
        'Turn 56 · Game over: Ann wins'
        >>> position_caption({"turn_number": 7}, ["Cy"], partial=True)
        'Turn 7 · Cy to act, so far'
    """
    number = turn_number(view) or 0
    phase = view.get("phase")
    parts = [f"Turn {number}" if number > 0 else f"{phase.capitalize()} phase" if isinstance(phase, str) else "Setup"]
    if acting and not over:
        parts.append(" & ".join(acting) + " to act" + (", so far" if partial else ""))
    if over:
        parts.append(f"Game over: {over}")
    return " · ".join(parts)


def turn_views(game_name: str, seat_names: list[str], seed: int | str, options: dict[str, Any],
               moves: list[tuple[str, str]]) -> list[Frame]:
    """Returns the start and the position after each turn of the log ``moves`` (seat, move), undos included.

    Raises GameError when the game is not hosted any more or a move is refused (a damaged log).
    """
    kit = KITS.get(game_name)
    if kit is None:
        raise GameError(f"This bot no longer hosts '{game_name}'.")
    game = kit.engine.new(list(seat_names), seed, options)
    turn_of, label = kit.replay_turn, kit.replay_note

    view = game.view(None)
    numbered = turn_of is None and turn_number(view) is not None

    def key_of(view: dict[str, Any]) -> Hashable:
        if turn_of is not None:
            return turn_of(view)
        if numbered:  # as the live board: one per turn number, and per claimant before the first turn
            return turn_number(view), tuple(game.to_act())
        return tuple(game.to_act())

    frames = [Frame(view, 0, None, "Start")]
    key = key_of(view)
    note = label(view) if label else None
    movers: list[str] = []
    for index, _ in play_log(game, moves):  # the moves that stand, with the draws of those taken back
        player = moves[index][0]
        if player not in movers:
            movers.append(player)
        view = game.view(None) if turn_of is not None or numbered or game.is_over else {}  # only when read
        new_key = key_of(view)
        if new_key == key and not game.is_over:
            continue
        view = view or game.view(None)
        over = result_text(game.winners) if game.is_over else None
        if numbered:
            frames.append(_position(view, game.to_act(), over=over))
        else:
            turn = len(frames)
            frames.append(Frame(view, turn, _one(movers), caption(turn, movers, note, over=over, unit=kit.replay_unit)))
        key, movers = new_key, []
        note = label(view) if label else None
    if movers:  # a turn under way: the position as it stands
        if numbered:
            frames.append(_position(game.view(None), game.to_act(), partial=True))
        else:
            turn = len(frames)
            frames.append(Frame(game.view(None), turn, _one(movers),
                                caption(turn, movers, note, partial=True, unit=kit.replay_unit)))
    return frames


def turns_of(frames: list[Frame]) -> int:
    """Returns the turns a replay shows: the last frame's turn (the game's own number when it has one)."""
    return frames[-1].turn if frames else 0


def unit_of(game_name: str) -> str:
    """Returns what the game's replay turns are called: "turn", or its kit's word ("phase").

    >>> unit_of("xisk"), unit_of("no such game")
    ('turn', 'turn')
    """
    kit = KITS.get(game_name)
    return kit.replay_unit if kit is not None else "turn"


def _position(view: dict[str, Any], acting: list[str], *, over: str | None = None, partial: bool = False) -> Frame:
    """Returns the frame of a position in a game that numbers its turns: its number and who is to act."""
    return Frame(view, turn_number(view) or 0, _one(acting), position_caption(view, acting, over=over, partial=partial))


def _one(movers: list[str]) -> str | None:
    return movers[0] if len(movers) == 1 else None


async def game_frames(store: Store, row: GameRow) -> tuple[list[str], int | str, dict[str, Any], list[tuple[str, str]]]:
    """Returns the seat names, seed, options and log (undos and takebacks too) of a started game, for
    :func:`turn_views`.

    Raises ValueError for a game that has not started (it has no seed yet).
    """
    if not row.started:
        raise ValueError(f"Game {row.id} has not started.")
    seats = await store.seats(row.id)
    names = {s.player_id: s.name for s in seats}
    log = await store.moves(row.id)
    return [s.name for s in seats], row.engine_seed, row.options, [(names[m.player_id], m.move) for m in log]
