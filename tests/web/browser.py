"""A real browser for the web pages' tests: Debian's headless Chromium driven by Playwright.

``browser`` (a fixture, registered in tests/conftest.py) starts Chromium (``$CHROMIUM``, else
/usr/bin/chromium; never a browser Playwright downloads) with a fresh profile, and gives a
:class:`Browser` whose ``page(width, height)`` opens a tab of that size. The browser reaches
nothing but this machine: a request anywhere else is refused and fails the test (the pages load
nothing but the bot's own resources).

Without Chromium (or Playwright) the tests that ask for it are skipped, saying why; with
``BELOTE_REQUIRE_BROWSER=1`` (CI: .ci/run) they fail instead. With ``BELOTE_WEB_SHOTS=<dir>``
``Browser.shot`` saves screenshots there, to look at.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Page, Route

DEFAULT_CHROMIUM = "/usr/bin/chromium"
ARGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync")
DESKTOP = (1280, 900)
PHONE = (390, 844)
LOCAL = ("127.0.0.1", "localhost", "::1")


def chromium_path() -> str | None:
    wanted = os.environ.get("CHROMIUM") or DEFAULT_CHROMIUM
    found = shutil.which(wanted)
    return found if found and os.access(found, os.X_OK) else None


def _missing(why: str) -> None:
    if os.environ.get("BELOTE_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{why}, and BELOTE_REQUIRE_BROWSER=1 asks for the browser tests")
    pytest.skip(f"{why}: the browser tests need it (apt-get install chromium)")


class Browser:
    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        self.elsewhere: list[str] = []  # requests that tried to leave the machine
        self.dialogs: list[str] = []  # alert(), confirm()...: a page's script ran

    async def page(self, width: int = DESKTOP[0], height: int = DESKTOP[1]) -> Page:
        page = await self.context.new_page()
        await page.set_viewport_size({"width": width, "height": height})

        async def dialog(d: object) -> None:
            self.dialogs.append(str(getattr(d, "message", d)))
            await d.dismiss()  # type: ignore[attr-defined]

        page.on("dialog", dialog)
        return page

    async def _route(self, route: Route) -> None:
        if (urlsplit(route.request.url).hostname or "") in LOCAL:
            await route.continue_()
        else:
            self.elsewhere.append(route.request.url)
            await route.abort()

    @staticmethod
    async def horizontal_overflow(page: Page) -> int:
        """How many pixels the page is wider than its window (0: no horizontal scroll)."""
        width: int = await page.evaluate(
            "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
            " - window.innerWidth")
        return width

    @staticmethod
    async def shot(page: Page, name: str) -> None:
        where = os.environ.get("BELOTE_WEB_SHOTS")
        if where:
            Path(where).mkdir(parents=True, exist_ok=True)
            await page.screenshot(path=str(Path(where) / f"{name}.png"), full_page=True)


@pytest.fixture
async def browser(tmp_path: Path) -> AsyncIterator[Browser]:
    executable = chromium_path()
    if executable is None:
        _missing(f"no Chromium at {os.environ.get('CHROMIUM') or DEFAULT_CHROMIUM}")
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        _missing("Playwright is not installed (pip install -e '.[test]')")
    profile = tmp_path / "chromium-profile"
    async with async_playwright() as p:
        context = await p.chromium.launch_persistent_context(
            str(profile), executable_path=executable, headless=True, args=list(ARGS),
            chromium_sandbox=False, locale="en-US", timezone_id="UTC")
        b = Browser(context)
        await context.route("**/*", b._route)
        try:
            yield b
        finally:
            await context.close()
        assert not b.elsewhere, f"a page tried to reach beyond this machine: {b.elsewhere}"
