"""Pictures: a view (dict) in, PNG bytes out. Nothing here sees a full state or Discord.

:func:`render` picks the game's own renderer (``render.<game>.render``) and falls
back to :mod:`render.generic` for games without one.
"""

from __future__ import annotations

import importlib
from typing import Any

from render import generic

RENDERERS: dict[str, str] = {"xisk": "render.xisk", "nxs": "render.nxs", "nexo": "render.nexo"}
"""Game name → module with a ``render(view, **marks) -> bytes`` function."""


def render(game: str, view: dict[str, Any], *, title: str | None = None, **marks: Any) -> bytes:
    """Returns the PNG picture of ``view`` for ``game``; ``marks`` are optional highlights."""
    module = RENDERERS.get(game)
    if module is not None:
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as err:
            if err.name != module:
                raise
        else:
            return mod.render(view, **marks)
    return generic.render(view, title=title or game, **marks)
