"""Drawing helpers shared by every game's renderer: fonts, player colours, encoding (:func:`encode`).

Pictures are read first as Discord's inline preview, about :data:`PREVIEW_WIDTH` pixels
wide, so the texts a player needs at a glance are recorded as :class:`Label` boxes and
measured at that width (:meth:`Label.preview_height`)::

    >>> label = Label.at("chips", "12", 38, (100, 100), anchor="mm")
    >>> label.height, round(label.preview_height(1600), 1)
    (28, 9.6)

Player colours are Okabe–Ito's hues, moved until every pair (and each versus
:data:`NEUTRAL`) is at least 20 apart in CIEDE2000 for normal vision and under simulated
protanopia, deuteranopia and tritanopia (``tests/render/test_colour_blind.py``); every
colour also has a letter mark so a picture never relies on hue alone::

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


PREVIEW_WIDTH = 550
"""Width in pixels of Discord's inline preview of a picture on a desktop client."""
MIN_PREVIEW_TEXT = 9
"""Least height in preview pixels of a text a player needs at a glance (chips, turn, phase)."""

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Label:
    """A text a renderer drew, kept so its size can be checked: roles, text, font size, ink box.

    ``box`` is the ink box (left, top, right, bottom) in picture pixels, from
    ``ImageFont.getbbox`` of the font and stroke actually used. ``roles`` say what the text
    is for (``"chips"``, ``"to_act"``, ``"phase"``, ``"piece"``, ``"name"``, …).
    """

    roles: tuple[str, ...]
    text: str
    size: int
    box: Box

    @classmethod
    def at(cls, roles: str | tuple[str, ...], text: str, size: int, xy: tuple[float, float], *,
           anchor: str = "la", stroke: int = 0) -> Label:
        """Returns the label of ``text`` drawn at ``xy`` like ``ImageDraw.text`` would draw it."""
        left, top, right, bottom = ink_box(text, size, anchor, stroke)
        x, y = xy
        return cls((roles,) if isinstance(roles, str) else roles, text, size,
                   (x + left, y + top, x + right, y + bottom))

    def scaled(self, factor: float) -> Label:
        """Returns the label of the same text in a picture shrunk by ``factor`` (drawn large, then reduced)."""
        return Label(self.roles, self.text, self.size, tuple(v * factor for v in self.box))  # type: ignore[arg-type]

    @property
    def height(self) -> float:
        """Returns the ink height in picture pixels (the measure of legibility used throughout)."""
        return self.box[3] - self.box[1]

    def preview_height(self, picture_width: int, preview_width: int = PREVIEW_WIDTH) -> float:
        """Returns the ink height once a picture ``picture_width`` wide is shrunk to ``preview_width``."""
        return self.height * preview_width / picture_width


Labels = list[Label]
"""Where a renderer records the labels it draws, when a caller asks for them."""


def note(labels: Labels | None, label: Label) -> Label:
    """Appends ``label`` to ``labels`` (when recording) and returns it."""
    if labels is not None:
        labels.append(label)
    return label


def write(draw: ImageDraw.ImageDraw, labels: Labels | None, roles: str | tuple[str, ...], xy: tuple[float, float],
          text: str, size: int, fill: Colour, *, anchor: str = "la", stroke: int = 0,
          stroke_fill: Colour | None = None) -> Label:
    """Draws ``text`` like ``ImageDraw.text`` and records (when ``labels`` is a list) the box it inked."""
    draw.text(xy, text, font=font(size), fill=fill, anchor=anchor, stroke_width=stroke,
              stroke_fill=fill if stroke_fill is None else stroke_fill)
    return note(labels, Label.at(roles, text, size, xy, anchor=anchor, stroke=stroke))


@dataclass(frozen=True)
class PlayerStyle:
    """How one seat is drawn: a fill colour, a contrasting ink and a letter mark."""

    fill: Colour
    ink: Colour
    mark: str


PLAYER_STYLES: tuple[PlayerStyle, ...] = (
    PlayerStyle((195, 135, 0), (0, 0, 0), "A"),  # amber
    PlayerStyle((120, 195, 255), (0, 0, 0), "B"),  # sky blue
    PlayerStyle((15, 105, 60), (255, 255, 255), "C"),  # deep green
    PlayerStyle((240, 240, 75), (0, 0, 0), "D"),  # yellow
    PlayerStyle((90, 105, 255), (0, 0, 0), "E"),  # blue
    PlayerStyle((135, 75, 120), (255, 255, 255), "F"),  # plum
)
"""Seat → style. The fills are chosen for colour-blind players too (see the module's docstring);
each ink has a contrast ratio of at least 4.5 with its fill."""


def player_style(index: int) -> PlayerStyle:
    """Returns the style of the seat at ``index`` (wrapping after six)."""
    return PLAYER_STYLES[index % len(PLAYER_STYLES)]


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Returns Pillow's bundled scalable font at ``size`` pixels (cached)."""
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=4096)
def ink_box(text: str, size: int, anchor: str = "la", stroke: int = 0) -> tuple[float, float, float, float]:
    """Returns ``font(size).getbbox`` of ``text`` (cached): its ink box relative to the anchor point."""
    return font(size).getbbox(text, anchor=anchor, stroke_width=stroke)


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


WEBP_METHOD = 5
"""Lossless WebP method of a full-colour picture (chosen by ``bench/encoding.py``; method 4 took 8× as
long on some Nexohominis boards, which ``bench/bytes.py``, encoding every move, showed)."""
WEBP_EFFORT = 0
"""Lossless WebP effort (Pillow's ``quality``) of a full-colour picture: higher saves bytes but takes twice as long."""
EXTENSIONS = {b"\x89PNG": "png", b"RIFF": "webp", b"GIF8": "gif"}
"""A picture's first four bytes, and the file name extension they call for."""


def to_webp(image: Image.Image, *, method: int = WEBP_METHOD, effort: int = WEBP_EFFORT) -> bytes:
    """Returns the image encoded as lossless WebP (identical pixels) at that method and effort."""
    buf = io.BytesIO()
    image.save(buf, format="WEBP", lossless=True, method=method, quality=effort)
    return buf.getvalue()


def encode(image: Image.Image, *, compress_level: int = 3) -> bytes:
    """Returns a finished picture as sent: a paletted one as PNG, a full-colour one as lossless WebP.

    Chosen by measurement (``bench/encoding.py``): a full-colour Nexohominis board is 0.42×
    the PNG's bytes as WebP at method 5, effort 0, with identical pixels, in less time; a
    paletted NXS board is smallest as WebP only at 2 to 6× the PNG's time, so it stays PNG.
    XISK measures its own choice (:data:`render.xisk.WEBP_METHOD`) and calls :func:`to_webp`.
    """
    if image.mode == "P":
        return to_png(image, compress_level=compress_level)
    return to_webp(image)


def extension(picture: bytes) -> str:
    """Returns the file name extension (``png``, ``webp`` or ``gif``) of encoded picture bytes (``png`` if unknown)."""
    return EXTENSIONS.get(picture[:4], "png")
