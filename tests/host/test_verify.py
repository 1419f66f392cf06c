"""--verify: the commitment opens to the seed, and every recorded die, deal and state is what the seed gives.

An honest export passes; a die changed in the file, a move changed in the log and a salt that
does not open the commitment each fail, naming the move and quoting the dice.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import bot
from engines import GAMES
from host.export import load_export
from host.tables import Tables
from host.verify import MISMATCH, NOT_RECORDED, OK, TAKEN_BACK, dice, main, verify
from host.verify import main as verify_main
from tests.host.test_export import exported, play_out


def run(path: Path, *, every: bool = False) -> tuple[int, str]:
    out = io.StringIO()
    code = verify_main(str(path), out, every=every)
    return code, out.getvalue()


def write(tmp_path: Path, data: dict | str, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def moves(path: Path) -> int:
    """Returns how many moves (not undos) a file's log holds."""
    return sum(1 for m in json.loads(path.read_text())["moves"] if m["move"] != "undo")


@pytest.fixture
async def xisk_file(tables: Tables, tmp_path: Path) -> Path:
    """A XISK game with battles and a turn played by the clock, resigned to its end."""
    return write(tmp_path, await exported(tables, await play_out(tables, "xisk", resign_after=150, clock_at=70)))


async def test_verify_passes_on_an_honest_export(tables: Tables, xisk_file: Path, tmp_path: Path) -> None:
    code, text = run(xisk_file)
    assert code == 0, text
    lines = text.splitlines()
    assert lines[-1] == f"All {moves(xisk_file)} moves match the seed: the dice were fair."
    assert "the one posted at the start: match." in lines[1]
    assert "Final state: the replay ends in the file's final state: match." in lines
    assert "Winners: bob: match." in lines or "Winners: ann: match." in lines
    assert "MISMATCH" not in text
    code, every = run(xisk_file, every=True)
    assert code == 0 and len([line for line in every.splitlines() if line.startswith("move ")]) == moves(xisk_file)
    assert any(": dice " in line and " vs " in line and line.endswith(": match") for line in every.splitlines())
    # an undo honoured; another game's dice
    for game, kwargs in [("nxs", {"undo_at": 5, "choices": 3}), ("nexo", {})]:
        path = write(tmp_path, await exported(tables, await play_out(tables, game, channel=game, **kwargs)), game)
        code, text = run(path)
        assert code == 0 and text.endswith("the dice were fair.\n"), text


async def test_verify_fails_when_a_die_is_altered(xisk_file: Path, tmp_path: Path) -> None:
    data = json.loads(xisk_file.read_text())
    n, move = next((n, m) for n, m in enumerate(data["moves"]) if m["events"] and m["events"][0]["kind"] == "battle")
    battle = move["events"][0]
    honest = f"{'-'.join(map(str, battle['attacker_dice']))} vs {'-'.join(map(str, battle['defender_dice']))}"
    battle["attacker_dice"][0] = 7 - battle["attacker_dice"][0]  # a 6 becomes a 1, a 2 a 5: never itself
    forged = f"{'-'.join(map(str, battle['attacker_dice']))} vs {'-'.join(map(str, battle['defender_dice']))}"
    code, text = run(write(tmp_path, data))
    assert code == 1
    line = next(line for line in text.splitlines() if line.endswith(MISMATCH))
    assert line == (f"move {move['seq']} ({move['player']}: {move['move']}): recorded dice {forged},"
                    f" recomputed {honest}: MISMATCH")
    last = text.splitlines()[-1]
    assert last == f"1 of {moves(xisk_file)} moves do not match: this record is not what the seed gives."
    assert n + 1 == move["seq"]


async def test_verify_fails_when_the_log_is_altered(xisk_file: Path, tmp_path: Path) -> None:
    data = json.loads(xisk_file.read_text())
    export = load_export(xisk_file.read_text())
    game = export.new_game()
    for m in export.moves:  # find a move with another legal choice, and play that one instead
        choices = [c for c in game.legal_moves(m.player) if c != m.move]
        if m.move.startswith("place") and choices:
            break
        game.play(m.player, m.move)
    other = next(c for c in choices if c.startswith("place"))
    data["moves"][m.seq - 1]["move"] = other
    code, text = run(write(tmp_path, data))
    assert code == 1
    line = next(line for line in text.splitlines() if line.startswith(f"move {m.seq} ({m.player}: {other}): "))
    assert "the state after it is not the recorded one" in line and line.endswith(MISMATCH)
    last = text.splitlines()[-1]
    assert " moves do not match; the end cannot be checked: this record is not what the seed gives." in last


async def test_verify_fails_when_the_commitment_does_not_match(xisk_file: Path, tmp_path: Path) -> None:
    data = json.loads(xisk_file.read_text())
    data["seed"] += 1  # another seed under the posted commitment: its salt no longer opens it
    code, text = run(write(tmp_path, data))
    assert code == 1 and "but the file says" in text.splitlines()[1] and text.splitlines()[1].endswith("MISMATCH.")
    data = json.loads(xisk_file.read_text())
    data["salt"] = "0" * 32
    code, text = run(write(tmp_path, data))
    assert code == 1 and "the seed is not the one sealed at the start" in text.splitlines()[-1]


async def test_a_tampered_move_the_rules_refuse_stops_the_replay(xisk_file: Path, tmp_path: Path) -> None:
    data = json.loads(xisk_file.read_text())
    data["moves"][49]["move"] = "attack alaska the-moon"
    code, text = run(write(tmp_path, data))
    assert code == 1 and "move 50 (" in text and "the rules refuse it here" in text
    assert "the replay stopped at move 50" in text and "Final state" not in text
    data = json.loads(xisk_file.read_text())
    del data["moves"][40]  # a move left out
    code, text = run(write(tmp_path, data))
    assert code == 1 and "numbered 42 where the log's entry 41 belongs" in text


async def test_moves_without_records_are_replayed_but_do_not_fail(xisk_file: Path, tmp_path: Path) -> None:
    data = json.loads(xisk_file.read_text())
    for m in data["moves"][:10]:
        m["events"] = m["digest"] = None
    report = verify(load_export(json.dumps(data)))
    assert report.ok and [m.status for m in report.moves[:11]] == [NOT_RECORDED] * 10 + [OK]
    assert "10 move(s) (moves 1–10) were played before the bot kept records" in report.text()
    total = moves(xisk_file)
    assert report.summary() == (f"All {total - 10} recorded moves of {total} match the seed (10 not recorded):"
                                " the dice were fair.")
    data["salt"] = data["commitment"] = None  # a game from before fair dice: nothing sealed to check
    report = verify(load_export(json.dumps(data)))
    assert report.ok and report.commitment_ok is None and "none recorded" in report.commitment


async def test_the_final_state_and_winners_are_checked(xisk_file: Path, tmp_path: Path) -> None:
    data = json.loads(xisk_file.read_text())
    data["final_state"]["turn_number"] += 1
    data["winners"] = [p["name"] for p in data["players"] if p["name"] not in data["winners"]]
    report = verify(load_export(json.dumps(data)))
    assert not report.ok and not report.failures
    assert any("final state: MISMATCH" in line for line in report.end)
    assert any(line.startswith("Winners: the file says") for line in report.end)


async def test_an_undo_takes_back_the_latest_standing_move(tables: Tables) -> None:
    text = await exported(tables, await play_out(tables, "nxs", undo_at=5, choices=3))
    report = verify(load_export(text))
    undos = [m for m in report.moves if m.status == TAKEN_BACK]
    assert report.ok and len(undos) == 1 and undos[0].detail.startswith("takes back move ")
    assert len(report.played) == len(report.moves) - 1


def test_bot_verify_exits_0_1_and_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bot.main(["--verify", str(write(tmp_path, "\x00junk"))]) == 2
    assert "error: " in capsys.readouterr().out
    assert bot.main(["--verify", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().out
    assert bot.main(["--verify"]) == 2


async def test_bot_verify_reads_a_real_export(xisk_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert bot.main(["--verify", str(xisk_file)]) == 0
    assert capsys.readouterr().out.endswith("the dice were fair.\n")
    data = json.loads(xisk_file.read_text())
    data["moves"][5]["digest"] = "0" * 64
    assert bot.main(["--verify", str(write(tmp_path, data, "forged.json"))]) == 1
    assert main(str(xisk_file), io.StringIO()) == 0


def test_dice_fields_of_every_game_are_quoted() -> None:
    assert dice([{"kind": "order_roll", "dice": [6, 5, 2]}]) == "6-5-2"
    assert dice([{"kind": "shoot", "attack_dice": [5, 1], "save_dice": []}]) == "5-1"
    assert dice([{"kind": "text"}]) == ""
    assert "xisk" in GAMES


async def test_an_altered_nexohominis_initiative_roll_is_quoted(tables: Tables, tmp_path: Path) -> None:
    data = json.loads(await exported(tables, await play_out(tables, "nexo")))
    move = next(m for m in data["moves"] if any(e["kind"] == "initiative" for e in m["events"]))
    event = next(e for e in move["events"] if e["kind"] == "initiative")
    honest = ", then ".join("-".join(map(str, pair)) for pair in event["rolls"])
    event["rolls"][-1][0] = 7 - event["rolls"][-1][0]
    forged = ", then ".join("-".join(map(str, pair)) for pair in event["rolls"])
    code, text = run(write(tmp_path, data))
    assert code == 1
    assert f"): recorded dice {forged}, recomputed {honest}: MISMATCH" in text


def _renumbered(entries: list[dict]) -> list[dict]:
    return [{**e, "seq": n} for n, e in enumerate(entries, 1)]


async def test_verify_fails_on_an_attack_taken_back_and_rolled_again(xisk_file: Path, tmp_path: Path) -> None:
    """The live host refuses to undo a move that used dice; a record holding such an undo was written by hand.

    Rolled, taken back, rolled again: the second roll gives the same dice from the same state, so every
    recorded die and digest still matches, and only the undo rule shows what was done.
    """
    data = json.loads(xisk_file.read_text())
    honest = moves(xisk_file)
    n, attack = next((n, m) for n, m in enumerate(data["moves"]) if m["events"] and m["events"][0]["kind"] == "battle")
    undo = {**attack, "move": "undo", "events": [], "origin": None}
    data["moves"] = _renumbered([*data["moves"][: n + 1], undo, attack, *data["moves"][n + 1:]])
    code, text = run(write(tmp_path, data))
    assert code == 1, text
    line = next(line for line in text.splitlines() if line.endswith(MISMATCH))
    assert line == (f"move {n + 2} ({attack['player']}: undo): the host refuses to take back move {n + 1}"
                    f" ({attack['move']}): it used chance (a die was rolled or a card was dealt or drawn): MISMATCH")
    summary = f"1 of {honest + 2} moves do not match: this record is not what the seed gives."  # the copy, the undo
    assert text.splitlines()[-1] == summary, text.splitlines()[-1]


async def test_verify_fails_on_an_undo_of_another_player_s_move_or_of_nothing(
    tables: Tables, tmp_path: Path
) -> None:
    path = write(tmp_path, await exported(tables, await play_out(tables, "nxs", channel="nxs")), "nxs")
    data = json.loads(path.read_text())
    first = data["moves"][0]
    other = next(m["player"] for m in data["moves"] if m["player"] != first["player"])
    forged = {**first, "player": other, "move": "undo", "events": [], "origin": None}
    doctored = {**data, "moves": _renumbered([first, forged, first, *data["moves"][1:]])}
    code, text = run(write(tmp_path, doctored, "other.json"))
    assert code == 1 and (f"move 2 ({other}: undo): the host refuses to take back move 1 ({first['move']}):"
                          f" it is {first['player']}'s move, not {other}'s: MISMATCH") in text
    nothing = {**data, "moves": _renumbered([{**forged, "player": first["player"]}, *data["moves"]])}
    code, text = run(write(tmp_path, nothing, "nothing.json"))
    assert code == 1 and (f"move 1 ({first['player']}: undo): the host refuses it: there is no move to take back:"
                          " MISMATCH") in text


async def test_verify_fails_when_the_final_state_is_left_out(xisk_file: Path, tmp_path: Path) -> None:
    data = json.loads(xisk_file.read_text())
    del data["final_state"]
    code, text = run(write(tmp_path, data, "no-end.json"))
    assert code == 1 and "Final state: not in the file, so the end cannot be checked: MISMATCH." in text
    assert text.splitlines()[-1] == "The end does not match: this record is not what the seed gives."


async def test_verify_fails_when_a_finished_game_is_marked_aborted(xisk_file: Path, tmp_path: Path) -> None:
    data = json.loads(xisk_file.read_text())
    winners = data["winners"]
    data.update(status="aborted", winners=None)
    code, text = run(write(tmp_path, data, "aborted.json"))
    assert code == 1
    assert (f"Status: the file says the game was aborted, but the replay ends it by its rules"
            f" ({' and '.join(winners)} won): MISMATCH.") in text
