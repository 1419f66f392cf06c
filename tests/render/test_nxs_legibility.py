"""NXS is readable at Discord's 550-px preview: players find and type cells by the edge labels.

Players type moves by cell (``move d4 d5``). The names inside the cells were too small to
read in the preview, so the cells hold no names; instead the column letters stand over and
under their columns and each rank's number sits where the rank leaves its board, on the
rank's line. Every text is measured from its ink box (:class:`render.common.Label`), as in
``tests/render/test_legibility.py``. Both starting layouts the group plays (``short`` and
the default) are checked, early and late in a game.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from typing import Any

import pytest
from PIL import Image

from engines.nxs.board import CELLS, COLUMNS, home_of
from engines.nxs.game import Nxs
from engines.nxs.roster import LAYOUTS_FILE
from engines.nxs.view import piece_moves
from render.common import MIN_PREVIEW_TEXT, Label
from render.nxs import draw
from render.nxs_board import Geometry, static_layer

LAYOUTS = ["short", json.loads(LAYOUTS_FILE.read_text())["default"]]
"""The two layouts NXS is played with: ``short`` and the default one (``medium``)."""
GEO = Geometry(1.0)
R = GEO.radius
HALF_COLUMN = 0.75 * R
"""Half the distance between two columns (1.5 radii): a label nearer than this is its column's."""
HALF_HEX = math.sqrt(3) / 2 * R
"""Half the distance between two neighbouring hexes' centres."""
OUTWARD = {0: (-1, 0), 1: (1, -1)}
"""Board → the way its ranks run off it: board A's to the NW (left), board B's to the NE (right)."""
LONG = ("W" * 32, "m" * 32)
"""Two 32-character names (Discord's longest display name), of wide letters."""


def centre(label: Label) -> tuple[float, float]:
    """Returns the middle of a label's ink box."""
    x0, y0, x1, y1 = label.box
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def start(layout: str, names: tuple[str, str] = ("ann", "bob")) -> dict[str, Any]:
    return Nxs.new(list(names), seed=1, options={"layout": layout}).view(None)


def late(layout: str, names: tuple[str, str] = ("ann", "bob"), turns: int = 60) -> dict[str, Any]:
    """Returns the view after ``turns`` seeded random legal moves (captures first, no resigning)."""
    game = Nxs.new(list(names), seed=5, options={"layout": layout})
    rng = random.Random(5)
    for _ in range(turns):
        if game.is_over:
            break
        who = game.to_act()[0]
        legal = [m for m in game.legal_moves(who) if m != "resign"]
        game.play(who, rng.choice([m for m in legal if m.startswith("capture")] or legal))
    return game.view(None)


def busiest(view: dict[str, Any]) -> dict[str, Any]:
    """Returns ``/nxs show``'s marks for the mover's ship with the most moves and captures."""
    mover = view["turn"] or view["players"][0]
    options = [{"selected": p["cell"], **piece_moves(view, p["cell"])} for p in view["pieces"] if p["owner"] == mover]
    return max(options, key=lambda m: len(m["moves"]) + len(m["captures"]))


def labelled(view: dict[str, Any], **marks: Any) -> tuple[Image.Image, list[Label]]:
    labels: list[Label] = []
    return draw(view, labels=labels, **marks), labels


def edge(labels: list[Label], role: str, text: str) -> list[Label]:
    return [label for label in labels if "edge" in label.roles and role in label.roles and label.text == text]


def rank_row(board: int, rank: int) -> list[str]:
    """Returns the cells of a rank on one board from its outer end inwards, from the engine's names."""
    cells = [name for name, h in CELLS.items() if home_of(h) == board and name[1:] == str(rank)]
    return sorted(cells, key=lambda name: COLUMNS.index(name[0]), reverse=board == 1)


def step_from(cell: str, direction: tuple[int, int]) -> tuple[float, float]:
    q, r = CELLS[cell]
    return GEO.point((q + direction[0], r + direction[1]))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_edge_labels_line_up_with_their_rows_and_columns(layout: str) -> None:
    _, labels = labelled(start(layout))
    for letter in COLUMNS:
        column = [GEO.centre(name) for name in CELLS if name[0] == letter]
        top, bottom = sorted(edge(labels, "column", letter), key=lambda label: label.box[1])
        for label in (top, bottom):  # centred over the column
            assert abs(centre(label)[0] - column[0][0]) <= 0.1 * R, (letter, label.box)
        assert top.box[3] < min(y for _, y in column) - HALF_HEX  # above the column's top hex
        assert bottom.box[1] > max(y for _, y in column) + HALF_HEX  # below its bottom hex
    for board, rank in itertools.product((0, 1), range(1, 8)):
        row = rank_row(board, rank)
        found = [lb for lb in edge(labels, "rank", str(rank)) if (centre(lb)[0] < GEO.width / 2) == (board == 0)]
        assert len(found) == 1, (board, rank)
        x, y = centre(found[0])
        # on the line of the rank's outer arm, one hex past its end cell: where its next hex would be
        if len(row) > 1:
            (q0, r0), (q1, r1) = CELLS[row[0]], CELLS[row[1]]
            assert (q0 - q1, r0 - r1) == OUTWARD[board], (board, rank, row)
        ex, ey = GEO.centre(row[0])
        dx, dy = step_from(row[0], OUTWARD[board])
        ux, uy = (dx - ex) / math.hypot(dx - ex, dy - ey), (dy - ey) / math.hypot(dx - ex, dy - ey)
        off_line = abs((x - ex) * uy - (y - ey) * ux)
        assert off_line <= 0.1 * R, (board, rank, off_line)
        assert math.hypot(x - dx, y - dy) <= 0.1 * R, (board, rank)
        assert all(math.hypot(x - cx, y - cy) >= 1.5 * R for cx, cy in map(GEO.centre, CELLS)), (board, rank)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_cell_is_findable_from_its_edge_labels(layout: str) -> None:
    """For each cell: its column's letters and its rank's number are within half a hex of it.

    A rank zigzags over its board, so the rank number is aligned with a cell along the rank:
    followed hex by hex from the cell (each step to a neighbour) the rank leaves the board
    within half a hex of its number. For the cells of the outer arm that is a straight line.
    """
    _, labels = labelled(start(layout))
    for cell, (q, r) in CELLS.items():
        x = GEO.centre(cell)[0]
        letters = edge(labels, "column", cell[0])
        assert len(letters) == 2 and all(abs(centre(lb)[0] - x) < HALF_COLUMN for lb in letters), cell
        board, rank = home_of((q, r)), int(cell[1:])
        row = rank_row(board, rank)
        path = row[: row.index(cell) + 1][::-1]  # from the cell out to the rank's end
        for a, b in itertools.pairwise(path):
            assert math.dist(GEO.centre(a), GEO.centre(b)) == pytest.approx(2 * HALF_HEX), (cell, a, b)
        beyond = step_from(path[-1], OUTWARD[board])
        number = [lb for lb in edge(labels, "rank", str(rank)) if math.dist(centre(lb), beyond) < HALF_HEX]
        assert len(number) == 1, (cell, rank)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_edge_labels_are_at_least_9px_at_550px(layout: str) -> None:
    image, labels = labelled(start(layout))
    edges = [label for label in labels if "edge" in label.roles]
    assert len(edges) == 2 * len(COLUMNS) + 2 * 7
    assert [(lb.text, round(lb.preview_height(image.width), 2)) for lb in edges
            if lb.preview_height(image.width) < MIN_PREVIEW_TEXT] == []
    for label in edges:  # and they were drawn
        assert len(image.crop(tuple(round(v) for v in label.box)).getcolors(1 << 16) or []) > 1, label.text


@pytest.mark.parametrize("layout", LAYOUTS)
def test_cell_coordinates_are_at_least_9px_at_550px(layout: str) -> None:
    """Every cell name drawn (edge labels, move targets') is 9 px tall; no smaller name is left in a cell."""
    for view in (start(layout), late(layout)):
        marks = busiest(view)
        image, labels = labelled(view, **marks)
        names = [label for label in labels if {"cell", "edge"} & set(label.roles)]
        assert [lb.text for lb in names if "cell" in lb.roles] == marks["moves"]
        assert [(lb.text, round(lb.preview_height(image.width), 2)) for lb in names
                if lb.preview_height(image.width) < MIN_PREVIEW_TEXT] == []
    layer = static_layer(1.0, ("white", "black"))
    for cell in CELLS:  # the cells themselves are plain: no tiny name left inside
        x, y = GEO.centre(cell)
        inside = layer.crop((round(x - 0.6 * R), round(y - 0.6 * R), round(x + 0.6 * R), round(y + 0.6 * R)))
        assert len(inside.getcolors(1 << 16) or []) == 1, cell


def long_name_views(layout: str) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    early = start(layout, LONG)
    later = late(layout, LONG)
    over = {**later, "turn": None, "result": {"termination": "target", "winners": [LONG[1]]}}
    return {"early": (early, busiest(early)), "late": (later, busiest(later)), "over": (over, {})}


@pytest.mark.parametrize("when", ["early", "late", "over"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_no_text_is_clipped_with_long_names(layout: str, when: str) -> None:
    view, marks = long_name_views(layout)[when]
    image, labels = labelled(view, **marks)
    w, h = image.size
    assert len(labels) > 2 * len(COLUMNS) + len(view["pieces"])
    outside = [lb.text for lb in labels if min(lb.box) < 0 or lb.box[2] > w or lb.box[3] > h]
    assert outside == []
    overlapping = [(a.text, b.text) for a, b in itertools.combinations(labels, 2)
                   if a.box[0] < b.box[2] and b.box[0] < a.box[2] and a.box[1] < b.box[3] and b.box[1] < a.box[3]]
    assert overlapping == []
    shown = [lb.text for lb in labels if "player" in lb.roles and len(lb.text) > 1]
    assert len(shown) == 2
    for text, name in zip(shown, LONG, strict=True):  # shortened with an ellipsis, never cut off
        assert text.endswith("…") and name.startswith(text[:-1]) and len(text) > 4, text
