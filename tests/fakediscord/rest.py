"""REST routes of the fake server, and a middleware that applies fault switches and records requests."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fakediscord import interactions, limits
from tests.fakediscord import messages as msgs
from tests.fakediscord.faults import POLL, HeldRequest
from tests.fakediscord.recorder import CLIENT_HEADER, Refusal, RequestRecord, current_client
from tests.fakediscord.replies import BODY_KEY, FAKE_KEY, FILES_KEY, PREFIX_KEY, error, read_body, read_json, reply

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord

__all__ = ["FAKE_KEY", "add_routes", "middleware", "unknown"]

NO_ANSWER = 499
"""The status recorded for a request that got no answer (its connection was closed, or its client left)."""

def route_name(request: web.Request) -> str | None:
    """Returns the discord.py route template of a request (``"POST /channels/{channel_id}/messages"``)."""
    if request.match_info.handler is unknown:
        return None
    resource = request.match_info.route.resource
    if resource is None:
        return None
    path = resource.canonical.removeprefix(request.app[PREFIX_KEY])
    if request.match_info.get("message_id") == "@original":
        path = path.replace("{message_id}", "@original")
    return f"{request.method} {path}"


def _ratelimit_headers(route: str) -> dict[str, str]:
    return {"X-RateLimit-Limit": "50", "X-RateLimit-Remaining": "49", "X-RateLimit-Reset-After": "1.000",
            "X-RateLimit-Reset": f"{time.time() + 1:.3f}", "X-RateLimit-Bucket": f"fake-{abs(hash(route)):x}"}


@web.middleware
async def middleware(request: web.Request, handler: Any) -> web.StreamResponse:
    """Applies armed fault switches, serves the route, and records the request."""
    fake = request.app[FAKE_KEY]
    if request.path in ("/", "/resume/"):
        return await handler(request)
    fake.recorder.in_flight += 1
    named = current_client.set(request.headers.get(CLIENT_HEADER))
    try:
        return await _serve(fake, request, handler)
    finally:
        current_client.reset(named)
        fake.recorder.in_flight -= 1
        fake.recorder.touch()


async def _serve(fake: FakeDiscord, request: web.Request, handler: Any) -> web.StreamResponse:
    started = time.monotonic()
    route = route_name(request)
    response: web.StreamResponse
    if route is None:
        fake.recorder.unknown_routes.append((request.method, request.path))
        response = error(404, "404: Not Found")
    else:
        fired = fake.faults.take(route, request)
        for fault in fired:
            if fault.delay:
                await asyncio.sleep(fault.delay)
        answer = next((f for f in fired if f.status), None)
        if answer is not None:
            await request.read()
            response = reply(answer.body, status=answer.status, headers=answer.headers)
        else:
            try:
                response = await handler(request)
            except msgs.Rejected as exc:
                response = error(exc.status, exc.message, exc.code, exc.errors)
            if response.status < 300:
                response.headers.update(_ratelimit_headers(route))
            elif response.status in REFUSED:
                _record_refusal(fake, request, route, response)
    code = _error_code(response) if response.status >= 400 else None
    files = tuple(request.get(FILES_KEY) or ())
    fake.recorder.requests.append(RequestRecord(
        request.method, request.path, route or f"{request.method} ?", response.status, started,
        time.monotonic() - started, code, body=request.get(BODY_KEY), files=files,
    ))
    return response


REFUSED = frozenset(range(400, NO_ANSWER)) - {404}
"""Statuses recorded as refusals when the fake's own rules answer them (a 404 is a lookup, not a refusal;
499 means no answer was given)."""


def _error_json(response: web.StreamResponse) -> dict[str, Any]:
    body = getattr(response, "body", None)
    if not isinstance(body, bytes | bytearray):
        return {}
    try:
        data = json.loads(body)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _error_code(response: web.StreamResponse) -> int | None:
    code = _error_json(response).get("code")
    return code if isinstance(code, int) else None


REFUSALS_LOG = "FAKE_DISCORD_REFUSALS"
"""An environment variable naming a file to which every refusal is appended as a JSON line (with the
test that got it), to survey a whole test run for payloads Discord would refuse."""


def _log_refusal(refusal: Refusal) -> None:
    path = os.environ.get(REFUSALS_LOG)
    if not path:
        return
    line = {"test": os.environ.get("PYTEST_CURRENT_TEST"), "route": refusal.route, "status": refusal.status,
            "code": refusal.code, "message": refusal.message, "problems": refusal.problems, "body": refusal.body}
    with open(path, "a", encoding="utf-8") as log:
        log.write(json.dumps(line, default=str) + "\n")


def _record_refusal(fake: FakeDiscord, request: web.Request, route: str, response: web.StreamResponse) -> None:
    """Keeps a request the fake refused, with Discord's code, errors and the body that was refused."""
    data = _error_json(response)
    refusal = Refusal(request.method, request.path, route, response.status, int(data.get("code") or 0),
                      str(data.get("message") or ""), dict(data.get("errors") or {}), request.get(BODY_KEY))
    fake.recorder.refused.append(refusal)
    _log_refusal(refusal)
    token = request.match_info.get("webhook_token")
    record = fake.interaction_by_token(token) if token else None
    if record is not None:
        record.refusals.append(refusal)


async def unknown(request: web.Request) -> web.Response:
    """Answers any route the fake does not know with 404 (the middleware records it)."""
    return error(404, "404: Not Found")


# identity and gateway

async def get_me(request: web.Request) -> web.Response:
    """Serves ``GET /users/@me`` (the bot user; discord.py's login)."""
    fake = request.app[FAKE_KEY]
    return reply({**fake.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0})


async def get_user(request: web.Request) -> web.Response:
    """Serves ``GET /users/{user_id}``."""
    user = request.app[FAKE_KEY].user_by_id(int(request.match_info["user_id"]))
    return reply(user.payload()) if user else error(404, "Unknown User", 10013)


async def get_guild(request: web.Request) -> web.Response:
    """Serves ``GET /guilds/{guild_id}``."""
    guild = request.app[FAKE_KEY].guild_by_id(request.match_info["guild_id"])
    if guild is None:
        return error(404, "Unknown Guild", 10004)
    data = guild.payload()
    for key in ("channels", "threads", "members", "voice_states", "presences", "joined_at"):
        data.pop(key, None)
    return reply(data)


async def get_member(request: web.Request) -> web.Response:
    """Serves ``GET /guilds/{guild_id}/members/{user_id}``."""
    fake = request.app[FAKE_KEY]
    guild = fake.guild_by_id(request.match_info["guild_id"])
    if guild is None:
        return error(404, "Unknown Guild", 10004)
    user = fake.user_by_id(int(request.match_info["user_id"]))
    if user is None or not guild.is_member(user):
        return error(404, "Unknown Member", 10007)
    return reply(guild.member_payload(user))


async def get_application(request: web.Request) -> web.Response:
    """Serves ``GET /oauth2/applications/@me``."""
    fake = request.app[FAKE_KEY]
    return reply({**msgs.application_payload(fake.bot_user, fake.guild.owner),
                  "approximate_guild_count": len(fake.guilds)})


async def get_gateway(request: web.Request) -> web.Response:
    """Serves ``GET /gateway`` and ``GET /gateway/bot``."""
    fake = request.app[FAKE_KEY]
    limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
    return reply({"url": fake.gateway_url, "shards": fake.gateway.recommended_shards, "session_start_limit": limit})


# application commands

def _scope(request: web.Request) -> int | None:
    """Returns the guild id of a guild command route (None: global); raises Rejected (403 code 50001,
    Missing Access) for a guild the bot is not in, as Discord does."""
    guild_id = request.match_info.get("guild_id")
    if not guild_id:
        return None
    if request.app[FAKE_KEY].guild_by_id(guild_id) is None:
        raise msgs.Rejected(403, MISSING_ACCESS, "Missing Access")
    return int(guild_id)


MISSING_ACCESS = 50001


async def put_commands(request: web.Request) -> web.Response:
    """Serves bulk overwrite of global or guild application commands (refused over Discord's limits)."""
    _scope(request)
    commands = await read_json(request)
    limits.check_commands(commands)
    return reply(request.app[FAKE_KEY].store_commands(_scope(request), commands))


async def post_command(request: web.Request) -> web.Response:
    """Serves creating (or replacing, by name and type) one global or guild application command."""
    fake = request.app[FAKE_KEY]
    scope = _scope(request)
    command = await read_json(request)
    existing = fake.commands.get(scope, [])
    limits.check_commands(command, existing=existing)
    key = (int(command.get("type") or 1), command["name"])
    kept = [c for c in existing if (int(c.get("type") or 1), c["name"]) != key]
    stored = fake.store_commands(scope, [*kept, command])
    return reply(next(c for c in stored if (int(c.get("type") or 1), c["name"]) == key), status=201)


async def get_commands(request: web.Request) -> web.Response:
    """Serves the list of global or guild application commands."""
    return reply(request.app[FAKE_KEY].commands.get(_scope(request), []))


# channels and messages

async def get_channel(request: web.Request) -> web.Response:
    """Serves ``GET /channels/{channel_id}``."""
    try:
        channel = request.app[FAKE_KEY].channel(int(request.match_info["channel_id"]))
    except LookupError:
        return error(404, "Unknown Channel", 10003)
    return reply(channel.payload())


async def post_message(request: web.Request) -> web.Response:
    """Serves ``POST /channels/{channel_id}/messages`` (JSON or multipart with files)."""
    fake = request.app[FAKE_KEY]
    try:
        channel = fake.channel(int(request.match_info["channel_id"]))
    except LookupError:
        return error(404, "Unknown Channel", 10003)
    body, files = await read_body(request)
    msgs.check(fake, body, files, nonce=True)
    limits.refuse_empty(body, files)
    via = "dm" if channel.is_dm else "channel"
    held = fake.faults.take_hold(channel.id, via, body)
    if held is None:
        return reply(msgs.post(fake, channel, body, files, via=via).payload)
    return await _serve_held(fake, request, held, lambda: msgs.post(fake, channel, body, files, via=via))


def client_gone(request: web.Request) -> bool:
    """Tells whether the client that sent a request has closed its connection."""
    transport = request.transport
    return transport is None or transport.is_closing()


async def _serve_held(
    fake: FakeDiscord, request: web.Request, held: HeldRequest, make: Callable[[], msgs.SentMessage],
) -> web.Response:
    """Keeps a message create waiting until the test releases it or its client goes away."""
    if held.after_create:
        held.message = make()
    fake.recorder.in_flight -= 1  # a held request does not keep the bot from looking quiet
    try:
        while not held.released and not client_gone(request):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(held.wait_released(), timeout=POLL)
    finally:
        fake.recorder.in_flight += 1
    if client_gone(request):
        held.finish("abandoned")
        return web.Response(status=NO_ANSWER)
    if held.outcome == "close":
        transport = request.transport
        if transport is not None:
            transport.close()
        held.finish("closed")
        return web.Response(status=NO_ANSWER)
    if held.outcome == "error":
        held.finish("error")
        return error(held.status, f"{held.status}: held request failed by the test")
    if held.message is None:
        held.message = make()
        held.finish("created")
    else:
        held.finish("answered")
    return reply(held.message.payload)


def _channel_message(request: web.Request) -> msgs.SentMessage | None:
    """Returns the channel's message; an ephemeral one is not the channel's (Discord answers 10008 for it)."""
    message = request.app[FAKE_KEY].messages.get(int(request.match_info["message_id"]))
    if message is None or message.deleted or str(message.channel_id) != request.match_info["channel_id"]:
        return None
    return None if message.ephemeral else message


async def get_message(request: web.Request) -> web.Response:
    """Serves ``GET /channels/{channel_id}/messages/{message_id}``."""
    message = _channel_message(request)
    return reply(message.payload) if message else error(404, "Unknown Message", 10008)


async def patch_message(request: web.Request) -> web.Response:
    """Serves ``PATCH /channels/{channel_id}/messages/{message_id}``."""
    message = _channel_message(request)
    if message is None:
        return error(404, "Unknown Message", 10008)
    body, files = await read_body(request)
    msgs.check(request.app[FAKE_KEY], body, files, flags=int(message.payload.get("flags") or 0))
    limits.refuse_empty_edit(message.payload, body, files)
    msgs.edit(request.app[FAKE_KEY], message, body, files)
    return reply(message.payload)


async def delete_message(request: web.Request) -> web.Response:
    """Serves ``DELETE /channels/{channel_id}/messages/{message_id}``."""
    message = _channel_message(request)
    if message is None:
        return error(404, "Unknown Message", 10008)
    message.deleted = True
    return web.Response(status=204)


async def start_thread(request: web.Request) -> web.Response:
    """Serves ``POST /channels/{channel_id}/threads`` and ``.../messages/{message_id}/threads``."""
    fake = request.app[FAKE_KEY]
    try:
        parent = fake.channel(int(request.match_info["channel_id"]))
    except LookupError:
        return error(404, "Unknown Channel", 10003)
    if parent.is_dm or parent.is_thread:
        return error(400, "Cannot execute action on this channel type", 50024)
    body = await read_json(request)
    message_id = request.match_info.get("message_id")
    private = int(body.get("type") or 11) == 12 and message_id is None
    thread = await fake.create_thread(parent, str(body.get("name") or "thread"), private=private,
                                      thread_id=int(message_id) if message_id else None)
    return reply(thread.payload())


async def open_dm(request: web.Request) -> web.Response:
    """Serves ``POST /users/@me/channels`` (opens a DM channel)."""
    fake = request.app[FAKE_KEY]
    body = await read_json(request)
    user = fake.user_by_id(int(body.get("recipient_id", 0)))
    if user is None:
        return error(400, "Invalid Recipient(s)", 50033)
    return reply(fake.dm_channel(user).payload())


def route_names(app: web.Application, prefix: str) -> set[str]:
    """Returns the names of every REST route (as fault switches name them)."""
    names = set()
    for route in app.router.routes():
        canonical = route.resource.canonical if route.resource is not None else ""
        if canonical.startswith(prefix) and route.method != "HEAD":
            path = canonical.removeprefix(prefix)
            names.add(f"{route.method} {path}")
            if path.endswith("/messages/{message_id}") and path.startswith("/webhooks"):
                names.add(f"{route.method} {path.replace('{message_id}', '@original')}")
    return names


def add_routes(app: web.Application, prefix: str) -> None:
    """Registers every REST route under ``prefix`` (``/api/v10``)."""
    app[PREFIX_KEY] = prefix
    r = app.router
    r.add_get(prefix + "/users/@me", get_me)
    r.add_post(prefix + "/users/@me/channels", open_dm)
    r.add_get(prefix + "/users/{user_id}", get_user)
    r.add_get(prefix + "/oauth2/applications/@me", get_application)
    r.add_get(prefix + "/guilds/{guild_id}", get_guild)
    r.add_get(prefix + "/guilds/{guild_id}/members/{user_id}", get_member)
    r.add_get(prefix + "/gateway", get_gateway)
    r.add_get(prefix + "/gateway/bot", get_gateway)
    for path in ("/applications/{application_id}/commands",
                 "/applications/{application_id}/guilds/{guild_id}/commands"):
        r.add_put(prefix + path, put_commands)
        r.add_post(prefix + path, post_command)
        r.add_get(prefix + path, get_commands)
    r.add_get(prefix + "/channels/{channel_id}", get_channel)
    r.add_post(prefix + "/channels/{channel_id}/messages", post_message)
    r.add_post(prefix + "/channels/{channel_id}/threads", start_thread)
    r.add_post(prefix + "/channels/{channel_id}/messages/{message_id}/threads", start_thread)
    one = prefix + "/channels/{channel_id}/messages/{message_id}"
    r.add_get(one, get_message)
    r.add_patch(one, patch_message)
    r.add_delete(one, delete_message)
    interactions.add_routes(app, prefix)
