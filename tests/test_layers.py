"""The layers import downwards only, and bot.py refuses to start without a token."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _imports_after(statement: str) -> set[str]:
    code = f"import sys; before = set(sys.modules); {statement}; print(' '.join(set(sys.modules) - before))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return {name.split(".")[0] for name in done.stdout.split()}


def test_engines_import_no_discord_pillow_database_or_upper_layer() -> None:
    loaded = _imports_after("import engines")
    assert not loaded & {"discord", "PIL", "aiosqlite", "sqlite3", "host", "cogs", "render"}


def test_render_and_host_import_no_discord() -> None:
    assert "discord" not in _imports_after("import render, render.generic")
    assert "discord" not in _imports_after("import host.tables, host.store")


def test_bot_without_token_exits_2_naming_the_variable(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and ".env" in lines[0] and "--console" in lines[0]
