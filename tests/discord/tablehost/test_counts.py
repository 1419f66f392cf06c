"""One count everywhere: /table history, the replay post and /table export count a game's moves alike.

"Moves" are the moves that stand (:func:`host.undo.standing_count`): an undo entry is no move and
the move it took back no longer counts, though both stay in the log (``row.version`` counts them).
"""

from __future__ import annotations

from typing import Any

from host.tables import Tables
from tests.fakediscord.api import DiscordTest


def gifs(dt: DiscordTest) -> list[Any]:
    return [m for m in dt.messages("general") if any(f.filename.endswith(".gif") for f in m.files)]


async def test_history_the_replay_post_and_export_count_the_standing_moves_of_a_game_with_an_undo(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await dt.slash("nxs", "new", user="ann")
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    channel = str(dt.channel("general").id)
    first, second = [m for m in (await tables.table(channel)).game.legal_moves("Ann") if m.startswith("move")][:2]
    await dt.slash("game", "play", user="ann", move=first)
    assert (await dt.slash("game", "undo", user="ann")).content == "Done."
    await dt.slash("game", "play", user="ann", move=second)
    rotate = next(m for m in (await tables.table(channel)).game.legal_moves("Ann") if m.startswith("rotate"))
    await dt.slash("game", "play", user="ann", move=rotate)
    await dt.slash("nxs", "resign", user="bob")
    await dt.click(dt.ephemerals("bob")[-1], "Yes, play it", user="bob")
    await dt.wait_until(lambda: gifs(dt))
    row = (await tables.table(channel)).row
    assert row.version == 5  # the log: a move, its undo, a move, a rotation, the resignation
    [post] = gifs(dt)
    assert post.content == "Replay of NXS game 1 (Ann, Bob): 2 turns, 3 moves, won by Ann."
    listing = (await dt.slash("table", "history", user="cy")).content.splitlines()
    assert "**NXS**: Ann, Bob; won by Ann; 3 moves; <t:" in listing[1]
    export = await dt.slash("table", "export", user="cy")
    assert "(finished, 3 moves)" in export.content, export.content
