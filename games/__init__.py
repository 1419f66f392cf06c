"""The project's own games, one kit each (:class:`engines.core.kit.GameKit`).

Each module puts one game's slice together: its engine, pictures, bots, rules summary and
Discord surface. Nothing imports these modules: the registry finds them through the
entry points of ``pyproject.toml`` (group ``tablehost.games``), as it finds a game installed
from a package of its own. They sit above every layer, beside ``bot.py``.
"""
