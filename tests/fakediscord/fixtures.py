"""Pytest fixtures: a fake Discord server, a bot running on it, and quick retry back-off.

``tests/discord/conftest.py`` exposes them. A test module (or a conftest below it) chooses its
bot by overriding ``bot_factory`` with a callable that builds a fresh, unstarted bot::

    @pytest.fixture
    def bot_factory(tmp_path: Path) -> BotFactory:
        return lambda: TablehostBot(db_path=tmp_path / "games.db")

    async def test_board_is_posted(discord_test: DiscordTest) -> None:
        record = await discord_test.slash("game", "board", user="ann", channel="table-1")
        assert record.files[0].image().format == "PNG"

``fake_discord_options`` can be overridden the same way (keyword arguments of ``FakeDiscord``).
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from typing import Any

import discord.http
import discord.webhook.async_
import pytest

from tests.fakediscord.api import BotFactory, DiscordTest
from tests.fakediscord.server import FakeDiscord

__all__ = ["bot_factory", "discord_test", "fake_discord", "fake_discord_options", "quick_backoff"]

HEARTBEAT_INTERVAL = 0.5
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", None})


@pytest.fixture
def fake_discord_options() -> dict[str, Any]:
    """Returns keyword arguments for ``FakeDiscord`` (override to change the deadline, heartbeat...)."""
    return {"heartbeat_interval": HEARTBEAT_INTERVAL}


def _refuse_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Makes any name lookup other than loopback fail, so no test can reach the real Discord."""
    real = socket.getaddrinfo

    def loopback_only(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else host
        if name not in LOOPBACK_HOSTS:
            raise OSError(f"fake Discord tests may not reach the network (looked up {name!r})")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", loopback_only)


@pytest.fixture
async def fake_discord(
    fake_discord_options: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[FakeDiscord]:
    """Serves a fake Discord on 127.0.0.1 and points discord.py at it (and nowhere else) for one test."""
    _refuse_network(monkeypatch)
    fake = FakeDiscord(**fake_discord_options)
    await fake.start()
    try:
        with fake.patch_discord():
            yield fake
    finally:
        await fake.close()


@pytest.fixture
def bot_factory() -> BotFactory:
    """Returns the callable that builds the bot under test; override it in a conftest or module."""
    raise pytest.UsageError("override the `bot_factory` fixture to return a callable that builds a bot")


@pytest.fixture
async def discord_test(fake_discord: FakeDiscord, bot_factory: BotFactory) -> AsyncIterator[DiscordTest]:
    """Starts ``bot_factory()`` on the fake server (READY, commands synced) and yields the test API."""
    api = DiscordTest(fake_discord)
    try:
        await api.start_bot(bot_factory)
        yield api
    finally:
        await api.close()


class _QuickAsyncio:
    """Stands in for ``asyncio`` inside discord.py's HTTP modules, with sleeps shortened."""

    def __init__(self, factor: float) -> None:
        self.factor = factor

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float, result: Any = None) -> Any:
        """Sleeps ``delay * factor`` seconds."""
        return await asyncio.sleep(delay * self.factor, result)


@pytest.fixture
def quick_backoff(monkeypatch: pytest.MonkeyPatch) -> float:
    """Shortens discord.py's REST retry sleeps (1 s, 3 s, 5 s, 7 s after a 5xx) twentyfold."""
    factor = 0.05
    monkeypatch.setattr(discord.http, "asyncio", _QuickAsyncio(factor))
    monkeypatch.setattr(discord.webhook.async_, "asyncio", _QuickAsyncio(factor))
    return factor
