"""The shared /game cog, end to end through the real discord.py client and the fake Discord."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

from cogs.buttons import custom_id
from host.tables import Tables
from tests.discord.tablehost.helpers import field, last_turn_message, open_tally, pictures, said
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.payloads import MEMBER_PERMISSIONS

CREATE_MESSAGE = "POST /channels/{channel_id}/messages"


async def test_start_posts_a_picture_pings_the_first_player_and_dms_each_secret(discord_test: DiscordTest) -> None:
    await open_tally(discord_test, "ann", "bob")
    ann = discord_test.user("ann")
    [start] = pictures(discord_test.messages("general"))
    assert "Tally begins: Ann, Bob." in said(start) and ann.mention in start.content
    assert start.pinged == [ann.id]
    [ann_dm], [bob_dm] = discord_test.dms("ann"), discord_test.dms("bob")
    assert "Your secret is" in ann_dm.content and "Your secret is" in bob_dm.content
    channel_text = "\n".join(m.content for m in discord_test.messages("general"))
    assert "secret" not in channel_text.lower()


async def test_board_reposts_the_picture(discord_test: DiscordTest) -> None:
    await open_tally(discord_test, "ann", "bob")
    before = len(discord_test.messages("general"))
    record = await discord_test.slash("game", "board", user="cy")  # a spectator may look
    assert record.deferred and record.in_time and record.ephemeral
    [post] = discord_test.messages("general")[before:]
    [board] = post.files
    assert board.image().width == 800
    assert "To act: Ann" in post.content


async def test_a_move_is_announced_with_a_new_picture_and_the_next_ping(discord_test: DiscordTest) -> None:
    await open_tally(discord_test, "ann", "bob")
    before = len(discord_test.messages("general"))
    record = await discord_test.slash("game", "play", user="ann", move="add 2")
    assert record.ephemeral and record.in_time and record.content == "Played `add 2`."
    [post] = discord_test.messages("general")[before:]
    assert field(post, "Last turn") == "Ann adds 2: the total is 2."  # the new turn's board sums the last one up
    bob = discord_test.user("bob")
    assert post.content == f"{bob.mention} Bob: your move." and post.pinged == [bob.id]  # the ping names the step
    assert pictures([post])


async def test_an_illegal_move_gets_an_ephemeral_refusal_for_the_caller_only(discord_test: DiscordTest) -> None:
    await open_tally(discord_test, "ann", "bob")
    before, bob_saw = len(discord_test.messages("general")), len(discord_test.ephemerals("bob"))
    record = await discord_test.slash("game", "play", user="ann", move="add 9")
    assert record.ephemeral and record.content == "You may add 1, 2 or 3, not 9."
    assert [m.content for m in discord_test.ephemerals("ann")][-1] == "You may add 1, 2 or 3, not 9."
    assert len(discord_test.messages("general")) == before
    assert len(discord_test.ephemerals("bob")) == bob_saw


async def test_out_of_turn_and_non_players_are_refused(discord_test: DiscordTest) -> None:
    await open_tally(discord_test, "ann", "bob")
    out_of_turn = await discord_test.slash("game", "play", user="bob", move="add 1")
    assert out_of_turn.ephemeral and "not your turn" in out_of_turn.content
    stranger = await discord_test.slash("game", "play", user="cy", move="add 1")
    assert stranger.ephemeral and "not playing" in stranger.content


async def test_move_autocomplete_lists_the_callers_legal_moves(discord_test: DiscordTest) -> None:
    await open_tally(discord_test, "ann", "bob")
    assert await discord_test.autocomplete("game", "play", focused="move", user="ann", move="ad") == [
        "add 1", "add 2", "add 3"
    ]
    assert await discord_test.autocomplete("game", "play", focused="move", user="bob", move="") == []


async def test_hand_is_ephemeral_and_only_the_callers(discord_test: DiscordTest) -> None:
    await open_tally(discord_test, "ann", "bob")
    record = await discord_test.slash("game", "hand", user="bob")
    assert record.ephemeral and record.content.startswith("**Secret:**")
    secret = record.content.split("**Secret:** ")[1]
    assert secret in discord_test.dms("bob")[0].content


async def test_log_lists_recent_moves(discord_test: DiscordTest) -> None:
    await open_tally(discord_test, "ann", "bob")
    await discord_test.slash("game", "play", user="ann", move="add 1")
    await discord_test.slash("game", "play", user="bob", move="roll")
    record = await discord_test.slash("game", "log", user="cy")
    assert record.ephemeral
    seal, *moves = record.content.splitlines()
    assert moves == ["`   1` Ann: `add 1`", "`   2` Bob: `roll`"]
    assert re.fullmatch(r"🎲 Fair dice: sealed as SHA-256 [0-9a-f]{64} · entropy -\|-", seal)  # the seal heads the log


async def test_a_button_plays_its_move_and_an_old_button_is_refused(discord_test: DiscordTest) -> None:
    await open_tally(discord_test, "ann", "bob")
    first = last_turn_message(discord_test)
    record = await discord_test.click(first, "Add 3", user="ann")
    assert record.in_time and record.content == "Played `add 3`."
    assert first.buttons() == []  # the clicked message loses its buttons
    assert field(discord_test.messages("general")[-1], "Last turn") == "Ann adds 3: the total is 3."

    second = last_turn_message(discord_test)
    assert second.buttons()
    await discord_test.slash("game", "play", user="bob", move="add 1")  # played without the buttons
    assert second.buttons() == []  # a typed move retires the old board's buttons too
    assert last_turn_message(discord_test).buttons() and last_turn_message(discord_test).id != second.id


async def test_a_button_click_out_of_turn_is_refused(discord_test: DiscordTest) -> None:
    await open_tally(discord_test, "ann", "bob")
    record = await discord_test.click(last_turn_message(discord_test), "Add 1", user="bob")
    assert record.ephemeral and "not your turn" in record.content


async def test_closed_dms_give_a_notice_without_the_secret_and_the_game_goes_on(discord_test: DiscordTest) -> None:
    closed = discord_test.fake.close_dms(discord_test.user("bob"))
    await open_tally(discord_test, "ann", "bob")
    assert closed.hits >= 1 and discord_test.dms("bob") == []
    notices = [m.content for m in discord_test.messages("general") if "DMs are closed" in m.content]
    assert len(notices) == 1 and "Bob" in notices[0] and "/game hand" in notices[0]
    hand = await discord_test.slash("game", "hand", user="bob")
    assert hand.ephemeral and hand.content.startswith("**Secret:**")
    assert all("Secret" not in m.content for m in discord_test.messages("general"))
    await discord_test.slash("game", "play", user="ann", move="add 1")
    record = await discord_test.slash("game", "play", user="bob", move="add 1")
    assert record.content == "Played `add 1`."


async def test_a_rate_limited_post_is_retried_and_arrives_once(discord_test: DiscordTest) -> None:
    await open_tally(discord_test, "ann", "bob")
    before = len(discord_test.messages("general"))
    limit = discord_test.faults.rate_limit(CREATE_MESSAGE, retry_after=0.2)
    await discord_test.slash("game", "play", user="ann", move="add 1")
    assert limit.hits == 1
    posts = discord_test.messages("general")[before:]
    assert [field(p, "Last turn") for p in posts] == ["Ann adds 1: the total is 1."]


async def test_a_failing_upload_is_reported_and_the_move_stays_committed(
    discord_test: DiscordTest, quick_backoff: float, tables, monkeypatch
) -> None:
    # A 5xx is Discord being busy: the move's delivery waits it out in the background, and the
    # player is told so once, after the bot's wait (``busy_after``), never that the move failed.
    monkeypatch.setattr("host.deliverer.BUSY_FIRST", 0.05)
    discord_test.bot.busy_after = 0.5
    await open_tally(discord_test, "ann", "bob")
    failure = discord_test.faults.fail(CREATE_MESSAGE, status=500, times=None)
    record = await discord_test.slash("game", "play", user="ann", move="add 2")
    assert failure.hits >= 1
    assert record.content == ("Played `add 2`. Discord is busy, so the channel will show it a little late;"
                              " nothing is lost.")
    table = await tables.table(str(discord_test.channel("general").id))
    assert table.game.view(None)["total"] == 2 and table.row.version == 1
    assert not [m for m in discord_test.messages("general") if "adds 2" in (field(m, "Last turn") or "")]

    discord_test.faults.clear()  # Discord is back: the delivery still at work posts it, once
    for _ in range(100):
        if not discord_test.bot.background:
            break
        await asyncio.sleep(0.05)
    told = [m for m in discord_test.messages("general") if "adds 2" in (field(m, "Last turn") or "")]
    assert len(told) == 1 and told[0].files
    assert "reply to you was lost" not in told[0].content  # she was answered
    assert await discord_test.bot.deliverer.sweep() == 0  # and never again


async def test_a_dropped_gateway_resumes_and_the_next_command_works(discord_test: DiscordTest) -> None:
    await open_tally(discord_test, "ann", "bob")
    await discord_test.drop_gateway()
    await discord_test.wait_connected()
    record = await discord_test.slash("game", "play", user="ann", move="add 1")
    assert record.content == "Played `add 1`."


async def test_a_restarted_bot_shows_the_same_game_and_old_buttons_still_work(
    discord_test: DiscordTest, db_file: str
) -> None:
    from cogs.client import Tablehost
    from host.store import Store
    from host.tables import Tables

    await open_tally(discord_test, "ann", "bob")
    await discord_test.slash("game", "play", user="ann", move="add 2")
    turn = last_turn_message(discord_test)
    await discord_test.stop_bot()

    store = await Store.open(db_file)
    try:
        await discord_test.start_bot(
            lambda: Tablehost(tables=Tables(store, debug=True), threads_by_default=False, edit_every=0.0))
        await discord_test.slash("game", "board", user="cy")
        post = discord_test.messages("general")[-1]
        assert post.files and "To act: Bob" in post.content
        record = await discord_test.click(turn, "Add 1", user="bob")
        assert record.content == "Played `add 1`."
        assert field(discord_test.messages("general")[-1], "Last turn") == "Bob adds 1: the total is 3."
    finally:
        await discord_test.stop_bot()
        await store.close()


async def test_abort_needs_the_creator_or_manage_channels(discord_test: DiscordTest) -> None:
    await open_tally(discord_test, "ann", "bob")
    plain_bob = replace(discord_test.user("bob"), permissions=MEMBER_PERMISSIONS)
    refused = await discord_test.slash("game", "abort", user=plain_bob)
    assert refused.ephemeral and "Manage Channels" in refused.content
    manager = await discord_test.slash("game", "abort", user="cy")  # not the creator, but may manage
    assert manager.content == "Abort the Tally game for everyone? It cannot be taken back."
    assert "aborted" not in discord_test.messages("general")[-1].content  # nothing happens before "yes"
    question = discord_test.ephemerals("cy")[-1]
    await discord_test.click(question, "Abort the game", user="cy")
    assert discord_test.ephemerals("cy")[-1].content == "Done."
    assert "Cy aborted the Tally game." in discord_test.messages("general")[-1].content
    after = await discord_test.slash("game", "play", user="ann", move="add 1")
    assert "no game running" in after.content


async def test_lobby_refusals_are_ephemeral(discord_test: DiscordTest) -> None:
    await discord_test.slash("game", "new", user="ann", game="tally")
    again = await discord_test.slash("game", "new", user="bob", game="tally")
    assert again.ephemeral and "already has" in again.content
    early = await discord_test.slash("game", "start", user="ann")
    assert early.ephemeral and "needs 2–4 players" in early.content
    bad = await discord_test.slash("game", "new", user="bob", game="chess", channel="table-1")
    assert bad.ephemeral and "no game called 'chess'" in bad.content


async def test_help_lists_the_games(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("game", "help", user="ann")  # no game in #general: the games, in one message
    assert record.ephemeral and "XISK" in record.content and "NXS" in record.content
    assert [m.content for m in discord_test.ephemerals("ann")] == [record.content] and len(record.content) <= 2000
    for command in ("/xisk help", "/nxs help", "/nexo help"):
        assert f"`{command}`" in record.content  # where each game's own commands are
    assert "undo" in record.content and "`/xisk attack` — " not in record.content  # shared names; no game's lines


async def test_an_engine_bug_gets_an_apology_and_changes_nothing(discord_test: DiscordTest, tables) -> None:
    await open_tally(discord_test, "ann", "bob")
    before = len(discord_test.messages("general"))
    record = await discord_test.slash("game", "play", user="ann", move="boom")
    assert record.ephemeral and record.content.startswith("Something went wrong on our side.")
    assert "boom" not in record.content and "Traceback" not in record.content
    assert len(discord_test.messages("general")) == before
    table = await tables.table(str(discord_test.channel("general").id))
    assert table.row.version == 0 and table.game.view(None)["total"] == 0
    after = await discord_test.slash("game", "play", user="ann", move="add 1")
    assert after.content == "Played `add 1`."


async def test_every_quick_move_button_posted_can_be_clicked(discord_test: DiscordTest) -> None:
    await discord_test.slash("game", "new", user="ann", game="nexo")
    await discord_test.slash("game", "join", user="bob")
    await discord_test.slash("game", "start", user="ann")
    for user, move in [("bob", "first them"), ("ann", "done a1"), ("bob", "done b1")]:  # Bob wins the initiative
        await discord_test.slash("game", "play", user=user, move=move)
    turn = last_turn_message(discord_test)  # Ann's a2 is active: its board offers Done (and End/Pass if legal)
    labels = [b["label"] for b in turn.buttons()]
    assert labels and all(label.split()[0] in {"Done", "Pass", "End"} for label in labels)  # never scrap, concede
    record = await discord_test.click(turn, labels[0], user="ann", timeout=5)
    assert record.in_time and record.content.startswith("Played `")  # ending is never asked about


async def test_a_move_command_of_another_game_is_refused_and_changes_nothing(
    discord_test: DiscordTest, tables
) -> None:
    import random

    await discord_test.slash("game", "new", user="ann", game="nexo")
    await discord_test.slash("game", "join", user="bob")
    await discord_test.slash("game", "start", user="ann")
    channel = str(discord_test.channel("general").id)
    rng = random.Random(1)
    for _ in range(40):  # play on until 'end' (a Nexohominis move too) is legal
        table = await tables.table(channel)
        [actor] = table.game.to_act()
        legal = table.game.legal_moves(actor)
        if "end" in legal:
            break
        move = rng.choice([m for m in legal if m != "concede"])
        await discord_test.slash("game", "play", user=actor.lower(), move=move)
    assert "end" in legal
    record = await discord_test.slash("xisk", "end", user=actor.lower())
    assert record.ephemeral and "Nexohominis" in record.content and "/xisk" in record.content
    assert (await tables.table(channel)).row.version == table.row.version


async def test_a_very_long_bad_move_gets_the_refusal_within_discords_limit(discord_test: DiscordTest) -> None:
    await open_tally(discord_test, "ann", "bob")
    record = await discord_test.slash("game", "play", user="ann", move="x" * 6000)
    assert record.ephemeral and record.content.startswith("That is too long to be a move (6000 characters): 'xxx")
    assert len(record.content) <= 150 and "went wrong" not in record.content  # the input is quoted, cut short


async def test_very_long_options_get_the_refusal_within_discords_limit(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("game", "new", user="ann", game="tally", options="y" * 6000)
    assert record.ephemeral and record.content.startswith("I can't read the option 'yyy")
    assert len(record.content) <= 2000 and "went wrong" not in record.content


async def test_a_committed_move_whose_picture_fails_is_not_reported_as_unplayed(
    discord_test: DiscordTest, tables
) -> None:
    await open_tally(discord_test, "ann", "bob")

    async def broken_picture(*args: object, **kwargs: object) -> bytes:
        raise RuntimeError("renderer bug")

    discord_test.bot.picture = broken_picture  # type: ignore[method-assign, union-attr]
    record = await discord_test.slash("game", "play", user="ann", move="add 2")
    assert record.ephemeral and record.content.startswith("Played `add 2`, but I could not post it")
    assert "try again" not in record.content
    table = await tables.table(str(discord_test.channel("general").id))
    assert table.row.version == 1


async def test_a_start_whose_post_fails_is_not_reported_as_unchanged(
    discord_test: DiscordTest, quick_backoff: float, tables, monkeypatch
) -> None:
    monkeypatch.setattr("host.deliverer.BUSY_FIRST", 0.05)
    discord_test.bot.busy_after = 0.5
    await discord_test.slash("game", "new", user="ann", game="tally")
    await discord_test.slash("game", "join", user="bob")
    discord_test.faults.fail(CREATE_MESSAGE, status=500, times=None)
    record = await discord_test.slash("game", "start", user="ann")
    discord_test.faults.clear()
    assert record.ephemeral and record.content == ("Done. Discord is busy, so the channel will show it a little"
                                                   " late; nothing is lost.")
    assert "try again" not in record.content
    table = await tables.table(str(discord_test.channel("general").id))
    assert table.game is not None and table.row.version == 0


async def test_a_move_committed_just_before_a_restart_is_not_reported_as_unchanged(
    discord_test: DiscordTest, tables
) -> None:
    await open_tally(discord_test, "ann", "bob")
    act = tables.act

    async def act_then_drain_begins(*args, **kwargs):  # type: ignore[no-untyped-def]
        out = await act(*args, **kwargs)
        tables._closing = True  # the bot starts shutting down before the move is announced
        return out

    tables.act = act_then_drain_begins
    try:
        record = await discord_test.slash("game", "play", user="ann", move="add 2")
    finally:
        tables.act, tables._closing = act, False
    assert record.content.startswith("Played `add 2`") and "Nothing was changed" not in record.content
    assert (await tables.table(str(discord_test.channel("general").id))).row.version == 1


async def test_markdown_in_a_display_name_is_shown_as_typed_not_as_formatting(discord_test: DiscordTest) -> None:
    heading = replace(discord_test.user("bob"), name="# big *bold*")  # display name "# Big *Bold*"
    await discord_test.slash("game", "new", user="ann", game="tally")
    await discord_test.slash("game", "join", user=heading)
    joined = discord_test.messages("general")[-1].content
    assert joined.startswith("\\# Big \\*Bold\\* joins")
    await discord_test.slash("game", "start", user="ann")
    await discord_test.slash("game", "play", user="ann", move="add 1")
    their_turn = discord_test.messages("general")[-1]
    assert their_turn.content == f"{discord_test.user('bob').mention} \\# Big \\*Bold\\*: your move."
    await discord_test.slash("game", "play", user=heading, move="add 1")
    assert field(discord_test.messages("general")[-1], "Last turn").startswith("\\# Big \\*Bold\\* adds 1")


async def test_a_closed_dm_notice_never_pings_everyone_or_a_role_from_a_display_name(
    discord_test: DiscordTest,
) -> None:
    role = "<@&123456789012345678>"
    pinger = replace(discord_test.user("bob"), name=f"{role} @everyone")
    discord_test.fake.close_dms(pinger)
    await discord_test.slash("game", "new", user="ann", game="tally")
    await discord_test.slash("game", "join", user=pinger)
    await discord_test.slash("game", "start", user="ann")
    [notice] = [m for m in discord_test.messages("general") if "DMs are closed" in m.content]
    assert role not in notice.content and "@everyone" not in notice.content
    allowed = notice.bodies[0]["allowed_mentions"]
    assert not {"everyone", "roles"} & set(allowed.get("parse") or [])
    assert notice.pinged == [pinger.id]


async def test_a_button_move_is_announced_even_when_its_buttons_cannot_be_removed(
    discord_test: DiscordTest,
) -> None:
    await open_tally(discord_test, "ann", "bob")
    turn = last_turn_message(discord_test)
    edit = discord_test.faults.fail(
        "PATCH /channels/{channel_id}/messages/{message_id}", status=404, times=None,
        body={"message": "Unknown Message", "code": 10008},
    )
    record = await discord_test.click(turn, "Add 3", user="ann")
    discord_test.faults.clear()
    assert edit.hits >= 1
    assert record.content == "Played `add 3`."
    post = discord_test.messages("general")[-1]
    assert field(post, "Last turn") == "Ann adds 3: the total is 3." and post.pinged == [discord_test.user("bob").id]


async def test_abort_asks_first_and_cancel_changes_nothing(discord_test: DiscordTest, tables) -> None:
    await open_tally(discord_test, "ann", "bob")
    asked = await discord_test.slash("game", "abort", user="ann")
    assert asked.ephemeral and "cannot be taken back" in asked.content
    await discord_test.click(discord_test.ephemerals("ann")[-1], "Cancel", user="ann")
    assert discord_test.ephemerals("ann")[-1].content == "Cancelled: nothing was played."
    table = await tables.table(str(discord_test.channel("general").id))
    assert table.row.status.value == "running"


async def test_the_board_of_an_aborted_game_says_so_and_names_nobody_to_act(discord_test: DiscordTest) -> None:
    await open_tally(discord_test, "ann", "bob")
    await discord_test.slash("game", "abort", user="ann")
    await discord_test.click(discord_test.ephemerals("ann")[-1], "Abort the game", user="ann")
    await discord_test.slash("game", "board", user="cy")
    post = discord_test.messages("general")[-1]
    assert post.files and "aborted" in post.content and "To act" not in post.content


async def test_a_long_log_comes_in_pieces_discord_accepts(discord_test: DiscordTest) -> None:
    long_ann = replace(discord_test.user("ann"), name="*" * 32)  # escaped, each doubles
    long_bob = replace(discord_test.user("bob"), name="_" * 32)
    await discord_test.slash("game", "new", user=long_ann, game="tally", options="target=99")
    await discord_test.slash("game", "join", user=long_bob)
    await discord_test.slash("game", "start", user=long_ann)
    for n in range(26):
        await discord_test.slash("game", "play", user=long_ann if n % 2 == 0 else long_bob, move="roll")
    before = len(discord_test.ephemerals("cy"))
    record = await discord_test.slash("game", "log", user="cy", count=25)
    assert "went wrong" not in record.content and record.refusals == []
    pieces = discord_test.ephemerals("cy")[before:]
    assert len(pieces) >= 2 and all(len(p.content) <= 2000 for p in pieces)
    assert sum(p.content.count("`roll`") for p in pieces) == 25


async def test_no_game_here_links_the_callers_games_elsewhere_and_names_real_commands(
    discord_test: DiscordTest,
) -> None:
    await open_tally(discord_test, "ann", "bob")  # in #general
    record = await discord_test.slash("game", "play", user="ann", move="add 1", channel="table-1")
    general = discord_test.channel("general").id
    assert record.ephemeral and f"Your games: Tally in <#{general}>." in record.content
    joined = await discord_test.slash("game", "join", user="cy", channel="table-1")
    assert all(c in joined.content for c in ("/nxs new", "/xisk new", "/nexo new", "/game new game:tally"))


async def test_a_stale_button_links_the_live_board(discord_test: DiscordTest, tables) -> None:
    await open_tally(discord_test, "ann", "bob")
    board = last_turn_message(discord_test)
    channel = str(discord_test.channel("general").id)
    await tables.act(channel, str(discord_test.user("ann").id), "add 1")  # landed, not yet shown
    stale = await discord_test.click(board, "Add 2", user="ann")
    link = f"https://discord.com/channels/{discord_test.fake.guild.id}/{channel}/{board.id}"
    assert stale.ephemeral and "out of date" in stale.content and link in stale.content


async def test_rules_come_privately_in_pages(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("xisk", "rules", user="ann")
    assert record.ephemeral and record.content.startswith("# ") and "*Page 1 of 5*" in record.content
    page = discord_test.ephemerals("ann")[-1]
    await discord_test.click(page, "Next", user="ann")
    assert "*Page 2 of 5*" in discord_test.ephemerals("ann")[-1].content
    nexo = await discord_test.slash("game", "rules", user="ann", game="nexo")
    assert nexo.ephemeral and "*Page 1 of 5*" in nexo.content


async def test_rules_of_an_unknown_game_list_the_games_that_have_a_summary(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("game", "rules", user="ann", game="risk")
    assert record.ephemeral and record.content.startswith("There is no game called 'risk'. Games with a rules summary:")
    assert all(f"`{name}`" in record.content for name in ("nexo", "nxs", "xisk"))


async def test_rules_without_a_game_here_name_the_games_instead_of_guessing(discord_test: DiscordTest) -> None:
    record = await discord_test.slash("game", "rules", user="ann")
    assert record.ephemeral and record.content.startswith("Which game? `/game rules game:<name>`")
    assert all(f"`{name}`" in record.content for name in ("nexo", "nxs", "xisk"))


async def test_help_says_how_each_game_s_moves_are_written(discord_test: DiscordTest) -> None:
    xisk = await discord_test.slash("xisk", "help", user="ann")
    assert xisk.ephemeral and "\nMoves: `claim <country>`" in xisk.content
    nxs = await discord_test.slash("nxs", "help", user="ann")
    assert "\nMoves: `move <from> <to>`, `capture <from> <to>`" in nxs.content


async def test_a_closed_lobby_is_aborted_in_both_status_and_board(discord_test: DiscordTest) -> None:
    await discord_test.slash("game", "new", user="ann", game="xisk")
    await discord_test.slash("game", "leave", user="ann")  # the last seat leaves: the table closes
    status = await discord_test.slash("game", "status", user="bob")
    assert status.content.splitlines()[0] == "**XISK** (aborted): nobody seated."
    board = await discord_test.slash("game", "board", user="bob")
    assert board.content == "XISK table (aborted): it closed before the game started, so there is no board."


async def test_a_stale_button_whose_move_asks_first_is_refused_as_out_of_date(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await open_tally(dt, "ann", "bob")
    first = last_turn_message(dt)
    table = await tables.table(str(dt.channel("general").id))
    stale = custom_id(table.row.id, table.row.version, "resign")  # a give-up: asked about when current
    left = {"type": 1, "components": [{"type": 2, "style": 4, "label": "Resign", "custom_id": stale}]}
    await dt.slash("game", "play", user="ann", move="add 1")
    await dt.slash("game", "play", user="bob", move="add 1")  # ann's turn again, two versions on
    first.payload["components"] = [left]  # as if the edit that took it off had failed
    record = await dt.click(first, "Resign", user="ann")
    assert record.content.startswith("This button is out of date"), record.content
    assert (await tables.table(str(dt.channel("general").id))).row.version == 2
