"""A player who plays through the play page by clicks only (no typed order), for the browser tests and the bench.

The real app serves through waitress on 127.0.0.1 (tests/replay/test_browser.py `serving`); each seat has a browser
context of its own (its own cookies) signed in by its play link. A player looks at what its page offers and clicks:
a decision's first candidate (a hex of it on the map where it names one), a counter on the map and then a hex the
page marked for it, a hex the page marked as a target, or a button; then "send". Every wait is on a condition the
page sets (data-interactive, data-seq, data-your-turn, data-selected, data-composed, data-previewed); the timeout
only bounds a hang."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from playwright.sync_api import Browser, CDPSession, Page

from tests.browsing import CHROMIUM, FLAGS, confine  # noqa: F401  (CHROMIUM, FLAGS: the browser the play tests drive)

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 740}

# every Content-Security-Policy violation the page reports, recorded before any script of the page runs
WATCH = """window.violations = [];
document.addEventListener("securitypolicyviolation", (e) => window.violations.push(e.violatedDirective));"""

# the screen point at the centre of a hex (or near it) that the page takes for a click on that hex, or null
HEX_POINT = """(label) => {
  const box = document.getElementById("map").getBoundingClientRect();
  const poly = document.querySelector('#map .terrain polygon[data-hex="' + label + '"]');
  if (!poly) return null;
  const r = poly.getBoundingClientRect();
  for (const [dx, dy] of [[0, 0], [0, 0.3], [0, -0.3], [0.25, 0], [-0.25, 0]]) {
    const x = r.left + r.width * (0.5 + dx), y = r.top + r.height * (0.5 + dy);
    if (x < box.left + 2 || x > box.right - 2 || y < box.top + 2 || y > box.bottom - 2) continue;
    // the page's rule (map.js pointedAt): the topmost thing drawn there that belongs to a hex
    const hit = document.elementsFromPoint(x, y).find((el) => el.closest("#map [data-hex]"));
    const at = hit && hit.closest("[data-hex]");
    if (at && at.getAttribute("data-hex") === label) return {x: x, y: y};
  }
  return null;
}"""

SENT = """(old) => document.body.dataset.seq !== old && !document.body.dataset.busy
  || !document.getElementById("refusal").hidden"""


@dataclass
class Seat:
    """One player's browser page, signed in to one seat."""

    side: str
    page: Page
    errors: list[str] = field(default_factory=list)
    navigations: list[str] = field(default_factory=list)
    orders: list[str] = field(default_factory=list)  # every order this page sent, as it sent it
    devtools: CDPSession | None = None
    frozen: bool = False

    def away(self) -> None:
        """The player is elsewhere while the other side plays (or the test's API drives the game): the page's
        script is held (the DevTools debugger paused), as a browser holds a page in the background, so neither its
        2 s poll nor a reading under way runs meanwhile. Left running, a waiting page read the game and drew its map
        again at each poll the game had moved by: in the every-kind tests, about 45% of all the maps drawn."""
        if not self.frozen:
            self.devtools.send("Debugger.enable")
            self.devtools.send("Debugger.pause")  # at the page's next statement: its next timer, event or answer
            self.frozen = True

    def back(self) -> None:
        """The player is back: the page's script runs again, and a poll that fell due meanwhile runs at once."""
        if self.frozen:
            self.devtools.send("Debugger.disable")  # resumed, or the pause asked for no longer pending
            self.frozen = False


def open_seat(browser: Browser, url: str, game_id: str, side: str, key: str, viewport: dict) -> Seat:
    """A browser context of its own for `side`, signed in by its play link, with nothing asked of any other host."""
    context = browser.new_context(viewport=viewport, device_scale_factor=1, has_touch=viewport["width"] < 500)
    confine(context)
    page = context.new_page()
    seat = Seat(side, page, devtools=context.new_cdp_session(page))
    page.add_init_script(WATCH)
    page.on("pageerror", lambda exc: seat.errors.append(f"pageerror: {exc}"))
    page.on("console", lambda m: seat.errors.append(f"console: {m.text}") if m.type == "error" else None)
    page.goto(f"{url}/play/{game_id}/?key={key}", wait_until="commit")
    page.wait_for_selector("body[data-interactive='1']")
    assert page.url == f"{url}/play/{game_id}/"  # the key left the address bar
    page.on("framenavigated", lambda frame: seat.navigations.append(frame.url) if frame == page.main_frame else None)
    return seat


def take_seat(seat: Seat) -> None:
    """Take the seat from the page (the invitation's `join`): no words of the player's, the server makes them."""
    page = seat.page
    page.wait_for_selector("#join:not([hidden])")
    old = page.locator("body").get_attribute("data-seq")
    page.click("#join button[type=submit]")
    # the page read after its own join: the join form gone (the head may have moved first by the other seat's join,
    # which the page's poll can read before the answer to this one)
    page.wait_for_function("(old) => document.body.dataset.seq !== old && document.getElementById('join').hidden",
                           arg=old)


WIDER = """(width) => [...document.querySelectorAll("body *")]
  .filter((el) => el.getBoundingClientRect().right > width)
  .map((el) => el.tagName + (el.id ? "#" + el.id : "") + " " + (typeof el.className === "string" ? el.className
    : ""))"""


def fits(page: Page, width: int) -> None:
    """Nothing wider than the screen: no sideways scrolling (the elements that stick out, if any)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.evaluate(WIDER, width)[:10]


def clean(seat: Seat) -> None:
    """No script error, no console error, no Content-Security-Policy violation, no reload."""
    seat.back()
    assert seat.errors == [], seat.errors
    assert seat.page.evaluate("window.violations") == []
    assert seat.navigations == [], seat.navigations


def hex_point(page: Page, label: str) -> dict | None:
    point = page.evaluate(HEX_POINT, label)
    if point is None:  # off screen or covered: the map's "action" brings what the page is about back on screen
        page.click("#map-tools button[data-view='action']")
        point = page.evaluate(HEX_POINT, label)
    return point


def click_hex(page: Page, labels: list[str]) -> str | None:
    """Click the first of `labels` the pointer can reach on the map; the label clicked, or None."""
    for label in labels:
        point = hex_point(page, label)
        if point is not None:
            page.mouse.click(point["x"], point["y"])
            return label
    return None


def marked(page: Page, cls: str) -> list[str]:
    """The hexes the page marked on the map with `cls` (may-act, reach, target, selected, chosen)."""
    return page.eval_on_selector_all(f"#map polygon.{cls}", "(ps) => ps.map((p) => p.getAttribute('data-hex'))")


def send(seat: Seat) -> str:
    """Send the composed order (its text as the page shows it) and wait for the page to show the game after it."""
    page = seat.page
    order = page.locator("body").get_attribute("data-composed")
    assert order and page.locator("#order-text").inner_text() == order  # shown as written, before it goes
    old = page.locator("body").get_attribute("data-seq")
    page.click("#send")
    page.wait_for_function(SENT, arg=old)
    assert page.locator("#refusal").is_hidden(), page.locator("#refusal").inner_text()
    seat.orders.append(order)
    return order


@dataclass
class Budget:
    """How many orders a player gives in a step before it ends the step, when it may."""

    per_step: int = 2
    given: dict = field(default_factory=dict)

    def spend(self, step: str) -> bool:
        self.given[step] = self.given.get(step, 0) + 1
        return self.given[step] <= self.per_step


def compose_by_clicks(seat: Seat, budget: Budget) -> str:
    """Point and click the next order on `seat`'s page (its turn): returns how it was reached."""
    page = seat.page
    step = page.locator("#status .turn").inner_text()
    owed = page.locator("#owed").is_visible()
    acting = budget.spend(step)
    if owed:
        hexes = marked(page, "reach")
        if hexes and click_hex(page, hexes):  # a retreat or an advance: its hex on the map
            page.wait_for_selector("body[data-composed]")
            return "decision on the map"
        page.locator("#choices button.order").first.click()
        return "decision"
    ends = page.locator("#choices button.order.end")
    if not acting and ends.count():
        ends.first.click()
        return "end"
    targets = marked(page, "target")
    clicked = targets and click_hex(page, targets)
    if clicked:  # an attack or a landing: the hex on the map, then its order
        page.wait_for_selector("body[data-composed], body[data-selected]")
        if not page.locator("body[data-composed]").count():  # the counters in it first: the hex again, for its
            click_hex(page, [clicked])  # orders (Olympic ruling R24)
            page.wait_for_selector("body[data-composed]")
        if page.locator(f"#map text.target-label[data-hex='{clicked}']").count():  # its odds on the map: a preview
            order = page.locator("body").get_attribute("data-composed")
            page.wait_for_selector(f"body[data-previewed='{order}']")
            if page.locator("#no-preview").is_visible():  # the rules give none here, and say why (Formosa F85)
                assert re.search(r"\(\w+ [\d.]+.*\)", page.locator("#no-preview").inner_text())
            else:  # strengths, the column, the result for every die
                assert page.locator("#preview-dice li").count() >= 6 and page.locator("#preview-column").inner_text()
                assert ":" in page.locator("#preview-strengths").inner_text()
        return "target on the map"
    pieces = [p for p in page.eval_on_selector_all("#choices button.piece", "(bs) => bs.map((b) => b.dataset.piece)")]
    on_map = marked(page, "may-act")
    for hexes in ([h] for h in on_map):  # a counter on the map, then a hex marked for it
        if click_hex(page, hexes):
            page.wait_for_selector("body[data-selected]")
            page.wait_for_selector("#selection button.order")
            reach = marked(page, "reach") + marked(page, "target")
            if reach and click_hex(page, reach):
                page.wait_for_selector("body[data-composed]")
                return "counter and hex on the map"
            page.locator("#selection button.order").first.click()
            return "counter on the map"
    if pieces:  # a counter off the map (a reinforcement): its button, then a hex on the map
        page.click(f"#choices button.piece[data-piece='{pieces[0]}']")
        page.wait_for_selector(f"body[data-selected='{pieces[0]}']")
        reach = marked(page, "reach") + marked(page, "target")
        if reach and click_hex(page, reach):
            page.wait_for_selector("body[data-composed]")
            return "reinforcement onto the map"
        page.locator("#selection button.order").first.click()
        return "reinforcement"
    plain = page.locator("#choices button.order:not(.end)")
    if plain.count():
        plain.first.click()
        return "button"
    ends.first.click()
    return "end"


def keep_shot(page: Page, name: str) -> None:
    """`KEEP_SHOTS=DIR`: keep a screenshot of the page in DIR (docs/images holds those the guide shows): from its
    top, the map and the order composed under it."""
    if os.environ.get("KEEP_SHOTS"):
        size = page.viewport_size
        bottom = page.evaluate("document.getElementById('compose').getBoundingClientRect().bottom + scrollY")
        page.screenshot(path=os.path.join(os.environ["KEEP_SHOTS"], name), full_page=True,
                        clip={"x": 0, "y": 0, "width": size["width"], "height": max(size["height"], bottom + 10)})


def ask_again(page: Page) -> None:
    """The page reads the game again now, as when its player comes back to the tab (it asks at once when it is
    shown: the same reading, with the state's ETag, as its poll every 2 s), rather than at its next poll."""
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")


def look_again(seat: Seat, seq: int) -> None:
    """The page shows the game at event `seq` and the seat's turn, asked again now (`ask_again`)."""
    seat.back()
    page = seat.page
    ask_again(page)
    page.wait_for_selector(f"body[data-seq='{seq}'][data-your-turn='1']:not([data-busy])")


def compose_kind(seat: Seat, action: str) -> str:
    """Point and click an order of the kind `action` on `seat`'s page: the first choice the page lists under that
    kind (a decision's button, a counter or a hex), and where the counter or hex has orders of several kinds, the
    first of this one. Returns the order composed."""
    page = seat.page
    page.locator(f"#choices .kind[data-kind='{action}'] button").first.click()
    page.wait_for_selector("body[data-composed], body[data-selected]")
    composed = page.locator("body").get_attribute("data-composed")
    if composed is None or composed.split()[0] != action:
        page.wait_for_selector("#selection-orders button.order")
        page.locator(f"#selection-orders button.order[data-order^='{action} '], "
                     f"#selection-orders button.order[data-order='{action}']").first.click()
        page.wait_for_function("(a) => (document.body.dataset.composed || '').split(' ')[0] === a", arg=action)
    return page.locator("body").get_attribute("data-composed")
