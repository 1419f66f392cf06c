"""Words for players: plurals, "did you mean …", and what is legal now.

Every engine builds its refusals and event sentences with these, so the games speak
alike::

    >>> plural(1, "chip"), plural(3, "chip"), plural(2, "hex", "hexes")
    ('1 chip', '3 chips', '2 hexes')
    >>> nearest("Alsaka", {"alaska": "Alaska", "alberta": "Alberta"})
    'Alaska'
    >>> did_you_mean("Zzz", ["Alaska"])
    ''
    >>> legal_hint(["attack alaska kamchatka", "end"])
    'Legal now: attack alaska kamchatka, end.'
    >>> legal_hint([f"place alaska {n}" for n in range(1, 12)] + ["redeem AS KS QS"])
    'Legal now: 12 moves (place …, redeem …).'
    >>> legal_hint(["pass", "done a1"], {"done": "done <unit>"}, complete=False)
    'Legal now: pass, done <unit>.'
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping

LISTED_MOVES = 8
"""A refusal lists the legal moves when there are at most this many."""


def plural(n: int, word: str, many: str | None = None) -> str:
    """Returns ``n`` with ``word``, in the plural unless ``n`` is 1 ("1 chip", "2 chips")."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def nearest(typed: str, choices: Iterable[str] | Mapping[str, str], *, cutoff: float = 0.6) -> str | None:
    """Returns the choice closest to ``typed`` (by :mod:`difflib`, ignoring case), or None.

    ``choices`` may map a key (what is compared) to what is returned, e.g. a country id
    or a lower-cased name to the name a player reads.
    """
    shown_as = dict(choices) if isinstance(choices, Mapping) else {c: c for c in choices}
    keys = {k.casefold(): v for k, v in shown_as.items()}
    key = typed.strip().casefold()
    if not key or not keys:
        return None
    found = difflib.get_close_matches(key, list(keys), n=1, cutoff=cutoff)
    return keys[found[0]] if found else None


def did_you_mean(typed: str, choices: Iterable[str] | Mapping[str, str], *, cutoff: float = 0.6) -> str:
    """Returns ``": did you mean X?"`` for the nearest choice, or ``""`` when none is near.

    It ends a sentence, so a caller writes ``f"… map{did_you_mean(t, names) or '.'}"``.
    """
    found = nearest(typed, choices, cutoff=cutoff)
    return f": did you mean {found}?" if found else ""


def legal_hint(moves: list[str], shapes: Mapping[str, str] | None = None, *, complete: bool = True) -> str:
    """Returns a sentence naming the legal moves (at most :data:`LISTED_MOVES`), else their kinds.

    ``shapes`` maps a move's first word to how it is written (``"attack <from> <to>"``);
    a kind with no shape is shown as its word and "…". With ``complete`` false the moves
    are only a sample (a continuous game) and are never listed one by one.
    """
    if not moves:
        return "You have no legal move now."
    if complete and len(moves) <= LISTED_MOVES:
        return "Legal now: " + ", ".join(moves) + "."
    kinds: list[str] = []
    for m in moves:
        verb = m.split(" ", 1)[0]
        shape = (shapes or {}).get(verb) or (verb if verb == m else f"{verb} …")
        if shape not in kinds:
            kinds.append(shape)
    if not complete:
        return f"Legal now: {', '.join(kinds)}."
    return f"Legal now: {len(moves)} moves ({', '.join(kinds)})."
