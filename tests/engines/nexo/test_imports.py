"""Tests that the Nexohominis engine stays in its layer (DESIGN: engines import no I/O layer)."""

from __future__ import annotations

import ast
from pathlib import Path

FORBIDDEN = {"discord", "PIL", "aiosqlite", "host", "render", "cogs"}
ENGINE = Path(__file__).resolve().parents[3] / "engines" / "nexo"


def test_engine_imports_no_upper_layer() -> None:
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"


def test_engine_reads_no_shared_folder() -> None:
    for path in sorted(ENGINE.glob("*.py")):
        assert "shared" not in path.read_text(), path.name
