"""Pictures: a view (dict) in, PNG or WebP bytes out. Nothing here sees a full state or Discord.

How a picture is encoded is chosen in one place, :func:`render.common.encode`.

:func:`render` draws with the game's own renderer (its kit's ``render``) and falls back to
:mod:`render.generic`, a status card, for a game without one.
"""

from __future__ import annotations

from typing import Any

from engines.core.registry import KITS
from render import generic


def render(game: str, view: dict[str, Any], *, title: str | None = None, **marks: Any) -> bytes:
    """Returns the encoded picture of ``view`` for ``game``; ``marks`` are optional highlights.

    :func:`render.common.extension` names its type (``png`` or ``webp``) for a file name.
    """
    kit = KITS.get(game)
    if kit is not None and kit.render is not None:
        return kit.render(view, **marks)
    return generic.render(view, title=title or game, **marks)
