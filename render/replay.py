"""A game's replay as an animated GIF: one frame per turn, each captioned with its turn and player.

:func:`animate` takes the frames of :func:`host.replay.turn_views` (anything with ``view``,
``turn``, ``player`` and ``caption``) and returns the GIF's bytes::

    >>> from host.replay import turn_views
    >>> gif = animate("nxs", turn_views("nxs", ["Ann", "Bob"], 1, {}, []))
    >>> gif[:6], Image.open(io.BytesIO(gif)).size
    (b'GIF89a', (752, 619))

GIF, not APNG: Discord's clients animate an attached GIF inline, while an attached APNG is
often shown as a still picture (APNG is animated reliably only as a sticker). Each frame is
the game's own picture (the spectator view) scaled down to about :data:`WIDTH` pixels
(:func:`shrink`): the pictures' smallest texts are drawn to be read in Discord's 550-px
preview, so at 800 px they stay larger than they were designed for. A caption bar above
it names the turn and its player. Each frame shows for :data:`DURATION` ms, the last for
:data:`LAST_DURATION`, and the animation loops forever.

Speed and size: the frames share one palette, built once (median cut) from a few frames
spread over the game and a caption bar, and every frame is mapped to it without dithering
(a fast lookup, and flat colours compress well). Frames are written by a small streaming
writer: after the first, each frame is only the box of pixels that changed since the
previous one, with the pixels that did not change inside it transparent (long runs LZW
packs into little), so a turn that moves a few chips costs a few kilobytes. Frames are
written as they are drawn, so only two are held at a time.

The GIF never exceeds ``limit`` bytes: when the whole game does not fit, frames are
skipped and the kept ones drawn and written again. A try stops as soon as it is over, or
when its first quarter projects well over, and its size so far sets how many to skip. The
first and the last frame are always kept and every ``k``-th frame between them, with "every
2nd frame" on each caption. :class:`TooLarge` is raised only when the first and last frame
alone do not fit.

All of this is CPU work with no I/O: a caller on an event loop runs it in a worker thread;
``progress(done, total)`` is called from that thread as each frame is drawn.
"""

from __future__ import annotations

import io
import math
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from engines.core.registry import KITS
from render import render
from render.common import INK, MUTED, PANEL, fit, font

WIDTH = 800
"""Width in pixels of the animation."""
BAR = 40
"""Height in pixels of the caption bar above each picture."""
CAPTION_SIZE = 24
"""Font size of the caption."""
DURATION = 700
"""Milliseconds each frame shows."""
LAST_DURATION = 3000
"""Milliseconds the last frame shows before the animation starts again."""
LIMIT = 8_000_000
"""Discord's upload limit: the most bytes the GIF may have."""
SAMPLES = 5
"""Frames, spread over the game, that the shared palette is built from."""
PROJECT_FROM = 20
PROJECT_OVER = 1.25
"""A try gives up early, after a quarter of its frames (and at least :data:`PROJECT_FROM`), when the
size so far, projected over all its frames, is over the limit by this factor."""
TRANSPARENT = 255
"""The palette index of "unchanged since the previous frame" (the 255 colours of the pictures use 0–254)."""

class TooLarge(ValueError):
    """Even the first and the last frame alone are over the size limit."""


class ReplayFrame(Protocol):
    """What :func:`animate` reads of a frame (see :class:`host.replay.Frame`)."""

    @property
    def view(self) -> dict[str, Any]: ...

    @property
    def turn(self) -> int: ...

    @property
    def player(self) -> str | None: ...

    @property
    def caption(self) -> str: ...


Progress = Callable[[int, int], object]


def picture(game: str, view: dict[str, Any]) -> Image.Image:
    """Returns the game's full-size picture of ``view`` in RGB (decoded from its PNG for a game with no draw)."""
    kit = KITS.get(game)
    if kit is not None and kit.picture is not None:
        image: Image.Image = kit.picture(view)
    else:
        image = Image.open(io.BytesIO(render(game, view)))
    return image if image.mode == "RGB" else image.convert("RGB")


def shrink(image: Image.Image, width: int = WIDTH) -> Image.Image:
    """Returns the picture scaled down to about ``width`` pixels wide.

    A whole factor that lands within 10% of ``width`` is used as it is (``reduce``: a box filter,
    and the fastest), so an NXS picture of 1,504 px becomes 752 px; else the picture is reduced
    by the whole part of the factor and then box-filtered to exactly ``width``.
    """
    if image.width <= width:
        return image
    whole = round(image.width / width)
    if whole >= 2 and abs(image.width / whole - width) <= 0.1 * width:
        return image.reduce(whole)
    height = max(1, round(image.height * width / image.width))
    return image.resize((width, height), Image.Resampling.BOX, reducing_gap=1.0)


def ordinal(n: int) -> str:
    """Returns "2nd", "3rd", "11th", "22nd".

    >>> [ordinal(n) for n in (2, 3, 4, 11, 12, 13, 21, 22, 103)]
    ['2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '103rd']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def caption_bar(text: str, note: str = "", width: int = WIDTH) -> Image.Image:
    """Returns the RGB caption bar: the caption on the left, ``note`` (muted) on the right."""
    bar = Image.new("RGB", (width, BAR), PANEL)
    pen = ImageDraw.Draw(bar)
    pad, right = 12, width - 12
    if note:
        right -= int(pen.textlength(note, font=font(CAPTION_SIZE - 4))) + 16
        pen.text((width - 12, BAR / 2), note, font=font(CAPTION_SIZE - 4), fill=MUTED, anchor="rm")
    pen.text((pad, BAR / 2), fit(text, pen, CAPTION_SIZE, right - pad), font=font(CAPTION_SIZE), fill=INK,
             anchor="lm")
    return bar


def shared_palette(samples: Sequence[Image.Image]) -> Image.Image:
    """Returns a paletted image whose 255 colours (median cut) suit the sample pictures and the caption."""
    width = max(s.width for s in samples)
    bar = caption_bar("Turn 0123456789 · Game over: the players win, so far", "every 2nd frame", width)
    montage = Image.new("RGB", (width, bar.height + sum(s.height for s in samples)), PANEL)
    montage.paste(bar, (0, 0))
    y = bar.height
    for s in samples:
        montage.paste(s, (0, y))
        y += s.height
    return montage.quantize(TRANSPARENT, method=Image.Quantize.MEDIANCUT)


@dataclass(frozen=True)
class Animation:
    """A drawn replay: the GIF, and which turns it shows (every ``step``-th, with the first and last)."""

    gif: bytes
    step: int
    kept: list[int]


def animate(game_name: str, frames: Sequence[ReplayFrame], *, limit: int = LIMIT,
            progress: Progress | None = None, width: int = WIDTH) -> bytes:
    """Returns the replay as an animated GIF of at most ``limit`` bytes (see :func:`animation`)."""
    return animation(game_name, frames, limit=limit, progress=progress, width=width).gif


def animation(game_name: str, frames: Sequence[ReplayFrame], *, limit: int = LIMIT,
              progress: Progress | None = None, width: int = WIDTH) -> Animation:
    """Returns the replay as an animated GIF of at most ``limit`` bytes; raises TooLarge when it cannot.

    ``progress(done, total)`` is called as frames are drawn, ``done`` never going back (a second
    try that skips frames catches up silently before it goes on). Raises ValueError with no frames.
    """
    if not frames:
        raise ValueError("A replay needs at least one frame.")
    total = len(frames)
    spread = sorted({round(i * (total - 1) / max(1, SAMPLES - 1)) for i in range(SAMPLES)})
    drawn = {i: shrink(picture(game_name, frames[i].view), width) for i in spread}
    palette = shared_palette([drawn[i] for i in spread])
    done = 0

    def mapped(i: int) -> Image.Image:
        nonlocal done
        rgb = drawn.pop(i, None) or shrink(picture(game_name, frames[i].view), width)
        indices = _indices(rgb.quantize(palette=palette, dither=Image.Dither.NONE))
        if progress is not None and i + 1 > done:
            done = i + 1
            progress(done, total)
        return indices

    step = 1
    while True:
        kept = kept_turns(total, step)
        gif, estimate = _encode(frames, mapped, kept, palette, step, limit)
        if gif is not None:
            if progress is not None and done < total:
                progress(total, total)
            return Animation(gif, step, kept)
        if len(kept) <= 2:
            raise TooLarge(f"Even the first and last frame take {estimate} bytes, over {limit}.")
        step = max(step + 1, math.ceil(step * estimate / limit * 1.05))


def kept_turns(total: int, step: int) -> list[int]:
    """Returns the frames kept showing every ``step``-th turn: the first, every step-th, the last.

    >>> kept_turns(10, 1) == list(range(10)), kept_turns(10, 4), kept_turns(10, 20)
    (True, [0, 4, 8, 9], [0, 9])
    """
    return sorted({*range(0, total, step), total - 1})


def _indices(image: Image.Image) -> Image.Image:
    """Returns a paletted image's indices as an "L" image (the GIF's global colour table colours them)."""
    return Image.frombytes("L", image.size, image.tobytes())


def _encode(frames: Sequence[ReplayFrame], mapped: Callable[[int], Image.Image], kept: list[int],
            palette: Image.Image, step: int, limit: int) -> tuple[bytes | None, int]:
    """Writes the GIF of the ``kept`` frames; returns it, or None and the size it would reach when over ``limit``.

    The frame's pictures come from ``mapped(i)`` (palette indices); a try stops as soon as it is over,
    or once a quarter of it projects over ``limit`` by :data:`PROJECT_OVER`.
    """
    note = f"every {ordinal(step)} frame" if step > 1 else ""
    colours = (palette.getpalette() or [])[: 3 * TRANSPARENT]
    colours += [0] * (768 - len(colours))
    out: list[bytes] = []
    size = 1
    previous: Image.Image | None = None
    for n, i in enumerate(kept):
        picture = mapped(i)
        if previous is None:
            width, height = picture.width, BAR + picture.height
            out += [b"GIF89a", struct.pack("<HHBBB", width, height, 0xF7, 0, 0), bytes(colours),
                    b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"]
            size += sum(len(b) for b in out)
        if picture.size != (width, height - BAR):  # a picture of another size: fitted, indices kept
            picture = picture.resize((width, height - BAR), Image.Resampling.NEAREST)
        canvas = Image.new("L", (width, height), 0)
        canvas.paste(_indices(caption_bar(frames[i].caption, note, width).quantize(
            palette=palette, dither=Image.Dither.NONE)), (0, 0))
        canvas.paste(picture, (0, BAR))
        duration = LAST_DURATION if i == kept[-1] else DURATION
        if previous is None:
            chunks = GifImagePlugin.getdata(canvas, (0, 0), duration=duration, disposal=1)
        else:
            chunks = _delta(previous, canvas, duration)
        previous = canvas
        size += sum(len(c) for c in chunks)
        out.extend(chunks)
        projected = math.ceil(size * len(kept) / (n + 1))
        if size > limit or (n + 1 >= max(PROJECT_FROM, len(kept) // 4) and projected > PROJECT_OVER * limit):
            return None, projected
    out.append(b";")
    return b"".join(out), size


def _delta(previous: Image.Image, current: Image.Image, duration: int) -> list[bytes]:
    """Returns the GIF blocks of ``current`` drawn over ``previous``: its changed box, unchanged pixels transparent."""
    delta = ImageChops.subtract_modulo(current, previous)
    box = delta.getbbox()
    if box is None:  # nothing changed: one transparent pixel keeps the frame (and its time)
        box = (0, 0, 1, 1)
    part = current.crop(box)
    unchanged = delta.crop(box).point([255, *(0,) * 255], "1")
    part.paste(TRANSPARENT, mask=unchanged)
    return GifImagePlugin.getdata(part, box[:2], duration=duration, disposal=1, transparency=TRANSPARENT)
