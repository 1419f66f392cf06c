"""The fallback renderer and the dispatcher."""

from __future__ import annotations

import io

from PIL import Image

from render import render


def test_unknown_game_falls_back_to_the_status_card() -> None:
    png = render("tally", {"total": 3, "turn": "ann", "rolls": [1, 6]}, title="Tally")
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width == 800 and image.height > 100


def test_the_card_changes_with_the_view() -> None:
    assert render("tally", {"total": 3}) != render("tally", {"total": 4})
