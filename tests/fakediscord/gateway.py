"""The fake gateway: HELLO, IDENTIFY/READY, heartbeats, RESUME with replay, and dispatches."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord

Json = dict[str, Any]

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME = 0, 1, 2, 3, 6
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11


@dataclass
class GatewaySession:
    """A gateway session: its id, last sequence number and every dispatch sent in it."""

    id: str
    seq: int = 0
    sent: list[Json] = field(default_factory=list)


class Gateway:
    """Serves the WebSocket gateway for one bot connection at a time."""

    def __init__(self, fake: FakeDiscord, *, heartbeat_interval: float) -> None:
        self.fake = fake
        self.heartbeat_interval = heartbeat_interval
        self.session: GatewaySession | None = None
        self.identifies = 0
        self.resumes = 0
        self.heartbeats = 0
        self.drops = 0
        self.member_requests = 0
        self.large_guild = False
        """Sends GUILD_CREATE without members when set, so a members-intent client requests them (op 8)."""
        self.replayed = 0
        self.tokens: list[str] = []
        self._ws: web.WebSocketResponse | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._send_lock = asyncio.Lock()
        self.live = asyncio.Event()

    @property
    def connected(self) -> bool:
        """Tells whether a bot is identified or resumed on an open socket."""
        return self._ws is not None and not self._ws.closed

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """Runs one WebSocket connection until it closes."""
        ws = web.WebSocketResponse(timeout=2.0, autoping=True)
        await ws.prepare(request)
        self._sockets.add(ws)
        try:
            hello = {"heartbeat_interval": int(self.heartbeat_interval * 1000)}
            await self._send(ws, {"op": HELLO, "d": hello})
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                await self._on_frame(ws, json.loads(msg.data))
        finally:
            self._sockets.discard(ws)
            if self._ws is ws:
                self._ws = None
                self.live.clear()
        return ws

    async def _on_frame(self, ws: web.WebSocketResponse, frame: Json) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            self.heartbeats += 1
            await self._send(ws, {"op": HEARTBEAT_ACK, "d": None})
        elif op == IDENTIFY:
            await self._identify(ws, data)
        elif op == RESUME:
            await self._resume(ws, data)
        elif op == REQUEST_MEMBERS:
            self.member_requests += 1
            asked = data.get("guild_id")
            for guild_id in asked if isinstance(asked, list) else [asked]:
                guild = self.fake.guild_by_id(guild_id)
                if guild is None:
                    continue  # Discord sends no chunk for a guild the bot is not in
                members = [guild.member_payload(u) for u in guild.members]
                await self.dispatch("GUILD_MEMBERS_CHUNK", {
                    "guild_id": str(guild.id), "members": members, "chunk_index": 0, "chunk_count": 1,
                    "nonce": data.get("nonce"), "not_found": [], "presences": [],
                })

    async def _identify(self, ws: web.WebSocketResponse, data: Json) -> None:
        self.identifies += 1
        self.tokens.append(str(data.get("token")))
        self.session = GatewaySession(id=secrets.token_hex(16))
        self._ws = ws
        fake = self.fake
        await self.dispatch("READY", {
            "v": 10, "user": fake.bot_user.payload(), "session_id": self.session.id,
            "resume_gateway_url": fake.resume_gateway_url, "session_type": "normal",
            "guilds": [{"id": str(g.id), "unavailable": True} for g in fake.guilds], "private_channels": [],
            "relationships": [], "presences": [], "geo_ordered_rtc_regions": [],
            "application": {"id": str(fake.bot_user.id), "flags": 0}, "auth": {},
        })
        for guild in fake.guilds:
            await self.dispatch("GUILD_CREATE", guild.payload(large=self.large_guild))
        self.live.set()

    async def _resume(self, ws: web.WebSocketResponse, data: Json) -> None:
        session = self.session
        if session is None or data.get("session_id") != session.id:
            await self._send(ws, {"op": INVALID_SESSION, "d": False})
            return
        self.resumes += 1
        self._ws = ws
        last = int(data.get("seq") or 0)
        for frame in list(session.sent):
            if frame["s"] > last:
                self.replayed += 1
                await self._send(ws, frame)
        await self.dispatch("RESUMED", {})
        self.live.set()

    async def dispatch(self, event: str, data: Json) -> None:
        """Sends a DISPATCH event now, or keeps it for replay when the bot resumes."""
        session = self.session
        if session is None:
            raise RuntimeError(f"no bot has identified; cannot dispatch {event}")
        session.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.sent.append(frame)
        ws = self._ws
        if ws is not None and not ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self._send(ws, frame)

    async def drop(self, *, code: int = 4000, forget_session: bool = False) -> None:
        """Closes the bot's connection as Discord does on a failure; the bot should RESUME.

        With ``forget_session`` the RESUME is refused (INVALID_SESSION) and the bot must identify.
        """
        ws, self._ws = self._ws, None
        if forget_session:
            self.session = None
        self.live.clear()
        self.drops += 1
        if ws is not None:
            await ws.close(code=code, message=b"dropped by test")

    async def close(self) -> None:
        """Closes every open socket (server shutdown)."""
        self._ws = None
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=1001)

    async def _send(self, ws: web.WebSocketResponse, frame: Json) -> None:
        async with self._send_lock:
            await ws.send_str(json.dumps(frame))
