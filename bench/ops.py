#!/usr/bin/env python3
"""Benchmarks two operations figures of the bot on the fake Discord: a restart's catch-up and a 429 storm.

    python bench/ops.py [--channels N] [--rate R] [--seconds T] [--skip-postgres]

Each figure is printed beside its floor, measured in the same run:

- restart to all boards caught up: in ``--channels`` channels an NXS game waits on the step that
  ends a turn; the real bot (``bot.py`` in a child process, ``tests.support.bot_process``) plays
  them all while every board post is held, is SIGKILLed once each is held, and is started again.
  Timed from the restarted process being ready to every channel showing its new board: on
  PostgreSQL, where the dead process's claims on the channels last their lease
  (``host.deliverer.LEASE``), against a SQLite file, which has no claims (the floor).
  ``--skip-postgres`` (or no PostgreSQL server binaries) leaves out the PostgreSQL run;
- deliveries through a 429 storm: Discord allows ``--rate`` message requests a second (a token
  bucket over ``POST /channels/{channel_id}/messages`` and ``PATCH .../messages/{message_id}``,
  empty when the storm begins; every request over it is answered 429 with ``retry_after``
  1/R) while moves are played without pause in 4 Tally channels for ``--seconds``. The bot runs
  in this process, as ``tests/discord/tablehost/test_storms.py`` runs it, because Tally (whose
  every move posts a board whose "Last turn" names the running total) exists only in-process;
  it keeps the production pace and waits (edits at most once a second per channel, Discord's
  waits, its own) and tells a player after 1 s that Discord is busy. Printed: the message
  requests let through per second against the rate allowed (the use of what Discord allowed),
  moves played, boards shown per second while the storm lasted, 429s served, how long the
  backlog took to drain afterwards, and whether every move's board was shown exactly once.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pytest
from aiohttp import web

from cogs.client import Tablehost
from engines import KITS
from host.deliverer import LEASE
from host.store import Store
from host.tables import Tables
from tests.discord.tablehost.test_restart_catch_up import turn_end
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.faults import CREATE_MESSAGE, Fault
from tests.fakediscord.fixtures import HEARTBEAT_INTERVAL, _refuse_network
from tests.fakediscord.recorder import SentMessage
from tests.fakediscord.server import FakeDiscord
from tests.support.bot_process import BotProcess
from tests.support.tally import KIT, Tally

EDIT_MESSAGE = "PATCH /channels/{channel_id}/messages/{message_id}"
STORM_CHANNELS = 4
BUSY_AFTER = 1.0
"""Seconds a player waits for their board before being told that Discord is busy (``TABLEHOST_BUSY_AFTER``)."""
CATCH_UP_LIMIT = 2 * LEASE + 30.0
"""Seconds to wait for a restarted process to show every board before giving up."""
DRAIN_LIMIT = 60.0
"""Seconds to wait for the storm's backlog to be delivered once it is over."""


def fresh_fake() -> FakeDiscord:
    """Returns a fake Discord as the tests' fixture makes it (not started)."""
    return FakeDiscord(heartbeat_interval=HEARTBEAT_INTERVAL)


# figure 1: restart to all boards caught up

async def catch_up(db: str, workdir: Path, channels: int) -> tuple[float, list[str]]:
    """Kills the bot with every channel's new board held and restarts it; returns the seconds from the
    restarted process being ready to every new board shown, and the error lines the bot logged."""
    fake = fresh_fake()
    names = [f"table-{n}" for n in range(channels)]
    for name in names:
        fake.add_channel(name)
    await fake.start()
    bot = BotProcess(fake, db_path=db, workdir=workdir, env={"TABLEHOST_THREADS": "0"})
    try:
        await bot.start()
        dt = bot.test
        ends = dict(zip(names, await asyncio.gather(*(turn_end(dt, name) for name in names)), strict=True))
        before = {name: len(dt.messages(name)) for name in names}
        dt.faults.hold(where="channel", times=None)
        playing = [asyncio.create_task(dt.slash("game", "play", user=player, move=move, channel=name,
                                                wait_quiet=False, timeout=CATCH_UP_LIMIT))
                   for name, (player, move) in ends.items()]
        held = [await dt.faults.held(timeout=30) for _ in names]
        if len({h.channel_id for h in held}) != channels:
            raise RuntimeError(f"held {len(held)} posts in only {len({h.channel_id for h in held})} channels")
        await bot.kill()
        for request in held:
            await request.finished(timeout=5)
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
        dt.faults.clear()
        await bot.start(bot_args=[])
        ready = time.monotonic()
        while not all(any(m.files for m in dt.messages(name)[before[name]:]) for name in names):
            if time.monotonic() - ready > CATCH_UP_LIMIT:
                late = [name for name in names if not any(m.files for m in dt.messages(name)[before[name]:])]
                raise RuntimeError(f"no new board within {CATCH_UP_LIMIT:.0f} s in {late}")
            await asyncio.sleep(0.02)
        return time.monotonic() - ready, bot.errors()
    finally:
        await bot.close()
        await fake.close()


async def restart_figure(folder: Path, args: argparse.Namespace) -> None:
    """Prints the catch-up time on PostgreSQL beside that on a SQLite file."""
    from tests.support.postgres import PostgresServer, PostgresUnavailable, make_root

    print(f"restart to all boards caught up (NXS, {args.channels} channels, each new board held, SIGKILL,"
          f" restart; from ready to every board shown; lease {LEASE:g} s)")
    floor, errors = await catch_up(str(folder / "catch-up.db"), folder / "sqlite-bot", args.channels)
    pg: float | None = None
    why = "--skip-postgres"
    if not args.skip_postgres:
        try:
            server = PostgresServer.start(make_root())
        except PostgresUnavailable as err:
            why = err.reason
        else:
            try:
                pg, pg_errors = await catch_up(await server.create_database(), folder / "pg-bot", args.channels)
                errors += pg_errors
            finally:
                server.stop()
    if pg is None:
        print(f"  PostgreSQL: not measured ({why}) | SQLite file (no claims, the floor) {floor:6.2f} s")
    else:
        print(f"  PostgreSQL {pg:6.2f} s | SQLite file (no claims, the floor) {floor:6.2f} s | ratio"
              f" {pg / floor:5.1f}x | lease {LEASE:g} s")
    if errors:
        print(f"  the bot logged {len(errors)} error lines, the first: {errors[0].strip()}")


# figure 2: deliveries through a 429 storm

@dataclass
class TokenBucket:
    """Discord allowing ``rate`` requests a second, ``capacity`` at most at once; called by the fake's
    rate-limit switch for each message request: False lets it through, True answers 429."""

    rate: float
    capacity: float
    tokens: float = 0.0
    stamp: float = field(default_factory=time.monotonic)
    passed: int = 0
    refused: int = 0

    def __call__(self, request: web.Request) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.passed += 1
            return False
        self.refused += 1
        return True


@dataclass
class Storm:
    """What a storm run saw: each move's (channel, move, reply), the switches, the bucket and the times."""

    replies: list[tuple[str, str, str]]
    faults: list[Fault]
    bucket: TokenBucket
    seconds: float
    boards_during: int
    drained_after: float
    shown: dict[str, list[int]]
    """The totals the channel's boards named in their "Last turn", in order (one per move shown)."""


def totals_shown(messages: list[SentMessage]) -> list[int]:
    """Returns the running totals that Tally boards name in their "Last turn" field, in order."""
    totals = []
    for message in messages:
        for embed in message.embeds:
            for f in embed.get("fields") or []:
                value = str(f.get("value"))
                if f.get("name") == "Last turn" and " adds " in value:
                    totals.append(int(value.rsplit(" ", 1)[1].rstrip(".")))
    return totals


async def play_through(dt: DiscordTest, names: list[str], seconds: float) -> list[tuple[str, str, str]]:
    """Plays Ann's and Bob's moves in turn in every channel for ``seconds``; returns (channel, move, reply)."""
    replies: list[tuple[str, str, str]] = []

    async def one(name: str) -> None:
        end, n = time.monotonic() + seconds, 0
        while time.monotonic() < end:
            move = f"add {n % 2 + 1}"
            record = await dt.slash("game", "play", user=("ann", "bob")[n % 2], move=move, channel=name,
                                    wait_quiet=False, timeout=30)
            replies.append((name, move, record.content))
            n += 1

    await asyncio.gather(*(one(name) for name in names))
    return replies


async def settled(bot: Tablehost, tables: Tables, timeout: float) -> None:
    """Waits until nothing is pending in the outbox and no delivery is running in the background."""
    deadline = time.monotonic() + timeout
    while bot.background or await tables.store.pending():
        if time.monotonic() > deadline:
            raise RuntimeError(f"announcements still pending {timeout:.0f} s after the storm")
        await asyncio.sleep(0.05)


async def storm(folder: Path, rate: float, seconds: float) -> Storm:
    """Runs the bot in this process through a storm of 429s over the message routes; returns what it saw."""
    fake = fresh_fake()
    names = [f"storm-{n}" for n in range(STORM_CHANNELS)]
    for name in names:
        fake.add_channel(name)
    await fake.start()
    store = await Store.open(str(folder / "storm.db"))
    tables = Tables(store)
    bot = Tablehost(tables=tables, threads_by_default=False, busy_after=BUSY_AFTER)
    dt = DiscordTest(fake, timeout=30)
    KITS.add(KIT)
    try:
        with fake.patch_discord():
            await dt.start_bot(lambda: bot)
            for name in names:
                await dt.slash("game", "new", user="ann", game=Tally.NAME, channel=name, options="target=100000")
                await dt.slash("game", "join", user="bob", channel=name)
                await dt.slash("game", "start", user="ann", channel=name)
            bucket = TokenBucket(rate=rate, capacity=max(rate, 1.0))
            switches = [fake.faults.rate_limit(route, retry_after=1 / rate, times=None, match=bucket)
                        for route in (CREATE_MESSAGE, EDIT_MESSAGE)]
            began = bucket.stamp = time.monotonic()
            replies = await play_through(dt, names, seconds)
            boards_during = sum(len(totals_shown(dt.messages(name))) for name in names)
            for switch in switches:
                fake.faults.armed.remove(switch)  # the storm is over; the bucket's counts stay as they were
            lasted = time.monotonic() - began
            await settled(bot, tables, DRAIN_LIMIT)
            drained = time.monotonic() - began - lasted
            shown = {name: totals_shown(dt.messages(name)) for name in names}
            return Storm(replies, switches, bucket, lasted, boards_during, drained, shown)
    finally:
        KITS.remove(Tally.NAME)
        await dt.close()
        await store.close()
        await fake.close()


def once_each(run: Storm) -> str:
    """Tells whether every move played is on exactly one board, in order, or what is missing or doubled."""
    problems = []
    for name, totals in run.shown.items():
        played = sum(1 for channel, _, _ in run.replies if channel == name)
        doubled = len(totals) - len(set(totals))
        missing = played - len(set(totals))
        if missing or doubled or totals != sorted(totals):
            order = "" if totals == sorted(totals) else ", out of order"
            problems.append(f"{name}: {played} played, {missing} missing, {doubled} doubled{order}")
    return "; ".join(problems) or f"all {len(run.replies)} moves shown once"


async def storm_figure(folder: Path, args: argparse.Namespace) -> None:
    """Prints the message requests let through per second during a 429 storm beside the rate Discord allowed."""
    print(f"deliveries through a 429 storm (Tally, bot in-process, {STORM_CHANNELS} channels, moves played for"
          f" {args.seconds:g} s; Discord allows {args.rate:g} message requests/s, retry_after {1 / args.rate:.3f} s)")
    run = await storm(folder, args.rate, args.seconds)
    through = run.bucket.passed / run.seconds
    served = sum(f.hits for f in run.faults)
    busy = sum(1 for _, _, reply in run.replies if "Discord is busy" in reply)
    print(f"  message requests let through {through:5.2f}/s | allowed {args.rate:5.2f}/s | ratio"
          f" {through / args.rate:4.2f}  (storm lasted {run.seconds:.1f} s)")
    print(f"  moves played {len(run.replies)} ({len(run.replies) / run.seconds:.2f}/s, {busy} players told"
          f" Discord is busy) | boards shown during the storm {run.boards_during / run.seconds:.2f}/s"
          f" ({run.bucket.passed / max(run.boards_during, 1):.1f} requests each) | 429s served {served}"
          f" | backlog delivered {run.drained_after:.1f} s after")
    print(f"  {once_each(run)}")


class _Errors(logging.Handler):
    """Counts the ERROR records logged in this process (the in-process bot's)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


async def main(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="tablehost-ops-"))
    errors = _Errors()
    logging.getLogger().addHandler(errors)  # and no warning of a storm's retries printed on stderr
    monkeypatch = pytest.MonkeyPatch()
    _refuse_network(monkeypatch)
    print("Tablehost operations: restart catch-up and a 429 storm, the real bot on the fake Discord")
    try:
        await restart_figure(folder, args)
        await storm_figure(folder, args)
    finally:
        monkeypatch.undo()
    if errors.records:
        print(f"  the in-process bot logged {len(errors.records)} errors, the first: {errors.records[0].getMessage()}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=10, help="NXS channels caught up after the restart")
    parser.add_argument("--rate", type=float, default=5.0, help="message requests/s Discord allows in the storm")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of moves played through the storm")
    parser.add_argument("--skip-postgres", action="store_true", help="catch up on the SQLite file only")
    asyncio.run(main(parser.parse_args()))
