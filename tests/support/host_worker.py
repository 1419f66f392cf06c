"""One process of a multi-process host: a table service, a deliverer and a timekeeper on a shared database.

Tests and ``bench/host.py`` start several of these on one PostgreSQL database, as several
shard processes of the bot would be, and read what each did from its stdout (JSON lines)::

    python -m tests.support.host_worker DB --name w1 --channels c0,c1 --moves 20      # play Tally moves
    python -m tests.support.host_worker DB --name w2 --tick --offset 10800              # handle deadlines
    python -m tests.support.host_worker DB --name w3 --sweep                            # deliver what is left
    python -m tests.support.host_worker DB --name b1 --channels x1,x2 --xisk 5 --start-at T  # bench: XISK moves

Lines printed (each flushed at once):

- ``{"ack": channel, "interaction": id, "version": v}``: a move committed, as a player would be told;
- ``{"refused": channel, "message": text}``: a move refused, with the sentence a player would read;
- ``{"done": name, ...}``: the process finished its work (counts).

Every announcement the deliverer sends is recorded in the table ``sent_log`` (created here),
one row per send, so a test can check that each was sent once. ``--deliver hang`` makes
each send block for ever after claiming its channel (a process that dies mid-delivery);
``--deliver none`` runs no deliverer.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engines import GAMES, KITS, GameError
from host.db import Tx
from host.deliverer import Deliverer
from host.outbox import Outbox
from host.store import Store
from host.table import Refusal
from host.tables import Tables
from host.timekeeper import Timekeeper
from tests.support.tally import KIT as TALLY

PEOPLE = {"ann": "1001", "bob": "1002"}
"""The two players of the benchmark's XISK games (name → user id)."""

SENT_LOG = """CREATE TABLE IF NOT EXISTS sent_log (
    outbox_id BIGINT NOT NULL, game_id BIGINT NOT NULL, channel_id TEXT NOT NULL, owner TEXT NOT NULL,
    notice TEXT, first_line TEXT, at DOUBLE PRECISION NOT NULL)"""


def script(game: str, seed: int, count: int) -> list[tuple[str, str]]:
    """Returns ``count`` (player, move) pairs of a seeded random game of ann and bob (fewer if it ends)."""
    g = GAMES[game].new(list(PEOPLE), seed, {})
    rng, out = random.Random(seed), []
    while len(out) < count and not g.is_over:
        player = g.to_act()[0]
        moves = [m for m in g.legal_moves(player) if m not in {"resign", "concede"}]
        move = rng.choice(moves)
        g.play(player, move)
        out.append((player, move))
    return out


def seed_of(channel: str) -> int:
    """The seed of a benchmark channel's game: its number (``x12`` → 12)."""
    return int(channel.lstrip("x"))


def emit(**fields: Any) -> None:
    """Prints one JSON line for the parent."""
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


class Worker:
    """A table service, a deliverer and a timekeeper over one store, as one bot process has."""

    def __init__(self, store: Store, args: argparse.Namespace) -> None:
        self.store, self.args = store, args
        offset = float(args.offset)
        self.tables = Tables(store, clock=lambda: time.time() + offset)
        self.deliverer = Deliverer(store, self.send, lease=args.lease, owner=args.name, retry_every=0.2)
        self.timekeeper = Timekeeper(self.tables, deliver=self.deliver if args.deliver != "none" else None)
        self.background: set[asyncio.Task[Any]] = set()

    async def send(self, out: Outbox, late: bool) -> None:
        """Records one send of an announcement (or blocks for ever, with ``--deliver hang``)."""
        if self.args.deliver == "hang":
            await asyncio.Event().wait()
        notice = out.notice or ("move" if out.move else None)
        first = out.lines[0] if out.lines else None
        await self.store.db.write(lambda tx: tx.execute(
            "INSERT INTO sent_log (outbox_id, game_id, channel_id, owner, notice, first_line, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            out.id, out.game_id, out.channel_id, self.args.name, notice, first, time.time(),
        ))

    async def deliver(self, out: Outbox) -> None:
        await self.deliverer.deliver(out)

    def deliver_later(self, out: Outbox) -> None:
        """Delivers an announcement in the background, as the bot's fast path does after replying."""
        if self.args.deliver == "none":
            return
        task = asyncio.get_running_loop().create_task(self.deliver(out))
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def play(self, channel: str) -> tuple[int, int]:
        """Plays ``--moves`` Tally moves in a channel as whoever its (possibly stale) copy says must act."""
        acks = refusals = 0
        for n in range(self.args.moves):
            interaction = f"{self.args.name}:{channel}:{n}"
            try:
                table = await self.tables.table(channel)
                assert table.game is not None
                player = table.user_of(table.game.to_act()[0]) or ""
                out = await self.tables.act(channel, player, "add 1", interaction_id=interaction)
            except (Refusal, GameError) as err:
                refusals += 1
                emit(refused=channel, message=str(err))
                continue
            if out.duplicate:
                emit(refused=channel, message="duplicate: " + " ".join(out.lines))
                continue
            acks += 1
            emit(ack=channel, interaction=interaction, version=out.version)
            self.deliver_later(out)
            await asyncio.sleep(0)
        return acks, refusals

    async def bench(self, channels: list[str], seconds: float, start_at: float) -> int:
        """Plays each channel's scripted XISK moves from ``start_at`` for ``seconds``; returns how many."""
        scripts = {c: script("xisk", seed_of(c), 400) for c in channels}
        await asyncio.sleep(max(start_at - time.time(), 0.0))
        deadline, done = start_at + seconds, 0

        async def play(channel: str) -> None:
            nonlocal done
            for player, move in scripts[channel]:
                if time.time() >= deadline:
                    return
                await self.tables.act(channel, PEOPLE[player], move)
                done += 1

        await asyncio.gather(*(play(c) for c in channels))
        return done

    async def tick(self) -> int:
        """Handles deadlines until none is due (by this process's clock); returns the announcements written."""
        written = 0
        while True:
            batch = await self.timekeeper.tick()
            written += len(batch)
            due = await self.timekeeper.clocks.next_due()
            if not batch and (due is None or due > self.tables.clock()):
                return written
            if not batch:
                await asyncio.sleep(0.05)  # another process holds the due ones: wait for its claims

    async def sweep(self, *, within: float) -> int:
        """Sweeps until nothing is pending, or ``within`` seconds passed; returns how many were sent."""
        sent, deadline = 0, time.monotonic() + within
        while time.monotonic() < deadline:
            sent += await self.deliverer.sweep()
            if not await self.store.pending():
                break
            await asyncio.sleep(0.1)
        return sent

    async def settle(self) -> None:
        """Waits for the background deliveries (not with ``--deliver hang``: they never end)."""
        if self.args.deliver == "record" and self.background:
            await asyncio.gather(*self.background, return_exceptions=True)


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db")
    parser.add_argument("--name", default="w")
    parser.add_argument("--channels", default="")
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--tick", action="store_true")
    parser.add_argument("--sweep", action="store_true")
    parser.add_argument("--sweep-within", type=float, default=30.0)
    parser.add_argument("--offset", type=float, default=0.0, help="seconds added to this process's clock")
    parser.add_argument("--lease", type=float, default=30.0, help="seconds a delivery claim lasts")
    parser.add_argument("--deliver", choices=("record", "hang", "none"), default="record")
    parser.add_argument("--xisk", type=float, default=0.0, help="bench: seconds of scripted XISK moves")
    parser.add_argument("--start-at", type=float, default=0.0, help="bench: when to start (seconds since the epoch)")
    args = parser.parse_args(argv)
    KITS.add(TALLY)
    store = await Store.open(args.db, max_size=4) if args.db.startswith("postgres") else await Store.open(args.db)

    async def create_log(tx: Tx) -> None:
        await tx.lock(0x7AB1E4FF)  # several workers start at once
        await tx.execute(SENT_LOG if tx.dialect == "postgres" else SENT_LOG.replace("DOUBLE PRECISION", "REAL"))

    await store.db.write(create_log)
    worker = Worker(store, args)
    emit(ready=args.name)
    counts: dict[str, int] = {}
    channels = [c for c in args.channels.split(",") if c]
    if channels and args.xisk:
        counts["moves"] = await worker.bench(channels, args.xisk, args.start_at)
    elif channels:
        results = await asyncio.gather(*(worker.play(c) for c in channels))
        counts["acks"] = sum(a for a, _ in results)
        counts["refusals"] = sum(r for _, r in results)
    if args.tick:
        counts["deadlines"] = await worker.tick()
    await worker.settle()
    if args.sweep:
        counts["swept"] = await worker.sweep(within=args.sweep_within)
    emit(done=args.name, **counts)
    if args.deliver == "hang":
        await asyncio.Event().wait()  # stay alive, holding the claims, until killed
    for task in worker.background:
        task.cancel()
    with contextlib.suppress(Exception):
        await store.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
