"""The board's menus: a move picked step by step, each step private to the player who must act."""

from __future__ import annotations

import discord
import pytest

from cogs.picker import counts
from engines.xisk.hand import describe_hand
from host.tables import Table, Tables
from tests.discord.tablehost.test_clicks import Clicker, component_moves, plain_pictures  # noqa: F401
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.recorder import SentMessage

NAMES = {"Ann": "ann", "Bob": "bob", "Cy": "cy"}


async def xisk(dt: DiscordTest) -> Clicker:
    await dt.slash("xisk", "new", user="ann", cards_per_player=4)
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "join", user="cy")
    await dt.slash("game", "start", user="ann")
    return Clicker(dt, dt_tables(dt), NAMES)


def dt_tables(dt: DiscordTest) -> Tables:
    return dt.bot.tables  # type: ignore[attr-defined]


def menus(message: SentMessage) -> list[dict]:
    return [c for c in message.components() if str(c.get("custom_id", "")).startswith("th1s:")]


async def until(clicker: Clicker, phase: str) -> Table:
    """Plays by clicks (claims first, then all chips at once, attacks ended) until ``phase`` comes."""
    for _ in range(200):
        table = await clicker.table()
        view = table.game.view(None)
        if view["phase"] == phase:
            return table
        [actor] = table.game.to_act()
        legal = table.game.legal_moves(actor)
        move = next((m for m in legal if m.startswith(("redeem", "claim"))), None)
        if move is None:
            places = [m for m in legal if m.startswith("place")]
            move = places[-1] if places else "end" if "end" in legal else legal[0]
        await clicker.play(actor, move)
    raise AssertionError(f"no {phase} phase came")


def test_counts_offer_the_lowest_one_two_three_and_the_most() -> None:
    assert counts([1]) == [1]
    assert counts(list(range(1, 13))) == [1, 2, 3, 12]
    assert counts(list(range(0, 9))) == [0, 1, 2, 3, 8]
    assert len(counts(list(range(0, 100)))) <= 5


async def test_claim_menus_hold_every_free_country_in_menus_of_25(discord_test: DiscordTest) -> None:
    clicker = await xisk(discord_test)
    table = await clicker.table()
    [actor] = table.game.to_act()
    board = clicker.board()
    found = menus(board)
    assert len(found) == 2 and all(len(m["options"]) <= 25 for m in found)
    offered = component_moves(board, table, actor)
    claims = sorted(m for m in table.game.legal_moves(actor) if m.startswith("claim"))
    assert sorted(m for m in offered if m.startswith("claim")) == claims
    assert all(len(m.get("placeholder", "")) <= 150 for m in found)


async def test_a_menu_is_refused_to_anyone_but_the_player_to_act(discord_test: DiscordTest) -> None:
    dt = discord_test
    clicker = await xisk(dt)
    table = await clicker.table()
    [actor] = table.game.to_act()
    other = next(u for n, u in NAMES.items() if n != actor)
    board = clicker.board()
    menu = menus(board)[0]
    record = await dt.select(board, menu["custom_id"], [menu["options"][0]["value"]], user=other)
    assert record.ephemeral and record.content == f"It is {actor}'s turn, not yours."
    dt.fake.add_user("dave")
    stranger = await dt.select(board, menu["custom_id"], [menu["options"][0]["value"]], user="dave")
    assert stranger.content == "Only the players of this game can use its menus."
    assert (await clicker.table()).row.version == table.row.version


async def test_a_private_step_left_behind_by_a_move_is_refused_as_out_of_date(discord_test: DiscordTest) -> None:
    dt = discord_test
    clicker = await xisk(dt)
    table = await until(clicker, "supply")
    [actor] = table.game.to_act()
    user = NAMES[actor]
    board = clicker.board()
    [menu] = [m for m in menus(board) if m["custom_id"].endswith(":place")]
    await dt.select(board, menu["custom_id"], [menu["options"][0]["value"]], user=user)
    step = dt.ephemerals(user)[-1]
    assert step.buttons()
    typed = next(m for m in table.game.legal_moves(actor) if m.startswith("place") and m.endswith(" 1"))
    await dt.slash("game", "play", user=user, move=typed)  # the position moves on
    version = (await clicker.table()).row.version
    record = await dt.click(step, step.buttons()[0]["label"], user=user)
    assert record.content.startswith("This button is out of date")
    assert (await clicker.table()).row.version == version  # nothing was played


async def test_placing_offers_one_two_three_and_all_then_edits_the_same_private_message(
    discord_test: DiscordTest,
) -> None:
    dt = discord_test
    clicker = await xisk(dt)
    table = await until(clicker, "supply")
    [actor] = table.game.to_act()
    supply = table.game.view(None)["supply_left"]
    board = clicker.board()
    [menu] = [m for m in menus(board) if m["custom_id"].endswith(":place")]
    country = menu["options"][0]["value"]
    record = await dt.select(board, menu["custom_id"], [country], user=NAMES[actor])
    step = dt.ephemerals(NAMES[actor])[-1]
    assert record.ephemeral and step.content.startswith("How many chips onto ")
    labels = [b["label"] for b in step.buttons()]
    assert labels == [str(n) for n in counts(list(range(1, supply + 1)))[:-1]] + [
        f"All ({supply})" if supply > 3 else str(supply)]
    count = len(dt.ephemerals(NAMES[actor]))
    await dt.click(step, labels[0], user=NAMES[actor])
    assert step.content.startswith(f"Played `place {country} 1`.")  # the step became the answer
    assert len(dt.ephemerals(NAMES[actor])) == count  # in one callback: no follow-up
    if supply > 1:  # and offers the same step again, at the new position: chip after chip, here
        version = (await clicker.table()).row.version
        assert step.content.endswith(f"{supply - 1} left to place.") and step.buttons()
        assert all(f":{version}:" in b["custom_id"] for b in step.buttons())
        component_moves(step, await clicker.table(), actor)


async def test_my_cards_shows_the_clicker_their_own_hand_only(discord_test: DiscordTest) -> None:
    dt = discord_test
    clicker = await xisk(dt)
    table = await until(clicker, "supply")
    [actor] = table.game.to_act()
    other = next(n for n in NAMES if n != actor)
    before = len(dt.ephemerals(NAMES[other]))
    await dt.click(clicker.board(), "th1h", user=NAMES[other])
    await dt.wait_until(lambda: len(dt.ephemerals(NAMES[other])) > before)
    shown = "\n".join(m.content for m in dt.ephemerals(NAMES[other])[before:])
    assert describe_hand(table.game.view(other)["hand"]) in shown
    assert describe_hand(table.game.view(actor)["hand"]) not in shown or (
        table.game.view(actor)["hand"] == table.game.view(other)["hand"])


async def test_the_fake_refuses_an_ephemeral_message_through_the_channel(discord_test: DiscordTest) -> None:
    dt = discord_test
    record = await dt.slash("game", "help", user="ann")
    message = dt.ephemerals("ann")[-1]
    assert record.ephemeral
    partial = dt.bot.get_partial_messageable(message.channel_id).get_partial_message(message.id)
    with pytest.raises(discord.NotFound, match="Unknown Message"):
        await partial.edit(content="edited through the channel")
