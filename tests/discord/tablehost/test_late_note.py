"""A move whose player never got an answer is told on the channel, whether its board is new or edited.

The move is committed straight through the table service (as when the bot died between the commit
and the reply), then a sweep delivers it late. A move that keeps the turn edits the live board, and
an edit pings no one, so the note that the reply was lost goes in a message of its own.
"""

from __future__ import annotations

from host.tables import Tables
from tests.discord.tablehost.test_process import first_to_act
from tests.fakediscord.api import DiscordTest

LOST = "was saved, but my reply to you was lost"


async def test_a_late_move_that_edits_the_live_board_still_tells_its_unanswered_player(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await dt.slash("game", "new", user="ann", game="nxs")
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    player, move = await first_to_act(dt, "ann", "bob")  # a ship's move: the turn goes on (its rotation next)
    channel = str(dt.channel("general").id)
    board = dt.messages("general")[-1]
    edits = board.edits
    before = len(dt.messages("general"))

    out = await tables.act(channel, str(dt.user(player).id), move)  # committed; no one was answered
    assert out.to_act == [str(dt.user(player).id)]  # the same player's turn: the board is edited
    assert await dt.bot.deliverer.sweep() == 1
    await dt.quiet()

    new = dt.messages("general")[before:]
    assert [m.files for m in new] == [[]]  # no new board: the live one was edited...
    assert next(m for m in dt.messages("general") if m.id == board.id).edits > edits
    [note] = new  # ...and the note came apart, pinging the player
    assert LOST in note.content and f"`{move}`" in note.content
    assert dt.user(player).id in note.pinged
    assert await dt.bot.deliverer.sweep() == 0


async def test_a_late_move_whose_player_was_answered_carries_no_note(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await dt.slash("game", "new", user="ann", game="nxs")
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    player, move = await first_to_act(dt, "ann", "bob")
    before = len(dt.messages("general"))
    out = await tables.act(str(dt.channel("general").id), str(dt.user(player).id), move)
    assert out.id is not None
    await tables.store.answered(out.id)  # e.g. told "Discord is busy" before the bot went down
    assert await dt.bot.deliverer.sweep() == 1
    await dt.quiet()
    assert not [m for m in dt.messages("general")[before:] if LOST in m.content]
