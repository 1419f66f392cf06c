"""A game's randomness, stored in its state: keyed draws, or the old SplitMix64 stream.

Every die, shuffle step and battlefield draw goes through :meth:`Rng.below`. A game's
state keeps its generator as plain JSON (:meth:`Rng.saved`, read back by :meth:`Rng.load`),
so ``from_json(to_json(g))`` rolls the same dice next.

:class:`KeyedDraws` (``hmac-sha256``, every game since keyed draws) derives draw number
``n`` (counted from 1) as ``HMAC-SHA256(key=<server seed>, message="<entropy>:<n>")``:

- the key is the server seed's 64 hex digits as ASCII text; the message is UTF-8;
- the 32 bytes of the HMAC, read as one big-endian integer ``h`` (0 ≤ h < 2²⁵⁶), give a value
  in ``[0, range)`` as ``h mod range`` — unless ``h`` falls in the last, incomplete block of
  ``2²⁵⁶ mod range`` numbers, which would favour small values: then the draw is rejected and
  number ``n + 1`` is tried (for a die that chance is about 10⁻⁷⁶; it never happens in practice);
- a die of ``s`` faces shows ``1 + value`` of range ``s``; a shuffle of ``k`` items is
  Fisher–Yates from the end, swapping item ``i`` with item ``value`` of range ``i + 1``;
  a fraction is ``value / 2⁵³`` of range ``2⁵³``.

The state stores only the seed, the entropy and how many numbers were used (``counter``): no
generator state that extends the seed. Anyone holding the revealed seed can redo every draw
with any HMAC-SHA256 tool::

    >>> rng = KeyedDraws(key="ab" * 32, entropy="1183:my words|1190", counter=0)
    >>> rng.randint(1, 6), rng.counter
    (3, 1)
    >>> import hashlib, hmac
    >>> h = int.from_bytes(hmac.digest(b"ab" * 32, b"1183:my words|1190:1", hashlib.sha256), "big")
    >>> 1 + h % 6
    3

:class:`SplitMix64` is the generator of games started before keyed draws; they still load and
play on it (its whole state is one integer)::

    >>> rng = Rng.from_seed(7)
    >>> first = [rng.randint(1, 6) for _ in range(5)]
    >>> again = Rng.load(Rng.from_seed(7).saved())
    >>> [again.randint(1, 6) for _ in range(5)] == first
    True
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterator, MutableSequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_SPACE = 1 << 256
"""The number of values one HMAC-SHA256 draw can take."""
FRACTION_RANGE = 1 << 53
"""The range of the draw behind :meth:`Rng.random` (a double has 53 bits of mantissa)."""

KEYED = "hmac-sha256"
"""The scheme of :class:`KeyedDraws`."""
SPLITMIX = "splitmix64"
"""The scheme of :class:`SplitMix64`, for games started before keyed draws."""

SEED_PATTERN = re.compile(r"[0-9a-f]{64}")
"""A server seed: 256 bits as 64 lowercase hex digits."""
MAX_ENTROPY = 2000
"""The longest game entropy a keyed seed may carry."""

T = TypeVar("T")

Draw = tuple[int, int, int]
"""One keyed draw as an export lists it: its number, its range and the value drawn in ``[0, range)``."""

_recording: ContextVar[list[Draw] | None] = ContextVar("tablehost_draws", default=None)


@contextmanager
def recording() -> Iterator[list[Draw]]:
    """Collects every keyed draw made inside the block, in order (for an export's list of draws).

    >>> with recording() as draws:
    ...     KeyedDraws(key="ab" * 32, entropy="x", counter=0).randint(1, 6)
    3
    >>> draws
    [(1, 6, 2)]
    """
    draws: list[Draw] = []
    token = _recording.set(draws)
    try:
        yield draws
    finally:
        _recording.reset(token)


class Rng:
    """A source of uniform draws; everything else (dice, choices, shuffles) is built on :meth:`below`."""

    scheme: str = ""

    def below(self, n: int) -> int:
        """Returns a uniform integer in ``[0, n)``; raises ValueError when n < 1."""
        raise NotImplementedError

    def saved(self) -> Any:
        """Returns the generator as JSON, for a game's state (:meth:`load` reads it back)."""
        raise NotImplementedError

    @staticmethod
    def from_seed(seed: int | str) -> Rng:
        """Returns a fresh generator: keyed draws for a keyed seed (:func:`keyed_seed`), SplitMix64 for an integer."""
        if isinstance(seed, str):
            key, entropy = split_seed(seed)
            return KeyedDraws(key=key, entropy=entropy, counter=0)
        return SplitMix64(state=seed & _MASK)

    @staticmethod
    def load(value: Any) -> Rng:
        """Returns the generator :meth:`saved` gave; raises ValueError for anything else."""
        if isinstance(value, dict):
            key, entropy, counter = value.get("key"), value.get("entropy"), value.get("counter")
            if not (isinstance(key, str) and SEED_PATTERN.fullmatch(key)):
                raise ValueError("key: expected 64 lowercase hex digits (a server seed)")
            if not (isinstance(entropy, str) and len(entropy) <= MAX_ENTROPY):
                raise ValueError(f"entropy: expected text of at most {MAX_ENTROPY} characters")
            if not (isinstance(counter, int) and not isinstance(counter, bool) and 0 <= counter < 2**62):
                raise ValueError("counter: expected a count of draws (a whole number from 0)")
            if set(value) != {"key", "entropy", "counter"}:
                raise ValueError("expected exactly key, entropy and counter")
            return KeyedDraws(key=key, entropy=entropy, counter=counter)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= _MASK:
            return SplitMix64(state=value)
        raise ValueError("expected keyed draws (key, entropy, counter) or a SplitMix64 state (an integer)")

    def randint(self, low: int, high: int) -> int:
        """Returns a uniform integer in ``[low, high]``, both ends included."""
        return low + self.below(high - low + 1)

    def random(self) -> float:
        """Returns a uniform float in ``[0, 1)``."""
        return self.below(FRACTION_RANGE) / float(FRACTION_RANGE)

    def uniform(self, low: float, high: float) -> float:
        """Returns a uniform float in ``[low, high)``."""
        return low + (high - low) * self.random()

    def choice(self, items: list[T]) -> T:
        """Returns one element of a non-empty list."""
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffles ``items`` in place (Fisher–Yates, from the end)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


@dataclass
class KeyedDraws(Rng):
    """Draw ``n`` is HMAC-SHA256(``key``, ``"<entropy>:<n>"``); ``counter`` numbers are used so far."""

    key: str
    entropy: str
    counter: int = 0
    scheme = KEYED

    def below(self, n: int) -> int:
        if not 1 <= n <= _SPACE:
            raise ValueError(f"below() needs 1 <= n <= 2**256, got {n}")
        limit = _SPACE - _SPACE % n
        key, prefix = self.key.encode(), f"{self.entropy}:".encode()
        while True:
            self.counter += 1
            h = int.from_bytes(hmac.digest(key, prefix + str(self.counter).encode(), hashlib.sha256), "big")
            if h < limit:
                value = h % n
                draws = _recording.get()
                if draws is not None:
                    draws.append((self.counter, n, value))
                return value

    def saved(self) -> dict[str, Any]:
        return {"key": self.key, "entropy": self.entropy, "counter": self.counter}


@dataclass
class SplitMix64(Rng):
    """The generator of games from before keyed draws: SplitMix64, whose whole state is ``state``."""

    state: int
    scheme = SPLITMIX

    def next64(self) -> int:
        """Returns the next 64-bit unsigned integer and advances the state."""
        self.state = (self.state + _GOLDEN) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        if not 1 <= n <= 1 << 64:
            raise ValueError(f"below() needs 1 <= n <= 2**64, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def random(self) -> float:
        return (self.next64() >> 11) / float(1 << 53)  # as these games always drew it

    def saved(self) -> int:
        return self.state


def keyed_seed(key: str, entropy: str) -> str:
    """Returns the seed an engine gets for keyed draws: ``"<server seed>:<entropy>"``.

    >>> split_seed(keyed_seed("ab" * 32, "1183:hi|bot")) == ("ab" * 32, "1183:hi|bot")
    True
    """
    return f"{key}:{entropy}"


def split_seed(seed: str) -> tuple[str, str]:
    """Returns the server seed and the entropy of a keyed seed; raises ValueError for anything else."""
    key, sep, entropy = seed.partition(":")
    if not (sep and SEED_PATTERN.fullmatch(key)) or len(entropy) > MAX_ENTROPY:
        raise ValueError("a keyed seed is '<64 hex digits>:<entropy>'")
    return key, entropy


def is_seed(value: Any) -> bool:
    """True for a seed an engine takes: an integer (SplitMix64) or a keyed seed."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return -(2**63) <= value <= 2**64
    if isinstance(value, str):
        try:
            split_seed(value)
        except ValueError:
            return False
        return True
    return False
