"""The web table's page (web/static/) in a real Chromium, against a small server of the contract's shape.

The server here is the test's own (aiohttp on loopback): it serves page.html, table.js and table.css
with the contract's headers (its strict CSP among them), and a game this module builds: ten moves, a
PNG for each position, an event stream the test pushes ``change`` events into, and the dice list of
real keyed draws (engines.core.rng.KeyedDraws, checked again here with Python's hmac). Every test
opens a page that records console errors, uncaught exceptions, dialogs and CSP violations, and fails
on any of them.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import importlib.util
import io
import json
import re
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import pytest_asyncio
from aiohttp import web
from PIL import Image
from playwright.async_api import Browser, Page, expect

from engines.core.rng import KeyedDraws, recording
from tests.web.browser import Watch, browser_fixture, watched_page  # noqa: F401  (the fixture `browser`)

LOOP = pytest.mark.asyncio(loop_scope="module")  # the browser fixture's loop

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
BASE = "/g/12/AbCdEfGhIjKlMnOpQrStUv"
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
HOSTILE = "<img src=x onerror=alert(1)>"
SEED = hashlib.sha256(b"tablehost web page test seed").hexdigest()
COMMITMENT = hashlib.sha256(SEED.encode("ascii")).hexdigest()
SPACE = 2**256
BIG = 3 * 2**254  # 2**256 % BIG == 2**254: a quarter of the hashes are rejected for this range
PARIS = ZoneInfo("Europe/Paris")


# -- the game the server serves ------------------------------------------------------------------


def dice_players() -> list[dict[str, Any]]:
    return [{"name": "Ann", "joined": "1183", "entropy": "my words"},
            {"name": HOSTILE, "joined": "2290", "entropy": ""},
            {"name": "Botty", "joined": "bot", "entropy": None}]


ENTROPY = "1183:my words|2290|bot"


def real_draws(dice: int, big: int) -> list[list[int]]:
    """Returns the draws a game's KeyedDraws makes: ``dice`` rolls of a die, then ``big`` draws of range BIG."""
    rng = KeyedDraws(key=SEED, entropy=ENTROPY, counter=0)
    with recording() as draws:
        for _ in range(dice):
            rng.randint(1, 6)
        for _ in range(big):
            rng.below(BIG)
    return [list(d) for d in draws]


def draw_hash(n: int) -> int:
    return int.from_bytes(hmac.digest(SEED.encode("ascii"), f"{ENTROPY}:{n}".encode(), hashlib.sha256), "big")


def check_draws_script() -> Any:
    """Returns tools/check_draws.py as a module: the players' own checker, the page's model."""
    spec = importlib.util.spec_from_file_location("check_draws", STATIC.parents[1] / "tools" / "check_draws.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def dice_json(draws: list[list[int]]) -> dict[str, Any]:
    return {"scheme": "hmac-sha256", "server_seed": SEED, "commitment": COMMITMENT, "entropy": ENTROPY,
            "players": dice_players(), "draws": draws}


def move(n: int) -> dict[str, Any]:
    player = ["Ann", HOSTILE, "Botty"][(n - 1) % 3]
    return {"n": n, "player": player, "move": f"claim land{n}", "at": "2026-12-03T12:00:00+00:00",
            "events": [f"{player} claims Land {n}.", f"Event {n}b."]}


def position(n: int) -> dict[str, Any]:
    return {"n": n, "caption": "Start" if n == 0 else f"after claim land{n}", "alt": f"Test board, position {n}."}


def make_game(count: int = 10, **changes: Any) -> dict[str, Any]:
    """Returns a running game's game.json with ``count`` moves (``changes`` replace its fields)."""
    game = {
        "id": 12, "game": "xisk", "title": "XISK · turn 4", "status": "running", "version": 50 + count,
        "players": [{"seat": 0, "name": "Ann", "bot": False}, {"seat": 1, "name": HOSTILE, "bot": False},
                    {"seat": 2, "name": "Botty", "bot": True}],
        "to_act": ["Ann"],
        "clock": {"deadline": (datetime.now(UTC) + timedelta(hours=3, minutes=20)).replace(second=0, microsecond=0)
                  .isoformat(), "paused": False},
        "commitment": COMMITMENT, "entropy": ENTROPY, "winners": None, "count": count,
        "moves": [move(n) for n in range(1, count + 1)],
        "positions": [position(n) for n in range(count + 1)],
        "dice": False,
    }
    game.update(changes)
    return game


def finished(draws: list[list[int]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Returns a finished game's game.json and its dice.json of ``draws``."""
    return make_game(status="finished", to_act=[], clock=None, winners=["Ann"], dice=True), dice_json(draws)


def png(n: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (800, 520), ((40 * n) % 256, 120, 200)).save(buffer, format="PNG")
    return buffer.getvalue()


# -- the server ----------------------------------------------------------------------------------


class FakeTable:
    """A server of the contract's routes for one game, whose game.json and dice.json a test sets."""

    def __init__(self) -> None:
        self.game: dict[str, Any] | None = make_game()
        self.dice: dict[str, Any] | None = None
        self.streams: list[asyncio.Queue[dict[str, Any] | None]] = []
        self.connected = asyncio.Event()
        self.pngs = {n: png(n) for n in range(12)}
        self.url = ""

    def app(self) -> web.Application:
        app = web.Application()
        static = {"/static/table.js": "application/javascript", "/static/table.css": "text/css"}
        for route, kind in static.items():
            app.router.add_get(route, self.file(STATIC / Path(route).name, kind))
        app.router.add_get(BASE, self.file(STATIC / "page.html", "text/html"))
        app.router.add_get(BASE + "/game.json", self.game_json)
        app.router.add_get(BASE + "/dice.json", self.dice_json)
        app.router.add_get(BASE + "/board/{n}.png", self.board)
        app.router.add_get(BASE + "/events", self.events)
        app.on_response_prepare.append(self.headers)
        return app

    @staticmethod
    async def headers(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(HEADERS)

    @staticmethod
    def file(path: Path, kind: str) -> Any:
        async def handler(request: web.Request) -> web.Response:
            return web.Response(body=path.read_bytes(), content_type=kind, charset="utf-8")
        return handler

    async def game_json(self, request: web.Request) -> web.Response:
        if self.game is None:
            return web.Response(status=500, text="Internal error.")
        return web.json_response(self.game)

    async def dice_json(self, request: web.Request) -> web.Response:
        if self.dice is None:
            return web.Response(status=404, text="Not found.")
        return web.json_response(self.dice)

    async def board(self, request: web.Request) -> web.Response:
        n = int(request.match_info["n"]) if request.match_info["n"].isdigit() else -1
        if n not in self.pngs:
            return web.Response(status=404, text="Not found.")
        return web.Response(body=self.pngs[n], content_type="image/png")

    async def events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
        await response.prepare(request)
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.streams.append(queue)
        self.connected.set()
        try:
            await response.write(b": keep-alive\n\n")
            while (data := await queue.get()) is not None:
                await response.write(f"event: change\ndata: {json.dumps(data)}\n\n".encode())
        finally:
            self.streams.remove(queue)
        return response

    def push(self) -> None:
        """Sends every open stream the ``change`` of the game as it is now."""
        assert self.game is not None and self.streams, "no page is listening"
        data = {"version": self.game["version"], "count": self.game["count"], "status": self.game["status"]}
        for queue in self.streams:
            queue.put_nowait(data)

    def add_move(self) -> None:
        """Plays one more move: the game grows by a move and a position, and its version goes up."""
        assert self.game is not None
        n = self.game["count"] + 1
        self.game = {**self.game, "count": n, "version": self.game["version"] + 1,
                     "moves": [*self.game["moves"], move(n)], "positions": [*self.game["positions"], position(n)]}

    def close_streams(self) -> None:
        for queue in self.streams:
            queue.put_nowait(None)


@pytest_asyncio.fixture(loop_scope="module")
async def table() -> AsyncIterator[FakeTable]:
    """The server, on a free loopback port, for one test."""
    fake = FakeTable()
    runner = web.AppRunner(fake.app(), shutdown_timeout=1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    fake.url = f"http://127.0.0.1:{port}{BASE}"
    yield fake
    fake.close_streams()
    await runner.cleanup()


async def opened(browser: Browser, table: FakeTable, *, hash: str = "", width: int = 1280,
                 **context: Any) -> tuple[Page, Watch]:
    """Opens the game's page (at ``hash``) and waits until it shows a position."""
    page, watch = await watched_page(browser, width=width, **context)
    await page.goto(table.url + hash)
    await expect(page.locator("#caption")).to_have_text(re.compile(r"^Move \d+ of \d+"))
    return page, watch


async def clean(page: Page, watch: Watch) -> None:
    """Asserts the page logged no error, threw nothing, opened no dialog and broke no CSP rule; closes it."""
    violations = await watch.csp_violations(page)
    await page.context.close()
    assert watch.errors == []
    assert watch.dialogs == []
    assert violations == []


async def caption(page: Page, n: int, count: int = 10) -> None:
    """Waits until the page shows position ``n`` of ``count``: caption, picture, slider and address."""
    text = f"Move {n} of {count} · " + position(n)["caption"]
    await expect(page.locator("#caption")).to_have_text(text, timeout=1000)
    board = page.locator("#board")
    await expect(board).to_have_attribute("src", f"{BASE}/board/{n}.png")
    await expect(board).to_have_attribute("alt", position(n)["alt"])
    await expect(page.locator("#slider")).to_have_value(str(n))
    assert await page.evaluate("location.hash") == f"#m={n}"


async def in_list_view(page: Page, n: int) -> bool:
    """Tells whether move ``n``'s item is wholly inside the move list's scrolled box."""
    return bool(await page.evaluate("""(n) => {
        const box = document.getElementById("moves").getBoundingClientRect();
        const item = document.querySelectorAll("#moves > li")[n - 1].getBoundingClientRect();
        return item.top >= box.top - 1 && item.bottom <= box.bottom + 1;
    }""", n))


# -- the static files ----------------------------------------------------------------------------


def test_the_page_is_small_and_has_no_inline_script_or_style() -> None:
    html = (STATIC / "page.html").read_text(encoding="utf-8")
    total = sum((STATIC / name).stat().st_size for name in ("page.html", "table.js", "table.css"))
    assert total <= 30 * 1024, total
    assert re.findall(r"<script\b[^>]*>", html) == ['<script src="/static/table.js" defer>']
    assert "<style" not in html and " style=" not in html and not re.search(r"\son[a-z]+=", html)
    script = (STATIC / "table.js").read_text(encoding="utf-8")
    assert "innerHTML" not in script and "eval(" not in script and "insertAdjacentHTML" not in script


# -- stepping ------------------------------------------------------------------------------------


@LOOP
async def test_the_page_opens_at_the_last_position_with_the_header(browser: Browser, table: FakeTable) -> None:
    page, watch = await opened(browser, table, timezone_id="Europe/Paris", locale="en-GB")
    await caption(page, 10)
    assert table.game is not None
    deadline = datetime.fromisoformat(table.game["clock"]["deadline"]).astimezone(PARIS)
    await expect(page.locator("#status")).to_have_text(f"Ann to act · clock runs out at {deadline:%H:%M} (in 3 h)")
    players = page.locator("#players li")
    await expect(players).to_have_text(["Annto act", HOSTILE, "Bottybot"])
    await expect(page.locator("#commitment")).to_have_text(COMMITMENT)
    await expect(page.locator("#entropy")).to_have_text(ENTROPY)
    await expect(page.locator("#moves > li")).to_have_count(10)
    await expect(page.locator("#moves > li").nth(9)).to_have_class(re.compile(r"\bcurrent\b"))
    await expect(page.locator('#moves a[aria-current="step"]')).to_have_text("Ann: claim land10")
    await expect(page.locator("#dice")).to_be_hidden()
    assert await page.evaluate("document.getElementById('board').naturalWidth") == 800  # the PNG loaded
    await clean(page, watch)


@LOOP
async def test_the_status_line_follows_the_game(browser: Browser, table: FakeTable) -> None:
    page, watch = await opened(browser, table)
    paused = {"clock": {"deadline": None, "paused": True}, "to_act": ["Ann", "Botty"]}
    states: list[tuple[dict[str, Any], str]] = [
              (paused, "Ann and Botty to act · the clock is paused"),
              ({"status": "lobby", "to_act": [], "clock": None}, "The table is open: waiting for players."),
              ({"status": "aborted", "to_act": [], "clock": None}, "The game was stopped before its end."),
              ({"status": "finished", "to_act": [], "winners": ["Ann", "Botty"]}, "Game over: Ann and Botty win.")]
    for changes, line in states:
        table.game = make_game(**changes)
        await page.reload()
        await expect(page.locator("#status")).to_have_text(line)
    await clean(page, watch)


@LOOP
async def test_the_step_buttons_and_the_slider_move_through_the_game(browser: Browser, table: FakeTable) -> None:
    page, watch = await opened(browser, table)
    history = await page.evaluate("history.length")
    await page.get_by_role("button", name="First position").click()
    await caption(page, 0)
    await expect(page.locator('#moves a[aria-current="step"]')).to_have_count(0)
    await expect(page.get_by_role("button", name="Back one move")).to_have_attribute("aria-disabled", "true")
    await page.get_by_role("button", name="Forward one move").click()
    await caption(page, 1)
    assert await in_list_view(page, 1)  # the list scrolled back up to the current move
    await page.get_by_role("button", name="Forward one move").click()
    await caption(page, 2)
    await page.get_by_role("button", name="Back one move").click()
    await caption(page, 1)
    await page.get_by_role("button", name="Last position").click()
    await caption(page, 10)
    await expect(page.get_by_role("button", name="Forward one move")).to_have_attribute("aria-disabled", "true")
    await page.get_by_role("button", name="Forward one move").click(force=True)  # at the end: nothing changes
    await caption(page, 10)
    await page.locator("#slider").fill("4")
    await caption(page, 4)
    await page.get_by_role("link", name="Ann: claim land7").click()  # a move shows the position after it
    await caption(page, 7)
    await expect(page.locator('#moves a[aria-current="step"]')).to_have_text("Ann: claim land7")
    assert await page.evaluate("history.length") == history  # replaceState: the back button is not flooded
    await clean(page, watch)


@LOOP
async def test_the_arrow_home_and_end_keys_step_unless_typing(browser: Browser, table: FakeTable) -> None:
    page, watch = await opened(browser, table)
    await page.keyboard.press("ArrowLeft")
    await caption(page, 9)
    await page.keyboard.press("ArrowLeft")
    await page.keyboard.press("ArrowLeft")
    await caption(page, 7)
    await page.keyboard.press("ArrowRight")
    await caption(page, 8)
    await page.keyboard.press("Home")
    await caption(page, 0)
    await page.keyboard.press("ArrowLeft")  # before the start: stays
    await caption(page, 0)
    await page.keyboard.press("End")
    await caption(page, 10)
    await page.locator("#slider").focus()  # the slider's own keys move it by one, not twice
    await page.keyboard.press("ArrowLeft")
    await caption(page, 9)
    await clean(page, watch)


@LOOP
async def test_the_address_names_the_position_both_ways(browser: Browser, table: FakeTable) -> None:
    page, watch = await opened(browser, table, hash="#m=3")
    await caption(page, 3)
    await expect(page.locator('#moves a[aria-current="step"]')).to_have_text("Botty: claim land3")
    await page.keyboard.press("ArrowRight")
    await caption(page, 4)
    await page.evaluate("location.hash = '#m=6'")  # typed into the address bar
    await caption(page, 6)
    await page.goto(table.url + "#m=99")  # past the end: the last position
    await caption(page, 10)
    await clean(page, watch)


# -- live ----------------------------------------------------------------------------------------


@LOOP
async def test_a_change_shows_the_new_last_move_without_a_reload(browser: Browser, table: FakeTable) -> None:
    page, watch = await opened(browser, table)
    await expect(page.locator("#live")).to_have_text("live")
    await page.evaluate("window.__marker = 'before'")
    table.add_move()
    start = time.monotonic()
    table.push()
    await caption(page, 11, count=11)  # waits at most 1 s
    assert time.monotonic() - start < 1.0
    await expect(page.locator('#moves a[aria-current="step"]')).to_have_text(f"{HOSTILE}: claim land11")
    assert await page.evaluate("window.__marker") == "before"
    assert await page.evaluate("performance.getEntriesByType('navigation').length") == 1
    await clean(page, watch)


@LOOP
async def test_a_change_leaves_a_viewer_of_an_earlier_move_where_they_are(browser: Browser, table: FakeTable) -> None:
    page, watch = await opened(browser, table, hash="#m=3")
    await expect(page.locator("#live")).to_have_text("live")
    table.add_move()
    table.push()
    await expect(page.locator("#moves > li")).to_have_count(11, timeout=1000)
    await caption(page, 3, count=11)
    await clean(page, watch)


# -- the dice ------------------------------------------------------------------------------------


def test_the_real_draws_here_include_rejections_and_hold() -> None:
    """The dice lists the page checks are right (by Python's hmac) and skip numbers, as rejections do."""
    draws = real_draws(20, 40)
    last = 0
    for number, r, value in draws:
        limit = SPACE - SPACE % r
        assert all(draw_hash(k) >= limit for k in range(last + 1, number))
        assert draw_hash(number) < limit and draw_hash(number) % r == value
        last = number
    assert draws[-1][0] > len(draws)  # some numbers were rejected
    assert [d[1] for d in draws[:20]] == [6] * 20


async def check(browser: Browser, table: FakeTable) -> tuple[Page, Watch, list[str]]:
    page, watch = await opened(browser, table)
    button = page.get_by_role("button", name="Check the dice")
    await button.click()
    await expect(page.locator("#dice-result p.quiet")).to_have_count(0, timeout=5000)  # "Checking the dice…"
    return page, watch, await page.locator("#dice-result p").all_text_contents()


@LOOP
async def test_checking_the_right_dice_says_all_draws_match(browser: Browser, table: FakeTable) -> None:
    draws = real_draws(300, 30)  # past a batch of 256, with rejected numbers among the big ones
    table.game, table.dice = finished(draws)
    page, watch, lines = await check(browser, table)
    assert lines == ["The seed matches the commitment posted before anyone joined.",
                     "The entropy is the players' join ids and words, in seat order.",
                     "All 330 draws match."]
    await expect(page.locator("#status")).to_have_text("Game over: Ann wins.")
    await expect(page.locator("#players li").nth(0)).to_have_text("Annwinner")
    await clean(page, watch)


def doctored(kind: str) -> tuple[list[list[int]], str]:
    """Returns a dice list with one mistake of ``kind`` and the line the page must show for it."""
    draws = real_draws(20, 20)
    if kind == "value":
        number, r, value = draws[16]
        draws[16] = [number, r, (value + 1) % r]
        return draws, f"Draw {number} does not match: the list says {(value + 1) % r}, the seed gives {value}."
    i = next(i for i in range(21, len(draws)) if draws[i][0] > draws[i - 1][0] + 1)  # after a rejection
    number, r, value = draws[i]
    if kind == "rejected":  # the rejected number listed as if it had given a value
        draws[i] = [number - 1, r, value]
        return draws, (f"Draw {number - 1} does not match: the seed gives a rejection there (no value), "
                       f"but the list has {value}.")
    assert kind == "skipped"  # a draw left out: its number looks skipped, but it was no rejection
    gone = draws.pop(20)
    return draws, (f"Draw {draws[20][0]} does not match: the list skips draw {gone[0]}, "
                   "but the seed gives no rejection there.")


@LOOP
@pytest.mark.parametrize("kind", ["value", "rejected", "skipped"])
async def test_checking_doctored_dice_names_the_first_mismatch(browser: Browser, table: FakeTable, kind: str) -> None:
    draws, line = doctored(kind)
    ok, said = check_draws_script().check_draws(SEED, ENTROPY, draws)  # the script finds the same draw wrong
    assert not ok and said.startswith(f"draws: draw number {line.split()[1]} ")
    table.game, table.dice = finished(draws)
    page, watch, lines = await check(browser, table)
    assert lines[:2] == ["The seed matches the commitment posted before anyone joined.",
                         "The entropy is the players' join ids and words, in seat order."]
    assert lines[2] == line
    await expect(page.locator("#dice-result p.bad")).to_have_count(1)
    await clean(page, watch)


@LOOP
async def test_a_seed_or_entropy_that_does_not_match_is_said(browser: Browser, table: FakeTable) -> None:
    game, dice = finished(real_draws(5, 0))
    game["commitment"] = "0" * 64  # the posted one
    dice["players"][0]["entropy"] = "other words"
    table.game, table.dice = game, dice
    page, watch, lines = await check(browser, table)
    assert lines == [f"The seed does not match the commitment: its SHA-256 is {COMMITMENT}, the posted one {'0' * 64}.",
                     "The entropy does not match the players: their parts give “1183:other words|2290|bot”, "
                     f"the list says “{ENTROPY}”.",
                     "All 5 draws match."]
    await clean(page, watch)


@LOOP
async def test_five_thousand_draws_check_in_well_under_a_few_seconds(browser: Browser, table: FakeTable) -> None:
    table.game, table.dice = finished(real_draws(5000, 0))
    page, watch = await opened(browser, table)
    start = time.monotonic()
    await page.get_by_role("button", name="Check the dice").click()
    await expect(page.locator("#dice-result p").nth(2)).to_have_text("All 5000 draws match.", timeout=5000)
    assert time.monotonic() - start < 2.0
    await clean(page, watch)


# -- safety, layout, errors ----------------------------------------------------------------------


@LOOP
async def test_the_watch_sees_what_it_forbids(browser: Browser, table: FakeTable) -> None:
    """The harness can fail: a CSP violation, a console error and a dialog are all recorded."""
    page, watch = await opened(browser, table)
    await page.evaluate("document.body.append(Object.assign(document.createElement('img'), {src: 'data:,'}))")
    await page.evaluate("console.error('boom'); setTimeout(() => alert('hi'), 0)")
    await page.wait_for_function("window.__cspViolations.length > 0")
    for _ in range(100):  # the dialog's handler runs in the test's loop: give it a turn
        if watch.dialogs:
            break
        await asyncio.sleep(0.01)
    assert watch.dialogs == ["alert: hi"]
    assert await watch.csp_violations(page) == ["img-src data"]
    assert any("boom" in e for e in watch.errors)
    await page.context.close()


@LOOP
async def test_a_name_of_html_is_shown_as_text(browser: Browser, table: FakeTable) -> None:
    table.game = make_game(title=HOSTILE, to_act=[HOSTILE])
    page, watch = await opened(browser, table)
    await expect(page.locator("#title")).to_have_text(HOSTILE)
    await expect(page.locator("#status")).to_contain_text(f"{HOSTILE} to act")
    await expect(page.get_by_text(f"{HOSTILE} claims Land 2.", exact=True)).to_have_count(1)
    await page.wait_for_timeout(200)  # an onerror would have fired by now
    assert await page.evaluate("document.images.length") == 1
    assert await page.evaluate("document.querySelectorAll('img[onerror]').length") == 0
    await clean(page, watch)  # no dialog, no CSP violation (an inline handler would be one)


@LOOP
@pytest.mark.parametrize("width", [390, 1280])
async def test_the_page_fits_the_screen(browser: Browser, table: FakeTable, width: int, tmp_path: Path) -> None:
    long_name = "Z" * 80
    table.game = make_game(players=[{"seat": 0, "name": long_name, "bot": False},
                                    {"seat": 1, "name": "Ann", "bot": False}], entropy="9" * 200)
    table.game["moves"][9]["events"].append("W" * 150)
    page, watch = await opened(browser, table, width=width, height=800)
    await page.screenshot(path=tmp_path / f"page-{width}.png", full_page=True)
    assert (tmp_path / f"page-{width}.png").stat().st_size > 0
    assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    board = await page.locator("#board").bounding_box()
    moves = await page.locator("#moves-section").bounding_box()
    assert board is not None and moves is not None
    assert board["x"] >= 0 and board["x"] + board["width"] <= width
    if width == 390:  # one column: the moves under the board
        assert moves["y"] >= board["y"] + board["height"]
    else:  # the board left, the moves right
        assert moves["x"] >= board["x"] + board["width"]
    await clean(page, watch)


@LOOP
async def test_a_game_that_cannot_be_loaded_says_so(browser: Browser, table: FakeTable) -> None:
    table.game = None
    page, watch = await watched_page(browser)
    await page.goto(table.url)
    await expect(page.locator("#error")).to_have_text("This game could not be loaded.")
    await expect(page.locator("#board-section")).to_be_hidden()
    assert await page.evaluate("document.body.innerText.includes('Error')") is False
    assert [e for e in watch.errors if "status of 500" not in e] == []  # only the failed request itself
    watch.errors.clear()
    await clean(page, watch)

