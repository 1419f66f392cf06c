"""Interaction routes: the callback, follow-ups, and edits of responses through the webhook."""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from tests.fakediscord import limits
from tests.fakediscord import messages as msgs
from tests.fakediscord.recorder import Callback
from tests.fakediscord.replies import FAKE_KEY, Json, error, read_body, reply


async def interaction_callback(request: web.Request) -> web.Response:
    """Serves ``POST /interactions/{id}/{token}/callback`` for response types 1, 4, 5, 6, 7, 8, 9."""
    fake = request.app[FAKE_KEY]
    record = fake.recorder.interactions.get(int(request.match_info["webhook_id"]))
    if record is None or record.token != request.match_info["webhook_token"]:
        return error(404, "Unknown interaction", 10062)
    body, files = await read_body(request)
    kind, data = int(body.get("type", 0)), dict(body.get("data") or {})
    source = fake.messages.get(record.source_message_id) if record.source_message_id else None
    limits.check_callback(kind, data, files, interaction_kind=record.kind, source=source.payload if source else None)
    msgs.check_size(fake, files)
    now = time.monotonic()
    if any(cb.accepted for cb in record.callbacks):
        record.callbacks.append(Callback(kind, data, now, accepted=False, seq=fake.recorder.next_seq()))
        return error(400, "Interaction has already been acknowledged.", limits.ALREADY_ACKNOWLEDGED)
    late = fake.enforce_deadline and now - record.dispatched_at > record.deadline
    record.callbacks.append(Callback(kind, data, now, accepted=not late, seq=fake.recorder.next_seq()))
    if late:
        record.answered.set()
        return error(404, "Unknown interaction", 10062)
    message = msgs.apply_callback(fake, record, kind, data, files)
    interaction: Json = {"id": str(record.id), "type": record.kind}
    result: Json = {"interaction": interaction}
    if message is not None:
        interaction.update(response_message_id=str(message.id), response_message_loading=kind == 5,
                           response_message_ephemeral=message.ephemeral)
        result["resource"] = {"type": kind, "message": message.payload}
    return reply(result)


def _webhook_record(request: web.Request) -> Any:
    """Returns the interaction whose token the webhook route names, if it was acknowledged in time."""
    fake = request.app[FAKE_KEY]
    record = fake.interaction_by_token(request.match_info["webhook_token"])
    if record is None or request.match_info["webhook_id"] != str(fake.bot_user.id):
        return None
    if not any(cb.accepted for cb in record.callbacks):
        return None  # Discord only opens the webhook once the interaction is acknowledged
    return record


async def post_followup(request: web.Request) -> web.Response:
    """Serves ``POST /webhooks/{app}/{token}`` (an interaction follow-up)."""
    fake = request.app[FAKE_KEY]
    record = _webhook_record(request)
    if record is None:
        return error(404, "Unknown Webhook", 10015)
    body, files = await read_body(request)
    msgs.check(fake, body, files)
    limits.refuse_empty(body, files)
    original = record.original
    if original is not None and int(original.payload.get("flags") or 0) & msgs.LOADING:
        # The first follow-up after a "thinking" defer replaces the loading message (and keeps its flags).
        msgs.edit(fake, original, {**body, "flags": None}, files)
        message = original
    else:
        message = msgs.create(fake, fake.channel(record.channel_id), body, files, via="followup",
                              record=record)
    record.answered.set()
    return reply(message.payload)


def _webhook_message(request: web.Request) -> Any:
    record = _webhook_record(request)
    if record is None:
        return None, None
    message_id = request.match_info["message_id"]
    if message_id == "@original":
        return record, record.original
    message = request.app[FAKE_KEY].messages.get(int(message_id))
    return record, message if message is not None and not message.deleted else None


async def get_webhook_message(request: web.Request) -> web.Response:
    """Serves ``GET /webhooks/{app}/{token}/messages/@original|{id}``."""
    _, message = _webhook_message(request)
    return reply(message.payload) if message else error(404, "Unknown Message", 10008)


async def patch_webhook_message(request: web.Request) -> web.Response:
    """Serves ``PATCH /webhooks/{app}/{token}/messages/@original|{id}`` (edits a response)."""
    record, message = _webhook_message(request)
    if message is None:
        return error(404, "Unknown Message", 10008)
    body, files = await read_body(request)
    msgs.check(request.app[FAKE_KEY], body, files, flags=int(message.payload.get("flags") or 0))
    limits.refuse_empty_edit(message.payload, body, files)
    msgs.edit(request.app[FAKE_KEY], message, body, files)
    if message not in record.messages:
        record.messages.append(message)
    record.answered.set()
    return reply(message.payload)


async def delete_webhook_message(request: web.Request) -> web.Response:
    """Serves ``DELETE /webhooks/{app}/{token}/messages/@original|{id}``."""
    record, message = _webhook_message(request)
    if message is None:
        return error(404, "Unknown Message", 10008)
    message.deleted = True
    record.answered.set()
    return web.Response(status=204)


def add_routes(app: web.Application, prefix: str) -> None:
    """Registers the interaction callback and webhook routes under ``prefix``."""
    r = app.router
    r.add_post(prefix + "/interactions/{webhook_id}/{webhook_token}/callback", interaction_callback)
    r.add_post(prefix + "/webhooks/{webhook_id}/{webhook_token}", post_followup)
    hook = prefix + "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
    r.add_get(hook, get_webhook_message)
    r.add_patch(hook, patch_webhook_message)
    r.add_delete(hook, delete_webhook_message)
