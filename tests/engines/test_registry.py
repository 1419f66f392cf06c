"""The registry finds each game's kit through its entry point, and a broken one is named, never half-loaded."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import console
from engines.core.kit import GameKit
from engines.core.registry import GROUP, KITS, ONLY, Registry, RegistryError, from_entry_points, installed, load_kit
from tests.support.tally import KIT as TALLY

ROOT = Path(__file__).resolve().parents[2]


def point(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=GROUP)


def test_the_project_s_three_games_are_installed_entry_points() -> None:
    points = {p.name: p.value for p in installed()}
    assert points["xisk"] == "games.xisk:KIT" and points["nxs"] == "games.nxs:KIT"
    assert points["nexo"] == "games.nexo:KIT"
    assert [p.name for p in installed()] == sorted(points)  # by name, whatever order packages came in


def test_each_kit_is_its_game_s_engine_with_its_surface() -> None:
    for name in ("xisk", "nxs", "nexo"):
        kit = KITS[name]
        assert kit.name == name and kit.group == name and kit.ai is not None and kit.render is not None
        assert kit.rules is not None and kit.rules.is_file() and kit.surface is not None


def test_an_entry_point_that_cannot_be_imported_is_named() -> None:
    with pytest.raises(RegistryError, match=r"the game entry point chess = 'no_such_package:KIT' could not be loaded"):
        load_kit(point("chess", "no_such_package:KIT"))


def test_an_entry_point_that_gives_no_kit_is_named() -> None:
    with pytest.raises(RegistryError, match="gives the class Tally, not a GameKit"):
        load_kit(point("tally", "tests.support.tally:Tally"))


def test_an_entry_point_must_be_named_after_its_game() -> None:
    with pytest.raises(RegistryError, match="gives the game 'tally'; the entry point must be named after it"):
        load_kit(point("race", "tests.support.tally:KIT"))


def test_tablehost_games_limits_the_games_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ONLY, " NXS ,xisk")
    assert [kit.name for kit in from_entry_points()] == ["nxs", "xisk"]


def test_tablehost_games_naming_a_game_not_installed_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ONLY, "xisk,chess")
    with pytest.raises(RegistryError, match=r"TABLEHOST_GAMES names chess, not installed \(installed: .*nexo, nxs"):
        from_entry_points()


def test_a_registry_loads_once_and_may_offer_a_game_more_or_less() -> None:
    loads: list[int] = []

    def load() -> list[GameKit]:
        loads.append(1)
        return [TALLY]

    registry = Registry(load)
    assert list(registry) == ["tally"] and registry["tally"] is TALLY and len(registry) == 1
    registry.remove("tally")
    assert "tally" not in registry and loads == [1]
    registry.reload()
    assert "tally" in registry and loads == [1, 1]


def test_a_game_module_asking_for_the_games_while_they_load_is_told_so() -> None:
    registry: Registry

    def load() -> list[GameKit]:
        return [registry["xisk"]]

    registry = Registry(load)
    with pytest.raises(RegistryError, match="asked for the games while they were being loaded"):
        len(registry)


def test_the_bot_refuses_to_start_on_a_game_not_installed(tmp_path: Path) -> None:
    env = {**os.environ, "DISCORD_TOKEN": "x" * 60, ONLY: "chess", "TABLEHOST_DB": str(tmp_path / "t.db")}
    done = subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith("error: TABLEHOST_GAMES names chess, not installed")


def test_the_console_names_a_game_not_installed_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ONLY, "chess")
    KITS.reload()
    out = io.StringIO()
    try:
        assert console.main(["chess", "--players", "ann,bob"], out) == 2
    finally:
        monkeypatch.undo()
        KITS.reload()
    assert out.getvalue().startswith("error: TABLEHOST_GAMES names chess, not installed")
    assert "xisk" in KITS
