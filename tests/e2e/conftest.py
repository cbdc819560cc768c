"""Browser tests: Debian's Chromium, driven by Playwright, against pytest-django's live server.

Playwright never downloads a browser here: it always launches /usr/bin/chromium. Without it the
browser tests skip (with the reason below); nothing else makes them skip.
"""

import os
import threading
import time
from importlib import resources
from pathlib import Path

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.utils import translation
from playwright.sync_api import sync_playwright

from scripts import chromium

HERE = Path(__file__).resolve().parent
CHROMIUM = Path(chromium.CHROMIUM)
# axe-core's script, as the axe-playwright-python package ships it (pyproject.toml's test extra).
AXE = resources.files("axe_playwright_python") / "axe.min.js"
# The phones of the issue, and a laptop.
PHONES = ["Pixel 7", "iPhone 13"]
DESKTOP = "Desktop Chrome"
# A narrow phone: the Pixel 7's browser at 360 × 740 CSS pixels, as many cheap phones have it.
NARROW = "360"
# The phones the browser tests run at.
TABLE_PHONES = [*PHONES, NARROW]


def pytest_collection_modifyitems(config, items):
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(
        reason=f"browser tests need Chromium at {CHROMIUM} (apt-get install chromium)"
    )
    for item in items:
        if HERE in Path(str(item.path)).parents:
            item.add_marker(skip)


@pytest.fixture(scope="package")
def playwright():
    # Playwright's sync API marks an asyncio loop as running in this thread, which Django's
    # ORM takes for an async context; the tests' ORM calls are synchronous, so allow them.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as driver:
            yield driver
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="package")
def browser(playwright):
    browser = chromium.launch(playwright)
    yield browser
    browser.close()


def device(playwright, name: str) -> dict:
    """A Playwright device descriptor, for Chromium (the iPhone's says WebKit)."""
    descriptor = dict(playwright.devices[name])
    descriptor.pop("default_browser_type", None)
    return descriptor


class InFlight:
    """The live server's requests being answered: a test's pages (polling every 2 s) may still
    be asked something when the test ends, and the in-memory test database cannot be emptied
    for the next test while the server reads it."""

    def __init__(self):
        self.count = 0
        self.idle = threading.Condition()

    def __call__(self, handler):
        def counted(wsgi, environ, start_response):
            with self.idle:
                self.count += 1
                self.idle.notify_all()
            try:
                return handler(wsgi, environ, start_response)
            finally:
                with self.idle:
                    self.count -= 1
                    self.idle.notify_all()

        return counted

    def wait(self, timeout: float = 10, quiet: float = 0.1) -> None:
        """Until no request is being answered, and none came for ``quiet`` seconds: a request
        the pages sent just before they closed can reach the server a moment later."""
        deadline = time.monotonic() + timeout
        with self.idle:
            while True:
                left = deadline - time.monotonic()
                assert self.idle.wait_for(lambda: self.count == 0, left), "the server stayed busy"
                if not self.idle.wait_for(lambda: self.count > 0, quiet):
                    return


@pytest.fixture(scope="session")
def in_flight():
    counter = InFlight()
    original = WSGIHandler.__call__
    WSGIHandler.__call__ = counter(original)
    yield counter
    WSGIHandler.__call__ = original


INTERVALS = "window.tarotIntervals = {poll: 300, retry: 300, queue: 1000};"


@pytest.fixture
def open_page(playwright, browser, live_server, in_flight):
    """A fresh browser profile (no cookies) on a device; returns its page, at the live server."""
    contexts = []

    def open_(name: str = "Pixel 7", **options):
        options.setdefault("locale", "en-GB")
        if name == NARROW:
            name = "Pixel 7"
            options.setdefault("viewport", {"width": 360, "height": 740})
        # Options given here (a narrower viewport, say) replace the device's own.
        context = browser.new_context(
            **{**device(playwright, name), **options}, base_url=live_server.url
        )
        context.set_default_timeout(10_000)
        # The live polls (2 s) and the offline queue's retry (15 s), shortened: no test waits on
        # the real intervals (app.js, night.js and offline.js read window.tarotIntervals).
        context.add_init_script(INTERVALS)
        contexts.append(context)
        return context.new_page()

    yield open_
    for context in contexts:
        context.close()
    # The pages are closed: let the server finish what they asked before the database is reset.
    in_flight.wait()


@pytest.fixture(autouse=True)
def _english():
    """The browsers ask for English (en-GB): the labels the tests look for are English too,
    whatever language an earlier test left active in this thread."""
    with translation.override("en"):
        yield


@pytest.fixture(scope="session")
def axe_script() -> Path:
    """axe-core's script (axe.min.js), installed with the test extra."""
    return Path(str(AXE))
