"""tools/check_draws.py: a player's own check of an export's keyed draws, run as a separate script.

Each test builds a valid version-2 export from real keyed draws (a 52-card shuffle and some dice),
changes one thing, runs the script on it and reads its exit status and the line that names the fault.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from engines.core.rng import KeyedDraws, recording

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "check_draws.py"
SEED = hashlib.sha256(b"tablehost check_draws test").hexdigest()
PLAYERS = [
    {"seat": 0, "name": "ann", "id": "1001", "joined": "1183000000000000001", "entropy": "my lucky words"},
    {"seat": 1, "name": "bob", "id": "1002", "joined": "1183000000000000002", "entropy": ""},
    {"seat": 2, "name": "XISK bot (easy)", "id": "bot:easy:1", "joined": "bot", "entropy": None},
]
ENTROPY = "1183000000000000001:my lucky words|1183000000000000002|bot"
"""The players' parts in seat order: join id, then ":" and the player's own words when there are any."""


def valid_export() -> dict[str, Any]:
    rng = KeyedDraws(key=SEED, entropy=ENTROPY, counter=0)
    with recording() as draws:
        deck = list(range(52))
        rng.shuffle(deck)
        dice = [rng.randint(1, 6) for _ in range(12)]
        rng.random()
    return {
        "format": "tablehost-game", "version": 2, "game": "xisk", "title": "XISK", "id": 12, "status": "finished",
        "created": "2024-05-01T18:00:00+00:00", "ended": "2024-05-09T21:14:03+00:00", "options": {},
        "players": copy.deepcopy(PLAYERS),
        "dice": {"scheme": "hmac-sha256", "server_seed": SEED, "commitment": hashlib.sha256(SEED.encode()).hexdigest(),
                 "commitment_message": "1183000000000000000", "entropy": ENTROPY,
                 "draws": [list(d) for d in draws]},
        "moves": [], "winners": ["ann"],
        "final_state": {"deck": deck, "dice": dice, "rng": rng.saved()},
    }


def run(tmp_path: Path, data: Any, *args: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "xisk-12.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return subprocess.run([sys.executable, str(SCRIPT), str(path), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


def mismatch(tmp_path: Path, data: dict[str, Any], prefix: str) -> str:
    """Runs the script on a changed export; returns the one line of ``prefix`` that reports the mismatch."""
    done = run(tmp_path, data)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith(prefix)]
    assert len(lines) == 1 and lines[0].endswith("MISMATCH"), done.stdout
    assert done.stdout.splitlines()[-1].startswith("result: ") and "checks fail" in done.stdout.splitlines()[-1]
    return lines[0]


def test_the_draws_export_itself_holds_a_shuffle_dice_and_a_fraction() -> None:
    draws = valid_export()["dice"]["draws"]
    assert [r for _, r, _ in draws] == [*range(52, 1, -1), *[6] * 12, 2**53]
    assert [n for n, _, _ in draws] == list(range(1, 65))  # no rejection: ~1e-60 likely at most


def test_a_valid_export_passes_every_check(tmp_path: Path) -> None:
    done = run(tmp_path, valid_export())
    assert done.returncode == 0, done.stdout + done.stderr
    commitment = hashlib.sha256(SEED.encode()).hexdigest()
    assert done.stdout.splitlines() == [
        f"commitment: SHA-256 of the server seed is {commitment}: match (posted in message 1183000000000000000)",
        f"entropy: the players' parts in seat order give {ENTROPY!r}: match",
        "draws: all 64 match",
        "final state: its dice key, entropy and counter (64) match",
        "result: all 4 checks hold",
    ]
    assert done.stderr == ""


def test_explain_prints_an_openssl_command_that_redoes_the_first_draw(tmp_path: Path) -> None:
    data = valid_export()
    done = run(tmp_path, data, "--explain")
    assert done.returncode == 0
    hint = next(line for line in done.stdout.splitlines() if line.startswith("by hand, draw number 1: "))
    command = hint.removeprefix("by hand, draw number 1: ")
    assert command == f"printf '%s' '{ENTROPY}:1' | openssl dgst -sha256 -hmac {SEED}"
    if shutil.which("openssl") is None or shutil.which("sh") is None:
        pytest.skip("no openssl here to run the hint")
    out = subprocess.run(["sh", "-c", command], capture_output=True, text=True, check=True, timeout=30).stdout
    _, r, value = data["dice"]["draws"][0]
    assert int(out.split()[-1], 16) % r == value


def test_no_draws_and_no_dice_state_still_check_the_rest(tmp_path: Path) -> None:
    data = valid_export()
    data["dice"]["draws"], data["final_state"] = [], None
    done = run(tmp_path, data)
    assert done.returncode == 0, done.stdout
    assert "draws: all 0 match" in done.stdout and "final state: it holds no dice state (not checked)" in done.stdout
    assert done.stdout.splitlines()[-1] == "result: all 3 checks hold"


def test_a_changed_value_names_its_draw_number_and_the_value(tmp_path: Path) -> None:
    data = valid_export()
    n, r, v = data["dice"]["draws"][55]
    data["dice"]["draws"][55][2] = (v + 1) % r
    line = mismatch(tmp_path, data, "draws: ")
    assert line == f"draws: draw number {n} (range {r}, value {(v + 1) % r}): value: HMAC-SHA256 gives {v}: MISMATCH"


def test_a_changed_range_names_its_draw_number(tmp_path: Path) -> None:
    data = valid_export()
    data["dice"]["draws"][2][1] = 51  # the third shuffle step is of range 50
    line = mismatch(tmp_path, data, "draws: ")
    assert line.startswith("draws: draw number 3 (range 51, ") and ": value: HMAC-SHA256 gives " in line


def test_a_value_outside_its_range_names_the_value(tmp_path: Path) -> None:
    data = valid_export()
    data["dice"]["draws"][60][2] = 6
    assert mismatch(tmp_path, data, "draws: ") == (
        "draws: draw number 61 (range 6, value 6): value: it must be from 0 to range - 1: MISMATCH")


def test_a_range_below_one_names_the_range(tmp_path: Path) -> None:
    data = valid_export()
    data["dice"]["draws"][0][1:] = [0, 0]
    assert "draw number 1 (range 0, value 0): range: it must be at least 1" in mismatch(tmp_path, data, "draws: ")


def test_a_gap_that_is_no_rejection_names_the_skipped_number(tmp_path: Path) -> None:
    data = valid_export()
    for d in data["dice"]["draws"][5:]:
        d[0] += 1  # as if number 6 had been rejected and the rest drawn one later
    data["final_state"]["rng"]["counter"] += 1
    line = mismatch(tmp_path, data, "draws: ")
    assert line.startswith("draws: draw number 7 (range 47, ")
    assert line.endswith(": number: 6 was skipped, but it is no rejection for range 47: MISMATCH")


def test_reordered_draws_are_caught_at_the_first_out_of_place_number(tmp_path: Path) -> None:
    data = valid_export()
    draws = data["dice"]["draws"]
    draws[3], draws[4] = draws[4], draws[3]
    assert ": number: 4 was skipped, but it is no rejection" in mismatch(tmp_path, data, "draws: draw number 5 ")
    data = valid_export()
    draws = data["dice"]["draws"]
    draws[:] = [*draws[:10], draws[11], draws[10], *draws[12:]]
    line = mismatch(tmp_path, data, "draws: ")
    assert line.startswith("draws: draw number 12 ") and ": number: 11 was skipped, but it is no rejection" in line


def test_a_number_drawn_twice_must_come_after_the_one_before(tmp_path: Path) -> None:
    data = valid_export()
    draws = data["dice"]["draws"]
    draws.insert(9, list(draws[8]))
    assert mismatch(tmp_path, data, "draws: ").endswith(": number: it must come after number 9, the one drawn "
                                                        "before: MISMATCH")


def test_a_changed_server_seed_fails_the_commitment_and_the_first_draw(tmp_path: Path) -> None:
    data = valid_export()
    other = hashlib.sha256(b"another seed").hexdigest()
    data["dice"]["server_seed"] = data["final_state"]["rng"]["key"] = other
    posted = hashlib.sha256(SEED.encode()).hexdigest()
    assert mismatch(tmp_path, data, "commitment: ") == (
        f"commitment: SHA-256 of the server seed is {hashlib.sha256(other.encode()).hexdigest()}, "
        f"the posted one {posted}: MISMATCH")
    assert mismatch(tmp_path, data, "draws: ").startswith("draws: draw number 1 (range 52, ")
    assert run(tmp_path, data).stdout.splitlines()[-1] == "result: 2 of 4 checks fail"
    data["dice"]["commitment"] = hashlib.sha256(other.encode()).hexdigest()  # a seed swapped commitment and all
    line = mismatch(tmp_path, data, "draws: ")
    assert line.startswith("draws: draw number 1 (range 52, ") and ": value: " in line
    assert run(tmp_path, data).stdout.splitlines()[-1] == "result: 1 of 4 checks fail"


def test_a_changed_commitment_fails_that_check_only(tmp_path: Path) -> None:
    data = valid_export()
    data["dice"]["commitment"] = hashlib.sha256(b"something else").hexdigest()
    line = mismatch(tmp_path, data, "commitment: ")
    assert line == (f"commitment: SHA-256 of the server seed is {hashlib.sha256(SEED.encode()).hexdigest()}, "
                    f"the posted one {data['dice']['commitment']}: MISMATCH")
    out = run(tmp_path, data).stdout
    assert "draws: all 64 match" in out and out.splitlines()[-1] == "result: 1 of 4 checks fail"


def test_a_changed_players_words_name_the_seat(tmp_path: Path) -> None:
    data = valid_export()
    data["players"][0]["entropy"] = "my lucky word"
    line = mismatch(tmp_path, data, "entropy: ")
    assert line.startswith("entropy: seat 0 (ann) gives '1183000000000000001:my lucky word', which is not there")


def test_a_changed_join_id_names_the_seat(tmp_path: Path) -> None:
    data = valid_export()
    data["players"][1]["joined"] = "1183000000000000003"
    assert mismatch(tmp_path, data, "entropy: ").startswith("entropy: seat 1 (bob) gives '1183000000000000003',")


def test_words_given_to_a_bot_seat_name_it(tmp_path: Path) -> None:
    data = valid_export()
    data["players"][2]["entropy"] = "x"
    assert mismatch(tmp_path, data, "entropy: ").startswith("entropy: seat 2 (XISK bot (easy)) gives 'bot:x',")


def test_a_changed_dice_entropy_fails_the_entropy_and_the_draws(tmp_path: Path) -> None:
    data = valid_export()
    data["dice"]["entropy"] = data["final_state"]["rng"]["entropy"] = ENTROPY + "|extra"
    assert mismatch(tmp_path, data, "entropy: ").startswith("entropy: the file's entropy ")
    assert mismatch(tmp_path, data, "draws: ").startswith("draws: draw number 1 ")


def test_a_final_counter_off_by_one_names_rng_counter(tmp_path: Path) -> None:
    for change in (1, -1):
        data = valid_export()
        data["final_state"]["rng"]["counter"] += change
        line = mismatch(tmp_path, data, "final state: ")
        assert line == (f"final state: rng.counter is {64 + change}, not the last draw's number (none is used "
                        "after it), 64: MISMATCH")


def test_a_final_key_or_entropy_that_differs_names_the_field(tmp_path: Path) -> None:
    data = valid_export()
    data["final_state"]["rng"]["key"] = "0" * 64
    assert mismatch(tmp_path, data, "final state: ").startswith("final state: rng.key is '000")
    data = valid_export()
    data["final_state"]["rng"]["entropy"] = "bot"
    assert mismatch(tmp_path, data, "final state: ").startswith("final state: rng.entropy is 'bot', not the dice")


def unreadable(tmp_path: Path, data: Any) -> str:
    done = run(tmp_path, data)
    assert done.returncode == 2 and done.stdout == "", done.stdout + done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


def test_a_file_that_is_not_json_exits_2(tmp_path: Path) -> None:
    assert unreadable(tmp_path, "{not json").endswith("xisk-12.json is not JSON (line 1, column 2)")


def test_json_that_is_no_export_exits_2(tmp_path: Path) -> None:
    assert "is not a Tablehost game export" in unreadable(tmp_path, {"format": "something"})
    assert "is not a Tablehost game export" in unreadable(tmp_path, [1, 2])


def test_a_version_1_file_exits_2_pointing_to_the_bots_verifier(tmp_path: Path) -> None:
    old = {"format": "tablehost-game", "version": 1, "game": "xisk", "players": [], "seed": 1234, "salt": "00ff",
           "commitment": "ab" * 32, "moves": []}
    assert "old-scheme games are checked only by `python3 tasks.py run --verify FILE`" in unreadable(tmp_path, old)


def test_a_splitmix64_game_exits_2_pointing_to_the_bots_verifier(tmp_path: Path) -> None:
    data = valid_export()
    data["dice"] = {"scheme": "splitmix64", "seed": 1234, "salt": "00ff", "commitment": "ab" * 32,
                    "commitment_message": None, "draws": None}
    assert "old SplitMix64 dice" in unreadable(tmp_path, data) and "tasks.py run --verify" in unreadable(tmp_path, data)


def test_a_newer_version_or_a_malformed_draw_exits_2(tmp_path: Path) -> None:
    data = valid_export()
    data["version"] = 3
    assert "this script reads version 2 exports only" in unreadable(tmp_path, data)
    data = valid_export()
    data["dice"]["draws"][4] = [5, 48]
    assert "dice.draws: expected a list of [number, range, value]" in unreadable(tmp_path, data)
    data = valid_export()
    data["dice"]["server_seed"] = SEED.upper()
    assert "dice.server_seed: expected 64 lowercase hex digits" in unreadable(tmp_path, data)


# -- the rejection path, which real HMAC draws never take: a fake hash shows it ------------------


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_draws", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_skipped_number_passes_only_when_it_is_a_rejection(monkeypatch: pytest.MonkeyPatch) -> None:
    cd = script()
    top = 2**256 - 1  # 2**256 % 6 == 4: the four numbers from 2**256 - 4 are rejected for a die
    hashes = {1: 7, 2: top, 3: 2**256 - 4, 4: 2**256 - 5, 5: 9}
    monkeypatch.setattr(cd, "draw_hash", lambda seed, entropy, n: hashes[n])
    assert cd.check_draws(SEED, "x", [[1, 6, 1], [4, 6, (2**256 - 5) % 6], [5, 6, 3]]) == (True, "draws: all 3 match")
    ok, line = cd.check_draws(SEED, "x", [[1, 6, 1], [3, 6, 0]])
    assert not ok and line.endswith(": number: 3 is a rejection for range 6, it gives no value: MISMATCH")
    ok, line = cd.check_draws(SEED, "x", [[1, 6, 1], [5, 6, 3]])
    assert not ok and line.endswith(": number: 4 was skipped, but it is no rejection for range 6: MISMATCH")
    ok, line = cd.check_draws(SEED, "x", [[1, 7, 0], [4, 7, 0]])  # 2**256 % 7 == 2: 2**256 - 4 is kept
    assert not ok and line.endswith(": number: 3 was skipped, but it is no rejection for range 7: MISMATCH")


def test_the_scripts_hash_is_keyed_draws_hash() -> None:
    rng = KeyedDraws(key=SEED, entropy=ENTROPY, counter=0)
    values = [rng.below(1000) for _ in range(5)]
    assert [script().draw_hash(SEED, ENTROPY, n) % 1000 for n in range(1, 6)] == values


def test_the_script_imports_only_the_standard_library_and_stays_short() -> None:
    source = SCRIPT.read_text(encoding="utf-8")
    imported: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 and node.module is not None
            imported.add(node.module.split(".")[0])
    assert imported and imported <= sys.stdlib_module_names, imported - sys.stdlib_module_names
    assert "engines" not in source and "host" not in imported
    assert sum(1 for line in source.splitlines() if line.strip()) <= 150
