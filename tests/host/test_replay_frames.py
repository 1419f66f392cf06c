"""A replay's positions: the start, then one frame per turn, a turn lasting while the same players act.

A XISK frame is named for the position it shows, as its board: the game's turn number and who is
to act (:mod:`tests.host.test_one_count` checks it against the board title move by move).

Turns are counted here independently of :mod:`host.replay`: while a seeded random game is
played, the players to act before each move are recorded, and a turn is a run of moves with
the same players to act before them (a Nexohominis turn: the same round and phase).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines import GAMES, GameError
from host.replay import game_frames, turn_views
from host.tables import Tables
from tests.host.conftest import ANN, BOB, CHANNEL

XISK_SEATS = ["Ann", "Bob", "Cy"]


def random_game(game: str, seats: list[str], seed: int, *, turns: int | None = None, moves: int = 100_000,
                options: dict[str, Any] | None = None) -> tuple[list[tuple[str, str]], list[Any]]:
    """Plays seeded random legal moves (never a resignation) until ``turns`` turns, ``moves`` moves or the end.

    Returns the log as (seat, canonical move) and, for each move, the turn key before it: who was
    to act (a Nexohominis game: its round and phase). Random XISK play does not end a game within
    300 turns (attacks are as likely as ending the turn), so it lasts as long as asked.
    """
    g = GAMES[game].new(seats, seed, options or {})
    rng = random.Random(seed)
    log: list[tuple[str, str]] = []
    keys: list[Any] = []
    count = 0
    while len(log) < moves and not g.is_over:
        view = g.view(None)
        key = (view.get("round"), view.get("phase")) if game == "nexo" else tuple(g.to_act())
        if not keys or keys[-1] != key:
            if count == turns:
                break
            count += 1
        player = g.to_act()[0]
        legal = [m for m in g.legal_moves(player) if m.split()[0] not in {"resign", "concede"}]
        if not legal:
            break
        g.play(player, rng.choice(legal))
        assert g.last_move is not None
        log.append((player, g.last_move))
        keys.append(key)
    return log, keys


def set_runs(keys: list[Any]) -> list[tuple[int, int]]:
    """Returns the (first, last + 1) move index of each run of equal keys: one run per turn."""
    runs: list[tuple[int, int]] = []
    for i, key in enumerate(keys):
        if runs and keys[runs[-1][0]] == key:
            runs[-1] = (runs[-1][0], i + 1)
        else:
            runs.append((i, i + 1))
    return runs


def test_one_frame_per_turn_of_a_long_xisk_game_each_named_for_its_turn_number_and_player_to_act() -> None:
    log, keys = random_game("xisk", XISK_SEATS, 5, turns=300)
    runs = set_runs(keys)
    assert len(runs) == 300
    frames = turn_views("xisk", XISK_SEATS, 5, {}, log)
    assert len(frames) == len(runs) + 1
    assert (frames[0].turn, frames[0].player, frames[0].caption) == (0, None, "Start")
    for n, ((start, end), frame) in enumerate(zip(runs, frames[1:], strict=True), 1):
        movers = {p for p, _ in log[start:end]}
        assert movers == {frames[n - 1].player or log[0][0]}  # who was to act in the frame before played
        assert frame.turn == frame.view["turn_number"] and [frame.player] == frame.view["to_act"]
        head = f"Turn {frame.turn}" if frame.turn else "Claim phase"
        assert frame.caption == f"{head} · {frame.player} to act"
    replayed = GAMES["xisk"].new(XISK_SEATS, 5, {})
    for player, move in log:
        replayed.play(player, move)
    assert frames[-1].view == replayed.view(None)  # the last turn ended: the position now


def test_the_start_frame_is_the_fresh_game_and_views_are_the_spectators() -> None:
    log, _ = random_game("xisk", XISK_SEATS, 2, turns=5)
    frames = turn_views("xisk", XISK_SEATS, 2, {}, log)
    assert frames[0].view == GAMES["xisk"].new(XISK_SEATS, 2, {}).view(None)
    for frame in frames:
        assert "hand" not in frame.view and "cards" not in frame.view  # public views: no hand drawn


def test_a_finished_game_ends_on_its_result() -> None:
    log, keys = random_game("nxs", ["Ann", "Bob"], 8, moves=2000)
    g = GAMES["nxs"].new(["Ann", "Bob"], 8, {})
    for player, move in log:
        g.play(player, move)
    if not g.is_over:
        pytest.skip("this seed's random NXS game does not end")  # pragma: no cover
    frames = turn_views("nxs", ["Ann", "Bob"], 8, {}, log)
    assert len(frames) == len(set_runs(keys)) + 1
    result = " and ".join(g.winners) + (" wins" if len(g.winners) == 1 else " win") if g.winners else "a draw"
    assert frames[-1].caption == f"Turn {frames[-1].turn} · {frames[-1].player} · Game over: {result}"
    assert all("Game over" not in f.caption for f in frames[:-1])


def test_tally_game_over_caption(tally_registered: type) -> None:
    log = [("ann", "add 3"), ("bob", "add 3"), ("ann", "add 3"), ("bob", "add 3"), ("ann", "add 3"),
           ("bob", "add 3"), ("ann", "add 3")]
    frames = turn_views("tally", ["ann", "bob"], 1, {}, log)
    assert [f.caption for f in frames] == ["Start", *[f"Turn {n} · {p}" for n, (p, _) in enumerate(log[:-1], 1)],
                                           "Turn 7 · ann · Game over: ann wins"]


def test_a_turn_under_way_makes_a_last_frame_so_far() -> None:
    log, keys = random_game("xisk", XISK_SEATS, 3, turns=60)
    runs = set_runs(keys)
    start = next(s for s, e in runs[1:] if e - s >= 2 and not log[s][1].startswith("claim"))  # stop inside a turn
    frames = turn_views("xisk", XISK_SEATS, 3, {}, log[: start + 1])
    assert len(frames) == len(set_runs(keys[: start + 1])) + 1
    assert frames[-1].caption == f"Turn {frames[-1].turn} · {log[start][0]} to act, so far"


def test_a_nexohominis_turn_is_a_phase_with_both_players() -> None:
    log, keys = random_game("nexo", ["Ann", "Bob"], 4, moves=150)
    frames = turn_views("nexo", ["Ann", "Bob"], 4, {}, log)
    runs = set_runs(keys)
    assert len(frames) == len(runs) + 1
    for (start, end), frame in zip(runs, frames[1:], strict=True):
        round_, phase = keys[start]
        assert f"round {round_} {phase} phase" in frame.caption
        movers = list(dict.fromkeys(p for p, _ in log[start:end]))
        assert frame.player == (movers[0] if len(movers) == 1 else None)
        assert f" · {' & '.join(movers)}" in frame.caption
    assert any(f.player is None for f in frames[1:])  # a phase where both players acted


def test_a_damaged_log_or_a_game_no_longer_hosted_is_a_game_error() -> None:
    with pytest.raises(GameError):
        turn_views("xisk", XISK_SEATS, 1, {}, [("Ann", "attack mars venus")])
    with pytest.raises(GameError, match="no longer hosts"):
        turn_views("chess", ["Ann", "Bob"], 1, {}, [])


async def test_game_frames_reads_the_standing_log_of_a_stored_game(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="nxs", creator=ANN, options={})
    await tables.join(CHANNEL, BOB)
    row = await tables.store.active_game(CHANNEL, snapshot=False)
    assert row is not None
    with pytest.raises(ValueError, match="not started"):
        await game_frames(tables.store, row)
    await tables.start(CHANNEL, ANN, seed=4)
    game = (await tables.table(CHANNEL)).game
    assert game is not None
    first, second = [m for m in game.legal_moves("ann") if m.startswith("move")][:2]
    await tables.act(CHANNEL, ANN.id, first)
    await tables.undo(CHANNEL, ANN)  # taken back: the replay never shows it
    await tables.act(CHANNEL, ANN.id, second)
    row = await tables.store.game(row.id, snapshot=False)
    assert row is not None
    seats, seed, options, moves = await game_frames(tables.store, row)
    assert (seats, seed, moves) == (["ann", "bob"], 4, [("ann", first), ("ann", "undo"), ("ann", second)])
    frames = turn_views(row.game, seats, seed, options, moves)
    now = (await tables.table(CHANNEL)).game
    assert now is not None and frames[-1].view == now.view(None)
    assert frames == turn_views(row.game, seats, seed, options, [("ann", second)])  # only the standing move shows
