"""The static terrain of one battlefield, indexed for fast geometric queries (core §5).

:class:`Terrain` resolves each piece's traits (its type's, overridden by the piece) and
keeps an STRtree of the footprints plus prepared geometries, so a query only tests the
pieces near it::

    >>> from engines.nexo.data import default_ruleset
    >>> rules = default_ruleset()
    >>> t = Terrain(rules.presets["crossroads"], rules)
    >>> [p.id for p in t.at(7, 23)], t.elevation(39, 16)
    (['R1a'], 5.0)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import shapely
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.strtree import STRtree

from engines.nexo.data import piece_shape
from engines.nexo.datatypes import Preset, Ruleset, TerrainPiece, TerrainType


@dataclass(frozen=True, eq=False)
class Piece:
    """A terrain piece with its footprint built and its type's traits, overridden by its own."""

    id: str
    shape: Polygon
    traits: TerrainType
    features: tuple[tuple[Polygon, str], ...]

    @property
    def type(self) -> str:
        """The terrain type's name."""
        return self.traits.name

    @property
    def is_line(self) -> bool:
        """True for barricades and pipes (core §5.10)."""
        return self.traits.no_stopping


def resolve(piece: TerrainPiece, rules: Ruleset) -> Piece:
    """Returns the piece with the traits of its type, overridden by the piece's own."""
    t = rules.terrain_types[piece.type]
    shape = piece_shape(piece, rules.barricade_width)
    shapely.prepare(shape)
    traits = replace(
        t,
        blocks_sight=t.blocks_sight if piece.blocks_sight is None else piece.blocks_sight,
        cover_inside=t.cover_inside and (piece.cover or t.cover_inside),
        cover_crossed=t.cover_crossed and (piece.cover or t.cover_crossed),
        height=t.height if piece.height is None else piece.height,
    )
    return Piece(
        id=piece.id, shape=shape, traits=traits,
        features=tuple((Polygon(f.poly), f.cover) for f in piece.features),
    )


class Terrain:
    """The terrain of a battlefield: pieces, an STRtree over them and the board's edge."""

    def __init__(self, field: Preset, rules: Ruleset) -> None:
        self.width = field.width
        self.length = field.length
        self.bounds: Polygon = box(0, 0, field.width, field.length)
        shapely.prepare(self.bounds)
        self.cover_reach = rules.cover_reach
        self.high_ground = rules.elevation_ignores_light
        self.pieces: list[Piece] = [resolve(p, rules) for p in field.terrain]
        self.by_id: dict[str, Piece] = {p.id: p for p in self.pieces}
        self.tree = STRtree([p.shape for p in self.pieces])
        """An STRtree over the pieces' footprints, indexed as ``pieces``."""
        difficult = [p.shape for p in self.pieces if p.traits.difficult]
        self.difficult: BaseGeometry = shapely.union_all(difficult) if difficult else Polygon()
        shapely.prepare(self.difficult)

    def near(self, geom: BaseGeometry) -> list[Piece]:
        """Returns the pieces whose bounding boxes meet ``geom``'s, in board order."""
        return [self.pieces[i] for i in sorted(self.tree.query(geom))]

    def touching(self, geom: BaseGeometry) -> list[Piece]:
        """Returns the pieces whose footprints intersect ``geom``."""
        return [self.pieces[i] for i in sorted(self.tree.query(geom, predicate="intersects"))]

    def at(self, x: float, y: float) -> list[Piece]:
        """Returns the pieces whose footprint holds the point (a model is inside when its centre is)."""
        pt = Point(x, y)
        return [p for p in self.near(pt) if p.shape.covers(pt)]

    def elevation(self, x: float, y: float) -> float:
        """Returns the height of the highest hill under the point (house ruling 8), else 0."""
        return max((p.traits.height for p in self.at(x, y)), default=0.0)
