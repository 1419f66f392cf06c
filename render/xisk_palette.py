"""One shared 256-colour palette for every XISK picture, and the pieces kept in it.

A picture in a palette encodes to a PNG several times smaller and faster than the
same picture in full colour. Mapping the whole picture to a palette on each call
would cost more than the encoding itself, so everything that can be is mapped once
and cached: the felt (map and panel background), and each country's disc patch (the
felt under it, the disc and its count) per owner and count. A picture is then a copy
of the paletted felt, a paste per country and a freshly drawn panel (a small image
mapped on its own).

The palette is trained once on the felt, on every disc style over every country,
and on sample panels; the colours that must come out exact (players, inks, the
felt's flat colours) are appended to it verbatim.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from operator import sub
from typing import Any

from PIL import Image, ImageDraw

from render.common import BACKGROUND, INK, MUTED, NEUTRAL, PANEL, PLAYER_STYLES, Colour, font
from render.xisk_layers import (
    EMPTY_RING,
    INTER_EDGE,
    LABEL,
    LEGEND,
    NEUTRAL_RING,
    OUTLINE,
    RULE,
    UNCLAIMED,
    DiscStyle,
    StaticLayer,
    chip_label,
    chip_point,
    disc_sprite,
    empty_style,
    neutral_style,
    static_layer,
)
from render.xisk_panel import ACTING_ROW, DIM, GOLD, STRIKE, draw_panel

WHITE: Colour = (255, 255, 255)
BLACK: Colour = (0, 0, 0)


def key_colours() -> list[Colour]:
    """Returns the colours that the palette holds exactly (players, inks, flat felt colours)."""
    keys: list[Colour] = [BACKGROUND, PANEL, INK, MUTED, NEUTRAL, OUTLINE, EMPTY_RING, NEUTRAL_RING, INTER_EDGE,
                          RULE, LABEL, LEGEND, UNCLAIMED, ACTING_ROW, DIM, GOLD, STRIKE, WHITE, BLACK, (250, 250, 250),
                          (235, 235, 235)]
    for st in PLAYER_STYLES:
        keys += [st.fill, st.ink]
    return list(dict.fromkeys(keys))


def compose_disc(layer: StaticLayer, country: str, style: DiscStyle, text: str, ink: Colour) -> Image.Image:
    """Returns, in full colour, the felt around ``country`` with its disc and ``text`` on it."""
    sprite = disc_sprite(style)
    half = sprite.width // 2
    x, y = layer.board.positions[country]
    patch = layer.image.crop((x - half, y - half, x + half, y + half))
    patch.paste(sprite, (0, 0), sprite)
    if text:
        label = chip_label((half, half), text)
        ImageDraw.Draw(patch).text(chip_point((half, half)), text, font=font(label.size), fill=ink, anchor="mm",
                                   stroke_width=1, stroke_fill=ink)
    return patch


def _sample_views(players: list[str], countries: tuple[str, ...]) -> list[dict[str, Any]]:
    """Returns panels' worth of views that show every seat acting, out, winning and in battle."""
    n = len(players)
    views = []
    for i in range(n):
        owners = [*players, "neutral"]
        views.append({
            "phase": "attack", "turn": players[i], "turn_number": 12 + i, "to_act": [players[i]],
            "countries": {c: {"owner": owners[k % len(owners)], "chips": k % 9 + 1} for k, c in enumerate(countries)},
            "cards_held": dict.fromkeys(players, 3), "sets_redeemed": 3, "next_set_value": 4, "supply_left": 5,
            "claims_left": 0, "invade": {"from": countries[0], "to": countries[1], "most": 3},
            "last_battle": {"from": countries[0], "to": countries[1], "attacker": players[i],
                            "defender": players[(i + 1) % n] if i % 2 else "neutral",
                            "attacker_dice": [6, 5, 4], "defender_dice": [3, 2],
                            "attacker_losses": 1, "defender_losses": 1, "conquered": True},
            "eliminated": [players[(i + 2) % n]], "winner": players[(i + 3) % n] if i % 2 else None,
        })
    return views


def _training_image(layer: StaticLayer, panel: Image.Image) -> Image.Image:
    """Returns one image holding the felt, every disc style on every country, and sample panels."""
    styles = [DiscStyle(st.fill, OUTLINE, st.mark, BLACK) for st in PLAYER_STYLES]
    inks = [st.ink for st in PLAYER_STYLES]
    styles += [neutral_style(), empty_style()]
    inks += [BLACK, INK]
    board = layer.board
    patches = [compose_disc(layer, c, st, "18", ink) for st, ink in zip(styles, inks, strict=True)
               for c in board.countries]
    side = patches[0].width
    per_row = layer.image.width // side
    rows = -(-len(patches) // per_row)
    players = [f"player{i}" for i in range(len(PLAYER_STYLES))]
    panels = []
    for view in _sample_views(players, board.countries):
        sample = panel.copy()
        draw_panel(sample, view, players, board.names)
        panels.append(sample)
    height = layer.image.height + rows * side + panel.height * len(panels)
    out = Image.new("RGB", (max(layer.image.width, panel.width), height), BACKGROUND)
    out.paste(layer.image, (0, 0))
    for k, patch in enumerate(patches):
        out.paste(patch, ((k % per_row) * side, layer.image.height + (k // per_row) * side))
    for k, sample in enumerate(panels):
        out.paste(sample, (0, layer.image.height + rows * side + k * panel.height))
    return out


@dataclass(frozen=True)
class PalettedFelt:
    """The felt mapped to the shared palette, with what a picture needs to draw on it."""

    layer: StaticLayer
    palette: Image.Image
    image: Image.Image
    panel: Image.Image
    indices: dict[Colour, int]

    def to_palette(self, rgb: Image.Image) -> Image.Image:
        """Returns ``rgb`` mapped to the shared palette (nearest colour, no dithering)."""
        return rgb.quantize(palette=self.palette, dither=Image.Dither.NONE)

    def index(self, colour: Colour) -> int:
        """Returns the palette index of a key colour; raises KeyError for any other colour."""
        return self.indices[colour]


def build_paletted_felt(layer: StaticLayer) -> PalettedFelt:
    """Returns the felt of ``layer`` in a palette trained on everything a picture can show."""
    panel = layer.image.crop((0, layer.map_height, layer.map_width, layer.image.height))
    keys = key_colours()
    trained = _training_image(layer, panel).quantize(256 - len(keys), method=Image.Quantize.FASTOCTREE)
    flat = (trained.getpalette() or [])[: 3 * (256 - len(keys))]
    learnt = [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat) - 2, 3)]
    # Pillow maps colours through a cache of 4×4×4 cells, so a learnt colour close to a key
    # colour could take its place: keep learnt colours well clear of every key colour.
    learnt = [c for c in dict.fromkeys(learnt) if all(max(map(abs, map(sub, c, k))) >= 8 for k in keys)]
    colours = [v for c in learnt for v in c]
    start = len(learnt)
    for c in keys:
        colours += list(c)
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours)
    indices = {c: start + i for i, c in enumerate(keys)}
    image = layer.image.quantize(palette=palette, dither=Image.Dither.NONE)
    return PalettedFelt(layer, palette, image, panel, indices)


@lru_cache(maxsize=1)
def paletted_felt() -> PalettedFelt:
    """Returns the standard map's paletted felt, built once per process (never modify it)."""
    return build_paletted_felt(static_layer())


@lru_cache(maxsize=4096)
def disc_patch(country: str, style: DiscStyle, text: str, ink: Colour) -> Image.Image:
    """Returns the paletted patch of a country's disc with ``text`` (cached per owner and count)."""
    felt = paletted_felt()
    return felt.to_palette(compose_disc(felt.layer, country, style, text, ink))
