"""The store's refusals of a write: each means nothing of it was written."""

from __future__ import annotations

from host.db import StoreError


class StaleVersion(StoreError):
    """The game changed since it was loaded (another writer got there first); nothing was written."""


class DuplicateInteraction(StoreError):
    """A move with this interaction id is already in the log."""


class ChannelTaken(StoreError):
    """The channel already has a game in its lobby or running."""


class SeatTaken(StoreError):
    """The player is already seated, or another player has the same seat name."""
