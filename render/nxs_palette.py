"""One 256-colour palette per NXS board colouring, so a picture encodes small and fast.

A full-colour NXS picture is over 200 KB; mapped to a palette it is under 100 KB and
encodes in half the time. The palette is trained once per scale and colouring on the static
layer and on a sample picture showing every mark, both sides' tiles with their letters and
the panel; the colours that must come out exact (marks, tiles, boards, panel) are appended
to it verbatim. Mapping a whole picture would cost as much as drawing it, so the static
layer is mapped once (:func:`paletted_layer`) and a picture is drawn straight onto a copy.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from operator import sub
from typing import Any

from PIL import Image

from render.common import BACKGROUND, INK, MUTED, PANEL, PLAYER_STYLES, Colour
from render.nxs_board import board_colours, static_layer
from render.nxs_canvas import PalettedLayer
from render.nxs_marks import CAPTURE, CASING, LAST, MOVE, SELECTED

SAMPLE_SHIPS: tuple[tuple[str, list[str], int, list[str], bool], ...] = (
    ("Merchant", ["N", "NE", "NW"], 3, [], True),
    ("Brigantine", ["N", "NE", "S", "NW"], 2, ["NE-SE", "SW-NW"], False),
    ("Frigate", ["N", "NE", "SE", "SW", "NW"], 1, ["NW-N", "N-NE", "NE-SE", "SW-NW"], False),
    ("Sloop", ["N", "S"], 4, ["NE-SE", "SW-NW"], False),
    ("Cutter", ["N"], 5, ["NW-N", "N-NE"], False),
)
"""Ships of every kind the roster ships with (name, arrows, range, corners, immune)."""


def sample_view(colours: tuple[str, str]) -> dict[str, Any]:
    """Returns a made-up view showing every ship kind for both sides, territory and a last move."""
    cells = [("c3", "d5", "e4", "b2", "a3"), ("k3", "l5", "j4", "m2", "n3")]
    pieces = []
    for seat, row in enumerate(cells):
        for (name, arrows, rng, corners, immune), cell in zip(SAMPLE_SHIPS, row, strict=True):
            pieces.append({"cell": cell, "owner": f"p{seat}", "seat": seat, "colour": colours[seat], "name": name,
                           "ship": name.lower(), "facing": "N", "arrows": arrows, "range": rng,
                           "corners": corners, "immune": immune})
    return {
        "players": ["p0", "p1"], "colours": {"p0": colours[0], "p1": colours[1]}, "pieces": pieces,
        "territory": {"p0": ["f4", "k5"], "p1": ["g3", "e4"]}, "score": {"p0": 2, "p1": 2},
        "target": {"p0": 10, "p1": 10}, "captured": {"p0": 1, "p1": 3}, "step": "move", "turn": "p0",
        "last_move": {"kind": "move", "from": "j2", "to": "k3"}, "result": None,
    }


def key_colours(colours: tuple[str, str], tiles: list[Colour]) -> list[Colour]:
    """Returns the colours the palette holds exactly: marks, panel, boards and tiles."""
    keys: list[Colour] = [MOVE, CAPTURE, SELECTED, LAST, CASING, INK, MUTED, PANEL, BACKGROUND]
    for fill, outline in board_colours(colours):
        keys += [fill, outline]
    keys += tiles
    for st in PLAYER_STYLES:
        keys += [st.fill, st.ink]
    return list(dict.fromkeys(keys))


@lru_cache(maxsize=8)
def palette(scale: float, colours: tuple[str, str], draw: Callable[..., Image.Image],
            tiles: tuple[Colour, ...]) -> Image.Image:
    """Returns the palette image for pictures at ``scale`` with boards of ``colours`` (cached).

    ``draw`` is the picture's drawing function (passed in to keep the modules apart),
    ``tiles`` the tile colours of both sides.
    """
    layer = static_layer(scale, colours)
    sample = draw(sample_view(colours), selected="c3", moves=["c4", "d3", "b4"], captures=["d5"], scale=scale)
    training = Image.new("RGB", (layer.width, layer.height * 2))
    training.paste(layer, (0, 0))
    training.paste(sample, (0, layer.height))
    keys = key_colours(colours, list(tiles))
    trained = training.quantize(256 - len(keys), method=Image.Quantize.FASTOCTREE)
    flat = (trained.getpalette() or [])[: 3 * (256 - len(keys))]
    learnt = [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat) - 2, 3)]
    # Pillow maps colours through a cache of 4×4×4 cells, so a learnt colour close to a key
    # colour could take its place: keep learnt colours well clear of every key colour.
    learnt = [c for c in dict.fromkeys(learnt) if all(max(map(abs, map(sub, c, k))) >= 8 for k in keys)]
    out = Image.new("P", (1, 1))
    out.putpalette([v for c in [*learnt, *keys] for v in c])
    return out


@lru_cache(maxsize=8)
def paletted_layer(scale: float, colours: tuple[str, str], draw: Callable[..., Image.Image],
                   tiles: tuple[Colour, ...]) -> PalettedLayer:
    """Returns the static layer at ``scale`` for boards of ``colours`` mapped to their :func:`palette` (cached).

    Callers must copy its image before drawing on it.
    """
    pal = palette(scale, colours, draw, tiles)
    return PalettedLayer.of(static_layer(scale, colours), pal, key_colours(colours, list(tiles)))
