"""Discord tests run the real discord.py client against the fake server in ``tests.fakediscord``."""

from __future__ import annotations

import pytest

from tests.discord.probe_bot import make_probe_bot
from tests.fakediscord.api import BotFactory
from tests.fakediscord.fixtures import discord_test, fake_discord, fake_discord_options, quick_backoff

__all__ = ["discord_test", "fake_discord", "fake_discord_options", "quick_backoff"]


@pytest.fixture(name="bot_factory")
def probe_bot_factory() -> BotFactory:
    """Builds the small probe bot that the fake server's self-tests drive."""
    return make_probe_bot
