"""The web table beside the bot, in a real browser: a move played on (the fake) Discord reaches an open page
within a second; a finished XISK game's dice check in the page, and a doctored list fails there."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from cogs.board import WATCH
from engines.core.ai import think
from host.tables import Tables
from host.web import HttpServer
from host.web_links import WebLinks
from tests.fakediscord.api import DiscordTest
from tests.web.browser import launched_chromium, watched_page
from web.app import WebTable

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page, Route

NAMES = {"Ann": "ann", "Bob": "bob"}
SECRET = b"tablehost-web-table-test-secret-00"


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    """A headless Debian Chromium for one test (these tests' loop is the fake Discord's, one a test)."""
    async for launched in launched_chromium():
        yield launched


@pytest.fixture
async def served(discord_test: DiscordTest, tables: Tables) -> AsyncIterator[WebLinks]:
    """The web table on a loopback port, its links on the bot's boards (as TABLEHOST_PUBLIC_URL does)."""
    links = WebLinks(SECRET, "http://127.0.0.1")
    server = HttpServer({}, refresh=None)
    server.mounts.append(WebTable(tables, links).mount)
    await server.start("127.0.0.1", 0)
    links.public_url = f"http://127.0.0.1:{server.port}"
    bot = discord_test.bot
    assert bot is not None
    bot.web_links = links  # type: ignore[attr-defined]
    yield links
    await server.stop()


async def open_xisk(dt: DiscordTest) -> None:
    await dt.slash("xisk", "new", user="ann")
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")


def channel_of(dt: DiscordTest) -> str:
    return str(dt.channel("general").id)


async def shown(page: Page) -> tuple[int, int]:
    """Returns the position the page shows and the count, read from its caption "Move n of count · …"."""
    text = await page.locator("#caption").text_content() or ""
    found = re.match(r"Move (\d+) of (\d+)", text)
    assert found, text
    return int(found[1]), int(found[2])


async def test_a_move_played_on_discord_shows_on_an_open_page_within_a_second(
        discord_test: DiscordTest, tables: Tables, served: WebLinks, browser: Browser, tmp_path: Path) -> None:
    from playwright.async_api import expect

    dt = discord_test
    await open_xisk(dt)
    table = await tables.table(channel_of(dt))
    url = served.url(table.row.id)
    board = [m for m in dt.messages("general") if m.embeds][-1]
    assert board.embeds[0]["url"] == url and f"[{WATCH}]({url})" in board.embeds[0]["description"]

    page, watch = await watched_page(browser, width=390)
    await page.goto(url)
    await expect(page.locator("#caption")).to_have_text(re.compile(r"^Move 0 of 0"))
    await expect(page.locator("#live")).to_have_text("live")
    await page.evaluate("window.__marker = 'before'")
    rng = random.Random(2)
    for n in range(1, 4):
        game = (await tables.table(channel_of(dt))).game
        assert game is not None
        [actor] = game.to_act()
        move = think(game, actor, "normal", rng)
        started = time.monotonic()
        played = await dt.slash("game", "play", user=NAMES[actor], move=move)
        assert not played.ephemeral or "not" not in played.content, played.content
        await expect(page.locator("#caption")).to_have_text(re.compile(rf"^Move {n} of {n} · "), timeout=1000)
        assert time.monotonic() - started < 1.0 + 0.5  # the move's own round trip, then the page within 1 s
        await expect(page.locator('#moves [aria-current="step"]')).to_have_text(f"{actor}: {move}")
    assert await page.evaluate("window.__marker") == "before"  # never reloaded
    assert await page.evaluate("performance.getEntriesByType('navigation').length") == 1
    await page.screenshot(path=tmp_path / "phone.png", full_page=True)  # a real game's page on a phone
    assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    await page.keyboard.press("ArrowLeft")  # and back through the moves with the keys and buttons
    assert await shown(page) == (2, 3) and await page.evaluate("location.hash") == "#m=2"
    await page.get_by_role("button", name="First position").click()
    assert await shown(page) == (0, 3)
    await page.goto(url + "#m=1")
    await page.reload()
    await expect(page.locator("#caption")).to_have_text(re.compile(r"^Move 1 of 3"))
    assert watch.errors == [] and watch.dialogs == []
    assert await watch.csp_violations(page) == []
    await page.context.close()


async def test_the_dice_of_a_finished_xisk_game_check_in_the_browser_and_a_doctored_list_fails(
        discord_test: DiscordTest, tables: Tables, served: WebLinks, browser: Browser) -> None:
    from playwright.async_api import expect

    dt = discord_test
    await open_xisk(dt)
    channel = channel_of(dt)
    ids = {s.name: s.player_id for s in (await tables.table(channel)).seats}
    rng = random.Random(6)
    while True:  # played through the table service (the Discord round trips are the other test's)
        game = (await tables.table(channel)).game
        assert game is not None
        if game.is_over:
            break
        [actor] = game.to_act()
        await tables.act(channel, ids[actor], think(game, actor, "hard", rng, budget=0.05))
    row = (await tables.store.game((await tables.table(channel)).row.id, snapshot=False))
    assert row is not None and row.status.value == "finished"
    url = served.url(row.id)

    page, watch = await watched_page(browser)
    await page.goto(url)
    await page.get_by_role("button", name="Check the dice").click()
    result = page.locator("#dice-result p").last
    await expect(result).to_have_text(re.compile(r"^All \d+ draws match\.$"), timeout=10_000)
    lines = await page.locator("#dice-result p").all_text_contents()
    assert lines[0] == "The seed matches the commitment posted before anyone joined."
    drawn = int(re.findall(r"\d+", lines[-1])[0])
    assert drawn > 100

    doctored: dict[str, Any] = {}

    async def doctor(route: Route) -> None:  # the test serves a doctored list in place of the bot's
        reply = await route.fetch()
        dice = json.loads(await reply.text())
        number, r, value = dice["draws"][40]
        dice["draws"][40] = [number, r, (value + 1) % r]
        doctored.update(number=number, said=(value + 1) % r, value=value)
        await route.fulfill(response=reply, body=json.dumps(dice))

    await page.route("**/dice.json", doctor)
    await page.reload()
    await page.get_by_role("button", name="Check the dice").click()
    bad = page.locator("#dice-result p.bad")
    await expect(bad).to_have_count(1, timeout=10_000)
    await expect(bad).to_have_text(f"Draw {doctored['number']} does not match: the list says {doctored['said']}, "
                                   f"the seed gives {doctored['value']}.")
    assert watch.errors == [] and watch.dialogs == []
    await page.context.close()
