"""The play page in a real headless Chromium (Debian's /usr/bin/chromium driven by Playwright), through the real app
on waitress (issue 28; docs/playing-in-the-browser.md).

Each seat opens its play link in a browser context of its own and plays by clicks only, never a typed order
(tests/play/clicking.py): a whole SNC Game-Turn for both sides, and a Formosa invasion turn (Game-Turn 1, the set-up
given through the API before it), at a desktop's width and at a phone's (375 px). Every order the page sends is the
text it showed, and the history the API gives that side ends with it. The side that waits sees the other's moves
without a reload (its page asks with the state's ETag), and its map draws exactly what its view shows. Then a pass
by the keyboard alone. No script error, no console error, no Content-Security-Policy violation, no request off this
server, no reload."""
from __future__ import annotations

import pytest
from playwright.sync_api import sync_playwright

from tests.play.clicking import (
    CHROMIUM,
    DESKTOP,
    FLAGS,
    PHONE,
    Budget,
    clean,
    compose_by_clicks,
    keep_shot,
    open_seat,
    send,
)
from tests.replay.test_browser import serving

pytestmark = [pytest.mark.browser, pytest.mark.slow]
UNLIMITED = "100000 per minute"  # the tests click faster than a player: the rate limits are not what they test
DRAWN = "() => [...document.querySelectorAll('#map g.units .counter')].map((c) => c.dataset.unit).sort()"


@pytest.fixture
def server(store):
    with serving(store, UNLIMITED, HEXLEDGER_RATE_LIMIT=UNLIMITED) as served:
        yield served


@pytest.fixture
def browser():
    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield launched
        launched.close()


class Game:
    """A game on the served app, its seats' tokens, and the API as each seat (the referee of the test)."""

    def __init__(self, server, rules: str, players: dict[str, str], scenario: str | None = None):
        self.client = server.app.test_client()
        r = self.client.post("/games", json={"rules": rules, "scenario": scenario, "players": players})
        assert r.status_code == 201, r.json
        self.id, self.tokens = r.json["game_id"], r.json["tokens"]
        self.sides = list(players)
        for side in self.sides:
            r = self.client.post(f"/games/{self.id}/join", json={"seed_text": side}, headers=self.auth(side))
            assert r.status_code == 201, r.json
        self.seats = server.app.extensions["hexledger_service"]().seats

    def auth(self, side: str) -> dict:
        return {"Authorization": f"Bearer {self.tokens[side]}"}

    def get(self, side: str, path: str) -> dict:
        r = self.client.get(f"/games/{self.id}{path}", headers=self.auth(side))
        assert r.status_code == 200, r.json
        return r.json

    def order(self, side: str, text: str) -> None:
        r = self.client.post(f"/games/{self.id}/orders", json={"order": text}, headers=self.auth(side))
        assert r.status_code == 201, r.json

    def last_order(self, side: str) -> str:
        events = self.get(side, "/history?limit=1000")["events"]
        return [e["text"] for e in events if e["type"] == "core.OrderGiven"][-1]


def play_by_clicks(game: Game, seats: dict, turn_done, budget: Budget, shots: dict | None = None,
                   limit: int = 250) -> list[tuple[str, str]]:
    """Until `turn_done(view)`: the side the game waits for clicks its next order on its own page; each order is
    then the last in the history that side reads. Returns (side, how the order was reached) for each. `shots`:
    how an order was reached -> the screenshot to keep (KEEP_SHOTS) of the first such order, before it is sent."""
    played, seen_by, shots = [], {}, dict(shots or {})
    for _ in range(limit):
        first = game.sides[0]
        state = game.get(first, "/state")
        if turn_done(state["view"]):
            return played
        side = game.get(first, "/actions")["to_act"]
        seat = seats[side]
        # the page caught up by itself (no reload): the head, and its turn
        seat.page.wait_for_selector(f"body[data-seq='{state['seq']}'][data-your-turn='1']")
        if seen_by.get(side) != state["seq"] - 1:  # the other side moved since this page last acted: its fog
            view = game.get(side, "/state")["view"]
            assert seat.page.evaluate(DRAWN) == sorted(u["id"] for u in view["units"] if u.get("hex"))
        how = compose_by_clicks(seat, budget)
        if how in shots:
            keep_shot(seat.page, shots.pop(how))
        order = send(seat)
        assert game.last_order(side) == f"{side} orders: {order}", how
        seen_by[side] = game.get(side, "/state")["seq"]
        played.append((side, how))
    raise AssertionError(f"the turn did not end in {limit} orders: {played[-10:]}")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_whole_snc_game_turn_for_both_sides_by_clicks(server, browser, viewport):
    game = Game(server, "snc", {"chinese": "c@x.example", "japanese": "j@x.example"})
    seats = {side: open_seat(browser, server.url, game.id, side, game.seats.play_key(game.id, side), viewport)
             for side in game.sides}
    phone = viewport is PHONE
    shots = ({"target on the map": "play-snc-phone.png"} if phone else
             {"target on the map": "play-snc-attack.png", "counter and hex on the map": "play-snc-move.png"})
    played = play_by_clicks(game, seats, lambda view: view["turn"] >= 2, Budget(per_step=2), shots)

    hows = {how for _, how in played}
    assert {side for side, _ in played} == {"chinese", "japanese"}
    assert {"counter and hex on the map", "target on the map", "end"} <= hows, hows  # moves, attacks on the map
    assert "reinforcement onto the map" in hows, hows  # SNC 8.2 places, 8.4 lands: a hex on the map
    for side, seat in seats.items():
        orders = [e["text"] for e in game.get(side, "/history?limit=1000")["events"]
                  if e["type"] == "core.OrderGiven" and e["text"].startswith(f"{side} orders: ")]
        assert orders == [f"{side} orders: {o}" for o in seat.orders]  # every order it gave came from its page
        assert seat.page.locator("#receipt-text").text_content()  # the receipt of the chain's head, shown
        if phone:  # nothing wider than the screen: no sideways scrolling
            assert seat.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        clean(seat)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_formosa_invasion_turn_by_clicks(server, browser, viewport):
    """Formosa 6.1: Game-Turn 1, strike planning to the Japanese Combat Phase, the Allied invasion (10.0) landing
    on a hex clicked on the map; the set-up (3.0) given through the API first."""
    game = Game(server, "formosa", {"allied": "a@x.example", "japanese": "j@x.example"}, scenario="1")
    first = ("roll", "deploy default", "buy 1 amphibious")  # the Allies buy their landing craft (10.1)
    for _ in range(200):  # the set-up: the default deployment, every group chosen, no reconnaissance
        prompt = game.get("japanese", "/actions")
        side = prompt["to_act"]
        if side is None or "Game-Turn" in prompt["step"]:
            break
        orders = [o["order"] for o in game.get(side, "/actions")["legal_orders"]]
        pick = next((o for o in orders if o in first or o.startswith("choose")),
                    "end" if "end" in orders else orders[0])  # spending LP down to what may be kept (24.1)
        game.order(side, pick)
    seats = {side: open_seat(browser, server.url, game.id, side, game.seats.play_key(game.id, side), viewport)
             for side in game.sides}
    phone = viewport is PHONE
    shots = {"target on the map": "play-formosa-phone.png" if phone else "play-formosa-landing.png"}
    played = play_by_clicks(game, seats, lambda view: view["turn"] >= 2, Budget(per_step=1), shots)

    landed = [e["text"] for e in game.get("allied", "/history?limit=1000")["events"]
              if e["text"].startswith("allied orders: land ")]
    assert landed, "no landing was ordered"  # Formosa 10.1: the invasion, by a hex clicked on the map
    assert ("allied", "target on the map") in played
    for seat in seats.values():
        clean(seat)


def tab_to(page, selector: str, limit: int = 300) -> None:
    """Press Tab until the focus is on an element matching `selector` (and shows that it is)."""
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_the_keyboard_alone_plays_orders_of_every_kind(server, browser):
    """No pointer at all: Tab to a choice, Enter; the order is written out and the focus is on "send", Enter. A
    declaration, a move (a counter, then its destination), the end of two phases, an attack with its preview; the
    map zooms, pans and fits by its keys, and Escape takes a composed order back before it goes."""
    game = Game(server, "snc", {"chinese": "c@x.example", "japanese": "j@x.example"})
    seat = open_seat(browser, server.url, game.id, "chinese", game.seats.play_key(game.id, "chinese"), DESKTOP)
    page = seat.page

    def enter_and_send(kind: str) -> str:
        page.keyboard.press("Enter")
        page.wait_for_selector("body[data-composed]")
        assert page.evaluate("document.activeElement.id") == "send"  # the order is written out: send it, or not
        order = page.locator("body").get_attribute("data-composed")
        if kind == "attack":
            page.wait_for_selector(f"body[data-previewed='{order}'] #preview-dice li")
        old = page.locator("body").get_attribute("data-seq")
        page.keyboard.press("Enter")
        page.wait_for_function("(old) => document.body.dataset.seq !== old && !document.body.dataset.busy", arg=old)
        assert game.last_order("chinese") == f"chinese orders: {order}", kind
        return order

    tab_to(page, "button[data-order='declare move fight']")
    enter_and_send("declaration")
    tab_to(page, "#choices button.piece")
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-selected]")
    tab_to(page, "#selection button.order")
    assert enter_and_send("move").startswith("move ")
    zoom = float(page.locator("body").get_attribute("data-zoom"))
    page.keyboard.press("+")
    page.wait_for_function("(z) => Number(document.body.dataset.zoom) > z", arg=zoom)
    box = page.locator("#map svg").get_attribute("viewBox")
    page.keyboard.press("d")
    page.wait_for_function("(b) => document.querySelector('#map svg').getAttribute('viewBox') !== b", arg=box)
    page.keyboard.press("0")
    page.wait_for_function("(z) => Number(document.body.dataset.zoom) < z", arg=zoom)
    tab_to(page, "#choices button.order.end")
    enter_and_send("end")
    tab_to(page, "#choices button.order.end")  # SNC 8.2: no Chinese reinforcement is due on GT 1
    enter_and_send("end")
    tab_to(page, "#choices button.target")  # the Second Operations Phase, for combat: an attack
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-composed]")
    page.keyboard.press("Escape")  # taken back before it went: nothing is sent
    page.wait_for_selector("body:not([data-composed])")
    tab_to(page, "#selection button.order")
    assert enter_and_send("attack").startswith("attack ")
    clean(seat)
