"""What a player needs at a glance stays legible in Discord's 550-px preview, in a near-4:3 picture.

Each renderer records the texts it draws (:class:`render.common.Label`: the font size it
used and the ink box ``ImageFont.getbbox`` gives for it); a text's height in the preview
is that box's height times 550 / the picture's width. Chip counts, ship letters, who is
to act and the phase must be at least 9 px tall there.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PIL import Image

from engines.nxs.game import Nxs
from render.common import MIN_PREVIEW_TEXT, PREVIEW_WIDTH, Label
from render.nxs import draw as draw_nxs
from render.xisk import draw_picture
from tests.render.test_xisk import SIX, make_view

ASPECT = (1.2, 1.45)
"""Width over height: near 4:3, so the preview is not a strip."""


def small(labels: list[Label], roles: set[str], width: int) -> list[tuple[str, float]]:
    """Returns the labels of ``roles`` shorter than the minimum in the preview, with their heights."""
    return [(label.text, round(label.preview_height(width), 2)) for label in labels
            if roles & set(label.roles) and label.preview_height(width) < MIN_PREVIEW_TEXT]


def inked(image: Image.Image, label: Label) -> bool:
    """Returns True when the picture holds more than one colour inside the label's box (it was drawn)."""
    box = tuple(round(v) for v in label.box)
    return len(image.convert("RGB").crop(box).getcolors(1 << 16) or []) > 1


def test_the_measure_is_the_ink_box_pillow_gives_scaled_to_the_preview() -> None:
    from render.common import font

    label = Label.at("chips", "12", 38, (0, 0), anchor="mm", stroke=1)
    _, top, _, bottom = font(38).getbbox("12", anchor="mm", stroke_width=1)
    assert label.height == bottom - top
    assert label.preview_height(1600) == pytest.approx((bottom - top) * PREVIEW_WIDTH / 1600)


XISK_VIEWS = {
    "six players, an attack": make_view(SIX, last_battle={
        "from": "brazil", "to": "north-africa", "attacker_dice": [6, 4, 2], "defender_dice": [5, 3],
        "attacker_losses": 1, "defender_losses": 1}, supply_left=7),
    "two players claiming": make_view(SIX[:2], phase="claim", turn=None, to_act=["bob"], claims_left=20),
    "high counts": make_view(SIX[:3], countries={c: {"owner": "ann", "chips": 99}
                                                 for c in make_view(SIX)["countries"]}),
}


@pytest.mark.parametrize("name", XISK_VIEWS)
def test_xisk_chips_turn_and_phase_are_legible_in_the_preview(name: str) -> None:
    view = XISK_VIEWS[name]
    labels: list[Label] = []
    image = draw_picture(view, labels=labels)
    assert ASPECT[0] <= image.width / image.height <= ASPECT[1]
    chips = [label for label in labels if "chips" in label.roles]
    assert len(chips) == len(view["countries"])
    assert any("phase" in label.roles for label in labels)
    assert any("to_act" in label.roles for label in labels)
    assert small(labels, {"chips", "to_act", "phase"}, image.width) == []
    assert all(inked(image, label) for label in labels if {"chips", "to_act", "phase"} & set(label.roles))


def test_xisk_winner_is_legible_in_the_preview() -> None:
    over = make_view(SIX[:2], phase="over", winner="ann", to_act=[])
    labels: list[Label] = []
    image = draw_picture(over, labels=labels)
    assert any("winner" in label.roles for label in labels)
    assert small(labels, {"winner", "phase", "chips"}, image.width) == []


@pytest.fixture(scope="module")
def nxs_start() -> dict[str, Any]:
    return Nxs.new(["ann", "bob"], seed=1).view(None)


@pytest.mark.parametrize("marks", [{}, {"selected": "f4", "moves": ["g3", "g4", "h3"], "captures": ["i4"]}])
def test_nxs_ships_turn_and_step_are_legible_in_the_preview(nxs_start: dict[str, Any], marks: dict[str, Any]) -> None:
    labels: list[Label] = []
    image = draw_nxs(nxs_start, labels=labels, **marks)
    assert ASPECT[0] <= image.width / image.height <= ASPECT[1]
    pieces = [label for label in labels if "piece" in label.roles]
    assert len(pieces) == len(nxs_start["pieces"])
    assert any("phase" in label.roles for label in labels) and any("to_act" in label.roles for label in labels)
    assert small(labels, {"piece", "to_act", "phase", "cell"}, image.width) == []
    assert all(inked(image, label) for label in labels if {"piece", "to_act", "phase"} & set(label.roles))
    assert [label.text for label in labels if "cell" in label.roles] == marks.get("moves", [])


def test_nxs_legend_names_every_mark(nxs_start: dict[str, Any]) -> None:
    labels: list[Label] = []
    draw_nxs(nxs_start, labels=labels)
    words = [label.text for label in labels if "legend" in label.roles]
    assert words == ["move to", "capture", "selected", "last move", "held hex"]


def test_nxs_a_finished_game_names_its_winner_legibly(nxs_start: dict[str, Any]) -> None:
    over = copy.deepcopy(nxs_start)
    over["turn"] = None
    over["result"] = {"termination": "resign", "winners": ["bob"]}
    labels: list[Label] = []
    image = draw_nxs(over, labels=labels)
    assert small(labels, {"winner", "piece"}, image.width) == []
    assert any(label.text == "bob wins" for label in labels)
