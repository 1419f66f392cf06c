"""--verify trusts nothing in the file: the commitment opens to the seed, and every die, deal, state and time holds.

One finished game of each kind is played through the table service for the whole module (on keyed
draws from fixed server seeds, and XISK once more on the old scheme), and each test doctors a copy
of its export. An honest export passes (exit 0); a doctored one fails with exit 1, its first line the
first reason, naming the move and the field, its second how many problems were found; a file that is
not an export (or breaks the schema) exits 2.

Doctored records are signed again with the bot's own key (``write``), as a bot forging its own record
would: what the replay catches, it catches however the file is signed. The signature (host.signing)
catches the rest when anyone but the bot changed the file: what no replay can show, and these tests pin
down, is a genuine (move, undo) pair that used no chance, removed with the log renumbered (it leaves no
trace in any state or draw), a seat's id swapped for another account older than its join, and the turn
clock's moves relabelled as the player's.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import itertools
import json
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import bot
from engines import GAMES
from engines.core.errors import shown
from host.export import load_export, parse_time
from host.fairness import digest
from host.signing import bot_key, fingerprint, new_key, sign
from host.store import Store
from host.tables import Tables
from host.verify import DISCORD_EPOCH_MS, MISMATCH, NOT_RECORDED, OK, TAKEN_BACK, dice, main, verify
from host.verify import main as verify_main
from tests.host.test_export import exported, play_out

PLAYED: dict[str, dict[str, Any]] = {
    "xisk": {"resign_after": 150, "clock_at": 70, "undo_at": 3},  # battles, an undo, a turn played by the clock
    "nxs": {"undo_at": 5, "choices": 3},  # no chance at all: no draws
    "nexo": {"undo_at": 2, "clock_at": 9},
}
BOTH = pytest.mark.parametrize("game", ["xisk", "nexo"])
"""The doctored records are tried on XISK and Nexohominis."""


async def _play_all(db: str) -> dict[str, str]:
    tables_made = itertools.count()
    store = await Store.open(db)
    try:
        tables = Tables(store, debug=True,
                        seeds=lambda: hashlib.sha256(f"table {next(tables_made)}".encode()).hexdigest())
        texts = {}
        for n, (game, how) in enumerate(PLAYED.items()):
            texts[game] = await exported(tables, await play_out(tables, game, seed=None, channel=f"{600 + n}", **how))
        texts["xisk-old"] = await exported(tables, await play_out(tables, "xisk", seed=5, channel="700",
                                                                  **PLAYED["xisk"]))
        BOT_KEY.append(await bot_key(store.db))
    finally:
        await store.close()
    return texts


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Each game's export file text: ``xisk``, ``nxs``, ``nexo`` on keyed draws, ``xisk-old`` on the old scheme."""
    texts = asyncio.run(_play_all(str(tmp_path_factory.mktemp("games") / "tablehost.db")))
    for name, text in texts.items():  # what the tests doctor is there
        entries = json.loads(text)["moves"]
        assert any(m["move"] == "undo" for m in entries), name
        assert name == "nxs" or any(m["origin"] == "clock" for m in entries), name
    return texts


def record(exports: dict[str, str], name: str) -> dict[str, Any]:
    """A fresh copy of a game's export, to doctor."""
    data: dict[str, Any] = json.loads(exports[name])
    return data


def run(path: Path, *, every: bool = False) -> tuple[int, str]:
    out = io.StringIO()
    code = verify_main(str(path), out, every=every)
    return code, out.getvalue()


BOT_KEY: list[Ed25519PrivateKey] = []
"""The key the bot signed the module's exports with (set by ``exports``)."""


def write(tmp_path: Path, data: dict | str, name: str = "game.json", *, resign: bool = True) -> Path:
    """Writes a record; a doctored one is signed again with the bot's own key (``resign``), as a bot forging
    its own record would: what the replay catches, it catches whoever signed."""
    path = tmp_path / name
    if isinstance(data, dict) and resign and "signature" in data:
        data = sign(data, BOT_KEY[0])
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def check(tmp_path: Path, data: dict[str, Any]) -> tuple[int, str]:
    """Verifies a doctored record; returns the exit status and the report."""
    return run(write(tmp_path, data, "doctored.json"))


def refused(tmp_path: Path, data: dict[str, Any]) -> tuple[str, str]:
    """Verifies a doctored record that must fail (exit 1); returns its first line (the first reason) and the report."""
    code, text = check(tmp_path, data)
    assert code == 1, text
    lines = text.splitlines()
    assert lines[0].startswith("MISMATCH: ") and re.fullmatch(r"\d+ problems? found\.", lines[1]), text
    assert lines[-1].endswith(": this record is not what the seed gives."), text
    return lines[0], text


def reasons(data: dict[str, Any]) -> list[str]:
    """Every reason a doctored record fails for (the report prints the first on its first line), signed again."""
    return verify(load_export(json.dumps(sign(data, BOT_KEY[0]) if "signature" in data else data))).reasons


def head(m: dict[str, Any]) -> str:
    """How the report names a log entry."""
    return f"move {m['seq']} ({m['player']}: {shown(m['move'], 80)})"


def moves(data: dict[str, Any]) -> int:
    """Returns how many moves (not undos) a record's log holds."""
    return sum(1 for m in data["moves"] if m["move"] != "undo")


def renumbered(entries: list[dict]) -> list[dict]:
    return [{**e, "seq": n} for n, e in enumerate(entries, 1)]


def state_before(data: dict[str, Any], n: int) -> str:
    """Returns the digest of the state before entry ``n`` (the digest an honest undo of entry n records)."""
    if n == 0:
        return digest(load_export(json.dumps(data)).new_game().dump_state())
    return str(data["moves"][n - 1]["digest"])


def the_undo(data: dict[str, Any]) -> int:
    """Returns the index of the log's undo (it takes back the entry just before it)."""
    return next(n for n, m in enumerate(data["moves"]) if m["move"] == "undo")


# -- honest exports ---------------------------------------------------------------------


@pytest.mark.parametrize("game", ["xisk", "nxs", "nexo"])
def test_an_honest_export_on_keyed_draws_passes(exports: dict[str, str], game: str, tmp_path: Path) -> None:
    data = record(exports, game)
    assert data["version"] == 2 and data["dice"]["scheme"] == "hmac-sha256" and data["dice"]["draws"] is not None
    path = write(tmp_path, exports[game])
    code, text = run(path)
    assert code == 0, text
    lines = text.splitlines()
    assert lines[-1] == f"All {moves(data)} moves match the seed: the dice were fair."
    assert lines[1].endswith("the one posted when the table opened: match. Entropy: the players' joins: match.")
    assert "Final state: the replay ends in the file's final state: match." in lines
    assert f"Winners: {' and '.join(data['winners'])}: match." in lines
    assert "MISMATCH" not in text
    code, every = run(path, every=True)
    assert code == 0 and len([line for line in every.splitlines() if line.startswith("move ")]) == len(data["moves"])
    if game == "xisk":
        assert any(": dice " in line and " vs " in line and line.endswith(": match") for line in every.splitlines())


@pytest.mark.parametrize("game", ["xisk", "nxs", "nexo"])
def test_an_honest_export_passes_the_stand_alone_draw_check_too(exports: dict[str, str], game: str,
                                                                 tmp_path: Path) -> None:
    data = record(exports, game)
    path = write(tmp_path, exports[game])
    script = Path(__file__).resolve().parents[2] / "tools" / "check_draws.py"
    done = subprocess.run([sys.executable, str(script), str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    count = len(data["dice"]["draws"])
    assert (count == 0) == (game == "nxs")  # NXS has no chance at all; XISK and Nexohominis draw
    assert f"all {count} match" in done.stdout


def test_an_old_scheme_game_exports_marked_with_its_scheme_and_passes(exports: dict[str, str], tmp_path: Path) -> None:
    data = record(exports, "xisk-old")
    assert data["version"] == 2 and data["dice"]["scheme"] == "splitmix64" and data["dice"]["seed"] == 5
    assert data["dice"]["draws"] is None and "joined" not in data["players"][0]
    code, text = run(write(tmp_path, data))
    assert code == 0, text
    commitment = text.splitlines()[1]
    assert commitment.startswith("Commitment (the old scheme, splitmix64: the game started before keyed draws): ")
    assert commitment.endswith("the one posted at the start: match.")
    assert text.splitlines()[-1] == f"All {moves(data)} moves match the seed: the dice were fair."


def version_1(data: dict[str, Any]) -> dict[str, Any]:
    """Returns an old-scheme record as a version-1 file: seed, salt and commitment at the top, no dice."""
    dice_record = data.pop("dice")
    data.update(version=1, seed=dice_record["seed"], salt=dice_record["salt"], commitment=dice_record["commitment"])
    return data


def test_a_version_1_file_still_loads_and_verifies(exports: dict[str, str], tmp_path: Path) -> None:
    data = version_1(record(exports, "xisk-old"))
    code, text = run(write(tmp_path, data))
    assert code == 0 and "the one posted at the start: match." in text.splitlines()[1], text
    for m in data["moves"][:10]:  # moves from before the bot kept records: replayed, nothing to compare
        m["events"] = m["digest"] = None
    report = verify(load_export(json.dumps(data)))
    assert report.ok and [m.status for m in report.moves[:11]] == [NOT_RECORDED] * 10 + [OK]
    assert "10 move(s) (moves 1–10) were played before the bot kept records" in report.text()
    total = moves(data)
    assert report.summary() == (f"All {total - 10} recorded moves of {total} match the seed (10 not recorded):"
                                " the dice were fair.")
    data["salt"] = data["commitment"] = None  # a game from before fair dice: nothing sealed to check
    report = verify(load_export(json.dumps(data)))
    assert report.ok and report.commitment_ok is None and "none recorded" in report.commitment
    data["salt"] = "ab" * 16  # half a seal is no seal
    first, _ = refused(tmp_path, data)
    assert first == "MISMATCH: commitment: the file has a salt but no commitment (a game sealed at the start has both)"


# -- the doctored records already caught -------------------------------------------------


def _alter_a_die(events: list[dict[str, Any]]) -> None:
    """Changes the first die the events show: a 6 becomes a 1, a 2 a 5, never itself."""
    for e in events:
        for key, value in e.items():
            if not ((key.endswith("dice") or key == "rolls") and dice([{key: value}])):
                continue
            if isinstance(value, int):
                e[key] = 7 - value
                return
            while isinstance(value[-1], list):
                value = value[-1]
            value[0] = 7 - value[0]
            return


@BOTH
def test_verify_refuses_a_record_whose_dice_were_changed(exports: dict[str, str], game: str, tmp_path: Path) -> None:
    data = record(exports, game)
    move = next(m for m in data["moves"] if m["events"] and dice(m["events"]))
    honest = dice(move["events"])
    _alter_a_die(move["events"])
    forged = dice(move["events"])
    first, text = refused(tmp_path, data)
    assert first == f"MISMATCH: {head(move)}: events: recorded dice {forged}, recomputed {honest}"
    assert text.splitlines()[1] == "1 problem found."
    assert f"{head(move)}: events: recorded dice {forged}, recomputed {honest}: MISMATCH" in text.splitlines()
    assert text.splitlines()[-1] == f"1 of {moves(data)} moves do not match: this record is not what the seed gives."


def test_an_altered_nexohominis_initiative_roll_is_quoted(exports: dict[str, str], tmp_path: Path) -> None:
    data = record(exports, "nexo")
    move = next(m for m in data["moves"] if any(e["kind"] == "initiative" for e in m["events"] or []))
    event = next(e for e in move["events"] if e["kind"] == "initiative")
    honest = ", then ".join("-".join(map(str, pair)) for pair in event["rolls"])
    event["rolls"][-1][0] = 7 - event["rolls"][-1][0]
    forged = ", then ".join("-".join(map(str, pair)) for pair in event["rolls"])
    first, _ = refused(tmp_path, data)
    assert first == f"MISMATCH: {head(move)}: events: recorded dice {forged}, recomputed {honest}"


@BOTH
def test_verify_refuses_a_record_whose_listed_draws_were_changed(
    exports: dict[str, str], game: str, tmp_path: Path
) -> None:
    data = record(exports, game)
    draws = data["dice"]["draws"]
    n, size, value = draws[-1]  # the last draw: a move's
    draws[-1] = [n, size, (value + 1) % size]
    first, _ = refused(tmp_path, data)
    assert re.fullmatch(rf"MISMATCH: move \d+ \(.+\): dice\.draws\[{len(draws) - 1}\]: draw {n}: the file says"
                        rf" range {size} value {(value + 1) % size}, the replay draws range {size} value {value}",
                        first), first
    data["dice"]["draws"] = draws[:-1]  # a draw left out: the list no longer ends at the final state's counter
    first, text = refused(tmp_path, data)
    assert first == (f"MISMATCH: dice.draws: the list ends at draw {n - 1}, but the final state's draw counter is {n}"
                     " (the file's draws and its final state disagree)")
    assert f"dice.draws: draw {n} is missing: the replay draws range {size} value {value}" in text
    data["dice"]["draws"] = [*draws[:-1], [n, size, value], [n + 1, 6, 2]]  # one too many
    _, text = refused(tmp_path, data)
    assert f"dice.draws[{len(draws)}]: draw {n + 1} (range 6 value 2) is extra: the replay draws nothing after" in text
    data["dice"]["draws"] = None
    _, text = refused(tmp_path, data)
    assert f"dice.draws: the file lists none, but the replay draws {len(draws)}" in text


def _another_move(data: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """Returns an entry (before the log's undo) and another legal move there that leaves another state."""
    game = load_export(json.dumps(data)).new_game()
    for m in data["moves"][: the_undo(data)]:
        for choice in game.legal_moves(m["player"]):
            other = game.clone()
            if choice != m["move"] and other.play(m["player"], choice) is not None \
                    and digest(other.dump_state()) != m["digest"]:
                return m, choice
        game.play(m["player"], m["move"])
    raise AssertionError("no move has another choice")


@BOTH
def test_verify_refuses_a_record_whose_move_was_changed(exports: dict[str, str], game: str, tmp_path: Path) -> None:
    data = record(exports, game)
    move, other = _another_move(data)
    move["move"] = other
    first, _ = refused(tmp_path, data)
    assert first.startswith(f"MISMATCH: {head(move)}: "), first
    assert re.search(r"\): (events|digest|move): ", first), first


def test_a_tampered_move_the_rules_refuse_stops_the_replay(exports: dict[str, str], tmp_path: Path) -> None:
    data = record(exports, "xisk")
    data["moves"][49]["move"] = "attack alaska the-moon"
    first, text = refused(tmp_path, data)
    assert first.startswith(f"MISMATCH: move 50 ({data['moves'][49]['player']}: attack alaska the-moon): move: the"
                            " rules refuse it here (")
    assert "the replay stopped at move 50" in text and "Final state" not in text
    assert " moves do not match; the end cannot be checked: this record is not what the seed gives." in text


@BOTH
def test_verify_refuses_a_record_whose_seed_was_changed(exports: dict[str, str], game: str, tmp_path: Path) -> None:
    data = record(exports, game)
    data["dice"]["server_seed"] = "0" * 64  # another seed under the posted commitment
    first, text = refused(tmp_path, data)
    assert first.startswith("MISMATCH: dice.commitment: SHA-256 of the server seed is ")
    assert first.endswith(f"but the file says {data['dice']['commitment']} was posted")
    assert text.splitlines()[3].startswith("Commitment: ") and text.splitlines()[3].endswith("MISMATCH.")
    assert "the seed is not the one sealed at the start" in text.splitlines()[-1].lower()
    data = record(exports, "xisk-old")
    data["dice"]["seed"] += 1  # the old scheme: its salt no longer opens the commitment
    first, _ = refused(tmp_path, data)
    assert first.startswith(f"MISMATCH: dice.commitment: SHA-256 of \"{data['dice']['seed']}:{data['dice']['salt']}\"")


def test_verify_refuses_a_record_whose_salt_was_changed(exports: dict[str, str], tmp_path: Path) -> None:
    data = record(exports, "xisk-old")
    data["dice"]["salt"] = "0" * 32
    first, text = refused(tmp_path, data)
    assert first.startswith(f"MISMATCH: dice.commitment: SHA-256 of \"5:{'0' * 32}\" is ")
    assert "the seed is not the one sealed at the start" in text.splitlines()[-1].lower()


@BOTH
def test_verify_refuses_a_record_whose_commitment_was_changed(
    exports: dict[str, str], game: str, tmp_path: Path
) -> None:
    data = record(exports, game)
    data["dice"]["commitment"] = "0" * 64
    first, _ = refused(tmp_path, data)
    assert first.startswith("MISMATCH: dice.commitment: ")
    assert first.endswith(f"but the file says {'0' * 64} was posted")


@BOTH
def test_verify_refuses_a_record_whose_entropy_was_changed(exports: dict[str, str], game: str, tmp_path: Path) -> None:
    data = record(exports, game)
    data["dice"]["entropy"] = "1183:lucky|-"
    first, _ = refused(tmp_path, data)
    assert first == "MISMATCH: dice.entropy: the players' joins give '-|-', but the file says the game's entropy was" \
                    " '1183:lucky|-'"
    data = record(exports, game)
    data["players"][0]["entropy"] = "my own words"  # a player's part changed: the joins no longer give the entropy
    first, _ = refused(tmp_path, data)
    assert first.startswith("MISMATCH: dice.entropy: the players' joins give '-:my own words|-', but the file says")


@BOTH
def test_verify_refuses_a_record_whose_digest_was_changed(exports: dict[str, str], game: str, tmp_path: Path) -> None:
    data = record(exports, game)
    move = data["moves"][5]
    move["digest"] = "0" * 64
    first, _ = refused(tmp_path, data)
    assert first.startswith(f"MISMATCH: {head(move)}: digest: the state after it is not the recorded one (digest ")
    undo = data["moves"][the_undo(record(exports, game))]
    data = record(exports, game)
    data["moves"][undo["seq"] - 1]["digest"] = "0" * 64  # an undo's digest is the state it goes back to
    first, _ = refused(tmp_path, data)
    assert first.startswith(f"MISMATCH: {head(undo)}: digest: the state after it is not the recorded one")


@BOTH
def test_verify_refuses_a_reordered_log(exports: dict[str, str], game: str, tmp_path: Path) -> None:
    data = record(exports, game)
    a, b = data["moves"][8], data["moves"][9]
    data["moves"][8:10] = [b, a]  # swapped with their numbers
    first, _ = refused(tmp_path, data)
    assert first.startswith(f"MISMATCH: {head(b)}: seq: numbered {b['seq']} where the log's entry 9 belongs"), first
    data["moves"] = renumbered(data["moves"])  # swapped and renumbered: the replay tells
    first, _ = refused(tmp_path, data)
    assert first.startswith(f"MISMATCH: move 9 ({b['player']}: {b['move']}): "), first


@BOTH
def test_verify_refuses_a_truncated_log(exports: dict[str, str], game: str, tmp_path: Path) -> None:
    data = record(exports, game)
    data["moves"] = data["moves"][:-5]
    refused(tmp_path, data)
    found = reasons(data)
    assert "status: the file says the game finished, but the replayed game is not over" in found
    assert any(r.startswith("final_state: the replay ends elsewhere than the file's final state") for r in found)
    data = record(exports, "xisk")
    del data["moves"][40]  # a move left out
    first, _ = refused(tmp_path, data)
    assert first.startswith(f"MISMATCH: move 42 ({data['moves'][40]['player']}: {data['moves'][40]['move']}): seq:"
                            " numbered 42 where the log's entry 41 belongs")


def test_bad_json_and_unreadable_files_exit_2(exports: dict[str, str], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, text = run(write(tmp_path, exports["xisk"][:-40]))
    assert code == 2 and "This is not a Tablehost game export: it is not JSON (line " in text
    assert bot.main(["--verify", str(write(tmp_path, "\x00junk"))]) == 2
    assert "error: " in capsys.readouterr().out
    assert bot.main(["--verify", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().out
    assert bot.main(["--verify"]) == 2


def test_bot_verify_reads_a_real_export(exports: dict[str, str], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, exports["xisk"])
    assert bot.main(["--verify", str(path)]) == 0
    assert capsys.readouterr().out.endswith("the dice were fair.\n")
    data = record(exports, "xisk")
    data["moves"][5]["digest"] = "0" * 64
    assert bot.main(["--verify", str(write(tmp_path, data, "forged.json"))]) == 1
    assert capsys.readouterr().out.startswith(f"MISMATCH: {head(data['moves'][5])}: digest: ")
    assert main(str(path), io.StringIO()) == 0


# -- the doctored records of the issue ----------------------------------------------------


@BOTH
def test_verify_refuses_a_version_2_record_whose_salt_and_commitment_were_removed(
    exports: dict[str, str], game: str, tmp_path: Path
) -> None:
    """Only a version-1 file may lack the commitment (a game from before fair dice): in version 2 it is no export."""
    data = record(exports, game)
    data["dice"]["commitment"] = None
    code, text = check(tmp_path, data)
    assert code == 2 and text.endswith("the export file: dice.commitment: expected 64 hex digits (a SHA-256), got"
                                       " null\n"), text
    data = record(exports, "xisk-old")
    data["dice"]["salt"] = data["dice"]["commitment"] = None
    code, text = check(tmp_path, data)
    assert code == 2 and re.search(r"the export file: dice\.(salt|commitment): expected .*, got null", text), text
    data = record(exports, game)  # passed off as a version-1 file from before fair dice: it has no integer seed
    data.update(version=1, salt=None, commitment=None)
    code, text = check(tmp_path, data)
    assert code == 2 and "the export file: seed: missing" in text, text


@BOTH
def test_verify_refuses_a_record_whose_events_were_removed(exports: dict[str, str], game: str, tmp_path: Path) -> None:
    data = record(exports, game)
    move = data["moves"][4]
    move["events"] = None
    first, _ = refused(tmp_path, data)
    assert first == f"MISMATCH: {head(move)}: events: the file has none (every move of a version-2 export carries" \
                    " its events)"
    for m in data["moves"]:  # every record of every move removed
        m["events"] = m["digest"] = None
    first, text = refused(tmp_path, data)
    assert first == (f"MISMATCH: {head(data['moves'][0])}: events: the file has none (every move of a version-2 export"
                     " carries its events); digest: the file has none (every move of a version-2 export carries the"
                     " digest of the state after it)")
    assert text.splitlines()[1] == f"{len(data['moves'])} problems found."


@BOTH
def test_verify_refuses_a_record_whose_final_state_and_winners_were_deleted(
    exports: dict[str, str], game: str, tmp_path: Path
) -> None:
    data = record(exports, game)
    winners = " and ".join(data["winners"])
    del data["final_state"], data["winners"]
    first, text = refused(tmp_path, data)
    assert first == "MISMATCH: final_state: the file has none, so the end cannot be checked"
    assert text.splitlines()[1] == "2 problems found."
    assert f"Winners: not in the file, the replay gives {winners}: MISMATCH." in text
    data = record(exports, game)
    data["winners"] = None
    first, _ = refused(tmp_path, data)
    assert first == f"MISMATCH: winners: the file has none for a finished game, the replay gives {winners}"


def test_the_final_state_and_winners_are_checked(exports: dict[str, str], tmp_path: Path) -> None:
    data = record(exports, "xisk")
    data["final_state"]["turn_number"] += 1
    data["winners"] = [p["name"] for p in data["players"] if p["name"] not in data["winners"]]
    report = verify(load_export(json.dumps(data)))
    assert not report.ok and not report.failures
    assert any("final state: MISMATCH" in line for line in report.end)
    assert any(line.startswith("Winners: the file says") for line in report.end)


@BOTH
def test_verify_refuses_a_finished_game_marked_aborted(exports: dict[str, str], game: str, tmp_path: Path) -> None:
    data = record(exports, game)
    winners = " and ".join(data["winners"])
    data.update(status="aborted", winners=None)
    first, text = refused(tmp_path, data)
    assert first == f"MISMATCH: status: the file says the game was aborted, but the replay ends it by its rules" \
                    f" ({winners} won)"
    assert (f"Status: the file says the game was aborted, but the replay ends it by its rules ({winners} won):"
            " MISMATCH.") in text


@BOTH
def test_verify_refuses_a_log_cut_short_and_marked_aborted(exports: dict[str, str], game: str, tmp_path: Path) -> None:
    """The last 5 moves cut and the game marked aborted: the final state (and with it the draws) no longer fit.

    What is caught: the file's final state is not where the cut log ends, and the keyed draws the cut
    moves made are still listed. A forger who also recomputes the final state and cuts the draws
    makes a file that reads as a genuine abort at that move: nothing in the file tells them apart.
    """
    data = record(exports, game)
    data.update(status="aborted", winners=None, moves=data["moves"][:-5])
    refused(tmp_path, data)
    assert any(r.startswith("final_state: the replay ends elsewhere than the file's final state (a log cut short")
               for r in reasons(data))
    data["final_state"]["rng"]["counter"] = data["dice"]["draws"][-1][0] + 1  # a hand-made end off its draws
    refused(tmp_path, data)
    assert any(r.startswith("dice.draws: the list ends at draw") and "the final state's draw counter is" in r
               for r in reasons(data))
    data["winners"] = [data["players"][0]["name"]]
    refused(tmp_path, data)
    assert f"winners: an aborted game has none, the file says {data['players'][0]['name']}" in reasons(data)


def _mid_turn(data: dict[str, Any]) -> dict[str, Any]:
    """Returns a player's move that the same player's next move follows (their turn goes on after it)."""
    entries = data["moves"]
    return next(m for n, (m, after) in enumerate(itertools.pairwise(entries))
                if "undo" not in (m["move"], after["move"]) and m["player"] == after["player"]
                and m["origin"] is None and (n == 0 or entries[n - 1]["origin"] is None))


@BOTH
def test_verify_refuses_a_move_whose_origin_was_changed(exports: dict[str, str], game: str, tmp_path: Path) -> None:
    data = record(exports, game)
    move = _mid_turn(data)
    move["origin"] = "clock"  # the clock plays a whole turn (skip, forfeit, or a bot's), never half of one
    first, _ = refused(tmp_path, data)
    assert first.startswith(f"MISMATCH: {head(move)}: origin: the turn clock plays "), first
    move["origin"] = "bot"  # no origin the host writes
    code, text = check(tmp_path, data)
    assert code == 2 and f"the export file: moves[{move['seq'] - 1}].origin: expected null or 'clock'" in text


@BOTH
def test_verify_refuses_an_undo_of_the_clock_s_move(exports: dict[str, str], game: str, tmp_path: Path) -> None:
    data = record(exports, game)
    n = next(n for n, m in enumerate(data["moves"]) if m["origin"] == "clock")
    while data["moves"][n + 1]["origin"] == "clock":  # the last move of the clock's turn: an undo takes it back
        n += 1
    clocked = data["moves"][n]
    undo = {**clocked, "move": "undo", "events": [], "origin": None, "digest": state_before(data, n)}
    data["moves"] = renumbered([*data["moves"][: n + 1], undo, clocked, *data["moves"][n + 1:]])
    first, _ = refused(tmp_path, data)
    assert first == (f"MISMATCH: move {n + 2} ({clocked['player']}: undo): move: the host refuses to take back move"
                     f" {n + 1} ({shown(clocked['move'], 40)}): the turn clock played it")


def _an_hour(stamp: str, hours: int) -> str:
    return (parse_time(stamp) + timedelta(hours=hours)).isoformat()


@BOTH
def test_verify_refuses_a_move_whose_time_was_changed(exports: dict[str, str], game: str, tmp_path: Path) -> None:
    data = record(exports, game)
    move, before = data["moves"][6], data["moves"][5]
    move["at"] = _an_hour(before["at"], -1)  # back in time
    first, _ = refused(tmp_path, data)
    assert first == (f"MISMATCH: {head(move)}: at: {move['at']} is before move {before['seq']}'s time {before['at']}"
                     f" (times never go back); at: {move['at']} is before the game was created ({data['created']})")
    data = record(exports, game)
    last = data["moves"][-1]
    last["at"] = _an_hour(data["ended"], 1)
    first, _ = refused(tmp_path, data)
    assert first == f"MISMATCH: {head(last)}: at: {last['at']} is after the game ended ({data['ended']})"
    data = record(exports, game)
    data["ended"] = _an_hour(data["created"], -1)
    first, _ = refused(tmp_path, data)
    assert first == f"MISMATCH: ended: {data['ended']} is before the game was created ({data['created']})"


def _snowflake(year: int) -> str:
    """Returns a Discord id made at the start of ``year``."""
    ms = int(datetime(year, 1, 1, tzinfo=UTC).timestamp() * 1000)
    return str((ms - DISCORD_EPOCH_MS) << 22)


def test_verify_refuses_a_seat_whose_player_id_was_changed(exports: dict[str, str], tmp_path: Path) -> None:
    """A seat's id is bound by what the file says of it: once per game, a bot's only for a bot's join, and made by
    Discord before the interaction that seated it. Swapped for another account older than that join, it is not
    caught: nothing else in the file names the account (moves name the player)."""
    data = record(exports, "nxs")  # no draws: a join changed with the entropy to match changes nothing else
    joined = _snowflake(2024)
    data["players"][1].update(id=_snowflake(2020), joined=joined)
    data["dice"]["entropy"] = f"-|{joined}"
    code, text = check(tmp_path, data)
    assert code == 0, text  # an account made in 2020 that joined in 2024
    data["players"][1]["id"] = _snowflake(2025)
    first, _ = refused(tmp_path, data)
    assert first == (f"MISMATCH: players[1].id: Discord made the account {_snowflake(2025)} at 2025-01-01 00:00 UTC,"
                     f" after the join {joined} that seated it (2024-01-01 00:00 UTC): it is not the account that"
                     " joined")
    data["players"][1]["id"] = "bot:normal:1"
    first, _ = refused(tmp_path, data)
    assert first == f"MISMATCH: players[1].joined: a bot's seat is joined as 'bot', not '{joined}'"
    data["players"][1].update(id="1002", joined="bot")
    data["dice"]["entropy"] = "-|bot"
    first, _ = refused(tmp_path, data)
    assert first == "MISMATCH: players[1].id: '1002' is no bot's id, but a bot took the seat (joined 'bot')"
    for game in ("xisk", "nexo"):
        data = record(exports, game)
        data["players"][1]["id"] = data["players"][0]["id"]
        first, _ = refused(tmp_path, data)
        assert first == f"MISMATCH: players[1].id: '{data['players'][0]['id']}' is seated twice (players[0] too)"
        data = record(exports, game)
        data["players"][1]["seat"] = 0
        first, _ = refused(tmp_path, data)
        assert first == ("MISMATCH: players[1].seat: seat 0 comes after seat 0 (the seats are listed in seat order,"
                         " each once)")


@BOTH
def test_verify_refuses_an_attack_with_dice_taken_back_and_rolled_again(
    exports: dict[str, str], game: str, tmp_path: Path
) -> None:
    """The live host refuses to undo a move that used dice; a record holding such an undo was written by hand.

    Rolled, taken back, rolled again: the second roll draws the same numbers from the same state, so every
    recorded die, digest and listed draw still matches, and only the undo rule shows what was done.
    """
    data = record(exports, game)
    honest = moves(data)
    n, attack = next((n, m) for n, m in enumerate(data["moves"]) if m["events"] and dice(m["events"]))
    undo = {**attack, "move": "undo", "events": [], "origin": None, "digest": state_before(data, n)}
    data["moves"] = renumbered([*data["moves"][: n + 1], undo, attack, *data["moves"][n + 1:]])
    first, text = refused(tmp_path, data)
    reason = (f"move {n + 2} ({attack['player']}: undo): move: the host refuses to take back move {n + 1}"
              f" ({shown(attack['move'], 40)}): it used chance (a die was rolled or a card was dealt or drawn)")
    assert first == f"MISMATCH: {reason}" and f"{reason}: {MISMATCH}" in text.splitlines()
    summary = f"1 of {honest + 2} moves do not match: this record is not what the seed gives."  # the copy, the undo
    assert text.splitlines()[-1] == summary, text.splitlines()[-1]


@BOTH
def test_a_removed_move_and_undo_pair_is_caught(exports: dict[str, str], game: str, tmp_path: Path) -> None:
    """A genuine (move, undo) pair: the move used no chance, and the undo put the state back as it was.

    The replay catches the pair removed but the log not renumbered, the undo alone removed (the move then
    stands), the move alone removed (the undo then takes back the move before it). The pair removed and the
    log renumbered left no trace in any state, digest or draw: the bot's signature catches it, and a file
    signed again by another key is refused with ``--key``. The bot itself could still leave such a pair
    out of its own record (signed by its own key): that changes no die, deal or position.
    """
    u = the_undo(record(exports, game))
    data = record(exports, game)
    after = data["moves"][u + 1]
    del data["moves"][u - 1: u + 1]
    first, _ = refused(tmp_path, data)
    assert first.startswith(f"MISMATCH: {head(after)}: seq: numbered {u + 2} where the log's entry {u} belongs")
    data = record(exports, game)
    del data["moves"][u]
    data["moves"] = renumbered(data["moves"])
    first, _ = refused(tmp_path, data)
    assert first.startswith(f"MISMATCH: move {u + 1} ("), first
    data = record(exports, game)
    del data["moves"][u - 1]
    data["moves"] = renumbered(data["moves"])
    first, _ = refused(tmp_path, data)
    assert first.startswith(f"MISMATCH: move {u} ({data['moves'][u - 1]['player']}: undo): "), first
    data = record(exports, game)
    del data["moves"][u - 1: u + 1]
    data["moves"] = renumbered(data["moves"])
    code, text = run(write(tmp_path, data, "unsigned.json", resign=False))
    assert code == 1 and text.splitlines()[0] == ("MISMATCH: signature: the file was changed after the bot signed it"
                                                  " (or the signature was)"), text
    mark = fingerprint(sign(data, BOT_KEY[0])["signature"]["key"])
    other = write(tmp_path, sign(data, new_key()), "other-key.json", resign=False)
    assert run(other)[0] == 0  # signed by some key, which is all the file alone can tell
    out = io.StringIO()
    assert verify_main(str(other), out, key=mark) == 1
    assert out.getvalue().splitlines()[0].startswith("MISMATCH: signature: signed by key "), out.getvalue()
    assert out.getvalue().splitlines()[0].endswith(f", not by the bot's key {mark}")
    code, text = check(tmp_path, data)
    assert code == 0, text  # the bot's own key: the limit of what a record can prove (see the docstring)


# -- the undo rule and the report's pieces ---------------------------------------------


def test_an_undo_takes_back_the_latest_standing_move(exports: dict[str, str]) -> None:
    report = verify(load_export(exports["nxs"]))
    undos = [m for m in report.moves if m.status == TAKEN_BACK]
    assert report.ok and len(undos) == 1 and undos[0].detail.startswith("takes back move ")
    assert len(report.played) == len(report.moves) - 1


def test_verify_refuses_an_undo_of_another_player_s_move_or_of_nothing(
    exports: dict[str, str], tmp_path: Path
) -> None:
    data = record(exports, "nxs")
    first = data["moves"][0]
    other = next(m["player"] for m in data["moves"] if m["player"] != first["player"])
    forged = {**first, "player": other, "move": "undo", "events": [], "origin": None}
    doctored = {**data, "moves": renumbered([first, forged, first, *data["moves"][1:]])}
    line, _ = refused(tmp_path, doctored)
    assert line == (f"MISMATCH: move 2 ({other}: undo): move: the host refuses to take back move 1 ({first['move']}):"
                    f" it is {first['player']}'s move, not {other}'s")
    nothing = {**data, "moves": renumbered([{**forged, "player": first["player"]}, *data["moves"]])}
    line, _ = refused(tmp_path, nothing)
    assert line == (f"MISMATCH: move 1 ({first['player']}: undo): move: the host refuses it: there is no move to take"
                    " back")


def test_dice_fields_of_every_game_are_quoted() -> None:
    assert dice([{"kind": "order_roll", "dice": [6, 5, 2]}]) == "6-5-2"
    assert dice([{"kind": "shoot", "attack_dice": [5, 1], "save_dice": []}]) == "5-1"
    assert dice([{"kind": "text"}]) == ""
    assert "xisk" in GAMES



def test_an_honest_export_is_signed_by_the_bot_s_key(exports: dict[str, str], tmp_path: Path) -> None:
    path = write(tmp_path, exports["xisk"])
    mark = fingerprint(record(exports, "xisk")["signature"]["key"])
    out = io.StringIO()
    assert verify_main(str(path), out, key=mark.upper()) == 0, out.getvalue()
    assert f"Signature: the file is as the bot signed it, with key {mark} (the key you gave): match." in out.getvalue()
    code, text = run(path)
    assert code == 0 and "(compare it with the key /game help shows): match." in text
