"""Climb, a small card game packaged on its own: Tablehost's proof that a game installs as a package of its own.

Nothing in Tablehost names it. Its ``pyproject.toml`` declares the entry point
``climb = "tablehost_climb:KIT"`` in the group ``tablehost.games``, and after
``pip install`` the bot finds it there (``engines.core.registry``) like its own three games:
the engine (:mod:`tablehost_climb.engine`), the bots (:mod:`tablehost_climb.ai`), the picture
(:mod:`tablehost_climb.picture`), the rules summary (``rules.md``) and the Discord surface
(:mod:`tablehost_climb.commands`). It uses Tablehost's public API (``engines.core``,
``render.common``, ``cogs.*``) as any plugin would.
"""

from __future__ import annotations

from pathlib import Path

from cogs.surface import Surface
from engines.core.kit import GameKit
from tablehost_climb.ai import choose
from tablehost_climb.commands import ClimbCog, describe_secret, hand_moves, quick_moves, secret_line
from tablehost_climb.engine import Climb
from tablehost_climb.picture import draw, render

RULES = Path(__file__).resolve().with_name("rules.md")
"""The rules summary: two pages separated by a ``---`` line."""

SURFACE = Surface(commands=ClimbCog, quick_moves=quick_moves, hand_moves=hand_moves, secret_line=secret_line)
"""Climb on Discord: ``/climb``, the board's "Draw" button, the hand menu and the hand DM."""

KIT = GameKit(
    engine=Climb,
    rules=RULES,
    group="climb",
    ai=choose,
    render=render,
    picture=draw,
    describe_secret=describe_secret,
    surface=SURFACE,
)
"""Climb's kit, the entry point's object."""

__all__ = ["KIT", "SURFACE", "Climb"]
