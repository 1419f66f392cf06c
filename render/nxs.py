"""The NXS picture: both boards, the ships, held territory, highlights and a player panel.

Drawn from the view only (``engines.nxs.view``). The boards, their tints and the cell
names come from a cached static layer (:func:`render.nxs_board.static_layer`), ship tiles
from a cached sprite per kind; a render copies the layer and draws what changes::

    >>> from engines.nxs.game import Nxs
    >>> png = render(Nxs.new(["ann", "bob"]).view(None), selected="f4", moves=["g3", "g4", "h3"])
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True

Colour is never the only cue: moves are filled hexes, captures are rings, the selected
ship is a double ring, the last move an outline pair joined by an arrow.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, MUTED, PANEL, Colour, fit, font, player_style, to_png
from render.nxs_board import (
    BLACK_TILE,
    WHITE_TILE,
    Geometry,
    TileStyle,
    hex_points,
    static_layer,
    tile,
)

MOVE: Colour = (240, 228, 66)
"""Okabe–Ito yellow: cells the selected ship may move to."""
CAPTURE: Colour = (226, 52, 32)
"""Red: enemy ships the selected ship may capture."""
SELECTED: Colour = (86, 180, 233)
"""Okabe–Ito sky blue: the selected ship."""
LAST: Colour = (230, 159, 0)
"""Okabe–Ito orange: the last move's two cells and the arrow between them."""
CASING: Colour = (20, 20, 24)


def tile_style(colour: str, seat: int) -> TileStyle:
    """Returns the tile style of a side: white and black tiles, or the seat's Okabe–Ito colour."""
    if colour == "white":
        return WHITE_TILE
    if colour == "black":
        return BLACK_TILE
    style = player_style(seat)
    return TileStyle(style.fill, style.ink, style.ink)


def render(
    view: dict[str, Any],
    *,
    selected: str | None = None,
    moves: Iterable[str] = (),
    captures: Iterable[str] = (),
    scale: float = 1.0,
    **marks: Any,
) -> bytes:
    """Returns the PNG picture of an NXS view; other ``marks`` are accepted and ignored.

    ``selected`` is outlined, ``moves`` filled in yellow, ``captures`` ringed in red, and
    ``view["last_move"]`` outlined with an arrow. Raises BadNotation for a cell off the boards.
    """
    return to_png(draw(view, selected=selected, moves=moves, captures=captures, scale=scale))


def draw(
    view: dict[str, Any],
    *,
    selected: str | None = None,
    moves: Iterable[str] = (),
    captures: Iterable[str] = (),
    scale: float = 1.0,
) -> Image.Image:
    """Returns the finished picture (RGB) before encoding; :func:`render` encodes it."""
    moves, captures = list(moves), list(captures)
    players: list[str] = list(view["players"])
    colours = tuple(view["colours"].get(p, "") for p in players)
    styles = {p: tile_style(colours[i], i) for i, p in enumerate(players)}
    geo = Geometry(scale)
    image = static_layer(scale, (colours[0], colours[1])).copy()
    pen = ImageDraw.Draw(image)
    r = geo.radius
    occupied = {p["cell"].lower() for p in view["pieces"]}

    for cell in moves:
        x, y = geo.centre(cell)
        pen.polygon(hex_points(x, y, 0.9 * r), fill=MOVE, outline=CASING, width=max(1, round(0.03 * r)))
        pen.text((x, y + 0.5 * r), cell.lower(), fill=CASING, font=font(round(0.22 * r)), anchor="mm")
    held = [(styles[owner], cell.lower()) for owner, cells in view["territory"].items() if owner in styles
            for cell in cells]
    for st, cell in held:
        if cell not in occupied:
            _dot(pen, geo.centre(cell), 0.17 * r, st)
    last = view.get("last_move") or {}
    for cell in (last.get("from"), last.get("to")):
        if cell:
            _ring(pen, geo.centre(cell), 0.97 * r, 0.1 * r, LAST)
    for cell in captures:
        _ring(pen, geo.centre(cell), 0.98 * r, 0.14 * r, CAPTURE)
    if selected:
        _ring(pen, geo.centre(selected), 0.98 * r, 0.14 * r, SELECTED)

    for p in view["pieces"]:
        st = styles[p["owner"]]
        sprite = tile(
            st, scale, p["facing"], tuple(p["arrows"]), int(p["range"]), tuple(p["corners"]), bool(p["immune"])
        )
        x, y = geo.centre(p["cell"])
        image.paste(sprite, (round(x - sprite.width / 2), round(y - sprite.height / 2)), sprite)

    for st, cell in held:  # a held cell with a ship on it: a small dot on its rim, below the tile
        if cell in occupied:
            x, y = geo.centre(cell)
            _dot(pen, (x, y + 0.8 * r), 0.1 * r, st)
    if last.get("from") and last.get("to"):
        _arrow(pen, geo.centre(last["from"]), geo.centre(last["to"]), r)
    for cell in captures:  # a cross-hair over the target, so a capture is not told by colour alone
        _crosshair(pen, geo.centre(cell), r)
    _panel(pen, geo, view, styles)
    return image


def _dot(pen: ImageDraw.ImageDraw, centre: tuple[float, float], d: float, st: TileStyle) -> None:
    """Draws a territory dot of radius ``d`` in a side's tile colour, with its border."""
    x, y = centre
    pen.ellipse((x - d, y - d, x + d, y + d), fill=st.fill, outline=st.border, width=max(1, round(0.2 * d)))


def _ring(pen: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, width: float, colour: Colour) -> None:
    """Draws a hexagonal ring of ``width`` just inside a cell's outline."""
    x, y = centre
    outer, inner = hex_points(x, y, radius), hex_points(x, y, radius - width)
    for i in range(6):
        j = (i + 1) % 6
        pen.polygon([outer[i], outer[j], inner[j], inner[i]], fill=colour)


def _crosshair(pen: ImageDraw.ImageDraw, centre: tuple[float, float], r: float) -> None:
    """Draws four short red ticks over a capture target's corners."""
    x, y = centre
    for ang in (0, 60, 120, 180, 240, 300):
        a = math.radians(ang)
        p0 = (x + 0.98 * r * math.cos(a), y + 0.98 * r * math.sin(a))
        p1 = (x + 0.74 * r * math.cos(a), y + 0.74 * r * math.sin(a))
        pen.line([p0, p1], fill=CASING, width=round(0.13 * r))
        pen.line([p0, p1], fill=CAPTURE, width=round(0.07 * r))


def _arrow(pen: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], r: float) -> None:
    """Draws the last move's arrow from cell centre ``a`` to ``b``, outlined for contrast."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    dist = math.hypot(dx, dy) or 1.0
    ux, uy = dx / dist, dy / dist  # along the arrow
    nx, ny = -uy, ux  # across it

    def at(along: float, across: float) -> tuple[float, float]:
        return (a[0] + ux * along + nx * across, a[1] + uy * along + ny * across)

    start, tip = 0.25 * r, dist - 0.72 * r  # the tip stops at the moved ship's tile
    neck, shaft, head = tip - 0.34 * r, 0.06 * r, 0.19 * r
    outline = [
        at(start, shaft), at(neck, shaft), at(neck, head), at(tip, 0),
        at(neck, -head), at(neck, -shaft), at(start, -shaft),
    ]
    pen.polygon(outline, fill=LAST, outline=CASING, width=max(1, round(0.035 * r)))


def _status(view: dict[str, Any]) -> tuple[str, str]:
    """Returns the panel's status line and its detail (whose step, or the result)."""
    result = view.get("result")
    if result:
        winners = result.get("winners") or []
        how = str(result.get("termination", "")).replace("_", " ")
        head = f"{' & '.join(winners)} wins" if winners else "Draw"
        return head, f"game over: {how}" if how else "game over"
    turn, step = view.get("turn"), view.get("step", "move")
    detail = "move or capture, then rotate" if step == "move" else "rotate one ship by one facing"
    return f"{turn} to {step}", detail


def _panel(pen: ImageDraw.ImageDraw, geo: Geometry, view: dict[str, Any], styles: dict[str, TileStyle]) -> None:
    """Draws the header: each player's colour, name, score/target and captures, and the status."""
    s, w, h = geo.scale, geo.width, geo.header
    pen.rectangle((0, 0, w, h), fill=PANEL)
    players = list(view["players"])
    result = view.get("result")
    active = set(result.get("winners") or []) if result else {view.get("turn")}
    card = 0.34 * w
    for i, p in enumerate(players[:2]):
        left = 16 * s if i == 0 else w - 16 * s - card
        box = (left, 12 * s, left + card, h - 12 * s)
        if p in active:
            pen.rounded_rectangle(box, radius=12 * s, outline=LAST, width=max(2, round(4 * s)))
        st = styles[p]
        hx, hy, hr = left + 52 * s, h / 2, 34 * s
        pen.polygon(hex_points(hx, hy, hr), fill=st.border)
        pen.polygon(hex_points(hx, hy, hr - 3 * s), fill=st.fill)
        colour = str(view["colours"].get(p, ""))
        pen.text((hx, hy), colour[:1].upper(), fill=st.ink, font=font(round(30 * s)), anchor="mm")
        tx, room = left + 100 * s, card - 112 * s
        name = fit(p, pen, round(34 * s), room)
        pen.text((tx, 22 * s), name, fill=INK, font=font(round(34 * s)))
        score, target = view["score"].get(p, 0), view["target"].get(p, 0)
        taken = view["captured"].get(p, 0)
        line = f"{colour} · {score}/{target} hexes · {taken} taken"
        pen.text((tx, 68 * s), fit(line, pen, round(24 * s), room), fill=MUTED, font=font(round(24 * s)))
    head, detail = _status(view)
    mid = w / 2
    room = w - 2 * card - 56 * s
    pen.text((mid, 44 * s), fit(head, pen, round(36 * s), room), fill=LAST if result else INK,
             font=font(round(36 * s)), anchor="mm")
    pen.text((mid, 88 * s), fit(detail, pen, round(22 * s), room), fill=MUTED, font=font(round(22 * s)), anchor="mm")
