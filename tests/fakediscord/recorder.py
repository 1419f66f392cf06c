"""Records, in order, everything the bot sends to the fake Discord server."""

from __future__ import annotations

import asyncio
import io
import re
import time
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]

CLIENT_HEADER = "X-Fake-Discord-Client"
"""A header naming the bot process a request or gateway connection comes from (``tests.support.bot_process``
sends it; Discord ignores it). Recorded as ``client`` on requests, callbacks, messages and gateway sessions."""
current_client: ContextVar[str | None] = ContextVar("fake_discord_client", default=None)
"""The ``CLIENT_HEADER`` of the request being served (set by the REST middleware)."""

INTERACTION_DEADLINE = 3.0
"""Seconds Discord gives a bot to send the first response to an interaction."""


@dataclass(frozen=True)
class SentFile:
    """A file the bot uploaded (``files[n]`` of a multipart request)."""

    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    """Its alt text, from the ``attachments`` entry of the payload whose ``id`` is the file's index."""

    def image(self) -> Any:
        """Returns the file decoded as a Pillow image; raises ``PIL.UnidentifiedImageError`` if not one."""
        from PIL import Image

        picture = Image.open(io.BytesIO(self.data))
        picture.load()
        return picture


@dataclass
class SentMessage:
    """A message the bot created: in a channel, a DM, or as an interaction response or follow-up."""

    id: int
    channel_id: int
    payload: Json
    files: list[SentFile]
    seq: int
    via: str
    dm_to: int | None = None
    interaction_id: int | None = None
    deleted: bool = False
    edits: int = 0
    bodies: list[Json] = field(default_factory=list)
    """The JSON bodies the bot sent for this message (creation, then each edit), e.g. allowed_mentions."""
    client: str | None = field(default_factory=current_client.get)
    """The bot process that created the message (its ``CLIENT_HEADER``), if it named itself."""

    @property
    def content(self) -> str:
        """Returns the current text of the message."""
        return str(self.payload.get("content") or "")

    @property
    def pinged(self) -> list[int]:
        """Returns the user ids this message notifies, as Discord decides from content and allowed_mentions."""
        named = [int(m) for m in re.findall(r"<@!?(\d+)>", self.content)]
        allowed = (self.bodies[0] if self.bodies else {}).get("allowed_mentions")
        if allowed is None or "users" in (allowed.get("parse") or []):
            return list(dict.fromkeys(named))
        listed = {int(u) for u in allowed.get("users") or []}
        return [u for u in dict.fromkeys(named) if u in listed]

    @property
    def ephemeral(self) -> bool:
        """Tells whether only the interaction's user can see the message (flag 64)."""
        return bool(int(self.payload.get("flags") or 0) & 64)

    @property
    def embeds(self) -> list[Json]:
        """Returns the message's embeds."""
        return list(self.payload.get("embeds") or [])

    def components(self) -> list[Json]:
        """Returns every interactive component of the message (buttons, selects), in order."""
        found: list[Json] = []

        def walk(components: list[Json]) -> None:
            for comp in components:
                if comp.get("type") in (2, 3, 5, 6, 7, 8):
                    found.append(comp)
                walk(comp.get("components") or [])
                if isinstance(comp.get("accessory"), dict):
                    walk([comp["accessory"]])

        walk(self.payload.get("components") or [])
        return found

    def component(self, custom_id: str) -> Json:
        """Returns the component with this custom_id; raises LookupError if none has it."""
        for comp in self.components():
            if comp.get("custom_id") == custom_id:
                return comp
        ids = [c.get("custom_id") for c in self.components()]
        raise LookupError(f"no component {custom_id!r} on message {self.id}; custom_ids: {ids}")

    def buttons(self) -> list[Json]:
        """Returns every button of the message, in order."""
        return [c for c in self.components() if c.get("type") == 2]

    def button(self, label_or_id: str) -> Json:
        """Returns the button whose label or custom_id matches; raises LookupError if none does."""
        for button in self.buttons():
            if label_or_id in (button.get("label"), button.get("custom_id")):
                return button
        labels = [(b.get("label"), b.get("custom_id")) for b in self.buttons()]
        raise LookupError(f"no button {label_or_id!r} on message {self.id}; buttons: {labels}")


@dataclass(frozen=True)
class Callback:
    """One interaction callback (``POST /interactions/{id}/{token}/callback``)."""

    type: int
    data: Json
    at: float
    accepted: bool = True
    seq: int = 0
    client: str | None = field(default_factory=current_client.get)
    """The bot process that answered (its ``CLIENT_HEADER``), if it named itself."""


@dataclass
class InteractionRecord:
    """An interaction the fake dispatched, and everything the bot answered to it."""

    id: int
    token: str
    kind: int
    name: str
    user_id: int
    channel_id: int
    dispatched_at: float
    guild_id: int | None = None
    """The guild the interaction came from; None in the bot's DM."""
    deadline: float = INTERACTION_DEADLINE
    callbacks: list[Callback] = field(default_factory=list)
    messages: list[SentMessage] = field(default_factory=list)
    original: SentMessage | None = None
    source_message_id: int | None = None
    payload: Json = field(default_factory=dict)
    """The INTERACTION_CREATE payload as dispatched."""
    shards: list[tuple[int, int]] = field(default_factory=list)
    """The ``(shard_id, shard_count)`` of each gateway session it was dispatched to (its guild's shard)."""
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    refusals: list[Refusal] = field(default_factory=list)
    """The requests on this interaction's callback or webhook that the fake refused (4xx), in order."""

    @property
    def first_response_after(self) -> float | None:
        """Returns the seconds from dispatch to the first callback, or None if none came."""
        if not self.callbacks:
            return None
        return self.callbacks[0].at - self.dispatched_at

    @property
    def in_time(self) -> bool:
        """Tells whether the first callback came within the deadline (3 s on Discord)."""
        after = self.first_response_after
        return after is not None and after <= self.deadline

    @property
    def deferred(self) -> bool:
        """Tells whether the first callback was a defer (type 5 or 6)."""
        return bool(self.callbacks) and self.callbacks[0].type in (5, 6)

    @property
    def choices(self) -> list[Json]:
        """Returns the autocomplete choices of a type 8 callback (empty if none)."""
        for cb in self.callbacks:
            if cb.type == 8:
                return list(cb.data.get("choices") or [])
        return []

    @property
    def modal(self) -> Json | None:
        """Returns the modal the bot opened (a type 9 callback's data), or None."""
        return next((cb.data for cb in self.callbacks if cb.type == 9 and cb.accepted), None)

    @property
    def ephemeral(self) -> bool:
        """Tells whether the original response is ephemeral."""
        if self.original is not None:
            return self.original.ephemeral
        return any(int(cb.data.get("flags") or 0) & 64 for cb in self.callbacks)

    @property
    def responses(self) -> list[SentMessage]:
        """Returns the live messages the interaction produced (original first, then follow-ups)."""
        return [m for m in self.messages if not m.deleted]

    @property
    def content(self) -> str:
        """Returns the texts of the live responses joined by newlines."""
        return "\n".join(m.content for m in self.responses)

    @property
    def files(self) -> list[SentFile]:
        """Returns the files of the live responses, in order."""
        return [f for m in self.responses for f in m.files]


@dataclass(frozen=True)
class RequestRecord:
    """One REST request the bot made and the status the fake answered with."""

    method: str
    path: str
    route: str
    status: int
    at: float
    duration: float
    code: int | None = None
    """Discord's JSON error code of a refused request (50035, 50006, 40060...), else None."""
    client: str | None = field(default_factory=current_client.get)
    """The bot process that sent it (its ``CLIENT_HEADER``), if it named itself."""
    body: Any = None
    """The JSON body (``payload_json`` of a multipart request) when the route read one, else None."""
    files: tuple[SentFile, ...] = ()
    """The files it uploaded, in order."""


@dataclass(frozen=True)
class Refusal:
    """A request the fake refused as Discord would (a 4xx it answered itself, not a fault switch)."""

    method: str
    path: str
    route: str
    status: int
    code: int
    message: str
    errors: Json = field(default_factory=dict)
    """Discord's ``errors`` object of a 50035, nested by path (empty for other codes)."""
    body: Any = None
    """The JSON body of the refused request (``payload_json`` of a multipart one), if it had one."""

    @property
    def problems(self) -> list[str]:
        """Returns each form error as ``"components.0.components.1.label: Must be 80 or fewer in length.
        (BASE_TYPE_MAX_LENGTH)"``."""
        from tests.fakediscord.limits import describe

        return describe(self.errors)

    def __str__(self) -> str:
        detail = "; ".join(self.problems) or self.message
        return f"{self.status} code {self.code} on {self.route}: {detail}"


class Recorder:
    """Keeps every request, message and interaction response in arrival order."""

    def __init__(self) -> None:
        self.requests: list[RequestRecord] = []
        self.unknown_routes: list[tuple[str, str]] = []
        self.sent: list[SentMessage] = []
        self.refused: list[Refusal] = []
        """Every request the fake refused as Discord would (limits, empty messages, second answers...)."""
        self.nonce_replays: list[SentMessage] = []
        """The earlier messages returned again for a repeated enforced nonce (nothing new was created)."""
        self.interactions: dict[int, InteractionRecord] = {}
        self.last_activity: float = time.monotonic()
        self.in_flight = 0
        """REST requests being served right now (a quiet bot has none)."""
        self._seq = 0

    def next_seq(self) -> int:
        """Returns the next position in the global order of sent things."""
        self._seq += 1
        self.touch()
        return self._seq

    def touch(self) -> None:
        """Marks that the bot just did something (used to wait until it is quiet)."""
        self.last_activity = time.monotonic()

    def requests_to(self, route: str, *, status: int | None = None) -> list[RequestRecord]:
        """Returns the requests to a route template (``"POST /channels/{channel_id}/messages"``)."""
        return [r for r in self.requests if r.route == route and (status is None or r.status == status)]

    def refusals(
        self, *, status: int | None = None, code: int | None = None, route: str | None = None,
    ) -> list[Refusal]:
        """Returns the refused requests, optionally only those with this status, error code or route."""
        return [r for r in self.refused if (status is None or r.status == status)
                and (code is None or r.code == code) and (route is None or r.route == route)]

    def in_channel(self, channel_id: int) -> list[SentMessage]:
        """Returns the live messages everyone in a channel can see, in order."""
        return [m for m in self.sent if m.channel_id == channel_id and not m.deleted and not m.ephemeral]

    def dms_to(self, user_id: int) -> list[SentMessage]:
        """Returns the live messages in the bot's DM channel with a user, in order (ephemeral answers to
        an interaction there are not among them: see ``ephemerals_for``)."""
        return [m for m in self.sent if m.dm_to == user_id and not m.deleted and not m.ephemeral]

    def ephemerals_for(self, user_id: int) -> list[SentMessage]:
        """Returns the live ephemeral messages only one user can see, in order."""
        out = []
        for m in self.sent:
            if m.deleted or not m.ephemeral or m.interaction_id is None:
                continue
            record = self.interactions.get(m.interaction_id)
            if record is not None and record.user_id == user_id:
                out.append(m)
        return out
