"""The lobby on Discord: the commitment posted at the opening, Join and "Add my own randomness", the entropy shown."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from host.fairness import seal
from host.store import Store
from host.tables import Tables
from tests.discord.tablehost.conftest import SEED
from tests.discord.tablehost.helpers import said
from tests.fakediscord.api import DiscordTest


@pytest.fixture
async def tables(db_file: str, tally_registered: type) -> AsyncIterator[Tables]:
    """The table service as the bot runs it: each join's interaction id goes into the entropy."""
    store = await Store.open(db_file)
    yield Tables(store, debug=True, seeds=lambda: SEED)
    await store.close()


async def test_a_player_adds_their_own_randomness_and_finds_it_on_the_start_board(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await dt.slash("game", "new", user="ann", game="tally")
    opening = next(m for m in dt.messages("general") if "opened a Tally table" in m.content)
    assert f"sealed as SHA-256 {seal(SEED)}." in opening.content  # before anyone joined
    assert [b["label"] for b in opening.buttons()] == ["Join", "Add my own randomness"]
    assert SEED not in opening.content

    asked = await dt.click(opening, "Add my own randomness", user="bob")
    assert asked.modal is not None and asked.modal["title"] == "Add your own randomness"
    done = await dt.submit_modal(asked, {"Anything you like: words, digits, a song line": "  blue | moon  "})
    bob_part = f"{done.id}:blue / moon"
    assert done.ephemeral and f'Your join adds "{bob_part}"' in done.content
    joined = dt.messages("general")[-1]
    assert joined.content == "Bob joins with randomness of their own (2/4)." and "moon" not in joined.content

    record = await dt.click(opening, "Join", user="bob")
    assert "already seated" in record.content  # Join again changes nothing
    mine = await dt.slash("game", "join", user="ann", entropy="ann's words")  # seated already: replaces her part
    assert f'"{mine.id}:ann\'s words"' in mine.content

    await dt.slash("game", "start", user="ann")
    board = [m for m in dt.messages("general") if m.embeds][-1]
    entropy = f"{mine.id}:ann's words|{bob_part}"
    row = (await tables.table(str(dt.channel("general").id))).row
    assert row.entropy == entropy and row.commitment == seal(SEED) and row.commitment_message == str(opening.id)
    assert entropy.replace("|", "\\|") in said(board)  # the whole entropy, each player's part in it
    assert board.embeds[0]["footer"]["text"] == f"🎲 Fair dice: sealed as SHA-256 {seal(SEED)} · entropy {entropy}"
    assert dt.fake.messages[opening.id].buttons() == []  # seats are fixed: the opening post keeps only its text


async def test_a_modal_after_the_start_changes_nothing(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await dt.slash("game", "new", user="ann", game="tally")
    opening = next(m for m in dt.messages("general") if "opened a Tally table" in m.content)
    asked = await dt.click(opening, "Add my own randomness", user="bob")
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    before = (await tables.table(str(dt.channel("general").id))).row
    late = await dt.submit_modal(asked, {"Anything you like: words, digits, a song line": "too late"})
    assert "started or closed" in late.content
    after = (await tables.table(str(dt.channel("general").id))).row
    assert after.entropy == before.entropy and "too late" not in (after.entropy or "")
