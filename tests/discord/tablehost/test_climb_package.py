"""Climb, the game installed as a package of its own (tests/games/climb), played whole by the real bot.

Nothing in host/, cogs/, render/ or engines/ names Climb: the bot finds it through its entry point
once ``TABLEHOST_GAMES`` offers it, adds its ``/climb`` group, draws its pictures and sends its hands.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tablehost_climb.commands import secret_line
from tablehost_climb.picture import render

from cogs.client import Tablehost
from engines import KITS
from engines.core.registry import ONLY
from host.tables import Table, Tables
from host.verify import main as verify_main
from render import generic
from tests.discord.tablehost.helpers import said
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.recorder import SentMessage
from tests.support.clock import Clock

START = 1_800_000_000.0
NAMES = {"Ann": "ann", "Bob": "bob"}
BOARD = re.compile(r"climb-(?P<game>\d+)-(?P<version>\d+)\.png")
SECRETS = ("**Your hand:**", "You draw a", "You are dealt")
"""What only a hand DM says: never in the channel."""


@pytest.fixture
def climb_offered() -> Iterator[None]:
    """Offers the installed Climb package with the built-in games (before the bot starts: list it first)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ONLY, "climb,nexo,nxs,xisk")
        KITS.reload()
        yield
    KITS.reload()  # the default games again, for the next test


def bot_of(dt: DiscordTest) -> Tablehost:
    assert isinstance(dt.bot, Tablehost)
    return dt.bot


def boards(dt: DiscordTest) -> list[SentMessage]:
    """Returns the channel's live boards (messages whose embed shows a Climb picture)."""
    return [m for m in dt.messages("general") if m.embeds and any(BOARD.fullmatch(f.filename) for f in m.files)]


def hand_dms(dt: DiscordTest, user: str) -> list[SentMessage]:
    return [m for m in dt.dms(user) if "**Your hand:**" in m.content]


class Watch:
    """Follows the game through the table service: the public view at every version, and the hand DMs."""

    def __init__(self, dt: DiscordTest, tables: Tables) -> None:
        self.dt, self.tables = dt, tables
        self.channel = str(dt.channel("general").id)
        self.views: dict[int, dict[str, Any]] = {}
        self.dm_ids: dict[str, int] = {}
        self.dm_edits = dict.fromkeys(NAMES.values(), 0)

    async def table(self) -> Table:
        return await self.tables.table(self.channel)

    async def check(self) -> Table:
        """Checks the newest board and each hand DM against the game as it stands; returns the table."""
        table = await self.table()
        assert table.game is not None
        version, view = table.row.version, table.game.view(None)
        self.views[version] = view
        board = boards(self.dt)[-1]
        [png] = [f for f in board.files if BOARD.fullmatch(f.filename)]
        assert png.filename == f"climb-{table.row.id}-{version}.png"
        assert png.data == render(view), f"the board at version {version} is not the package's picture"
        for name, user in NAMES.items():
            [dm] = hand_dms(self.dt, user)  # one hand DM per player, edited in place
            self.dm_ids.setdefault(user, dm.id)
            assert dm.id == self.dm_ids[user]
            assert secret_line({"hand": table.game.view(name)["hand"]}) in dm.content
            assert dm.edits >= self.dm_edits[user]
            self.dm_edits[user] = dm.edits
        return table


async def test_climb_is_played_whole_through_its_own_package(
    climb_offered: None, discord_test: DiscordTest, tables: Tables, tmp_path: Path
) -> None:
    dt = discord_test
    clock = Clock(START)
    tables.clock = clock
    watch = Watch(dt, tables)

    # The package's slash command group opens the table, with its clock; the shared refusal names it.
    nothing = await dt.slash("game", "join", user="bob")
    assert nothing.ephemeral and "open one with /climb new, " in nothing.content, nothing.content
    opened = await dt.slash("climb", "new", user="ann", hand=4, remind_after="1h", with_options={"timeout": "6h"})
    assert "went wrong" not in opened.content
    assert "Ann opened a Climb table (hand=4). 2–4 players: join, then start." in "\n".join(
        said(m) for m in dt.messages("general"))
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    table = await watch.check()
    assert table.row.game == "climb" and table.game is not None and table.game.to_act() == ["Ann"]
    assert "The deal: 4 cards each." in said(boards(dt)[-1])
    for name, user in NAMES.items():
        [dm] = hand_dms(dt, user)
        assert f"You are dealt {secret_line(table.game.view(name)).removeprefix('**Your hand:** ')}." in dm.content

    # /climb play suggests only the caller's own playable cards; a move out of turn, or unreadable, changes nothing.
    playable = [m.split()[1] for m in table.game.legal_moves("Ann") if m.startswith("play ")]
    assert await dt.autocomplete("climb", "play", focused="card", user="ann", card="") == playable
    assert await dt.autocomplete("climb", "play", focused="card", user="bob", card="") == []
    assert await dt.autocomplete("climb", "play", focused="card", user="cy", card="") == []
    before = (table.game.to_json(), len(dt.messages("general")), len(dt.dms("ann")), len(dt.dms("bob")))
    bobs = str(table.game.view("Bob")["hand"][0])
    refused = await dt.slash("climb", "play", user="bob", card=bobs)
    assert refused.ephemeral and refused.content == "It is not your turn, Bob: waiting for Ann."
    unreadable = await dt.slash("climb", "play", user="ann", card="seven")
    assert unreadable.ephemeral and unreadable.content.startswith("'seven' is not a card: the cards are numbers")
    drew = await dt.slash("climb", "draw", user="cy")
    assert drew.ephemeral and "went wrong" not in drew.content
    table = await watch.table()
    assert table.row.version == 0 and (table.game.to_json(), len(dt.messages("general")), len(dt.dms("ann")),
                                       len(dt.dms("bob"))) == before

    # The clock: a reminder after 1 h, then after 6 h it plays Ann's lowest playable card for her.
    clock.at(1.5)
    assert [o.notice for o in await bot_of(dt).timekeeper.tick()] == ["reminder"]
    await dt.quiet()
    assert "⏰ Reminder: it is Ann's move." in dt.messages("general")[-1].content
    skip = table.game.timeout_moves("Ann", "skip")
    clock.at(7)
    assert len(await bot_of(dt).timekeeper.tick()) == 1
    await dt.quiet()
    table = await watch.check()
    assert table.row.version == 1 and table.game.view(None)["last_move"] == {"player": "Ann", "move": skip[0]}
    assert f"Ann's time ran out (6 h without a move): Ann has the turn skipped by the clock ({skip[0]})." in said(
        boards(dt)[-1])

    # To the end: the lowest playable card (by /climb play, or by /game hand's menu, in turn), else the Draw
    # button; the first time drawing is legal, it is drawn by the button.
    used = {"slash": 0, "menu": 0, "button": 0}
    plays = 0
    for _ in range(80):
        table = await watch.table()
        assert table.game is not None
        if table.game.is_over:
            break
        [actor] = table.game.to_act()
        user, version = NAMES[actor], table.row.version
        legal = table.game.legal_moves(actor)
        cards = [m for m in legal if m.startswith("play ")]
        board = boards(dt)[-1]
        labels = [b["label"] for b in board.buttons()]
        # never a card, which would show a hidden one; "My cards" is offered whatever the hand holds
        assert labels == (["Draw"] if "draw" in legal else []) + ["My cards"], labels
        if cards and (used["button"] or "draw" not in legal):
            move = cards[0]
            if plays % 2 == 0:
                record = await dt.slash("climb", "play", user=user, card=move.split()[1])
                assert record.ephemeral and record.content == f"Played `{move}`.", record.content
                used["slash"] += 1
            else:
                await dt.slash("game", "hand", user=user)
                menu = dt.ephemerals(user)[-1]
                assert "Play one now" in menu.content and "**Your hand:**" in menu.content
                assert [o["value"] for o in menu.component(f"th1p:{table.row.id}:{version}")["options"]] == cards
                await dt.select(menu, f"th1p:{table.row.id}:{version}", [move], user=user)
                await dt.wait_until(lambda m=move, u=user: dt.ephemerals(u)[-1].content == f"Played `{m}`.")
                used["menu"] += 1
            plays += 1
        else:
            move = "draw"
            await dt.click(board, "Draw", user=user)
            await dt.wait_until(lambda u=user: dt.ephemerals(u)[-1].content == "Played `draw`.")
            used["button"] += 1
        await dt.quiet()
        table = await watch.check()
        assert table.row.version == version + 1
        assert table.game.view(None)["last_move"] == {"player": actor, "move": move}
    table = await watch.table()
    assert table.game is not None and table.game.is_over, "the game did not end"
    assert all(used.values()), used
    [winner] = table.game.winners

    # The final board: the result, the seed revealed, a Rematch button.
    final = [m for m in dt.messages("general") if m.embeds][-1]
    assert f"Game over: {winner} wins!" in said(final) and "Fair dice revealed: server seed" in said(final)
    assert [b["label"] for b in final.buttons()] == ["Rematch"]

    # Every board ever posted carries the package's picture of the public view at its version (not the generic card).
    posted = boards(dt)
    assert len(posted) == table.row.version + 1  # the start, then one board per move: each move passes the turn
    for message in posted:
        [png] = message.files
        match = BOARD.fullmatch(png.filename)
        assert match is not None and png.image().format == "PNG" and png.image().size == (800, 360)
        view = watch.views[int(match["version"])]
        assert png.data == render(view) and png.data != generic.render(view, title="Climb")

    # The hands went by DM only, edited as they changed; the channel never showed one.
    for user in NAMES.values():
        assert len(hand_dms(dt, user)) == 1 and hand_dms(dt, user)[0].edits >= 3
    channel_text = [said(m) + json.dumps(m.bodies) for m in dt.messages("general")]
    assert not [t for t in channel_text if any(s in t for s in SECRETS)]

    # The replay is drawn with the package's picture too, and posted on its own.
    await dt.wait_until(lambda: any(f.filename.endswith("-replay.gif") for m in dt.messages("general")
                                    for f in m.files), timeout=30)

    # The export (/table export) is a file that host.verify checks: the seed is the one sealed, every move matches it.
    record = await dt.slash("table", "export", user="cy")
    assert record.ephemeral and record.files and record.files[0].filename == f"climb-{table.row.id}.json"
    saved = tmp_path / record.files[0].filename
    saved.write_bytes(record.files[0].data)
    report = io.StringIO()
    assert verify_main(str(saved), report) == 0, report.getvalue()
    text = report.getvalue()
    assert "the one posted when the table opened: match." in text and f"Winners: {winner}: match." in text
    assert f"All {table.row.version} moves match the seed: the dice were fair." in text

    # /game help names the package's game and its commands; /climb rules shows its summary.
    before = len(dt.ephemerals("cy"))
    await dt.slash("game", "help", user="cy")
    help_text = "\n".join(m.content for m in dt.ephemerals("cy")[before:])
    assert "**Climb** (`climb`, 2–4 players)" in help_text
    for command in ("new", "play", "draw", "resign", "rules"):
        assert f"`/climb {command}`" in help_text
    rules = await dt.slash("climb", "rules", user="cy")
    assert rules.ephemeral and rules.content.startswith("**Climb: play ever higher cards, or draw**")
    assert dt.logged_errors() == []
