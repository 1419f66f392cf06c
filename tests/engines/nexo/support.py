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
