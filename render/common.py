"""Drawing helpers shared by every game's renderer: fonts, player colours, PNG encoding.

Player colours follow the Okabe–Ito palette, which stays distinguishable for
the common kinds of colour blindness; every colour also has a letter mark so a
picture never relies on hue alone::

    >>> PLAYER_STYLES[0].mark, len(PLAYER_STYLES)
    ('A', 6)
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

Colour = tuple[int, int, int]

BACKGROUND: Colour = (32, 36, 44)
PANEL: Colour = (44, 49, 60)
INK: Colour = (236, 238, 242)
MUTED: Colour = (160, 166, 178)
NEUTRAL: Colour = (150, 150, 150)


@dataclass(frozen=True)
class PlayerStyle:
    """How one seat is drawn: a fill colour, a contrasting ink and a letter mark."""

    fill: Colour
    ink: Colour
    mark: str


PLAYER_STYLES: tuple[PlayerStyle, ...] = (
    PlayerStyle((230, 159, 0), (0, 0, 0), "A"),  # orange
    PlayerStyle((86, 180, 233), (0, 0, 0), "B"),  # sky blue
    PlayerStyle((0, 158, 115), (255, 255, 255), "C"),  # bluish green
    PlayerStyle((240, 228, 66), (0, 0, 0), "D"),  # yellow
    PlayerStyle((0, 114, 178), (255, 255, 255), "E"),  # blue
    PlayerStyle((204, 121, 167), (0, 0, 0), "F"),  # reddish purple
)


def player_style(index: int) -> PlayerStyle:
    """Returns the style of the seat at ``index`` (wrapping after six)."""
    return PLAYER_STYLES[index % len(PLAYER_STYLES)]


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Returns Pillow's bundled scalable font at ``size`` pixels (cached)."""
    return ImageFont.load_default(size=size)


def text_width(draw: ImageDraw.ImageDraw, text: str, size: int) -> float:
    """Returns the width in pixels of ``text`` at ``size``."""
    return draw.textlength(text, font=font(size))


def fit(text: str, draw: ImageDraw.ImageDraw, size: int, width: float) -> str:
    """Returns ``text`` shortened with an ellipsis so that it fits ``width`` pixels."""
    if text_width(draw, text, size) <= width:
        return text
    while text and text_width(draw, text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def to_png(image: Image.Image, *, compress_level: int = 3) -> bytes:
    """Returns the image encoded as PNG (a fast compression level: pictures are sent once)."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=compress_level)
    return buf.getvalue()
