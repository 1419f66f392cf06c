"""The layers import downwards only (import-linter's contracts, run by the test command), and bot.py
refuses to start without a token."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tasks

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


PACKAGES = ("games", "web", "cogs", "host", "render", "engines")


def _copy(tmp: Path) -> Path:
    """Copies the packages and pyproject.toml (its import-linter contracts) into ``tmp``."""
    for name in PACKAGES:
        shutil.copytree(ROOT / name, tmp / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp / "pyproject.toml")
    return tmp


def test_the_layers_as_they_are_keep_every_import_linter_contract(capfd: pytest.CaptureFixture[str]) -> None:
    name, args = tasks.CHECKS[-1]
    assert name == "import-linter"
    assert tasks.check(name, args) == 0, capfd.readouterr().out[-3000:]


def test_an_upward_import_fails_the_test_command(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    root = _copy(tmp_path)
    dice = root / "engines" / "core" / "dice.py"
    dice.write_text(dice.read_text() + "\nfrom cogs import client  # noqa: E402,F401 an engine reaching up\n")
    name, args = next((n, a) for n, a in tasks.CHECKS if n == "import-linter")
    assert tasks.check(name, args, root=root) == 1
    out = capfd.readouterr()
    assert "Layers: games -> web -> cogs -> host -> render -> engines BROKEN" in out.out
    assert "engines.core.dice -> cogs.client" in out.out
    assert "import-linter found problems" in out.err


def test_an_import_circle_inside_a_layer_fails_the_test_command(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    root = _copy(tmp_path)
    replies = root / "cogs" / "replies.py"  # two modules of the base layer importing each other
    replies.write_text(replies.read_text() + "\nfrom cogs import client  # noqa: E402,F401\n")
    client = root / "cogs" / "client.py"
    client.write_text(client.read_text() + "\nfrom cogs import replies  # noqa: E402,F401\n")
    name, args = next((n, a) for n, a in tasks.CHECKS if n == "import-linter")
    assert tasks.check(name, args, root=root) == 1
    assert "No import circle anywhere BROKEN" in capfd.readouterr().out


MUTATORS = frozenset({"update", "setdefault", "append", "extend", "add", "insert", "register"})


def _modules() -> list[Path]:
    return sorted(p for name in PACKAGES for p in (ROOT / name).rglob("*.py"))


def test_no_module_fills_a_registry_of_another_module_when_imported() -> None:
    """A game's behaviour reaches the shared layers through its kit, never as a side effect of an import."""
    filled: list[str] = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {alias.asname or alias.name.split(".")[0] for node in tree.body
                    if isinstance(node, ast.Import | ast.ImportFrom) for alias in node.names}
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, ast.AugAssign | ast.AnnAssign) else []
            for target in targets:
                if isinstance(target, ast.Subscript | ast.Attribute) and _root(target) in imported:
                    filled.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            call = node.value if isinstance(node, ast.Expr) else None
            if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                    and call.func.attr in MUTATORS and _root(call.func.value) in imported):
                filled.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert filled == [], f"module-level registries filled by an import: {filled}"


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Subscript | ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def test_only_the_registry_imports_modules_by_name() -> None:
    """``import_module`` (and ``__import__``) appear nowhere: games are loaded by their entry points."""
    named: list[str] = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            called = node.func if isinstance(node, ast.Call) else None
            name = called.attr if isinstance(called, ast.Attribute) else called.id if isinstance(called, ast.Name) \
                else None
            if name in {"import_module", "__import__"}:
                named.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert named == [], f"modules imported by name: {named}"
    loader = (ROOT / "engines" / "core" / "registry.py").read_text(encoding="utf-8")
    assert "from importlib.metadata import EntryPoint, entry_points" in loader and "point.load()" in loader
