"""``bot.py --console --load FILE``: an exported game replayed from its seed, move by move.

The games are real ones played through the table service and exported (tests/host/test_export.py);
stepped to their end, they reach the very state the export holds.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot
import console
from engines import GAMES
from host.export import load_export
from host.fairness import digest
from host.store import Store
from host.tables import Tables
from tests.host.conftest import ANN, BOB, CHANNEL
from tests.host.test_export import exported, play_out


def load(tmp_path: Path, text: str, script: str) -> tuple[int, str]:
    game = tmp_path / "game.json"
    game.write_text(text, encoding="utf-8")
    lines = tmp_path / "commands.txt"
    lines.write_text(script, encoding="utf-8")
    out = io.StringIO()
    code = console.main(["--load", str(game), "--script", str(lines), "--pictures", str(tmp_path / "pics")], out)
    return code, out.getvalue()


@pytest.fixture
async def tables(tmp_path: Path, tally_registered: type) -> AsyncIterator[Tables]:
    """A table service over a fresh database."""
    store = await Store.open(str(tmp_path / "tablehost.db"))
    yield Tables(store)
    await store.close()


@pytest.fixture
async def nxs_text(tables: Tables) -> str:
    """An NXS game played to its end with random legal moves, one of them taken back."""
    return await exported(tables, await play_out(tables, "nxs", undo_at=5, choices=3))


@pytest.fixture
async def xisk_text(tables: Tables) -> str:
    """A XISK game with battles, resigned to its end."""
    return await exported(tables, await play_out(tables, "xisk", resign_after=130))


@pytest.mark.parametrize(("game", "how"), [
    ("nxs", {"undo_at": 5, "choices": 3}), ("xisk", {"resign_after": 130, "clock_at": 40}), ("nexo", {}),
    ("nexo", {"seed": None}),  # keyed draws (export version 2, "hmac-sha256"); the others are on the old scheme
])
async def test_an_exported_game_replays_in_the_console_to_the_same_final_state(
    game: str, how: dict, tables: Tables, tmp_path: Path
) -> None:
    text = await exported(tables, await play_out(tables, game, **how))
    data = json.loads(text)
    code, out = load(tmp_path, text, "next 100000\ndigest\n")
    assert code == 0, out
    assert f"State digest: {digest(data['final_state'])}" in out
    assert out.count("Game over:") == 1 and "Game over: " in out.splitlines()[-2]
    for m in data["moves"]:  # every move was shown as it was stepped through, with what it announced
        assert f"{m['seq']:>4} {m['player']}: {m['move']}" in out
        for e in m["events"] or []:
            assert f"     {e['text']}" in out
    replayer = console.Replayer(load_export(text), io.StringIO(), tmp_path)
    replayer.handle("goto end")
    assert replayer.game().dump_state() == data["final_state"]
    assert replayer.game().winners == data["winners"]


async def test_next_back_and_goto_step_through_the_log(xisk_text: str, tmp_path: Path) -> None:
    data = json.loads(xisk_text)
    script = "next\nnext 2\nback\ngoto 50\ndigest\ngoto start\nback\nlog\nhelp\nquit\nnext\n"
    code, out = load(tmp_path, xisk_text, script)
    assert code == 0, out
    first = data["moves"][0]
    assert f"   1 {first['player']}: {first['move']}\n     {first['events'][0]['text']}" in out
    assert "At move 1 (1 of " in out and "At move 3 (3 of " in out and "At move 2 (2 of " in out
    assert f"  50 {data['moves'][49]['player']}: {data['moves'][49]['move']}" in out
    assert f"State digest: {data['moves'][49]['digest']}" in out  # the recorded digest of move 50
    assert out.count("At the start (0 of ") == 3  # opened, goto start, and back from there stays
    assert "▶" not in out  # the log was asked for at the start: no move is marked
    assert console.REPLAY_COMMANDS in out
    assert out.count("   1 ") == 2  # once stepped, once in the log; nothing after quit
    shown = io.StringIO()
    replayer = console.Replayer(load_export(xisk_text), shown, tmp_path)
    replayer.handle("goto 7")
    replayer.handle("log")
    assert f"▶   7 {data['moves'][6]['player']}: {data['moves'][6]['move']}" in shown.getvalue()


async def test_hands_are_hidden_unless_asked_for(xisk_text: str, tmp_path: Path) -> None:
    code, out = load(tmp_path, xisk_text, "next 3\nhand bob\nhand Ann\n")
    assert code == 0, out
    assert "(ann has a new hand: type 'hand ann')" in out
    cards = re.compile(r"\d+ cards?: [♠♥♦♣]")
    before = out[: out.index("bob: ")]
    assert not cards.search(before)  # stepping never prints a hand
    assert re.search(r"bob: \d+ cards?: ", out) and re.search(r"ann: \d+ cards?: ", out)


async def test_the_board_is_drawn_at_the_current_move(nxs_text: str, tmp_path: Path) -> None:
    code, out = load(tmp_path, nxs_text, "goto 4\nboard\n")
    assert code == 0, out
    pictures = list((tmp_path / "pics").glob("*.png"))
    assert len(pictures) == 1 and pictures[0].name.endswith("-0004.png")
    assert pictures[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


async def test_an_undo_in_the_log_is_replayed_as_the_host_did(nxs_text: str, tmp_path: Path) -> None:
    data = json.loads(nxs_text)
    undo = next(m for m in data["moves"] if m["move"] == "undo")
    taken = data["moves"][undo["seq"] - 2]
    code, out = load(tmp_path, nxs_text, f"goto {undo['seq']}\ndigest\n")
    assert code == 0, out
    assert f"{undo['player']} takes back their move ({taken['move']})." in out
    before = data["moves"][undo["seq"] - 3]["digest"]  # the state before the move taken back
    assert f"State digest: {before}" in out


async def test_bad_commands_are_refused_with_a_message(nxs_text: str, tmp_path: Path) -> None:
    code, out = load(tmp_path, nxs_text, "goto 99999\n")
    assert code == 1 and "line 1: 'goto 99999' rejected: There is no move '99999'" in out
    code, out = load(tmp_path, nxs_text, "ann: move a1 b2\n")
    assert code == 1 and "This is a replay: moves cannot be played." in out
    code, out = load(tmp_path, nxs_text, "hand zed\n")
    assert code == 1 and "There is no player called 'zed' (players: ann, bob)" in out
    code, out = load(tmp_path, nxs_text, "next many\n")
    assert code == 1 and "Say how many moves as a number" in out


async def test_a_tampered_log_replays_up_to_the_move_the_rules_refuse(xisk_text: str, tmp_path: Path) -> None:
    data = json.loads(xisk_text)
    data["moves"][59]["move"] = "attack alaska the-moon"
    code, out = load(tmp_path, json.dumps(data), "next 1000\n")
    assert code == 0, out
    assert out.count("move 60 (") >= 1 and "the replay ends before it" in out
    assert f"  59 {data['moves'][58]['player']}" in out and "  61 " not in out


def test_a_file_that_cannot_be_read_exits_2(tmp_path: Path) -> None:
    code, out = load(tmp_path, "\x00 not an export", "next\n")
    assert code == 2 and "This is not a Tablehost game export: it is not JSON" in out
    out_io = io.StringIO()
    assert console.main(["--load", str(tmp_path / "missing.json")], out_io) == 2
    assert "cannot read" in out_io.getvalue()


def test_the_console_still_needs_a_game_and_players_without_load(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as stop:
        console.main([], io.StringIO())
    assert stop.value.code == 2
    with pytest.raises(SystemExit):
        console.main(["xisk"], io.StringIO())
    with pytest.raises(SystemExit):
        console.main(["xisk", "--load", "x.json"], io.StringIO())


async def test_bot_console_load_runs_the_replay(tables: Tables, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="nexo", creator=ANN, options={})
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN, seed=4)
    table = await tables.table(CHANNEL)
    await tables.act(CHANNEL, ANN.id, "first me")
    await tables.abort(CHANNEL, ANN, can_manage=True)
    path = tmp_path / "nexo.json"
    path.write_text(await exported(tables, table.row.id))
    script = tmp_path / "s.txt"
    script.write_text("next\n")
    assert bot.main(["--console", "--load", str(path), "--script", str(script)]) == 0
    out = capsys.readouterr().out
    assert "Nexohominis game" in out and "(aborted)" in out and "ann chooses ann to activate first" in out
    assert "the game was aborted here." in out and "nexo" in GAMES


async def test_a_takeback_in_the_log_is_replayed_with_its_draws_kept(tables: Tables, tmp_path: Path) -> None:
    """The console's replay of a takeback after dice reaches the recorded state: the one before the attack, with
    the draw counter where the attack left it."""
    from tests.host.test_takeback import attacked, others

    attack, mover, before, _ = await attacked(tables)
    asked = await tables.ask_takeback(CHANNEL, mover)
    for p in others(mover):
        await tables.answer_takeback(CHANNEL, p, asked.game_id, asked.version, accept=True)
    await tables.abort(CHANNEL, ANN, can_manage=True)
    text = await exported(tables, asked.game_id)
    back = next(m for m in json.loads(text)["moves"] if m["move"] == "takeback")
    assert back["digest"] != digest(before)  # the RNG moved on: not simply the state before the attack
    code, out = load(tmp_path, text, f"goto {back['seq']}\ndigest\n")
    assert code == 0, out
    assert f"Takeback accepted by everyone: {attack} is taken back." in out
    assert f"State digest: {back['digest']}" in out
