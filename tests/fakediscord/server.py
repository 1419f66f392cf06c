"""The fake Discord server: its state (guild, users, commands, messages) and its loopback HTTP site."""

from __future__ import annotations

import contextlib
import secrets
import socket
import time
from collections.abc import Iterator
from typing import Any

import yarl
from aiohttp import web

from tests.fakediscord import rest
from tests.fakediscord.faults import Faults
from tests.fakediscord.gateway import Gateway
from tests.fakediscord.messages import NONCE_WINDOW
from tests.fakediscord.payloads import (
    ATTACHMENT_SIZE_LIMIT,
    FakeChannel,
    FakeGuild,
    FakeUser,
    Snowflakes,
    interaction_payload,
    role_payload,
)
from tests.fakediscord.recorder import INTERACTION_DEADLINE, InteractionRecord, Recorder, SentMessage

Json = dict[str, Any]
API_PREFIX = "/api/v10"
PLAYER_NAMES = ("ann", "bob", "cy")
CHANNEL_NAMES = ("general", "table-1", "table-2")


def loopback_socket() -> socket.socket:
    """Returns a listening TCP socket on 127.0.0.1 with a port the system chose."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    sock.setblocking(False)
    return sock


class FakeDiscord:
    """Holds the fake guild, users, synced commands and messages, and serves REST and gateway."""

    def __init__(
        self, *, heartbeat_interval: float = 1.0, interaction_deadline: float = INTERACTION_DEADLINE,
        enforce_deadline: bool = True, attachment_size_limit: int = ATTACHMENT_SIZE_LIMIT,
        nonce_window: float = NONCE_WINDOW,
    ) -> None:
        self.ids = Snowflakes()
        self.bot_user = FakeUser(self.ids.next(), "tablehost", bot=True)
        self.users: dict[str, FakeUser] = {n: FakeUser(self.ids.next(), n) for n in PLAYER_NAMES}
        owner = self.users[PLAYER_NAMES[0]]
        guild_id = self.ids.next()
        self.guild = FakeGuild(
            id=guild_id, name="Tablehost Test Guild", owner=owner,
            members=[self.bot_user, *self.users.values()],
            roles=[role_payload(guild_id, "@everyone", permissions="2248473465835073"),
                   role_payload(self.ids.next(), "Players", position=1)],
        )
        for position, name in enumerate(CHANNEL_NAMES):
            self.guild.channels.append(FakeChannel(self.ids.next(), name, guild_id, position=position))
        self.dm_channels: dict[int, FakeChannel] = {}
        self.commands: dict[int | None, list[Json]] = {}
        self._command_ids: dict[tuple[int | None, str], int] = {}
        self.messages: dict[int, SentMessage] = {}
        self.nonces: dict[tuple[int, str], tuple[int, float]] = {}
        """(author id, nonce) -> (message id, monotonic time created), for ``enforce_nonce``."""
        self.nonce_window = nonce_window
        self.recorder = Recorder()
        self.faults = Faults()
        self.gateway = Gateway(self, heartbeat_interval=heartbeat_interval)
        self.interaction_deadline = interaction_deadline
        self.enforce_deadline = enforce_deadline
        self.attachment_size_limit = attachment_size_limit
        self.port = 0
        self._runner: web.AppRunner | None = None

    # lifecycle

    async def start(self) -> None:
        """Starts serving on a free loopback port."""
        app = web.Application(client_max_size=64 * 1024 * 1024, middlewares=[rest.middleware])
        app[rest.FAKE_KEY] = self
        rest.add_routes(app, API_PREFIX)
        self.faults.known_routes = rest.route_names(app, API_PREFIX)
        app.router.add_get("/", self.gateway.handle)
        app.router.add_get("/resume/", self.gateway.handle)
        app.router.add_route("*", "/{tail:.*}", rest.unknown)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        sock = loopback_socket()
        self.port = int(sock.getsockname()[1])
        await web.SockSite(self._runner, sock).start()

    async def close(self) -> None:
        """Drops any held request, closes the gateway sockets and stops the HTTP site."""
        self.faults.release_all("close")
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def api_base(self) -> str:
        """Returns the REST base URL (what ``discord.http.Route.BASE`` is set to)."""
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """Returns the gateway URL (what ``DiscordWebSocket.DEFAULT_GATEWAY`` is set to)."""
        return f"ws://127.0.0.1:{self.port}/"

    @property
    def resume_gateway_url(self) -> str:
        """Returns the ``resume_gateway_url`` sent in READY."""
        return f"ws://127.0.0.1:{self.port}/resume/"

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Points discord.py's REST routes and gateway at this server, and restores them after."""
        import discord.gateway
        import discord.http

        old_base = discord.http.Route.BASE
        old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    # lookups

    def user(self, name: str) -> FakeUser:
        """Returns a guild member by name (``ann``, ``bob``, ``cy`` or one added later)."""
        try:
            return self.users[name]
        except KeyError:
            raise LookupError(f"no user {name!r}; users: {sorted(self.users)}") from None

    def add_user(self, name: str) -> FakeUser:
        """Adds a guild member (visible to bots that identify afterwards)."""
        user = FakeUser(self.ids.next(), name)
        self.users[name] = user
        self.guild.members.append(user)
        return user

    def add_channel(self, name: str) -> FakeChannel:
        """Adds a text channel to the guild (seen by bots that identify afterwards)."""
        channel = FakeChannel(self.ids.next(), name, self.guild.id, position=len(self.guild.channels))
        self.guild.channels.append(channel)
        return channel

    def channel(self, name_or_id: str | int) -> FakeChannel:
        """Returns a guild text channel by name or id, or a known DM channel by id."""
        for ch in [*self.guild.channels, *self.guild.threads, *self.dm_channels.values()]:
            if name_or_id in (ch.name, ch.id, str(ch.id)):
                return ch
        raise LookupError(f"no channel {name_or_id!r}; channels: {[c.name for c in self.guild.channels]}")

    async def create_thread(
        self, parent: FakeChannel, name: str, *, owner: FakeUser | None = None, private: bool = False,
        thread_id: int | None = None,
    ) -> FakeChannel:
        """Opens a thread under a text channel and tells a connected bot (THREAD_CREATE)."""
        thread = FakeChannel(
            thread_id or self.ids.next(), name, self.guild.id, kind=12 if private else 11,
            parent_id=parent.id, owner_id=(owner or self.bot_user).id,
        )
        self.guild.threads.append(thread)
        if self.gateway.session is not None:
            await self.gateway.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return thread

    def user_by_id(self, user_id: int) -> FakeUser | None:
        """Returns the user with this id, or None."""
        return next((u for u in [self.bot_user, *self.users.values()] if u.id == user_id), None)

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """Returns the DM channel with a user, opening it if needed."""
        if user.id not in self.dm_channels:
            self.dm_channels[user.id] = FakeChannel(self.ids.next(), f"dm-{user.name}", recipient=user)
        return self.dm_channels[user.id]

    def close_dms(self, user: FakeUser, *, times: int | None = None) -> Any:
        """Makes messages to a user's DM channel fail with 403 code 50007; returns the switch."""
        return self.faults.close_dms(self.dm_channel(user).id, times=times)

    # application commands

    def store_commands(self, guild_id: int | None, commands: list[Json]) -> list[Json]:
        """Replaces the synced commands of a scope (None: global) and returns them with ids."""
        stored = []
        for cmd in commands:
            key = (guild_id, cmd["name"])
            if key not in self._command_ids:
                self._command_ids[key] = self.ids.next()
            full = {
                "type": 1, "description": "", "options": [], "default_member_permissions": None,
                "dm_permission": True, "nsfw": False, **cmd,
                "id": str(self._command_ids[key]), "application_id": str(self.bot_user.id), "version": "1",
            }
            if guild_id is not None:
                full["guild_id"] = str(guild_id)
            stored.append(full)
        self.commands[guild_id] = stored
        return stored

    def find_command(self, name: str, *, guild_id: int | None) -> Json:
        """Returns a synced command by name, guild commands first; raises LookupError."""
        scopes = [guild_id, None] if guild_id is not None else [None]
        for scope in scopes:
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        known = sorted({c["name"] for cmds in self.commands.values() for c in cmds})
        raise LookupError(f"no synced slash command {name!r}; synced: {known}")

    # interactions

    async def send_interaction(
        self, *, kind: int, data: Json, user: FakeUser, channel: FakeChannel, name: str,
        message: SentMessage | None = None,
    ) -> InteractionRecord:
        """Dispatches INTERACTION_CREATE and returns the record that collects the bot's answers."""
        interaction_id = self.ids.next()
        token = f"itoken-{secrets.token_hex(12)}"
        payload = interaction_payload(
            interaction_id=interaction_id, token=token, kind=kind, data=data, user=user, channel=channel,
            guild=self.guild, application_id=self.bot_user.id,
            message=message.payload if message is not None else None,
            attachment_size_limit=self.attachment_size_limit,
        )
        record = InteractionRecord(
            id=interaction_id, token=token, kind=kind, name=name, user_id=user.id, channel_id=channel.id,
            dispatched_at=time.monotonic(), deadline=self.interaction_deadline,
            source_message_id=message.id if message is not None else None, payload=payload,
        )
        self.recorder.interactions[interaction_id] = record
        self.recorder.touch()
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        return record

    async def redeliver(self, record: InteractionRecord) -> None:
        """Dispatches an interaction's INTERACTION_CREATE again, with the same id and token."""
        await self.gateway.dispatch("INTERACTION_CREATE", record.payload)

    def interaction_by_token(self, token: str) -> InteractionRecord | None:
        """Returns the interaction with this token, or None."""
        return next((r for r in self.recorder.interactions.values() if r.token == token), None)
