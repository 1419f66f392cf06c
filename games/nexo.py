"""Nexohominis's kit: a two-player skirmish with workers, Carbonite, Energy and Blackout."""

from __future__ import annotations

from pathlib import Path

from cogs.nexo import SURFACE
from engines.core.kit import GameKit
from engines.nexo.ai import choose
from engines.nexo.game import Nexo
from render.nexo import draw, render

KIT = GameKit(
    engine=Nexo,
    rules=Path(__file__).resolve().parents[1] / "data" / "rules" / "nexo.md",
    group="nexo",
    ai=choose,
    render=render,
    picture=draw,
    surface=SURFACE,
)
