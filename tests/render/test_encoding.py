"""How a board picture is sent (:func:`render.common.encode`): lossless, and named by its type."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageChops

from engines import GAMES
from render import render
from render.common import encode, extension
from render.nexo import draw as draw_nexo
from render.nxs import paletted as draw_nxs
from render.xisk import draw_picture as draw_xisk

DRAWERS: dict[str, Callable[[dict[str, Any]], Image.Image]] = {"xisk": draw_xisk, "nxs": draw_nxs, "nexo": draw_nexo}
"""Each game's finished picture before encoding, as its renderer hands it to :func:`encode`."""
FORMATS = {"xisk": "WEBP", "nxs": "PNG", "nexo": "WEBP"}
"""The format each game's board is sent in: lossless WebP, but the NXS board as paletted PNG (by measurement)."""


def played_view(game: str, players: list[str], moves: int = 12, seed: int = 4) -> dict[str, Any]:
    """Returns the spectator view after ``moves`` seeded random legal moves (never a resignation)."""
    g = GAMES[game].new(players, seed, {})
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        player = g.to_act()[0]
        g.play(player, rng.choice([m for m in g.legal_moves(player) if not m.startswith(("concede", "resign"))]))
    return g.view(None)


@pytest.mark.parametrize("game", list(DRAWERS))
def test_each_games_board_decodes_to_the_very_pixels_drawn(game: str) -> None:
    view = played_view(game, ["ann", "bob", "cy"] if game == "xisk" else ["ann", "bob"])
    drawn = DRAWERS[game](view)
    data = render(game, view)
    decoded = Image.open(io.BytesIO(data))
    assert decoded.format == FORMATS[game] and extension(data) == FORMATS[game].lower()
    assert ImageChops.difference(drawn.convert("RGB"), decoded.convert("RGB")).getbbox() is None  # identical


def test_a_paletted_picture_is_png_and_a_full_colour_one_is_webp() -> None:
    rgb = Image.new("RGB", (40, 30), (10, 200, 30))
    assert extension(encode(rgb)) == "webp" and Image.open(io.BytesIO(encode(rgb))).format == "WEBP"
    assert extension(encode(rgb.quantize(4))) == "png"


def test_an_unknown_or_gif_picture_gets_its_extension_from_its_first_bytes() -> None:
    gif = io.BytesIO()
    Image.new("P", (2, 2)).save(gif, format="GIF")
    assert extension(gif.getvalue()) == "gif"
    assert extension(b"not a picture") == "png"
