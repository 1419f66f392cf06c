"""Player colours for every eye: apart under simulated colour blindness, and never the only cue.

Each game's player colours are simulated at full severity (Machado et al. 2009, severity 1.0,
applied to linear-light sRGB as colour-science documents) for protanopia, deuteranopia and
tritanopia, and every pair must stay at least :data:`LEAST_DELTA_E` apart in CIEDE2000 — so
must they for normal vision. Where a colour tells whose a piece is, a letter tells it too.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import combinations
from typing import Any

import numpy as np
import pytest
from PIL import Image

from engines import GAMES
from engines.nxs.roster import COLOURS as NXS_COLOURS
from render import nexo as nexo_render
from render.common import NEUTRAL, PLAYER_STYLES, Colour, Label, player_style
from render.nxs import tile_style
from render.xisk import render as render_xisk
from render.xisk_layers import BADGE, BADGE_OFFSET, RADIUS, static_layer


@contextmanager
def _quiet() -> Iterator[None]:
    """Silences colour-science's notes (missing optional SciPy/Matplotlib, the tritanomaly approximation)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


with _quiet():
    import colour
    from colour.algebra import vecmul

LEAST_DELTA_E = 20.0
"""Least CIEDE2000 distance between two player colours, for every eye."""
DEFICIENCIES = {"protanopia": "Protanomaly", "deuteranopia": "Deuteranomaly", "tritanopia": "Tritanomaly"}
"""Deficiency → colour-science's name of the anomaly whose full severity (1.0) simulates it."""
D65 = colour.CCS_ILLUMINANTS["CIE 1931 2 Degree Standard Observer"]["D65"]


def _nexo_fills() -> list[Colour]:
    """Returns the fill of each Nexohominis side, as its renderer picks them."""
    view = GAMES["nexo"].new(["ann", "bob"], 1, {}).view(None)
    return [st.fill for _, st in nexo_render._styles(view).values()]


PALETTES: dict[str, list[Colour]] = {
    # Six seats, and the grey of neutral countries.
    "xisk": [st.fill for st in PLAYER_STYLES] + [NEUTRAL],
    # The two sides' ship tiles (white and black), and the seat colours used for any other colouring.
    "nxs": [tile_style(c, i).fill for i, c in enumerate(NXS_COLOURS)],
    "nxs-tinted": [tile_style("", i).fill for i in range(2)],
    "nexo": _nexo_fills(),
}


def lab(rgb: Colour, deficiency: str | None = None) -> np.ndarray:
    """Returns the CIE Lab (D65) of an 8-bit sRGB colour, as seen with ``deficiency`` (None: normal vision)."""
    with _quiet():
        linear = colour.models.eotf_sRGB(np.array(rgb, dtype=float) / 255)
        if deficiency is not None:
            matrix = colour.blindness.matrix_cvd_Machado2009(DEFICIENCIES[deficiency], 1.0)
            linear = np.clip(vecmul(matrix, linear), 0, 1)
        xyz = colour.RGB_to_XYZ(linear, colour.RGB_COLOURSPACES["sRGB"], apply_cctf_decoding=False)
        return colour.XYZ_to_Lab(xyz, D65)


def closest_pairs(colours: list[Colour], deficiency: str | None) -> list[tuple[float, Colour, Colour]]:
    """Returns every pair of ``colours`` closer than :data:`LEAST_DELTA_E` (CIEDE2000) with its distance."""
    labs = {c: lab(c, deficiency) for c in colours}
    with _quiet():
        pairs = [(float(colour.delta_E(labs[a], labs[b], method="CIE 2000")), a, b)
                 for a, b in combinations(colours, 2)]
    return sorted((round(d, 1), a, b) for d, a, b in pairs if d < LEAST_DELTA_E)


@pytest.mark.parametrize("palette", sorted(PALETTES))
def test_player_colours_stay_apart_for_protanopia(palette: str) -> None:
    assert closest_pairs(PALETTES[palette], "protanopia") == []


@pytest.mark.parametrize("palette", sorted(PALETTES))
def test_player_colours_stay_apart_for_deuteranopia(palette: str) -> None:
    assert closest_pairs(PALETTES[palette], "deuteranopia") == []


@pytest.mark.parametrize("palette", sorted(PALETTES))
def test_player_colours_stay_apart_for_tritanopia(palette: str) -> None:
    assert closest_pairs(PALETTES[palette], "tritanopia") == []


@pytest.mark.parametrize("palette", sorted(PALETTES))
def test_player_colours_stay_apart_for_normal_vision(palette: str) -> None:
    assert closest_pairs(PALETTES[palette], None) == []


def test_the_check_finds_colours_that_merge_for_deuteranopia() -> None:
    # Red and green of equal lightness: far apart for normal vision, one colour without green cones.
    red, green = (200, 90, 60), (110, 130, 60)
    assert closest_pairs([red, green], None) == []
    assert closest_pairs([red, green], "deuteranopia") != []


def test_every_seat_has_its_own_letter() -> None:
    marks = [st.mark for st in PLAYER_STYLES]
    assert len(set(marks)) == len(marks) and all(m.isalpha() and len(m) == 1 for m in marks)


def test_xisk_discs_show_their_owners_letter() -> None:
    # The badge on a disc is white with black ink whatever the owner's colour, so only its letter
    # tells the seats apart there: six owners give six different badges, each with ink on it.
    board = static_layer().board  # positions in the picture's pixels
    players = ["ann", "bob", "cy", "dee", "eve", "fay"]
    picks = list(board.countries)[:6]
    owners = {c: players[i % 6] for i, c in enumerate(board.countries)}
    owners.update(zip(picks, players, strict=True))
    view: dict[str, Any] = {
        "phase": "attack", "turn": "ann", "turn_number": 3, "to_act": ["ann"], "order": players,
        "countries": {c: {"owner": o, "chips": 1} for c, o in owners.items()},
        "cards_held": dict.fromkeys(players, 0), "sets_redeemed": 0, "next_set_value": 4, "supply_left": 0,
        "claims_left": 0, "invade": None, "last_battle": None, "eliminated": [], "winner": None,
    }
    image = Image.open(io.BytesIO(render_xisk(view))).convert("RGB")
    badges = []
    for country in picks:
        x, y = board.positions[country]
        bx = by = round(RADIUS * BADGE_OFFSET)
        inner = BADGE // 2  # inside the badge's white face (its outline is 1.5 px)
        badge = image.crop((x - bx - inner, y - by - inner, x - bx + inner, y - by + inner))
        badges.append(badge.tobytes())
        inked = sum(badge.convert("L").histogram()[:50])
        assert inked > 5, f"no letter on {country}'s badge"
    assert len(set(badges)) == 6


def test_nexo_models_and_buildings_are_tagged_with_their_sides_letter() -> None:
    view = GAMES["nexo"].new(["ann", "bob"], 1, {}).view(None)
    labels: list[Label] = []
    nexo_render.draw(view, labels=labels)
    ids = {label.text for label in labels if "id" in label.roles}
    letter_of: dict[str, set[str]] = {}
    for kind in ("models", "buildings"):
        for pid, piece in (view.get(kind) or {}).items():
            assert pid in ids, f"{pid} has no tag"
            letter_of.setdefault(str(piece["owner"]), set()).add(pid[0].upper())
    assert sorted(map(sorted, letter_of.values())) == [["A"], ["B"]]
    assert [player_style(i).mark for i in range(2)] == ["A", "B"]
