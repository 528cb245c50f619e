"""The headless Chromium the browser tests drive (Debian's) and the bounds every browser context of theirs keeps:
waits bounded by a hang limit (not a speed check: each test waits on a condition of the page) and nothing fetched
from anywhere but the test server on 127.0.0.1."""

import os

import pytest
from playwright.sync_api import BrowserContext, expect

CHROMIUM = "/usr/bin/chromium"
HANG = 120_000  # ms
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def require_chromium() -> None:
    """Fail, saying how to install it, when Debian's Chromium is not there."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"the browser tests drive Debian's Chromium at {CHROMIUM}, which is not installed: install it "
                    "with 'apt-get install chromium' (.ci/run does), or leave these tests out with -m 'not browser'")


def confine(context: BrowserContext) -> list[str]:
    """Bound `context`'s waits (and `expect`'s retries) by `HANG` and abort every request to another host than
    the test server; the addresses aborted, which a test asserts empty (no CDN, no network)."""
    context.set_default_timeout(HANG)
    context.set_default_navigation_timeout(HANG)
    expect.set_options(timeout=HANG)
    outside: list[str] = []

    def only_local(route) -> None:
        if route.request.url.startswith("http://127.0.0.1"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_local)
    return outside
