"""The ``/nexo show <unit>`` picture: Move and Dash reach, weapon ranges, sight lines by cover, legibly."""

from __future__ import annotations

import copy
import io
import math
from typing import Any

import pytest
from PIL import Image, ImageChops

from render import render as dispatch
from render.common import MIN_PREVIEW_TEXT, Colour, Label, player_style
from render.nexo import draw, geometry, render, to_px
from render.nexo_field import FIELD, token_radius
from render.nexo_overlay import COVER, MOVE_ALPHA, RANGE_INK, REACH, RING, _reach_layer
from render.nexo_tags import area
from tests.render.test_legibility import inked, small
from tests.render.test_nexo import new_view

UNIT = (24.0, 22.0)
"""Where the shown unit (a3, an outrider: carbine 18", base radius 0.5") stands: open ground."""
MOVE, DASH = 7.0, 9.9


@pytest.fixture(scope="module")
def view() -> dict[str, Any]:
    v = copy.deepcopy(new_view("crossroads"))
    v["models"]["a3"].update(x=UNIT[0], y=UNIT[1])
    v["models"]["b1"].update(x=30.0, y=34.0)
    v["models"]["b2"].update(x=14.0, y=36.0)
    return v


def squares() -> tuple[list[list[float]], list[list[float]]]:
    """Returns the 1" squares within MOVE of the unit, and those within DASH only (about 150 each)."""
    move: list[list[float]] = []
    dash: list[list[float]] = []
    for i in range(-10, 11):
        for j in range(-10, 11):
            x, y = math.floor(UNIT[0]) + i + 0.5, math.floor(UNIT[1]) + j + 0.5
            d = math.hypot(x - UNIT[0], y - UNIT[1])
            if d <= DASH:
                (move if d <= MOVE else dash).append([x, y])
    return move, dash


def overlay(**changes: Any) -> dict[str, Any]:
    move, dash = squares()
    out: dict[str, Any] = {
        "unit": "a3", "cell": 1.0, "move": move, "dash": dash,
        "ranges": [{"weapon": "carbine", "range": 18.0, "melee": False},
                   {"weapon": "knife", "range": 1.0, "melee": True}],
        "sight": [{"target": "b1", "cover": "light", "in_range": True},
                  {"target": "b2", "cover": "heavy", "in_range": True},
                  {"target": "b3", "cover": "none", "in_range": False}]}
    out.update(changes)
    return out


@pytest.fixture(scope="module")
def plain(view: dict[str, Any]) -> Image.Image:
    return draw(view)


@pytest.fixture(scope="module")
def shown(view: dict[str, Any]) -> Image.Image:
    return draw(view, overlay=overlay())


@pytest.fixture(scope="module")
def reach(view: dict[str, Any]) -> Image.Image:
    """Returns the picture with the reach only (no rings or lines crossing the squares)."""
    return draw(view, overlay=overlay(ranges=[], sight=[]))


def interior(view: dict[str, Any], x: float, y: float, inset: int = 3) -> tuple[int, int, int, int]:
    """Returns the pixel box of the 1" square centred on (x, y), shrunk by ``inset``."""
    (left, top), (right, bottom) = to_px(view, x + 0.5, y - 0.5), to_px(view, x - 0.5, y + 0.5)
    return round(left) + inset, round(top) + inset, round(right) - inset, round(bottom) - inset


def clear(view: dict[str, Any], plain: Image.Image, cells: list[list[float]]) -> list[tuple[float, float]]:
    """Returns the squares of one colour in the plain picture (no terrain edge, grid line or mark) away from models."""
    out = []
    for x, y in cells:
        if any(math.hypot(x - m["x"], y - m["y"]) < 3 for m in view["models"].values()):
            continue
        if len(plain.crop(interior(view, x, y)).getcolors(4) or [None] * 2) == 1:
            out.append((x, y))
    return out


def distance(a: Any, b: Any) -> float:
    """Returns how far apart two RGB colours are."""
    return math.dist(a[:3], b[:3])


def owner(view: dict[str, Any], mid: str) -> Colour:
    return player_style(list(view["players"]).index(view["models"][mid]["owner"])).fill


def test_move_squares_are_tinted_towards_the_reach_colour(view: dict[str, Any], plain: Image.Image,
                                                          reach: Image.Image) -> None:
    cells = clear(view, plain, squares()[0])
    assert len(cells) > 20
    colour = REACH
    for x, y in cells:
        cx, cy = to_px(view, x, y)
        px = round(cx), round(cy)
        before, after = plain.getpixel(px), reach.getpixel(px)
        assert after != before and distance(after, colour) < distance(before, colour) - 20, (x, y)
        assert len(reach.crop(interior(view, x, y)).getcolors(4) or [None] * 2) == 1  # an even tint


def test_dash_squares_are_hatched_and_lighter_than_move_squares(view: dict[str, Any], plain: Image.Image,
                                                               reach: Image.Image) -> None:
    cells = clear(view, plain, squares()[1])
    assert len(cells) > 20
    colour = REACH
    move = clear(view, plain, squares()[0])
    for x, y in cells:
        box = interior(view, x, y)
        tones = sorted(reach.crop(box).getcolors(64) or [], reverse=True)
        assert len(tones) >= 2, (x, y)  # hatched: background tone and lines
        ground = tones[0][1]
        base = plain.getpixel(box[:2])
        same = [c for c in move if plain.getpixel(interior(view, *c)[:2]) == base]
        if same:
            tint = reach.getpixel(interior(view, *same[0])[:2])
            assert distance(tint, colour) < distance(ground, colour) < distance(base, colour), (x, y)


def test_sight_lines_take_their_cover_s_colour_and_out_of_range_ones_are_dotted(
        view: dict[str, Any], shown: Image.Image) -> None:
    a = to_px(view, *UNIT)
    for target, cover, solid in (("b1", "light", True), ("b2", "heavy", True), ("b3", "none", False)):
        m = view["models"][target]
        b = to_px(view, m["x"], m["y"])
        hits = [shown.getpixel((round(a[0] + (b[0] - a[0]) * t / 100), round(a[1] + (b[1] - a[1]) * t / 100)))
                == COVER[cover] for t in range(30, 71)]
        if solid:
            assert sum(hits) > 0.6 * len(hits), target  # a ring or a label may cross it
        else:
            assert 0 < sum(hits) < 0.5 * len(hits), target


def ring_share(image: Image.Image, centre: tuple[float, float], radius: float, geo: Any) -> float:
    """Returns the share of the ring's points inside the battlefield (away from its edge) in range ink."""
    hits = total = 0
    for k in range(720):
        ang = math.radians(k / 2)
        x, y = centre[0] + radius * math.cos(ang), centre[1] - radius * math.sin(ang)
        if not (geo.left + 8 < x < geo.left + geo.field_w - 8 and geo.top + 8 < y < geo.top + geo.field_h - 8):
            continue
        total += 1
        hits += any(image.getpixel((round(x + dx * math.cos(ang)), round(y - dx * math.sin(ang)))) == RANGE_INK
                    for dx in (-1, 0, 1))
    return hits / max(total, 1)


def test_a_weapon_s_range_is_a_dashed_ring_from_the_base_edge(view: dict[str, Any], shown: Image.Image) -> None:
    geo = geometry(view)
    centre = to_px(view, *UNIT)
    at = ring_share(shown, centre, (18 + 0.5) * geo.s, geo)
    assert 0.3 < at < 0.8  # dashed: ink about 60 % of the way round
    assert ring_share(shown, centre, 18 * geo.s, geo) < 0.1  # not measured from the centre


def test_the_unit_is_ringed_and_the_panel_names_it(view: dict[str, Any], shown: Image.Image) -> None:
    centre = to_px(view, *UNIT)
    r = 0.55 * geometry(view).s + 10 - 2  # the ring is 4 px wide, inside that radius
    ring = [shown.getpixel((round(centre[0] + r * math.cos(a)), round(centre[1] - r * math.sin(a))))
            for a in (math.radians(d) for d in range(0, 360, 5))]
    assert ring.count(RING) > len(ring) / 3
    labels: list[Label] = []
    draw(view, labels=labels, overlay=overlay())
    texts = [label.text for label in labels if "overlay" in label.roles]
    assert texts[-8:] == ["Showing a3:", "move (shaded),", "dash (hatched),", "ranges,", "sight lines (cover):",
                          "none", "light", "heavy"]


def test_the_picture_keeps_its_size_and_the_dispatcher_passes_the_overlay(view: dict[str, Any]) -> None:
    png = render(view, overlay=overlay())
    image = Image.open(io.BytesIO(png))
    plain = Image.open(io.BytesIO(render(view)))
    geo = geometry(view)
    assert image.size == plain.size == (geo.picture_w, geo.picture_h)
    assert dispatch("nexo", view, overlay=overlay()) == png != render(view)
    assert len(png) <= 400 * 1024


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is None


@pytest.mark.parametrize("stale", [
    {"unit": "zz"}, {"unit": "zz", "move": [[24.5, 22.5]], "sight": [{"target": "b1"}]}, {"unit": None},
    {}, [], "a3", None, {"unit": "A1", "move": [[24.5, 22.5]]},
])
def test_an_overlay_naming_no_model_draws_nothing(view: dict[str, Any], plain: Image.Image, stale: Any) -> None:
    assert same(draw(view, overlay=stale), plain)


def test_unknown_targets_and_malformed_entries_draw_nothing_for_them(view: dict[str, Any]) -> None:
    known = draw(view, overlay=overlay(sight=[{"target": "b1", "cover": "light", "in_range": True}]))
    stale = overlay(sight=[{"target": "b1", "cover": "light", "in_range": True}, {"target": "zz", "cover": "heavy"},
                           {"target": 7}, None, "b2", {"cover": "none"}])
    assert same(draw(view, overlay=stale), known)
    broken = {"unit": "a3", "cell": "big", "move": [[1], "x", None, [1, "a"], [float("nan"), 3]], "dash": 5,
              "ranges": [None, {"range": "far"}, {"weapon": "x"}, "rifle"], "sight": {"target": "b1"}}
    bare = draw(view, overlay={"unit": "a3"})
    assert same(draw(view, overlay=broken), bare)
    assert not same(bare, draw(view))  # the unit is still ringed and named


def test_range_and_cover_labels_are_legible_in_the_preview(view: dict[str, Any]) -> None:
    labels: list[Label] = []
    image = draw(view, labels=labels, overlay=overlay())
    ranges = [label for label in labels if {"overlay", "range"} <= set(label.roles)]
    assert sorted(label.text for label in ranges) == ['carbine 18"', 'knife 1"']
    covers = [label.text for label in labels if {"overlay", "cover"} <= set(label.roles)]
    assert sorted(covers) == ["heavy", "light"]
    assert small(labels, {"range", "cover", "caption", "id", "hp", "to_act"}, image.width) == []
    assert all(inked(image, label) for label in labels if {"range", "cover"} & set(label.roles))
    assert MIN_PREVIEW_TEXT == 9
    tags = [label for label in labels if {"id", "hp"} & set(label.roles) and "overlay" not in label.roles]
    assert tags and not [(r.text, t.text) for r in ranges for t in tags if area(r.box, t.box)]  # off the tags



def test_the_reach_layer_is_cached_and_a_redraw_is_the_same_picture(view: dict[str, Any], shown: Image.Image) -> None:
    _reach_layer.cache_clear()
    first = draw(view, overlay=overlay())
    again = draw(view, overlay=overlay())  # composited from the cached layer, which must not have changed
    assert (_reach_layer.cache_info().misses, _reach_layer.cache_info().hits) == (1, 1)
    assert same(first, shown) and same(again, shown)
    other = draw(view, overlay=overlay(move=squares()[0][:40]))
    assert _reach_layer.cache_info().misses == 2 and not same(other, shown)


def test_the_reach_colour_stands_apart_from_both_zones_and_the_owner_s_own(view: dict[str, Any]) -> None:
    # an orange Move area on the orange deployment zone could not be seen (issue 25)
    zones = [tuple(round(0.78 * f + 0.22 * c) for f, c in zip(FIELD, player_style(i).fill, strict=True))
             for i in range(2)]
    for ground in [*zones, FIELD]:
        shaded = tuple(round(g + (r - g) * MOVE_ALPHA / 255) for g, r in zip(ground, REACH, strict=True))
        assert distance(shaded, ground) > 60, ground
    assert all(distance(REACH, player_style(i).fill) > 150 for i in range(2))
    assert distance(REACH, owner(view, "a3")) > 150


def test_the_unit_shown_is_ringed_twice_so_it_stands_out_in_a_cluster(view: dict[str, Any], plain: Image.Image,
                                                                      shown: Image.Image) -> None:
    geo = geometry(view)
    x, y = to_px(view, view["models"]["a3"]["x"], view["models"]["a3"]["y"])
    r = token_radius(view["models"]["a3"], geo)
    for radius, seen in ((r + 8, 3), (r + 8 + 0.9 * geo.s, 8)):  # the inner one under the tag and the knife's ring
        band = radius - 2  # the middle of the 4-px line drawn inside the radius
        ring = [(round(x + band * math.cos(k / 2)), round(y + band * math.sin(k / 2))) for k in range(12)]
        assert sum(distance(shown.getpixel(p), RING) < 60 for p in ring) >= seen, radius
        assert sum(distance(plain.getpixel(p), RING) < 60 for p in ring) == 0
