"""The NXS picture: size, ships, territory, highlights, last move, cached layer, result, its paletted twin."""

from __future__ import annotations

import copy
import io
import itertools
from typing import Any

import pytest
from PIL import Image

import render
from engines.nxs.game import Nxs
from render.common import encode
from render.nxs import CAPTURE, COMPRESS_LEVEL, LAST, MOVE, SELECTED, draw, tile_style
from render.nxs import render as render_nxs
from render.nxs_board import BLACK_TILE, WHITE_TILE, Geometry, static_layer
from render.nxs_marks import CASING
from tests.render.test_nxs_legibility import late

SCALE = 0.5  # half size keeps the tests fast; the geometry is the same


@pytest.fixture(scope="module")
def start() -> dict[str, Any]:
    return Nxs.new(["ann", "bob"], seed=1).view(None)


def pixel(image: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
    return image.getpixel((int(xy[0]), int(xy[1])))  # type: ignore[return-value]


def band(geo: Geometry, cell: str) -> tuple[float, float]:
    """Returns a point inside a cell's outline but outside any ship tile (below the centre)."""
    x, y = geo.centre(cell)
    return (x, y + 0.81 * geo.radius)  # the tile's flat bottom is at 0.76 r, the cell's at 0.87 r


def tile_point(geo: Geometry, cell: str) -> tuple[float, float]:
    """Returns a point on a ship's tile clear of its letter, arrows, pips and wedges."""
    x, y = geo.centre(cell)
    return (x + 0.28 * geo.radius, y)


def band_colours(image: Image.Image, geo: Geometry, cell: str) -> list[tuple[int, int, int]]:
    """Returns the colours met going round a cell just inside its outline (outside any tile)."""
    import math

    x, y = geo.centre(cell)
    out = []
    for k in range(72):
        a = math.radians(5 * k)
        # 0.81 r on the apothem, scaled out towards the corners so the path stays in the band
        side = math.cos(math.radians((5 * k) % 60 - 30))
        rad = 0.81 * geo.radius / side
        out.append(pixel(image, (x + rad * math.cos(a), y + rad * math.sin(a))))
    return out


def test_the_picture_decodes_at_the_expected_size(start: dict[str, Any]) -> None:
    png = render_nxs(start)
    image = Image.open(io.BytesIO(png))
    geo = Geometry(1.0)
    assert image.format == "PNG" and image.size == (geo.width, geo.height)
    assert 1400 <= image.width <= 1600
    assert len(png) <= 200 * 1024


def test_the_dispatcher_draws_nxs_with_this_renderer(start: dict[str, Any]) -> None:
    assert render.render("nxs", start) == render_nxs(start)


def test_each_ship_is_a_tile_in_its_owners_colour(start: dict[str, Any]) -> None:
    image, geo = draw(start, scale=SCALE), Geometry(SCALE)
    assert {p["colour"] for p in start["pieces"]} == {"white", "black"}
    for p in start["pieces"]:
        expected = WHITE_TILE.fill if p["colour"] == "white" else BLACK_TILE.fill
        assert pixel(image, tile_point(geo, p["cell"])) == expected, p["cell"]


def test_other_colours_fall_back_to_the_seat_palette() -> None:
    assert tile_style("white", 1) is WHITE_TILE and tile_style("black", 0) is BLACK_TILE
    assert tile_style("red", 0).fill != tile_style("red", 1).fill


def test_held_territory_is_dotted_in_the_holders_colour(start: dict[str, Any]) -> None:
    view = copy.deepcopy(start)
    view["territory"] = {"ann": ["l4", "m2"], "bob": ["b2", "c6"]}
    image, geo = draw(view, scale=SCALE), Geometry(SCALE)
    plain = draw(start, scale=SCALE)
    for cell in ("l4", "m2"):
        assert pixel(image, geo.centre(cell)) == WHITE_TILE.fill != pixel(plain, geo.centre(cell))
    for cell in ("b2", "c6"):
        assert pixel(image, geo.centre(cell)) == BLACK_TILE.fill != pixel(plain, geo.centre(cell))


def test_moves_are_yellow_and_captures_red(start: dict[str, Any]) -> None:
    geo = Geometry(SCALE)
    plain = draw(start, scale=SCALE)
    marked = draw(start, selected="f4", moves=["g3", "H3"], captures=["i4"], scale=SCALE)
    for cell in ("g3", "h3"):
        x, y = geo.centre(cell)
        point = (x, y + 0.68 * geo.radius)  # between the ring round the name and the cell's edge
        assert pixel(marked, point) == MOVE != pixel(plain, point)
    assert CAPTURE in band_colours(marked, geo, "i4")
    assert pixel(marked, band(geo, "f4")) == SELECTED != pixel(plain, band(geo, "f4"))
    # the ships themselves are still drawn inside their marks
    assert pixel(marked, tile_point(geo, "i4")) == BLACK_TILE.fill
    assert pixel(marked, tile_point(geo, "f4")) == WHITE_TILE.fill


def test_captures_and_the_selection_differ_by_pattern_not_only_colour(start: dict[str, Any]) -> None:
    geo = Geometry(SCALE)
    marked = draw(start, selected="f4", moves=["g3"], captures=["i4"], scale=SCALE)
    hatched, solid = band_colours(marked, geo, "i4"), band_colours(marked, geo, "f4")
    # the capture band is cross-hatched: red and dark alternate many times round the cell
    changes = sum((a == CAPTURE) != (b == CAPTURE) for a, b in itertools.pairwise(hatched))
    assert hatched.count(CASING) >= 10 and changes >= 12
    # the selection is one solid outline
    assert solid.count(SELECTED) == len(solid)
    # a move target is a filled cell with a ring round its name, in neither band's shape
    x, y = geo.centre("g3")
    assert pixel(marked, (x, y + 0.56 * geo.radius)) == CASING
    assert MOVE not in hatched + solid


def test_the_last_move_is_outlined_and_joined_by_an_arrow(start: dict[str, Any]) -> None:
    view = copy.deepcopy(start)
    view["last_move"] = {"kind": "move", "from": "c2", "to": "c5"}
    geo = Geometry(SCALE)
    image, plain = draw(view, scale=SCALE), draw(start, scale=SCALE)
    for cell in ("c2", "c5"):  # brackets on the corners, a broken outline
        x, y = geo.centre(cell)
        corner = (x + 0.93 * geo.radius, y)
        assert pixel(image, corner) == LAST != pixel(plain, corner)
        side = (x + 0.82 * geo.radius * 0.866, y + 0.82 * geo.radius * 0.5)  # mid-side, south-east
        assert pixel(image, side) != LAST
    for cell in ("c3", "c4"):  # the arrow's shaft crosses the cells between
        assert pixel(image, geo.centre(cell)) == LAST != pixel(plain, geo.centre(cell))


def test_the_static_layer_is_built_once_and_never_drawn_on(start: dict[str, Any]) -> None:
    static_layer.cache_clear()
    geo = Geometry(SCALE)
    before = pixel(static_layer(SCALE), geo.centre("g3"))
    static_layer.cache_clear()
    for _ in range(3):
        draw(start, moves=["g3"], scale=SCALE)
    info = static_layer.cache_info()
    assert info.misses == 1 and info.hits == 2
    assert pixel(static_layer(SCALE), geo.centre("g3")) == before != MOVE


def test_rendering_leaves_the_view_unchanged(start: dict[str, Any]) -> None:
    view = copy.deepcopy(start)
    draw(view, selected="f4", moves=["g3"], scale=SCALE)
    assert view == start


def test_a_finished_game_shows_its_result(start: dict[str, Any]) -> None:
    over = copy.deepcopy(start)
    over["turn"] = None
    over["result"] = {"termination": "resign", "winners": ["bob"]}
    geo = Geometry(SCALE)
    image, running = draw(over, scale=SCALE), draw(start, scale=SCALE)
    panel = (0, 0, geo.width, geo.header)
    assert image.crop(panel).tobytes() != running.crop(panel).tobytes()
    middle = image.crop((geo.width // 3, 0, 2 * geo.width // 3, geo.header))
    assert any(rgb == LAST for _, rgb in middle.getcolors(1 << 16) or [])  # the result line is in orange
    assert image.crop((0, geo.header, geo.width, geo.height)) == running.crop((0, geo.header, geo.width, geo.height))


def test_a_drawn_game_says_draw(start: dict[str, Any]) -> None:
    from render.nxs import _status

    over = {**start, "turn": None, "result": {"termination": "repetition", "winners": []}}
    assert _status(over) == ("Draw", "game over: repetition")
    assert _status({**start, "result": {"termination": "target", "winners": ["ann"]}})[0] == "ann wins"
    assert _status(start) == ("ann to move", "move or capture, then rotate")


def test_boards_of_other_colours_take_the_seat_tint(start: dict[str, Any]) -> None:
    view = copy.deepcopy(start)
    view["colours"] = {"ann": "red", "bob": "blue"}
    for p in view["pieces"]:
        p["colour"] = view["colours"][p["owner"]]
    image, geo = draw(view, scale=SCALE), Geometry(SCALE)
    plain = draw(start, scale=SCALE)
    for cell in ("a1", "n1"):
        assert pixel(image, geo.centre(cell)) != pixel(plain, geo.centre(cell))
    assert pixel(image, tile_point(geo, "d4")) == tile_style("red", 0).fill


def _pictures() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Returns views with marks that exercise every part the paletted picture draws."""
    from engines.nxs.view import piece_moves

    first = Nxs.new(["ann", "bob"], seed=1).view(None)
    out: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
        ("start", first, {"selected": "f4", "moves": ["g3", "H3"], "captures": ["i4"], "scale": SCALE}),
    ]
    for turns in (7, 60):
        view = late("medium", turns=turns)
        mover = view["turn"] or view["players"][0]
        for p in [p for p in view["pieces"] if p["owner"] == mover][:3]:
            out.append((f"late {turns} {p['cell']}", view, {"selected": p["cell"], **piece_moves(view, p["cell"])}))
    over = copy.deepcopy(late("medium", turns=20))
    over["turn"] = None
    over["result"] = {"termination": "resign", "winners": ["bob"]}
    out.append(("over", over, {}))
    tinted = copy.deepcopy(first)
    tinted["colours"] = {"ann": "red", "bob": "blue"}
    tinted["territory"] = {"ann": ["l4", "f4"], "bob": ["b2"]}
    tinted["last_move"] = {"kind": "move", "from": "f4", "to": "g4"}  # ships on both last-move cells
    out.append(("tinted", tinted, {"moves": ["f4"], "captures": ["i4"], "scale": SCALE}))  # and on a move target
    return out


@pytest.mark.parametrize(("name", "view", "marks"), _pictures(), ids=[n for n, _, _ in _pictures()])
def test_the_paletted_picture_is_the_full_colour_one_mapped_to_the_palette(
    name: str, view: dict[str, Any], marks: dict[str, Any]
) -> None:
    from render.nxs import paletted
    from render.nxs_palette import paletted_layer

    picture = paletted(view, **marks)
    players = list(view["players"])
    colours = (view["colours"][players[0]], view["colours"][players[1]])
    tiles = tuple(c for i in range(2) for st in [tile_style(colours[i], i)] for c in (st.fill, st.ink, st.border))
    layer = paletted_layer(marks.get("scale", 1.0), colours, draw, tiles)
    expected = layer.to_palette(draw(view, **marks))
    assert picture.mode == "P" and picture.getpalette() == expected.getpalette()
    assert picture.tobytes() == expected.tobytes(), name
    assert render_nxs(view, **marks) == encode(expected, compress_level=COMPRESS_LEVEL)


def test_a_text_over_marks_is_composed_over_what_lies_under_it() -> None:
    """Text drawn with no flat colour under it is blended over the picture's own pixels."""
    from render.common import INK, PANEL
    from render.nxs_canvas import PalettedCanvas, PalettedLayer, RgbCanvas

    base = Image.new("RGB", (60, 30), PANEL)
    base.paste(MOVE, (30, 0, 60, 30))  # the text straddles two flat colours
    palette = Image.new("P", (1, 1))
    palette.putpalette([*PANEL, *MOVE, *INK, *CASING] + [v for k in range(1, 33) for v in (8 * k - 1,) * 3])
    layer = PalettedLayer.of(base, palette, [PANEL, MOVE, INK])
    rgb, art = RgbCanvas(base.copy()), PalettedCanvas(layer.image.copy(), layer)
    for pen in (rgb, art):
        pen.write(None, "detail", (30.4, 15.7), "move d4", 16, INK, anchor="mm")
    assert art.image.tobytes() == layer.to_palette(rgb.image).tobytes()
    assert len(art.image.getcolors() or []) > 3  # the text's edges are blended, not only its three flat colours
