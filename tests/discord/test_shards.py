"""Sharding (issue 16): SHARD_COUNT and SHARD_IDS, the fake gateway's shards, and two bot processes.

Discord gives each gateway session (one per shard) the events of the guilds with
``(guild_id >> 22) % shard_count == shard_id``, DMs to shard 0. Two real bot processes, shard 0
and shard 1 of 2 on one PostgreSQL database, each serve their guild's games; ``/game mine``
reads the database, so either lists every game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands

import bot
from cogs.client import ShardedTablehost, Tablehost, make_bot
from host.config import Config
from host.store import Store
from host.tables import Tables
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.gateway import INVALID_SHARD, SHARDING_REQUIRED, shard_of
from tests.fakediscord.payloads import FakeGuild
from tests.fakediscord.server import FakeDiscord
from tests.support.bot_process import BotProcess

Json = dict[str, Any]

# SHARD_COUNT and SHARD_IDS


@pytest.mark.parametrize(("count", "ids", "expected"), [
    ("", "", (None, None)),
    ("  ", " ", (None, None)),
    ("1", "", (1, None)),
    ("2", "", (2, None)),
    ("2", "0", (2, (0,))),
    ("2", "1", (2, (1,))),
    ("4", " 3, 1 ", (4, (3, 1))),
    ("16", "0,1,2,3", (16, (0, 1, 2, 3))),
])
def test_shard_settings_are_read(count: str, ids: str, expected: tuple[int | None, tuple[int, ...] | None]) -> None:
    config = Config.from_env({"SHARD_COUNT": count, "SHARD_IDS": ids})
    assert (config.shard_count, config.shard_ids) == expected


def test_no_shard_settings_means_no_sharding() -> None:
    config = Config.from_env({})
    assert (config.shard_count, config.shard_ids) == (None, None)


@pytest.mark.parametrize(("count", "ids", "words"), [
    ("0", "", ["SHARD_COUNT", "'0'"]),
    ("-2", "", ["SHARD_COUNT", "'-2'"]),
    ("two", "", ["SHARD_COUNT", "'two'"]),
    ("1.5", "", ["SHARD_COUNT", "'1.5'"]),
    ("²", "", ["SHARD_COUNT", "'²'"]),
    ("", "0", ["SHARD_IDS", "SHARD_COUNT", "'0'"]),
    ("2", "2", ["SHARD_IDS", "'2'", "0 to 1"]),
    ("2", "0,5", ["SHARD_IDS", "'5'"]),
    ("2", "1,1", ["SHARD_IDS", "twice", "'1,1'"]),
    ("3", "0, 2, 0", ["SHARD_IDS", "twice"]),
    ("2", "-1", ["SHARD_IDS", "'-1'"]),
    ("2", "zero", ["SHARD_IDS", "'zero'"]),
    ("2", "0;1", ["SHARD_IDS", "'0;1'"]),
    ("2", "0,", ["SHARD_IDS", "'0,'", "empty"]),
    ("2", ",", ["SHARD_IDS", "empty"]),
])
def test_bad_shard_settings_are_refused_naming_the_variable_and_value(count: str, ids: str, words: list[str]) -> None:
    with pytest.raises(ValueError) as refused:
        Config.from_env({"SHARD_COUNT": count, "SHARD_IDS": ids})
    for word in words:
        assert word in str(refused.value), str(refused.value)


def test_the_bot_refuses_to_start_with_a_bad_shard_count(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    monkeypatch.setenv("DISCORD_TOKEN", "fake-token")
    monkeypatch.setenv("SHARD_COUNT", "none")
    monkeypatch.delenv("SHARD_IDS", raising=False)
    assert bot.main([]) == 2
    assert capsys.readouterr().err == "error: SHARD_COUNT must be a whole number ≥ 1, not 'none'.\n"


# the bot class


@pytest.fixture
async def tables(tmp_path: Path) -> AsyncIterator[Tables]:
    """A table service on a fresh SQLite file (the bot classes need one; nothing connects)."""
    store = await Store.open(str(tmp_path / "tablehost.db"))
    yield Tables(store)
    await store.close()


async def test_without_shard_count_the_bot_is_the_plain_one(tables: Tables) -> None:
    made = make_bot(Config.from_env({"TABLEHOST_RENDER_WORKERS": "3", "TABLEHOST_THREADS": "0"}), tables=tables)
    assert type(made) is Tablehost
    assert not isinstance(made, discord.AutoShardedClient)
    assert made.shard_count is None and made.threads_by_default is False


@pytest.mark.parametrize(("ids", "launched"), [("1", [1]), ("", None), ("2,0", [2, 0])])
async def test_with_shard_count_the_bot_is_auto_sharded_on_its_shards(
    tables: Tables, ids: str, launched: list[int] | None,
) -> None:
    made = make_bot(Config.from_env({"SHARD_COUNT": "3", "SHARD_IDS": ids, "DEV_GUILD_ID": "42"}), tables=tables,
                    sync=True)
    assert isinstance(made, ShardedTablehost) and isinstance(made, Tablehost)
    assert isinstance(made, commands.AutoShardedBot)
    assert (made.shard_count, made.shard_ids) == (3, launched)  # None: every shard, 0 to 2
    assert made._sync and made._sync_guild == 42
    mro = type(made).__mro__
    assert mro.index(discord.AutoShardedClient) < mro.index(discord.Client)
    assert type(made).connect is discord.AutoShardedClient.connect  # the shards' launcher, not Client's


# the fake gateway's shards


class RawGateway:
    """A bare WebSocket client of the fake gateway: identify with any shard, read what comes."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.events: list[Json] = []

    async def identify(self, shard: object = None) -> None:
        """Reads HELLO and sends IDENTIFY (with ``shard`` unless it is None)."""
        hello = await self.ws.receive_json(timeout=5)
        assert hello["op"] == 10
        data: Json = {"token": "fake-token", "intents": 1, "properties": {}}
        if shard is not None:
            data["shard"] = shard
        await self.ws.send_str(json.dumps({"op": 2, "d": data}))

    async def read(self, settle: float = 0.2) -> list[Json]:
        """Reads dispatches until none came for ``settle`` seconds; returns those read (kept in ``events``)."""
        got: list[Json] = []
        while True:
            try:
                msg = await self.ws.receive(timeout=settle)
            except TimeoutError:
                break
            if msg.type is not aiohttp.WSMsgType.TEXT:
                break
            frame = json.loads(msg.data)
            if frame["op"] == 0:
                got.append(frame)
        self.events.extend(got)
        return got

    def guild_ids(self, event: str) -> list[int]:
        """Returns the guilds of every ``event`` received (READY: its guild list)."""
        ids: list[int] = []
        for frame in self.events:
            if frame["t"] != event:
                continue
            data = frame["d"]
            if event == "READY":
                ids.extend(int(g["id"]) for g in data["guilds"])
            else:
                ids.append(int(data["id"] if event == "GUILD_CREATE" else data.get("guild_id") or 0))
        return ids


@contextlib.asynccontextmanager
async def raw_gateway(fake: FakeDiscord) -> AsyncIterator[RawGateway]:
    """Opens a bare WebSocket on the fake gateway."""
    async with aiohttp.ClientSession() as session, session.ws_connect(fake.gateway_url) as ws:
        yield RawGateway(ws)


def three_guilds(fake: FakeDiscord) -> tuple[FakeGuild, FakeGuild, FakeGuild]:
    """Returns the first guild and two more, one on each shard of 2."""
    return fake.guild, fake.add_guild("Even", shard=(0, 2)), fake.add_guild("Odd", shard=(1, 2))


def test_a_guild_can_be_made_on_a_chosen_shard(fake_discord: FakeDiscord) -> None:
    made = [fake_discord.add_guild(f"g{n}", shard=(n % 3, 3)) for n in range(7)]
    assert [shard_of(g.id, 3) for g in made] == [n % 3 for n in range(7)]
    assert [fake_discord.shard_of(g, 3) for g in made] == [n % 3 for n in range(7)]
    ids = [g.id for g in fake_discord.guilds]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)  # still increasing snowflakes
    with pytest.raises(ValueError, match="no shard 2 of 2"):
        fake_discord.add_guild("nowhere", shard=(2, 2))


async def test_a_session_of_shard_1_of_2_gets_only_shard_1_s_guilds(fake_discord: FakeDiscord) -> None:
    _, even, odd = three_guilds(fake_discord)
    on_one = [g.id for g in fake_discord.guilds if (g.id >> 22) % 2 == 1]
    assert odd.id in on_one and even.id not in on_one
    async with raw_gateway(fake_discord) as gw:
        await gw.identify([1, 2])
        await gw.read()
        [ready] = [f["d"] for f in gw.events if f["t"] == "READY"]
        assert ready["shard"] == [1, 2]
        assert gw.guild_ids("READY") == on_one
        assert gw.guild_ids("GUILD_CREATE") == on_one
        assert fake_discord.gateway.identified == [((1, 2), None)]

        record = await fake_discord.send_interaction(
            kind=2, data={"id": "1", "name": "probe", "type": 1}, user=fake_discord.user("ann"),
            channel=odd.channels[0], name="probe")
        assert record.shards == [(1, 2)]
        assert [f["d"]["id"] for f in await gw.read() if f["t"] == "INTERACTION_CREATE"] == [str(record.id)]
        with pytest.raises(RuntimeError, match="no session serves guild"):  # no shard 0 has identified
            await fake_discord.send_interaction(
                kind=2, data={"id": "1", "name": "probe", "type": 1}, user=fake_discord.user("ann"),
                channel=even.channels[0], name="probe")
        assert await gw.read() == []
        joined = await fake_discord.join_guild("Late", shard=(0, 2))  # not for this shard: nothing sent
        assert await gw.read() == [] and joined.id not in gw.guild_ids("GUILD_CREATE")
        thread = await fake_discord.create_thread(odd.channels[0], "side")  # for this shard: sent
        assert [f["d"]["id"] for f in await gw.read() if f["t"] == "THREAD_CREATE"] == [str(thread.id)]


async def test_two_shard_sessions_split_guild_events_and_dms_go_to_shard_0(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    _, even, odd = three_guilds(fake)
    ann = fake.user("ann")
    async with raw_gateway(fake) as zero, raw_gateway(fake) as one:
        await zero.identify([0, 2])
        await one.identify([1, 2])
        await zero.read()
        await one.read()
        assert sorted(zero.guild_ids("GUILD_CREATE") + one.guild_ids("GUILD_CREATE")) == sorted(
            g.id for g in fake.guilds)
        assert even.id in zero.guild_ids("GUILD_CREATE") and odd.id in one.guild_ids("GUILD_CREATE")
        assert fake.gateway.live.is_set() and sorted(fake.gateway.sessions) == [(0, 2), (1, 2)]

        where = {"even": even.channels[0], "odd": odd.channels[0], "dm": fake.dm_channel(ann)}
        records = {}
        for name, channel in where.items():
            records[name] = await fake.send_interaction(
                kind=2, data={"id": "1", "name": "probe", "type": 1}, user=ann, channel=channel, name=name)
        got_zero = [f["d"]["id"] for f in await zero.read() if f["t"] == "INTERACTION_CREATE"]
        got_one = [f["d"]["id"] for f in await one.read() if f["t"] == "INTERACTION_CREATE"]
        assert got_zero == [str(records["even"].id), str(records["dm"].id)]
        assert got_one == [str(records["odd"].id)]
        assert [records[n].shards for n in where] == [[(0, 2)], [(1, 2)], [(0, 2)]]


async def test_no_shard_field_means_shard_0_of_1_and_every_guild(fake_discord: FakeDiscord) -> None:
    three_guilds(fake_discord)
    async with raw_gateway(fake_discord) as gw:
        await gw.identify()
        await gw.read()
        assert gw.guild_ids("GUILD_CREATE") == [g.id for g in fake_discord.guilds]
        [ready] = [f["d"] for f in gw.events if f["t"] == "READY"]
        assert "shard" not in ready
        assert fake_discord.gateway.identified == [((0, 1), None)]


@pytest.mark.parametrize("shard", [[2, 2], [1, 1], [0, 0], [-1, 2], [0, -1], [1], [0, 1, 2], "0,1", [0.0, 1],
                                   [True, 2], None])
async def test_an_invalid_shard_is_closed_with_4010(fake_discord: FakeDiscord, shard: object) -> None:
    async with raw_gateway(fake_discord) as gw:
        hello = await gw.ws.receive_json(timeout=5)
        assert hello["op"] == 10
        data = {"token": "fake-token", "intents": 1, "properties": {}, "shard": shard}
        await gw.ws.send_str(json.dumps({"op": 2, "d": data}))
        closing = await gw.ws.receive(timeout=5)
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert gw.ws.close_code == INVALID_SHARD == 4010
        assert closing.extra == "Invalid shard"
    assert fake_discord.gateway.refused == [(shard, 4010)]
    assert fake_discord.gateway.identifies == 0 and fake_discord.gateway.sessions == {}


async def test_too_many_guilds_for_one_shard_is_closed_with_4011_and_gateway_bot_says_how_many(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    three_guilds(fake)
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{fake.api_base}/gateway/bot") as answer:
            assert (await answer.json())["shards"] == 1
        fake.gateway.max_guilds_per_shard = 2  # three guilds: one shard is too few
        async with http.get(f"{fake.api_base}/gateway/bot") as answer:
            assert (await answer.json())["shards"] == 2
    async with raw_gateway(fake) as gw:
        await gw.identify()
        closing = await gw.ws.receive(timeout=5)
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert gw.ws.close_code == SHARDING_REQUIRED == 4011
    assert fake.gateway.refused == [([0, 1], 4011)]
    async with raw_gateway(fake) as gw:  # two shards of at most two guilds each: accepted
        await gw.identify([shard_of(fake.guild.id, 2), 2])
        assert next(f["t"] for f in await gw.read()) == "READY"


# discord.py's AutoShardedClient on the fake


class BothShards(discord.AutoShardedClient):
    """discord.py's sharded client without its 5 s pause between two shards' IDENTIFYs."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Identifies at once (Discord's limit is one IDENTIFY per 5 s; the fake has none)."""


async def test_discord_py_s_sharded_client_sees_its_shards_guilds(fake_discord: FakeDiscord) -> None:
    three_guilds(fake_discord)
    wanted = {g.id: shard_of(g.id, 2) for g in fake_discord.guilds}
    one = DiscordTest(fake_discord)
    try:
        client = await one.start_bot(
            lambda: discord.AutoShardedClient(intents=discord.Intents.default(), shard_count=2, shard_ids=[1]))
        assert {g.id for g in client.guilds} == {g for g, s in wanted.items() if s == 1}
    finally:
        await one.close()
    both = DiscordTest(fake_discord)
    try:
        client = await both.start_bot(lambda: BothShards(intents=discord.Intents.default(), shard_count=2))
        assert {g.id: g.shard_id for g in client.guilds} == wanted
        assert isinstance(client, BothShards) and sorted(client.shards) == [0, 1]
    finally:
        await both.close()


# two bot processes, one per shard, on one PostgreSQL database


async def start_nxs(dt: DiscordTest, channel: Any) -> list[Any]:
    """Opens, joins and starts an NXS game of Ann and Bob in ``channel``; returns the interactions."""
    return [await dt.slash("game", "new", user="ann", game="nxs", channel=channel),
            await dt.slash("game", "join", user="bob", channel=channel),
            await dt.slash("game", "start", user="ann", channel=channel)]


def game_lines(listing: str) -> list[str]:
    """Returns the game lines of a /game mine answer (without its heading)."""
    head, *lines = listing.splitlines()
    assert head.startswith("**Your games** (2;"), listing
    return lines


async def test_two_shard_processes_serve_their_own_guilds_and_game_mine_lists_both_games(
    fake_discord: FakeDiscord, tmp_path: Path, pg_dsn: str,
) -> None:
    fake = fake_discord
    started = time.monotonic()
    home = {fake.shard_of(fake.guild, 2): fake.guild}
    home[1 - next(iter(home))] = fake.add_guild("Second", channels=["general"], shard=(1 - next(iter(home)), 2))
    channels = {shard: guild.channels[0] for shard, guild in home.items()}

    processes = [
        BotProcess(fake, db_path=pg_dsn, workdir=tmp_path / f"shard{n}", name=f"shard{n}",
                   bot_args=["--sync", "--serve"] if n == 0 else [],
                   env={"SHARD_COUNT": "2", "SHARD_IDS": str(n), "TABLEHOST_THREADS": "0"})
        for n in (0, 1)
    ]
    try:
        for process in processes:  # one after the other: the first runs the migrations
            await process.start()
        gateway = fake.gateway
        assert sorted((s.shard, s.client) for s in gateway.sessions.values()) == [((0, 2), "shard0"),
                                                                                  ((1, 2), "shard1")]
        dt = processes[0].test

        for shard, channel in channels.items():
            name = f"shard{shard}"
            before = len(dt.messages(channel))
            for record in await start_nxs(dt, channel):
                assert record.shards == [(shard, 2)], record.name  # dispatched to that shard's session only
                assert record.callbacks and {cb.client for cb in record.callbacks} == {name}, record.name
                assert {m.client for m in record.messages} <= {name}
            posts = dt.messages(channel)[before:]
            assert any(m.files for m in posts), "no board after /game start"
            assert {m.client for m in posts} == {name}, [(m.client, m.content[:40]) for m in posts]

        for shard, channel in channels.items():  # asked where the other game is not: both listed
            listing = await dt.slash("game", "mine", user="ann", channel=channel)
            assert listing.shards == [(shard, 2)]
            assert {cb.client for cb in listing.callbacks} == {f"shard{shard}"}
            lines = game_lines(listing.content)
            for other in channels.values():
                assert any(f"/{other.guild_id}/{other.id}" in line for line in lines), (other.name, lines)
        dm = await dt.slash("game", "mine", user="bob", channel=dt.dm_channel("bob"))
        assert dm.shards == [(0, 2)]  # DMs: shard 0
        assert {cb.client for cb in dm.callbacks} == {"shard0"}
        assert len(game_lines(dm.content)) == 2

        other_log = [r for r in fake.recorder.requests if r.client is None]
        assert other_log == [], other_log  # every request came from one of the two processes
        for process in processes:
            assert process.errors() == [], process.stderr
            assert "serving shards" in process.stderr
    finally:
        for process in processes:
            await process.close()
            print(process.stderr)
    assert time.monotonic() - started < 30


# the database address in bot.py's messages (several processes share a PostgreSQL address)


async def test_rebuild_ratings_names_a_postgresql_database_without_its_password(
    pg_dsn: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    with_password = pg_dsn.replace("postgresql://postgres@", "postgresql://postgres:hunter2@")
    assert with_password != pg_dsn  # the test server trusts local connections: any password does
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("TABLEHOST_DB", with_password)
    assert await asyncio.to_thread(bot.main, ["--rebuild-ratings"]) == 0
    out = capsys.readouterr()
    assert out.out == f"Ratings rebuilt from {pg_dsn}: 0 games counted.\n"
    assert "hunter2" not in out.out + out.err


async def test_an_unreachable_postgresql_database_is_named_without_its_password(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TABLEHOST_DB", f"postgresql://bot:hunter2@127.0.0.1:{port}/tablehost")
    monkeypatch.setenv("DISCORD_TOKEN", "fake-token")
    for argv, status in ((["--rebuild-ratings"], 2), ([], 1)):  # the bot: a fault that may pass, so 1 (retried)
        assert await asyncio.to_thread(bot.main, argv) == status
        err = capsys.readouterr().err
        assert f"error: cannot use the database postgresql://bot@127.0.0.1:{port}/tablehost:" in err, err
        assert "hunter2" not in err
