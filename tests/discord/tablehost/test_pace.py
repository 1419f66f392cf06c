"""The board's pace: a burst of clicks makes one edit a second, and each click is answered at once."""

from __future__ import annotations

import time

from cogs.client import EDIT_EVERY, Tablehost
from engines.xisk.board import load_board
from host.tables import Tables
from tests.discord.tablehost.test_clicks import Clicker, component_moves, plain_pictures  # noqa: F401
from tests.discord.tablehost.test_picker import NAMES, menus, until, xisk
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.recorder import SentMessage

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


async def test_fast_placements_make_one_edit_a_second_and_each_reply_comes_at_once(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    clicker = await xisk(dt)
    table = await until(clicker, "supply")  # through the claims at the tests' pace (an edit a move)
    bot = dt.bot
    assert isinstance(bot, Tablehost)
    bot.edit_every = EDIT_EVERY  # from here on, the pace the bot runs at
    [actor] = table.game.to_act()
    user, supply = NAMES[actor], table.game.view(None)["supply_left"]
    assert supply >= 3
    board = clicker.board()
    [menu] = [m for m in menus(board) if m["custom_id"].endswith(":place")]
    country = menu["options"][0]["value"]
    start, requests = time.monotonic(), len(dt.recorder.requests)
    await dt.select(board, menu["custom_id"], [country], user=user)
    step = dt.ephemerals(user)[-1]
    replies = []
    for _ in range(supply):  # chip after chip, in the private step, as fast as the answers come
        current = await clicker.table()
        offered = component_moves(step, current, actor)
        assert f"place {country} 1" in offered
        record = await dt.click(step, "1", user=user)
        replies.append(record.first_response_after)
        assert record.content.startswith(f"Played `place {country} 1`."), record.content
    await dt.quiet(EDIT_EVERY + 0.5)  # the last edit comes within the pace
    name = load_board().names[country]
    assert said_all(clicker.board()).count(f"places 1 chip on {name}") == supply  # every move of the burst, shown
    moves = supply + await attack_burst(dt, clicker, actor, country, replies)
    await dt.quiet(EDIT_EVERY + 0.5)
    burst = dt.recorder.requests[requests:]
    edits = sorted(r.at for r in burst if r.route == EDIT)
    assert all(sum(1 for t in edits if a <= t < a + 5) <= 5 for a in edits), edits  # never 6 in any 5 s
    assert len(edits) < moves and len(burst) / moves <= 2.3, [(r.route) for r in burst]
    assert max(r or 0 for r in replies) < EDIT_EVERY, replies  # the board waits; the player does not
    final = await clicker.table()
    shown = clicker.board()
    assert shown.files[0].filename.endswith(f"-{final.row.version}.png")  # the board caught up
    assert time.monotonic() - start < 30


async def attack_burst(
    dt: DiscordTest, clicker: Clicker, actor: str, country: str, replies: list[float | None]
) -> int:
    """Attacks again and again from the private step, as fast as the answers come; returns the attacks made."""
    user, made = NAMES[actor], 0
    board = clicker.board()
    found = [m for m in menus(board) if m["custom_id"].endswith(":attack")]
    if not found:
        return 0
    table = await clicker.table()
    chips = {c: v["chips"] for c, v in table.game.view(None)["countries"].items()}
    origins = [o["value"] for o in found[0]["options"]]
    origin = country if country in origins else max(origins, key=lambda c: chips[c])  # where the chips went
    await dt.select(board, found[0]["custom_id"], [origin], user=user)
    step = dt.ephemerals(user)[-1]
    for _ in range(12):
        table = await clicker.table()
        if table.game.to_act() != [actor] or not step.components():
            break
        assert component_moves(step, table, actor)
        chips = {c: v["chips"] for c, v in table.game.view(None)["countries"].items()}
        if step.buttons():  # the strongest target: the longest fight
            button = max(step.buttons(), key=lambda b: chips[str(b["custom_id"]).split("+")[-1]])
            record = await dt.click(step, str(button["custom_id"]), user=user)
        else:
            [choices] = menus(step)
            target = max((o["value"] for o in choices["options"]), key=lambda c: chips[c])
            record = await dt.select(step, choices["custom_id"], [target], user=user)
        assert record.content.startswith("Played `attack "), record.content
        replies.append(record.first_response_after)
        made += 1
    return made


def said_all(message: SentMessage) -> str:
    """Returns a message's content and its embeds' descriptions."""
    return "\n".join([message.content, *(e.get("description") or "" for e in message.embeds)])
