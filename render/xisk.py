"""The XISK picture: the felt with every country's owner and chips, and a panel below it.

Drawn from the spectator view (``view(None)``) only, so it cannot show a hidden hand.
The felt, the palette and the disc patches are built once and cached
(:mod:`render.xisk_palette`); each call copies the paletted felt, pastes a patch per
country, draws the last attack's arrow and maps a freshly drawn panel. The picture is
800×600, so Discord's 550-px preview still shows every chip count, every country's code
(which moves accept for the country), the phase and who is to act at least 9 px tall
(``labels`` records every such text for the tests)::

    >>> from engines.xisk.board import load_board
    >>> view = {"phase": "claim", "turn": None, "to_act": ["ann"], "order": [],
    ...         "countries": {c: {"owner": None, "chips": 0} for c in load_board().countries},
    ...         "cards_held": {"ann": 14, "bob": 14}, "sets_redeemed": 0, "next_set_value": 1,
    ...         "supply_left": 0, "claims_left": 28, "invade": None, "last_battle": None,
    ...         "eliminated": [], "winner": None}
    >>> picture = render(view)
    >>> picture[:4] + picture[8:12] == b"RIFFWEBP"
    True

Marks: ``highlight`` (country ids) rings those countries in white.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from PIL import Image, ImageDraw

from render.common import Labels, to_webp
from render.xisk_layers import OUTLINE, RADIUS, SCALE, chip_label, count_ink, is_wrapped, owner_style, px, wrap_stub
from render.xisk_palette import WHITE, PalettedFelt, disc_patch, paletted_felt
from render.xisk_panel import draw_panel, seats

WEBP_METHOD, WEBP_EFFORT = 1, 25
"""Lossless WebP's method and effort for the paletted picture, the fewest bytes within the time allowed.

Measured over the 173 moves of ``bench/bytes.py`` (800×600, flat continents): PNG at zlib level 6 is
43.8 KiB a move in 6.6 ms, WebP method 1 effort 25 38.3 KiB in 18.6 ms, effort 30 33.4 KiB in 22.5 ms;
with the drawing (2.5 ms) effort 25 is about today's CPU per move of the 1600-px PNG it replaced, and 30 near
its 1.3× limit, which a busy moment would cross. The pixels are identical to the paletted picture's."""

Point = tuple[float, float]


def render(view: dict[str, Any], **marks: Any) -> bytes:
    """Returns the picture (lossless WebP) of a spectator view of XISK; ``marks`` may name ``highlight``."""
    return to_webp(draw_picture(view, **marks), method=WEBP_METHOD, effort=WEBP_EFFORT)


def draw_picture(view: dict[str, Any], *, highlight: Iterable[str] = (), labels: Labels | None = None,
                 **_: Any) -> Image.Image:
    """Returns the finished paletted picture (not yet encoded) of ``view``; unknown marks are ignored.

    ``labels``, when a list, receives every chip count, country code and name and panel text drawn,
    with its box.
    """
    felt = paletted_felt()
    board = felt.layer.board
    image = felt.image.copy()
    players = seats(view)
    seat_of = {p: i for i, p in enumerate(players)}
    countries = view.get("countries") or {}
    for c, (x, y) in board.positions.items():
        info = countries.get(c) or {}
        owner = info.get("owner")
        chips = int(info.get("chips") or 0)
        text = "" if owner is None and chips == 0 else str(chips)
        patch = disc_patch(c, owner_style(owner, seat_of), text, count_ink(owner, seat_of))
        image.paste(patch, (x - patch.width // 2, y - patch.height // 2))
        if text and labels is not None:
            labels.append(chip_label((x, y), text))
    draw = ImageDraw.Draw(image)
    white = felt.index(WHITE)
    for c in highlight:
        if c in board.positions:
            x, y = board.positions[c]
            r = RADIUS + px(5)
            draw.ellipse((x - r, y - r, x + r, y + r), outline=white, width=px(3))
    battle = view.get("last_battle")
    if battle and battle.get("from") in board.positions and battle.get("to") in board.positions:
        _arrow(felt, draw, battle["from"], battle["to"], head=False)
        _names_on_top(felt, image, _arrow_box(felt, battle["from"], battle["to"]))
        _arrow(felt, draw, battle["from"], battle["to"], head=True)
    panel = felt.panel.copy()
    draw_panel(panel, view, players, board.names, labels=labels, top=felt.layer.map_height, codes=board.codes)
    if labels is not None:
        labels.extend(felt.layer.texts)
    image.paste(felt.to_palette(panel), (0, felt.layer.map_height))
    return image


def _arrow_box(felt: PalettedFelt, src: str, dst: str) -> tuple[float, float, float, float]:
    """Returns a box around everything the arrow from ``src`` to ``dst`` may cover."""
    board = felt.layer.board
    points: list[tuple[float, float]] = [board.positions[src], board.positions[dst]]
    if is_wrapped(board, src, dst):
        points += [wrap_stub(board, src, dst)[1], wrap_stub(board, dst, src)[1]]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    m = px(21)
    return min(xs) - m, min(ys) - m, max(xs) + m, max(ys) + m


def _names_on_top(felt: PalettedFelt, image: Image.Image, area: tuple[float, float, float, float]) -> None:
    """Lays the country names in ``area`` back over what was drawn across them (they stay readable)."""
    layer = felt.layer
    for box in layer.labels.values():
        if box[0] < area[2] and area[0] < box[2] and box[1] < area[3] and area[1] < box[3]:
            image.paste(felt.image.crop(box), box[:2], layer.label_mask.crop(box))


def _toward(a: Point, b: Point, dist: float) -> Point:
    """Returns the point ``dist`` pixels from ``a`` toward ``b``."""
    length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    return a[0] + (b[0] - a[0]) * dist / length, a[1] + (b[1] - a[1]) * dist / length


def _segments(felt: PalettedFelt, src: str, dst: str) -> list[tuple[Point, Point]]:
    """Returns the arrow's shafts from ``src`` to ``dst``: one, or two stubs for a wrapped line."""
    board = felt.layer.board
    if is_wrapped(board, src, dst):
        a0, a1 = wrap_stub(board, src, dst)
        b1, b0 = wrap_stub(board, dst, src)
        return [(_toward(a0, a1, RADIUS + px(3)), a1), (b0, _toward(b1, b0, RADIUS + px(3)))]
    a, b = board.positions[src], board.positions[dst]
    return [(_toward(a, b, RADIUS + px(1)), _toward(b, a, RADIUS + px(1)))]


def _arrow(felt: PalettedFelt, draw: ImageDraw.ImageDraw, src: str, dst: str, *, head: bool) -> None:
    """Draws the last attack's arrow shafts, or (``head``) its head at ``dst``, outlined in dark."""
    white, dark = felt.index(WHITE), felt.index(OUTLINE)
    segments = _segments(felt, src, dst)
    start, end = segments[-1]
    angle = math.atan2(end[1] - start[1], end[0] - start[0])
    length = math.hypot(end[0] - start[0], end[1] - start[1])
    size = min(19.0 * SCALE, max(11.0 * SCALE, length * 0.6))
    if head:
        wings = [(end[0] - size * math.cos(angle + s), end[1] - size * math.sin(angle + s)) for s in (0.45, -0.45)]
        draw.polygon([end, *wings], fill=white, outline=dark, width=px(2))
        return
    segments[-1] = (start, _toward(end, start, size * 0.6))
    for a, b in segments:
        draw.line((*a, *b), fill=dark, width=px(9))
        draw.line((*a, *b), fill=white, width=px(5))
