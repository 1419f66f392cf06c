"""`/<game> new bots:N level:L` seats N bots as the table opens, so one person and bots can start at once."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogs.client import Tablehost
from host.bots import is_bot, level_of
from host.store import Status
from host.tables import Tables
from host.thinker import Thinker
from tests.fakediscord.api import DiscordTest

GROUPS = {"xisk": "XISK", "nxs": "NXS", "nexo": "Nexohominis"}
"""Each game's command group and title."""


@pytest.fixture
def quick(tables: Tables) -> Iterator[Tables]:
    """Lets the bots think briefly (a hard bot's move within 0.1 s), so a test waits little for their turns."""
    slow, tables.thinker = tables.thinker, Thinker(budget=0.1)
    yield tables
    tables.thinker.close()
    tables.thinker = slow


async def settled(dt: DiscordTest) -> None:
    """Waits until the bots have played every turn they had and their posts are out."""
    assert isinstance(dt.bot, Tablehost)
    await dt.bot.bots.settle()
    await dt.quiet()


@pytest.mark.parametrize("group", list(GROUPS))
async def test_new_with_a_hard_bot_lets_one_person_start_at_once(
    discord_test: DiscordTest, quick: Tables, group: str
) -> None:
    dt, title = discord_test, GROUPS[group]
    record = await dt.slash(group, "new", user="ann", bots=1, level="hard")
    assert record.content.startswith("Done.")
    lines = [m.content for m in dt.messages("general")]
    assert f"Ann opened a {title} table" in lines[0]
    seats = 6 if group == "xisk" else 2
    assert lines[1] == f"Ann seats {title} bot (hard) (2/{seats}). It plays its turns at once."
    await dt.slash("game", "start", user="ann")
    await settled(dt)
    table = await quick.table(str(dt.channel("general").id))
    assert table.game is not None and table.row.status is Status.RUNNING and not table.game.is_over
    assert [(is_bot(s.player_id), s.name) for s in table.seats] == [(False, "Ann"), (True, f"{title} bot (hard)")]
    assert level_of(table.seats[1].player_id) == "hard"
    assert table.game.to_act() == ["Ann"]  # the bot played whatever was its to play, and waits for her


async def test_xisk_new_with_five_bots_fills_the_table_in_one_line(discord_test: DiscordTest, quick: Tables) -> None:
    dt = discord_test
    await dt.slash("xisk", "new", user="ann", bots=5, level="easy")
    names = ", ".join(["XISK bot (easy)", *(f"XISK bot (easy) ({n})" for n in range(2, 6))])
    line = f"Ann seats 5 XISK bots (easy): {names} (6/6). They play their turns at once."
    assert dt.messages("general")[-1].content == line
    table = await quick.table(str(dt.channel("general").id))
    assert len(table.seats) == 6 and sum(is_bot(s.player_id) for s in table.seats) == 5
    assert (await dt.slash("game", "join", user="bob")).content == "The table is full (6 players)."


async def test_more_bots_than_the_table_holds_are_refused_and_nothing_is_opened(
    discord_test: DiscordTest, quick: Tables
) -> None:
    dt = discord_test
    record = await dt.slash("nxs", "new", user="ann", bots=2)
    assert record.content == ("A NXS table seats 2 players: room for 1 bot beside you; 2 asked. Nothing was opened.")
    assert dt.messages("general") == [] and dt.fake.guild.threads == []
    assert await quick.store.active_game(str(dt.channel("general").id)) is None


async def test_game_new_seats_bots_in_the_game_s_own_thread(discord_test: DiscordTest, quick: Tables) -> None:
    dt = discord_test
    record = await dt.slash("game", "new", user="ann", game="xisk", bots=2, level="normal", thread=True)
    assert record.content.startswith('Done. Your join adds "-"')  # one answer, with the opening's entropy note
    [starter] = dt.messages("general")  # the channel gets its one line; all else is in the thread
    thread = dt.fake.guild.threads[-1]
    assert starter.content == "Ann opened a XISK table: join in the thread."
    opened, seated = (m.content for m in dt.messages(thread))
    assert "Ann opened a XISK table" in opened
    assert seated.startswith("Ann seats 2 XISK bots (normal): XISK bot (normal), XISK bot (normal) (2) (3/6).")
    table = await quick.table(str(thread.id))
    assert [s.player_id for s in table.seats][1:] == ["bot:normal:1", "bot:normal:2"]


async def test_every_new_offers_bots_up_to_five_and_the_three_levels(discord_test: DiscordTest) -> None:
    for group in ("game", *GROUPS):
        command = discord_test.fake.find_command(group, guild_id=None)
        new = next(o for o in command["options"] if o["name"] == "new")
        options = {o["name"]: o for o in new["options"]}
        assert (options["bots"]["min_value"], options["bots"]["max_value"]) == (0, 5), group
        assert [c["value"] for c in options["level"]["choices"]] == ["easy", "normal", "hard"], group
