"""NXS's kit: a two-player duel of sailing ships on two hex boards."""

from __future__ import annotations

from pathlib import Path

from cogs.nxs import SURFACE
from engines.core.kit import GameKit
from engines.nxs.ai import choose
from engines.nxs.game import Nxs
from render.nxs import draw, render

KIT = GameKit(
    engine=Nxs,
    rules=Path(__file__).resolve().parents[1] / "data" / "rules" / "nxs.md",
    group="nxs",
    ai=choose,
    render=render,
    picture=draw,
    surface=SURFACE,
)
