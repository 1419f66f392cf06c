"""Where the NXS picture is drawn: a full-colour image, or straight onto the paletted picture.

Mapping a whole full-colour picture to its palette costs about as much as all the drawing,
so a render draws on the paletted picture itself (:class:`PalettedCanvas`): shapes (which
Pillow draws without anti-aliasing) in their palette indices, and each anti-aliased piece
(a ship tile, a text) as a patch mapped to the palette once and cached, then pasted through
its coverage mask. A patch is composed in full colour over the flat colour the caller says
lies under it (``on``), so the pixels are those of the full-colour picture mapped to the
palette (:class:`RgbCanvas`, which draws the same calls in full colour); with ``on=None``
the region under it is read back through the palette, drawn on and mapped again.

Both canvases take the same calls, so one drawing routine serves both::

    >>> from render.common import PANEL
    >>> rgb = RgbCanvas(Image.new("RGB", (40, 20), PANEL))
    >>> rgb.write(None, "detail", (2, 2), "d4", 14, (236, 238, 242), on=PANEL)
    >>> layer = PalettedLayer.of(rgb.image, Image.new("RGB", (40, 20), PANEL).quantize(8))
    >>> art = PalettedCanvas(layer.image.copy(), layer)
    >>> art.write(None, "detail", (2, 2), "d4", 14, (236, 238, 242), on=PANEL)
    >>> art.image.tobytes() == layer.to_palette(rgb.image).tobytes()
    True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import Colour, Label, Labels, font, note, write

Ink = Colour | int | None
"""A shape's colour as the drawing code gives it (a palette index is passed through)."""


@dataclass(frozen=True, eq=False)
class PalettedLayer:
    """A palette and a static picture already mapped to it, with the key colours' indices.

    Compared and hashed by identity: the patch caches are keyed by the layer they belong to.
    """

    palette: Image.Image
    image: Image.Image
    indices: dict[Colour, int] = field(default_factory=dict)

    @classmethod
    def of(cls, static: Image.Image, palette: Image.Image, keys: Sequence[Colour] = ()) -> PalettedLayer:
        """Returns ``static`` mapped to ``palette``, with the index each of ``keys`` maps to."""
        layer = cls(palette, static.quantize(palette=palette, dither=Image.Dither.NONE))
        for colour in keys:
            layer.index(colour)
        return layer

    def to_palette(self, rgb: Image.Image) -> Image.Image:
        """Returns ``rgb`` mapped to the palette (nearest colour, no dithering)."""
        return rgb.quantize(palette=self.palette, dither=Image.Dither.NONE)

    def index(self, colour: Colour) -> int:
        """Returns the index ``colour`` maps to, exactly as :meth:`to_palette` maps it (memoised)."""
        if colour not in self.indices:
            self.indices[colour] = int(self.to_palette(Image.new("RGB", (1, 1), colour)).getpixel((0, 0)))  # type: ignore[arg-type]
        return self.indices[colour]


class RgbCanvas:
    """Draws on a full-colour image: shapes through ``ImageDraw``, sprites and texts as usual."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)

    def polygon(self, xy: Sequence[tuple[float, float]], fill: Ink = None, outline: Ink = None,
                width: int = 1) -> None:
        """Draws a polygon like ``ImageDraw.polygon``."""
        self.draw.polygon(xy, fill=fill, outline=outline, width=width)

    def ellipse(self, xy: Sequence[float], fill: Ink = None, outline: Ink = None, width: int = 1) -> None:
        """Draws an ellipse like ``ImageDraw.ellipse``."""
        self.draw.ellipse(xy, fill=fill, outline=outline, width=width)

    def line(self, xy: Sequence[Any], fill: Ink = None, width: int = 0) -> None:
        """Draws a line like ``ImageDraw.line``."""
        self.draw.line(xy, fill=fill, width=width)

    def rectangle(self, xy: Sequence[float], fill: Ink = None) -> None:
        """Draws a filled rectangle like ``ImageDraw.rectangle``."""
        self.draw.rectangle(xy, fill=fill)

    def rounded_rectangle(self, xy: Sequence[float], radius: float, outline: Ink = None, width: int = 1) -> None:
        """Draws a rounded rectangle's outline like ``ImageDraw.rounded_rectangle``."""
        self.draw.rounded_rectangle(xy, radius=radius, outline=outline, width=width)

    def sprite(self, sprite: Image.Image, xy: tuple[int, int], *, on: Colour | None = None) -> None:
        """Pastes an RGBA ``sprite`` with its top left at ``xy``; ``on`` is ignored (it is exact here)."""
        self.image.paste(sprite, xy, sprite)

    def write(self, labels: Labels | None, roles: str | tuple[str, ...], xy: tuple[float, float], text: str,
              size: int, fill: Colour, *, anchor: str = "la", on: Colour | None = None) -> None:
        """Draws ``text`` and records its label (see :func:`render.common.write`); ``on`` is ignored."""
        write(self.draw, labels, roles, xy, text, size, fill, anchor=anchor)


class PalettedCanvas:
    """Draws the same calls as :class:`RgbCanvas` straight onto a picture in ``layer``'s palette."""

    def __init__(self, image: Image.Image, layer: PalettedLayer) -> None:
        self.image = image
        self.layer = layer
        self.draw = ImageDraw.Draw(image)

    def ink(self, colour: Ink) -> int | None:
        """Returns the palette index a colour is drawn in (None stays None, an index stays itself)."""
        return colour if colour is None or isinstance(colour, int) else self.layer.index(colour)

    def polygon(self, xy: Sequence[tuple[float, float]], fill: Ink = None, outline: Ink = None,
                width: int = 1) -> None:
        """Draws a polygon in palette indices."""
        self.draw.polygon(xy, fill=self.ink(fill), outline=self.ink(outline), width=width)

    def ellipse(self, xy: Sequence[float], fill: Ink = None, outline: Ink = None, width: int = 1) -> None:
        """Draws an ellipse in palette indices."""
        self.draw.ellipse(xy, fill=self.ink(fill), outline=self.ink(outline), width=width)

    def line(self, xy: Sequence[Any], fill: Ink = None, width: int = 0) -> None:
        """Draws a line in a palette index."""
        self.draw.line(xy, fill=self.ink(fill), width=width)

    def rectangle(self, xy: Sequence[float], fill: Ink = None) -> None:
        """Draws a filled rectangle in a palette index."""
        self.draw.rectangle(xy, fill=self.ink(fill))

    def rounded_rectangle(self, xy: Sequence[float], radius: float, outline: Ink = None, width: int = 1) -> None:
        """Draws a rounded rectangle's outline in a palette index."""
        self.draw.rounded_rectangle(xy, radius=radius, outline=self.ink(outline), width=width)

    def sprite(self, sprite: Image.Image, xy: tuple[int, int], *, on: Colour | None = None) -> None:
        """Pastes an RGBA ``sprite`` as composed over the flat colour ``on`` (over what is there, if None)."""
        if on is None:
            self._compose(xy, sprite.getchannel("A"), lambda rgb: rgb.paste(sprite, (0, 0), sprite))
            return
        patch, mask = _sprite_patch(self.layer, _Same(sprite), on)
        self.image.paste(patch, xy, mask)

    def write(self, labels: Labels | None, roles: str | tuple[str, ...], xy: tuple[float, float], text: str,
              size: int, fill: Colour, *, anchor: str = "la", on: Colour | None = None) -> None:
        """Draws ``text`` as :meth:`RgbCanvas.write` would over the flat colour ``on`` (what is there, if None)."""
        (fx, x), (fy, y) = math.modf(xy[0]), math.modf(xy[1])
        at = (int(x), int(y))
        if on is None:
            mask, (dx, dy) = _text_mask(text, size, anchor, fx, fy)
            glyphs = Image.new("RGB", mask.size, fill)
            self._compose((at[0] + dx, at[1] + dy), mask, lambda rgb: rgb.paste(glyphs, (0, 0), mask))
        elif text:
            patch, cover, (dx, dy) = _text_patch(self.layer, text, size, anchor, fx, fy, fill, on)
            self.image.paste(patch, (at[0] + dx, at[1] + dy), cover)
        if labels is not None:
            note(labels, Label.at(roles, text, size, xy, anchor=anchor))

    def _compose(self, xy: tuple[int, int], mask: Image.Image, paint: Any) -> None:
        """Reads the region at ``xy`` back in full colour, lets ``paint`` draw on it, maps it again
        and pastes it where ``mask`` covers (exact wherever the region holds the palette's key colours)."""
        box = (xy[0], xy[1], xy[0] + mask.width, xy[1] + mask.height)
        rgb = self.image.crop(box).convert("RGB")
        paint(rgb)
        self.image.paste(self.layer.to_palette(rgb), xy, _cover(mask))


_TOUCHED = [0] + [255] * 255
"""Point table of :func:`_cover`: any coverage at all is full."""


def _cover(mask: Image.Image) -> Image.Image:
    """Returns the pixels ``mask`` touches at all, as a 1-bit mask (a paste copies their indices)."""
    return mask.point(_TOUCHED, "1")


class _Same:
    """An image as a cache key, by identity: the sprites are cached, so each kind is one object."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.image is self.image

    def __hash__(self) -> int:
        return id(self.image)


@lru_cache(maxsize=1024)
def _sprite_patch(layer: PalettedLayer, same: _Same, on: Colour) -> tuple[Image.Image, Image.Image]:
    """Returns a sprite composed over ``on`` in ``layer``'s palette, and the mask of what it covers.

    The key holds the sprite, so its identity cannot pass to another image while cached."""
    sprite = same.image
    rgb = Image.new("RGB", sprite.size, on)
    rgb.paste(sprite, (0, 0), sprite)
    return layer.to_palette(rgb), _cover(sprite.getchannel("A"))


@lru_cache(maxsize=2048)
def _text_mask(text: str, size: int, anchor: str, fx: float, fy: float) -> tuple[Image.Image, tuple[int, int]]:
    """Returns the coverage of ``text`` drawn at an anchor point whose fractional part is (fx, fy),
    cropped to its ink, and the ink's offset from the anchor point's whole part."""
    face = font(size)
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    pad = 2  # the fraction may move the ink by a pixel past the box
    ox, oy = pad - math.floor(left), pad - math.floor(top)
    mask = Image.new("L", (math.ceil(right - left) + 2 * pad + 1, math.ceil(bottom - top) + 2 * pad + 1), 0)
    ImageDraw.Draw(mask).text((ox + fx, oy + fy), text, font=face, fill=255, anchor=anchor)
    ink = mask.getbbox() or (0, 0, 1, 1)
    return mask.crop(ink), (ink[0] - ox, ink[1] - oy)


@lru_cache(maxsize=2048)
def _text_patch(layer: PalettedLayer, text: str, size: int, anchor: str, fx: float, fy: float, fill: Colour,
                on: Colour) -> tuple[Image.Image, Image.Image, tuple[int, int]]:
    """Returns ``text`` in ``fill`` over ``on`` in ``layer``'s palette, its coverage and its offset."""
    mask, offset = _text_mask(text, size, anchor, fx, fy)
    rgb = Image.new("RGB", mask.size, on)
    rgb.paste(fill, (0, 0, *mask.size), mask)
    return layer.to_palette(rgb), _cover(mask), offset


Canvas = RgbCanvas | PalettedCanvas
"""Either canvas: the drawing code takes one and draws the same calls on it."""
