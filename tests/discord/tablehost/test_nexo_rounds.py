"""Two full rounds of Nexohominis on Discord, order by order through ``/nexo`` commands and buttons.

The position (a scenario) puts everything within reach: workers by their depots, a
trooper behind a barricade, an enemy on Overwatch, a player whose Energy hangs on one
Generator. The rounds cover Initiative, harvesting, a shot with cover, an Overwatch
reaction, a unit produced, a Blackout (the Generator scrapped) and its recovery by a
new Generator constructed and completed, with refusals along the way, and count the
posts and pings: one board per phase, a ping only when a phase or an away player needs it.
"""

from __future__ import annotations

from typing import Any

from cogs.client import Tablehost
from host.table import Person
from host.tables import Table, Tables
from tests.discord.tablehost.helpers import pictures, said
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.recorder import SentMessage
from tests.support.clock import Clock

SCENARIO: dict[str, Any] = {
    "battlefield": {"preset": "crossroads"},
    "terrain": [{"id": "W1", "type": "barricade", "line": [[16, 34], [24, 34]]}],
    "depots": [{"id": "K1", "x": 13, "y": 11.8}, {"id": "K2", "x": 36, "y": 46}],
    "round": 1, "phase": "initiative", "initiative": "p1",
    "sides": {
        "p1": {"carbonite": 200,
               "models": [{"id": "a1", "type": "drudge", "x": 13, "y": 14.2},
                          {"id": "a2", "type": "drudge", "x": 16, "y": 12},
                          {"id": "a3", "type": "drudge", "x": 19, "y": 14},
                          {"id": "a4", "type": "trooper", "x": 20, "y": 24},
                          {"id": "a5", "type": "gunner", "x": 34, "y": 24}],
               "buildings": [{"id": "A1", "type": "headquarters", "x": 22, "y": 5},
                             {"id": "A2", "type": "generator", "x": 13, "y": 5},
                             {"id": "A3", "type": "foundry", "x": 30, "y": 6},
                             {"id": "A4", "type": "turret", "x": 6, "y": 6}]},
        "p2": {"carbonite": 200,
               "models": [{"id": "b1", "type": "drudge", "x": 36, "y": 43.8},
                          {"id": "b2", "type": "trooper", "x": 20, "y": 35},
                          {"id": "b3", "type": "trooper", "x": 38, "y": 38, "overwatch": True}],
               "buildings": [{"id": "B1", "type": "headquarters", "x": 22, "y": 55},
                             {"id": "B2", "type": "generator", "x": 13, "y": 55}]}}}
"""Ann (p1) and Bob (p2) on the crossroads, with the terrain replaced by one barricade."""

USERS = {"Ann": "ann", "Bob": "bob"}


async def order(dt: DiscordTest, user: str, *path: str, **options: Any) -> str:
    """Gives one ``/nexo`` order, says yes if asked, and returns the bot's last answer to the caller."""
    record = await dt.slash("nexo", *path, user=user, **options)
    if record.content.endswith("Play it?"):
        question = next(m for m in reversed(dt.ephemerals(user)) if m.content == record.content)
        await dt.click(question, "Yes, play it", user=user)
        await dt.wait_until(lambda: dt.ephemerals(user)[-1].content.startswith(("Played `", "I can't")))
        return dt.ephemerals(user)[-1].content
    return record.content


async def played(dt: DiscordTest, user: str, *path: str, **options: Any) -> str:
    """Gives an order that must be played; returns the canonical move the bot reports."""
    answer = await order(dt, user, *path, **options)
    assert answer.startswith(("Played `", "Playing `")), f"/nexo {' '.join(path)} {options}: {answer}"
    return answer


def boards(dt: DiscordTest) -> list[SentMessage]:
    """Returns the live boards posted in #general (each a picture in an embed)."""
    return [m for m in pictures(dt.messages("general")) if m.embeds]


def pings_of(dt: DiscordTest, user: str) -> int:
    """Returns how many channel messages pinged ``user``."""
    uid = dt.user(user).id
    return sum(uid in m.pinged for m in dt.messages("general"))


async def table_of(tables: Tables, dt: DiscordTest) -> Table:
    return await tables.table(str(dt.channel("general").id))


async def test_two_full_rounds_through_commands_and_buttons(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    clock = Clock(1_000_000.0)
    tables.clock = clock
    channel = dt.channel("general")
    # A scenario is no /nexo new option: the table is opened through the service, then announced
    # as the command would (not as late), and the game goes on by commands alone.
    opened = await tables.create(channel_id=str(channel.id), guild_id=str(channel.guild_id), game="nexo",
                                 creator=Person(str(dt.user("ann").id), "Ann"), options={"scenario": SCENARIO})
    assert isinstance(dt.bot, Tablehost)
    await dt.bot.deliverer.deliver(opened)
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    start_boards = len(boards(dt))
    assert "Ann to act" in said(boards(dt)[-1]) and "Initiative Phase" in said(boards(dt)[-1])

    # Round 1, Initiative: Ann has it and activates first.
    await played(dt, "ann", "first", who="me")

    # Worker Phase: harvesting, with suggestions; Bob out of turn is refused and nothing changes.
    version = (await table_of(tables, dt)).row.version
    refused = await order(dt, "bob", "harvest", worker="all")
    assert "turn" in refused.lower() and (await table_of(tables, dt)).row.version == version
    workers = await dt.autocomplete("nexo", "harvest", focused="worker", user="ann", worker="")
    assert any(w.startswith("all") for w in workers) and any(w.startswith("a1 · Drudge") for w in workers)
    depots = await dt.autocomplete("nexo", "harvest", focused="depot", user="ann", worker="a1", depot="")
    assert depots and depots[0].startswith("K1 · Carbonite depot")
    assert "harvest a1 K1" in await played(dt, "ann", "harvest", worker="a1", depot="K1")
    assert "harvest all" in await played(dt, "bob", "harvest", worker="all")
    assert "Bob's standing order 'harvest all': harvest b1 K2." in said(boards(dt)[-1])
    view = (await table_of(tables, dt)).game.view(None)
    assert view["players"]["Ann"]["carbonite"] == 250 and view["players"]["Bob"]["carbonite"] == 250
    worker_board = boards(dt)[-1]
    done_button = next(b["label"] for b in worker_board.buttons() if b["label"].startswith("Done a2"))
    clicked = await dt.click(worker_board, done_button, user="ann")
    assert clicked.content.startswith("Played `done a2")  # ending an activation is never asked about
    await played(dt, "ann", "done", unit="a3")

    # Action Phase: a shot across the barricade (light cover), then an Overwatch reaction.
    targets = await dt.autocomplete("nexo", "shoot", focused="target", user="ann", unit="a4", target="")
    b2 = next(t for t in targets if t.startswith("b2 "))
    assert "% to hit" in b2 and "light cover" in b2
    bad = await order(dt, "ann", "move", unit="a4", to="over there")
    assert "can't read" in bad and (await table_of(tables, dt)).game.view(None)["models"]["a4"]["x"] == 20
    await played(dt, "ann", "shoot", unit="a4", target="b2")
    shot = said(boards(dt)[-1])
    assert "a4 shoots b2 with Rifle" in shot and "light cover" in shot
    await played(dt, "ann", "done", unit="a4")
    await played(dt, "bob", "done", unit="b2")
    await played(dt, "ann", "move", unit="a5", to="34.69,26.4")
    assert "b3 fires Overwatch at a5" in said(boards(dt)[-1])
    assert (await table_of(tables, dt)).game.view(None)["models"]["b3"]["overwatch"] is False
    await played(dt, "ann", "done", unit="a5")
    await played(dt, "bob", "done", unit="b3")
    await played(dt, "ann", "done", unit="A4")

    # Production: Ann scraps her Generator (asked first) and falls into Blackout; a Foundry is
    # refused, a new Generator is not (house ruling 2); Bob produces a Drudge.
    scrapped = await order(dt, "ann", "scrap", piece="A2")
    assert scrapped.startswith(("Played `scrap A2`", "Playing `scrap A2`"))
    assert "Ann enters Blackout." in said(boards(dt)[-1])
    kinds = await dt.autocomplete("nexo", "construct", focused="building_type", user="ann", building_type="")
    assert any(k.startswith("Generator") for k in kinds) and not any(k.startswith("Foundry") for k in kinds)
    refused = await order(dt, "ann", "construct", building_type="foundry", position="22,17")
    assert "Energy" in refused
    await played(dt, "ann", "construct", building_type="generator", position="16,15")
    await played(dt, "ann", "end")
    types = await dt.autocomplete("nexo", "produce", focused="unit_type", user="bob", building="B1", unit_type="")
    assert any(t.startswith("Drudge · 50 Carbonite") for t in types)
    await played(dt, "bob", "produce", building="B1", unit_type="drudge")
    assert "B1 produces Drudge b4" in said(boards(dt)[-1])
    await played(dt, "bob", "end")
    table = await table_of(tables, dt)
    assert table.game.view(None)["round"] == 2 and "A5" in table.game.view(None)["buildings"]
    round_one = boards(dt)[start_boards:]
    # One board per phase (Worker, Action, Production, then round 2's Initiative), and one
    # more for Bob's first activation: he had not played yet, so he counted as away.
    phases = [b.embeds[0]["title"].split(" · ")[2] for b in round_one]
    assert phases == ["Worker Phase", "Worker Phase", "Action Phase", "Production Phase", "Initiative Phase"]
    assert (pings_of(dt, "ann"), pings_of(dt, "bob")) == (1, 1)  # the start; Bob's first turn (away)

    # Round 2: whoever has the Initiative lets Ann go first; three Drudges finish the Generator.
    initiative = table.game.view(None)["initiative"]
    await played(dt, USERS[initiative], "first", who="me" if initiative == "Ann" else "them")
    await played(dt, "ann", "build", worker="a1", building="A5")
    clock.now += 3600  # Ann steps away for an hour: the turn coming back to her pings her anew
    before, pinged = len(boards(dt)), pings_of(dt, "ann")
    await played(dt, "bob", "harvest", worker="all")
    assert len(boards(dt)) == before + 1 and pings_of(dt, "ann") == pinged + 1
    before, pinged = len(boards(dt)), pings_of(dt, "bob")
    await played(dt, "ann", "build", worker="a2", building="A5")
    await played(dt, "bob", "done", unit="b4")
    assert len(boards(dt)) == before and pings_of(dt, "bob") == pinged  # both at the table: edited in
    assert "Worker Phase · Ann to act" in said(boards(dt)[-1]) and "b4 is done." in said(boards(dt)[-1])
    await played(dt, "ann", "build", worker="a3", building="A5")  # the last worker: the Action Phase opens
    assert len(boards(dt)) == before + 1 and "Action Phase" in said(boards(dt)[-1])
    for user, unit in (("ann", "a4"), ("bob", "b2"), ("ann", "a5"), ("bob", "b3")):
        await played(dt, user, "done", unit=unit)
    view = (await table_of(tables, dt)).game.view(None)
    assert view["buildings"]["A5"]["complete"] and not view["players"]["Ann"]["blackout"]
    text = "\n".join(said(b) for b in boards(dt)[-3:])
    assert "A5 (Generator) is complete." in text and "Ann leaves Blackout." in text

    # Every board decodes; the last names who acts in its title; no board leaked a stack trace.
    last = boards(dt)[-1]
    assert "Production Phase" in said(last) and view["turn"] in said(last)
    assert all("Traceback" not in said(m) for m in dt.messages("general"))
    shown = await dt.slash("nexo", "show", user="bob", unit="a5")
    assert shown.files and shown.files[0].image().size == last.files[0].image().size
