"""Nexohominis's kit: a two-player skirmish with workers, Carbonite, Energy and Blackout."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cogs.nexo import SURFACE, phase_of
from engines.core.kit import GameKit
from engines.nexo.ai import choose
from engines.nexo.game import Nexo
from render.nexo import draw, render


def phase_note(view: dict[str, Any]) -> str:
    """Returns a replay turn's note, "round 2 action phase"."""
    return f"round {view.get('round', '?')} {str(view.get('phase', '?')).lower()} phase"


KIT = GameKit(
    engine=Nexo,
    rules=Path(__file__).resolve().parents[1] / "data" / "rules" / "nexo.md",
    group="nexo",
    ai=choose,
    render=render,
    picture=draw,
    replay_turn=phase_of,
    replay_note=phase_note,
    replay_unit="phase",
    surface=SURFACE,
)
