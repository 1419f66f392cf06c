"""Several processes on one PostgreSQL database, as the bot's shard processes are: real processes, racing.

Each process is ``tests.support.host_worker`` (a table service, a deliverer and a timekeeper).
Whatever a process acknowledged is in the log once, every announcement is sent once, every
due deadline is handled once, and what a killed process left pending another one delivers.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from host.clock import ClockSettings
from host.store import Store
from host.tables import Tables
from tests.host.conftest import ANN, BOB

ROOT = Path(__file__).resolve().parents[2]
HOUR = 3600.0
BIG = {"target": 10**6}
"""Tally options for a game that does not end during a test."""
CLEAR_REFUSALS = (
    re.compile(r"^Another move landed at the same moment: look at the board and try again\.$"),
    re.compile(r"^It is not your turn, \w+: waiting for \w+\.$"),
    re.compile(r"^This game is changing too fast to show: try again in a moment\.$"),
)
"""Every refusal a racing process may give, as a player reads it."""


@dataclass
class Run:
    """What one worker process printed."""

    name: str
    process: asyncio.subprocess.Process
    lines: list[dict[str, Any]] = field(default_factory=list)
    stderr: str = ""

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [line for line in self.lines if kind in line]


async def spawn(dsn: str, name: str, *args: str) -> Run:
    """Starts a worker process on the database."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.support.host_worker", dsn, "--name", name, *args,
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    return Run(name, process)


async def finish(run: Run, timeout: float = 120.0) -> Run:
    """Reads a worker's output to its end; fails the test if it did not exit cleanly."""
    out, err = await asyncio.wait_for(run.process.communicate(), timeout)
    run.lines = [json.loads(line) for line in out.decode().splitlines() if line.strip()]
    run.stderr = err.decode()
    assert run.process.returncode == 0, f"{run.name} exited {run.process.returncode}:\n{run.stderr[-3000:]}"
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    return run


async def read_until(run: Run, enough: int, timeout: float = 60.0) -> None:
    """Reads a worker's lines as they come until it acknowledged ``enough`` moves."""
    assert run.process.stdout is not None
    deadline = time.monotonic() + timeout
    while len(run.of("ack")) < enough:
        line = await asyncio.wait_for(run.process.stdout.readline(), max(deadline - time.monotonic(), 0.1))
        assert line, f"{run.name} ended early"
        run.lines.append(json.loads(line))


@pytest.fixture
def dsn(pg_dsn: str, tally_registered: type) -> str:
    """A fresh PostgreSQL database, with Tally registered in this process (the workers register it too)."""
    return pg_dsn


async def open_games(dsn: str, channels: list[str], *, clock: ClockSettings | None = None,
                     at: float | None = None) -> None:
    """Opens and starts a Tally game of ann and bob in each channel (the processes find them in the database)."""
    store = await Store.open(dsn)
    tables = Tables(store, clock=(lambda: at) if at is not None else time.time)
    try:
        for n, channel in enumerate(channels):
            await tables.create(channel_id=channel, guild_id=str(n % 7), game="tally", creator=ANN, options=BIG,
                                clock=clock)
            await tables.join(channel, BOB)
            await tables.start(channel, ANN, seed=n + 1)
    finally:
        await store.close()


async def everything(dsn: str) -> dict[str, Any]:
    """Reads back the log, the outbox and the sent announcements."""
    store = await Store.open(dsn)
    try:
        games = await store.db.read(lambda tx: tx.fetch("SELECT id, channel_id, version FROM games ORDER BY id"))
        moves = await store.db.read(lambda tx: tx.fetch(
            "SELECT games.channel_id, seq, interaction_id, origin FROM moves JOIN games ON games.id = moves.game_id"
            " ORDER BY games.channel_id, seq"))
        outbox = await store.db.read(lambda tx: tx.fetch("SELECT id, game_id, delivered_at FROM outbox"))
        sent = await store.db.read(lambda tx: tx.fetch(
            "SELECT outbox_id, game_id, owner, notice, first_line FROM sent_log ORDER BY outbox_id"))
    finally:
        await store.close()
    log: dict[str, list[Any]] = defaultdict(list)
    for m in moves:
        log[m["channel_id"]].append(m)
    return {"games": games, "log": log, "outbox": outbox, "sent": sent}


def assert_each_announcement_sent_once(state: dict[str, Any]) -> None:
    counts = Counter(r["outbox_id"] for r in state["sent"])
    assert [r["id"] for r in state["outbox"] if r["delivered_at"] is None] == []  # none left pending
    assert {oid for oid, n in counts.items() if n > 1} == set()  # none sent twice
    assert set(counts) == {r["id"] for r in state["outbox"]}  # each sent (none given up or skipped)


async def test_three_processes_play_100_channels_at_once_and_no_move_is_lost_or_doubled(dsn: str) -> None:
    channels = [f"c{n}" for n in range(100)]
    await open_games(dsn, channels)
    moves = 5
    runs = [await spawn(dsn, f"w{k}", "--channels", ",".join(channels), "--moves", str(moves), "--sweep")
            for k in range(3)]
    runs = list(await asyncio.gather(*(finish(r) for r in runs)))

    acks = [a for r in runs for a in r.of("ack")]
    refusals = [f for r in runs for f in r.of("refused")]
    assert len(acks) + len(refusals) == 3 * len(channels) * moves  # every attempt was told one or the other
    for refusal in refusals:  # each in one clear sentence
        assert any(p.match(refusal["message"]) for p in CLEAR_REFUSALS), refusal
    state = await everything(dsn)
    by_channel: dict[str, set[str]] = defaultdict(set)
    for a in acks:
        by_channel[a["ack"]].add(a["interaction"])
    assert len({a["interaction"] for a in acks}) == len(acks)
    for game in state["games"]:
        log = state["log"][game["channel_id"]]
        assert [m["seq"] for m in log] == list(range(1, game["version"] + 1))  # no gap, no double
        assert {m["interaction_id"] for m in log} == by_channel[game["channel_id"]]  # told ⇔ happened
    versions = Counter((a["ack"], a["version"]) for a in acks)
    assert max(versions.values()) == 1  # no two processes were told they played the same move
    assert sum(1 for c in channels if len({a["interaction"].split(":")[0] for a in acks if a["ack"] == c}) > 1) > 50
    assert_each_announcement_sent_once(state)


async def test_each_due_deadline_is_fired_once_and_each_announcement_sent_once_by_three_processes(
    dsn: str,
) -> None:
    start = time.time()
    timeouts = [f"t{n}" for n in range(40)]
    reminders = [f"r{n}" for n in range(40)]
    await open_games(dsn, timeouts, clock=ClockSettings(HOUR, 2 * HOUR, "skip"), at=start)
    await open_games(dsn, reminders, clock=ClockSettings(2 * HOUR, 10 * HOUR, "skip"), at=start)
    later = str(3 * HOUR)  # past every timeout of the first kind, and the first reminder of the second
    runs = [await spawn(dsn, f"k{k}", "--tick", "--sweep", "--offset", later) for k in range(3)]
    runs = list(await asyncio.gather(*(finish(r) for r in runs)))

    state = await everything(dsn)
    assert sum(r.of("done")[0].get("deadlines", 0) for r in runs) == len(timeouts) + len(reminders)
    channel_of = {g["id"]: g["channel_id"] for g in state["games"]}
    told: dict[str, list[Any]] = defaultdict(list)
    for s in state["sent"]:
        told[channel_of[s["game_id"]]].append(s)
    for channel in timeouts:
        assert [(m["seq"], m["origin"]) for m in state["log"][channel]] == [(1, "clock")]  # skipped once
        assert [s["first_line"] for s in told[channel] if "time ran out" in (s["first_line"] or "")] == [
            "⏰ ann's time ran out (2 h without a move): ann has the turn skipped by the clock (add 1)."]
    for channel in reminders:
        assert state["log"][channel] == []
        assert [s["notice"] for s in told[channel]].count("reminder") == 1
    assert len({s["owner"] for s in state["sent"]}) > 1  # the processes really shared the work
    assert_each_announcement_sent_once(state)


async def test_a_process_killed_mid_move_loses_nothing_acknowledged_and_another_delivers_its_announcements(
    dsn: str,
) -> None:
    channels = [f"k{n}" for n in range(20)]
    await open_games(dsn, channels)
    doomed = await spawn(dsn, "doomed", "--channels", ",".join(channels), "--moves", "50", "--deliver", "hang",
                         "--lease", "1.5")
    await read_until(doomed, 60)
    doomed.process.send_signal(signal.SIGKILL)  # mid-move: its tasks are between commits, and in them
    await doomed.process.wait()
    assert doomed.process.returncode == -signal.SIGKILL

    heir = await finish(await spawn(dsn, "heir", "--sweep", "--sweep-within", "60", "--lease", "1.5"))
    state = await everything(dsn)
    acked = {a["interaction"] for a in doomed.of("ack")}
    logged = {m["interaction_id"] for log in state["log"].values() for m in log}
    assert acked <= logged  # every move a player was told of is in the log
    for game in state["games"]:
        assert [m["seq"] for m in state["log"][game["channel_id"]]] == list(range(1, game["version"] + 1))
    assert {s["owner"] for s in state["sent"]} == {"heir"} and heir.of("done")[0]["swept"] > 0
    assert_each_announcement_sent_once(state)  # the doomed process's claims lapsed; the heir sent it all
