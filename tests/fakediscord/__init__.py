"""A fake Discord server on 127.0.0.1 for running the real discord.py client in tests.

Modules: ``server`` (state and HTTP site), ``rest`` (REST routes and the fault/recording
middleware), ``interactions`` (callback and webhook routes), ``replies`` (shared handler
helpers), ``gateway`` (WebSocket gateway), ``limits`` (Discord's limits, one table, and the checks
that refuse a payload over them), ``messages`` (message store, interaction callbacks),
``commands`` (interaction data from synced commands), ``payloads`` (JSON builders),
``recorder`` (what the bot sent), ``faults`` (fault switches), ``api`` (the test API),
``fixtures`` (pytest fixtures).

REST routes, under ``/api/v10``, named as fault switches name them (discord.py's ``Route``
templates). Any other route answers 404 JSON and is kept in ``Recorder.unknown_routes``.

- ``GET /users/@me``, ``GET /users/{user_id}``, ``GET /oauth2/applications/@me``
- ``GET /guilds/{guild_id}``, ``GET /guilds/{guild_id}/members/{user_id}`` (any guild the bot is in;
  404 code 10004 for another, 10007 for a user who is not a member)
- ``GET /gateway``, ``GET /gateway/bot``
- ``PUT|POST|GET /applications/{application_id}/commands``
- ``PUT|POST|GET /applications/{application_id}/guilds/{guild_id}/commands`` (403 code 50001 for a
  guild the bot is not in)
- ``GET /channels/{channel_id}``
- ``POST /channels/{channel_id}/messages`` (JSON, or multipart: ``payload_json`` + ``files[n]``)
- ``GET|PATCH|DELETE /channels/{channel_id}/messages/{message_id}``
- ``POST /channels/{channel_id}/threads``, ``POST /channels/{channel_id}/messages/{message_id}/threads``
- ``POST /users/@me/channels`` (opens a DM channel)
- ``POST /interactions/{webhook_id}/{webhook_token}/callback`` (types 1, 4, 5, 6, 7, 8, 9; JSON
  or multipart; answers ``with_response``; a first answer after the deadline gets 404 code
  10062, a second answer 400 code 40060)
- ``POST /webhooks/{webhook_id}/{webhook_token}`` (follow-ups; the first one after a thinking
  defer replaces the loading message)
- ``GET|PATCH|DELETE /webhooks/{webhook_id}/{webhook_token}/messages/@original``
- ``GET|PATCH|DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}``

Discord's limits (``limits``) are enforced on every route that carries them: channel messages
and DMs (create, edit), interaction callbacks, follow-ups and their edits, and command
registration. A payload over one is answered 400 ``{"code": 50035, "message": "Invalid Form
Body", "errors": {...}}`` with ``errors`` naming the path as Discord does (``components.0.
components.1.label`` -> ``{"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", ...}]}``): content over
2,000 characters; components (5 rows, row width 5 with a select filling a row, custom_id 1..100 and
unique, button label 80, label or emoji, link buttons with url and no custom_id, select options
1..25 of 100-character label/value/description, placeholder 150, min/max values 0..25); embeds
(10, title 256, description 4,096, 25 fields of 256/1,024, footer 2,048, author 256, 6,000 in
all); autocomplete results (25 choices, name 1..100, value 100); modals; callback types the
interaction does not take (``type``: "Value must be one of {8}."); commands (100 chat-input per
scope, names ``^[-_\\w]{1,32}$`` lower-case, descriptions 1..100, 25 options, subcommands or
choices, required options first, groups one level deep). An empty message is 400 code 50006,
files over the attachment size limit 413 code 40005. Every refusal (any 4xx but 404 the fake's
rules answer) is kept in ``Recorder.refused`` (``Recorder.refusals(code=50035)``, and each
interaction's ``InteractionRecord.refusals``), and, when the environment variable
``FAKE_DISCORD_REFUSALS`` names a file, appended to it as a JSON line with the test's name.

Nonces (channel messages and DMs, JSON or multipart): a ``nonce`` must be an integer or a string
of at most 25 characters (else 400 code 50035) and is echoed in the message; with
``enforce_nonce`` a nonce the bot already used within ``FakeDiscord.nonce_window`` (300 s) returns
that earlier message unchanged, same id, and nothing new is created (``Recorder.nonce_replays``).
discord.py 2.7 sends a random nonce with every ``send()`` and keeps it across its own retries.

Gateway (JSON text frames, at ``/`` and at the ``resume_gateway_url`` ``/resume/``):

- sends HELLO (op 10), HEARTBEAT_ACK (op 11), INVALID_SESSION (op 9) for a refused RESUME
- receives HEARTBEAT (op 1), IDENTIFY (op 2), PRESENCE_UPDATE (op 3, ignored), RESUME (op 6),
  REQUEST_GUILD_MEMBERS (op 8)
- dispatches READY (``session_id``, ``resume_gateway_url``, ``application``, every guild), a
  GUILD_CREATE per guild (the first: three text channels, two roles, the bot and three members;
  more with ``FakeDiscord.add_guild``, or ``join_guild`` for a connected bot), GUILD_MEMBERS_CHUNK
  (per guild asked for), THREAD_CREATE, RESUMED (after replaying every missed dispatch), INTERACTION_CREATE
  (slash command type 2 with subcommand groups, subcommands and resolved users/channels;
  component type 3 for buttons and string selects, with the message they sit on;
  autocomplete type 4; modal submit type 5). An interaction carries its channel's guild
  (``guild_id``, ``guild``, ``member``, ``context`` 0, ``authorizing_integration_owners``
  ``{"0": guild id}``) or, in the bot's DM, none (``user``, the type 1 ``channel``, ``context`` 1,
  ``{"0": "0"}``). The fake refuses (LookupError, nothing dispatched) what Discord would never send:
  a command not offered there (in a DM: a guild command, or a global one whose ``contexts`` lack 1
  or, without contexts, whose ``dm_permission`` is false; in a guild: ``contexts`` without 0; a
  command whose ``integration_types`` lack guild installs), a user acting in a guild they are not
  a member of, or in another user's DM.

Shards (``gateway``): an IDENTIFY's ``shard: [shard_id, shard_count]`` (absent: ``[0, 1]``) makes a
session of that shard; several are live at once (``Gateway.sessions``, by shard), from one bot
process or several. Each gets READY, GUILD_CREATE and every guild event and interaction only for the
guilds with ``(guild_id >> 22) % shard_count == shard_id`` (``gateway.shard_of``); a DM's go to
shard 0. An invalid shard is closed with 4010 "Invalid shard", a shard over
``Gateway.max_guilds_per_shard`` (2,500) guilds with 4011 "Sharding required"; ``GET /gateway/bot``
recommends enough shards for that. Guild ids are snowflakes of the current time, so their shard is
whatever the millisecond gives: ``add_guild(..., shard=(1, 2))`` picks an id that shard 1 of 2
serves, and ``fake.shard_of(guild, 2)`` tells a guild's shard. An interaction's record keeps the
``shards`` it was dispatched to; an interaction no session serves raises RuntimeError (Discord would
drop it), while ``join_guild`` and ``create_thread`` then dispatch nothing.

Which bot process did it: a child started by ``tests.support.bot_process`` sends the header
``X-Fake-Discord-Client: <name>`` on every request and gateway connection, and the fake records it as
``client`` on each ``RequestRecord``, ``Callback`` and ``SentMessage`` (its creator) and on each
gateway session (``Gateway.sessions_of(name)``).

Fault switches (``FakeDiscord.faults``; each counts ``hits`` and fires ``times`` times, ``None``
for ever): ``rate_limit`` (429 with ``Retry-After``, ``X-RateLimit-*``, ``Via`` and a body with
``retry_after`` and ``global``), ``fail`` (any status: 500, 502, 403...), ``close_dms`` (403 code
50007 on one user's DM channel), ``delay`` (answers late), ``hold`` (a message create waits,
optionally after the message was made, until the test completes, fails or drops it; see
``faults.Hold``); ``Gateway.drop`` closes the bot's connection (optionally forgetting the session
so the RESUME is refused).
"""

from __future__ import annotations

from tests.fakediscord.api import BotFactory, DiscordTest
from tests.fakediscord.payloads import FakeChannel, FakeUser
from tests.fakediscord.recorder import InteractionRecord, SentFile, SentMessage
from tests.fakediscord.server import FakeDiscord

__all__ = [
    "BotFactory", "DiscordTest", "FakeChannel", "FakeDiscord", "FakeUser", "InteractionRecord",
    "SentFile", "SentMessage",
]
