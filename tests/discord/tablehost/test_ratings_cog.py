"""Ratings on Discord: stats answer the caller only, a leaderboard is public and pings nobody, per server.

They run as ``/table stats`` and ``/table leaderboard``; the bot rates each game as its end is announced.
"""

from __future__ import annotations

from host.ratings import Ratings
from host.tables import Tables
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.server import FakeChannel


def replays(dt: DiscordTest, ch: FakeChannel | str) -> int:
    return sum(1 for m in dt.messages(ch) for f in m.files if f.filename.endswith("-replay.gif"))


async def won_by(dt: DiscordTest, winner: str, loser: str, ch: FakeChannel | str = "general") -> None:
    """Plays a Tally game in ``ch`` that ``winner`` (seat one) wins at once, and waits for its replay's post
    (drawn in the background: on a loaded machine it would land in the middle of the next step)."""
    posted = replays(dt, ch)
    await dt.slash("game", "new", user=winner, channel=ch, game="tally", options="target=1")
    await dt.slash("game", "join", user=loser, channel=ch)
    await dt.slash("game", "start", user=winner, channel=ch)
    await dt.slash("game", "play", user=winner, channel=ch, move="add 1")
    await dt.wait_until(lambda: replays(dt, ch) > posted, timeout=60)


async def test_stats_show_rating_games_wins_and_win_rate_to_the_caller_only(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await won_by(dt, "ann", "bob")
    await won_by(dt, "ann", "bob")
    assert await Ratings(tables.store).sweep() == 0  # the bot rated each game as its end was announced
    public = len(dt.messages("general"))
    await dt.slash("table", "stats", user="ann")
    mine = dt.ephemerals("ann")[-1]
    ann, bob = dt.user("ann").id, dt.user("bob").id
    assert f"**Ratings of <@{ann}>** in this server" in mine.content
    rating = (await Ratings(tables.store).stats(str(dt.guild().id), str(ann)))[0].rating
    assert f"**Tally**: rating **{rating:.1f}** · 2 games · 2 wins (100% won)" in mine.content
    assert rating > 0
    await dt.slash("table", "stats", user="ann", member=dt.user("bob"))
    theirs = dt.ephemerals("ann")[-1]
    assert f"<@{bob}>" in theirs.content and "2 games · 0 wins (0% won)" in theirs.content
    assert "rating **-" in theirs.content
    await dt.slash("table", "stats", user="cy")
    assert "has no rated game in this server yet" in dt.ephemerals("cy")[-1].content
    assert len(dt.messages("general")) == public  # nothing posted in the channel


async def test_the_leaderboard_is_public_best_first_and_pings_nobody(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await won_by(dt, "ann", "bob")
    await won_by(dt, "ann", "cy")
    await won_by(dt, "bob", "cy")
    assert await Ratings(tables.store).sweep() == 0
    await dt.slash("table", "leaderboard", user="cy", game="Tally")
    assert dt.ephemerals("cy")[-1].content == "Posted."
    board = dt.messages("general")[-1]
    ann, bob, cy = (dt.user(n).id for n in ("ann", "bob", "cy"))
    assert not board.ephemeral and board.pinged == []
    lines = board.content.splitlines()
    assert lines[0] == "🏆 **Tally**: top 3"
    assert lines[1].startswith(f"1. <@{ann}> **") and lines[1].endswith("2 games, 2 wins (100%)")
    assert lines[2].startswith(f"2. <@{bob}> **") and lines[3].startswith(f"3. <@{cy}> **")
    await dt.slash("table", "leaderboard", user="cy")  # every game rated here
    assert dt.messages("general")[-1].content == board.content
    await dt.slash("table", "leaderboard", user="cy", game="chess")
    assert "There is no game called 'chess'" in dt.ephemerals("cy")[-1].content
    await dt.slash("table", "leaderboard", user="cy", game="nxs")
    assert dt.messages("general")[-1].content.startswith("No rated NXS game in this server yet.")


async def test_each_server_has_its_own_ratings(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    second = await dt.fake.join_guild("Second", channels=["lounge"])
    lounge = dt.channel("lounge", guild=second)
    await won_by(dt, "ann", "bob")
    await won_by(dt, "bob", "ann", lounge)
    await won_by(dt, "bob", "ann", lounge)
    assert await Ratings(tables.store).sweep() == 0
    await dt.slash("table", "stats", user="ann")
    assert "1 game · 1 win (100% won)" in dt.ephemerals("ann")[-1].content
    await dt.slash("table", "stats", user="ann", channel=lounge)
    assert "2 games · 0 wins (0% won)" in dt.ephemerals("ann")[-1].content
    await dt.slash("table", "leaderboard", user="ann", channel=lounge)
    first = dt.messages(lounge)[-1].content.splitlines()[1]
    assert first.startswith(f"1. <@{dt.user('bob').id}>")
