"""Cross-shard delivery: a shard process posts and edits in a guild its gateway never showed it.

Two in-process bots, shard 0 and shard 1 of 2, on one PostgreSQL database, each with its own
store and table service as two processes would have. Shard 0's discord.py cache holds none of
shard 1's guilds, channels or threads, yet it must post there: its deliverer's sweep takes over
what a dead shard-1 process left pending, and its timekeeper handles every game's clock, whichever
shard the game's guild is on. Each bot names its requests (``X-Fake-Discord-Client``), so the
fake tells who posted, edited or answered what. A channel fetched rather than cached comes with
an unnamed guild; the delivery reads the guild too, so the DMs name the server
(:func:`cogs.delivery.fetch_channel`), and posts anyway when it cannot.

No DM interaction of the bot acts on a game (hand DMs carry no buttons; in DMs only ``/game mine``,
``help``, ``notify`` and ``rules`` run), so shard 0's own moves in shard 1's games come from its
timekeeper; ``/game mine`` in a DM (shard 0) links the board shard 0 posted there.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest

from cogs.client import ShardedTablehost
from cogs.delivery import escaped_text
from host.outbox import Outbox
from host.store import Store
from host.table import Person
from host.tables import Tables
from tests.discord.tablehost.conftest import SEED
from tests.discord.tablehost.helpers import said
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.payloads import FakeChannel, FakeGuild
from tests.fakediscord.recorder import CLIENT_HEADER, SentMessage
from tests.fakediscord.server import FakeDiscord
from tests.support.clock import Clock

COUNT = 2
"""Shards in these tests: shard 0 and shard 1 of 2."""


@contextlib.contextmanager
def named(name: str) -> Iterator[None]:
    """Within: each aiohttp session made sends ``X-Fake-Discord-Client: name`` (a bot makes its one at login)."""
    original = aiohttp.ClientSession.__init__

    def init(self: aiohttp.ClientSession, *args: Any, **kwargs: Any) -> None:
        headers = dict(kwargs.pop("headers", None) or {})
        headers.setdefault(CLIENT_HEADER, name)
        original(self, *args, headers=headers, **kwargs)

    aiohttp.ClientSession.__init__ = init  # type: ignore[method-assign]
    try:
        yield
    finally:
        aiohttp.ClientSession.__init__ = original  # type: ignore[method-assign]


@dataclass
class Shard:
    """One shard's bot process: its test API, store and table service (``name`` on its requests)."""

    number: int
    dt: DiscordTest
    store: Store
    tables: Tables

    @property
    def name(self) -> str:
        """The name its requests carry."""
        return f"shard{self.number}"

    @property
    def bot(self) -> ShardedTablehost:
        """The running bot."""
        assert isinstance(self.dt.bot, ShardedTablehost)
        return self.dt.bot


@dataclass
class Cluster:
    """Shard processes on one PostgreSQL database, started one by one (the first runs the migrations)."""

    fake: FakeDiscord
    dsn: str
    shards: list[Shard] = field(default_factory=list)

    async def start(self, number: int, *, threads: bool = False, clock: Clock | None = None) -> Shard:
        """Starts the bot of shard ``number`` of 2 on its own store, its sweeps left to the test."""
        store = await Store.open(self.dsn)
        tables = Tables(store, seeds=lambda: SEED, clock=clock or time.time, join_ids=False)
        shard = Shard(number, DiscordTest(self.fake), store, tables)
        self.shards.append(shard)

        def build() -> ShardedTablehost:
            bot = ShardedTablehost(shard_count=COUNT, shard_ids=(number,), tables=tables, threads_by_default=threads,
                                   edit_every=0.0)
            bot.deliverer.retry_every = 3600.0  # no sweep of its own after the first: the test sweeps
            bot.keeps_time = clock is None  # a shard on the test's clock has its deadlines ticked by the test
            return bot

        with named(shard.name):
            await shard.dt.start_bot(build)
        assert [s.shard for s in self.fake.gateway.sessions_of(shard.name)] == [(number, COUNT)]
        return shard

    async def close(self) -> None:
        """Stops every bot, then closes the stores."""
        for shard in self.shards:
            await shard.dt.close()
        for shard in self.shards:
            await shard.store.close()


@pytest.fixture
async def cluster(fake_discord: FakeDiscord, pg_dsn: str) -> AsyncIterator[Cluster]:
    """Yields shard processes to start, on one fresh PostgreSQL database; stops them at the end."""
    made = Cluster(fake_discord, pg_dsn)
    try:
        yield made
    finally:
        await made.close()


def guilds(fake: FakeDiscord) -> tuple[FakeGuild, FakeGuild]:
    """Adds a guild on each shard of 2: ("Even", shard 0), ("Odd", shard 1, channels games and watch)."""
    return fake.add_guild("Even", shard=(0, COUNT)), fake.add_guild("Odd", channels=["games", "watch"],
                                                                     shard=(1, COUNT))


def person(fake: FakeDiscord, name: str) -> Person:
    """Returns a user as the table service's person (named as the bot names them)."""
    user = fake.user(name)
    return Person(str(user.id), name.title())


def boards(fake: FakeDiscord, channel: FakeChannel) -> list[SentMessage]:
    """Returns the live boards (messages with an embed and a picture) in a channel, each checked to decode."""
    out = [m for m in fake.recorder.in_channel(channel.id) if m.files and m.embeds]
    for m in out:
        assert [f.image().format for f in m.files] == ["PNG"]
        assert m.embeds and m.embeds[0]["image"]["url"] == f"attachment://{m.files[0].filename}"
    return out


def edits_by(fake: FakeDiscord, channel: FakeChannel, message: SentMessage) -> list[str | None]:
    """Returns who sent each edit of a message (the bots' names)."""
    path = f"/channels/{channel.id}/messages/{message.id}"
    return [r.client for r in fake.recorder.requests if r.method == "PATCH" and r.path.endswith(path)]


def problems(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Returns the bot's own warnings and errors logged so far (cogs and host)."""
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records
            if r.levelno >= logging.WARNING and r.name.split(".")[0] in ("cogs", "host")]


def recap_of(out: Outbox) -> str:
    """Returns the line a move adds to its board's recap."""
    return escaped_text(out).strip()


async def sweep(shard: Shard) -> int:
    """Runs one sweep of the shard's deliverer and waits until the fake is quiet; returns how many were sent."""
    sent = await shard.bot.deliverer.sweep()
    await shard.dt.quiet()
    return sent


async def test_shard_0_delivers_what_a_dead_shard_1_left_pending_in_a_thread_of_its_guild(
    fake_discord: FakeDiscord, cluster: Cluster, caplog: pytest.LogCaptureFixture,
) -> None:
    started = time.monotonic()
    fake = fake_discord
    _, odd = guilds(fake)
    games, watch = odd.channels
    one = await cluster.start(1, threads=True)
    zero = await cluster.start(0)

    # Shard 1 opens the table in a thread, seats Bob and adds a spectator channel, then dies.
    record = await one.dt.slash("game", "new", user="ann", game="nxs", channel=games)
    assert record.shards == [(1, COUNT)] and {cb.client for cb in record.callbacks} == {"shard1"}
    [thread] = odd.threads
    await one.dt.slash("game", "join", user="bob", channel=thread)
    spectating = await one.dt.slash("table", "spectate", user="ann", channel=thread, to=watch, stop=False)
    assert "now spectates" in spectating.content, spectating.content
    await one.dt.stop_bot()
    assert not any(s.connected for s in fake.gateway.sessions_of("shard1"))
    for place in (odd.id, games.id, thread.id, watch.id):  # never shown to shard 0
        assert zero.bot.get_guild(place) is None and zero.bot.get_channel(place) is None

    # The start, committed by shard 1 just before it died: never delivered.
    where = str(thread.id)
    await one.tables.start(where, person(fake, "ann"))
    assert [o.channel_id for o in await zero.store.pending()] == [where]
    before = len(fake.recorder.in_channel(thread.id))

    assert await sweep(zero) == 1
    [board] = boards(fake, thread)
    assert board.client == "shard0" and fake.recorder.in_channel(thread.id)[before:] == [board]
    assert board.embeds[0]["title"].startswith("NXS")
    table = await zero.tables.table(where)
    assert table.game is not None
    [first] = table.game.to_act()
    assert fake.user(first.lower()).id in board.pinged
    [copy] = boards(fake, watch)  # the spectator copy, made by shard 0 too
    assert copy.client == "shard0" and copy.pinged == [] and copy.components() == []
    assert await zero.store.pending() == []
    assert await sweep(zero) == 0  # delivered once: a second sweep sends nothing

    # Shard 1 comes back for one move at a time and dies again: shard 0 sends each.
    step = table.game.legal_moves(first)[0]  # a ship's move: the same player rotates next
    assert step.startswith("move ")
    moved = await one.tables.act(where, person(fake, first.lower()).id, step)
    assert await sweep(zero) == 1
    assert boards(fake, thread) == [board]  # the same turn: the board is edited
    assert edits_by(fake, thread, board) == ["shard0"] and recap_of(moved) in said(board)
    assert copy.edits == 1 and recap_of(moved) in said(copy)

    table = await zero.tables.table(where)
    assert table.game is not None and table.game.to_act() == [first]
    rotate = table.game.legal_moves(first)[0]
    assert rotate.startswith("rotate ")
    turned = await one.tables.act(where, person(fake, first.lower()).id, rotate)
    assert await sweep(zero) == 1
    closed, opened = boards(fake, thread)
    assert closed is board and edits_by(fake, thread, board) == ["shard0", "shard0"]
    assert board.components() == [] and recap_of(turned) in said(board)  # closed: its whole turn, no buttons
    assert opened.client == "shard0" and "Last turn: " in said(opened) and "rotate it" in opened.content
    [second] = (await zero.tables.table(where)).game.to_act()  # type: ignore[union-attr]
    assert second != first and fake.user(second.lower()).id in opened.pinged
    assert [c.client for c in boards(fake, watch)] == ["shard0", "shard0"]
    assert await zero.store.pending() == []

    assert zero.dt.logged_errors() == [] and one.dt.logged_errors() == []
    assert problems(caplog) == []
    assert fake.recorder.refusals() == []
    assert time.monotonic() - started < 15


async def test_shard_0_s_timekeeper_reminds_times_out_and_ends_a_game_in_live_shard_1_s_guild(
    fake_discord: FakeDiscord, cluster: Cluster, caplog: pytest.LogCaptureFixture, tally_registered: type,
) -> None:
    started = time.monotonic()
    fake = fake_discord
    _, odd = guilds(fake)
    games = odd.channels[0]
    clock = Clock()
    one = await cluster.start(1)
    zero = await cluster.start(0, clock=clock)
    ann, bob = fake.user("ann"), fake.user("bob")

    lobby = [await one.dt.slash("game", "new", user="ann", game="tally", options="target=4", channel=games),
             await one.dt.slash("game", "join", user="bob", channel=games),
             await one.dt.slash("game", "start", user="ann", channel=games)]
    for record in lobby:  # shard 1 serves its guild
        assert record.shards == [(1, COUNT)] and {cb.client for cb in record.callbacks} == {"shard1"}, record.name
    [start] = boards(fake, games)
    assert start.client == "shard1" and ann.id in start.pinged
    hands = {u.name: fake.recorder.dms_to(u.id) for u in (ann, bob)}
    assert all(len(d) == 1 and d[0].client == "shard1" for d in hands.values()), hands
    assert zero.bot.get_guild(odd.id) is None and zero.bot.get_channel(games.id) is None

    # 12 h without a move: shard 0's timekeeper pings Ann in shard 1's channel and DMs her.
    posted = len(fake.recorder.in_channel(games.id))
    clock.at(12.05)  # the game started a moment after the clock's start
    [reminder] = await zero.bot.timekeeper.tick()
    assert reminder.notice == "reminder"
    await zero.dt.quiet()
    [ping] = fake.recorder.in_channel(games.id)[posted:]
    assert ping.client == "shard0" and ping.pinged == [ann.id] and "⏰ Reminder: it is Ann's move." in ping.content
    dm = fake.recorder.dms_to(ann.id)[-1]
    assert dm.client == "shard0" and "It's your move in Tally" in dm.content
    link = f"https://discord.com/channels/{odd.id}/{games.id}"
    assert dm.content.splitlines()[0].endswith(f"** in #games (Odd): {link}"), dm.content  # the server named
    assert f"The board: {link}/{start.id}" in dm.content

    # 72 h: the timeout skips Ann's turn; shard 0 closes shard 1's board and posts the next one.
    clock.at(72.05)
    [timeout] = await zero.bot.timekeeper.tick()
    assert timeout.to_act == [str(bob.id)]
    await zero.dt.quiet()
    closed, opened = boards(fake, games)
    assert closed is start and edits_by(fake, games, start) == ["shard0"] and start.components() == []
    assert opened.client == "shard0" and bob.id in opened.pinged
    assert "Ann has the turn skipped by the clock (add 1)" in said(opened)
    hand = fake.recorder.dms_to(ann.id)[0]  # her hand DM (a new secret) edited by shard 0
    assert hand.edits == 1 and hand.content.splitlines()[0] == f"**Tally** in #games (Odd): {link}", hand.content
    assert await zero.store.pending() == []

    # Shard 1 serves Bob's move on the board shard 0 posted; shard 0 serves Ann's /game mine in her DM.
    played = await one.dt.slash("game", "play", user="bob", channel=games, move="add 2")
    assert played.shards == [(1, COUNT)] and played.content == "Played `add 2`.", played.content
    *_, last = boards(fake, games)
    assert last.client == "shard1" and edits_by(fake, games, opened) == ["shard1"]
    mine = await zero.dt.slash("game", "mine", user="ann", channel=zero.dt.dm_channel("ann"))
    assert mine.shards == [(0, COUNT)] and {cb.client for cb in mine.callbacks} == {"shard0"}
    assert f"{link}/{last.id}" in mine.content and "your move" in mine.content, mine.content

    # Ann's next timeout ends the game (4 reached): shard 0 posts the last board, a rematch and the replay.
    clock.at(2 * 72.05)
    [ended] = await zero.bot.timekeeper.tick()
    assert ended.finished
    await zero.dt.wait_until(lambda: any(f.filename.endswith(".gif") for m in fake.recorder.in_channel(games.id)
                                         for f in m.files))
    await zero.dt.quiet()
    *_, final = boards(fake, games)
    assert final.client == "shard0" and "Ann wins!" in said(final)
    assert [b["label"] for b in final.buttons()] == ["Rematch"]
    [replay] = [m for m in fake.recorder.in_channel(games.id) if m.files and m.files[0].filename.endswith(".gif")]
    assert replay.client == "shard0" and replay.content.startswith("Replay of Tally game")
    assert await zero.store.pending() == []

    assert zero.dt.logged_errors() == [] and one.dt.logged_errors() == []
    assert problems(caplog) == []
    assert fake.recorder.refusals() == []
    assert time.monotonic() - started < 15


async def test_a_lobby_and_start_left_pending_go_out_from_shard_0_even_when_the_server_cannot_be_read(
    fake_discord: FakeDiscord, cluster: Cluster, caplog: pytest.LogCaptureFixture, tally_registered: type,
) -> None:
    started = time.monotonic()
    fake = fake_discord
    _, odd = guilds(fake)
    games = odd.channels[0]
    zero = await cluster.start(0)
    where = str(games.id)  # a table opened, joined and started by a shard 1 that delivered none of it
    await zero.tables.create(channel_id=where, guild_id=str(odd.id), game="tally", creator=person(fake, "ann"),
                             options={})
    await zero.tables.join(where, person(fake, "bob"))
    await zero.tables.start(where, person(fake, "ann"))
    unreadable = fake.faults.fail("GET /guilds/{guild_id}", status=403, times=None)

    assert await sweep(zero) == 3
    assert unreadable.hits >= 1  # the server's name was asked for, and refused
    posts = fake.recorder.in_channel(games.id)
    assert "Ann opened a Tally table" in posts[0].content and "Bob" in posts[1].content
    [board] = boards(fake, games)
    assert posts[2:] == [board] and {m.client for m in posts} == {"shard0"}
    for name in ("ann", "bob"):  # the hands still go out, naming the channel with its link
        [hand] = fake.recorder.dms_to(fake.user(name).id)
        assert "#games" in hand.content and f"https://discord.com/channels/{odd.id}/{games.id}" in hand.content
    assert await zero.store.pending() == []
    assert zero.dt.logged_errors() == [] and problems(caplog) == []
    assert time.monotonic() - started < 15
