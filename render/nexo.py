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
centre, at least 1.1" across, under an id tag ``[a1|5]`` (id, then HP on black) and over an
HP bar; a red square with a letter is its Wounded-in-Action result, a white ring Overwatch.
The disc's centre is always the owner's colour (:func:`to_px` maps inches to pixels), so a
picture can be checked by sampling it. Model ids, HP and who is to act are at least 9 px tall
in Discord's 550-px preview; ``labels`` records them (roles ``model``, ``hp``, ``to_act``).

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

from render import nexo_overlay
from render.common import INK, MUTED, Colour, Labels, PlayerStyle, encode, player_style
from render.nexo_field import (
    DEPOT,
    HATCH,
    TERRAIN_STYLES,
    Geometry,
    draw_text,
    faction,
    static_layer,
    text_length,
    token_radius,
    write,
)

__all__ = ["Geometry", "draw", "geometry", "render", "to_px"]

COMPRESS_LEVEL = 3
"""zlib level of the PNG (fast: the picture is sent once)."""
ID_SIZE = 52
"""Font size of a model's id and HP, and of building tags (picture pixels)."""
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
    shown = nexo_overlay.shown(view, overlay, geo, styles) if overlay else None
    if shown:
        nexo_overlay.draw_under(image, pen, geo, shown)
    for bid, b in (view.get("buildings") or {}).items():
        _building(image, pen, geo, bid, b, styles, labels)
    models = view.get("models") or {}
    if shown:
        nexo_overlay.draw_lines(pen, geo, shown)
    _last_move(pen, geo, last_move or view.get("last_move"), models)
    for mid, m in models.items():
        _tag(pen, geo, mid, m, styles, labels)
    for m in models.values():
        _token(pen, geo, m, styles)
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


def _building(image: Image.Image, pen: ImageDraw.ImageDraw, geo: Geometry, bid: str, b: dict[str, Any],
              styles: dict[str, tuple[int, PlayerStyle]], labels: Labels | None) -> None:
    kind = faction().get("buildings", {}).get(str(b.get("type")), {})
    w, d = float(kind.get("width", 3)), float(kind.get("depth", 3))
    if int(b.get("rot") or 0) % 180 == 90:
        w, d = d, w
    x, y = float(b["x"]), float(b["y"])
    (ax, ay), (bx, by) = geo.to_px(x + w / 2, y - d / 2), geo.to_px(x - w / 2, y + d / 2)
    box = (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))
    st = styles.get(str(b.get("owner")), (0, player_style(0)))[1]
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    s = geo.s
    if b.get("wreck"):
        fill, rim = TERRAIN_STYLES["wreckage"]
        pen.rectangle(box, fill=fill, outline=rim, width=3)
        pen.line((box[0], box[1], box[2], box[3]), fill=rim, width=3)
        pen.line((box[0], box[3], box[2], box[1]), fill=rim, width=3)
        write(pen, labels, "wreck", (cx, box[3] + 2), f"{bid} wreck", round(0.8 * s), MUTED, anchor="ma",
              stroke=2, stroke_fill=(0, 0, 0))
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
    text = str(hp)
    if not complete:
        need = int(kind.get("build_points") or 0)
        text = f"{hp} {int(b.get('build_points') or 0)}/{need}" if need else text
    _chips(pen, geo, (cx, box[1] - 0.15 * s), f"{st.mark}{bid[1:]}" if bid[:1].upper() == st.mark else bid,
           text, st, labels, ("building",), anchor_bottom=True)
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


def _chips(pen: ImageDraw.ImageDraw, geo: Geometry, at: tuple[float, float], ident: str, hp: str,
           st: PlayerStyle, labels: Labels | None, roles: tuple[str, ...], *, anchor_bottom: bool) -> None:
    """Draws a tag ``[ident|hp]``: the id on the owner's colour, the HP on black; ``at`` is its bottom centre."""
    size, pad = ID_SIZE, 5
    iw, hw = text_length(ident, size), text_length(hp, size)
    h = size * 0.82
    total = iw + hw + 4 * pad
    x0 = at[0] - total / 2
    y1 = at[1] if anchor_bottom else at[1] + h
    y0 = y1 - h
    x0 = max(geo.left - 2 * geo.s, min(x0, geo.left + geo.field_w + 0.8 * geo.s - total))
    mid = x0 + iw + 2 * pad
    pen.rectangle((x0, y0, mid, y1), fill=st.fill, outline=(0, 0, 0), width=2)
    pen.rectangle((mid, y0, x0 + total, y1), fill=(12, 12, 12), outline=(0, 0, 0), width=2)
    ym = (y0 + y1) / 2
    write(pen, labels, (*roles, "id"), (x0 + pad, ym), ident, size, st.ink, anchor="lm")
    write(pen, labels, (*roles, "hp"), (mid + pad, ym), hp, size, INK, anchor="lm")


def _tag(pen: ImageDraw.ImageDraw, geo: Geometry, mid: str, m: dict[str, Any],
         styles: dict[str, tuple[int, PlayerStyle]], labels: Labels | None) -> None:
    st = styles.get(str(m.get("owner")), (0, player_style(0)))[1]
    x, y = geo.to_px(float(m["x"]), float(m["y"]))
    r = token_radius(m, geo)
    _chips(pen, geo, (x, y - r - 3), mid, str(m.get("hp", "?")), st, labels, ("model",), anchor_bottom=True)
    full = int(faction().get("units", {}).get(str(m.get("type")), {}).get("hp") or m.get("hp") or 1)
    _bar(pen, (x - 0.9 * geo.s, y + r + 3, x + 0.9 * geo.s, y + r + 3 + 0.38 * geo.s),
         int(m.get("hp") or 0) / max(full, 1))
    if m.get("wia"):
        side = 0.85 * geo.s
        bx, by = x + r + 3, y - side / 2
        pen.rectangle((bx, by, bx + side, by + side), fill=WIA, outline=(0, 0, 0), width=2)
        write(pen, labels, "wia", (bx + side / 2, by + side / 2), str(m["wia"])[:1].upper(), round(0.8 * geo.s),
              INK, anchor="mm")


def _token(pen: ImageDraw.ImageDraw, geo: Geometry, m: dict[str, Any],
           styles: dict[str, tuple[int, PlayerStyle]]) -> None:
    st = styles.get(str(m.get("owner")), (0, player_style(0)))[1]
    x, y = geo.to_px(float(m["x"]), float(m["y"]))
    r = token_radius(m, geo)
    if m.get("overwatch"):
        pen.ellipse((x - r - 6, y - r - 6, x + r + 6, y + r + 6), outline=LAST, width=3)
    pen.ellipse((x - r, y - r, x + r, y + r), fill=st.fill, outline=(0, 0, 0), width=3)
    if r >= 1.0 * geo.s:
        draw_text(pen, (x, y - r * 0.45), st.mark, round(0.6 * r), st.ink, anchor="mm")
    if m.get("activated"):
        pen.arc((x - r + 4, y - r + 4, x + r - 4, y + r - 4), 200, 340, fill=(0, 0, 0), width=3)


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
        write(pen, labels, "attack", (mx, my), result, 30, ATTACK, anchor="mm", stroke=3, stroke_fill=(0, 0, 0))


# -- panel and legend -------------------------------------------------------------------

def _panel(pen: ImageDraw.ImageDraw, geo: Geometry, view: dict[str, Any],
           styles: dict[str, tuple[int, PlayerStyle]], labels: Labels | None) -> float:
    """Draws the round, who acts and each player's card; returns the y below the last card."""
    s, x0, w = geo.s, geo.panel_x + 0.6 * geo.s, geo.panel_w - 1.2 * geo.s
    y = geo.top + 0.5 * s
    acting = to_act(view)
    winners = list(view.get("winners") or [])
    phase = str(view.get("phase") or "?")
    write(pen, labels, ("round", "phase"), (x0, y), f"Round {view.get('round', '?')} · {phase.title()}", 40, INK)
    y += 56
    if view.get("result") or winners:
        head = f"{' & '.join(winners)} wins" if winners else "Game over: draw"
        write(pen, labels, ("winner", "to_act"), (x0, y), _fit(head, 50, w), 50, (255, 214, 90))
    elif acting:
        verb = "has initiative" if phase == "initiative" else "to act"
        write(pen, labels, "to_act", (x0, y), _fit(f"{acting} {verb}", 50, w), 50, (255, 214, 90))
    y += 70
    players = view.get("players") or {}
    for name, side in players.items():
        _, st = styles[name]
        top = y
        reserve = side.get("reserve") or []
        card_h = 88 + 44 * (3 + bool(reserve)) + (50 if side.get("blackout") else 0)
        edge = (255, 214, 90) if name == acting else st.fill
        pen.rounded_rectangle((x0 - 8, top, x0 + w + 8, top + card_h), radius=10, outline=edge,
                              width=5 if name == acting else 2)
        pen.rectangle((x0 + 4, top + 10, x0 + 60, top + 66), fill=st.fill, outline=(0, 0, 0), width=2)
        write(pen, labels, "mark", (x0 + 32, top + 38), st.mark, 42, st.ink, anchor="mm")
        write(pen, labels, ("player",) + (("to_act",) if name == acting else ()), (x0 + 74, top + 38),
              _fit(name, 62, w - 78), 62, INK, anchor="lm")
        line = top + 84
        rows = [f"Carbonite {side.get('carbonite', 0)}",
                f"Energy {side.get('energy_production', 0)} / demand {side.get('energy_demand', 0)}",
                f"Passes {side.get('passes', 0)}"]
        if reserve:
            rows.append(f"Reserve: {', '.join(str(r) for r in reserve)}")
        for text in rows:
            write(pen, labels, "economy", (x0 + 8, line), _fit(text, 34, w - 16), 34, INK)
            line += 44
        if side.get("blackout"):
            pen.rectangle((x0 + 4, line + 2, x0 + w - 4, line + 44), fill=BLACKOUT, outline=(0, 0, 0), width=2)
            write(pen, labels, "blackout", (x0 + w / 2, line + 23), "BLACKOUT", 34, (0, 0, 0), anchor="mm")
        y = top + card_h + 0.6 * s
    return y


LEGEND = [("ruin", "Ruin (Obscuring)"), ("crater", "Crater"), ("rubble", "Rubble"), ("debris", "Debris"),
          ("hill", "Hill"), ("sealed", "Sealed"), ("barricade", "Barricade"), ("pipe", "Pipe"),
          ("wreckage", "Wreck")]


def _legend(pen: ImageDraw.ImageDraw, geo: Geometry, labels: Labels | None) -> None:
    s = geo.s
    x, y = geo.left, geo.strip_y
    for kind, name in LEGEND:
        fill, rim = TERRAIN_STYLES[kind]
        pen.rectangle((x, y, x + 32, y + 32), fill=fill, outline=rim, width=3)
        if kind == "ruin":
            for k in range(0, 32, 8):
                pen.line((x + k, y + 32, x + 32, y + k), fill=HATCH, width=2)
        write(pen, labels, "legend", (x + 40, y + 16), name, 26, MUTED, anchor="lm")
        x += 40 + text_length(name, 26) + 0.9 * s
    x, y = geo.left, y + 52
    pen.polygon([(x + 16, y), (x + 32, y + 16), (x + 16, y + 32), (x, y + 16)], fill=DEPOT)
    write(pen, labels, "legend", (x + 40, y + 16), "Carbonite depot", 26, MUTED, anchor="lm")
    x += 40 + text_length("Carbonite depot", 26) + 0.9 * s
    for text, colour in (("[id|HP] tag", INK), ("ring: Overwatch", LAST), ("red square: WIA", WIA),
                         ("white path: last move", LAST), ("red line: last attack", ATTACK)):
        write(pen, labels, "legend", (x, y + 16), text, 26, colour, anchor="lm")
        x += text_length(text, 26) + 0.9 * s
