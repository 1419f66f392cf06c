"""The Nexohominis picture: every preset and a generated battlefield, tokens where models stand, legibility."""

from __future__ import annotations

import copy
import io
import random
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from engines import GAMES
from engines.nexo.data import default_ruleset
from render import render as dispatch
from render.common import INK, MIN_PREVIEW_TEXT, PREVIEW_WIDTH, Colour, Label, font, player_style
from render.nexo import draw, geometry, render, to_act, to_px
from render.nexo_field import _glyphs, _layer, draw_text, field_key, ink_box, static_layer, text_length

ASPECT = (1.2, 1.45)
BATTLEFIELDS = [*sorted(default_ruleset().presets), "random"]


def new_view(battlefield: str, seed: int = 1) -> dict[str, Any]:
    return GAMES["nexo"].new(["ann", "bob"], seed, {"battlefield": battlefield}).view(None)


def played_view(seed: int = 2, moves: int = 10) -> dict[str, Any]:
    """Returns the spectator view after random legal moves of a seeded game."""
    g = GAMES["nexo"].new(["ann", "bob"], seed, {})
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        player = g.to_act()[0]
        legal = [m for m in g.legal_moves(player) if not m.startswith(("concede", "resign"))]
        if not legal:
            break
        g.play(player, rng.choice(legal))
    return g.view(None)


def marked_view() -> dict[str, Any]:
    """Returns a view with every mark: WIA, Overwatch, a wreck, a site, Blackout, last move and attack."""
    v = copy.deepcopy(new_view("crossroads"))
    v["phase"], v["turn"] = "action", "bob"
    v["models"]["a1"].update(wia="pinned", hp=2)
    v["models"]["b1"]["overwatch"] = True
    v["buildings"]["A2"].update(wreck=True, hp=0)
    v["buildings"]["B2"].update(complete=False, build_points=2, hp=10)
    v["players"]["ann"]["blackout"] = True
    v["players"]["bob"]["reserve"] = ["drudge"]
    v["last_move"] = {"model": "a2", "path": [[20.0, 6.0], [24.0, 8.0], [27.0, 10.0]]}
    v["last_attack"] = {"attacker": "a3", "target": "b1", "result": "2 hits: 4 damage"}
    return v


VIEWS: dict[str, Any] = {name: (lambda n=name: new_view(n)) for name in BATTLEFIELDS}
VIEWS["random, seed 7"] = lambda: new_view("random", 7)
VIEWS["played"] = played_view
VIEWS["marked"] = marked_view


@pytest.fixture(scope="module", params=list(VIEWS))
def view(request: pytest.FixtureRequest) -> dict[str, Any]:
    return VIEWS[request.param]()


def test_the_picture_decodes_as_webp_near_4_3_and_the_dispatcher_uses_it(view: dict[str, Any]) -> None:
    png = render(view)
    image = Image.open(io.BytesIO(png))
    image.load()
    geo = geometry(view)
    assert image.format == "WEBP" and image.size == (geo.picture_w, geo.picture_h)
    assert ASPECT[0] <= image.width / image.height <= ASPECT[1]
    assert image.width >= 2 * PREVIEW_WIDTH  # sharp when opened on a phone, not only in the preview
    assert dispatch("nexo", view) == png
    assert len(png) <= 400 * 1024


def test_each_model_s_token_is_drawn_where_it_stands_in_its_owner_s_colour(view: dict[str, Any]) -> None:
    image = draw(view)
    seats = {p: i for i, p in enumerate(view["players"])}
    assert view["models"]
    for mid, m in view["models"].items():
        x, y = to_px(view, m["x"], m["y"])
        want = player_style(seats[m["owner"]]).fill
        for dx, dy in ((0, 0), (3, 0), (-3, 0), (0, 3), (0, -3)):
            assert image.getpixel((round(x) + dx, round(y) + dy)) == want, (mid, dx, dy)


def test_inches_map_to_the_battlefield_box_turned_a_quarter() -> None:
    v = new_view("crossroads")
    geo = geometry(v)
    assert to_px(v, 44, 0) == (geo.left, geo.top)
    assert to_px(v, 0, 60) == (geo.left + geo.field_w, geo.top + geo.field_h)
    assert geo.field_w / geo.field_h == pytest.approx(60 / 44)
    assert (geo.cell(0.5, 0.5), geo.cell(43.5, 59.5), geo.cell(4.1, 10.0)) == ("A1", "V30", "C6")


def small(labels: list[Label], roles: set[str], width: int) -> list[tuple[str, float]]:
    return [(label.text, round(label.preview_height(width), 2)) for label in labels
            if roles & set(label.roles) and label.preview_height(width) < MIN_PREVIEW_TEXT]


def test_ids_hp_and_who_acts_are_legible_in_the_preview(view: dict[str, Any]) -> None:
    labels: list[Label] = []
    image = draw(view, labels=labels)
    ids = [label.text for label in labels if {"model", "id"} <= set(label.roles)]
    assert sorted(ids) == sorted(view["models"])
    hps = [label.text for label in labels if {"model", "hp"} <= set(label.roles)]
    assert sorted(hps) == sorted(str(m["hp"]) for m in view["models"].values())
    acting = [label for label in labels if "to_act" in label.roles]
    who = to_act(view) or " & ".join(view["winners"]) or "draw"
    assert acting and any(who in label.text for label in acting)
    assert small(labels, {"id", "hp", "to_act"}, image.width) == []
    assert PREVIEW_WIDTH == 550 and MIN_PREVIEW_TEXT == 9


def test_marks_are_drawn_and_named() -> None:
    v = marked_view()
    labels: list[Label] = []
    image = draw(v, labels=labels)
    texts = {label.text: label for label in labels}
    assert "BLACKOUT" in texts and "2 hits: 4 damage" in texts
    assert texts["A2"].roles == ("wreck", "id") and texts["wreck"].roles == ("wreck", "wreck")  # its tag [A2|wreck]
    assert [label.text for label in labels if label.roles == ("model", "wia")] == ["P"]  # in its model's tag
    assert "10 2/6" in texts  # the site's HP and its Build Points of the needed 6
    assert "bob to act" in texts
    plain = draw(new_view("crossroads"))
    x, y = to_px(v, 24.0, 8.0)  # a corner of the last move's path: white
    assert image.getpixel((round(x), round(y))) == (255, 255, 255) != plain.getpixel((round(x), round(y)))


def test_a_finished_game_names_its_winner() -> None:
    v = copy.deepcopy(new_view("dust_belt"))
    v["result"], v["winners"], v["phase"] = {"winner": "bob"}, ["bob"], "over"
    labels: list[Label] = []
    image = draw(v, labels=labels)
    winner = [label for label in labels if "winner" in label.roles]
    assert [label.text for label in winner] == ["bob wins"]
    assert small(labels, {"winner"}, image.width) == []


def test_the_static_layer_is_cached_per_battlefield_content() -> None:
    a, b = new_view("crossroads"), new_view("crossroads", seed=5)
    assert field_key(a) == field_key(b) and static_layer(a) is static_layer(b)
    c = new_view("dust_belt")
    assert static_layer(c) is not static_layer(a)
    moved = copy.deepcopy(a)
    moved["models"]["a1"]["x"] += 2
    assert static_layer(moved) is static_layer(a)
    before = _layer.cache_info().hits
    render(a)
    assert _layer.cache_info().hits == before + 1
    assert render(a) != render(moved)


@pytest.mark.parametrize("xy", [(10.0, 30.0), (10.25, 30.5), (11.7, 29.1)])
@pytest.mark.parametrize(("anchor", "stroke", "edge"), [("la", 0, None), ("lm", 0, None), ("mm", 2, (0, 0, 0)),
                                                        ("ma", 3, None)])
def test_cached_text_is_pixel_for_pixel_image_draw_text(xy: tuple[float, float], anchor: str, stroke: int,
                                                        edge: Colour | None) -> None:
    expected, drawn = Image.new("RGB", (160, 70), (58, 64, 56)), Image.new("RGB", (160, 70), (58, 64, 56))
    ImageDraw.Draw(expected).text(xy, "a12 7", font=font(40), fill=INK, anchor=anchor, stroke_width=stroke,
                                  stroke_fill=edge)
    _glyphs.cache_clear()
    draw_text(ImageDraw.Draw(drawn.copy()), xy, "a12 7", 40, INK, anchor=anchor, stroke=stroke, stroke_fill=edge)
    draw_text(ImageDraw.Draw(drawn), xy, "a12 7", 40, INK, anchor=anchor, stroke=stroke, stroke_fill=edge)
    assert _glyphs.cache_info().hits > 0  # the second draw came from the cache
    assert expected.tobytes() == drawn.tobytes()
    assert len(expected.getcolors(1 << 16) or []) > 2  # inked, antialiased


def test_a_picture_is_the_same_with_its_caches_cold_or_warm() -> None:
    v = played_view(moves=40)
    for cached in (_glyphs, ink_box, text_length):
        cached.cache_clear()
    cold_labels: list[Label] = []
    cold = draw(v, labels=cold_labels)
    assert _glyphs.cache_info().misses > 0
    hits = _glyphs.cache_info().hits
    warm_labels: list[Label] = []
    warm = draw(v, labels=warm_labels)
    assert _glyphs.cache_info().hits > hits
    assert cold.tobytes() == warm.tobytes() and cold_labels == warm_labels


def test_no_text_is_clipped_with_32_character_names() -> None:
    names = ["Alexandria Montgomery-Fitzgerald", "Bartholomew Jones the Third Esq."]
    assert all(len(n) == 32 for n in names)
    view = GAMES["nexo"].new(names, 1, {}).view(None)
    labels: list[Label] = []
    image = draw(view, labels=labels)
    geo = geometry(view)
    assert all(min(b[0], b[1]) >= 0 and b[2] <= image.width and b[3] <= image.height
               for b in (label.box for label in labels))
    panel = [label for label in labels if {"player", "to_act", "economy", "round"} & set(label.roles)]
    assert all(geo.panel_x <= label.box[0] and label.box[2] <= geo.panel_x + geo.panel_w for label in panel)
    shortened = [label.text for label in panel if "player" in label.roles]
    assert len(shortened) == 2 and all(t.endswith("…") and names[k].startswith(t[:-1])
                                       for k, t in enumerate(shortened))


def test_the_rules_summary_places_the_deployment_zones_where_the_picture_draws_them() -> None:
    text = (Path(__file__).resolve().parents[2] / "data" / "rules" / "nexo.md").read_text()
    assert 'Player 1 sets up in the left 12" of the picture (rows 1–6), player 2 in the right 12" (rows 25–30)' in text
    assert "bottom" not in text
    view = new_view("crossroads")
    geo = geometry(view)
    image = draw(view)
    ann, bob = (player_style(i).fill for i in range(2))
    left, right = geo.to_px(22, 6), geo.to_px(22, 54)  # inside each zone, in row 3 and row 27
    assert left[0] < geo.left + geo.field_w / 2 < right[0]
    assert [geo.cell(22, 6)[1:], geo.cell(22, 54)[1:]] == ["4", "28"]
    (ax, ay), (bx, by) = geo.to_px(43.1, 7), geo.to_px(43.1, 53)  # bare field in each zone, off the grid lines
    tint = image.getpixel((round(ax), round(ay)))
    assert tint != image.getpixel((round(bx), round(by)))
    assert max(abs(a - b) for a, b in zip(tint, ann, strict=True)) < max(abs(a - b) for a, b in zip(tint, bob,
                                                                                                  strict=True))


def test_the_round_limit_is_on_the_board() -> None:
    limited = GAMES["nexo"].new(["ann", "bob"], 1, {"round_limit": 8}).view(None)
    assert limited["round_limit"] == 8
    labels: list[Label] = []
    draw(limited, labels=labels)
    [head] = [label.text for label in labels if "round" in label.roles]
    assert head.startswith("Round 1 of 8 · ")
    labels = []
    draw(new_view("crossroads"), labels=labels)
    assert next(label.text for label in labels if "round" in label.roles).startswith("Round 1 · ")  # no limit
