"""A headless Chromium for the web table's tests: Debian's ``chromium`` driven by Playwright.

Playwright's own browser builds are never downloaded (``tasks.py`` installs the ``chromium``
package and sets ``PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD``): :func:`find_chromium` finds Debian's, and
:func:`browser_fixture` launches it once per test module with the flags this closed network needs (no
background requests, no component updates, no QUIC). Without Chromium or Playwright the tests
that ask for it skip, or fail when ``TABLEHOST_BROWSER_REQUIRED=1`` (as ``tasks.py test`` sets
when the browser is there).

The fixture's event loop is the module's (pytest-asyncio's ``loop_scope="module"``): a module
that uses it marks its async tests ``pytest.mark.asyncio(loop_scope="module")`` and gives
its own async fixtures ``loop_scope="module"`` too. One launch a module (about a second here)
instead of one a test; each test opens its own context (:func:`watched_page`), so nothing of one
test's page is seen by the next. A module imports the fixture, whose name is ``browser``::

    from tests.web.browser import browser_fixture  # noqa: F401  (the fixture `browser`)
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import pytest
import pytest_asyncio

if TYPE_CHECKING:
    from playwright.async_api import Browser, ConsoleMessage, Dialog, Page

CHROMIUM_ENV = "TABLEHOST_CHROMIUM"
REQUIRED_ENV = "TABLEHOST_BROWSER_REQUIRED"
DEBIAN_CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless=new",
    "--no-sandbox",  # the tests run as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",  # no requests to anywhere but the test's server: the network is closed
    "--disable-component-update",
    "--disable-sync",
]
"""Chromium's command-line flags for the tests."""

CSP_WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(e.violatedDirective + " " + e.blockedURI);
});
"""
"""An init script (Playwright's, so the page's CSP does not stop it) that records CSP violations."""


def find_chromium() -> Path | None:
    """Returns ``$TABLEHOST_CHROMIUM``, Debian's /usr/bin/chromium or ``chromium`` on the PATH (as tasks.py looks)."""
    if os.environ.get(CHROMIUM_ENV):
        return Path(os.environ[CHROMIUM_ENV])
    if DEBIAN_CHROMIUM.is_file():
        return DEBIAN_CHROMIUM
    found = shutil.which("chromium")
    return Path(found) if found else None


def unavailable(reason: str) -> NoReturn:
    """Skips the test, or fails it when ``$TABLEHOST_BROWSER_REQUIRED`` is 1 (as ``tasks.py test`` sets)."""
    if os.environ.get(REQUIRED_ENV) == "1":
        pytest.fail(f"Chromium is required ({REQUIRED_ENV}=1) but not available: {reason}", pytrace=False)
    pytest.skip(f"Chromium is not available: {reason}")


async def launched_chromium() -> AsyncIterator[Browser]:
    """Yields a headless Debian Chromium, closed afterwards; skips (or fails, when required) without one."""
    try:
        from playwright.async_api import Error, async_playwright
    except ImportError:
        unavailable("the playwright package is not installed (requirements-dev.txt)")
    path = find_chromium()
    if path is None or not path.is_file():
        unavailable(f"no browser at {path}" if path else "install the 'chromium' package or set TABLEHOST_CHROMIUM")
    async with async_playwright() as playwright:
        try:
            launched = await playwright.chromium.launch(executable_path=str(path), args=ARGS, timeout=60_000)
        except Error as exc:
            reason = f"{path} did not start: {str(exc).splitlines()[0]}"
        else:
            yield launched
            await launched.close()
            return
    unavailable(reason)  # outside the except: the skip or failure shows no chained traceback


@pytest_asyncio.fixture(name="browser", scope="module", loop_scope="module")
async def browser_fixture() -> AsyncIterator[Browser]:
    """A headless Debian Chromium for the tests of one module, closed at its end."""
    async for launched in launched_chromium():
        yield launched


@dataclass
class Watch:
    """What a page did that a test forbids: console errors, uncaught exceptions and dialogs it opened."""

    errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def console(self, message: ConsoleMessage) -> None:
        where = message.location.get("url") or "?"
        if message.type == "error" and not where.endswith("/favicon.ico"):  # the browser's own ask, not the page's
            self.errors.append(f"console: {message.text} ({where})")

    def page_error(self, error: Any) -> None:
        self.errors.append(f"uncaught: {error}")

    async def dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        await dialog.dismiss()

    async def csp_violations(self, page: Page) -> list[str]:
        """Returns the CSP violations the page saw (recorded by :data:`CSP_WATCH`)."""
        return list(await page.evaluate("window.__cspViolations || []"))


async def watched_page(browser: Browser, *, width: int = 1280, height: int = 900, **context: Any) -> tuple[Page, Watch]:
    """Opens a page in a new context of ``width`` × ``height`` CSS pixels that records what :class:`Watch` forbids.

    ``context`` goes to ``browser.new_context`` (e.g. ``timezone_id``, ``locale``). Closing the page's
    context is the caller's (``await page.context.close()``).
    """
    ctx = await browser.new_context(viewport={"width": width, "height": height}, **context)
    await ctx.add_init_script(CSP_WATCH)
    page = await ctx.new_page()
    watch = Watch()
    page.on("console", watch.console)
    page.on("pageerror", watch.page_error)
    page.on("dialog", watch.dialog)
    return page, watch
