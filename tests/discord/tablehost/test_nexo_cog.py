"""Nexohominis on Discord (a start): /nexo new, its live board, and buttons that never scrap or concede."""

from __future__ import annotations

import random

from host.tables import Table, Tables
from tests.discord.tablehost.helpers import pictures
from tests.fakediscord.api import DiscordTest

NAMES = {"Ann": "ann", "Bob": "bob"}


async def test_a_nexo_game_opens_plays_and_offers_only_done_pass_and_end_buttons(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    record = await dt.slash("nexo", "new", user="ann", battlefield="crossroads", round_limit=3)
    assert record.content.startswith("Done. Your join adds")
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    channel = str(dt.channel("general").id)
    rng = random.Random(4)
    offered = False
    for _ in range(25):
        table = await tables.table(channel)
        if table.game.is_over:
            break
        actor = table.game.to_act()[0]
        moves = [m for m in table.game.legal_moves(actor) if m.split()[0] not in {"concede", "scrap", "end", "pass"}]
        move = rng.choice(moves or table.game.legal_moves(actor))
        played = await dt.slash("game", "play", user=NAMES[actor], move=move)
        if played.content.endswith("Play it?"):
            # the question itself: an earlier answer's "Played …" may land after it
            question = next(m for m in reversed(dt.ephemerals(NAMES[actor])) if m.content == played.content)
            await dt.click(question, "Yes, play it", user=NAMES[actor])
        for message in dt.messages("general"):
            assert all(b["label"].split()[0] in {"Done", "Pass", "End", "Rematch"} for b in message.buttons())
            offered |= any(b["label"].split()[0] in {"Done", "Pass", "End"} for b in message.buttons())
    assert offered  # a Done, Pass or End button was offered on the live board
    boards = pictures(dt.messages("general"))
    assert boards and all(b.files[0].image().format == "WEBP" for b in boards)
    assert (await tables.table(channel)).row.version >= 10


async def test_a_nexo_board_is_sent_as_webp_under_a_webp_name_its_embed_shows(discord_test: DiscordTest) -> None:
    dt = discord_test
    await dt.slash("nexo", "new", user="ann", battlefield="crossroads", round_limit=3)
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    [live] = [m for m in pictures(dt.messages("general")) if m.embeds]
    [picture] = live.files
    assert picture.image().format == "WEBP" and picture.filename.endswith(".webp")
    assert live.embeds[0]["image"]["url"] == f"attachment://{picture.filename}"
    await dt.slash("game", "board", user="ann")  # /game board posts the same kind of picture
    [posted] = dt.messages("general")[-1].files
    assert posted.image().format == "WEBP" and posted.filename.endswith(".webp")


async def past_the_initiative(dt: DiscordTest, tables: Tables) -> tuple[str, Table]:
    """Opens a crossroads game for Ann and Bob, has its first player activate first, returns channel and table."""
    await dt.slash("nexo", "new", user="ann", battlefield="crossroads")
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    channel = str(dt.channel("general").id)
    await dt.slash("nexo", "first", user=NAMES[(await tables.table(channel)).game.to_act()[0]], who="me")
    return channel, await tables.table(channel)


async def test_nexo_end_out_of_production_is_refused_at_once_and_nexo_concede_asks_first(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    channel, table = await past_the_initiative(dt, tables)
    actor, version = table.game.to_act()[0], table.row.version
    assert table.game.view(None)["phase"] != "production"
    refused = await dt.slash("nexo", "end", user=NAMES[actor])
    assert refused.ephemeral and "is a Production Phase order" in refused.content, refused.content
    assert not refused.content.endswith("Play it?")  # refused at once, not asked about first
    assert all(m.buttons() == [] for m in refused.messages)
    assert (await tables.table(channel)).row.version == version
    asked = await dt.slash("nexo", "concede", user=NAMES[actor])
    assert asked.content.endswith("cannot be taken back. Play it?")
    assert (await tables.table(channel)).row.version == version  # nothing played yet
    question = next(m for m in reversed(dt.ephemerals(NAMES[actor])) if m.content == asked.content)
    await dt.click(question, "Yes, play it", user=NAMES[actor])
    table = await tables.table(channel)
    assert table.game.is_over and actor not in table.game.winners


async def test_nexo_orders_plays_the_lines_in_order_as_one_move_and_stops_at_the_first_refused(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    channel, table = await past_the_initiative(dt, tables)
    actor, version = table.game.to_act()[0], table.row.version
    move = next(m for m in table.game.legal_moves(actor) if m.startswith("move"))
    unit = move.split()[1]
    opened = await dt.slash("nexo", "orders", user=NAMES[actor])
    assert opened.modal is not None and len(opened.modal["components"]) == 5
    refused = await dt.submit_modal(opened, {"Order 1": "fly a9 to the moon", "Order 2": move})
    assert (await tables.table(channel)).row.version == version  # the first order refused: nothing played
    assert "fly" in refused.content and not refused.content.startswith("Played"), refused.content
    opened = await dt.slash("nexo", "orders", user=NAMES[actor])
    before = len(dt.recorder.requests)
    await dt.submit_modal(opened, {"Order 1": move, "Order 2": "fly a9 to the moon", "Order 3": f"done {unit}"})
    await dt.quiet(0.3)
    table = await tables.table(channel)
    assert table.row.version == version + 1  # one move: the order before the one that could not be played
    said = " ".join(str(e.get("description", "")) + " ".join(f["value"] for f in e.get("fields", []))
                    for m in dt.messages("general") for e in m.embeds)
    assert f"{unit} moves" in said and "'fly a9 to the moon' was not played" in said  # the batch's end, told
    assert f"Played `{move}`." in [m.content for m in dt.ephemerals(NAMES[actor])]
    routes = [r.route for r in dt.recorder.requests[before:]]
    boards = sum(r in ("PATCH /channels/{channel_id}/messages/{message_id}", "POST /channels/{channel_id}/messages")
                 for r in routes)
    assert boards <= 3, routes  # the batch shown once: its board (closing the last turn's, pinging the next)


async def test_a_word_read_as_the_depot_says_so_in_the_reply_and_sends_no_dm(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    channel, table = await past_the_initiative(dt, tables)
    actor = table.game.to_act()[0]
    seat = table.game.players.index(actor)
    worker = min(m.id for m in table.game.world().state.models.values()
                 if m.owner == ("p1", "p2")[seat] and table.game.world().unit_type(m).is_worker)
    depot = min(d.id for d in table.game.world().state.depots)  # K1: a depot, and a grid cell too
    dms = len(dt.dms(NAMES[actor]))
    record = await dt.slash("nexo", "move", user=NAMES[actor], unit=worker, to=depot)
    assert record.content.startswith("Played `move ") and record.content.endswith(
        f"{depot} is the depot; for the cell write cell {depot}."), record.content
    assert len(dt.dms(NAMES[actor])) == dms  # told where they look, not in a DM
    assert (await tables.table(channel)).row.version == table.row.version + 1
