"""Helpers for the Tablehost Discord tests."""

from __future__ import annotations

from tests.fakediscord.api import DiscordTest
from tests.fakediscord.recorder import SentMessage

PICTURE_EXTENSIONS = {"PNG": ".png", "WEBP": ".webp"}
"""The formats a board picture may be sent in (:func:`render.common.encode`), and each one's file name ending."""


def pictures(messages: list[SentMessage]) -> list[SentMessage]:
    """Returns the messages that carry a picture, after checking that each decodes as PNG or WebP under its own name."""
    out = [m for m in messages if m.files]
    for m in out:
        for f in m.files:
            kind = f.image().format
            assert kind in PICTURE_EXTENSIONS and f.filename.endswith(PICTURE_EXTENSIONS[kind]), (f.filename, kind)
    return out


async def open_tally(dt: DiscordTest, *players: str, options: str | None = None) -> None:
    """Opens and starts a Tally table in #general with the given players (the first opens it)."""
    extra = {"options": options} if options else {}
    await dt.slash("game", "new", user=players[0], game="tally", **extra)
    for p in players[1:]:
        await dt.slash("game", "join", user=p)
    await dt.slash("game", "start", user=players[0])


def last_turn_message(dt: DiscordTest) -> SentMessage:
    """Returns the newest channel message that has buttons."""
    return [m for m in dt.messages("general") if m.buttons()][-1]


def said(message: SentMessage) -> str:
    """Returns what a message says: its content, then each embed's title, description and fields."""
    parts = [message.content]
    for embed in message.embeds:
        parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        parts += [f"{f.get('name')}: {f.get('value')}" for f in embed.get("fields") or []]
    return "\n".join(p for p in parts if p)


def field(message: SentMessage, name: str) -> str | None:
    """Returns the value of the first embed field called ``name`` (a live board's "Last turn"), or None."""
    for embed in message.embeds:
        for f in embed.get("fields") or []:
            if f.get("name") == name:
                return str(f.get("value"))
    return None


def board_pictures(message: SentMessage) -> list[str]:
    """Returns the file names a live board shows (its attachments)."""
    return [f.filename for f in message.files]


async def open_game(dt: DiscordTest, group: str, *players: str, **options: object) -> None:
    """Opens a table with ``/<group> new`` by the first player, seats the others and starts the game."""
    await dt.slash(group, "new", user=players[0], **options)
    for player in players[1:]:
        await dt.slash("game", "join", user=player)
    await dt.slash("game", "start", user=players[0])
