"""A web table served on loopback over a table service, for the web tests (no Discord)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp

from engines.core.ai import think
from host.tables import Person, Tables
from host.web import HttpServer
from host.web_links import WebLinks
from web.app import WebTable

SECRET = b"tablehost-web-test-secret-0123456789"
SEED = "5e" * 32
"""Every table's server seed here, so a game deals alike on every run."""
CHANNEL = "700"
ANN, BOB, CY = Person("2001", "Ann"), Person("2002", "Bob"), Person("2003", "Cy")


@dataclass
class Served:
    """A running web table: its address, its links and a client session."""

    base: str
    links: WebLinks
    web: WebTable
    http: aiohttp.ClientSession

    def page(self, game_id: int) -> str:
        """Returns the full address of a game's page."""
        return self.base + self.links.path(game_id)

    async def get_json(self, game_id: int, part: str = "game.json") -> Any:
        async with self.http.get(f"{self.page(game_id)}/{part}") as reply:
            assert reply.status == 200, (reply.status, await reply.text())
            return json.loads(await reply.text())


@asynccontextmanager
async def serve(tables: Tables, **options: Any) -> AsyncIterator[Served]:
    """Serves ``tables``' games on a free loopback port for the block."""
    links = WebLinks(SECRET, "http://127.0.0.1")
    web = WebTable(tables, links, **options)
    server = HttpServer({}, refresh=None)
    server.mounts.append(web.mount)
    await server.start("127.0.0.1", 0)
    base = f"http://127.0.0.1:{server.port}"
    links.public_url = base
    try:
        async with aiohttp.ClientSession() as http:
            yield Served(base, links, web, http)
    finally:
        await server.stop()


def keyed_tables(store: Any) -> Tables:
    """Returns a table service whose tables all draw from :data:`SEED` (keyed draws, no join ids)."""
    return Tables(store, seeds=lambda: SEED, join_ids=False)


async def started_xisk(tables: Tables, *people: Person, channel: str = CHANNEL) -> int:
    """Opens and starts a XISK table of ``people`` in ``channel``; returns its game id."""
    await tables.create(channel_id=channel, guild_id="1", game="xisk", creator=people[0], options={})
    for person in people[1:]:
        await tables.join(channel, person)
    await tables.start(channel, people[0])
    return (await tables.table(channel)).row.id


async def play_one(tables: Tables, people: dict[str, Person], rnd: random.Random, channel: str = CHANNEL) -> bool:
    """Plays the hard bot's move for whoever must act in the channel's game (a whole XISK game of two takes
    about 150 moves); False once it is over."""
    game = (await tables.table(channel)).game
    assert game is not None
    if game.is_over:
        return False
    [player] = game.to_act()
    await tables.act(channel, people[player].id, think(game, player, "hard", rnd, budget=0.05))
    return True


async def next_change(lines: aiohttp.StreamReader, *, within: float) -> dict[str, Any]:
    """Reads an event stream up to its next ``change`` event and returns its data."""
    async with asyncio.timeout(within):
        event = None
        while True:
            line = (await lines.readline()).decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[len("event: "):]
            elif line.startswith("data: ") and event == "change":
                return dict(json.loads(line[len("data: "):]))
