"""Spectator channels through the real bot: every public post copied, edits followed, nothing hidden."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from types import SimpleNamespace

import discord
import pytest

from cogs import spectate, spectating
from host.outbox import Outbox
from host.tables import Tables
from tests.discord.tablehost.helpers import last_turn_message, open_tally, pictures, said
from tests.discord.tablehost.test_xisk_cog import CARD, NAMES, choose, held_cards, play, table_of
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.payloads import MEMBER_PERMISSIONS
from tests.fakediscord.recorder import SentMessage

CREATE_MESSAGE = "POST /channels/{channel_id}/messages"


def unpinged(dt: DiscordTest, text: str) -> str:
    """Returns a post's text as its copy shows it: a board's ping before the step that names its player is left
    out ("<@1> Ann: your move." is copied "Ann: your move."), any other mention of a player is their name."""
    names = {str(dt.user(u).id): u.title() for u in ("ann", "bob", "cy")}
    text = re.sub(r"<@!?(\d+)> (?=(\w+))", lambda m: "" if names.get(m[1]) == m[2] else m[0], text)
    return re.sub(r"<@!?(\d+)>", lambda m: names.get(m[1], m[0]), text)


def assert_copy(dt: DiscordTest, source: SentMessage, copy: SentMessage) -> None:
    """Checks that a copy shows what its source shows, picture included, with no buttons and no pings."""
    assert copy.content == unpinged(dt, source.content)
    assert copy.embeds == source.embeds
    assert [(f.filename, f.data) for f in copy.files] == [(f.filename, f.data) for f in source.files]
    assert copy.components() == [] and copy.pinged == []
    assert all(body.get("allowed_mentions", {"parse": []}) == {"parse": []} for body in copy.bodies)


def public_texts(dt: DiscordTest, channel: str) -> str:
    return "\n".join(said(m) for m in dt.messages(channel))


async def test_a_spectator_channel_copies_every_public_post_and_edit_in_order_and_no_dm(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await dt.slash("game", "new", user="ann", game="tally", options="target=9")
    record = await dt.slash("table", "spectate", user="ann", to=dt.channel("table-1"), stop=False)
    assert record.ephemeral and record.content.startswith(f"{dt.channel('table-1').mention} now spectates this Tally")
    [header] = dt.messages("table-1")
    general = dt.channel("general")
    assert header.content == f"Spectating Tally from {general.mention}: every public post is copied here."
    assert header.pinged == [] and header.components() == []
    first = len(dt.messages("general"))  # the lobby's opening came before

    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "join", user="cy")
    await dt.slash("game", "start", user="ann")
    await dt.click(last_turn_message(dt), "Add 3", user="ann")  # a button
    await dt.slash("game", "play", user="bob", move="roll")
    await dt.slash("game", "play", user="cy", move="add 2")
    await dt.slash("game", "play", user="ann", move="add 3")
    await dt.slash("game", "play", user="bob", move="add 1")  # 9: Bob wins
    table = await tables.table(str(general.id))
    assert table.game.is_over and table.game.winners == ["Bob"]

    await dt.wait_until(lambda: any(f.filename.endswith(".gif") for m in dt.messages("general") for f in m.files))
    # the game's own posts; its replay (posted when it ended) is not copied (see the closing note of issue 14)
    sources = [m for m in dt.messages("general")[first:] if not any(f.filename.endswith(".gif") for f in m.files)]
    copies = dt.messages("table-1")[1:]
    assert len(copies) == len(sources) == 8  # two joins, then the start's board and one board a move
    for source, copy in zip(sources, copies, strict=True):
        assert_copy(dt, source, copy)
    boards = pictures(sources)
    assert len(boards) == 6 and all(b.edits >= 1 for b in boards[:-1])  # each closed when its turn ended
    assert all(c.edits == 1 for c in pictures(copies)[:-1])  # each close followed (copies have no buttons to drop)
    assert not dt.recorder.requests_to("GET /channels/{channel_id}/messages/{message_id}")  # closed unfetched
    assert any(s.pinged for s in sources) and not any(c.pinged for c in copies)
    assert "Bob wins!" in said(copies[-1]) and pictures([copies[-1]])

    dms = [m.content for u in ("ann", "bob", "cy") for m in dt.dms(u)]
    assert any("Your secret is" in d for d in dms)
    shown = public_texts(dt, "table-1")
    assert "secret" not in shown.lower()
    assert not [line for d in dms for line in d.splitlines()[1:] if line in shown]  # a DM's first line is where


async def test_a_spectator_channel_follows_a_xisk_game_from_the_middle_without_a_card_of_any_hand(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await dt.slash("xisk", "new", user="ann", cards_per_player=4)
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    rng = random.Random(3)
    for _ in range(6):  # some claims, before anyone watches
        table = await table_of(dt, tables)
        [actor] = table.game.to_act()
        await play(dt, NAMES[actor], choose(table.game.legal_moves(actor), rng), table)
    live = dt.messages("general")[-1]
    first = len(dt.messages("general")) - 1
    await dt.slash("table", "spectate", user="cy", to=dt.channel("table-2"), stop=False)  # cy may manage channels
    header, start = dt.messages("table-2")
    assert header.content.startswith("Spectating XISK from")
    assert_copy(dt, live, start)  # the current board, as it stands

    edits = 0
    for _ in range(80):  # the rest of the claims, then Supply phases placed a chip at a time: edits in a turn
        table = await table_of(dt, tables)
        [actor] = table.game.to_act()
        legal = table.game.legal_moves(actor)
        ones = [m for m in legal if m.startswith("place") and m.endswith(" 1")]
        move = ones[0] if ones else choose(legal, rng)
        before = len(dt.messages("general"))
        await play(dt, NAMES[actor], move, table)
        if len(dt.messages("general")) == before:
            edits += 1
            assert_copy(dt, dt.messages("general")[-1], dt.messages("table-2")[-1])  # the edit followed at once
        if edits >= 4:
            break
    assert edits >= 4
    sources, copies = dt.messages("general")[first:], dt.messages("table-2")[1:]
    assert len(sources) == len(copies)
    for source, copy in zip(sources, copies, strict=True):
        assert_copy(dt, source, copy)

    shown = public_texts(dt, "table-2")
    assert not set(CARD.findall(shown)) & held_cards(await table_of(dt, tables))
    assert "Your hand" not in shown
    for user in ("ann", "bob"):
        for dm in dt.dms(user):
            assert not [line for line in dm.content.splitlines()[1:] if line.strip() and line in shown]


async def test_game_board_in_a_spectator_channel_shows_the_game_it_spectates(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await open_tally(dt, "ann", "bob")
    await dt.slash("table", "spectate", user="ann", to=dt.channel("table-1"))
    before = len(dt.messages("general"))
    record = await dt.slash("game", "board", user="cy", channel="table-1")
    assert record.ephemeral and record.content == "Posted."
    board = dt.messages("table-1")[-1]
    assert pictures([board]) and board.content == "Tally — running. To act: Ann." and board.pinged == []
    assert len(dt.messages("general")) == before  # posted where it was asked for
    nothing = await dt.slash("game", "board", user="cy", channel="table-2")
    assert nothing.ephemeral and "no game in this channel" in nothing.content


async def test_the_board_of_a_spectator_channel_is_its_game_even_when_a_newer_one_began_beside_it(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await open_tally(dt, "ann", "bob", options="target=3")
    watch = str(dt.channel("table-1").id)
    await dt.slash("table", "spectate", user="ann", to=dt.channel("table-1"))
    await dt.slash("game", "play", user="ann", move="add 3")  # Ann wins
    watched = await spectating.board_table(dt.bot, watch)
    await dt.slash("game", "new", user="bob", game="tally")  # a new game in #general, not spectated
    table = await spectating.board_table(dt.bot, watch)
    assert table.row.id == watched.row.id and table.game.is_over and table.game.winners == ["Ann"]
    new = await tables.table(str(dt.channel("general").id))
    assert new.row.id != table.row.id


async def test_stop_ends_the_copies_and_says_so(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await open_tally(dt, "ann", "bob")
    watch = dt.channel("table-1")
    await dt.slash("table", "spectate", user="ann", to=watch, stop=False)
    assert len(dt.messages("table-1")) == 2  # the header and the live board
    await dt.slash("game", "play", user="ann", move="add 1")
    assert len(dt.messages("table-1")) == 3

    record = await dt.slash("table", "spectate", user="ann", to=watch, stop=True)
    assert record.ephemeral and record.content == f"Stopped copying this Tally game to {watch.mention}."
    assert dt.messages("table-1")[-1].content == f"No longer spectating Tally from {dt.channel('general').mention}."
    count = len(dt.messages("table-1"))
    await dt.slash("game", "play", user="bob", move="add 1")
    assert len(dt.messages("table-1")) == count
    again = await dt.slash("table", "spectate", user="ann", to=watch, stop=True)
    assert again.content == f"{watch.mention} does not spectate this game."

    # typed in the spectator channel itself, with no channel named
    await dt.slash("table", "spectate", user="ann", to=watch, stop=False)
    here = await dt.slash("table", "spectate", user="ann", channel="table-1", stop=True)
    assert here.content == f"Stopped copying the Tally game from {dt.channel('general').mention} here."
    table = await tables.table(str(dt.channel("general").id))
    assert await dt.bot.spectators.channels(table.row.id) == []


async def test_who_may_spectate_and_where_is_checked(discord_test: DiscordTest) -> None:
    dt = discord_test
    none_here = await dt.slash("table", "spectate", user="ann", channel="table-1", to=dt.channel("table-2"))
    assert none_here.ephemeral and "no game in this channel" in none_here.content
    await open_tally(dt, "ann", "bob")
    plain_bob = replace(dt.user("bob"), permissions=MEMBER_PERMISSIONS)  # seated, but not the creator
    refused = await dt.slash("table", "spectate", user=plain_bob, to=dt.channel("table-1"))
    assert refused.ephemeral and "creator or someone with Manage Channels" in refused.content
    same = await dt.slash("table", "spectate", user="ann", to=dt.channel("general"))
    assert "the game's own channel" in same.content
    await dt.slash("game", "new", user="cy", game="tally", channel="table-2")
    busy = await dt.slash("table", "spectate", user="ann", to=dt.channel("table-2"))
    assert busy.content == f"{dt.channel('table-2').mention} has a game of its own: choose a channel without one."
    unnamed = await dt.slash("table", "spectate", user="ann")
    assert unnamed.content == "Name the spectator channel: `/table spectate to:#channel`."
    await dt.slash("table", "spectate", user="ann", to=dt.channel("table-1"))
    twice = await dt.slash("table", "spectate", user="ann", to=dt.channel("table-1"))
    assert twice.content == f"{dt.channel('table-1').mention} already spectates this game."
    assert len(dt.messages("table-1")) == 2  # one header, one board
    assert all(r.ephemeral for r in (refused, same, busy, unnamed, twice))
    assert dt.logged_errors() == []


async def test_a_channel_of_another_server_is_refused(discord_test: DiscordTest) -> None:
    dt = discord_test
    await dt.fake.join_guild("Second", channels=["lounge"])
    await open_tally(dt, "ann", "bob")
    lounge = dt.channel("lounge", guild="Second")
    far = await dt.slash("table", "spectate", user="ann", to=lounge)
    assert far.ephemeral
    assert far.content == f"{lounge.mention} is in another server: a spectator channel must be in this one."
    assert dt.messages(lounge) == []


def test_a_channel_the_bot_cannot_post_pictures_in_is_refused() -> None:
    everything = discord.Permissions.all()

    def channel(guild_id: int, perms: discord.Permissions) -> SimpleNamespace:
        guild = SimpleNamespace(id=guild_id, me=object())
        return SimpleNamespace(id=5, mention="<#5>", guild=guild, permissions_for=lambda who: perms)

    far = spectating.target_problem(channel(2, everything), guild_id=1, game_channel_id="9", caller=None)
    assert far == "<#5> is in another server: a spectator channel must be in this one."
    assert spectating.target_problem(channel(2, everything), guild_id=None, game_channel_id="9", caller=None) == far
    mute = discord.Permissions(view_channel=True, send_messages=True, embed_links=True, read_message_history=True)
    assert spectating.target_problem(channel(1, mute), guild_id=1, game_channel_id="9", caller=None) == (
        "I need Attach Files in <#5> to copy the game there."
    )
    assert spectating.target_problem(channel(1, everything), guild_id=1, game_channel_id="5", caller=None) == (
        "That is the game's own channel: choose another channel to copy it to."
    )
    assert spectating.target_problem(channel(1, everything), guild_id=1, game_channel_id="9", caller=None) is None


async def test_a_spectator_channel_closed_to_the_bot_never_holds_the_game_up_and_is_dropped(
    discord_test: DiscordTest, tables: Tables, caplog: pytest.LogCaptureFixture
) -> None:
    dt = discord_test
    await open_tally(dt, "ann", "bob")
    watch = dt.channel("table-1")
    await dt.slash("table", "spectate", user="ann", to=watch)
    closed = dt.faults.fail(
        CREATE_MESSAGE, status=403, times=None, body={"message": "Missing Permissions", "code": 50013},
        match=lambda request: request.match_info.get("channel_id") == str(watch.id),
    )
    record = await dt.slash("game", "play", user="ann", move="add 2")
    assert record.content == "Played `add 2`."
    assert "Ann adds 2: the total is 2." in said(dt.messages("general")[-1])
    assert closed.hits == 1
    game_id = (await tables.table(str(dt.channel("general").id))).row.id
    assert await dt.bot.spectators.channels(game_id) == []
    warned = [r.getMessage() for r in caplog.records if r.name == "cogs.spectate"]
    assert warned == [f"game {game_id}: spectator channel {watch.id} is gone or closed to the bot (403, code 50013);"
                      " no longer copied to"]
    await dt.slash("game", "play", user="bob", move="add 1")
    assert closed.hits == 1  # no longer tried
    assert dt.logged_errors() == []


async def test_a_retried_announcement_copies_each_post_once(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await open_tally(dt, "ann", "bob")
    await dt.slash("table", "spectate", user="ann", to=dt.channel("table-1"))
    general = dt.channel("general")
    game_id = (await tables.table(str(general.id))).row.id
    source = await dt.bot.get_partial_messageable(general.id).send("A public post.")
    out = Outbox(game_id=game_id, game="tally", channel_id=str(general.id), id=9999)
    count = len(dt.messages("table-1"))
    for _ in range(2):  # a delivery, and its retry
        await spectate.copy_post(dt.bot, out, source.id, spectate.Post("A public post."), part="c0")
    await dt.quiet()
    assert [m.content for m in dt.messages("table-1")[count:]] == ["A public post."]
