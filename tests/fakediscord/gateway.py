"""The fake gateway: HELLO, IDENTIFY/READY, heartbeats, RESUME with replay, dispatches, and shards.

Sharding as Discord does it: an IDENTIFY may carry ``shard: [shard_id, shard_count]`` (absent:
``[0, 1]``, every guild). A session then gets READY, GUILD_CREATE and every event of a guild only
when ``(guild_id >> 22) % shard_count == shard_id`` (``shard_of``); events without a guild (an
interaction in a DM) go to shard 0. Several sessions, one per shard, are live at once, from one
process or several. An IDENTIFY whose shard is malformed or out of range is closed with 4010
"Invalid shard"; one whose shard would hold more than ``max_guilds_per_shard`` guilds with 4011
"Sharding required". A new IDENTIFY for a shard replaces that shard's session.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from tests.fakediscord.recorder import CLIENT_HEADER

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord

Json = dict[str, Any]
Shard = tuple[int, int]
"""``(shard_id, shard_count)`` as an IDENTIFY names it."""

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME = 0, 1, 2, 3, 6
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
INVALID_SHARD, SHARDING_REQUIRED = 4010, 4011
"""Close codes: the IDENTIFY's shard is invalid; the bot is in too many guilds for one shard."""
NO_SHARDING: Shard = (0, 1)
MAX_GUILDS_PER_SHARD = 2500
"""Discord's most guilds on one shard before it closes an IDENTIFY with 4011."""


def shard_of(guild_id: int | str | None, shard_count: int) -> int:
    """Returns the shard that gets a guild's events; a DM (no guild) is shard 0.

    >>> shard_of(5 << 22, 2), shard_of(6 << 22, 2), shard_of(None, 2)
    (1, 0, 0)
    """
    return 0 if guild_id is None else (int(guild_id) >> 22) % shard_count


def valid_shard(value: object) -> Shard | None:
    """Returns an IDENTIFY's ``shard`` as ``(id, count)``, or None when Discord would close with 4010.

    >>> valid_shard([1, 2]), valid_shard([2, 2]), valid_shard([0, 0]), valid_shard("0,1")
    ((1, 2), None, None, None)
    """
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    shard_id, count = value
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (shard_id, count)):
        return None
    return (shard_id, count) if count >= 1 and 0 <= shard_id < count else None


@dataclass
class GatewaySession:
    """A gateway session: its id, shard, last sequence number and every dispatch sent in it."""

    id: str
    seq: int = 0
    sent: list[Json] = field(default_factory=list)
    shard: Shard = NO_SHARDING
    client: str | None = None
    """The ``X-Fake-Discord-Client`` header of the connection that identified (a bot process's name)."""
    ws: web.WebSocketResponse | None = field(default=None, repr=False)
    """The open connection, None while the bot is away (dispatches are kept for its RESUME)."""

    @property
    def connected(self) -> bool:
        """Tells whether the session has an open connection."""
        return self.ws is not None and not self.ws.closed

    def serves(self, guild_id: int | str | None) -> bool:
        """Tells whether this session gets the events of a guild (None: of DMs)."""
        shard_id, count = self.shard
        return shard_of(guild_id, count) == shard_id


class Gateway:
    """Serves the WebSocket gateway: one session per shard, each on its own connection."""

    def __init__(self, fake: FakeDiscord, *, heartbeat_interval: float) -> None:
        self.fake = fake
        self.heartbeat_interval = heartbeat_interval
        self.sessions: dict[Shard, GatewaySession] = {}
        """The live or resumable session of each shard identified so far."""
        self.identifies = 0
        self.identified: list[tuple[Shard, str | None]] = []
        """Each accepted IDENTIFY: its shard and the client that sent it."""
        self.refused: list[tuple[object, int]] = []
        """Each refused IDENTIFY: the ``shard`` it sent and the close code (4010, 4011)."""
        self.max_guilds_per_shard = MAX_GUILDS_PER_SHARD
        self.resumes = 0
        self.heartbeats = 0
        self.drops = 0
        self.member_requests = 0
        self.large_guild = False
        """Sends GUILD_CREATE without members when set, so a members-intent client requests them (op 8)."""
        self.replayed = 0
        self.tokens: list[str] = []
        self._latest: GatewaySession | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._locks: dict[web.WebSocketResponse, asyncio.Lock] = {}
        self.live = asyncio.Event()
        """Set while every session has an open connection (cleared when one drops)."""

    # state

    @property
    def session(self) -> GatewaySession | None:
        """Returns the session identified last (None before any IDENTIFY, or once it was forgotten)."""
        latest = self._latest
        return latest if latest is not None and self.sessions.get(latest.shard) is latest else None

    @property
    def connected(self) -> bool:
        """Tells whether some session is identified or resumed on an open socket."""
        return any(s.connected for s in self.sessions.values())

    def sessions_of(self, client: str | None) -> list[GatewaySession]:
        """Returns the sessions a client (a bot process's name) identified, connected or not."""
        return [s for s in self.sessions.values() if s.client == client]

    def sessions_for(self, guild_id: int | str | None) -> list[GatewaySession]:
        """Returns the sessions that get a guild's events (None: a DM's, shard 0)."""
        return [s for s in self.sessions.values() if s.serves(guild_id)]

    def guilds_of(self, shard: Shard) -> list[Any]:
        """Returns the guilds a shard serves, in order."""
        return [g for g in self.fake.guilds if shard_of(g.id, shard[1]) == shard[0]]

    @property
    def recommended_shards(self) -> int:
        """Returns the shard count ``GET /gateway/bot`` recommends (1 until a shard would be too full)."""
        return max(1, math.ceil(len(self.fake.guilds) / self.max_guilds_per_shard))

    # connections

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """Runs one WebSocket connection until it closes."""
        ws = web.WebSocketResponse(timeout=2.0, autoping=True)
        await ws.prepare(request)
        self._sockets.add(ws)
        self._locks[ws] = asyncio.Lock()
        client = request.headers.get(CLIENT_HEADER)
        try:
            hello = {"heartbeat_interval": int(self.heartbeat_interval * 1000)}
            await self._send(ws, {"op": HELLO, "d": hello})
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                await self._on_frame(ws, json.loads(msg.data), client)
        finally:
            self._sockets.discard(ws)
            self._locks.pop(ws, None)
            for session in self.sessions.values():
                if session.ws is ws:
                    session.ws = None
            self._update_live()
        return ws

    def _update_live(self) -> None:
        if self.sessions and all(s.connected for s in self.sessions.values()):
            self.live.set()
        else:
            self.live.clear()

    def _session_on(self, ws: web.WebSocketResponse) -> GatewaySession | None:
        return next((s for s in self.sessions.values() if s.ws is ws), None)

    async def _on_frame(self, ws: web.WebSocketResponse, frame: Json, client: str | None) -> None:
        op = frame.get("op")
        data: Json = frame.get("d") or {}
        if op == HEARTBEAT:
            self.heartbeats += 1
            await self._send(ws, {"op": HEARTBEAT_ACK, "d": None})
        elif op == IDENTIFY:
            await self._identify(ws, data, client)
        elif op == RESUME:
            await self._resume(ws, data)
        elif op == REQUEST_MEMBERS:
            self.member_requests += 1
            session = self._session_on(ws)
            asked = data.get("guild_id")
            for guild_id in asked if isinstance(asked, list) else [asked]:
                guild = self.fake.guild_by_id(guild_id)
                if guild is None or session is None:
                    continue  # Discord sends no chunk for a guild the bot is not in
                members = [guild.member_payload(u) for u in guild.members]
                await self._dispatch_to(session, "GUILD_MEMBERS_CHUNK", {
                    "guild_id": str(guild.id), "members": members, "chunk_index": 0, "chunk_count": 1,
                    "nonce": data.get("nonce"), "not_found": [], "presences": [],
                })

    async def _identify(self, ws: web.WebSocketResponse, data: Json, client: str | None) -> None:
        sent = data.get("shard", list(NO_SHARDING))
        shard = valid_shard(sent)
        if shard is None:
            self.refused.append((sent, INVALID_SHARD))
            await ws.close(code=INVALID_SHARD, message=b"Invalid shard")
            return
        guilds = self.guilds_of(shard)
        if len(guilds) > self.max_guilds_per_shard:
            self.refused.append((sent, SHARDING_REQUIRED))
            await ws.close(code=SHARDING_REQUIRED, message=b"Sharding required")
            return
        self.identifies += 1
        self.identified.append((shard, client))
        self.tokens.append(str(data.get("token")))
        for key, old in list(self.sessions.items()):  # a session of another shard layout that is gone
            if key[1] != shard[1] and not old.connected:
                del self.sessions[key]
        session = GatewaySession(id=secrets.token_hex(16), shard=shard, client=client, ws=ws)
        self.sessions[shard] = self._latest = session
        fake = self.fake
        ready: Json = {
            "v": 10, "user": fake.bot_user.payload(), "session_id": session.id,
            "resume_gateway_url": fake.resume_gateway_url, "session_type": "normal",
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds], "private_channels": [],
            "relationships": [], "presences": [], "geo_ordered_rtc_regions": [],
            "application": {"id": str(fake.bot_user.id), "flags": 0}, "auth": {},
        }
        if "shard" in data:
            ready["shard"] = list(shard)
        await self._dispatch_to(session, "READY", ready)
        for guild in guilds:
            await self._dispatch_to(session, "GUILD_CREATE", guild.payload(large=self.large_guild))
        self._update_live()

    async def _resume(self, ws: web.WebSocketResponse, data: Json) -> None:
        session = next((s for s in self.sessions.values() if s.id == data.get("session_id")), None)
        if session is None:
            await self._send(ws, {"op": INVALID_SESSION, "d": False})
            return
        self.resumes += 1
        session.ws = ws
        last = int(data.get("seq") or 0)
        for frame in list(session.sent):
            if frame["s"] > last:
                self.replayed += 1
                await self._send(ws, frame)
        await self._dispatch_to(session, "RESUMED", {})
        self._update_live()

    # dispatches

    async def dispatch(self, event: str, data: Json, *, required: bool = True) -> list[GatewaySession]:
        """Sends a DISPATCH event to every session that gets it (the guild's shard; a DM's: shard 0), now
        or kept for replay when the bot resumes; returns those sessions.

        The guild is ``data["guild_id"]`` (``data["id"]`` for GUILD_CREATE). Raises RuntimeError when
        no session gets it and ``required`` (as Discord, which would drop it, never makes a bot answer).
        """
        if not self.sessions:
            if not required:
                return []
            raise RuntimeError(f"no bot has identified; cannot dispatch {event}")
        guild_id = data.get("id") if event == "GUILD_CREATE" else data.get("guild_id")
        targets = self.sessions_for(guild_id)
        if not targets and required:
            shards = sorted(self.sessions)
            raise RuntimeError(f"no session serves guild {guild_id} (shards identified: {shards});"
                               f" cannot dispatch {event}")
        for session in targets:
            await self._dispatch_to(session, event, data)
        return targets

    async def _dispatch_to(self, session: GatewaySession, event: str, data: Json) -> None:
        session.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.sent.append(frame)
        ws = session.ws
        if ws is not None and not ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self._send(ws, frame)

    async def drop(self, *, code: int = 4000, forget_session: bool = False, shard: Shard | None = None) -> None:
        """Closes the bot's connections (every shard's, or only ``shard``'s) as Discord does on a failure;
        the bot should RESUME.

        With ``forget_session`` the RESUME is refused (INVALID_SESSION) and the bot must identify.
        """
        dropped = [s for key, s in list(self.sessions.items()) if shard is None or key == shard]
        self.drops += 1
        sockets = []
        for session in dropped:
            ws, session.ws = session.ws, None
            if forget_session:
                del self.sessions[session.shard]
            if ws is not None:
                sockets.append(ws)
        self._update_live()
        if not self.sessions:
            self.live.clear()
        for ws in sockets:
            await ws.close(code=code, message=b"dropped by test")

    async def close(self) -> None:
        """Closes every open socket (server shutdown)."""
        for session in self.sessions.values():
            session.ws = None
        self.live.clear()
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=1001)

    async def _send(self, ws: web.WebSocketResponse, frame: Json) -> None:
        lock = self._locks.get(ws)
        if lock is None:  # the connection has ended
            raise ConnectionError("the connection is closed")
        async with lock:
            await ws.send_str(json.dumps(frame))
