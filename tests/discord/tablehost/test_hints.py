"""The coach on Discord: /game hint answers the player to act only, privately; /table hints on|off; unrated after."""

from __future__ import annotations

import re
from dataclasses import replace

from host.ratings import Ratings
from host.tables import Tables
from host.tables_hints import HINTED_LINE, HINTS_OFF
from tests.discord.tablehost.helpers import open_tally, said
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.payloads import MEMBER_PERMISSIONS

HINT = re.compile(r"Hint: `(add [123]|roll)` — the most you may add, toward 12")
"""The hint as Tally's coach words it (tests/support/tally_ai.py)."""


def boards(dt: DiscordTest) -> list:
    return [m for m in dt.messages("general") if m.embeds]


def footer(message) -> str:
    return "\n".join(str((e.get("footer") or {}).get("text") or "") for e in message.embeds)


async def test_a_hint_goes_to_the_player_to_act_only_once_hints_are_on(discord_test: DiscordTest,
                                                                      tables: Tables) -> None:
    dt = discord_test
    await open_tally(dt, "ann", "bob", options="target=12")
    channel = str(dt.channel("general").id)
    table = await tables.table(channel)

    off = await dt.slash("game", "hint", user="ann")  # two people seated: the game could be rated
    assert off.ephemeral and off.content == HINTS_OFF
    plain_bob = replace(dt.user("bob"), permissions=MEMBER_PERMISSIONS)  # seated, but not the creator
    denied = await dt.slash("table", "hints", user=plain_bob, state="on")
    assert denied.ephemeral and denied.content.startswith("Only the game's creator")
    assert not (await tables.hints.get(table.row.id)).allowed

    posted = len(dt.messages("general"))
    on = await dt.slash("table", "hints", user="ann", state="on")
    assert on.ephemeral and on.content == "Done."
    assert "Hints are on: a hint makes the game unrated." in dt.messages("general")[-1].content
    assert len(dt.messages("general")) == posted + 1 and (await tables.hints.get(table.row.id)).allowed

    not_yours = await dt.slash("game", "hint", user="bob")
    assert not_yours.ephemeral and not_yours.content == "It is Ann's turn, not yours: a hint is for the player to act."
    watcher = await dt.slash("game", "hint", user="cy")
    assert watcher.ephemeral and watcher.content.startswith("You are not playing in this game")
    assert not (await tables.hints.get(table.row.id)).hinted  # no refusal marks the game

    assert HINTED_LINE not in footer(boards(dt)[-1])
    hint = await dt.slash("game", "hint", user="ann")
    assert hint.ephemeral and HINT.match(hint.content), hint.content
    move = HINT.match(hint.content)[1]
    assert move == "add 3" and move in (await tables.table(channel)).game.legal_moves("Ann")  # Tally's coach: the most
    assert "This game is unrated now: a hint was taken." in hint.content
    assert all("Hint:" not in m.content and "toward 12" not in said(m) for m in dt.messages("general"))
    assert (await tables.hints.get(table.row.id)).hinted
    await dt.wait_until(lambda: "A hint was taken: this game is unrated now." in said(boards(dt)[-1]))
    assert HINTED_LINE in footer(boards(dt)[-1])

    again = await dt.slash("game", "hint", user="ann")  # the second hint: the game is unrated already
    assert HINT.match(again.content) and "unrated now" not in again.content

    await dt.slash("game", "play", user="ann", move=move)  # the hint is a move /game play takes
    await dt.wait_until(lambda: "Bob" in said(boards(dt)[-1]) and HINTED_LINE in footer(boards(dt)[-1]))

    for player in ("bob", "ann", "bob"):  # to the end: 3 + 3 + 3 + 3 = 12, Bob wins
        await dt.slash("game", "play", user=player, move="add 3")
    await dt.wait_until(lambda: "wins" in said(boards(dt)[-1]))
    assert HINTED_LINE in footer(boards(dt)[-1])  # the final board says so too
    ratings = Ratings(tables.store)
    assert await ratings.rebuild() == 0  # the hinted game does not count (host test: its reason)
    assert await ratings.stats(table.row.guild_id, str(dt.user("ann").id)) == []


async def test_hints_off_again_stops_new_hints(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await open_tally(dt, "ann", "bob", options="target=12")
    await dt.slash("table", "hints", user="ann", state="on")
    assert (await dt.slash("table", "hints", user="ann", state="on")).content == "Hints are already on in this game."
    assert HINT.match((await dt.slash("game", "hint", user="ann")).content)
    await dt.slash("table", "hints", user="ann", state="off")
    assert ("Hints are off: no more hints in this game. It stays unrated: a hint was taken."
            in dt.messages("general")[-1].content)
    assert (await dt.slash("game", "hint", user="ann")).content == HINTS_OFF
