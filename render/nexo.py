"""The Nexohominis picture: the battlefield with terrain, depots, buildings and models, and a side panel.

Drawn from the view only (``Nexo.view``). The battlefield's grid, deployment zones, terrain
and depots come from a layer cached per battlefield content (:mod:`render.nexo_field`); each
picture copies it and draws buildings, wreckage, models, the last move's path and the last
attack's line, the panel (per player: Carbonite, Energy production/demand, Blackout, Passes,
reserve; then round, phase and who acts) and a legend. Texts are blitted from cached glyph masks
(:func:`render.nexo_field.draw_text`, the same pixels as ``ImageDraw.text``), so drawing is a
small part of a picture's cost next to its encoding::

    >>> from engines import GAMES
    >>> png = render(GAMES["nexo"].new(["ann", "bob"], 1, {}).view(None))
    >>> png[:4] + png[8:12] == b"RIFFWEBP"  # full colour: lossless WebP
    True

A model is a disc in its owner's colour (:data:`render.common.PLAYER_STYLES`) at its base's
centre, at least 1.1" across, over an HP bar, with a white ring for Overwatch. Its tag
``[a1|5]`` (id on the owner's colour, then HP on black, then a red Wounded-in-Action letter)
goes beside it where it covers no other tag or piece, with a leader line when it is set
further out (:mod:`render.nexo_tags`); buildings and wrecks are tagged the same way. The
disc's centre is always the owner's colour (:func:`to_px` maps inches to pixels), so a
picture can be checked by sampling it. Every id a player types (models, buildings, wrecks,
depots, the grid's letters and numbers) and who is to act are at least 9 px tall in
Discord's 550-px preview; ``labels`` records them (roles ``id``, ``cell``, ``depot``, ``to_act``).

With ``overlay`` (``/nexo show <unit>``: its Move and Dash squares, weapon ranges and sight lines,
:mod:`render.nexo_overlay`), the picture keeps its size and gains that unit's reach shaded, its
ranges as rings, lines to the targets it sees coloured by cover and a caption in the panel.

Marks: ``last_move`` (``{"model": id, "path": [[x, y], ...]}``) and ``last_attack``
(``{"attacker": id, "target": id, "result": text}``, or ``"from"``/``"to"`` points) override
the view's keys of the same names.
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw

from render import nexo_overlay, nexo_tags
from render.common import INK, MUTED, Box, Colour, Labels, PlayerStyle, encode, player_style
from render.nexo_field import (
    DEPOT,
    HATCH,
    TERRAIN_STYLES,
    Geometry,
    depot_labels,
    draw_text,
    faction,
    grid_labels,
    px,
    static_layer,
    text_length,
    token_radius,
    write,
)
from render.nexo_tags import Chip, Placed

__all__ = ["Geometry", "draw", "geometry", "render", "to_px"]

COMPRESS_LEVEL = 3
"""zlib level of the PNG (fast: the picture is sent once)."""
LAST: Colour = (255, 255, 255)
ATTACK: Colour = (255, 80, 64)
WIA: Colour = (213, 36, 36)
BLACKOUT: Colour = (255, 90, 70)
ABBREV = {"headquarters": "HQ", "generator": "GEN", "foundry": "FDY", "turret": "TUR", "relay": "RLY"}


def geometry(view: dict[str, Any]) -> Geometry:
    """Returns the layout of a view's picture (its battlefield's size)."""
    width, length = (view.get("size") or [44, 60])[:2]
    return Geometry(width, length)


def to_px(view: dict[str, Any], x: float, y: float) -> tuple[float, float]:
    """Returns the picture pixel of battlefield inches ``(x, y)`` in ``view``'s picture."""
    return geometry(view).to_px(x, y)


def render(view: dict[str, Any], **marks: Any) -> bytes:
    """Returns the picture (lossless WebP, :func:`render.common.encode`) of a view; unknown ``marks`` are ignored."""
    return encode(draw(view, **marks), compress_level=COMPRESS_LEVEL)


def _styles(view: dict[str, Any]) -> dict[str, tuple[int, PlayerStyle]]:
    return {p: (i, player_style(i)) for i, p in enumerate(view.get("players") or {})}


def to_act(view: dict[str, Any]) -> str | None:
    """Returns who acts now: the initiative winner while rolling, else whose turn it is; None when over."""
    if view.get("result") or view.get("phase") == "over":
        return None
    if view.get("phase") == "initiative":
        return view.get("initiative") or next(iter(view.get("players") or {}), None)
    return view.get("turn") or view.get("first") or next(iter(view.get("players") or {}), None)


def draw(view: dict[str, Any], *, labels: Labels | None = None, last_move: dict[str, Any] | None = None,
         last_attack: dict[str, Any] | None = None, overlay: dict[str, Any] | None = None, **_: Any) -> Image.Image:
    """Returns the finished RGB picture of ``view`` before encoding; ``labels`` records the texts.

    ``overlay`` (``/nexo show <unit>``, see :mod:`render.nexo_overlay`) adds a unit's reach, ranges
    and sight lines: shading and rings over the terrain, lines under the tokens, labels on top.
    """
    geo = geometry(view)
    image = static_layer(view).copy()
    pen = ImageDraw.Draw(image)
    styles = _styles(view)
    marks = {p: st.mark for p, (_, st) in styles.items()}
    placed = nexo_tags.layout(view, geo, marks)
    models = view.get("models") or {}
    buildings = view.get("buildings") or {}
    shown = nexo_overlay.shown(view, overlay, geo, styles) if overlay else None
    if shown:
        shown.obstacles = [p.box for p in placed.values()] + [nexo_tags.model_box(geo, m) for m in models.values()
                                                              if isinstance(m, dict) and "x" in m and "y" in m]
        nexo_overlay.draw_under(image, pen, geo, shown)
    for b in buildings.values():
        _building(pen, geo, b, styles)
    if shown:
        nexo_overlay.draw_lines(pen, geo, shown)
    _last_move(pen, geo, last_move or view.get("last_move"), models)
    for where in placed.values():
        if where.leader:
            _leader(pen, where)
    for m in models.values():
        _token(pen, geo, m, styles)
    for key, where in placed.items():
        if key in models:
            m = models[key]
            _tag(pen, where.box, nexo_tags.model_chips(key, m), _style(styles, m), labels, "model")
        else:
            b = buildings[key]
            role = "wreck" if b.get("wreck") else "building"
            _tag(pen, where.box, nexo_tags.building_chips(nexo_tags.building_id(key, b, marks), b),
                 _style(styles, b), labels, role)
    if labels is not None:
        labels.extend(label for _, _, label in grid_labels(geo))
        labels.extend(depot_labels(geo, view.get("depots") or []))
    _last_attack(pen, geo, last_attack or view.get("last_attack"), models, view.get("buildings") or {}, labels)
    if shown:
        nexo_overlay.draw_labels(pen, geo, shown, labels)
    bottom = _panel(pen, geo, view, styles, labels)
    if shown:
        bottom = min(bottom, geo.picture_h - 0.8 * geo.s - nexo_overlay.KEY_HEIGHT)
        nexo_overlay.draw_key(pen, shown, geo.panel_x + 0.6 * geo.s, bottom, labels)
    _legend(pen, geo, labels)
    return image


# -- buildings and models ---------------------------------------------------------------

def _mix(a: Colour, b: Colour, t: float) -> Colour:
    return tuple(round(x * (1 - t) + y * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def _style(styles: dict[str, tuple[int, PlayerStyle]], piece: dict[str, Any]) -> PlayerStyle:
    """Returns the style of a piece's owner (the first seat's for an unknown owner)."""
    return styles.get(str(piece.get("owner")), (0, player_style(0)))[1]


def _building(pen: ImageDraw.ImageDraw, geo: Geometry, b: dict[str, Any],
              styles: dict[str, tuple[int, PlayerStyle]]) -> None:
    """Draws a building's footprint (hatched while being built), its kind and HP bar, or its wreck."""
    kind = faction().get("buildings", {}).get(str(b.get("type")), {})
    box = nexo_tags.building_box(geo, b)
    st = _style(styles, b)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    s = geo.s
    if b.get("wreck"):
        fill, rim = TERRAIN_STYLES["wreckage"]
        pen.rectangle(box, fill=fill, outline=rim, width=3)
        pen.line((box[0], box[1], box[2], box[3]), fill=rim, width=3)
        pen.line((box[0], box[3], box[2], box[1]), fill=rim, width=3)
        return
    complete = b.get("complete", True)
    pen.rectangle(box, fill=_mix((40, 44, 40), st.fill, 0.55 if complete else 0.25), outline=st.fill, width=4)
    if not complete:
        step = round(0.6 * s)
        for k in range(int(box[0]) - int(box[3] - box[1]), int(box[2]), step):
            x0, y0, x1, y1 = float(k), box[3], k + (box[3] - box[1]), box[1]
            if x0 < box[0]:
                y0, x0 = box[3] - (box[0] - x0), box[0]
            if x1 > box[2]:
                y1, x1 = box[1] + (x1 - box[2]), box[2]
            pen.line((x0, y0, x1, y1), fill=st.fill, width=2)
    inner = ABBREV.get(str(b.get("type")), str(b.get("type", "?"))[:3].upper())
    if box[2] - box[0] >= 2.5 * s:
        draw_text(pen, (cx, cy), inner, round(0.8 * s), INK, anchor="mm", stroke=2, stroke_fill=(0, 0, 0))
    hp, full = int(b.get("hp") or 0), int(kind.get("hp") or b.get("hp") or 1)
    _bar(pen, (box[0] + 3, box[3] - 0.45 * s, box[2] - 3, box[3] - 3), hp / max(full, 1))
    if b.get("overwatch"):
        pen.rectangle((box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4), outline=LAST, width=3)


def _fit(text: str, size: int, width: float) -> str:
    """Returns ``text`` shortened with an ellipsis to fit ``width`` (:func:`render.common.fit`, cached lengths)."""
    if text_length(text, size) <= width:
        return text
    while text and text_length(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def _bar(pen: ImageDraw.ImageDraw, box: tuple[float, float, float, float], frac: float) -> None:
    """Draws an HP bar: green over half, amber over a quarter, red below."""
    frac = max(0.0, min(1.0, frac))
    colour = (60, 200, 90) if frac > 0.5 else (240, 180, 40) if frac > 0.25 else (230, 60, 50)
    pen.rectangle(box, fill=(16, 16, 16))
    if frac > 0:
        pen.rectangle((box[0] + 1, box[1] + 1, box[0] + 1 + (box[2] - box[0] - 2) * frac, box[3] - 1), fill=colour)


CHIP_FILLS: dict[str, Colour] = {"hp": (12, 12, 12), "wia": WIA, "wreck": (40, 30, 26)}
"""The ground of a tag's chips after the id (which is on the owner's colour)."""


def _tag(pen: ImageDraw.ImageDraw, box: Box, chips: list[Chip], st: PlayerStyle, labels: Labels | None,
         role: str) -> None:
    """Draws a tag in ``box``: its chips side by side, the id on the owner's colour (or a wreck's rust)."""
    x, (top, bottom) = box[0], (box[1], box[3])
    middle = (top + bottom) / 2
    for chip in chips:
        right = x + chip.width
        if chip.role == "id":
            ground, ink = (TERRAIN_STYLES["wreckage"][1], (0, 0, 0)) if role == "wreck" else (st.fill, st.ink)
        else:
            ground, ink = CHIP_FILLS.get(chip.role, (12, 12, 12)), MUTED if chip.role == "wreck" else INK
        pen.rectangle((x, top, right, bottom), fill=ground, outline=(0, 0, 0), width=2)
        write(pen, labels, (role, chip.role), (x + nexo_tags.PAD, middle), chip.text, chip.size, ink, anchor="lm")
        x = right


def _leader(pen: ImageDraw.ImageDraw, where: Placed) -> None:
    """Draws the line from a piece's centre to its tag's nearest point, outlined so it reads on any ground."""
    (cx, cy), box = where.centre, where.box
    end = (min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3]))
    pen.line((where.centre, end), fill=(0, 0, 0), width=5)
    pen.line((where.centre, end), fill=LAST, width=2)


def _token(pen: ImageDraw.ImageDraw, geo: Geometry, m: dict[str, Any],
           styles: dict[str, tuple[int, PlayerStyle]]) -> None:
    """Draws a model's disc (with its mark when large enough), Overwatch ring, activation arc and HP bar."""
    st = _style(styles, m)
    x, y = geo.to_px(float(m["x"]), float(m["y"]))
    r = token_radius(m, geo)
    if m.get("overwatch"):
        pen.ellipse((x - r - 6, y - r - 6, x + r + 6, y + r + 6), outline=LAST, width=3)
    pen.ellipse((x - r, y - r, x + r, y + r), fill=st.fill, outline=(0, 0, 0), width=3)
    if r >= 1.0 * geo.s:
        draw_text(pen, (x, y - r * 0.45), st.mark, round(0.6 * r), st.ink, anchor="mm")
    if m.get("activated"):
        pen.arc((x - r + 4, y - r + 4, x + r - 4, y + r - 4), 200, 340, fill=(0, 0, 0), width=3)
    full = int(faction().get("units", {}).get(str(m.get("type")), {}).get("hp") or m.get("hp") or 1)
    _bar(pen, (x - 0.9 * geo.s, y + r + 3, x + 0.9 * geo.s, y + r + 3 + 0.38 * geo.s),
         int(m.get("hp") or 0) / max(full, 1))


# -- last move and attack --------------------------------------------------------------

def _where(ref: Any, models: dict[str, Any], buildings: dict[str, Any]) -> tuple[float, float] | None:
    if isinstance(ref, (list, tuple)) and len(ref) == 2:
        return float(ref[0]), float(ref[1])
    thing = models.get(ref) or buildings.get(ref) if isinstance(ref, str) else None
    return (float(thing["x"]), float(thing["y"])) if thing else None


def _arrow_head(pen: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour: Colour,
                size: float) -> None:
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    pts = [b] + [(b[0] - size * math.cos(ang + da), b[1] - size * math.sin(ang + da)) for da in (0.45, -0.45)]
    pen.polygon(pts, fill=colour, outline=(0, 0, 0))


def _last_move(pen: ImageDraw.ImageDraw, geo: Geometry, move: dict[str, Any] | None,
               models: dict[str, Any]) -> None:
    if not move:
        return
    path = [geo.to_px(float(x), float(y)) for x, y in move.get("path") or []]
    if len(path) < 2:
        return
    pen.line(path, fill=(0, 0, 0), width=9, joint="curve")
    pen.line(path, fill=LAST, width=5, joint="curve")
    for x, y in path[:-1]:
        pen.ellipse((x - 6, y - 6, x + 6, y + 6), fill=LAST, outline=(0, 0, 0), width=2)
    _arrow_head(pen, path[-2], path[-1], LAST, 0.9 * geo.s)


def _last_attack(pen: ImageDraw.ImageDraw, geo: Geometry, attack: dict[str, Any] | None, models: dict[str, Any],
                 buildings: dict[str, Any], labels: Labels | None) -> None:
    if not attack:
        return
    a = _where(attack.get("from") or attack.get("attacker"), models, buildings)
    b = _where(attack.get("to") or attack.get("target"), models, buildings)
    if not a or not b:
        return
    pa, pb = geo.to_px(*a), geo.to_px(*b)
    ends = []
    for ref in (attack.get("attacker"), attack.get("target")):
        m = models.get(ref) if isinstance(ref, str) else None
        ends.append((token_radius(m, geo) + 8) if m else 0.0)
    span = math.dist(pa, pb)
    if span <= sum(ends) + 4:
        return
    ux, uy = (pb[0] - pa[0]) / span, (pb[1] - pa[1]) / span
    pa, pb = (pa[0] + ux * ends[0], pa[1] + uy * ends[0]), (pb[0] - ux * ends[1], pb[1] - uy * ends[1])
    pen.line((pa, pb), fill=(0, 0, 0), width=8)
    pen.line((pa, pb), fill=ATTACK, width=4)
    _arrow_head(pen, pa, pb, ATTACK, 0.8 * geo.s)
    result = str(attack.get("result") or "")
    if result:
        mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
        write(pen, labels, "attack", (mx, my), result, px(30), ATTACK, anchor="mm", stroke=3, stroke_fill=(0, 0, 0))


# -- panel and legend -------------------------------------------------------------------

def _panel(pen: ImageDraw.ImageDraw, geo: Geometry, view: dict[str, Any],
           styles: dict[str, tuple[int, PlayerStyle]], labels: Labels | None) -> float:
    """Draws the round, who acts and each player's card; returns the y below the last card."""
    s, x0, w = geo.s, geo.panel_x + 0.6 * geo.s, geo.panel_w - 1.2 * geo.s
    y = geo.top + 0.5 * s
    acting = to_act(view)
    winners = list(view.get("winners") or [])
    phase = str(view.get("phase") or "?")
    limit = view.get("round_limit")
    of = f" of {limit}" if isinstance(limit, int) and limit > 0 else ""
    write(pen, labels, ("round", "phase"), (x0, y), _fit(f"Round {view.get('round', '?')}{of} · {phase.title()}",
                                                         px(40), w), px(40), INK)
    y += px(56)
    if view.get("result") or winners:
        head = f"{' & '.join(winners)} wins" if winners else "Game over: draw"
        write(pen, labels, ("winner", "to_act"), (x0, y), _fit(head, px(50), w), px(50), (255, 214, 90))
    elif acting:
        verb = "has initiative" if phase == "initiative" else "to act"
        write(pen, labels, "to_act", (x0, y), _fit(f"{acting} {verb}", px(50), w), px(50), (255, 214, 90))
    y += px(70)
    players = view.get("players") or {}
    for name, side in players.items():
        _, st = styles[name]
        top = y
        reserve = side.get("reserve") or []
        card_h = px(88 + 44 * (3 + bool(reserve)) + (50 if side.get("blackout") else 0))
        edge = (255, 214, 90) if name == acting else st.fill
        pen.rounded_rectangle((x0 - px(8), top, x0 + w + px(8), top + card_h), radius=px(10), outline=edge,
                              width=px(5) if name == acting else 2)
        pen.rectangle((x0 + px(4), top + px(10), x0 + px(60), top + px(66)), fill=st.fill, outline=(0, 0, 0),
                      width=2)
        write(pen, labels, "mark", (x0 + px(32), top + px(38)), st.mark, px(42), st.ink, anchor="mm")
        write(pen, labels, ("player",) + (("to_act",) if name == acting else ()), (x0 + px(74), top + px(38)),
              _fit(name, px(62), w - px(78)), px(62), INK, anchor="lm")
        line = top + px(84)
        rows = [f"Carbonite {side.get('carbonite', 0)}",
                f"Energy {side.get('energy_production', 0)} / demand {side.get('energy_demand', 0)}",
                f"Passes {side.get('passes', 0)}"]
        if reserve:
            rows.append(f"Reserve: {', '.join(str(r) for r in reserve)}")
        for text in rows:
            write(pen, labels, "economy", (x0 + px(8), line), _fit(text, px(34), w - px(16)), px(34), INK)
            line += px(44)
        if side.get("blackout"):
            pen.rectangle((x0 + px(4), line + 2, x0 + w - px(4), line + px(44)), fill=BLACKOUT, outline=(0, 0, 0),
                          width=2)
            write(pen, labels, "blackout", (x0 + w / 2, line + px(23)), "BLACKOUT", px(34), (0, 0, 0), anchor="mm")
        y = top + card_h + 0.6 * s
    return y


LEGEND = [("ruin", "Ruin (Obscuring)"), ("crater", "Crater"), ("rubble", "Rubble"), ("debris", "Debris"),
          ("hill", "Hill"), ("sealed", "Sealed"), ("barricade", "Barricade"), ("pipe", "Pipe"),
          ("wreckage", "Wreck")]


LEGEND_SIZE = px(44)
"""Font size of the legend (about 9 px tall in the 550-px preview)."""


def _legend(pen: ImageDraw.ImageDraw, geo: Geometry, labels: Labels | None) -> None:
    """Draws the key under the battlefield: each terrain's swatch, the depot, then the marks, wrapped in rows."""
    s, box = geo.s, round(0.8 * LEGEND_SIZE)
    items: list[tuple[str | None, str, Colour]] = [(kind, name, MUTED) for kind, name in LEGEND]
    items += [("depot", "Carbonite depot", MUTED), (None, "[id|HP] tag", INK), (None, "red letter: WIA", WIA),
              (None, "ring: Overwatch", LAST), (None, "white path: last move", LAST),
              (None, "red line: last attack", ATTACK)]
    x, y, right = geo.left, geo.strip_y, geo.left + geo.field_w
    for kind, text, colour in items:
        width = (box + 8 if kind else 0) + text_length(text, LEGEND_SIZE)
        if x > geo.left and x + width > right:
            x, y = geo.left, y + LEGEND_SIZE + px(10)
        middle = y + LEGEND_SIZE / 2
        if kind == "depot":
            half = box / 2
            pen.polygon([(x + half, middle - half), (x + box, middle), (x + half, middle + half), (x, middle)],
                        fill=DEPOT)
        elif kind:
            fill, rim = TERRAIN_STYLES[kind]
            pen.rectangle((x, middle - box / 2, x + box, middle + box / 2), fill=fill, outline=rim, width=3)
            if kind == "ruin":
                for k in range(0, box, 8):
                    pen.line((x + k, middle + box / 2, x + box, middle - box / 2 + k), fill=HATCH, width=2)
        write(pen, labels, "legend", (x + (box + 8 if kind else 0), middle), text, LEGEND_SIZE, colour, anchor="lm")
        x += width + 0.9 * s
