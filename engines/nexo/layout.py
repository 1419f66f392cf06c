"""The core's battlefield layout rules (core §4.1, §4.4), as checks on plain numbers.

Each function returns a list of problems, each a sentence; an empty list means the
layout is legal. The loader turns problems into errors, the generator rejects::

    >>> depot_problems([(10, 18), (34, 42)], width=44, length=60, zone=12)
    []
    >>> depot_problems([(5, 30)], width=44, length=60, zone=12)
    ['depot 1 at (5, 30) is 5" from an edge (at least 9")']

Readings chosen here:

- Depot distances are measured from the depot's centre (the house template puts a depot
  at exactly 9" from an edge), and "6\" outside a deployment zone" means the centre is at
  least ``zone + 6`` from the deployment edge.
- A depot is "inside impassable terrain" when its 1" circle overlaps an impassable footprint.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

DEPOT_EDGE = 9.0
"""Core §4.4: at least 9" from any battlefield edge."""
DEPOT_SPACING = 12.0
"""Core §4.4: at least 12" from another Carbonite depot."""
DEPOT_ZONE_GAP = 6.0
"""Core §4.4: at least 6" outside either deployment zone."""
DEPOT_RADIUS = 1.0
"""House ruling 12: a depot is a 1" circle."""


def _fmt(v: float) -> str:
    return f"{v:g}"


def depot_problems(
    depots: Sequence[tuple[float, float]],
    *,
    width: float,
    length: float,
    zone: float,
    impassable: Sequence[BaseGeometry] = (),
) -> list[str]:
    """Returns every way the depots break core §4.4 (edges, spacing, zones, impassable)."""
    out: list[str] = []
    for n, (x, y) in enumerate(depots, start=1):
        where = f"depot {n} at ({_fmt(x)}, {_fmt(y)})"
        edge = min(x, width - x, y, length - y)
        if edge < DEPOT_EDGE - 1e-9:
            out.append(f'{where} is {_fmt(round(edge, 2))}" from an edge (at least 9")')
        gap = min(y - zone, (length - zone) - y)
        if gap < DEPOT_ZONE_GAP - 1e-9:
            out.append(f'{where} is {_fmt(round(gap, 2))}" outside a deployment zone (at least 6")')
        circle = Point(x, y).buffer(DEPOT_RADIUS)
        if any(circle.intersection(poly).area > 1e-9 for poly in impassable):
            out.append(f"{where} is inside impassable terrain")
        for m in range(n, len(depots)):
            ox, oy = depots[m]
            d = math.dist((x, y), (ox, oy))
            if d < DEPOT_SPACING - 1e-9:
                out.append(f'{where} is {_fmt(round(d, 2))}" from depot {m + 1} (at least 12")')
    return out


def on_battlefield_problems(
    shapes: Sequence[tuple[str, BaseGeometry]], *, width: float, length: float
) -> list[str]:
    """Returns a problem for each named shape that leaves the battlefield."""
    out: list[str] = []
    for name, shape in shapes:
        minx, miny, maxx, maxy = shape.bounds
        if minx < -1e-9 or miny < -1e-9 or maxx > width + 1e-9 or maxy > length + 1e-9:
            out.append(f"{name} leaves the {_fmt(width)}\" x {_fmt(length)}\" battlefield")
    return out


def in_zone(y_min: float, y_max: float, *, zone: float) -> bool:
    """True when a shape spanning ``y_min..y_max`` lies inside player 1's zone (y ≤ zone)."""
    return y_min >= -1e-9 and y_max <= zone + 1e-9
