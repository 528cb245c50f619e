"""The player's page in a real headless Chromium (Debian's /usr/bin/chromium driven by Playwright; issue 28).

The real app (create_app) through waitress on 127.0.0.1. A player with no email at hand asks for a sign-in link by
keyboard alone, opens the link the server mailed, signs in with its button, sees their games (their turn first
in the summary), sets a channel for one game, is refused one the server will not call (a 400 page) and takes the
channel back, at desktop and at phone width (375 px), with no console error but that 400's, no
Content-Security-Policy violation, no request to any other host and no sideways scrolling.
Every wait is on a condition the page shows; the timeout only bounds a hang.
"""
from __future__ import annotations

import re
from contextlib import contextmanager

import pytest
from playwright.sync_api import expect

from app.mail.replies import body_text
from app.mail.transport import MailConfig
from app.web import create_app
from tests.browsing import chromium_for_a_module, confine, waitress_thread
from tests.outbox import Outbox
from tests.pbem.conftest import free_port

pytestmark = [pytest.mark.browser, pytest.mark.slow]
ANN, BOB = "ann@x.example", "bob@x.example"
WATCH = """window.violations = [];
document.addEventListener("securitypolicyviolation", (e) => window.violations.push(e.violatedDirective));"""


@contextmanager
def serving(path: str):
    port = free_port()
    outbox = Outbox()
    config = MailConfig(orders_address="orders@pbem.example", public_url=f"http://127.0.0.1:{port}/")
    app = create_app({"HEXLEDGER_DB": path, "MAIL": config, "MAIL_TRANSPORT": outbox})
    with waitress_thread(app, port):
        yield app, outbox, f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def chromium():
    """The test process's Chromium (tests/browsing.py `shared_chromium`), shared with the other browser modules."""
    with chromium_for_a_module() as launched:
        yield launched


@pytest.fixture(params=[(1280, 900), (375, 740)], ids=["desktop", "phone"])
def browser_page(request, chromium):
    """A browser context of its own (no cookies, storage or cache of any other test) at the width of `params`."""
    width, height = request.param
    context = chromium.new_context(viewport={"width": width, "height": height})
    try:
        outside = confine(context)
        context.add_init_script(WATCH)
        page = context.new_page()
        page.errors = []
        page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.outside_requests = outside
        yield page
    finally:
        context.close()


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth")


def test_sign_in_by_a_mailed_link_see_your_games_and_choose_a_channel(tmp_path, browser_page):
    page = browser_page
    with serving(str(tmp_path / "players.sqlite3")) as (app, outbox, url):
        service = app.extensions["hexledger_service"]()
        games = {}
        for name, players in (("mine", {"red": ANN, "blue": BOB}), ("theirs", {"red": BOB, "blue": ANN})):
            game_id, tokens = service.setup.create("skirmish", players)
            for side, token in tokens.items():
                service.setup.join(service.seats.authenticate(game_id, token), side)
            games[name] = game_id

        page.goto(f"{url}/players/", wait_until="commit")
        expect(page.locator("#sign-in h2")).to_have_text("Sign in")
        page.keyboard.press("Tab")  # the header's link, then the address, by keyboard alone
        page.keyboard.press("Tab")
        expect(page.locator("#email")).to_be_focused()
        page.keyboard.type(ANN)
        page.keyboard.press("Enter")
        expect(page.locator("#answer")).to_contain_text("a sign-in link is on its way")
        mailed = [m for m in outbox.sent if m["To"] == ANN and "Sign in" in m["Subject"]]
        assert len(mailed) == 1
        link = re.search(r"(http://127\.0\.0\.1:\d+/players/sign-in\?key=\S+)", body_text(mailed[0])).group(1)

        page.goto(link, wait_until="commit")
        page.locator("#sign-in-button").focus()
        page.keyboard.press("Enter")
        expect(page.locator("#summary")).to_have_text("Your turn in 1 of 2 game(s).")
        assert page.url == f"{url}/players/"
        mine = page.locator(f"li.game[data-game='{games['mine']}']")
        theirs = page.locator(f"li.game[data-game='{games['theirs']}']")
        expect(mine).to_have_attribute("data-state", "mine")
        expect(mine.locator(".turn")).to_contain_text("Your turn: turn 1, red movement step")
        expect(theirs).to_have_attribute("data-state", "theirs")
        expect(theirs.locator(".turn")).to_contain_text("red to act")
        assert no_sideways_scroll(page)

        mine.locator("input[name='url']").fill("ntfy://ann-plays-skirmish")
        mine.locator("button[name='set']").click()
        expect(page.locator("#message")).to_contain_text("your turn is told on ntfys://ann-plays-skirmish")
        expect(page.locator(f"li.game[data-game='{games['mine']}'] .shown")).to_have_text(
            "ntfys://ann-plays-skirmish")
        assert service.store.channels(games["mine"]) == {"red": "ntfy://ann-plays-skirmish"}

        assert page.errors == []
        page.locator(f"li.game[data-game='{games['mine']}'] input[name='url']").fill("file:///etc/passwd")
        page.locator(f"li.game[data-game='{games['mine']}'] button[name='set']").click()
        expect(page.locator("#message")).to_contain_text("not a notification URL this server reads (file://)")
        # the refusal is a 400 page, which Chromium's console notes as such: that one, and nothing else
        assert page.errors == ["Failed to load resource: the server responded with a status of 400 (BAD REQUEST)"]
        page.errors.clear()
        page.locator(f"li.game[data-game='{games['mine']}'] button[name='off']").click()
        expect(page.locator(f"li.game[data-game='{games['mine']}'] .shown")).to_have_text("by email only")
        assert service.store.channels(games["mine"]) == {}
        assert no_sideways_scroll(page)

        page.locator("#sign-out").click()
        expect(page.locator("#sign-in h2")).to_have_text("Sign in")
        assert page.evaluate("window.violations") == []
        assert page.errors == [] and page.outside_requests == []
