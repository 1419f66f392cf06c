"""The web table: a page per game, live or finished, served beside ``/healthz`` on ``TABLEHOST_HTTP``.

Routes (a game's base is ``/g/<id>/<token>``, :mod:`host.web_links`)::

    GET /g/<id>/<token>               the page (web/static/page.html; its script draws everything)
    GET /g/<id>/<token>/game.json     players, whose turn, the clock, commitment and entropy, moves, positions
    GET /g/<id>/<token>/board/<n>.png the board picture of position n (0: the start), rendered once, cached
    GET /g/<id>/<token>/events        Server-Sent Events: ``change`` after each committed change (web.hub)
    GET /g/<id>/<token>/dice.json     a finished game's seed, entropy and every draw, for "Check the dice"
    GET /static/table.js, table.css   the page's script and style
    GET /favicon.ico                  204 (there is none; the browser asks anyway)

Who may see what: only the public view (``view(None)``) and public events ever leave, and a
game's seed only once it has ended. A wrong or forged token, a game that never started and any
other path are all 404, alike. Every answer carries a strict Content-Security-Policy (no inline
script), ``nosniff`` and ``no-referrer`` (the token is in the address); each address may hold
:attr:`WebTable.per_address` requests and streams at once.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from cogs.surface import surface_of, title_of
from engines import GAMES, GameError
from host.bot_seats import is_bot
from host.clock_store import Clocks
from host.db import Row, Tx
from host.export import export_game
from host.store import GameRow, Status
from host.store_outbox import CHANGED
from host.web_links import WebLinks
from render import render
from render.common import extension
from web.hub import Hub
from web.timeline import Timeline, build

if TYPE_CHECKING:
    from host.tables import Tables

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
KEEP_ALIVE = 15.0
"""Seconds between two keep-alive comments of an idle event stream."""
TIMELINES = 32
"""Games whose timelines are kept in memory (most recently asked last)."""
PICTURES = 256
"""Board pictures kept in memory."""
PER_ADDRESS = 16
"""Requests and event streams one address may hold open at once."""
ENDED = frozenset({Status.FINISHED, Status.ABORTED})
TYPES = {"png": "image/png", "webp": "image/webp"}


class NotFound(web.HTTPNotFound):
    """The one answer for a wrong token, a missing or unstarted game and any unknown path."""

    def __init__(self) -> None:
        super().__init__(text="Not found.\n")  # the headers come from WebTable's middleware, as for every answer


class WebTable:
    """Serves the game pages of a table service's store; :meth:`mount` adds its routes to an aiohttp app."""

    def __init__(self, tables: Tables, links: WebLinks, *, per_address: int = PER_ADDRESS,
                 render_slots: int = 2) -> None:
        self.tables = tables
        self.store = tables.store
        self.links = links
        self.per_address = per_address
        self.hub = Hub(self._versions)
        self._open: dict[str, int] = {}
        self._timelines: OrderedDict[int, tuple[int, Timeline]] = OrderedDict()
        self._building: dict[int, asyncio.Lock] = {}
        self._pictures: OrderedDict[tuple[int, int, int], tuple[bytes, str]] = OrderedDict()
        self._render_slots = asyncio.Semaphore(render_slots)
        self._static = {name: (STATIC / name).read_bytes() for name in ("page.html", "table.js", "table.css")}
        self._stop_listening: Callable[[], Awaitable[None]] | None = None

    # -- wiring ---------------------------------------------------------------------------------

    def mount(self, app: web.Application) -> None:
        """Adds the pages' routes and middleware to ``app`` (before its catch-all route)."""
        app.middlewares.append(self._guard)
        app.router.add_get("/static/{name}", self._static_file)
        app.router.add_get("/favicon.ico", self._no_icon)
        app.router.add_get("/g/{id:[0-9]{1,18}}/{token}", self._page)
        app.router.add_get("/g/{id:[0-9]{1,18}}/{token}/", self._page)
        app.router.add_get("/g/{id:[0-9]{1,18}}/{token}/game.json", self._game_json)
        app.router.add_get("/g/{id:[0-9]{1,18}}/{token}/board/{n:[0-9]{1,7}}.png", self._board)
        app.router.add_get("/g/{id:[0-9]{1,18}}/{token}/events", self._events)
        app.router.add_get("/g/{id:[0-9]{1,18}}/{token}/dice.json", self._dice)
        app.on_startup.append(self._start)
        app.on_shutdown.append(self._shutdown)

    async def _start(self, _app: web.Application) -> None:
        self.tables.listeners.append(self.hub.poke)
        self._stop_listening = await self.store.db.listen(CHANGED, self.hub.poke)

    async def _shutdown(self, _app: web.Application) -> None:
        self.hub.close()
        if self.hub.poke in self.tables.listeners:
            self.tables.listeners.remove(self.hub.poke)
        if self._stop_listening is not None:
            await self._stop_listening()
            self._stop_listening = None

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """Adds the security headers to the pages' answers and bounds each address's open requests."""
        if not request.path.startswith(("/g/", "/static/", "/favicon.ico")):
            return await handler(request)
        address = request.remote or "?"
        if self._open.get(address, 0) >= self.per_address:
            return web.Response(status=429, text="Too many open requests from your address: close a page.\n",
                                headers=HEADERS)
        self._open[address] = self._open.get(address, 0) + 1
        try:
            try:
                response = await handler(request)
            except web.HTTPException as err:
                err.headers.update(HEADERS)
                raise
            if not response.prepared:
                response.headers.update(HEADERS)
            return response
        finally:
            left = self._open[address] - 1
            if left:
                self._open[address] = left
            else:
                del self._open[address]

    # -- the routes -----------------------------------------------------------------------------

    async def _static_file(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in ("table.js", "table.css"):
            raise NotFound()
        kind = "text/javascript" if name.endswith(".js") else "text/css"
        reply = web.Response(body=self._static[name], content_type=kind, charset="utf-8",
                             headers={"Cache-Control": "public, max-age=300"})
        reply.enable_compression()  # gzip when the browser takes it, as every one does
        return reply

    async def _no_icon(self, _request: web.Request) -> web.Response:
        return web.Response(status=204, headers={"Cache-Control": "public, max-age=86400"})

    async def _page(self, request: web.Request) -> web.Response:
        await self._row(request)
        return web.Response(body=self._static["page.html"], content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-cache"})

    async def _game_json(self, request: web.Request) -> web.Response:
        row = await self._row(request)
        timeline = await self.timeline(row)
        return json_response(await self.summary(row, timeline))

    async def _board(self, request: web.Request) -> web.Response:
        row = await self._row(request)
        timeline = await self.timeline(row)
        n = int(request.match_info["n"])
        if n > timeline.count:
            raise NotFound()
        body, kind = await self.picture(row.id, timeline, n)
        ended = row.status in ENDED
        return web.Response(body=body, content_type=TYPES.get(kind, "application/octet-stream"), headers={
            "Cache-Control": "public, max-age=86400, immutable" if ended else "no-cache"})

    async def _events(self, request: web.Request) -> web.StreamResponse:
        row = await self._row(request)
        response = web.StreamResponse(headers={**HEADERS, "Content-Type": "text/event-stream",
                                               "Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        await response.prepare(request)
        watcher = self.hub.watch(row.id, version=row.version)
        try:
            await response.write(b"retry: 2000\n\n")
            while not watcher.closed:
                change = await watcher.next(timeout=KEEP_ALIVE)
                if change is None:
                    if not watcher.closed:
                        await response.write(b": keep-alive\n\n")
                    continue
                await response.write(f"event: change\ndata: {json.dumps(change)}\n\n".encode())
        except ConnectionResetError:
            pass  # the page went away
        finally:
            self.hub.unwatch(watcher)
        return response

    async def _dice(self, request: web.Request) -> web.Response:
        row = await self._row(request)
        if row.status not in ENDED or not row.keyed:
            raise NotFound()  # while a game runs its seed is secret
        data = await export_game(self.store, row.id)
        dice = data["dice"]
        if dice.get("draws") is None:
            raise NotFound()
        return json_response({
            "scheme": dice["scheme"], "server_seed": dice["server_seed"], "commitment": dice["commitment"],
            "entropy": dice["entropy"], "draws": dice["draws"],
            "players": [{"name": p["name"], "joined": p.get("joined"), "entropy": p.get("entropy")}
                        for p in data["players"]],
        })

    # -- the game's parts -----------------------------------------------------------------------

    async def _row(self, request: web.Request) -> GameRow:
        """Returns the started game the address names, or raises NotFound (a wrong token included)."""
        game_id = int(request.match_info["id"])
        if not self.links.valid(game_id, request.match_info["token"]):
            raise NotFound()
        row = await self.store.game(game_id, snapshot=False)
        if row is None or not row.started or row.status is Status.LOBBY or row.game not in GAMES:
            raise NotFound()
        return row

    async def timeline(self, row: GameRow) -> Timeline:
        """Returns the game's timeline at its stored version, built or extended in a worker thread."""
        lock = self._building.setdefault(row.id, asyncio.Lock())
        async with lock:
            kept = self._timelines.get(row.id)
            if kept is not None and kept[0] >= row.version:
                self._timelines.move_to_end(row.id)
                return kept[1]
            seats = await self.store.seats(row.id)
            names = {s.player_id: s.name for s in seats}
            moves = await self.store.moves(row.id)
            log_ = [(names.get(m.player_id, m.player_id), m.move) for m in moves]
            times: list[str | None] = [m.at for m in moves]
            timeline = kept[1] if kept is not None else None
            try:
                if timeline is None or not await asyncio.to_thread(timeline.extend, log_, times):
                    timeline = await asyncio.to_thread(build, row.game, [s.name for s in seats], row.engine_seed,
                                                       row.options, log_, times)
            except GameError as err:  # a damaged log: the page says so, and the log says where
                log.warning("web: game %s cannot be replayed for its page (%s)", row.id, err)
                self._timelines.pop(row.id, None)
                raise web.HTTPInternalServerError(text="This game's record could not be read.\n") from None
            self._timelines[row.id] = (row.version, timeline)
            self._timelines.move_to_end(row.id)
            while len(self._timelines) > TIMELINES:
                old, _ = self._timelines.popitem(last=False)
                self._building.pop(old, None)
            return timeline

    async def picture(self, game_id: int, timeline: Timeline, n: int) -> tuple[bytes, str]:
        """Returns position ``n``'s picture and its kind (``png``, ``webp``), rendered once in a worker."""
        key = (game_id, timeline.epoch, n)
        kept = self._pictures.get(key)
        if kept is not None:
            self._pictures.move_to_end(key)
            return kept
        async with self._render_slots:
            body = await asyncio.to_thread(render, timeline.name, timeline.positions[n].view,
                                           title=title_of(timeline.name))
        kept = body, extension(body)
        self._pictures[key] = kept
        while len(self._pictures) > PICTURES:
            self._pictures.popitem(last=False)
        return kept

    async def summary(self, row: GameRow, timeline: Timeline) -> dict[str, Any]:
        """Returns game.json: everything the page shows, public only."""
        seats = await self.store.seats(row.id)
        clock = await Clocks(self.store).get(row.id) if row.status is Status.RUNNING else None
        last = timeline.positions[-1]
        over = row.status in ENDED
        return {
            "id": row.id, "game": row.game, "title": surface_of(row.game).title(title_of(row.game), last.view),
            "status": row.status.value, "version": row.version,
            "players": [{"seat": s.seat, "name": s.name, "bot": is_bot(s.player_id)} for s in seats],
            "to_act": [] if over else list(timeline.acting),
            "clock": None if clock is None else {
                "deadline": _iso(clock.deadline) if clock.deadline is not None else None,
                "paused": clock.paused_at is not None},
            "commitment": row.commitment or row.sealed, "entropy": row.entropy,
            "winners": row.winners if row.status is Status.FINISHED else None,
            "count": timeline.count,
            "moves": [{"n": s.n, "player": s.player, "move": s.move, "events": list(s.events), "at": s.at}
                      for s in timeline.steps],
            "positions": [{"n": p.n, "caption": p.caption, "alt": p.alt} for p in timeline.positions],
            "dice": over and row.keyed,
        }

    async def _versions(self, ids: list[int]) -> dict[int, tuple[int, str]]:
        async def read(tx: Tx) -> list[Row]:
            rows: list[Row] = []
            for start in range(0, len(ids), 500):
                chunk = ids[start:start + 500]
                marks = ", ".join("?" * len(chunk))
                rows += await tx.fetch(f"SELECT id, version, status FROM games WHERE id IN ({marks})", *chunk)
            return rows

        return {int(r["id"]): (int(r["version"]), str(r["status"])) for r in await self.store.db.read(read)}


def json_response(data: dict[str, Any]) -> web.Response:
    """Returns JSON that no browser reads as HTML (``nosniff`` is on; ``<`` is escaped besides)."""
    text = json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")
    reply = web.Response(text=text, content_type="application/json", headers={"Cache-Control": "no-cache"})
    reply.enable_compression()  # a long game's moves and positions: a tenth of the bytes gzipped
    return reply


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")
