"""The fake Discord server: its state (guilds, users, commands, messages) and its loopback HTTP site."""

from __future__ import annotations

import contextlib
import secrets
import socket
import time
from collections.abc import Iterable, Iterator
from typing import Any

import yarl
from aiohttp import web

from tests.fakediscord import rest
from tests.fakediscord.faults import Faults
from tests.fakediscord.gateway import Gateway, shard_of
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
GuildRef = FakeGuild | str | int
"""A guild given by object, name or id."""
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
    """Holds the fake guilds, users, synced commands and messages, and serves REST and gateway.

    One guild (``guild``: three text channels, the bot and ann, bob, cy) unless a test adds more with
    ``add_guild`` before the bot starts (or ``join_guild`` after); users are members of every guild
    unless told otherwise.
    """

    def __init__(
        self, *, heartbeat_interval: float = 1.0, interaction_deadline: float = INTERACTION_DEADLINE,
        enforce_deadline: bool = True, attachment_size_limit: int = ATTACHMENT_SIZE_LIMIT,
        nonce_window: float = NONCE_WINDOW,
    ) -> None:
        self.ids = Snowflakes()
        self.bot_user = FakeUser(self.ids.next(), "tablehost", bot=True)
        self.users: dict[str, FakeUser] = {n: FakeUser(self.ids.next(), n) for n in PLAYER_NAMES}
        self.guilds: list[FakeGuild] = []
        """Every guild the bot is in, in the order they were made; the first is ``guild``."""
        self.guild = self._new_guild("Tablehost Test Guild", channels=CHANNEL_NAMES,
                                     members=list(self.users.values()), owner=self.users[PLAYER_NAMES[0]])
        """The first (default) guild: where ``add_channel`` and ``channel(name)`` look unless told otherwise."""
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
        """Returns a user by name (``ann``, ``bob``, ``cy`` or one added later)."""
        try:
            return self.users[name]
        except KeyError:
            raise LookupError(f"no user {name!r}; users: {sorted(self.users)}") from None

    def _as_user(self, user: FakeUser | str) -> FakeUser:
        return self.user(user) if isinstance(user, str) else user

    def add_user(self, name: str, *, guilds: Iterable[GuildRef] | None = None) -> FakeUser:
        """Adds a user, a member of every guild or only of ``guilds`` (seen by bots that identify afterwards)."""
        if name in self.users:
            raise ValueError(f"there is already a user {name!r}")
        user = FakeUser(self.ids.next(), name)
        self.users[name] = user
        for guild in self.guilds if guilds is None else [self.guild_of(g) for g in guilds]:
            guild.members.append(user)
        return user

    # guilds

    def _new_guild(
        self, name: str, *, channels: Iterable[str], members: list[FakeUser], owner: FakeUser,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        guild_id = self.ids.next(shard=shard)
        guild = FakeGuild(
            id=guild_id, name=name, owner=owner, members=[self.bot_user, *members],
            roles=[role_payload(guild_id, "@everyone", permissions="2248473465835073"),
                   role_payload(self.ids.next(), "Players", position=1)],
        )
        self.guilds.append(guild)
        for channel_name in channels:
            self.add_channel(channel_name, guild=guild)
        return guild

    def add_guild(
        self, name: str, *, channels: Iterable[str] = ("general",),
        members: Iterable[FakeUser | str] | None = None, owner: FakeUser | str | None = None,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """Adds a guild that the bot is in, with text channels ``channels`` (a new server's ``general``
        by default) and, as members, every user (default) or only ``members``; the owner is ``owner``
        or the first member. Bots that identify afterwards get it in READY and GUILD_CREATE; to tell a
        connected bot (GUILD_CREATE, as when it is invited), use ``join_guild``. With ``shard``
        (``(shard_id, shard_count)``) its id is one that shard serves (see ``shard_of``)."""
        if any(g.name == name for g in self.guilds):
            raise ValueError(f"there is already a guild {name!r}")
        people = list(self.users.values()) if members is None else [self._as_user(m) for m in members]
        boss = self._as_user(owner) if owner is not None else (people[0] if people else self.bot_user)
        if boss not in people and boss is not self.bot_user:
            people.insert(0, boss)
        return self._new_guild(name, channels=channels, members=people, owner=boss, shard=shard)

    async def join_guild(
        self, name: str, *, channels: Iterable[str] = ("general",),
        members: Iterable[FakeUser | str] | None = None, owner: FakeUser | str | None = None,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """Adds a guild as ``add_guild`` does and, if a bot is connected, dispatches its GUILD_CREATE now
        to the session of its shard (as when the bot is invited: ``on_guild_join``)."""
        guild = self.add_guild(name, channels=channels, members=members, owner=owner, shard=shard)
        payload = guild.payload(large=self.gateway.large_guild)
        del payload["unavailable"]  # a join, not an outage ending: discord.py then dispatches guild_join
        await self.gateway.dispatch("GUILD_CREATE", payload, required=False)
        return guild

    def guild_of(self, guild: GuildRef | None) -> FakeGuild:
        """Returns a guild by object, name or id (None: the first guild); raises LookupError."""
        if guild is None:
            return self.guild
        for known in self.guilds:
            if guild is known or guild in (known.name, known.id, str(known.id)):
                return known
        raise LookupError(f"no guild {guild!r}; guilds: {[g.name for g in self.guilds]}")

    def shard_of(self, guild: GuildRef | None, shard_count: int) -> int:
        """Returns the shard (of ``shard_count``) that gets a guild's events (None: the first guild)."""
        return shard_of(self.guild_of(guild).id, shard_count)

    def guild_by_id(self, guild_id: int | str | None) -> FakeGuild | None:
        """Returns the guild with this id, or None."""
        return next((g for g in self.guilds if str(g.id) == str(guild_id)), None)

    def shared_guilds(self, user: FakeUser | str) -> list[FakeGuild]:
        """Returns the guilds a user shares with the bot, in order."""
        found = self._as_user(user)
        return [g for g in self.guilds if g.is_member(found)]

    # channels

    def add_channel(self, name: str, *, guild: GuildRef | None = None) -> FakeChannel:
        """Adds a text channel to a guild (the first unless ``guild`` is given; seen by bots that identify
        afterwards). Names may repeat across guilds."""
        home = self.guild_of(guild)
        channel = FakeChannel(self.ids.next(), name, home.id, position=len(home.channels))
        home.channels.append(channel)
        return channel

    def channel(self, name_or_id: str | int | FakeChannel, *, guild: GuildRef | None = None) -> FakeChannel:
        """Returns a text channel or thread by name or id, or a known DM channel by id.

        A name is looked up in ``guild`` when given, else in every guild in order (so the first guild's
        channel wins when a name repeats) and then among DM channels. A FakeChannel is returned as
        stored (a LookupError if the fake does not know it).
        """
        key: str | int = name_or_id.id if isinstance(name_or_id, FakeChannel) else name_or_id
        guilds = self.guilds if guild is None else [self.guild_of(guild)]
        pool = [c for g in guilds for c in (*g.channels, *g.threads)]
        if guild is None:
            pool.extend(self.dm_channels.values())
        for ch in pool:
            if key in (ch.name, ch.id, str(ch.id)):
                return ch
        known = {g.name: [c.name for c in g.channels] for g in guilds}
        raise LookupError(f"no channel {name_or_id!r}; channels by guild: {known}")

    async def create_thread(
        self, parent: FakeChannel, name: str, *, owner: FakeUser | None = None, private: bool = False,
        thread_id: int | None = None,
    ) -> FakeChannel:
        """Opens a thread under a text channel and tells a connected bot (THREAD_CREATE)."""
        home = self.guild_by_id(parent.guild_id)
        if home is None:
            raise LookupError(f"channel {parent.name!r} is in no guild")
        thread = FakeChannel(
            thread_id or self.ids.next(), name, home.id, kind=12 if private else 11,
            parent_id=parent.id, owner_id=(owner or self.bot_user).id,
        )
        home.threads.append(thread)
        await self.gateway.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True}, required=False)
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
            scope_defaults: Json = {} if guild_id is not None else {"contexts": None, "integration_types": [0]}
            full = {
                "type": 1, "description": "", "options": [], "default_member_permissions": None,
                "dm_permission": True, "nsfw": False, **scope_defaults, **cmd,
                "id": str(self._command_ids[key]), "application_id": str(self.bot_user.id), "version": "1",
            }
            if guild_id is not None:
                full["guild_id"] = str(guild_id)
            stored.append(full)
        self.commands[guild_id] = stored
        return stored

    def find_command(self, name: str, *, guild_id: int | None) -> Json:
        """Returns a synced slash command by name, that guild's commands first, then global ones (a DM,
        ``guild_id`` None, has only global ones); raises LookupError."""
        scopes = [guild_id, None] if guild_id is not None else [None]
        for scope in scopes:
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        elsewhere = [self.guild_by_id(scope) for scope, cmds in self.commands.items()
                     if scope is not None and scope != guild_id and any(c["name"] == name for c in cmds)]
        if elsewhere:
            where = "in DMs" if guild_id is None else "in this guild"
            names = [g.name if g is not None else "?" for g in elsewhere]
            raise LookupError(f"command /{name} is synced only to guild(s) {names}, so it is not available {where}")
        known = sorted({c["name"] for cmds in self.commands.values() for c in cmds})
        raise LookupError(f"no synced slash command {name!r}; synced: {known}")

    # interactions

    async def send_interaction(
        self, *, kind: int, data: Json, user: FakeUser, channel: FakeChannel, name: str,
        message: SentMessage | None = None,
    ) -> InteractionRecord:
        """Dispatches INTERACTION_CREATE and returns the record that collects the bot's answers.

        Raises LookupError for what Discord would never send: a user acting in a guild they are not a
        member of, or in another user's DM with the bot.
        """
        guild = self.interaction_guild(user, channel)
        interaction_id = self.ids.next()
        token = f"itoken-{secrets.token_hex(12)}"
        payload = interaction_payload(
            interaction_id=interaction_id, token=token, kind=kind, data=data, user=user, channel=channel,
            guild=guild, application_id=self.bot_user.id,
            message=message.payload if message is not None else None,
            attachment_size_limit=self.attachment_size_limit,
        )
        record = InteractionRecord(
            id=interaction_id, token=token, kind=kind, name=name, user_id=user.id, channel_id=channel.id,
            guild_id=guild.id if guild is not None else None, dispatched_at=time.monotonic(),
            deadline=self.interaction_deadline,
            source_message_id=message.id if message is not None else None, payload=payload,
        )
        record.shards = [s.shard for s in self.gateway.sessions_for(record.guild_id)]
        self.recorder.interactions[interaction_id] = record
        self.recorder.touch()
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        return record

    def interaction_guild(self, user: FakeUser, channel: FakeChannel) -> FakeGuild | None:
        """Returns the guild an interaction by ``user`` in ``channel`` comes from (None in the bot's DM);
        raises LookupError if Discord would not let the user act there."""
        if channel.is_dm:
            assert channel.recipient is not None
            if channel.recipient.id != user.id:
                raise LookupError(f"{user.name} cannot act in the bot's DM with {channel.recipient.name}")
            return None
        guild = self.guild_by_id(channel.guild_id)
        if guild is None:
            raise LookupError(f"channel {channel.name!r} is in no guild the bot is in")
        if not guild.is_member(user):
            raise LookupError(f"{user.name} is not a member of guild {guild.name!r}")
        return guild

    async def redeliver(self, record: InteractionRecord) -> None:
        """Dispatches an interaction's INTERACTION_CREATE again, with the same id and token."""
        await self.gateway.dispatch("INTERACTION_CREATE", record.payload)

    def interaction_by_token(self, token: str) -> InteractionRecord | None:
        """Returns the interaction with this token, or None."""
        return next((r for r in self.recorder.interactions.values() if r.token == token), None)
