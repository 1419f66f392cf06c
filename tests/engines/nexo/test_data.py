"""Tests of the data files and their loader (house tables, core §2, §4)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engines.nexo.battlefield import layout_problems
from engines.nexo.data import DATA_DIR, DataError, load_ruleset


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    """Returns a writable copy of data/nexo."""
    dst = tmp_path / "nexo"
    shutil.copytree(DATA_DIR, dst)
    return dst


def edit(root: Path, name: str, change: Callable[[dict[str, Any]], None]) -> None:
    """Loads a JSON file under ``root``, applies ``change`` and writes it back."""
    path = root / name
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def test_house_datasheets_are_loaded() -> None:
    rules = load_ruleset()
    trooper = rules.faction.units["trooper"]
    assert (trooper.move, trooper.aim, trooper.fight, trooper.defense, trooper.save, trooper.hp) == (
        6, 1, 1, 5, 4, 8)
    rifle = trooper.weapon("rifle")
    assert rifle is not None and (rifle.range, rifle.dice, rifle.damage, rifle.crit_damage) == (24, 4, 2, 3)
    knife = trooper.weapon("knife")
    assert knife is not None and knife.melee
    strider = rules.faction.units["strider"]
    assert strider.base_radius == 1.5 and strider.powered and strider.energy == 25
    hq = rules.faction.buildings["headquarters"]
    assert (hq.width, hq.depth, hq.hp, hq.energy_production) == (6, 6, 40, 50)
    turret = rules.faction.buildings["turret"]
    assert turret.weapons[0].aim == 1
    assert rules.faction.abilities["harvest"].params["carbonite_gain"] == 50
    assert [rules.wia[n].name for n in range(1, 7)] == [
        "pinned", "shaken", "limping", "bleeding", "steady", "adrenaline"]


def test_4_3_starting_force() -> None:
    faction = load_ruleset().faction
    assert sorted(faction.start_buildings) == ["generator", "headquarters"]
    assert sorted(faction.start_models) == ["drudge", "drudge", "outrider"]


def test_5_terrain_traits_follow_the_house_table() -> None:
    types = load_ruleset().terrain_types
    assert types["ruin"].obscuring and types["ruin"].cover_inside == "light"
    assert types["crater"].difficult and types["rubble"].difficult
    assert types["sealed"].impassable and types["sealed"].blocks_sight
    assert types["barricade"].shape == "line" and types["barricade"].no_stopping
    assert types["hill"].height == 5


@pytest.mark.parametrize("name", ["crossroads", "dust_belt"])
def test_4_4_and_5_16_presets_follow_the_core(name: str) -> None:
    rules = load_ruleset()
    preset = rules.presets[name]
    assert (preset.width, preset.length, preset.zone) == (44, 60, 12)
    assert layout_problems(preset, rules) == []
    assert sorted(p.type for p in preset.buildings) == ["generator", "headquarters"]
    assert sorted(p.type for p in preset.models) == ["drudge", "drudge", "outrider"]


@pytest.mark.parametrize(
    ("file", "change", "message"),
    [
        ("faction_default.json", lambda d: d["units"]["trooper"].pop("move"),
         "faction_default.json: units.trooper.move: missing"),
        ("faction_default.json", lambda d: d["units"]["trooper"].update(hp="eight"),
         "faction_default.json: units.trooper.hp: expected a whole number, got 'eight'"),
        ("faction_default.json", lambda d: d["units"]["gunner"]["weapons"][0].update(dice=0),
         "faction_default.json: units.gunner.weapons[0].dice: must be at least 1, got 0"),
        ("faction_default.json", lambda d: d["units"]["drudge"]["abilities"].append("fly"),
         "faction_default.json: units.drudge.abilities[3]: unknown ability 'fly'"),
        ("faction_default.json", lambda d: d["buildings"]["foundry"]["produces"].append("tank"),
         "faction_default.json: buildings.foundry.produces[4]: unknown unit 'tank'"),
        ("terrain.json", lambda d: d["types"]["ruin"].update(cover_inside="medium"),
         "terrain.json: types.ruin.cover_inside: must be one of light, heavy, got 'medium'"),
        ("terrain.json", lambda d: d["types"]["crater"].update(difficult="yes"),
         "terrain.json: types.crater.difficult: expected true or false, got 'yes'"),
        ("wia.json", lambda d: d["table"].pop("4"), "wia.json: table.4: missing"),
        ("battlefields/crossroads.json", lambda d: d["terrain"][0].update(type="lava"),
         "battlefields/crossroads.json: terrain[0].type: unknown terrain type 'lava'"),
        ("battlefields/crossroads.json",
         lambda d: d["terrain"][1].update(poly=[[0, 0], [1, 1], [1, 0], [0, 1]]),
         "battlefields/crossroads.json: terrain[1].poly: is not a simple polygon"),
        ("battlefields/crossroads.json",
         lambda d: d["terrain"][2].update(poly=[[40, 20], [46, 20], [46, 24]]),
         "battlefields/crossroads.json: terrain: terrain[2] (S1a) leaves the 44\" x 60\" battlefield"),
        ("battlefields/crossroads.json", lambda d: d["depots"][0].update(x=5),
         'battlefields/crossroads.json: depots: depot 1 at (5, 18) is 5" from an edge (at least 9")'),
        ("battlefields/crossroads.json", lambda d: d["depots"][4].update(y=16),
         'battlefields/crossroads.json: depots: depot 5 at (22, 16) is 4" outside a deployment zone'),
        ("battlefields/crossroads.json", lambda d: d["depots"][4].update(x=14, y=20),
         'battlefields/crossroads.json: depots: depot 1 at (10, 18) is 4.47" from depot 5 (at least 12")'),
        ("battlefields/crossroads.json", lambda d: d["deploy"]["models"][0].update(y=20),
         "battlefields/crossroads.json: deploy.models[0]: (17, 20) is outside player 1's deployment zone"),
        ("battlefields/dust_belt.json", lambda d: d["terrain"][0].update(id="K1"),
         "battlefields/dust_belt.json: terrain: the id 'K1' is used twice"),
    ],
)
def test_bad_data_names_file_and_field(
    data_copy: Path, file: str, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    edit(data_copy, file, change)
    with pytest.raises(DataError) as err:
        load_ruleset(data_copy)
    assert str(err.value).startswith(message)


def test_depot_inside_impassable_terrain_is_refused(data_copy: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        d["terrain"].append({"id": "X", "type": "sealed", "poly": [[20, 23], [24, 23], [24, 26], [20, 26]]})

    edit(data_copy, "battlefields/crossroads.json", change)
    with pytest.raises(DataError, match=r"depots: depot 5 at \(22, 24\) is inside impassable terrain"):
        load_ruleset(data_copy)


def test_broken_json_names_the_line(data_copy: Path) -> None:
    (data_copy / "wia.json").write_text('{"table": {\n  "1": }')
    with pytest.raises(DataError, match=r"^wia.json: line 2: not valid JSON"):
        load_ruleset(data_copy)


def test_missing_file_is_named(data_copy: Path) -> None:
    (data_copy / "terrain.json").unlink()
    with pytest.raises(DataError, match=r"^terrain.json: the file is missing"):
        load_ruleset(data_copy)
