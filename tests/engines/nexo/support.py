"""Builds small test battlefields from hand-placed terrain pieces."""

from __future__ import annotations

from typing import Any

from engines.nexo.data import default_ruleset
from engines.nexo.datatypes import Feature, Preset, TerrainPiece
from engines.nexo.terrain import Terrain


def rect(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    """Returns an axis-aligned rectangle as a polygon ring."""
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def piece(id: str, type: str, poly: Any = (), *, line: Any = (), cover: str | None = None,
          features: Any = (), height: float | None = None, blocks_sight: bool | None = None) -> TerrainPiece:
    """Returns a terrain piece for a test."""
    return TerrainPiece(id=id, type=type, poly=tuple(poly), line=tuple(line), cover=cover,
                        features=tuple(Feature(tuple(f), c) for f, c in features), height=height,
                        blocks_sight=blocks_sight)


def terrain(*pieces: TerrainPiece) -> Terrain:
    """Returns an indexed 44" x 60" battlefield holding only ``pieces``."""
    field = Preset(name="test", title="Test", width=44, length=60, zone=12, depots=(),
                   terrain=tuple(pieces), buildings=(), models=())
    return Terrain(field, default_ruleset())


HQ1 = {"id": "A1", "type": "headquarters", "x": 22, "y": 5}
HQ2 = {"id": "B1", "type": "headquarters", "x": 22, "y": 55}


def unit(id: str, type: str, x: float, y: float, **more: Any) -> dict[str, Any]:
    """Returns a scenario model entry."""
    return {"id": id, "type": type, "x": x, "y": y, **more}


def scenario_game(p1: list[dict[str, Any]], p2: list[dict[str, Any]], *, phase: str = "worker",
                  b1: list[dict[str, Any]] | None = None, b2: list[dict[str, Any]] | None = None,
                  terrain: list[dict[str, Any]] | None = None, seed: int = 1, carbonite: int = 200,
                  turn: str = "p1", first: str = "p1", initiative: str = "p1", round: int = 1,
                  options: dict[str, Any] | None = None, reserve1: list[dict[str, Any]] | None = None,
                  reserve2: list[dict[str, Any]] | None = None) -> Any:
    """Returns a Nexo game ann (p1) v bob (p2) on an open field with depots K1 (10,18), K2 (34,42)."""
    from engines.nexo.game import Nexo

    depots = [{"id": "K1", "x": 10, "y": 18}, {"id": "K2", "x": 34, "y": 42}]
    sc = {"terrain": terrain or [], "depots": depots,
          "round": round, "phase": phase, "initiative": initiative, "first": first, "turn": turn,
          "sides": {"p1": {"carbonite": carbonite, "models": p1, "buildings": [HQ1] if b1 is None else b1,
                           "reserve": reserve1 or []},
                    "p2": {"carbonite": carbonite, "models": p2, "buildings": [HQ2] if b2 is None else b2,
                           "reserve": reserve2 or []}}}
    return Nexo.new(["ann", "bob"], seed=seed, options={"scenario": sc, **(options or {})})


def crossroads_game(p1: list[dict[str, Any]], p2: list[dict[str, Any]], *, phase: str = "action",
                    seed: int = 1, turn: str = "p1") -> Any:
    """Returns a Nexo game ann (p1) v bob (p2) on the crossroads preset (its terrain and depots),
    with the HQs and generators of its deployment and the given models."""
    from engines.nexo.game import Nexo

    sides = {"p1": {"models": p1, "buildings": [{"id": "A1", "type": "headquarters", "x": 22, "y": 5},
                                                 {"id": "A2", "type": "generator", "x": 13, "y": 5}]},
             "p2": {"models": p2, "buildings": [{"id": "B1", "type": "headquarters", "x": 22, "y": 55},
                                                 {"id": "B2", "type": "generator", "x": 31, "y": 55}]}}
    sc = {"battlefield": {"preset": "crossroads"}, "phase": phase, "round": 1, "initiative": "p1",
          "first": turn, "turn": turn, "sides": sides}
    return Nexo.new(["ann", "bob"], seed=seed, options={"scenario": sc})


CROSSROADS_P1 = [unit("a3", "trooper", 20, 22), unit("a4", "breacher", 8, 28), unit("a5", "gunner", 31, 20),
                 unit("a6", "outrider", 36, 26), unit("a7", "strider", 22, 12)]
CROSSROADS_P2 = [unit("b3", "trooper", 24, 38), unit("b4", "breacher", 12, 36), unit("b5", "gunner", 34, 33),
                 unit("b6", "outrider", 8, 44), unit("b7", "trooper", 22, 26)]
"""A mid-game position on the crossroads: five units a side around the centre."""
