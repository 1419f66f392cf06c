"""A channel's records on Discord: /table history, and the Rematch button of a finished game."""

from __future__ import annotations

import json
import re

from host.fairness import seal
from host.store import Status
from host.tables import Tables
from tests.discord.tablehost.helpers import open_tally, said
from tests.fakediscord.api import DiscordTest


async def finish_race(dt: DiscordTest) -> None:
    """Plays a Tally race to 3, won by ann."""
    await open_tally(dt, "ann", "bob", options="target=3")
    await dt.slash("game", "play", user="ann", move="add 3")


async def test_the_final_board_offers_a_rematch_that_starts_when_both_click(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await finish_race(dt)
    channel = str(dt.channel("general").id)
    old = await tables.table(channel)
    final = [m for m in dt.messages("general") if m.embeds][-1]
    assert "Game over: Ann wins!" in said(final) and "Fair dice revealed: server seed" in said(final)
    assert [b["label"] for b in final.buttons()] == ["Rematch"]
    await dt.click(final, "Rematch", user="cy")
    assert "Only the players of that game" in dt.ephemerals("cy")[-1].content
    await dt.click(final, "Rematch", user="bob")
    assert "You are ready: 1 of 2 players." in dt.ephemerals("bob")[-1].content
    assert "Bob asks for a rematch of Tally: Ann, Bob are seated" in dt.messages("general")[-1].content
    lobby = await tables.table(channel)
    assert lobby.row.status is Status.LOBBY and lobby.row.rematch_of == old.row.id
    await dt.click(final, "Rematch", user="ann")
    new = await tables.table(channel)
    assert new.row.status is Status.RUNNING and [s.player_id for s in new.seats] == [s.player_id for s in old.seats]
    assert "Tally begins: Ann, Bob." in said([m for m in dt.messages("general") if m.embeds][-1])


async def test_history_lists_the_channel_s_past_games_with_their_ids(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    assert "No game has ended" in (await dt.slash("table", "history", user="ann")).content
    await finish_race(dt)
    old = await tables.table(str(dt.channel("general").id))
    await open_tally(dt, "bob", "cy")
    await dt.slash("game", "abort", user="bob")
    await dt.click(dt.ephemerals("bob")[-1], "Abort the game", user="bob")
    listing = (await dt.slash("table", "history", user="cy")).content.splitlines()
    assert listing[0].startswith("**Past games here**")
    assert listing[1].startswith("`") and "**Tally**: Bob, Cy; aborted; 0 moves; <t:" in listing[1]
    assert listing[2].startswith(f"`{old.row.id}` **Tally**: Ann, Bob; won by Ann; 1 move; <t:")


async def test_export_sends_the_finished_game_s_record_and_refuses_a_running_one(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await open_tally(dt, "ann", "bob", options="target=5")
    running = await dt.slash("table", "export", user="bob")
    assert "still running" in running.content and not running.files
    await dt.slash("game", "play", user="ann", move="add 3")
    await dt.slash("game", "play", user="bob", move="add 2")
    record = await dt.slash("table", "export", user="cy")
    assert record.ephemeral and record.files and record.files[0].filename.startswith("tally-")
    data = json.loads(record.files[0].data)
    assert data["format"] == "tablehost-game" and [m["move"] for m in data["moves"]] == ["add 3", "add 2"]
    assert data["dice"]["commitment"] == seal(data["dice"]["server_seed"]) and data["winners"] == ["Bob"]


async def test_every_board_of_a_game_carries_its_whole_commitment_to_the_end(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await open_tally(dt, "ann", "bob", options="target=12")
    channel = str(dt.channel("general").id)
    for move in ("add 3", "add 3", "roll", "add 1", "add 2"):
        table = await tables.table(channel)
        actor = table.user_of(table.game.to_act()[0])
        await dt.slash("game", "play", user="ann" if actor == str(dt.user("ann").id) else "bob", move=move)
    row = (await tables.table(channel)).row
    sealed, entropy = row.commitment, row.entropy
    assert sealed is not None and re.fullmatch(r"[0-9a-f]{64}", sealed) and entropy == "-|-"  # tests leave join ids out
    footer = f"🎲 Fair dice: sealed as SHA-256 {sealed} · entropy {entropy}"
    status = await dt.slash("game", "status", user="ann")
    assert footer in status.content
    log = await dt.slash("game", "log", user="bob")
    assert log.content.startswith(footer + "\n")
    assert (await tables.table(channel)).game.view(None)["total"] == 9
    await dt.slash("game", "play", user="bob", move="add 3")  # 3 + 3 + 1 + 2 + 3: bob reaches 12
    boards = [m for m in dt.messages("general") if m.embeds and m.files]
    assert len(boards) >= 5
    for board in boards:  # each board of the game, as it was posted and as it stands now (edited, closed)
        assert board.embeds[0]["footer"]["text"] == footer
        assert all(body["embeds"][0]["footer"]["text"] == footer for body in board.bodies if body.get("embeds"))
    final = boards[-1]
    assert "Game over: Bob wins!" in said(final) and f"its SHA-256 is {sealed}, the commitment posted" in said(final)
    opening = next(m for m in dt.messages("general") if "opened a Tally table" in m.content)
    assert f"sealed as SHA-256 {sealed}." in opening.content and row.commitment_message == str(opening.id)
