"""The headless Chromium the browser tests drive (Debian's), one a test process, the bounds every browser context of
theirs keeps (waits bounded by a hang limit, not a speed check: each test waits on a condition of the page; nothing
fetched from anywhere but the test server on 127.0.0.1), and that server: the app through waitress in a thread."""

import atexit
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Browser, BrowserContext, expect, sync_playwright
from waitress import create_server

from app.web.server import stop

CHROMIUM = "/usr/bin/chromium"
HANG = 120_000  # ms
# nothing but the test server: every request to another address goes to a proxy that is not there (port 9,
# discard, closed) and fails at once; 127.0.0.1, the test server's, is the one address that bypasses it
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--proxy-server=http://127.0.0.1:9",
         "--proxy-bypass-list=<-loopback>;127.0.0.1"]
# Chromium 156's headless windows each load the address bar's popup (chrome://omnibox-popup, a page of its own in a
# renderer of its own, 400 resources) though no test has an address bar to type in: 0.5 s of CPU a browser context,
# 40% of what opening one cost. Chromium keeps the last --disable-features it is given, not the union, so the list
# Playwright 1.65 passes (playwright-core chromiumSwitches.ts) is repeated here with the two popups added.
PLAYWRIGHT_DISABLED = ["AimEnabled", "AvoidCorsURLLoaderRestartOnRedirect", "AvoidUnnecessaryBeforeUnloadCheckSync",
                       "DestroyProfileOnBrowserClose", "HttpsFirstBalancedModeAutoEnable", "HttpsUpgrades",
                       "LensOverlay", "MediaRouter", "NetworkTimeServiceQuerying", "OptimizationHints", "PaintHolding",
                       "PreconnectToSearch", "TcpPortRandomizationWin", "ThirdPartyStoragePartitioning",
                       "msEdgeUpdateLaunchServicesPreferredVersion", "msForceBrowserSignIn"]
FLAGS.append("--disable-features=" + ",".join(PLAYWRIGHT_DISABLED + ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]))
LOCAL = "http://127.0.0.1"


def require_chromium() -> None:
    """Fail, saying how to install it, when Debian's Chromium is not there."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"the browser tests drive Debian's Chromium at {CHROMIUM}, which is not installed: install it "
                    "with 'apt-get install chromium' (.ci/run does), or leave these tests out with -m 'not browser'")


_RUNNING: dict = {}  # this process's Playwright driver and the Chromium it launched


def shared_chromium() -> Browser:
    """This process's one Chromium (one an xdist worker), launched by the first browser test and used by every
    browser module after it: a Playwright driver and a Chromium started a module cost about three seconds of CPU
    each time. What a test opens is a browser context of its own, which shares nothing with another (cookies,
    storage, cache), closed after it. Launched again if it went away; stopped when the process ends."""
    browser = _RUNNING.get("browser")
    if browser is None or not browser.is_connected():
        require_chromium()
        if "playwright" not in _RUNNING:
            _RUNNING["playwright"] = sync_playwright().start()
            atexit.register(_stop)
        browser = _RUNNING["browser"] = _RUNNING["playwright"].chromium.launch(executable_path=CHROMIUM,
                                                                               headless=True, args=FLAGS)
    return browser


def _stop() -> None:
    if _RUNNING.get("browser") is not None and _RUNNING["browser"].is_connected():
        _RUNNING["browser"].close()
    _RUNNING.pop("playwright").stop()


@contextmanager
def chromium_for_a_module() -> Iterator[Browser]:
    """The shared Chromium for a module's tests (`shared_chromium`), left with no context of the module open."""
    browser = shared_chromium()
    try:
        yield browser
    finally:
        for context in browser.contexts if browser.is_connected() else ():
            context.close()


def confine(context: BrowserContext) -> list[str]:
    """Bound `context`'s waits (and `expect`'s retries) by `HANG`; the addresses of the requests to another host
    than the test server, which a test asserts empty (no CDN, no network). Chromium's own FLAGS send each such
    request to a proxy that is not there, so it fails at once and is recorded from its failure; the requests to
    the test server go their way untouched (a route on every request held each one until this process, often busy
    in the test's own API calls, had answered it)."""
    context.set_default_timeout(HANG)
    context.set_default_navigation_timeout(HANG)
    expect.set_options(timeout=HANG)
    outside: list[str] = []
    context.on("requestfailed", lambda request: None if request.url.startswith(LOCAL) else outside.append(request.url))
    return outside


@contextmanager
def waitress_thread(app, port: int = 0) -> Iterator[int]:
    """`app` through waitress (the production WSGI server) on 127.0.0.1 in a thread of its own; the port it
    listens on. Stopped as `cli.py serve` stops it (app/web/server.py `stop`: from the loop's own thread)."""
    httpd = create_server(app, host="127.0.0.1", port=port, threads=4)
    thread = threading.Thread(target=httpd.run, daemon=True)
    thread.start()
    try:
        yield httpd.effective_port
    finally:
        stop(httpd)
        thread.join(5)
