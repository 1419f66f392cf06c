"""The NXS picture: both boards, the ships, held territory, highlights, a player panel and a legend.

Drawn from the view only (``engines.nxs.view``). The boards, their tints, the edge labels
(column letters, rank numbers) and the legend come from a cached static layer (:func:`render.nxs_board.static_layer`),
ship tiles from a cached sprite per kind; a render copies the layer, already mapped to its
palette, and draws what changes straight onto it (:mod:`render.nxs_canvas`)::

    >>> from engines.nxs.game import Nxs
    >>> png = render(Nxs.new(["ann", "bob"]).view(None), selected="f4", moves=["g3", "g4", "h3"])
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True

Colour is never the only cue (:mod:`render.nxs_marks`): moves are yellow cells with a
ringed name, captures a cross-hatched band with corner ticks, the selected ship a thick
solid outline, the last move corner brackets joined by an arrow; each ship carries the
first letter of its kind. The picture is near 4:3 and its key texts (ship letters, who is
to act and the step, and every cell name a player types: the edge labels and move targets'
names) stay at least 9 px tall in Discord's 550-px preview; ``labels`` records them for the
tests (``tests/render/test_nxs_legibility.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engines.nxs.board import cell_hex, home_of
from render.common import INK, MUTED, PANEL, Labels, encode, fit, player_style
from render.nxs_board import (
    BLACK_TILE,
    WHITE_TILE,
    Geometry,
    TileStyle,
    board_colours,
    hex_points,
    static_layer,
    tile,
)
from render.nxs_canvas import Canvas, PalettedCanvas, RgbCanvas
from render.nxs_marks import (
    CAPTURE,
    CASING,
    LAST,
    MOVE,
    SELECTED,
    arrow,
    capture_mark,
    last_mark,
    move_mark,
    selected_mark,
)

__all__ = ["CAPTURE", "LAST", "MOVE", "SELECTED", "draw", "render", "tile_style"]

COMPRESS_LEVEL = 6
"""zlib level of the PNG: a paletted picture encodes fast even at this level, and smaller."""
PIECE_SIZE = 0.6
"""Font size of a ship's letter, as a fraction of the hex radius."""
CELL_SIZE = 0.56
"""Font size of a move target's name, as a fraction of the hex radius."""


def tile_style(colour: str, seat: int) -> TileStyle:
    """Returns the tile style of a side: white and black tiles, or the seat's player colour."""
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

    ``selected`` is outlined, ``moves`` filled in yellow, ``captures`` hatched in red, and
    ``view["last_move"]`` bracketed with an arrow. Raises BadNotation for a cell off the boards.
    The picture is drawn in a palette cached per board colouring (:mod:`render.nxs_palette`).
    """
    return encode(paletted(view, selected=selected, moves=moves, captures=captures, scale=scale),
                  compress_level=COMPRESS_LEVEL)


def paletted(
    view: dict[str, Any],
    *,
    selected: str | None = None,
    moves: Iterable[str] = (),
    captures: Iterable[str] = (),
    scale: float = 1.0,
    labels: Labels | None = None,
) -> Image.Image:
    """Returns the picture of :func:`draw` mapped to its board colouring's palette, ready to encode.

    It is drawn straight onto the paletted static layer (:mod:`render.nxs_canvas`), so no
    full-colour picture is made nor mapped; the pixels are those of :func:`draw`'s picture
    mapped to the palette.
    """
    from render.nxs_palette import paletted_layer

    colours = _colours(view)
    tiles = tuple(c for i in range(2) for st in [tile_style(colours[i], i)] for c in (st.fill, st.ink, st.border))
    layer = paletted_layer(scale, colours, draw, tiles)
    pen = PalettedCanvas(layer.image.copy(), layer)
    _draw(pen, view, selected=selected, moves=moves, captures=captures, scale=scale, labels=labels)
    return pen.image


def draw(
    view: dict[str, Any],
    *,
    selected: str | None = None,
    moves: Iterable[str] = (),
    captures: Iterable[str] = (),
    scale: float = 1.0,
    labels: Labels | None = None,
) -> Image.Image:
    """Returns the finished picture in full colour (RGB); :func:`render` draws its paletted twin.

    ``labels``, when a list, receives the texts drawn (ship letters, the panel, move targets'
    names, the edge labels and the legend) with their boxes.
    """
    pen = RgbCanvas(static_layer(scale, _colours(view)).copy())
    _draw(pen, view, selected=selected, moves=moves, captures=captures, scale=scale, labels=labels)
    return pen.image


def _colours(view: dict[str, Any]) -> tuple[str, str]:
    """Returns the colours of the two seats (seat order), "" for a seat without one."""
    players = list(view["players"])
    return (str(view["colours"].get(players[0], "")), str(view["colours"].get(players[1], "")))


def _draw(
    pen: Canvas,
    view: dict[str, Any],
    *,
    selected: str | None,
    moves: Iterable[str],
    captures: Iterable[str],
    scale: float,
    labels: Labels | None,
) -> None:
    """Draws everything but the static layer onto ``pen``, a canvas on a copy of that layer.

    Each anti-aliased piece is told the flat colour under it (``on``), or None where marks
    drawn before it lie under its edges.
    """
    moves, captures = list(moves), list(captures)
    players: list[str] = list(view["players"])
    colours = _colours(view)
    styles = {p: tile_style(colours[i], i) for i, p in enumerate(players)}
    cell_fill = [fill for fill, _ in board_colours(colours)]
    geo = Geometry(scale)
    r = geo.radius
    occupied = {p["cell"].lower() for p in view["pieces"]}

    for cell in moves:
        centre = geo.centre(cell)
        move_mark(pen, centre, r)
        pen.write(labels, "cell", centre, cell.lower(), round(CELL_SIZE * r), CASING, anchor="mm", on=MOVE)
    held = [(styles[owner], cell.lower()) for owner, cells in view["territory"].items() if owner in styles
            for cell in cells]
    for st, cell in held:
        if cell not in occupied:
            _dot(pen, geo.centre(cell), 0.17 * r, st)
    last = view.get("last_move") or {}
    marked = {cell.lower() for cell in moves}
    for end in (last.get("from"), last.get("to")):
        if end:
            last_mark(pen, geo.centre(end), r)
            marked.add(str(end).lower())

    for p in view["pieces"]:
        st = styles[p["owner"]]
        sprite = tile(
            st, scale, p["facing"], tuple(p["arrows"]), int(p["range"]), tuple(p["corners"]), bool(p["immune"])
        )
        cell = p["cell"].lower()
        x, y = geo.centre(cell)
        under = None if cell in marked else cell_fill[home_of(cell_hex(cell))]
        pen.sprite(sprite, (round(x - sprite.width / 2), round(y - sprite.height / 2)), on=under)
        letter = str(p.get("name") or p.get("ship") or "?")[:1].upper()
        pen.write(labels, "piece", (x, y), letter, round(PIECE_SIZE * r), st.ink, anchor="mm", on=st.fill)

    for st, cell in held:  # a held cell with a ship on it: a small dot on its rim, below the tile
        if cell in occupied:
            x, y = geo.centre(cell)
            _dot(pen, (x, y + 0.8 * r), 0.1 * r, st)
    if last.get("from") and last.get("to"):
        arrow(pen, geo.centre(last["from"]), geo.centre(last["to"]), r)
    for cell in captures:
        capture_mark(pen, geo.centre(cell), r)
    if selected:
        selected_mark(pen, geo.centre(selected), r)
    _panel(pen, geo, view, styles, labels)
    if labels is not None:
        labels.extend(static_labels(geo))


def static_labels(geo: Geometry) -> Labels:
    """Returns the labels the static layer holds (edge labels, the legend's words), in picture pixels."""
    from render.nxs_board import SUPERSAMPLE, static_labels_big

    return [label.scaled(1 / SUPERSAMPLE) for label in static_labels_big(geo.scale)]


def _dot(pen: Canvas, centre: tuple[float, float], d: float, st: TileStyle) -> None:
    """Draws a territory dot of radius ``d`` in a side's tile colour, with its border."""
    x, y = centre
    pen.ellipse((x - d, y - d, x + d, y + d), fill=st.fill, outline=st.border, width=max(1, round(0.2 * d)))


_MEASURE = ImageDraw.Draw(Image.new("RGB", (1, 1)))
"""Where texts are measured: as on the full-colour picture, whichever canvas draws them."""


@lru_cache(maxsize=1024)
def _fit(text: str, size: int, width: float) -> str:
    """Returns ``text`` shortened with an ellipsis to fit ``width`` pixels at ``size`` (memoised)."""
    return fit(text, _MEASURE, size, width)


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


def _panel(pen: Canvas, geo: Geometry, view: dict[str, Any], styles: dict[str, TileStyle],
           labels: Labels | None) -> None:
    """Draws the header: each player's colour letter, name, score/target and captures, and the status."""
    s, w, h = geo.scale, geo.width, geo.header
    pen.rectangle((0, 0, w, h), fill=PANEL)
    players = list(view["players"])
    result = view.get("result")
    active = set(result.get("winners") or []) if result else {view.get("turn")}
    card = 0.33 * w
    for i, p in enumerate(players[:2]):
        left = 14 * s if i == 0 else w - 14 * s - card
        box = (left, 10 * s, left + card, h - 10 * s)
        acting = p in active and not result
        if p in active:
            pen.rounded_rectangle(box, radius=12 * s, outline=LAST, width=max(2, round(5 * s)))
        st = styles[p]
        hx, hy, hr = left + 58 * s, h / 2, 42 * s
        pen.polygon(hex_points(hx, hy, hr), fill=st.border)
        pen.polygon(hex_points(hx, hy, hr - 3 * s), fill=st.fill)
        colour = str(view["colours"].get(p, ""))
        roles = ("player", "to_act") if acting else ("player",)
        pen.write(labels, roles, (hx, hy), colour[:1].upper(), round(40 * s), st.ink, anchor="mm", on=st.fill)
        tx, room = left + 114 * s, card - 124 * s
        name = _fit(p, round(44 * s), room)  # a lowercase name is only x-height tall: 44 keeps it 9 px
        pen.write(labels, roles, (tx, 12 * s), name, round(44 * s), INK, on=PANEL)
        score, target = view["score"].get(p, 0), view["target"].get(p, 0)
        taken = view["captured"].get(p, 0)
        line = f"{colour} · {score}/{target} hexes · {taken} taken"
        pen.write(labels, "detail", (tx, 82 * s), _fit(line, round(26 * s), room), round(26 * s), MUTED,
                  on=PANEL)
    head, detail = _status(view)
    mid = w / 2
    room = w - 2 * card - 60 * s
    pen.write(labels, ("winner",) if result else ("to_act", "phase"), (mid, 54 * s),
              _fit(head, round(46 * s), room), round(46 * s), LAST if result else INK, anchor="mm", on=PANEL)
    pen.write(labels, "detail", (mid, 106 * s), _fit(detail, round(24 * s), room), round(24 * s), MUTED,
              anchor="mm", on=PANEL)
