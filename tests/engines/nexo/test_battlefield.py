"""Tests of the seeded battlefield generator (core §4.4, §5.16, house ruling 15)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from shapely.geometry import Point, box

from engines.core.rng import Rng
from engines.nexo.battlefield import generate, layout_problems
from engines.nexo.data import default_ruleset, piece_shape


def test_generator_is_deterministic_per_seed() -> None:
    rules = default_ruleset()
    assert generate(rules, Rng.from_seed(11)) == generate(rules, Rng.from_seed(11))
    assert generate(rules, Rng.from_seed(11)) != generate(rules, Rng.from_seed(12))


@pytest.mark.parametrize("seed", range(25))
def test_4_4_and_5_16_generated_fields_follow_the_core(seed: int) -> None:
    rules = default_ruleset()
    field = generate(rules, Rng.from_seed(seed))
    assert layout_problems(field, rules) == []


@pytest.mark.parametrize("seed", range(10))
def test_4_2_generated_terrain_keeps_deployment_zones_and_depots_clear(seed: int) -> None:
    rules = default_ruleset()
    field = generate(rules, Rng.from_seed(seed))
    zones = box(0, 0, 44, 12).union(box(0, 48, 44, 60))
    depots = [Point(d.x, d.y).buffer(1) for d in field.depots]
    for piece in field.terrain:
        shape = piece_shape(piece, rules.barricade_width)
        assert not shape.intersects(zones), piece.id
        assert not any(shape.intersects(d) for d in depots), piece.id


def test_generated_field_is_its_own_half_turn() -> None:
    rules = default_ruleset()
    field = generate(rules, Rng.from_seed(3))
    turned = {(round(44 - d.x, 3), round(60 - d.y, 3)) for d in field.depots}
    assert turned == {(d.x, d.y) for d in field.depots}
    shapes = [piece_shape(p, rules.barricade_width) for p in field.terrain]
    half = len(shapes) // 2
    for a, b in zip(shapes[:half], shapes[half:], strict=True):
        assert abs(a.area - b.area) < 1e-6
        assert abs(a.centroid.x + b.centroid.x - 44) < 1e-6


def _depot_roles(depots: Sequence[Any]) -> list[str]:
    """Sorts depots into the core §4.4 roles: near a zone, a midfield flank or the centre."""
    roles = []
    for d in depots:
        if d.y < 21 or d.y > 39:
            roles.append("zone p1" if d.y < 30 else "zone p2")
        else:
            roles.append("flank" if d.x <= 12 or d.x >= 32 else "centre")
    return sorted(roles)


@pytest.mark.parametrize("seed", [*range(5), "crossroads", "dust_belt"])
def test_4_4_one_depot_near_each_zone_two_on_the_flanks_two_in_the_centre(seed: int | str) -> None:
    rules = default_ruleset()
    field = rules.presets[seed] if isinstance(seed, str) else generate(rules, Rng.from_seed(seed))
    assert _depot_roles(field.depots) == ["centre", "centre", "flank", "flank", "zone p1", "zone p2"]
