"""Discord's limits: oversized uploads and over-long messages are refused as Discord refuses them."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakediscord.api import DiscordTest

CALLBACK = "POST /interactions/{webhook_id}/{webhook_token}/callback"
FOLLOW_UP = "POST /webhooks/{webhook_id}/{webhook_token}"


@pytest.fixture
def fake_discord_options() -> dict[str, Any]:
    """Serves a fake Discord whose attachment limit is tiny."""
    return {"heartbeat_interval": 0.5, "attachment_size_limit": 64}


async def test_upload_over_the_size_limit_is_refused(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("probe", "picture", user="ann", size=64)
    assert [r.status for r in discord_test.recorder.requests_to(FOLLOW_UP)] == [413]
    assert record.content == "Upload failed (413); try again."
    assert record.files == []


async def test_message_over_2000_characters_is_refused(discord_test: DiscordTest) -> None:
    with pytest.raises(TimeoutError):
        await discord_test.slash("probe", "secret", user="ann", text="x" * 2000, timeout=1.0)
    assert [r.status for r in discord_test.recorder.requests_to(CALLBACK)] == [400]
    assert discord_test.ephemerals("ann") == []
