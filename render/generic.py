"""A plain status card for games that have no renderer of their own (and for tests).

It draws the game's title and the simple fields of the spectator view; it never
sees anything but ``view(None)``.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.common import BACKGROUND, INK, MUTED, fit, font, to_png

WIDTH, LINE, MARGIN = 800, 30, 24


def render(view: dict[str, Any], *, title: str = "Tablehost", **marks: Any) -> bytes:
    """Returns a PNG card listing the view's scalar fields."""
    rows = [(k, v) for k, v in view.items() if isinstance(v, str | int | float | bool) or v is None]
    rows += [(k, ", ".join(map(str, v))) for k, v in view.items() if isinstance(v, list) and len(v) <= 12]
    height = MARGIN * 2 + 48 + LINE * max(1, len(rows))
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN), title, fill=INK, font=font(32))
    y = MARGIN + 48
    for key, value in rows:
        draw.text((MARGIN, y), str(key), fill=MUTED, font=font(20))
        draw.text((MARGIN + 220, y), fit(str(value), draw, 20, WIDTH - MARGIN * 2 - 220), fill=INK, font=font(20))
        y += LINE
    return to_png(image)
