#!/usr/bin/env python3
"""Benchmarks the table service: the cost of one move, throughput across channels, memory per table.

    python bench/host.py [--moves N] [--tables N] [--seconds S] [--channels N] [--no-postgres]

Each figure is printed beside its floor, measured in the same run on the same disk:

- ``Tables.act`` p50/p99 per game (a cached engine: parse, apply, snapshot,
  announcement, one transaction), against a bare aiosqlite transaction with
  the same PRAGMAs writing a snapshot of the same size and a log row;
- moves/s with 1, 10 and 100 channels playing at once (XISK), against bare
  transactions/s on one connection;
- the process's RSS after ``--tables`` started XISK tables each took a move,
  against the RSS before the first (the engine cache keeps its default size);
- moves/s of whole processes (``tests/support/host_worker.py``) playing XISK in ``--channels``
  channels: one process on SQLite, then one and three processes on one PostgreSQL server
  (each process its own share of the channels, as shards have), against bare PostgreSQL
  transactions/s on one connection. The server runs on the same disk as the SQLite file,
  with its own fsync and synchronous commits on (``--no-postgres`` skips this part).

Moves are scripted beforehand from seeded games, so only the host's own work is timed.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiosqlite

from host.store import Store
from host.tables import Person, Tables
from tests.support.host_worker import script

PEOPLE = [Person("1001", "ann"), Person("1002", "bob")]
ROOT = Path(__file__).resolve().parents[1]


async def open_table(tables: Tables, channel: str, game: str, seed: int) -> None:
    await tables.create(channel_id=channel, guild_id="1", game=game, creator=PEOPLE[0], options={})
    await tables.join(channel, PEOPLE[1])
    await tables.start(channel, PEOPLE[0], seed=seed)


def ids() -> dict[str, str]:
    return {p.name: p.id for p in PEOPLE}


async def bare_transactions(path: str, snapshot: str, count: int) -> list[float]:
    """Times ``count`` bare transactions (BEGIN IMMEDIATE, UPDATE snapshot, INSERT log row, COMMIT)."""
    db = await aiosqlite.connect(path, isolation_level=None)
    for pragma in ("foreign_keys = ON", "busy_timeout = 5000", "journal_mode = WAL", "synchronous = FULL"):
        await db.execute(f"PRAGMA {pragma}")
    await db.execute("CREATE TABLE g (id INTEGER PRIMARY KEY, snapshot TEXT, version INTEGER)")
    await db.execute("CREATE TABLE m (g INTEGER, seq INTEGER, move TEXT, PRIMARY KEY (g, seq))")
    await db.execute("INSERT INTO g VALUES (1, '', 0)")
    times = []
    for v in range(1, count + 1):
        start = time.perf_counter()
        await db.execute("BEGIN IMMEDIATE")
        await db.execute("UPDATE g SET snapshot = ?, version = ? WHERE id = 1 AND version = ?", (snapshot, v, v - 1))
        await db.execute("INSERT INTO m VALUES (1, ?, ?)", (v, "place alaska 1"))
        await db.execute("COMMIT")
        times.append(time.perf_counter() - start)
    await db.close()
    return times


def pct(values: list[float], p: float) -> float:
    return sorted(values)[min(len(values) - 1, int(len(values) * p))] * 1000


async def act_latency(folder: Path, game: str, moves: int) -> tuple[list[float], int]:
    store = await Store.open(str(folder / f"act-{game}.db"))
    tables = Tables(store)
    await open_table(tables, "1", game, seed=11)
    names, times = ids(), []
    for player, move in script(game, 11, moves):
        start = time.perf_counter()
        await tables.act("1", names[player], move)
        times.append(time.perf_counter() - start)
    size = len((await store.active_game("1") or await store.latest_game("1")).snapshot or "")  # type: ignore[union-attr]
    await store.close()
    return times, size


async def throughput(folder: Path, channels: int, seconds: float) -> tuple[float, int]:
    store = await Store.open(str(folder / f"many-{channels}.db"))
    tables = Tables(store)
    await asyncio.gather(*(open_table(tables, str(c), "xisk", seed=c) for c in range(channels)))
    scripts = {c: script("xisk", c, 400) for c in range(channels)}
    names, done = ids(), 0
    deadline = time.perf_counter() + seconds

    async def play(c: int) -> None:
        nonlocal done
        for player, move in scripts[c]:
            if time.perf_counter() > deadline:
                return
            await tables.act(str(c), names[player], move)
            done += 1

    start = time.perf_counter()
    await asyncio.gather(*(play(c) for c in range(channels)))
    elapsed = time.perf_counter() - start
    await store.close()
    return done / elapsed, done


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def memory(folder: Path, count: int) -> tuple[int, int, int]:
    store = await Store.open(str(folder / f"rss-{count}.db"))
    tables = Tables(store)
    first = script("xisk", 5, 1)[0]
    gc.collect()
    floor = rss_kib()
    for c in range(count):
        await open_table(tables, str(c), "xisk", seed=5)
        await tables.act(str(c), ids()[first[0]], first[1])
    gc.collect()
    used = rss_kib()
    cached = tables.cached
    await store.close()
    return floor, used, cached


async def processes(target: str, count: int, channels: int, seconds: float) -> tuple[float, int]:
    """Runs ``count`` worker processes on ``target``, each playing its share of the channels; returns moves/s."""
    store = await Store.open(target)
    tables = Tables(store)
    names = [f"x{c}" for c in range(1, channels + 1)]
    for c, name in enumerate(names, 1):
        await open_table(tables, name, "xisk", seed=c)
    await store.close()
    start_at = time.time() + 4.0  # every process has imported and connected by then
    shares = [names[k::count] for k in range(count)]
    workers = [
        await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.support.host_worker", target, "--name", f"b{k}", "--deliver", "none",
            "--channels", ",".join(share), "--xisk", str(seconds), "--start-at", str(start_at),
            cwd=ROOT, stdout=asyncio.subprocess.PIPE,
        )
        for k, share in enumerate(shares)
    ]
    done = 0
    for w in workers:
        out, _ = await w.communicate()
        done += next(json.loads(line)["moves"] for line in out.decode().splitlines() if '"done"' in line)
    return done / seconds, done


async def bare_postgres(dsn: str, snapshot: str, count: int) -> float:
    """Returns bare transactions/s on one connection (UPDATE a snapshot, INSERT a log row, COMMIT)."""
    import asyncpg

    conn = await asyncpg.connect(dsn)
    await conn.execute("CREATE TABLE g (id BIGINT PRIMARY KEY, snapshot TEXT, version BIGINT);"
                       "CREATE TABLE m (g BIGINT, seq BIGINT, move TEXT, PRIMARY KEY (g, seq));"
                       "INSERT INTO g VALUES (1, '', 0)")
    start = time.perf_counter()
    for v in range(1, count + 1):
        async with conn.transaction():
            await conn.execute("UPDATE g SET snapshot = $1, version = $2 WHERE id = 1 AND version = $3",
                               snapshot, v, v - 1)
            await conn.execute("INSERT INTO m VALUES (1, $1, $2)", v, "place alaska 1")
    elapsed = time.perf_counter() - start
    await conn.close()
    return count / elapsed


async def scale_out(folder: Path, args: argparse.Namespace) -> None:
    """Prints moves/s of whole processes on SQLite and on PostgreSQL (1 and 3 processes)."""
    from tests.support.postgres import PostgresServer, PostgresUnavailable, make_root

    print(f"moves/s of whole processes (XISK, {args.channels} channels, {args.seconds:g} s), beside bare"
          " transactions/s on one connection")
    rate, done = await processes(str(folder / "processes.db"), 1, args.channels, args.seconds)
    bare = await bare_transactions(str(folder / "bare-processes.db"), "x" * 4000, 2000)
    floor = len(bare) / sum(bare)
    print(f"  SQLite      1 process:   {rate:7,.0f} moves/s ({done} moves) | bare {floor:7,.0f}/s | ratio"
          f" {rate / floor:4.2f}")
    try:
        server = PostgresServer.start(make_root(on_disk=True), durable=True)
    except PostgresUnavailable as err:
        print(f"  PostgreSQL: not measured ({err.reason})")
        return
    try:
        floor = await bare_postgres(await server.create_database(), "x" * 4000, 2000)
        for count in (1, 3):
            rate, done = await processes(await server.create_database(), count, args.channels, args.seconds)
            print(f"  PostgreSQL  {count} process{'es' if count > 1 else '  '}: {rate:7,.0f} moves/s ({done} moves)"
                  f" | bare {floor:7,.0f}/s | ratio {rate / floor:4.2f}")
    finally:
        server.stop()


async def main(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="tablehost-bench-"))
    print(f"Tables.act against a bare transaction ({args.moves} moves each, WAL, synchronous=FULL)")
    for game in ("xisk", "nxs", "nexo"):
        times, size = await act_latency(folder, game, args.moves)
        bare = await bare_transactions(str(folder / f"bare-{game}.db"), "x" * size, len(times))
        p50, p99, b50, b99 = pct(times, 0.5), pct(times, 0.99), pct(bare, 0.5), pct(bare, 0.99)
        print(
            f"  {game:5} act p50 {p50:6.3f} ms  p99 {p99:6.3f} ms | bare p50 {b50:6.3f} ms  p99 {b99:6.3f} ms"
            f" | ratio p50 {p50 / b50:4.2f}x  p99 {p99 / b99:4.2f}x  ({len(times)} moves, snapshot {size} B)"
        )
    bare = await bare_transactions(str(folder / "bare-rate.db"), "x" * 4000, 2000)
    floor = len(bare) / sum(bare)
    print(f"moves/s (XISK, {args.seconds:g} s each) against bare transactions/s on one connection ({floor:,.0f}/s)")
    for channels in (1, 10, 100):
        rate, done = await throughput(folder, channels, args.seconds)
        print(f"  {channels:3} channels: {rate:7,.0f} moves/s ({done} moves) | ratio {rate / floor:4.2f}")
    floor_kib, used_kib, cached = await memory(folder, args.tables)
    print(
        f"RSS: {used_kib / 1024:.1f} MiB after {args.tables} XISK tables ({cached} engines cached)"
        f" | floor {floor_kib / 1024:.1f} MiB | ratio {used_kib / floor_kib:.2f}"
        f" | {(used_kib - floor_kib) / args.tables:.1f} KiB per table"
    )
    if not args.no_postgres:
        await scale_out(folder, args)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=400, help="moves per game for the latency figures")
    parser.add_argument("--tables", type=int, default=1000, help="tables for the memory figure")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per throughput run")
    parser.add_argument("--channels", type=int, default=30, help="channels for the whole-process runs")
    parser.add_argument("--no-postgres", action="store_true", help="skip the whole-process runs")
    asyncio.run(main(parser.parse_args()))
