"""One count everywhere: a XISK replay frame says what the board of the same move says.

The board's title (``Surface.title``) and picture show the game's own ``turn_number`` and who is to
act; a replay frame's ``turn``, ``player`` and caption must show the same, not a count of their own
(the bug: a frame "Turn 40 · Cy" over a board of turn 13 with Ann to act, the 28 claims counted as
turns). Three players, as where it was measured.
"""

from __future__ import annotations

from typing import Any

from engines import GAMES, KITS
from host.replay import turn_views, turns_of, unit_of
from host.undo import standing_count
from tests.host.test_replay_frames import XISK_SEATS, random_game


def board_title(view: dict[str, Any]) -> str:
    """Returns the live board's title of a XISK view, as the bot posts it."""
    surface: Any = KITS["xisk"].surface
    return str(surface.title("XISK", view))


def views_after_each_move(log: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Returns the spectator view after each move of a log without undos (each move's board)."""
    game = GAMES["xisk"].new(XISK_SEATS, 11, {})
    views = []
    for player, move in log:
        game.play(player, move)
        views.append(game.view(None))
    return views


def test_a_xisk_frame_shows_the_turn_and_player_to_act_of_the_board_of_the_same_move() -> None:
    log, _ = random_game("xisk", XISK_SEATS, 11, turns=60)
    views = views_after_each_move(log)
    frames = turn_views("xisk", XISK_SEATS, 11, {}, log)
    assert any(f.caption.startswith("Claim phase") for f in frames) and frames[-1].turn > 20
    for frame in frames[1:]:
        assert frame.view in views  # the board of some move
        number, acting = frame.view["turn_number"], frame.view["to_act"]
        assert frame.turn == number and [frame.player] == acting
        if number:
            assert f"turn {number} " in board_title(frame.view) + " "
            assert frame.caption == f"Turn {number} · {acting[0]} to act"
        else:  # the claims: the board has no turn number yet, nor the frame
            assert "turn" not in board_title(frame.view) and frame.caption == f"Claim phase · {acting[0]} to act"


def test_the_turns_of_a_replay_are_the_games_own_not_its_frames() -> None:
    log, _ = random_game("xisk", XISK_SEATS, 11, turns=60)
    frames = turn_views("xisk", XISK_SEATS, 11, {}, log)
    assert turns_of(frames) == views_after_each_move(log)[-1]["turn_number"] < len(frames) - 1


def test_the_last_frame_of_a_finished_xisk_game_has_the_final_boards_turn() -> None:
    log, _ = random_game("xisk", XISK_SEATS, 11, turns=45)
    game = GAMES["xisk"].new(XISK_SEATS, 11, {})
    for player, move in log:
        game.play(player, move)
    while not game.is_over:  # whoever is to act resigns, until one is left
        player = game.to_act()[0]
        game.play(player, "resign")
        assert game.last_move is not None
        log.append((player, game.last_move))
    final = game.view(None)
    frames = turn_views("xisk", XISK_SEATS, 11, {}, log)
    assert frames[-1].view == final and frames[-1].turn == final["turn_number"] == turns_of(frames)
    assert f"turn {final['turn_number']}" in board_title(final)
    assert frames[-1].caption == f"Turn {final['turn_number']} · Game over: {game.winners[0]} wins"


def test_standing_count_leaves_out_undos_and_the_moves_they_take_back() -> None:
    assert standing_count(["a", "undo", "b", "c", "takeback", "d"]) == 2
    assert standing_count(["undo", "takeback"]) == 0  # nothing to take back: nothing taken
    assert standing_count([]) == 0


def test_a_nexohominis_replay_counts_phases_not_turns() -> None:
    """Its board has rounds and phases, no turn number: a frame is a phase, and is called one."""
    log, _ = random_game("nexo", ["Ann", "Bob"], 4, moves=80)
    frames = turn_views("nexo", ["Ann", "Bob"], 4, {}, log)
    assert unit_of("nexo") == "phase" and unit_of("nxs") == unit_of("xisk") == "turn"
    for n, frame in enumerate(frames[1:], 1):
        assert frame.turn == n and frame.caption.startswith(f"Phase {n} · ") and " phase" in frame.caption
