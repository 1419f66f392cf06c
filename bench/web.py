#!/usr/bin/env python3
"""Benchmarks the web table: live updates to many open pages, memory per open stream, page weight.

    python bench/web.py [--streams 1000] [--games 50] [--moves 200]

Each figure is printed beside its floor, measured in the same run:

- commit → page update: the time from a move's commit (the return of ``Tables.act``) until each
  open event stream of its game has its ``change``, p50/p99 over every stream and move, with
  ``--streams`` streams open on ``--games`` XISK games in one server process (goal p99 ≤ 500 ms),
  against the same moves heard by a single stream. The streams are read by a second process, so
  the server's loop has only its own work; both read the same monotonic clock.
- memory per open stream: the server's RSS growth per stream once they are all open, against the
  growth per connection of a bare aiohttp streaming handler that only waits (the same client).
- first-load page weight without the board picture: page.html, table.js, table.css and game.json as
  transferred (gzip, as browsers ask) for a finished XISK game of three (goal ≤ 100 KB), against the
  game's moves alone in plain notation, gzipped.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import gzip
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
from aiohttp import web

from engines.core.ai import think
from host.store import Store
from host.tables import Person, Tables
from host.web import HttpServer
from host.web_links import WebLinks
from web.app import WebTable

PEOPLE = [Person("1001", "Ann"), Person("1002", "Bob"), Person("1003", "Cy")]
SEED = "be" * 32
LATENCY_GOAL_MS = 500.0
WEIGHT_GOAL_KB = 100.0


def rss() -> int:
    """Returns this process's resident memory in bytes."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- the reading process -------------------------------------------------------------------------


async def client(urls: list[str]) -> None:
    """Opens one stream per address, says "ready", and once stdin closes prints each change heard as JSON."""
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
        opened = asyncio.Event()
        left = [len(urls)]
        heard: list[list[Any]] = []  # printed at the end: a full pipe would stall the reading meanwhile

        async def read(i: int, url: str) -> None:
            async with http.get(url) as reply:
                left[0] -= 1
                if not left[0]:
                    opened.set()
                event = None
                async for raw in reply.content:
                    line = raw.decode().rstrip("\n")
                    if line.startswith("event: "):
                        event = line[7:]
                    elif line.startswith("data: ") and event == "change":
                        heard.append([i, json.loads(line[6:])["version"], time.monotonic()])

        tasks = [asyncio.create_task(read(i, u)) for i, u in enumerate(urls)]
        await opened.wait()
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until the bench closes it
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for entry in heard:
            print(json.dumps(entry))


# -- the server process ---------------------------------------------------------------------------


async def start_reader(urls: list[str]) -> subprocess.Popen[str]:
    """Starts the reading process on ``urls`` and waits until every stream is open."""
    reader = subprocess.Popen([sys.executable, __file__, "--client"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)
    assert reader.stdin is not None and reader.stdout is not None
    reader.stdin.write(json.dumps(urls) + "\n")
    reader.stdin.flush()
    line = await asyncio.to_thread(reader.stdout.readline)
    if line.strip() != "ready":
        raise RuntimeError(f"the reader did not open its streams: {line!r}")
    return reader


async def stop_reader(reader: subprocess.Popen[str]) -> list[tuple[int, int, float]]:
    """Ends the reading process and returns what it heard: (stream, version, when)."""
    assert reader.stdin is not None and reader.stdout is not None
    reader.stdin.close()
    out = await asyncio.to_thread(reader.stdout.read)
    await asyncio.to_thread(reader.wait)
    return [tuple(json.loads(line)) for line in out.splitlines() if line.startswith("[")]  # type: ignore[misc]


async def play(tables: Tables, channels: list[str], moves: int, rnd: random.Random,
               commits: dict[tuple[str, int], float], *, every: float) -> None:
    """Plays ``moves`` bot moves round the channels, one each ``every`` seconds, noting each commit's time."""
    ids = {p.name: p.id for p in PEOPLE}
    for k in range(moves):
        channel = channels[k % len(channels)]
        table = await tables.table(channel)
        game = table.game
        assert game is not None and not game.is_over
        [player] = game.to_act()
        move = think(game, player, "hard", rnd, budget=0.05)
        await tables.act(channel, ids[player], move)
        commits[(channel, (await tables.table(channel)).row.version)] = time.monotonic()
        await asyncio.sleep(every)


async def latencies(tables: Tables, web_table: WebTable, links: WebLinks, channels: list[str], per_game: int,
                    moves: int, seed: int) -> tuple[list[float], int]:
    """Returns every commit → change latency (ms) with ``per_game`` streams on each channel's game."""
    rows = {c: (await tables.table(c)).row.id for c in channels}
    urls, stream_channel = [], []
    for c in channels:
        for _ in range(per_game):
            urls.append(f"{links.url(rows[c])}/events")
            stream_channel.append(c)
    reader = await start_reader(urls)
    while web_table.hub.streams < len(urls):
        await asyncio.sleep(0.05)
    commits: dict[tuple[str, int], float] = {}
    await play(tables, channels, moves, random.Random(seed), commits, every=0.05)
    await asyncio.sleep(1.0)
    heard = await stop_reader(reader)
    out = [(when - commits[(stream_channel[i], version)]) * 1000 for i, version, when in heard
           if (stream_channel[i], version) in commits]
    return out, len(urls) * moves // len(channels)


async def memory_per_stream(links: WebLinks, web_table: WebTable, game_id: int, count: int,
                            base: str) -> tuple[float, float]:
    """Returns the RSS growth per open stream: the web table's, and a bare waiting handler's."""
    out = []
    for url in (f"{links.url(game_id)}/events", f"{base}/bench/idle"):
        gc.collect()
        before = rss()
        reader = await start_reader([url] * count)
        await asyncio.sleep(0.5)
        gc.collect()
        out.append((rss() - before) / count)
        await stop_reader(reader)
        await asyncio.sleep(0.5)
    return out[0], out[1]


async def page_weight(http: aiohttp.ClientSession, links: WebLinks, base: str, game_id: int) -> tuple[int, int]:
    """Returns the first load's bytes as transferred (gzip), without the picture, and uncompressed."""
    sent = plain = 0
    page = links.url(game_id)
    for url in (page, f"{base}/static/table.js", f"{base}/static/table.css", f"{page}/game.json"):
        async with http.get(url, headers={"Accept-Encoding": "gzip"}, auto_decompress=False) as reply:
            body = await reply.read()
            sent += len(body)
            plain += len(gzip.decompress(body)) if reply.headers.get("Content-Encoding") == "gzip" else len(body)
    return sent, plain


async def open_xisk(tables: Tables, channel: str, people: list[Person]) -> None:
    await tables.create(channel_id=channel, guild_id="1", game="xisk", creator=people[0], options={})
    for p in people[1:]:
        await tables.join(channel, p)
    await tables.start(channel, people[0])


async def idle(request: web.Request) -> web.StreamResponse:
    """The floor's handler: an open stream that only waits."""
    reply = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await reply.prepare(request)
    with contextlib.suppress(ConnectionResetError, asyncio.CancelledError):
        await reply.write(b"retry: 2000\n\n")
        await asyncio.Event().wait()
    return reply


async def main(args: argparse.Namespace) -> int:
    folder = tempfile.mkdtemp(prefix="bench-web-")
    store = await Store.open(str(Path(folder) / "tablehost.db"))
    tables = Tables(store, seeds=lambda: SEED, join_ids=False)
    links = WebLinks(b"bench-web-secret-0123456789abcdef", "http://127.0.0.1")
    web_table = WebTable(tables, links, per_address=args.streams * 2 + 10)
    server = HttpServer({}, refresh=None)
    server.mounts.append(lambda app: app.router.add_get("/bench/idle", idle))
    server.mounts.append(web_table.mount)
    await server.start("127.0.0.1", 0)
    base = f"http://127.0.0.1:{server.port}"
    links.public_url = base
    failed = False
    try:
        channels = [str(9000 + i) for i in range(args.games)]
        for c in channels:
            await open_xisk(tables, c, PEOPLE[:2])
        for c in channels:  # each page's timeline is built once, as its first visitor would
            await web_table.timeline((await tables.table(c)).row)
        print(f"Web table: {args.streams} open streams on {args.games} XISK games, {args.moves} moves at 20 a second")
        floor, _ = await latencies(tables, web_table, links, channels[:1], 1, max(20, args.moves // 5), seed=1)
        many, expected = await latencies(tables, web_table, links, channels, args.streams // args.games, args.moves,
                                         seed=2)
        p50, p99, floor_p99 = percentile(many, 0.5), percentile(many, 0.99), percentile(floor, 0.99)
        print(f"  commit -> page update p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  max {max(many):6.1f} ms "
              f"(goal p99 <= {LATENCY_GOAL_MS:.0f}) over {len(many)} of {expected} updates; "
              f"floor one stream p50 {percentile(floor, 0.5):.1f} ms p99 {floor_p99:.1f} ms, "
              f"ratio {p99 / max(floor_p99, 0.001):.1f}x")
        failed |= p99 > LATENCY_GOAL_MS or len(many) < expected

        game_id = (await tables.table(channels[0])).row.id
        ours, bare = await memory_per_stream(links, web_table, game_id, args.streams, base)
        print(f"  memory per open stream {ours / 1024:6.1f} KiB over {args.streams} streams; "
              f"floor a bare aiohttp stream {bare / 1024:.1f} KiB, ratio {ours / max(bare, 1):.1f}x")

        await open_xisk(tables, "9999", PEOPLE)
        rnd, ids = random.Random(8), {p.name: p.id for p in PEOPLE}
        while True:
            game = (await tables.table("9999")).game
            assert game is not None
            if game.is_over:
                break
            [player] = game.to_act()
            await tables.act("9999", ids[player], think(game, player, "hard", rnd, budget=0.05))
        finished = (await tables.table("9999")).row
        moves = await store.moves(finished.id)
        names = {p.id: p.name for p in PEOPLE}
        notation = gzip.compress("\n".join(f"{names[m.player_id]}: {m.move}" for m in moves).encode())
        async with aiohttp.ClientSession() as http:
            sent, plain = await page_weight(http, links, base, finished.id)
        print(f"  first load without the picture {sent / 1024:6.1f} KB sent ({plain / 1024:.1f} KB unpacked) for a "
              f"finished game of {len(moves)} moves (goal <= {WEIGHT_GOAL_KB:.0f} KB); floor its moves in plain "
              f"notation gzipped {len(notation) / 1024:.1f} KB, ratio {sent / len(notation):.1f}x")
        failed |= sent / 1024 > WEIGHT_GOAL_KB
    finally:
        await server.stop()
        await store.close()
    print("every goal met" if not failed else "a goal was missed")
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--client"]:
        asyncio.run(client(json.loads(sys.stdin.readline())))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=200)
    sys.exit(asyncio.run(main(parser.parse_args())))
