"""Battlefield layouts: the core's checks (§4.4, §5.16) and a seeded generator.

The generator builds player 1's half, then adds its half-turn about the centre, so both
players face the same board::

    >>> from engines.core.rng import Rng
    >>> from engines.nexo.data import default_ruleset
    >>> rules = default_ruleset()
    >>> field = generate(rules, Rng.from_seed(5))
    >>> layout_problems(field, rules)
    []
    >>> len(field.depots)
    6

Readings chosen here:

- "Large" pieces (core §5.16) are Obscuring or sight-blocking types (ruins, sealed
  structures); "smaller cover pieces" are the other area types that give cover (craters,
  rubble, debris, wreckage); "elevated positions" are pieces with a height.
- Generated terrain stays out of both deployment zones, keeps a 2" gap between pieces
  (room for the largest base) and never covers a depot, so every depot is a risky one;
  the half-turn symmetry keeps the two sides fair.
- The generated deployment is copied from a preset (default ``crossroads``), whose zone is
  kept clear by the generator.
"""

from __future__ import annotations

from dataclasses import replace

from shapely.geometry import Point, Polygon

from engines.core.rng import Rng
from engines.nexo import layout
from engines.nexo.data import piece_shape
from engines.nexo.datatypes import Depot, Feature, Preset, Ruleset, TerrainPiece

DEPOT_TEMPLATE: tuple[tuple[float, float, float, float], ...] = (
    (9, 18, 12, 19.5), (9, 30, 10.5, 33), (20, 22, 24, 24))
"""Boxes (x0, y0, x1, y1) for player 1's home, flank and centre depots, around the house
template (ruling 15); the other three are their half-turn."""
PIECE_GAP = 2.0
"""Room left between generated pieces: the widest base (Strider, 3") fits through."""

# (type, min size, max size, count range) for player 1's half.
_RECIPE: tuple[tuple[str, float, float, tuple[int, int]], ...] = (
    ("hill", 5.0, 7.0, (1, 1)),
    ("ruin", 4.0, 8.0, (2, 2)),
    ("sealed", 3.0, 5.0, (0, 1)),
    ("crater", 2.5, 4.5, (1, 2)),
    ("rubble", 2.5, 4.0, (0, 1)),
    ("debris", 1.0, 2.5, (1, 1)),
    ("barricade", 3.0, 6.0, (1, 2)),
)


_PREFIX = {"ruin": "R", "sealed": "S", "crater": "C", "rubble": "U", "debris": "D", "barricade": "B",
           "hill": "H"}


def is_large(piece: TerrainPiece, rules: Ruleset) -> bool:
    """True for a large visibility-blocking or Obscuring piece (core §5.16)."""
    t = rules.terrain_types[piece.type]
    return t.obscuring or t.blocks_sight


def layout_problems(field: Preset, rules: Ruleset) -> list[str]:
    """Returns every way ``field`` breaks core §4.4 depot rules or §5.16 terrain density."""
    shapes = [(p.id, piece_shape(p, rules.barricade_width)) for p in field.terrain]
    out = layout.on_battlefield_problems(shapes, width=field.width, length=field.length)
    impassable = [s for (_, s), p in zip(shapes, field.terrain, strict=True)
                  if rules.terrain_types[p.type].impassable]
    out += layout.depot_problems([(d.x, d.y) for d in field.depots], width=field.width,
                                 length=field.length, zone=field.zone, impassable=impassable)
    ids = [p.id for p in field.terrain] + [d.id for d in field.depots]
    if len(set(ids)) != len(ids):
        out.append("two pieces or depots share an id")
    if len(field.depots) != 6:
        out.append(f"{len(field.depots)} depots instead of 6 (core §4.4)")
    types = rules.terrain_types
    large = sum(is_large(p, rules) for p in field.terrain)
    small = sum(1 for p in field.terrain if not is_large(p, rules) and types[p.type].shape == "area"
                and (types[p.type].cover_inside or types[p.type].cover_crossed))
    lines = sum(1 for p in field.terrain if types[p.type].shape == "line")
    high = sum(1 for p in field.terrain if (p.height if p.height is not None else types[p.type].height) > 0)
    if not 4 <= large <= 6:
        out.append(f"{large} large Obscuring or blocking pieces (core §5.16: 4–6)")
    if not 4 <= small <= 8:
        out.append(f"{small} smaller cover pieces (core §5.16: 4–8)")
    if lines < 2:
        out.append(f"{lines} barricades or pipes (core §5.16: several)")
    if high < 2:
        out.append(f"{high} elevated positions (core §5.16: at least 2)")
    return out


def _half_turn(x: float, y: float, field_w: float, field_l: float) -> tuple[float, float]:
    return (round(field_w - x, 3), round(field_l - y, 3))


def _mirror(piece: TerrainPiece, w: float, length: float) -> TerrainPiece:
    def turn(ring: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
        return tuple(_half_turn(x, y, w, length) for x, y in ring)

    return replace(piece, id=piece.id[:-1] + "b", poly=turn(piece.poly), line=turn(piece.line),
                   features=tuple(Feature(turn(f.poly), f.cover) for f in piece.features))


def _depots(rng: Rng, w: float, length: float, zone: float) -> tuple[Depot, ...] | None:
    half = [(round(rng.uniform(x0, x1), 1), round(rng.uniform(y0, y1), 1))
            for x0, y0, x1, y1 in DEPOT_TEMPLATE]
    pts: list[tuple[float, float]] = []
    for p in half:
        pts += [p, _half_turn(*p, w, length)]
    if layout.depot_problems(pts, width=w, length=length, zone=zone):
        return None
    return tuple(Depot(f"K{i + 1}", x, y) for i, (x, y) in enumerate(pts))


def _piece(rng: Rng, kind: str, n: int, lo: float, hi: float, zone: float, w: float,
           mid: float) -> TerrainPiece:
    a, b = rng.uniform(lo, hi), rng.uniform(lo, hi)
    if kind == "barricade":
        x, y = rng.uniform(1, w - 1 - a), rng.uniform(zone + 2, mid - 2)
        line = ((round(x, 1), round(y, 1)), (round(x + a, 1), round(y, 1)))
        if rng.below(2):
            line = ((round(x, 1), round(y, 1)), (round(x, 1), round(min(y + a, mid - 1), 1)))
        return TerrainPiece(id=f"{_PREFIX[kind]}{n}a", type=kind, line=line)
    x, y = rng.uniform(1, w - 1 - a), rng.uniform(zone + 2, mid - 1 - b)
    poly = tuple((round(px, 1), round(py, 1)) for px, py in
                 ((x, y), (x + a, y), (x + a, y + b), (x, y + b)))
    feats: tuple[Feature, ...] = ()
    if kind == "ruin":
        cx, cy = x + a / 2, y + b / 2
        feats = (Feature(((round(cx - 1, 1), round(cy, 1)), (round(cx + 1, 1), round(cy, 1)),
                          (round(cx + 1, 1), round(cy + 0.5, 1)), (round(cx - 1, 1), round(cy + 0.5, 1))),
                         "heavy"),)
    large = kind == "debris" and rng.below(2) == 1
    return TerrainPiece(id=f"{_PREFIX[kind]}{n}a", type=kind, poly=poly, features=feats,
                        cover="heavy" if large else None, blocks_sight=True if large else None)


def generate(rules: Ruleset, rng: Rng, *, deploy_from: str = "crossroads", tries: int = 200) -> Preset:
    """Returns a battlefield drawn from ``rng`` that passes :func:`layout_problems`.

    Raises ValueError if no layout is found within ``tries`` attempts (never seen).
    """
    base = rules.presets[deploy_from]
    w, length, zone, mid = base.width, base.length, base.zone, base.length / 2
    for _ in range(tries):
        depots = _depots(rng, w, length, zone)
        if depots is None:
            continue
        keep_out = [Point(d.x, d.y).buffer(layout.DEPOT_RADIUS + 1.0) for d in depots]
        pieces: list[TerrainPiece] = []
        shapes: list[Polygon] = []
        for kind, lo, hi, (cmin, cmax) in _RECIPE:
            want = cmin + rng.below(cmax - cmin + 1)
            for n in range(1, want + 1):
                for _attempt in range(40):
                    p = _piece(rng, kind, n, lo, hi, zone, w, mid)
                    s = piece_shape(p, rules.barricade_width)
                    if s.bounds[0] < 0 or s.bounds[2] > w:
                        continue
                    grown = s.buffer(PIECE_GAP)
                    if any(grown.intersects(o) for o in shapes + keep_out):
                        continue
                    pieces.append(p)
                    shapes.append(s)
                    break
        terrain = tuple(pieces) + tuple(_mirror(p, w, length) for p in pieces)
        field = Preset(name="generated", title="Generated battlefield", width=w, length=length,
                       zone=zone, depots=depots, terrain=terrain, buildings=base.buildings,
                       models=base.models)
        if not layout_problems(field, rules):
            return field
    raise ValueError(f"no legal battlefield found in {tries} tries")
