"""A fake Discord server on 127.0.0.1 for running the real discord.py client in tests.

Modules: ``server`` (state and HTTP site), ``rest`` (REST routes and the fault/recording
middleware), ``gateway`` (WebSocket gateway), ``messages`` (message store and interaction
callbacks), ``commands`` (interaction data from synced commands), ``payloads`` (JSON builders),
``recorder`` (what the bot sent), ``faults`` (fault switches), ``api`` (the test API),
``fixtures`` (pytest fixtures).

REST routes (under ``/api/v10``; any other route answers 404 JSON and is recorded):

- ``GET /users/@me``, ``GET /users/{user_id}``, ``GET /oauth2/applications/@me``
- ``GET /gateway``, ``GET /gateway/bot``
- ``PUT|GET /applications/{application_id}/commands``
- ``PUT|GET /applications/{application_id}/guilds/{guild_id}/commands``
- ``GET /channels/{channel_id}``
- ``POST /channels/{channel_id}/messages`` (JSON, or multipart: ``payload_json`` + ``files[n]``)
- ``GET|PATCH|DELETE /channels/{channel_id}/messages/{message_id}``
- ``POST /users/@me/channels`` (opens a DM channel)
- ``POST /interactions/{interaction_id}/{token}/callback`` (types 1, 4, 5, 6, 7, 8, 9; JSON or
  multipart; ``with_response`` answers with the callback resource)
- ``POST /webhooks/{application_id}/{token}`` (follow-ups, JSON or multipart)
- ``GET|PATCH|DELETE /webhooks/{application_id}/{token}/messages/@original|{message_id}``

Gateway (JSON text frames, at ``/`` and at the ``resume_gateway_url`` ``/resume/``):

- sends HELLO (op 10), HEARTBEAT_ACK (op 11), INVALID_SESSION (op 9) for an unknown RESUME
- receives HEARTBEAT (op 1), IDENTIFY (op 2), PRESENCE (op 3, ignored), RESUME (op 6),
  REQUEST_GUILD_MEMBERS (op 8)
- dispatches READY (with ``session_id``, ``resume_gateway_url``, ``application``),
  GUILD_CREATE (the test guild: channels, roles, members), GUILD_MEMBERS_CHUNK, RESUMED
  (after replaying every missed dispatch), INTERACTION_CREATE (slash command type 2,
  button click type 3, autocomplete type 4)

Fault switches (``FakeDiscord.faults``; each counts its hits, fires ``times`` times): 429 with
rate-limit headers and body, any status (500, 502, ...), 403 code 50007 on a user's DM channel,
a delayed answer; and ``Gateway.drop()`` closes the bot's connection.
"""
