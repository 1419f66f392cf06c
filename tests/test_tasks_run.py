"""``python3 tasks.py run …``: what the project prints to run works as printed, from any folder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import tasks

ROOT = Path(__file__).resolve().parents[1]


def test_a_file_named_where_you_are_reaches_bot_py_as_an_absolute_path(tmp_path: Path) -> None:
    assert tasks.from_caller(["--verify", "xisk-1.json", "--all"], tmp_path) == ["--verify", "xisk-1.json", "--all"]
    (tmp_path / "xisk-1.json").write_text("{}", encoding="utf-8")
    assert tasks.from_caller(["--verify", "xisk-1.json", "--all"], tmp_path) == [
        "--verify", str((tmp_path / "xisk-1.json").resolve()), "--all"]


def test_the_printed_verify_command_works_from_the_folder_of_the_file(tmp_path: Path) -> None:
    (tmp_path / "xisk-1.json").write_text("not json", encoding="utf-8")
    done = subprocess.run([sys.executable, str(ROOT / "tasks.py"), "run", "--verify", "xisk-1.json"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 2, done.stdout + done.stderr  # read, and found not to be an export
    assert "xisk-1.json: This is not a Tablehost game export: it is not JSON" in done.stdout
