"""What operators see: /healthz and /metrics over real HTTP against the running bot, and what the metrics count."""

from __future__ import annotations

import asyncio
import json
import math
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from cogs.client import Tablehost
from host import metrics
from host.config import Config, http_address
from host.db import StorageUnavailable
from host.deliverer import Busy, Deliverer
from host.outbox import Outbox
from host.store import Store
from host.table import Person
from host.tables import Tables
from host.timekeeper import Timekeeper
from host.web import HttpServer, gateway_up, store_up, timekeeper_alive
from tests.discord.tablehost.helpers import open_tally
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.server import FakeDiscord
from tests.support.bot_process import running_bot
from tests.support.clock import Clock

Reply = tuple[int, str, str]
"""An HTTP answer: status, content type header, body."""
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]
"""/metrics parsed: (sample name, sorted labels) → value."""


@dataclass
class Web:
    """The test's HTTP server, started on a port the system chose, and a client session to it."""

    server: HttpServer
    session: aiohttp.ClientSession

    async def request(self, path: str, method: str = "GET") -> Reply:
        """Sends one request; returns its status, Content-Type and text."""
        async with self.session.request(method, f"http://127.0.0.1:{self.server.port}{path}") as reply:
            return reply.status, reply.headers.get("Content-Type", ""), await reply.text()

    async def health(self) -> tuple[int, dict[str, bool]]:
        """Returns /healthz's status and parsed body."""
        status, kind, text = await self.request("/healthz")
        assert kind.startswith("application/json")
        return status, json.loads(text)

    async def samples(self) -> Samples:
        """Returns every sample of /metrics, parsed by prometheus_client's own parser, by (name, labels)."""
        status, kind, text = await self.request("/metrics")
        assert status == 200 and kind.startswith("text/plain") and "version=" in kind
        return {(s.name, tuple(sorted(s.labels.items()))): s.value
                for family in text_string_to_metric_families(text) for s in family.samples}


@pytest.fixture
async def web(discord_test: DiscordTest) -> AsyncIterator[Web]:
    """Serves /healthz and /metrics for the test's bot on 127.0.0.1, on a free port."""
    assert isinstance(discord_test.bot, Tablehost)
    server = HttpServer.for_bot(discord_test.bot)
    await server.start("127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession() as session:
            yield Web(server, session)
    finally:
        await server.stop()


async def healthy(web: Web, *, within: float = 5.0) -> tuple[int, dict[str, bool]]:
    """Returns /healthz's answer once it is 200 (the timekeeper's first reading may still be under way)."""
    deadline = asyncio.get_running_loop().time() + within
    while True:
        status, body = await web.health()
        if status == 200 or asyncio.get_running_loop().time() > deadline:
            return status, body
        await asyncio.sleep(0.05)


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def grew(before: Samples, after: Samples, name: str, **labels: str) -> float:
    """Returns how much a sample grew from one reading of /metrics to the next."""
    return value(after, name, **labels) - value(before, name, **labels)


async def test_healthz_is_200_with_every_part_true_once_the_bot_is_ready(web: Web) -> None:
    assert web.server.port > 0
    assert await healthy(web) == (200, {"gateway": True, "store": True, "timekeeper": True})


async def test_healthz_is_503_naming_the_store_when_a_read_fails(web: Web, tables: Tables) -> None:
    await healthy(web)
    db: Any = tables.store.db

    async def refused(step: Any) -> Any:
        raise StorageUnavailable(tables.store.path, "the bot's storage is unavailable", "injected")

    db.read = refused  # the instance's own attribute, over the class's method
    try:
        assert await web.health() == (503, {"gateway": True, "store": False, "timekeeper": True})
    finally:
        del db.read
    assert (await web.health())[0] == 200


async def test_a_store_read_slower_than_its_timeout_is_down(tables: Tables) -> None:
    db: Any = tables.store.db

    async def stuck(step: Any) -> Any:
        await asyncio.sleep(10)

    db.read = stuck
    try:
        started = asyncio.get_running_loop().time()
        assert await store_up(tables, timeout=0.05) is False
        assert asyncio.get_running_loop().time() - started < 1
    finally:
        del db.read
    assert await store_up(tables) is True


async def test_metrics_count_three_moves_their_latency_and_a_refusal(discord_test: DiscordTest, web: Web) -> None:
    await open_tally(discord_test, "ann", "bob")
    before = await web.samples()
    for user in ("ann", "bob", "ann"):
        record = await discord_test.slash("game", "play", user=user, move="add 1")
        assert record.content == "Played `add 1`."
    after = await web.samples()
    assert grew(before, after, "tablehost_act_seconds_count") == 3
    assert grew(before, after, "tablehost_moves_total", game="tally") == 3
    assert grew(before, after, "tablehost_act_seconds_sum") > 0
    assert grew(before, after, "tablehost_render_seconds_count", game="tally") >= 3  # each move's board is drawn

    refused = await discord_test.slash("game", "play", user="ann", move="add 1")  # Bob's turn
    assert "not your turn" in refused.content
    last = await web.samples()
    assert grew(after, last, "tablehost_refusals_total", kind="not_your_turn") == 1
    assert grew(after, last, "tablehost_act_seconds_count") == 1  # a refusal is timed too
    assert grew(after, last, "tablehost_moves_total", game="tally") == 0


async def test_the_database_gauges_count_running_games_and_pending_announcements(
    discord_test: DiscordTest, web: Web, tables: Tables
) -> None:
    await open_tally(discord_test, "ann", "bob")
    await metrics.read_counts(tables.store.db)  # what the server's refresher does every 15 s
    samples = await web.samples()
    assert value(samples, "tablehost_games_running", game="tally") == 1
    pending = await tables.store.pending()
    assert value(samples, "tablehost_pending_announcements") == len(pending)


async def test_any_other_path_or_method_is_404(web: Web) -> None:
    assert (await web.request("/"))[0] == 404
    assert (await web.request("/metrics/extra"))[0] == 404
    assert (await web.request("/healthz", method="POST"))[0] == 404


async def test_the_server_stops_and_its_port_is_free_again(discord_test: DiscordTest) -> None:
    assert isinstance(discord_test.bot, Tablehost)
    server = HttpServer.for_bot(discord_test.bot)
    await server.start("127.0.0.1", 0)
    port = server.port
    await server.stop()
    await server.stop()  # idempotent
    with pytest.raises(RuntimeError):
        server.port  # noqa: B018 (the property raises)
    again = HttpServer({}, refresh=None)
    await again.start("127.0.0.1", port)
    await again.stop()


def free_port() -> int:
    """Returns a port nobody listens on now (the system's choice for a socket bound and closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_bot_py_serves_healthz_while_it_runs_logs_json_and_stops_serving_on_sigterm(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    port = free_port()
    env = {"TABLEHOST_HTTP": f"127.0.0.1:{port}", "LOG_FORMAT": "json", "TABLEHOST_THREADS": "0"}
    async with running_bot(fake_discord, tmp_path, env=env) as bot, aiohttp.ClientSession() as session:
        url = f"http://127.0.0.1:{port}/healthz"
        for _ in range(100):  # the timekeeper's first reading follows READY
            async with session.get(url) as reply:
                status, body = reply.status, await reply.json()
            if status == 200:
                break
            await asyncio.sleep(0.05)
        assert (status, body) == (200, {"gateway": True, "store": True, "timekeeper": True})
        # the same listener serves the web table (bot.py mounts it): a page behind a wrong token is a 404
        async with session.get(f"http://127.0.0.1:{port}/g/1/not-its-token") as reply:
            assert reply.status == 404 and await reply.text() == "Not found.\n"
            assert reply.headers["Content-Security-Policy"].startswith("default-src 'none'")
        async with session.get(f"http://127.0.0.1:{port}/static/table.js") as reply:
            assert reply.status == 200 and reply.content_type == "text/javascript"
        assert await bot.terminate() == 0
        with pytest.raises(aiohttp.ClientConnectionError):
            async with session.get(url):
                pass
    logged = [json.loads(line) for line in bot.run_stderr().splitlines() if not line.startswith("---")]
    assert any(record["message"].startswith("health and metrics at http://127.0.0.1:") for record in logged)
    assert {record["process"].rsplit(":", 1)[0] for record in logged} == {socket.gethostname()}


# -- the checks on their own ----------------------------------------------------------


@dataclass
class Gateway:
    """A bot's connection as the gateway check reads it (unsharded: no ``latencies``)."""

    closed: bool = False
    ready: bool = True

    def is_closed(self) -> bool:
        return self.closed

    def is_ready(self) -> bool:
        return self.ready


@dataclass
class ShardedGateway(Gateway):
    """A sharded bot's: each shard's heartbeat latency (infinite until its first one is answered)."""

    latencies: list[tuple[int, float]] | None = None


def test_the_gateway_is_up_only_open_ready_and_with_every_shards_heartbeat() -> None:
    assert gateway_up(Gateway())  # type: ignore[arg-type]
    assert not gateway_up(Gateway(closed=True))  # type: ignore[arg-type]
    assert not gateway_up(Gateway(ready=False))  # type: ignore[arg-type]
    assert gateway_up(ShardedGateway(latencies=[(0, 0.04), (1, 0.05)]))  # type: ignore[arg-type]
    assert not gateway_up(ShardedGateway(latencies=[(0, 0.04), (1, math.inf)]))  # type: ignore[arg-type]


@dataclass
class Keeper:
    alive_at: float | None


async def test_the_timekeeper_is_alive_only_if_it_read_the_clocks_within_a_minute() -> None:
    now = asyncio.get_running_loop().time()
    assert timekeeper_alive(Keeper(now - 59))  # type: ignore[arg-type]
    assert not timekeeper_alive(Keeper(now - 61))  # type: ignore[arg-type]
    assert not timekeeper_alive(Keeper(None))  # type: ignore[arg-type]


# -- what the deliverer and the timekeeper count --------------------------------------


class OneAnnouncement:
    """A store holding one announcement, delivered when told so."""

    def __init__(self) -> None:
        self.done = False

    async def pending(self, **_: Any) -> list[Outbox]:
        return []

    async def is_delivered(self, outbox_id: int) -> bool:
        return self.done

    async def was_answered(self, outbox_id: int) -> bool:
        return False

    async def save_receipt(self, outbox_id: int, receipt: dict[str, Any]) -> None:
        pass

    async def delivered(self, outbox_id: int, receipt: dict[str, Any]) -> None:
        self.done = True


async def test_each_retry_after_busy_is_counted_and_a_429_also_as_rate_limited() -> None:
    answers: list[Exception | None] = [Busy("429", 0.0), Busy("503"), Busy("429", 0.0), None]

    async def send(out: Outbox, late: bool) -> None:
        if (answer := answers.pop(0)) is not None:
            raise answer

    deliverer = Deliverer(OneAnnouncement(), send)

    async def no_wait(seconds: float) -> None:
        pass

    deliverer.sleep = no_wait
    retries, limited = (metrics.value(f"tablehost_{name}_total") for name in ("deliveries_retried", "rate_limited"))
    assert await deliverer.deliver(Outbox(game_id=1, game="tally", channel_id="9", id=4))
    assert metrics.value("tablehost_deliveries_retried_total") - retries == 3
    assert metrics.value("tablehost_rate_limited_total") - limited == 2


async def test_reminders_and_timeouts_are_counted_by_kind(db_file: str, tally_registered: type) -> None:
    ann, bob, clock = Person("1001", "ann"), Person("1002", "bob"), Clock(1_700_000_000.0)
    store = await Store.open(db_file)
    try:
        tables = Tables(store, debug=True, clock=clock)
        keeper = Timekeeper(tables)
        await tables.create(channel_id="500", guild_id="1", game="tally", creator=ann, options={})
        await tables.join("500", bob)
        await tables.start("500", ann, seed=11)
        reminders, timeouts = (metrics.value("tablehost_deadlines_total", kind=k) for k in ("reminder", "timeout"))
        clock.at(12)  # the default clock's first reminder
        assert len(await keeper.tick()) == 1
        assert metrics.value("tablehost_deadlines_total", kind="reminder") - reminders == 1
        clock.at(72)  # its timeout
        assert len(await keeper.tick()) == 1
        assert metrics.value("tablehost_deadlines_total", kind="timeout") - timeouts == 1
        assert keeper.fired == 2
    finally:
        await store.close()


# -- TABLEHOST_HTTP -------------------------------------------------------------------


@pytest.mark.parametrize(("text", "address"), [
    ("", None),
    ("   ", None),
    ("127.0.0.1:9100", ("127.0.0.1", 9100)),
    ("0.0.0.0:80", ("0.0.0.0", 80)),
    ("localhost:65535", ("localhost", 65535)),
    ("[::1]:9100", ("::1", 9100)),
])
def test_tablehost_http_reads_host_and_port(text: str, address: tuple[str, int] | None) -> None:
    assert http_address(text) == address
    assert Config.from_env({"TABLEHOST_HTTP": text}).http == address


@pytest.mark.parametrize(("text", "says"), [
    ("9100", "must be host:port"),
    (":9100", "must be host:port"),
    ("::1:9100", "must be host:port"),
    ("my host:9100", "must be host:port"),
    ("127.0.0.1:", "port must be a number from 1 to 65535, not ''"),
    ("127.0.0.1:0", "port must be a number from 1 to 65535, not '0'"),
    ("127.0.0.1:70000", "not '70000'"),
    ("127.0.0.1:http", "not 'http'"),
])
def test_a_bad_tablehost_http_is_refused_in_a_sentence_naming_it(text: str, says: str) -> None:
    with pytest.raises(ValueError, match="TABLEHOST_HTTP") as caught:
        Config.from_env({"TABLEHOST_HTTP": text})
    assert says in str(caught.value) and str(caught.value).endswith(".")


def test_tablehost_http_is_unset_by_default() -> None:
    assert Config.from_env({}).http is None
