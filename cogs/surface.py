"""A game's Discord surface, and the defaults the shared cogs use for what a game leaves out.

Each game's kit (:class:`engines.core.kit.GameKit`) carries one :class:`Surface`; the shared
layers ask :func:`surface_of` and never name a game. A field left at None takes the default
below it::

    >>> plain = Surface()
    >>> plain.title("Tally", {"turn_number": 2}), plain.event_text({"kind": "x", "text": "ann adds 1."})
    ('Tally · turn 2', 'ann adds 1.')
    >>> print(plain.secret_text({"hand": ["AS", "KH"], "secret_number": 7}))
    **Hand:** AS, KH
    **Secret number:** 7
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engines.core.registry import KITS
from host.outbox import Outbox
from host.table import Table

if TYPE_CHECKING:
    from discord.ext import commands

QuickMoves = Callable[[Table, str], list[tuple[str, str]]]
"""``(table, player) -> [(label, move)]``: buttons under the live board, or choices of the hand menu."""
TurnKey = Callable[[Outbox], tuple[str, ...]]
"""What one live board lasts for, from an announcement (default: while the same players must act)."""
BoardTitle = Callable[[str, dict[str, Any]], str]
"""``(game title, public view) -> the board's title``."""
EventLine = Callable[[dict[str, Any]], str]
"""A public event written as a channel line."""
SecretText = Callable[[dict[str, Any]], str]
"""A player's private view written as their hand DM."""
HandAlert = Callable[[dict[str, Any], dict[str, Any], str], str | None]
"""``(private view, public view, seat) -> the notifying line`` when the player must act on their hand, or None."""
Instruction = Callable[[dict[str, Any], str], str | None]
"""``(public view, seat) -> the player's next step``, e.g. "Ann: place 6 chips (Supply phase), then attack or end."."""
TurnSummary = Callable[[str, list[dict[str, Any]]], str | None]
"""``(seat, the turn's public events) -> the turn in short``, e.g. "Bob took 3 countries (…), drew a card."."""
AltText = Callable[[str, dict[str, Any]], str]
"""``(game title, public view) -> the board picture's alt text``: the game, the turn, who is to act, the counts."""

MAX_BUTTONS = 5
"""Buttons in one row of a message (Discord's limit)."""
GIVE_UP = frozenset({"concede", "resign", "scrap", "abort"})
"""First words of moves that give something up for good: never a quick button, always confirmed."""
ALT_LIMIT = 1024
"""Characters of an attachment's description, its alt text (Discord's limit)."""


def gives_up(move: str) -> bool:
    """Tells whether a move gives something up for good (resign, concede, scrap a piece).

    >>> gives_up("scrap b1"), gives_up("Resign"), gives_up("attack alaska kamchatka")
    (True, True, False)
    """
    words = move.split()
    return bool(words) and words[0].lower() in GIVE_UP


def default_quick_moves(table: Table, player: str) -> list[tuple[str, str]]:
    """Returns every legal move (but giving up) as a button when there are few of them, else none.

    A game with secrets gets none: a button is public, and its move may name a hidden
    card (``redeem AS JS 6S``). Such a game's surface gives buttons of its own.
    """
    assert table.game is not None
    if table.game.HAS_SECRETS:
        return []
    legal = [m for m in table.game.legal_moves(player) if not gives_up(m)]
    return [(m.capitalize(), m) for m in legal] if len(legal) <= MAX_BUTTONS else []


def default_title(title: str, view: dict[str, Any]) -> str:
    """Returns "XISK · turn 3 · attack phase" from a view's ``turn_number`` and ``phase`` when it has them.

    >>> default_title("XISK", {"turn_number": 3, "phase": "attack"}), default_title("Tally", {})
    ('XISK · turn 3 · attack phase', 'Tally')
    """
    parts = [title]
    if isinstance(view.get("turn_number"), int) and view["turn_number"] > 0:
        parts.append(f"turn {view['turn_number']}")
    if isinstance(view.get("phase"), str):
        parts.append(f"{view['phase']} phase")
    return " · ".join(parts)[:256]


def default_alt_text(title: str, view: dict[str, Any]) -> str:
    """Returns "XISK board, turn 3, attack phase: Ann to act." from a view's ``turn_number``, ``phase`` and ``to_act``.

    >>> default_alt_text("XISK", {"turn_number": 3, "phase": "attack", "to_act": ["Ann"]})
    'XISK board, turn 3, attack phase: Ann to act.'
    >>> default_alt_text("Tally", {"turn": "bob"}), default_alt_text("Tally", {})
    ('Tally board: bob to act.', 'Tally board.')
    """
    parts = [f"{title} board"]
    if isinstance(view.get("turn_number"), int) and view["turn_number"] > 0:
        parts.append(f"turn {view['turn_number']}")
    if isinstance(view.get("phase"), str):
        parts.append(f"{view['phase']} phase")
    acting = view.get("to_act")
    if acting is None:
        acting = [view["turn"]] if isinstance(view.get("turn"), str) else []
    names = " and ".join(str(a) for a in acting) if isinstance(acting, list) else ""
    return ", ".join(parts) + (f": {names} to act." if names else ".")


def shorten(text: str, limit: int) -> str:
    """Returns the text whole when it fits in ``limit`` characters, else its longest start that ends a word and
    fits with "…" after it (a separator left at its end is dropped): a word is never cut. Raises ValueError for a
    ``limit`` below 1.

    >>> shorten("Bob took 3 countries (Alaska, Kamchatka, Peru).", 36)
    'Bob took 3 countries (Alaska…'
    >>> shorten("Ann adds 1. · Bob adds 2.", 16), shorten("short", 5), shorten("Supercalifragilistic", 8)
    ('Ann adds 1.…', 'short', '…')
    """
    if limit < 1:
        raise ValueError(f"cannot shorten text to {limit} characters")
    if len(text) <= limit:
        return text
    cut = max((k for k in range(limit) if text[k].isspace()), default=0)  # the start text[:cut] ends a word
    return text[:cut].rstrip().rstrip(",;:·–—").rstrip() + "…"


def default_instruction(view: dict[str, Any], player: str) -> str:
    """Returns "Ann: your move (turn 3, attack phase)." from a view's ``turn_number`` and ``phase`` when it has them.

    >>> default_instruction({"turn_number": 3, "phase": "attack"}, "Ann"), default_instruction({}, "Bob")
    ('Ann: your move (turn 3, attack phase).', 'Bob: your move.')
    """
    parts = []
    if isinstance(view.get("turn_number"), int) and view["turn_number"] > 0:
        parts.append(f"turn {view['turn_number']}")
    if isinstance(view.get("phase"), str):
        parts.append(f"{view['phase']} phase")
    return f"{player}: your move" + (f" ({', '.join(parts)})." if parts else ".")


def default_secret_text(secret: dict[str, Any]) -> str:
    """Returns a private view as one line per field."""
    lines = []
    for key, value in secret.items():
        shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        lines.append(f"**{key.replace('_', ' ').capitalize()}:** {shown or '—'}")
    return "\n".join(lines)


@dataclass(frozen=True)
class Option:
    """One choice of a picking step: the token it adds to the move, and how a player sees it."""

    token: str
    label: str
    description: str = ""


Steps = Callable[[str], tuple[str, ...] | None]
"""A legal move as the steps a player picks it in (the first names its kind), or None when it is not picked."""
StepOptions = Callable[[Table, str, tuple[str, ...], list[str]], list[Option]]
"""``(table, player, steps so far, next tokens) -> the choices``, labelled and in the order shown."""
StepPrompt = Callable[[Table, str, tuple[str, ...]], str]
"""``(table, player, steps so far) -> the question of the next step`` ("Attack from Alaska into…")."""


def plain_options(table: Table, player: str, prefix: tuple[str, ...], tokens: list[str]) -> list[Option]:
    """Returns the next tokens as they are, in the order of the legal moves."""
    return [Option(t, t) for t in tokens]


def plain_prompt(table: Table, player: str, prefix: tuple[str, ...]) -> str:
    """Returns "attack d4: choose…" from the steps so far."""
    return f"{' '.join(prefix)}: choose…" if prefix else "Choose…"


@dataclass(frozen=True)
class Picking:
    """How a game's moves are played by clicks: each legal move read as steps, each step's choices named.

    The live board offers the first step of each kind (a select menu of countries, say); each
    choice answers privately with the next step, until the move is whole and is played::

        >>> picking = Picking(steps=lambda move: tuple(move.split()) if move != "end" else None)
        >>> picking.steps("attack alaska kamchatka"), picking.steps("end")
        (('attack', 'alaska', 'kamchatka'), None)
    """

    steps: Steps
    """A move as its steps; the tokens are the move's own words, so each fits a custom_id."""
    options: StepOptions = plain_options
    """The choices of the next step, labelled, in the order shown."""
    prompt: StepPrompt = plain_prompt
    """The question of the next step."""


@dataclass(frozen=True)
class Surface:
    """What a game shows and offers on Discord; every field is optional."""

    commands: type[commands.Cog] | None = None
    """Its slash command group (a ``GroupCog`` built with the bot), e.g. ``/xisk``."""
    quick_moves: QuickMoves | None = None
    """The live board's buttons for the player to act (default: :func:`default_quick_moves`)."""
    hand_moves: QuickMoves | None = None
    """What ``/game hand`` offers to play in a menu (e.g. XISK's cardsets); default: nothing."""
    turn_key: TurnKey | None = None
    """What one live board lasts for (default: while the same players must act)."""
    board_title: BoardTitle | None = None
    """The live board's title (default: :func:`default_title`)."""
    event_line: EventLine | None = None
    """A public event as a channel line (default: its ``text``)."""
    secret_line: SecretText | None = None
    """A player's hand DM (default: :func:`default_secret_text`)."""
    hand_alert: HandAlert | None = None
    """The notifying DM line when a player must act on their hand (default: none)."""
    instruction: Instruction | None = None
    """The line naming a player's next step on the live board (default: :func:`default_instruction`)."""
    turn_summary: TurnSummary | None = None
    """A finished turn in short, from its public events (default: the board joins the turn's recap lines)."""
    picking: Picking | None = None
    """How its moves are picked by clicks under the live board (default: buttons only)."""
    alt_text: AltText | None = None
    """The board picture's alt text, from the public view alone (default: :func:`default_alt_text`)."""

    def buttons(self, table: Table, player: str) -> list[tuple[str, str]]:
        """Returns the (label, move) buttons for the player to act."""
        return (self.quick_moves or default_quick_moves)(table, player)

    def hand_choices(self, table: Table, player: str) -> list[tuple[str, str]]:
        """Returns the (label, move) choices of ``/game hand``'s menu."""
        return self.hand_moves(table, player) if self.hand_moves is not None else []

    def board_key(self, out: Outbox) -> tuple[str, ...]:
        """Returns what the announcement's board is for."""
        return self.turn_key(out) if self.turn_key is not None else tuple(out.to_act)

    def title(self, title: str, view: dict[str, Any]) -> str:
        """Returns the live board's title."""
        return (self.board_title or default_title)(title, view)

    def event_text(self, event: dict[str, Any]) -> str:
        """Returns a public event's channel line."""
        return self.event_line(event) if self.event_line is not None else str(event["text"])

    def secret_text(self, secret: dict[str, Any]) -> str:
        """Returns a player's private view as their hand DM's text."""
        return (self.secret_line or default_secret_text)(secret)

    def alert(self, secret: dict[str, Any], view: dict[str, Any], player: str) -> str | None:
        """Returns the notifying line when the player must act on their hand, else None."""
        return self.hand_alert(secret, view, player) if self.hand_alert is not None else None

    def step(self, view: dict[str, Any], player: str) -> str:
        """Returns the line naming a player's next step (the game's own, else :func:`default_instruction`)."""
        own = self.instruction(view, player) if self.instruction is not None else None
        return own or default_instruction(view, player)

    def alt(self, title: str, view: dict[str, Any]) -> str:
        """Returns the board picture's alt text (the game's own, else :func:`default_alt_text`), at most
        :data:`ALT_LIMIT` characters, shortened at a word's end."""
        return shorten((self.alt_text or default_alt_text)(title, view), ALT_LIMIT)

    def summary(self, player: str, events: list[dict[str, Any]]) -> str | None:
        """Returns a finished turn of ``player`` in short, from its public events; None: the game sums up none."""
        return self.turn_summary(player, events) if self.turn_summary is not None else None


DEFAULT = Surface()
"""The surface of a game that brings none."""


def surface_of(game: str) -> Surface:
    """Returns a game's surface (its kit's), or the defaults for a game with none or not offered here."""
    kit = KITS.get(game)
    surface = kit.surface if kit is not None else None
    return surface if isinstance(surface, Surface) else DEFAULT


def title_of(game: str) -> str:
    """Returns a game's title, or its stored name when this process does not offer it."""
    kit = KITS.get(game)
    return kit.title if kit is not None else game
