"""Creates and edits the fake server's messages, and applies interaction callbacks to them."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from tests.fakediscord import limits
from tests.fakediscord.limits import Rejected
from tests.fakediscord.payloads import FakeChannel, application_payload, attachment_payload, message_payload
from tests.fakediscord.recorder import InteractionRecord, SentFile, SentMessage

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord

__all__ = ["Rejected", "SentFile", "SentMessage", "application_payload", "apply_callback", "check", "check_nonce",
           "check_size", "create", "edit", "post"]

Json = dict[str, Any]
EPHEMERAL, LOADING = 64, 128
NONCE_WINDOW = 300.0
"""Seconds an enforced nonce is remembered (Discord: "the past few minutes")."""


def check(fake: FakeDiscord, body: Json, files: list[SentFile], *, base: tuple[str, ...] = (),
          flags: int = 0, nonce: bool = False) -> None:
    """Raises Rejected for a message Discord refuses: over any limit of ``limits`` (400 code 50035,
    naming the path) or with files larger than the attachment size limit (413 code 40005)."""
    limits.check_message(body, files, base=base, flags=flags, nonce=nonce)
    check_size(fake, files)


def check_size(fake: FakeDiscord, files: list[SentFile]) -> None:
    """Raises Rejected (413 code 40005) for files larger together than the attachment size limit."""
    if sum(len(f.data) for f in files) > fake.attachment_size_limit:
        raise Rejected(413, 40005, "Request entity too large")


def check_nonce(body: Json) -> None:
    """Raises Rejected (400 code 50035) for a nonce that is neither an integer nor a string of at most 25
    characters."""
    problems = limits.Problems()
    limits.message_problems(problems, {"nonce": body.get("nonce")}, [], nonce=True)
    problems.raise_if_any()


def _nonce_key(fake: FakeDiscord, body: Json) -> tuple[int, str] | None:
    nonce = body.get("nonce")
    return None if nonce is None else (fake.bot_user.id, str(nonce))


def post(fake: FakeDiscord, channel: FakeChannel, body: Json, files: list[SentFile], *, via: str) -> SentMessage:
    """Creates a channel message or DM, or, for an enforced nonce the same author used in the last
    ``fake.nonce_window`` seconds, returns that earlier message unchanged (as Discord does)."""
    key = _nonce_key(fake, body)
    if key is not None and body.get("enforce_nonce"):
        earlier = fake.nonces.get(key)
        if earlier is not None and time.monotonic() - earlier[1] <= fake.nonce_window:
            message = fake.messages.get(earlier[0])
            if message is not None and not message.deleted:
                fake.recorder.nonce_replays.append(message)
                fake.recorder.touch()
                return message
    message = create(fake, channel, body, files, via=via)
    if key is not None:
        fake.nonces[key] = (message.id, time.monotonic())
    return message


def _attachments(fake: FakeDiscord, files: list[SentFile]) -> list[Json]:
    return [attachment_payload(fake.ids.next(), f.filename, f.data, f.content_type, f.description) for f in files]


def create(
    fake: FakeDiscord, channel: FakeChannel, body: Json, files: list[SentFile], *, via: str,
    record: InteractionRecord | None = None,
) -> SentMessage:
    """Stores and records a new message from the bot and returns it."""
    message_id = fake.ids.next()
    payload = message_payload(
        message_id=message_id, channel=channel, author=fake.bot_user, body=body,
        attachments=_attachments(fake, files), interaction_id=record.id if record else None,
    )
    message = SentMessage(
        id=message_id, channel_id=channel.id, payload=payload, files=list(files),
        seq=fake.recorder.next_seq(), via=via, bodies=[body],
        dm_to=channel.recipient.id if channel.recipient is not None else None,
        interaction_id=record.id if record else None,
    )
    fake.messages[message_id] = message
    fake.recorder.sent.append(message)
    if record is not None:
        record.messages.append(message)
    return message


def edit(fake: FakeDiscord, message: SentMessage, body: Json, files: list[SentFile]) -> None:
    """Applies an edit (content, embeds, components, attachments, flags) to a stored message."""
    payload = message.payload
    for key in ("content", "embeds", "components"):
        if key in body:
            payload[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
    flags = int(payload.get("flags") or 0) & ~LOADING
    if "flags" in body and body["flags"] is not None:
        flags = (flags & EPHEMERAL) | int(body["flags"])
    payload["flags"] = flags
    if "attachments" in body:
        keep = {str(a.get("id")) for a in body["attachments"] or []}
        kept = [a for a in payload["attachments"] if a["id"] in keep]
        pairs = zip(payload["attachments"], message.files, strict=False)
        kept_files = [f for a, f in pairs if a["id"] in keep]
        payload["attachments"], message.files = kept, kept_files
    payload["attachments"] = [*payload["attachments"], *_attachments(fake, files)]
    message.files = [*message.files, *files]
    payload["edited_timestamp"] = payload["timestamp"]
    message.bodies.append(body)
    message.edits += 1
    fake.recorder.next_seq()


def apply_callback(
    fake: FakeDiscord, record: InteractionRecord, kind: int, data: Json, files: list[SentFile],
) -> SentMessage | None:
    """Applies an accepted interaction callback and returns the message it made or changed."""
    channel = fake.channel(record.channel_id)
    source = fake.messages.get(record.source_message_id) if record.source_message_id else None
    if kind == 4:
        record.original = create(fake, channel, data, files, via="interaction", record=record)
        record.answered.set()
        return record.original
    if kind == 5:
        body = {"content": "", "flags": LOADING | (int(data.get("flags") or 0) & EPHEMERAL)}
        record.original = create(fake, channel, body, [], via="interaction", record=record)
        return record.original
    if kind == 6:
        record.original = source
        return None
    if kind == 7 and source is not None:
        edit(fake, source, data, files)
        record.original = source
        record.messages.append(source)
        record.answered.set()
        return source
    record.answered.set()
    return None
