"""The Nexohominis picture stays readable late: no tag over another, every typed token 9 px at 550 px.

Late positions are built directly as views (the renderer reads nothing else): 40 to 70
models of every unit type in clusters around the depots and in the deployment zones, 4 to
16 buildings, some wrecked or being built, Wounded-in-Action results, on the crossroads
battlefield's depots. :func:`render.nexo_tags.layout` places the tags without drawing, so
hundreds of positions are cheap; a few are drawn whole, and their recorded labels checked.
"""

from __future__ import annotations

import math
import random
from itertools import combinations
from typing import Any

import pytest

from engines import GAMES
from render import nexo_tags
from render.common import MIN_PREVIEW_TEXT, Label
from render.nexo import draw, geometry
from render.nexo_field import depot_label_box, faction, grid_labels
from render.nexo_tags import area, building_box, model_box

UNITS = ["drudge", "outrider", "trooper", "breacher", "gunner", "strider"]
KINDS = ["headquarters", "generator", "foundry", "turret", "relay"]
WIA = [None, None, None, "pinned", "suppressed", "bleeding"]
BASE = GAMES["nexo"].new(["ann", "bob"], 1, {}).view(None)
TYPED = {"id", "cell", "depot"}
"""Roles of the texts a player types back: ids (models, buildings, wrecks, depots) and grid cells."""


def late_view(seed: int) -> dict[str, Any]:
    """Returns a crowded late view: clusters of models near depots and zones, buildings among them."""
    rng = random.Random(seed)
    view = {**BASE, "models": {}, "buildings": {}, "round": 7}
    centres = [(d["x"], d["y"]) for d in BASE["depots"]] + [(rng.uniform(4, 40), rng.choice([6.0, 54.0]))
                                                             for _ in range(3)]
    taken: list[tuple[float, float, float]] = []

    def free(x: float, y: float, r: float) -> bool:
        return 0.5 + r <= x <= 43.5 - r and 0.5 + r <= y <= 59.5 - r and all(
            math.hypot(x - a, y - b) >= r + c + 0.05 for a, b, c in taken)

    for k in range(rng.randint(4, 16)):
        kind = rng.choice(KINDS)
        size = faction()["buildings"][kind]
        half = max(size["width"], size["depth"]) / 2
        for _ in range(50):
            x, y = rng.uniform(3, 41), rng.uniform(3, 57)
            if free(x, y, half * 1.45):
                taken.append((x, y, half * 1.45))
                owner = "ann" if y < 30 else "bob"
                wreck, complete = rng.random() < 0.2, rng.random() < 0.7
                view["buildings"][f"{owner[0].upper()}{k + 1}"] = {
                    "owner": owner, "type": kind, "x": x, "y": y, "rot": rng.choice([0, 90]), "hp": rng.randint(1, 40),
                    "complete": complete, "build_points": rng.randint(0, 5), "wreck": wreck}
                break
    count = {"ann": 0, "bob": 0}
    for _ in range(rng.randint(40, 70)):
        unit = rng.choice(UNITS)
        r = faction()["units"][unit]["base_radius"]
        cx, cy = rng.choice(centres)
        for _ in range(80):
            x, y = rng.gauss(cx, 4), rng.gauss(cy, 4)
            if free(x, y, r):
                taken.append((x, y, r))
                owner = rng.choice(["ann", "bob"])
                count[owner] += 1
                view["models"][f"{owner[0]}{count[owner]}"] = {
                    "owner": owner, "type": unit, "x": round(x, 2), "y": round(y, 2),
                    "hp": rng.randint(1, faction()["units"][unit]["hp"]), "wia": rng.choice(WIA),
                    "overwatch": rng.random() < 0.1, "activated": rng.random() < 0.5}
                break
    return view


def piece_boxes(view: dict[str, Any]) -> dict[str, Any]:
    """Returns each piece's footprint in picture pixels, keyed by its id (depots under '' keys)."""
    geo = geometry(view)
    boxes = {k: model_box(geo, m) for k, m in view["models"].items()}
    boxes.update({k: building_box(geo, b) for k, b in view["buildings"].items()})
    return boxes


@pytest.mark.parametrize("chunk", range(5))
def test_no_two_tags_meet_and_none_covers_another_piece_over_500_late_positions(chunk: int) -> None:
    crowded = 0
    for seed in range(chunk * 100, chunk * 100 + 100):
        view = late_view(seed)
        assert len(view["models"]) >= 40
        crowded += len(view["models"])
        geo = geometry(view)
        placed = nexo_tags.layout(view, geo)
        assert set(placed) == set(view["models"]) | set(view["buildings"])
        boxes = [p.box for p in placed.values()]
        meeting = [(a, b) for (a, pa), (b, pb) in combinations(placed.items(), 2) if area(pa.box, pb.box)]
        assert meeting == [], (seed, meeting[:3])
        pieces = piece_boxes(view)
        covered = [(key, other) for key, p in placed.items() for other, box in pieces.items()
                   if other != key and area(p.box, box)]
        assert covered == [], (seed, covered[:3])
        depots = [depot_label_box(geo, d) for d in view["depots"]]
        assert not [d for d in depots for box in boxes if area(box, d)], seed
        field = (geo.left, geo.top, geo.left + geo.field_w, geo.top + geo.field_h)
        assert all(field[0] <= b[0] and field[1] <= b[1] and b[2] <= field[2] and b[3] <= field[3] for b in boxes)
    assert crowded >= 100 * 40


def small(labels: list[Label], width: int) -> list[tuple[str, float]]:
    """Returns the typed tokens under 9 px tall in the 550-px preview."""
    return [(label.text, round(label.preview_height(width), 2)) for label in labels
            if TYPED & set(label.roles) and label.preview_height(width) < MIN_PREVIEW_TEXT]


@pytest.mark.parametrize("seed", [3, 17, 41])
def test_a_late_picture_s_typed_tokens_are_9px_at_550px_and_its_labels_never_meet(seed: int) -> None:
    view = late_view(seed)
    labels: list[Label] = []
    image = draw(view, labels=labels)
    assert small(labels, image.width) == []
    ids = {label.text for label in labels if {"model", "id"} <= set(label.roles)}
    assert ids == set(view["models"])
    cells = [label for label in labels if "cell" in label.roles]
    assert len(cells) == 22 + 30 and [label.text for _, _, label in grid_labels(geometry(view))] == [
        label.text for label in cells]
    assert {label.text for label in labels if "depot" in label.roles} == {d["id"] for d in view["depots"]}
    on_board = [label for label in labels if {"id", "hp", "wia", "wreck", "depot", "cell"} & set(label.roles)]
    meeting = [(a.text, b.text) for a, b in combinations(on_board, 2) if area(a.box, b.box)]
    assert meeting == []


def test_a_tag_set_aside_is_joined_to_its_piece_by_a_leader_line() -> None:
    view = late_view(5)
    geo = geometry(view)
    placed = nexo_tags.layout(view, geo)
    image = draw(view)
    boxes = [p.box for p in placed.values()] + list(piece_boxes(view).values())
    checked = []
    for key, where in placed.items():
        if not where.leader:
            continue
        (cx, cy), box = where.centre, where.box
        end = (min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3]))
        x, y = round((cx + end[0]) / 2), round((cy + end[1]) / 2)
        if any(b[0] - 4 <= x <= b[2] + 4 and b[1] - 4 <= y <= b[3] + 4 for b in boxes):
            continue  # the line's middle is under a tag or a piece drawn over it
        around = {image.getpixel((x + dx, y + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
        assert (255, 255, 255) in around, key
        checked.append(key)
    assert len(checked) >= 3
    key = checked[0]
    alone = {**view, "models": {k: m for k, m in view["models"].items() if k == key},
             "buildings": {k: b for k, b in view["buildings"].items() if k == key}}
    assert not nexo_tags.layout(alone, geo)[key].leader  # with room, the same piece's tag sits beside it
