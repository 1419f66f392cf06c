"""Shared fixtures: the Tally test game is registered for every test that asks for it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engines import GAMES
from tests.support.tally import Tally


@pytest.fixture
def tally_registered() -> Iterator[type[Tally]]:
    """Registers the Tally test game in ``engines.GAMES`` for one test."""
    GAMES[Tally.NAME] = Tally
    yield Tally
    GAMES.pop(Tally.NAME, None)
