"""``/table export [game]`` (cogs/export.py): the file goes privately to whoever asked, or a clear refusal."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from cogs.export import MAX_FILE, export
from host.export import RUNNING, load_export
from host.tables import Tables
from host.verify import verify
from tests.host.conftest import ANN, BOB, CHANNEL, started_tally
from tests.host.test_export import play_out

BACKENDS = ("sqlite", "postgres")
"""Every test here runs on a SQLite file and on a PostgreSQL database (tests/host/conftest.py)."""


class Followup:
    """Collects what the command answers."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, content: str, **kwargs: Any) -> None:
        self.sent.append({"content": content, **kwargs})


class Response:
    def __init__(self) -> None:
        self.deferred: dict[str, Any] | None = None

    async def defer(self, **kwargs: Any) -> None:
        self.deferred = kwargs


def interaction(tables: Tables, channel: str = CHANNEL) -> Any:
    return SimpleNamespace(response=Response(), followup=Followup(), channel_id=int(channel),
                           client=SimpleNamespace(tables=tables))


async def test_the_channels_latest_finished_game_comes_as_a_private_file(tables: Tables) -> None:
    await play_out(tables, "nxs", seed=1)
    latest = await play_out(tables, "xisk", resign_after=40)
    asked = interaction(tables)
    await export(asked, None)
    assert asked.response.deferred == {"ephemeral": True, "thinking": True}
    (answer,) = asked.followup.sent
    assert answer["ephemeral"] is True
    assert answer["file"].filename == f"xisk-{latest}.json"
    assert f"XISK game {latest} (finished, 41 moves)" in answer["content"]
    assert f"python3 tasks.py run --verify xisk-{latest}.json" in answer["content"]
    body = answer["file"].fp.read()
    assert len(body) < MAX_FILE and verify(load_export(body)).ok
    assert json.loads(body)["id"] == latest


async def test_a_game_by_id_must_be_this_channels(tables: Tables) -> None:
    first = await play_out(tables, "nxs", seed=1)
    await play_out(tables, "nxs", seed=2)
    asked = interaction(tables)
    await export(asked, first)
    assert asked.followup.sent[0]["file"].filename == f"nxs-{first}.json"
    elsewhere = interaction(tables, "777")
    await export(elsewhere, first)
    (answer,) = elsewhere.followup.sent
    assert "file" not in answer and answer["ephemeral"] is True
    assert answer["content"] == f"This channel has no game {first}: export a game from the channel it was played in."
    missing = interaction(tables)
    await export(missing, 12345)
    assert "no game 12345" in missing.followup.sent[0]["content"]


async def test_a_running_game_is_refused_and_an_empty_channel_says_so(tables: Tables) -> None:
    empty = interaction(tables)
    await export(empty, None)
    assert empty.followup.sent[0]["content"] == "This channel has no finished game to export yet."
    await started_tally(tables, ANN, BOB)
    running = interaction(tables)
    await export(running, None)
    assert running.followup.sent[0]["content"] == RUNNING
    table = await tables.table(CHANNEL)
    by_id = interaction(tables)
    await export(by_id, table.row.id)
    assert by_id.followup.sent[0]["content"] == RUNNING and "file" not in by_id.followup.sent[0]
