"""XISK read in Discord's 550-px preview: a code per country, nothing clipped, the claim counter.

Measured as :mod:`tests.render.test_legibility` measures: each text the renderer draws is
recorded as a :class:`render.common.Label` (font size and the ink box Pillow gives), and
its height in the preview is that box's height times 550 / the picture's width.
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import Any

import pytest

from engines.xisk.board import load_board, resolve_country
from render.common import MIN_PREVIEW_TEXT, Label
from render.xisk import draw_picture
from tests.render.test_legibility import inked, small
from tests.render.test_xisk import BOARD, SIX, make_view

EARLY = make_view(SIX[:3], phase="claim", turn=None, turn_number=0, to_act=["bob"], claims=[], claims_left=42,
                  countries={c: {"owner": None, "chips": 0} for c in BOARD.countries})
LATE = make_view(SIX, turn_number=87, supply_left=12, sets_redeemed=9, next_set_value=10,
                 countries={c: {"owner": SIX[i % 6] if i % 9 else "neutral", "chips": 40 + i * 13 % 60}
                            for i, c in enumerate(BOARD.countries)},
                 last_battle={"from": "eastern-united-states", "to": "western-united-states",
                              "attacker_dice": [6, 5, 1], "defender_dice": [6, 2], "attacker_losses": 1,
                              "defender_losses": 1})
LONG = ["Alexandria Montgomery-Fitzgerald", "Bartholomew Jones the Third Esq.", "Christopher Alexander Wellingto",
        "Dorotheaannabellechristinajones", "Evangeline Maximiliana Rosewood", "Ferdinand von Habsburg-Lothring"]
"""Six display names of 32 characters (or near), with and without word breaks."""


def drawn(view: dict[str, Any], **marks: Any) -> tuple[list[Label], int, int]:
    """Returns the labels of ``view``'s picture and the picture's size."""
    labels: list[Label] = []
    image = draw_picture(view, labels=labels, **marks)
    return labels, image.width, image.height


def long_names_view(phase: str = "attack") -> dict[str, Any]:
    """Returns a late six-player view whose players have 32-character names and three-digit counts."""
    owners = {c: LONG[i % 6] for i, c in enumerate(BOARD.countries)}
    view = make_view(LONG, phase=phase, turn_number=123, supply_left=118, sets_redeemed=12, next_set_value=13,
                     countries={c: {"owner": o, "chips": 99 if i % 3 else 5}
                                for i, (c, o) in enumerate(owners.items())},
                     cards_held=dict.fromkeys(LONG, 12), eliminated=[LONG[3]],
                     invade={"from": "western-united-states", "to": "eastern-united-states", "most": 98},
                     last_battle={"from": "western-united-states", "to": "eastern-united-states",
                                  "attacker_dice": [6, 5, 4], "defender_dice": [3, 2], "attacker_losses": 0,
                                  "defender_losses": 2, "conquered": True})
    view["countries"]["peru"] = {"owner": "neutral", "chips": 7}
    return view


@pytest.mark.parametrize("view", [EARLY, LATE], ids=["early", "late"])
def test_every_country_code_is_at_least_9px_at_550px_early_and_late(view: dict[str, Any]) -> None:
    labels: list[Label] = []
    image = draw_picture(view, labels=labels, highlight=["india"])
    codes = {label.roles[1]: label for label in labels if "code" in label.roles}
    assert set(codes) == set(BOARD.countries)
    assert all(codes[c].text == BOARD.codes[c] for c in BOARD.countries)
    assert small(labels, {"code"}, image.width) == []
    assert min(label.preview_height(image.width) for label in codes.values()) >= MIN_PREVIEW_TEXT
    assert all(inked(image, label) for label in codes.values())


def test_every_code_printed_is_a_country_a_move_accepts() -> None:
    labels, _, _ = drawn(LATE)
    board = load_board()
    for label in labels:
        if "code" in label.roles:
            assert resolve_country(label.text.lower(), board) == label.roles[1]


@pytest.mark.parametrize("count", range(2, 7))
def test_no_text_is_clipped_with_six_players_and_long_names(count: int) -> None:
    players = LONG[:count]
    view = long_names_view()
    view.update(cards_held=dict.fromkeys(players, 12), order=players, to_act=[players[0]], turn=players[0],
                countries={c: {**v, "owner": players[i % count]} for i, (c, v) in enumerate(view["countries"].items())},
                eliminated=[])
    labels, width, height = drawn(view)
    for label in labels:
        left, top, right, bottom = label.box
        assert min(left, top) >= 0 and right <= width and bottom <= height, label
    for a, b in combinations(labels, 2):
        apart = a.box[2] <= b.box[0] or b.box[2] <= a.box[0] or a.box[3] <= b.box[1] or b.box[3] <= a.box[1]
        assert apart, (a.text, a.box, b.text, b.box)
    stats = [label.text for label in labels if "stats" in label.roles]
    assert len(stats) == count
    assert all(re.fullmatch(r"\d+ (countries|ctry) · \d+ (chips|ch) · 12 cards", s) for s in stats), stats


def test_long_names_are_shortened_at_a_word_end_and_numbers_are_never_cut() -> None:
    view = long_names_view()
    labels, _, _ = drawn(view)
    names = [label.text for label in labels if "player" in label.roles and len(label.text) > 1]
    assert len(names) == 6
    for name, full in zip(names, LONG, strict=True):
        assert name == full or (name.endswith("…") and full.startswith(name[:-1]))
        if " " in full and name != full:
            assert full[len(name) - 1] in " -", name  # cut where a word ends
    texts = [label.text for label in labels]
    assert "99 countries" not in texts
    figures = " · ".join(label.text for label in labels if "figures" in label.roles)
    for number in ("118", "13", "12", "1"):
        assert re.search(rf"\b{number}\b", figures), figures
    assert not any(t.endswith("…") for label in labels if "figures" in label.roles or "stats" in label.roles
                   for t in [label.text])
    attack = [label.text for label in labels if "attack" in label.roles]
    assert "WUS onto EUS" in attack  # the codes, when the names would not fit


def test_the_claim_phase_shows_which_claim_is_called() -> None:
    claims = [{"player": "ann", "country": "alaska"}, {"player": "bob", "country": "peru"}]
    view = {**EARLY, "claims": claims, "claims_left": 40}
    labels, width, _ = drawn(view)
    counter = [label for label in labels if "claim" in label.roles]
    assert [label.text for label in counter] == ["Claim 3 of 42"]
    assert counter[0].preview_height(width) >= MIN_PREVIEW_TEXT
    assert not any(label.text.startswith("Claims left") for label in labels)
