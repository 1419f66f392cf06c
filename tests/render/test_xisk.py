"""The XISK picture: drawn from the spectator view alone, one colour and letter per seat."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from render import render as dispatch
from render import xisk
from render.common import NEUTRAL, player_style
from render.xisk import render
from render.xisk_layers import PANEL_HEIGHT, RADIUS, px, static_layer, wrap_stub
from render.xisk_palette import paletted_felt

LAYER = static_layer()
BOARD = LAYER.board
"""The map with its positions in the picture's pixels."""
SIZE = (BOARD.canvas[0], BOARD.canvas[1] + PANEL_HEIGHT)
"""The map, and the panel below it."""
PANEL = (0, BOARD.canvas[1], *SIZE)
SIX = ["ann", "bob", "cy", "dee", "eve", "fay"]


def make_view(players: list[str], **changes: Any) -> dict[str, Any]:
    """Returns a mid-game spectator view: countries dealt round-robin, two neutral."""
    owners = {c: players[i % len(players)] for i, c in enumerate(BOARD.countries)}
    owners["peru"] = owners["japan"] = "neutral"
    view: dict[str, Any] = {
        "phase": "attack", "turn": players[0], "turn_number": 9, "to_act": [players[0]], "order": list(players),
        "countries": {c: {"owner": o, "chips": 1 + i % 7} for i, (c, o) in enumerate(owners.items())},
        "cards_held": dict.fromkeys(players, 2), "sets_redeemed": 2, "next_set_value": 3, "supply_left": 0,
        "claims_left": 0, "invade": None, "last_battle": None, "eliminated": [], "winner": None,
    }
    view.update(changes)
    return view


def decode(png: bytes) -> Image.Image:
    """Returns the PNG decoded to full colour."""
    return Image.open(io.BytesIO(png)).convert("RGB")


def disc_pixel(image: Image.Image, country: str) -> tuple[int, int, int]:
    """Returns the colour of the disc near its lower rim (clear of the count and the badge)."""
    x, y = BOARD.positions[country]
    return image.getpixel((x, y + RADIUS - px(7)))  # type: ignore[return-value]


def with_country(view: dict[str, Any], country: str, owner: str | None, chips: int) -> dict[str, Any]:
    """Returns a copy of ``view`` with one country's owner and chips changed."""
    countries = {**view["countries"], country: {"owner": owner, "chips": chips}}
    return {**view, "countries": countries}


def test_the_picture_decodes_at_the_default_size() -> None:
    picture = render(make_view(SIX[:3]))
    image = Image.open(io.BytesIO(picture))
    assert image.format == "WEBP"
    assert image.size == SIZE
    assert len(picture) <= 60 * 1024


def test_the_dispatcher_uses_the_xisk_renderer() -> None:
    view = make_view(SIX[:3])
    assert dispatch("xisk", view) == render(view)


def test_each_disc_wears_its_owners_colour() -> None:
    view = make_view(SIX)
    image = decode(render(view))
    for c in BOARD.countries:
        owner = view["countries"][c]["owner"]
        expected = NEUTRAL if owner == "neutral" else player_style(SIX.index(owner)).fill
        assert disc_pixel(image, c) == expected, c


def test_seat_colours_follow_the_seat_order_not_the_turn_order() -> None:
    view = make_view(SIX[:3], order=["cy", "ann", "bob"], turn="cy", to_act=["cy"])
    image = decode(render(view))
    owner = view["countries"]["alaska"]["owner"]
    assert disc_pixel(image, "alaska") == player_style(SIX.index(owner)).fill


def test_neutral_and_unclaimed_look_different() -> None:
    base = make_view(SIX[:4])
    neutral = decode(render(with_country(base, "brazil", "neutral", 1)))
    unclaimed = decode(render(with_country(base, "brazil", None, 0)))
    x, y = BOARD.positions["brazil"]
    box = (x - RADIUS - 14, y - RADIUS - 14, x + RADIUS + 4, y + RADIUS + 4)
    assert neutral.crop(box).tobytes() != unclaimed.crop(box).tobytes()
    assert disc_pixel(neutral, "brazil") == NEUTRAL
    assert disc_pixel(unclaimed, "brazil") not in {NEUTRAL, *(player_style(i).fill for i in range(6))}


def test_a_changed_chip_count_changes_the_disc() -> None:
    base = make_view(SIX[:2])
    one = decode(render(with_country(base, "egypt", "ann", 3)))
    other = decode(render(with_country(base, "egypt", "ann", 12)))
    x, y = BOARD.positions["egypt"]
    box = (x - 12, y - 12, x + 12, y + 12)
    assert one.crop(box).tobytes() != other.crop(box).tobytes()


def test_the_static_layer_is_built_once_and_never_drawn_on() -> None:
    felt = paletted_felt()
    before = felt.image.tobytes()
    for n in range(3):
        render(make_view(SIX[:3], supply_left=n))
    assert static_layer.cache_info().misses == 1
    assert paletted_felt.cache_info().misses == 1
    assert felt.image.tobytes() == before


def test_the_picture_reads_nothing_but_the_public_view() -> None:
    view = make_view(SIX[:3])
    secret = {**view, "hand": ["AS", "KH", "2C"], "redeemable": ["redeem AS KH 2C"]}
    assert render(secret) == render(view)


def test_the_last_attack_draws_an_arrow() -> None:
    view = make_view(SIX[:3])
    battle = {"from": "brazil", "to": "north-africa", "attacker_dice": [6, 4, 2], "defender_dice": [5, 3],
              "attacker_losses": 1, "defender_losses": 1}
    plain = decode(render(view))
    marked = decode(render({**view, "last_battle": battle}))
    (ax, ay), (bx, by) = BOARD.positions["brazil"], BOARD.positions["north-africa"]
    along = [(round(ax + (bx - ax) * t), round(ay + (by - ay) * t)) for t in (0.3, 0.4, 0.5, 0.6, 0.7)]
    # A country's code and name are laid back over the arrow (they stay readable): look beside them.
    along = [p for p in along
             if not any(x0 <= p[0] < x1 and y0 <= p[1] < y1 for x0, y0, x1, y1 in LAYER.labels.values())]
    assert len(along) >= 3
    assert all(marked.getpixel(p) != plain.getpixel(p) for p in along)
    assert all(marked.getpixel(p) == (255, 255, 255) for p in along)
    assert marked.crop(PANEL).tobytes() != plain.crop(PANEL).tobytes()


def test_an_attack_across_the_map_edge_is_drawn_as_two_stubs() -> None:
    view = make_view(SIX[:2])
    battle = {"from": "alaska", "to": "kamchatka", "attacker_dice": [3], "defender_dice": [2],
              "attacker_losses": 1, "defender_losses": 0}
    plain = decode(render(view))
    marked = decode(render({**view, "last_battle": battle}))
    middle = (BOARD.canvas[0] // 2, (BOARD.positions["alaska"][1] + BOARD.positions["kamchatka"][1]) // 2)
    assert marked.getpixel(middle) == plain.getpixel(middle)
    for src, dst in (("alaska", "kamchatka"), ("kamchatka", "alaska")):
        (sx, sy), (ex, ey) = wrap_stub(BOARD, src, dst)
        point = (round((sx + ex) / 2), round((sy + ey) / 2))
        assert marked.getpixel(point) == (255, 255, 255) != plain.getpixel(point)


def test_two_players_and_a_claiming_start_render() -> None:
    view = make_view(SIX[:2], phase="claim", turn=None, order=[], claims_left=20, to_act=["bob"],
                     countries={c: {"owner": None, "chips": 0} for c in BOARD.countries})
    image = decode(render(view))
    assert image.size == SIZE


def test_six_players_with_the_eliminated_and_a_winner() -> None:
    running = make_view(SIX)
    out = {**running, "eliminated": ["cy", "eve"]}
    over = {**out, "phase": "over", "winner": "ann", "to_act": [], "turn": "ann",
            "countries": {c: {"owner": "ann", "chips": 2} for c in BOARD.countries}}
    images = [decode(render(v)).crop(PANEL).tobytes() for v in (running, out, over)]
    assert len(set(images)) == 3
    winner = decode(render(over))
    assert all(disc_pixel(winner, c) == player_style(0).fill for c in BOARD.countries)


def test_a_highlight_mark_rings_the_country() -> None:
    view = make_view(SIX[:3])
    x, y = BOARD.positions["india"]
    ring = (x + RADIUS + px(5), y)
    assert decode(render(view, highlight=["india"])).getpixel(ring) == (255, 255, 255)
    assert decode(render(view)).getpixel(ring) != (255, 255, 255)


def test_a_player_left_without_countries_shows_as_out() -> None:
    countries = {c: {"owner": "ann", "chips": 2} for c in BOARD.countries}
    over = make_view(SIX[:2], phase="over", winner="ann", to_act=[], countries=countries)
    assert render(over) == render({**over, "eliminated": ["bob"]})


def test_names_stay_readable_over_the_arrow(monkeypatch: pytest.MonkeyPatch) -> None:
    view = make_view(SIX[:3])
    battle = {"from": "alaska", "to": "northwest-territory", "attacker_dice": [2], "defender_dice": [5],
              "attacker_losses": 1, "defender_losses": 0}
    plain = decode(render(view))
    layer = static_layer()
    box = layer.labels["alaska"]  # the name sits on the line the arrow follows
    mask = layer.label_mask.crop(box)
    text = [(box[0] + x, box[1] + y) for x in range(mask.width) for y in range(mask.height)
            if mask.getpixel((x, y)) == 255]

    def covered() -> int:
        marked = decode(render({**view, "last_battle": battle}))
        return sum(marked.getpixel(p) != plain.getpixel(p) for p in text)

    laid_back = covered()
    monkeypatch.setattr(xisk, "_names_on_top", lambda *args: None)
    assert laid_back < covered() // 2


def test_the_renderer_imports_no_discord_or_host() -> None:
    code = "import sys, render.xisk; print(' '.join(sys.modules))"
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    loaded = {name.split(".")[0] for name in done.stdout.split()}
    assert not loaded & {"discord", "host", "cogs"}
