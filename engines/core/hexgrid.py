"""Hex-grid maths shared by the hex games: axial coordinates ``(q, r)``.

The grid is flat-topped with ``r`` growing downwards, so the six side directions,
clockwise from straight up, are N, NE, SE, S, SW, NW::

    >>> SIDES[0], SIDES[2]
    ((0, -1), (1, 0))
    >>> distance((0, 0), (2, -1))
    2
    >>> len(hexagon(3))
    37
    >>> rotate_cw((0, -1))
    (1, -1)
    >>> corner((0, 0), 1), flanks((0, 0), 1)
    ((2, -1), ((1, -1), (1, 0)))
"""

from __future__ import annotations

import math

Hex = tuple[int, int]
"""An axial coordinate ``(q, r)``."""

SIDES: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
"""The six side directions of a flat-topped hex, clockwise from straight up (N)."""


def add(a: Hex, b: Hex) -> Hex:
    """Returns the sum of two axial vectors."""
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Hex, b: Hex) -> Hex:
    """Returns ``a - b``."""
    return (a[0] - b[0], a[1] - b[1])


def scale(a: Hex, k: int) -> Hex:
    """Returns ``a`` multiplied by ``k``."""
    return (a[0] * k, a[1] * k)


def length(a: Hex) -> int:
    """Returns the number of steps from the origin to ``a``."""
    return max(abs(a[0]), abs(a[1]), abs(a[0] + a[1]))


def distance(a: Hex, b: Hex) -> int:
    """Returns the number of steps between two hexes."""
    return length(sub(a, b))


def neighbours(h: Hex) -> list[Hex]:
    """Returns the six hexes sharing a side with ``h``, clockwise from N."""
    return [add(h, d) for d in SIDES]


def hexagon(radius: int, centre: Hex = (0, 0)) -> frozenset[Hex]:
    """Returns the hex-hex region of the given radius (``radius + 1`` hexes a side)."""
    return frozenset(
        add(centre, (q, r))
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if length((q, r)) <= radius
    )


def rotate_cw(a: Hex, times: int = 1) -> Hex:
    """Returns ``a`` turned clockwise about the origin by ``times`` sixths of a turn."""
    q, r = a
    for _ in range(times % 6):
        q, r = -r, q + r
    return (q, r)


def corner(h: Hex, side: int) -> Hex:
    """Returns the hex two steps away through the corner after side ``side`` (clockwise).

    The corner joins sides ``side`` and ``side + 1``; its hex is their sum.
    """
    a, b = SIDES[side % 6], SIDES[(side + 1) % 6]
    return (h[0] + a[0] + b[0], h[1] + a[1] + b[1])


def flanks(h: Hex, side: int) -> tuple[Hex, Hex]:
    """Returns the two hexes a jump through the corner after ``side`` passes between."""
    return add(h, SIDES[side % 6]), add(h, SIDES[(side + 1) % 6])


def to_pixel(h: Hex, size: float) -> tuple[float, float]:
    """Returns the centre of a flat-topped hex of circumradius ``size`` (y grows down)."""
    q, r = h
    return (1.5 * size * q, math.sqrt(3) * size * (r + q / 2))
