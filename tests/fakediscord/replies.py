"""Shared helpers of the fake server's handlers: the app keys, JSON replies, request bodies."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fakediscord.recorder import SentFile

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord

Json = dict[str, Any]
FAKE_KEY: web.AppKey[FakeDiscord] = web.AppKey("fake_discord")
PREFIX_KEY: web.AppKey[str] = web.AppKey("api_prefix", str)


def reply(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """Returns a JSON response typed exactly ``application/json``, as discord.py expects."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers=headers,
                        content_type="application/json")


BODY_KEY: web.RequestKey[Any] = web.RequestKey("fake_discord_body", object)
"""Where ``read_body`` keeps a request's JSON body (so a refusal can be recorded with it)."""
FILES_KEY: web.RequestKey[Any] = web.RequestKey("fake_discord_files", object)
"""Where ``read_body`` keeps a multipart request's uploaded files (the recorder keeps their digests)."""


def error(status: int, message: str, code: int = 0, errors: Json | None = None) -> web.Response:
    """Returns a Discord-style JSON error (with ``errors`` for a 50035 Invalid Form Body)."""
    data: Json = {"message": message, "code": code}
    if errors:
        data["errors"] = errors
    return reply(data, status=status)


async def read_json(request: web.Request) -> Any:
    """Returns the JSON body of a request (kept for the recorder)."""
    body = await request.json()
    request[BODY_KEY] = body
    return body


def _descriptions(body: Json) -> dict[str, str]:
    """Returns the alt text of each new file by its index, from the payload's ``attachments`` (an interaction
    callback's are under ``data``)."""
    data = body.get("data") if isinstance(body.get("data"), dict) else {}
    entries = body.get("attachments") or data.get("attachments") or []
    return {str(a["id"]): a["description"] for a in entries
            if isinstance(a, dict) and "id" in a and isinstance(a.get("description"), str)}


async def read_body(request: web.Request) -> tuple[Json, list[SentFile]]:
    """Returns the JSON body and the uploaded files of a JSON or multipart request."""
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        body = json.loads(str(form.get("payload_json") or "{}"))
        indexed = []
        described = _descriptions(body)
        for name, value in form.items():
            found = re.fullmatch(r"files\[(\d+)\]", name)
            if found and isinstance(value, web.FileField):
                data = value.file.read()
                sent = SentFile(value.filename, data, value.content_type, described.get(found[1]))
                indexed.append((int(found[1]), sent))
        files = [f for _, f in sorted(indexed, key=lambda pair: pair[0])]
        request[BODY_KEY], request[FILES_KEY] = body, files
        return body, files
    if not request.can_read_body:
        return {}, []
    return await read_json(request), []
