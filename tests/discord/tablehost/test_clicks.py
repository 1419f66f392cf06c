"""Playing by clicks: whole XISK and NXS games with no slash command after the lobby's three.

The tests decide what each player wants (the players' brains read the game), and then only
click: the live board's menus and buttons, and the private steps they answer with. Every
component a player is shown is checked to offer only what is legal at that moment.
"""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from PIL import Image

from cogs.client import Tablehost
from cogs.picker import counts, moves_by_steps
from host.tables import Refusal, Table, Tables
from tests.discord.tablehost.helpers import pictures, said
from tests.discord.tablehost.test_nxs_cog import greedy
from tests.discord.tablehost.test_xisk_cog import focused
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.recorder import SentMessage

XISK_NAMES = {"Ann": "ann", "Bob": "bob", "Cy": "cy"}
NXS_NAMES = {"Ann": "ann", "Bob": "bob"}
CUT = re.compile(r"\w…$", re.MULTILINE)
"""A word cut short: letters glued to an ellipsis that ends a text or a line."""
XISK_STEP = re.compile(r": (claim a country: card \d+ of \d+"
                       r"|(redeem a cardset first .*, then )?place \d+ chips? \(\w+ phase\))")
"""A XISK turn start's step, with its number."""


@pytest.fixture(autouse=True)
def plain_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stands a 1×1 PNG in for each board: these games are about clicks (render/ tests the pictures)."""
    buffer = io.BytesIO()
    Image.new("RGB", (1, 1)).save(buffer, format="PNG")
    png = buffer.getvalue()

    async def picture(self: Tablehost, game: str, view: dict[str, Any], **how: Any) -> bytes:
        return png

    monkeypatch.setattr(Tablehost, "picture", picture)


def component_moves(message: SentMessage, table: Table, player: str) -> list[str]:
    """Returns what each component of a message offers, asserting that all of it is legal now.

    A move button offers its move; a step's menu offers each of its choices as the
    steps so far plus that choice, which must begin a legal move; the hand menu offers moves.
    """
    assert table.game is not None
    legal = set(table.game.legal_moves(player))
    paths = moves_by_steps(table, player)
    offered = []
    for comp in message.components():
        cid = str(comp.get("custom_id", ""))
        if cid.startswith("th1:"):
            game_id, version, move = cid.split(":", 3)[1:]
            assert (int(game_id), int(version)) == (table.row.id, table.row.version), cid
            offered.append(move.replace("+", " "))
            assert offered[-1] in legal, f"button {cid} offers an illegal move"
        elif cid.startswith("th1s:"):
            steps = tuple(cid.split(":", 4)[4].split("+"))
            for option in comp["options"]:
                chosen = (*steps, option["value"])
                assert any(p[: len(chosen)] == chosen for p in paths), f"menu {cid} offers {option['value']}"
                offered.append(" ".join(chosen))
        elif cid.startswith("th1p:"):
            for option in comp["options"]:
                assert option["value"] in legal, f"hand menu offers {option['value']}"
                offered.append(option["value"])
    return offered


def reachable(move: str, offered: list[str], paths: dict[tuple[str, ...], str]) -> str:
    """Returns the move as the components can make it: a count not offered becomes the nearest that is."""
    words = move.split()
    if not words[-1].isdigit():
        return move
    head = tuple(words[:-1])
    shown = counts([int(p[-1]) for p in paths if p[:-1] == head and p[-1].isdigit()])
    return " ".join([*head, str(min(shown, key=lambda n: abs(n - int(words[-1]))))]) if shown else move


class Clicker:
    """Plays moves by clicks only, and counts what it saw."""

    def __init__(self, dt: DiscordTest, tables: Tables, names: dict[str, str]) -> None:
        self.dt, self.tables, self.names = dt, tables, names
        self.channel = str(dt.channel("general").id)
        self.clicks = self.questions = 0

    async def table(self) -> Table:
        return await self.tables.table(self.channel)

    def board(self) -> SentMessage:
        return [m for m in self.dt.messages("general") if m.components()][-1]

    async def shown(self, table: Table) -> SentMessage:
        """Waits until the live board offers the table's position (its last move delivered); returns it."""
        at = f":{table.row.id}:{table.row.version}"

        def current() -> bool:
            ids = [str(c.get("custom_id", "")) for c in self.board().components()]
            return any(i.startswith(("th1:", "th1s:", "th1p:")) for i in ids) and all(
                i.startswith(f"{i.split(':')[0]}{at}:") or i == f"th1p{at}"
                for i in ids if i.startswith(("th1:", "th1s:", "th1p:")))

        await self.dt.wait_until(current)
        return self.board()

    async def play(self, player: str, move: str) -> str:
        """Clicks its way to ``move`` (or the nearest count the buttons offer); returns the move played."""
        dt, user = self.dt, self.names[player]
        table = await self.table()
        paths = moves_by_steps(table, player)
        message = await self.shown(table)
        offered = component_moves(message, table, player)
        move = reachable(move, offered, paths)
        steps = 0
        while True:
            steps += 1
            assert steps < 6, f"could not click to {move}"
            buttons = {str(b["custom_id"]).split(":", 3)[3].replace("+", " "): b for b in message.buttons()
                       if str(b.get("custom_id", "")).startswith("th1:")}
            if move in buttons:
                record = await dt.click(message, str(buttons[move]["custom_id"]), user=user)
                break
            hand = [c for c in message.components() if str(c.get("custom_id", "")).startswith("th1p:")]
            if hand and move in [o["value"] for o in hand[0]["options"]]:
                record = await dt.select(message, hand[0]["custom_id"], [move], user=user)
                break
            if move.startswith("redeem"):  # the cards are private: "My cards" shows the sets
                before = len(dt.ephemerals(user))
                await dt.click(message, "th1h", user=user)
                self.clicks += 1
                await dt.wait_until(lambda n=before: len(dt.ephemerals(user)) > n
                                    and dt.ephemerals(user)[-1].components())
                message = dt.ephemerals(user)[-1]
                component_moves(message, table, player)
                continue
            record = await self._choose(message, user, move)
            if record.content.startswith("Playing") or record.content.startswith("Played"):
                break
            message = dt.ephemerals(user)[-1]
            component_moves(message, table, player)
        self.clicks += 1
        done = f"Played `{move}`."
        await dt.wait_until(lambda: any(m.content.startswith(done) for m in dt.ephemerals(user)[-2:]))
        assert record.content.startswith(done), record.content  # the click's one callback says it
        self.questions += sum("Play it?" in m.content or "now?" in m.content for m in dt.ephemerals(user)[-3:])
        return move

    async def _choose(self, message: SentMessage, user: str, move: str):
        """Chooses the next word of ``move`` in the message's step menu that leads to it."""
        self.clicks += 1
        paths = moves_by_steps(await self.table(), next(p for p, u in self.names.items() if u == user))
        target = next(p for p, m in paths.items() if m == move)
        for comp in message.components():
            cid = str(comp.get("custom_id", ""))
            if not cid.startswith("th1s:"):
                continue
            steps = tuple(cid.split(":", 4)[4].split("+"))
            if target[: len(steps)] == steps and target[len(steps)] in [o["value"] for o in comp["options"]]:
                return await self.dt.select(message, cid, [target[len(steps)]], user=user)
        raise AssertionError(f"no menu on message {message.id} leads to {move}: {message.components()}")


def not_cut(dt: DiscordTest) -> None:
    """Asserts that no message, embed description or field in the channel is cut mid-word."""
    for m in dt.messages("general"):
        texts = [m.content, *(e.get("description") or "" for e in m.embeds)]
        texts += [f.get("value", "") for e in m.embeds for f in e.get("fields") or []]
        for text in texts:
            assert not CUT.search(text), f"cut mid-word in message {m.id}: {text[-120:]!r}"
        assert all(len(f.get("value", "")) <= 1024 for e in m.embeds for f in e.get("fields") or [])


async def test_xisk_three_players_to_the_end_by_clicks_only(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    dt.settle = 0.002  # Clicker.shown waits for each move's board itself
    await dt.slash("xisk", "new", user="ann", cards_per_player=4)
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "join", user="cy")
    await dt.slash("game", "start", user="ann")
    commands = len([r for r in dt.fake.recorder.interactions.values() if r.kind == 2])
    clicker = Clicker(dt, tables, XISK_NAMES)
    turns = moves = 0
    kinds: set[str] = set()
    for _ in range(2000):
        table = await clicker.table()
        if table.game.is_over:
            break
        [actor] = table.game.to_act()
        before = table.game.view(None)
        wanted = focused(table, actor)
        adjusts = [m for m in table.game.legal_moves(actor) if m.startswith("adjust")]
        if adjusts and turns % 3 == 0:  # now and then the one transfer, by clicks too
            wanted = adjusts[-1]
        played = await clicker.play(actor, wanted)
        kinds.add(played.split()[0])
        moves += 1
        after = (await clicker.table()).game.view(None)
        if after["phase"] == "supply" and (before["phase"] != "supply" or after["turn"] != before["turn"]):
            turns += 1
    await dt.quiet(0.1)
    table = await clicker.table()
    assert not dt.recorder.requests_to("GET /channels/{channel_id}/messages/{message_id}")  # closed unfetched
    assert not dt.recorder.requests_to("GET /users/{user_id}")[3:]  # a user fetched only for a first DM
    assert table.game.is_over and turns > 10, (turns, moves)
    assert kinds >= {"claim", "place", "redeem", "attack", "invade", "adjust", "end"}, kinds
    assert len([r for r in dt.fake.recorder.interactions.values() if r.kind == 2]) == commands  # no slash command
    assert clicker.questions / turns <= 0.1, (clicker.questions, turns)
    boards = pictures(dt.messages("general"))
    starts = boards[1:-1]  # after the start's board, before the victory's
    assert len(starts) >= turns and all(XISK_STEP.search(b.content) for b in starts), next(
        b.content for b in starts if not XISK_STEP.search(b.content))
    winner = table.game.winners[0]
    victory = [m for m in dt.messages("general") if m.embeds][-1]
    assert f"Game over: {winner} wins!" in said(victory) and pictures([victory])
    assert [b["label"] for b in victory.buttons()] == ["Rematch"]
    not_cut(dt)

    # Over: a move is refused, in the service and on Discord, and the board says so.
    with pytest.raises(Refusal, match="no game running"):
        await tables.act(clicker.channel, table.user_of(winner), "end")
    late = await dt.slash("xisk", "end", user=XISK_NAMES[winner])
    assert late.ephemeral and "no game running" in late.content
    await dt.slash("game", "board", user="cy")
    final = dt.messages("general")[-1]
    assert final.files and "finished" in said(final)


async def test_nxs_to_the_end_by_clicks_only(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    dt.settle = 0.01
    await dt.slash("nxs", "new", user="ann", layout="short", target=3)
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    commands = len([r for r in dt.fake.recorder.interactions.values() if r.kind == 2])
    clicker = Clicker(dt, tables, NXS_NAMES)
    rng = random.Random(2)
    for _ in range(300):
        table = await clicker.table()
        if table.game.is_over:
            break
        [actor] = table.game.to_act()
        await clicker.play(actor, greedy(table.game, actor, rng))
    table = await clicker.table()
    assert table.game.is_over
    assert len([r for r in dt.fake.recorder.interactions.values() if r.kind == 2]) == commands
    assert clicker.questions == 0
    not_cut(dt)
