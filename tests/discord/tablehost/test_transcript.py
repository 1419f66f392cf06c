"""Every request the bot sends in scripted XISK, NXS and Nexohominis games, compared with a recording.

Each script opens a table, plays a game by slash commands, buttons, the hand menu and
autocomplete, asks for the board, hand, log and status, and ends it (a resignation or a
concession, so the game-over post, the revealed seed, the replay and the Rematch button are
in it too). Every REST request the bot made from the first command on is written down:
method, path, JSON body and the SHA-256 of each uploaded file (pictures included), with what
changes from run to run replaced by stable names (snowflake ids, interaction tokens, the
random salt and the digests made from it, Discord timestamps).

The recordings in ``transcripts/`` were made before the Discord layer was split into layers
(issue 21); a refactoring must leave them exactly as they are. A change of behaviour on
purpose re-records them: ``TABLEHOST_RECORD_TRANSCRIPTS=1 pytest tests/discord/tablehost/test_transcript.py``,
then read the diff before committing it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from host import fairness
from host.tables import Tables
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.recorder import SentFile

HERE = Path(__file__).resolve().parent / "transcripts"
RECORD = os.environ.get("TABLEHOST_RECORD_TRANSCRIPTS") == "1"
SNOWFLAKE = re.compile(r"(?<![0-9])[0-9]{15,20}(?![0-9])")
SIGNATURE = re.compile(r"(?<![0-9a-f])[0-9a-f]{128}(?![0-9a-f])")
"""An export's Ed25519 signature: it covers the file's times, which change from run to run."""
HEX = re.compile(r"(?<![0-9a-f])(?:[0-9a-f]{64}|[0-9a-f]{32}|[0-9a-f]{16}(?=…))(?![0-9a-f])")
STAMP = re.compile(r"<t:[0-9]+(:[tTdDfFR])?>")
TOKEN = re.compile(r"itoken-[0-9a-f]+")
ISO = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+(?:[+-][0-9]{2}:[0-9]{2}|Z)?")
SKIPPED = {"PUT /applications/{application_id}/commands", "GET /gateway/bot", "GET /users/@me",
           "GET /oauth2/applications/@me"}
"""Start-up requests, which the scripts do not make."""


@pytest.fixture(autouse=True)
def fixed_salt(monkeypatch: pytest.MonkeyPatch) -> None:
    """Makes each game's salt the same every run (the seed already is), so the commitment is too."""
    salts = iter(range(1, 1000))
    fixed = SimpleNamespace(token_hex=lambda size: f"{next(salts):0{2 * size}x}", randbits=secrets.randbits)
    monkeypatch.setattr(fairness, "secrets", fixed)


class Names:
    """Gives each distinct changing value a stable name, in order of first appearance."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], str] = {}

    def name(self, kind: str, value: str) -> str:
        """Returns ``<kind#n>`` for a value, the same each time it appears."""
        key = (kind, value)
        if key not in self.seen:
            self.seen[key] = f"<{kind}#{sum(1 for k in self.seen if k[0] == kind) + 1}>"
        return self.seen[key]

    def text(self, value: str) -> str:
        """Returns a string with its ids, tokens, hex digests and timestamps replaced by names."""
        value = SIGNATURE.sub("<signature>", value)  # hex first: a run of its digits would read as a snowflake
        value = HEX.sub(lambda m: self.name("hex", m[0][:16]), value)
        value = TOKEN.sub(lambda m: self.name("token", m[0]), value)
        value = SNOWFLAKE.sub(lambda m: self.name("id", m[0]), value)
        value = ISO.sub("<time>", value)
        return STAMP.sub(lambda m: f"<t:T{m[1] or ''}>", value)

    def data(self, value: Any) -> Any:
        """Returns a JSON value with every string and large integer named as by :meth:`text`."""
        if isinstance(value, dict):
            return {k: self.data(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.data(v) for v in value]
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 10**15:
            return self.name("id", str(value))
        return value


def file_entry(names: Names, file: SentFile) -> Any:
    """Returns a picture's name and SHA-256, or a text file's name and text (its changing values named)."""
    if file.filename.endswith((".png", ".gif", ".webp")):
        return [names.text(file.filename), hashlib.sha256(file.data).hexdigest()]
    return [names.text(file.filename), names.text(file.data.decode("utf-8", "replace"))]


def transcript(dt: DiscordTest, start: int) -> list[dict[str, Any]]:
    """Returns the requests made since ``start`` (an index into the recorder), with changing values named."""
    names = Names()
    out = []
    for request in dt.recorder.requests[start:]:
        if request.route in SKIPPED:
            continue
        entry: dict[str, Any] = {"request": f"{request.method} {names.text(request.path)}", "status": request.status}
        if request.body is not None:
            entry["body"] = names.data(request.body)
        if request.files:
            entry["files"] = [file_entry(names, f) for f in request.files]
        out.append(entry)
    return out


async def check(dt: DiscordTest, name: str, script: Callable[[], Awaitable[None]]) -> None:
    """Runs a script and compares its transcript with the recording (or records it)."""
    start = len(dt.recorder.requests)
    await script()
    await dt.quiet(0.3)
    got = transcript(dt, start)
    path = HERE / f"{name}.json"
    if RECORD:
        HERE.mkdir(exist_ok=True)
        path.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        return
    want = json.loads(path.read_text(encoding="utf-8"))
    for n, (a, b) in enumerate(zip(got, want, strict=False)):
        assert a == b, f"{name}: request {n} differs from the recording:\n got {a}\nwant {b}"
    assert len(got) == len(want), f"{name}: {len(got)} requests, the recording has {len(want)}"


class Player:
    """Drives one channel's game: who must act, their legal moves, and the ways to play one."""

    def __init__(self, dt: DiscordTest, tables: Tables, users: dict[str, str]) -> None:
        self.dt, self.tables, self.users = dt, tables, users

    async def actor(self) -> tuple[str, list[str]]:
        """Returns the user who must act and their legal moves ('' when the game is over)."""
        table = await self.tables.table(str(self.dt.channel("general").id))
        assert table.game is not None
        if table.game.is_over:
            return "", []
        seat = table.game.to_act()[0]
        return self.users[seat], table.game.legal_moves(seat)

    async def typed(self, user: str, move: str) -> None:
        """Plays a move with ``/game play``, answering "yes" when it is asked about."""
        record = await self.dt.slash("game", "play", user=user, move=move)
        if record.content.endswith("Play it?"):
            question = next(m for m in reversed(self.dt.ephemerals(user)) if m.content == record.content)
            await self.dt.click(question, "Yes, play it", user=user)

    async def button(self, user: str, label: str) -> bool:
        """Clicks a button of the newest live board whose label starts with ``label``; returns whether one was."""
        boards = [m for m in self.dt.messages("general") if m.buttons()]
        if not boards:
            return False
        found = [b for b in boards[-1].buttons() if b["label"].startswith(label)]
        if not found:
            return False
        await self.dt.click(boards[-1], found[0]["label"], user=user)
        return True


async def lobby(dt: DiscordTest, game: str, **options: Any) -> None:
    """Opens a table of ``game`` with its options, and seats ann and bob; bob tries to start it first."""
    await dt.slash(game, "new", user="ann", **options)
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "join", user="bob")  # refused: already seated
    await dt.slash("game", "start", user="ann")


async def looks(dt: DiscordTest, user: str) -> None:
    """Asks what a player asks: the board, their hand, the log, the status, their games."""
    await dt.slash("game", "board", user=user)
    await dt.slash("game", "hand", user=user)
    await dt.slash("game", "log", user=user, count=5)
    await dt.slash("game", "status", user=user)
    await dt.slash("game", "mine", user=user)


async def after_the_end(dt: DiscordTest) -> None:
    """Waits for the replay, then lists the channel's games and exports the one that ended."""
    await dt.wait_until(lambda: any(f.filename.endswith("-replay.gif") for m in dt.messages("general")
                                    for f in m.files), timeout=60)
    await dt.quiet(0.3)
    await dt.slash("table", "history", user="bob")
    await dt.slash("table", "export", user="bob")


USERS = {"Ann": "ann", "Bob": "bob"}
"""Seat name → fake user: the fake names its users' display names with a capital."""


async def test_a_scripted_xisk_game_sends_what_it_sent_before(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    play = Player(dt, tables, USERS)

    async def script() -> None:
        await dt.slash("game", "help", user="ann")
        await lobby(dt, "xisk", cards_per_player=5)
        await dt.autocomplete("xisk", "claim", focused="country", user="ann", country="a")
        for n in range(60):
            user, legal = await play.actor()
            if not user:
                break
            if n == 3:
                await dt.slash("xisk", "end", user="bob" if user == "ann" else "ann")  # out of turn
            claims = [m for m in legal if m.startswith("claim ")]
            places = [m for m in legal if m.startswith("place ")]
            attacks = [m for m in legal if m.startswith("attack ")]
            if claims:
                await dt.slash("xisk", "claim", user=user, country=claims[0].split()[1])
            elif places:
                country, chips = places[-1].split()[1:]
                await dt.slash("xisk", "place", user=user, country=country, chips=int(chips))
            elif attacks and n % 4 != 0:
                origin, target = attacks[n % len(attacks)].split()[1:]
                await dt.autocomplete("xisk", "attack", focused="target", user=user, origin=origin, target="")
                await dt.slash("xisk", "attack", user=user, origin=origin, target=target)
            elif any(m.startswith("invade ") for m in legal):
                if not await play.button(user, "Invade all"):
                    await play.typed(user, [m for m in legal if m.startswith("invade ")][-1])
            elif "end" in legal:
                if not await play.button(user, "End attack") and not await play.button(user, "Skip adjust"):
                    await play.typed(user, "end")
            else:
                await play.typed(user, legal[0])
            if n == 40:
                await looks(dt, user)
        user, _ = await play.actor()
        await dt.slash("xisk", "resign", user=user or "ann")
        await dt.click(dt.ephemerals(user or "ann")[-1], "Yes, play it", user=user or "ann")
        await after_the_end(dt)

    await check(dt, "xisk", script)


async def test_a_scripted_nxs_duel_sends_what_it_sent_before(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    play = Player(dt, tables, USERS)

    async def script() -> None:
        await lobby(dt, "nxs", layout="short", target=6)
        for n in range(24):
            user, legal = await play.actor()
            if not user:
                break
            captures = [m for m in legal if m.startswith("capture ")]
            slides = [m for m in legal if m.startswith("move ")]
            if any(m.startswith("rotate ") for m in legal):
                if not await play.button(user, "Rotate"):
                    await dt.slash("nxs", "rotate", user=user, direction="left")
            elif captures:
                origin, destination = captures[0].split()[1:]
                await dt.slash("nxs", "capture", user=user, origin=origin, destination=destination)
            elif slides:
                origin, destination = slides[n % len(slides)].split()[1:]
                if n == 2:
                    await dt.slash("nxs", "show", user=user, cell=origin)
                    await dt.autocomplete("nxs", "move", focused="destination", user=user, origin=origin,
                                          destination="")
                await dt.slash("nxs", "move", user=user, origin=origin, destination=destination)
            else:
                await play.typed(user, legal[0])
            if n == 10:
                await looks(dt, user)
        user, _ = await play.actor()
        await dt.slash("nxs", "resign", user=user or "ann")
        await dt.click(dt.ephemerals(user or "ann")[-1], "Yes, play it", user=user or "ann")
        await after_the_end(dt)

    await check(dt, "nxs", script)


async def test_a_scripted_nexohominis_skirmish_sends_what_it_sent_before(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    play = Player(dt, tables, USERS)

    async def script() -> None:
        await lobby(dt, "nexo", battlefield="crossroads", round_limit=2)
        for n in range(30):
            user, legal = await play.actor()
            if not user:
                break
            if n == 4:
                units = await dt.autocomplete("nexo", "show", focused="unit", user=user, unit="")
                if units:
                    await dt.slash("nexo", "show", user=user, unit=units[0].split()[0])
            moves = [m for m in legal if m.split()[0] not in {"concede", "scrap", "end", "pass", "done"}]
            if n % 5 == 4 and (await play.button(user, "Done") or await play.button(user, "Pass")
                               or await play.button(user, "End")):
                continue
            await play.typed(user, moves[n % len(moves)] if moves else legal[0])
            if n == 12:
                await looks(dt, user)
        user, legal = await play.actor()
        if user:
            await play.typed(user, "concede")
        await after_the_end(dt)

    await check(dt, "nexo", script)

