"""The installed games: every :class:`~engines.core.kit.GameKit` of the entry-point group ``tablehost.games``.

This is the one place a game is found. A package declares its game in its ``pyproject.toml``::

    [project.entry-points."tablehost.games"]
    xisk = "games.xisk:KIT"

and appears after ``pip install``; the project registers its own three games the same way.
The kits are loaded on first use (loading one imports its whole slice: engine, pictures and
Discord surface), in the order of their names, and each is checked: an entry
point that fails to load, gives something other than a ``GameKit``, or names another game
stops the load with a :class:`RegistryError` naming the entry point and its package.

``TABLEHOST_GAMES`` (names separated by commas) limits the games a process offers to some of
those installed; unset, every installed game is offered. A name in it that is not installed
is refused the same way.

    >>> registry = Registry(lambda: [])
    >>> len(registry), "xisk" in registry
    (0, False)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from importlib.metadata import EntryPoint, entry_points

from engines.core.kit import GameKit

GROUP = "tablehost.games"
"""The entry-point group games register in."""
ONLY = "TABLEHOST_GAMES"
"""The environment variable naming the installed games to offer (all when unset)."""


class RegistryError(RuntimeError):
    """A game's entry point could not give its kit, or ``TABLEHOST_GAMES`` names a game not installed."""


def installed() -> list[EntryPoint]:
    """Returns the entry points of the group ``tablehost.games``, by name (whatever order packages came in)."""
    return sorted(entry_points(group=GROUP), key=lambda point: point.name)


def load_kit(point: EntryPoint) -> GameKit:
    """Returns the kit an entry point names; raises RegistryError saying which one failed and why."""
    package = f" (package {point.dist.name})" if point.dist is not None else ""
    where = f"the game entry point {point.name} = {point.value!r}{package}"
    try:
        kit = point.load()
    except Exception as err:  # any failure of a third-party import is reported as the game's
        raise RegistryError(f"{where} could not be loaded: {type(err).__name__}: {err}") from err
    if not isinstance(kit, GameKit):
        given = f"the class {kit.__name__}" if isinstance(kit, type) else f"a {type(kit).__name__}"
        raise RegistryError(f"{where} gives {given}, not a GameKit")
    if kit.name != point.name:
        raise RegistryError(f"{where} gives the game {kit.name!r}; the entry point must be named after it")
    return kit


def from_entry_points() -> list[GameKit]:
    """Returns the kits of every installed game, limited to ``TABLEHOST_GAMES`` when it is set."""
    points = installed()
    wanted = os.environ.get(ONLY)
    if wanted is not None:
        names = [n.strip().lower() for n in wanted.split(",") if n.strip()]
        known = {p.name for p in points}
        missing = [n for n in names if n not in known]
        if missing:
            raise RegistryError(f"{ONLY} names {', '.join(missing)}, not installed"
                                f" (installed: {', '.join(sorted(known)) or 'none'})")
        points = [p for p in points if p.name in names]
    return [load_kit(p) for p in points]


class Registry(Mapping[str, GameKit]):
    """Game name → kit, loaded on first use by ``load`` (default: the entry points)."""

    def __init__(self, load: Callable[[], Iterable[GameKit]] = from_entry_points) -> None:
        self._load = load
        self._kits: dict[str, GameKit] | None = None
        self._loading = False

    def _all(self) -> dict[str, GameKit]:
        if self._kits is None:
            if self._loading:
                raise RegistryError("a game module asked for the games while they were being loaded")
            self._loading = True
            try:
                self._kits = {kit.name: kit for kit in self._load()}
            finally:
                self._loading = False
        return self._kits

    def __getitem__(self, name: str) -> GameKit:
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._all()))

    def __len__(self) -> int:
        return len(self._all())

    def add(self, kit: GameKit) -> None:
        """Offers one more game in this process (a test's game, say), after those installed."""
        self._all()[kit.name] = kit

    def remove(self, name: str) -> None:
        """Stops offering a game in this process (nothing happens when it is not offered)."""
        self._all().pop(name, None)

    def reload(self) -> None:
        """Forgets the kits, so the next use loads them again (after ``TABLEHOST_GAMES`` changed)."""
        self._kits = None


KITS = Registry()
"""The games this process offers."""
