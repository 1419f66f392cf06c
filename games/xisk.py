"""XISK's kit: world conquest for 2–6 players, card hands secret."""

from __future__ import annotations

from pathlib import Path

from cogs.xisk import SURFACE
from engines.core.kit import GameKit
from engines.xisk.ai import choose
from engines.xisk.game import Xisk
from engines.xisk.hand import describe_hand
from render.xisk import draw_picture, render

RULES = Path(__file__).resolve().parents[1] / "data" / "rules" / "xisk.md"


def describe_secret(secret: dict[str, object]) -> str:
    """Returns a XISK hand as a player reads it: the cards by suit, with its cardsets."""
    hand = secret.get("hand")
    return describe_hand([str(c) for c in hand]) if isinstance(hand, list) else "Nothing hidden."


KIT = GameKit(
    engine=Xisk,
    rules=RULES,
    group="xisk",
    ai=choose,
    render=render,
    picture=draw_picture,
    describe_secret=describe_secret,
    surface=SURFACE,
)
