"""The replay page in a real headless Chromium (Debian's /usr/bin/chromium driven by Playwright).

The real app (create_app, as `cli.py serve` builds it) through waitress on 127.0.0.1 serves a finished skirmish
game; the test steps to a combat with the keyboard, reads the combat panel, steps back and takes a screenshot.
A game in progress is opened by a player's email link (its key becomes an HttpOnly cookie) and by a token typed
into the page's form, each showing only that side. Every wait is on a condition the page sets (data-ready,
data-seq, a counter drawn); the timeout only bounds a hang, it is no speed limit (a busy machine may be slow).
"""
import os
import re
import socket
import struct
import threading
from contextlib import contextmanager
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from app.events.registry import decode
from app.mail.transport import MailConfig
from app.projections import replay
from app.rules.catalog import installed
from app.web import create_app
from tests.browsing import chromium_for_a_module, confine, waitress_thread
from tests.outbox import Outbox
from tests.replay.conftest import foggy, import_real

CATALOG = installed()  # the rule sets installed here

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@contextmanager
def serving(store, replay_limit: str, **config):
    """The real app on the test's database, through waitress (the production WSGI server) on 127.0.0.1; `config`:
    more of create_app's settings."""
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_REPLAY_RATE_LIMIT": replay_limit,
                      "HEXLEDGER_DB": store.path, "MAIL_TRANSPORT": Outbox(), "MAIL": MailConfig(), **config})
    with waitress_thread(app) as port:
        yield SimpleNamespace(url=f"http://127.0.0.1:{port}", app=app)


@pytest.fixture
def server(store, catalog):
    # creating games and the viewer's rate limit (test_the_viewer_waits_out_the_rate_limit) are not what most tests
    # test: stepping a whole game fetches two map pictures a step, more than the default 600 a minute when the
    # machine is fast
    with serving(store, "100000 per minute", CATALOG=catalog) as served:
        yield served


@pytest.fixture(scope="module")
def chromium():
    """The test process's Chromium (tests/browsing.py `shared_chromium`); each test has a context of its own."""
    with chromium_for_a_module() as launched:
        yield launched


@pytest.fixture
def page(chromium):
    """A fresh browser context of the module's Chromium: no cookies, storage or cache of any other test."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    # a bound on a hang, not a speed check: navigation waits only for the response to start (goto's
    # wait_until="commit") and each test then waits for the page to say it is ready; nothing but the test server
    outside = confine(context)
    page = context.new_page()
    page.outside_requests = outside
    yield page
    context.close()


def test_step_to_a_combat_with_the_keyboard_and_back(store, finished, server, page, tmp_path):
    attack = next(e for e in store.events(finished) if e.type == "skirmish.AttackResolved")
    body = decode(attack.type, attack.version, attack.payload)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(f"{server.url}/replay/{finished}/", wait_until="commit")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#map svg .counter")
    assert page.locator("#event-seq").inner_text() == "#1"

    for _ in range(attack.seq - 1):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"body[data-seq='{attack.seq}'][data-map-seq='{attack.seq}']")
    assert page.locator("#map .combat-target").get_attribute("data-hex") == body.hex  # outlined on the map
    assert page.locator("#map .counter.attacker").count() == len(body.attackers)
    assert page.locator("#combat").is_visible()
    assert page.locator("#combat-odds").inner_text() == body.column
    assert page.locator("#combat-roll").inner_text() == str(body.roll)
    assert page.locator("#combat-result").inner_text() == body.result
    assert page.locator("#combat-strengths").inner_text() == f"{body.attack} : {body.defence}"
    assert page.locator("#combat-dist .rolled").inner_text() == f"{body.roll}: {body.result}"
    assert page.locator("#history li.current").inner_text().startswith(f"attack on {body.hex}")

    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"body[data-seq='{attack.seq - 1}']")
    assert not page.locator("#combat").is_visible()
    assert page.locator("#event-text").inner_text().startswith("die roll")

    page.keyboard.press("End")
    last = store.head(finished)[0]
    page.wait_for_selector(f"body[data-seq='{last}']")
    page.keyboard.press("Home")
    page.wait_for_selector("body[data-seq='1']")
    page.keyboard.press("Shift+ArrowRight")  # next phase: red's first movement step ends
    page.wait_for_selector("body:not([data-seq='1'])")
    seq = int(page.locator("body").get_attribute("data-seq"))
    assert page.locator("#turn-label").inner_text().lower() == "turn 1, red combat step" and seq > 2
    page.keyboard.press("ArrowDown")  # next turn
    expect(page.locator("#counter")).to_have_text(re.compile("turn 2$"))
    page.wait_for_selector("#charts figure[data-chart='luck']")

    shot = tmp_path / "replay.png"
    page.screenshot(path=str(shot), full_page=True)
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    width, height = struct.unpack(">II", data[16:24])
    assert width == 1280 and height >= 900
    assert errors == []
    assert page.outside_requests == []


def test_a_finished_snc_game_in_the_browser(store, real_games, server, page, tmp_path):
    """SNC's 39x25 map, End then Home, the keyboard to the first combat: the panel shows the stored odds, column
    and die (SNC 10.3-10.5)."""
    game_id = import_real(store, real_games, "snc")
    events = list(store.events(game_id))
    attack = next(e for e in events if e.type == "snc.CombatResolved")
    body = decode(attack.type, attack.version, attack.payload)
    frames = replay.build(store, CATALOG, game_id, None).frames
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(f"{server.url}/replay/{game_id}/", wait_until="commit")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#map svg .counter")
    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-seq='{events[-1].seq}']")
    page.keyboard.press("Home")
    page.wait_for_selector("body[data-seq='1']")

    # whole turns while the next turn still starts before the combat, then one event at a time
    index = 0
    target = next(i for i, f in enumerate(frames) if f.seq == attack.seq)
    while True:
        nxt = next((i for i in range(index, len(frames)) if frames[i].turn != frames[index].turn), None)
        if nxt is None or nxt > target:
            break
        page.keyboard.press("ArrowDown")
        index = nxt
    for _ in range(target - index):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"body[data-seq='{attack.seq}'][data-map-seq='{attack.seq}']")
    assert page.locator("#combat").is_visible()
    assert page.locator("#combat-odds").inner_text() == body.odds
    assert page.locator("#combat-column").inner_text() == body.column
    assert page.locator("#combat-roll").inner_text() == str(body.roll)
    assert page.locator("#combat-result").inner_text() == body.result
    assert page.locator("#combat-dist .rolled").inner_text() == f"{body.roll}: {body.result}"
    assert page.locator("#map .combat-target").get_attribute("data-hex") == body.hex
    page.wait_for_selector("#charts figure[data-chart='luck']")

    shot = tmp_path / "snc.png"
    page.screenshot(path=str(shot), full_page=True)
    if os.environ.get("KEEP_SHOTS"):  # a directory to keep the screenshot in, to look at it
        shot.replace(os.path.join(os.environ["KEEP_SHOTS"], "snc.png"))
    assert errors == []
    assert page.outside_requests == []


@foggy
def test_a_game_in_progress_shows_a_player_only_their_side(server, page):
    """Red opens the link of a game email: the key leaves the address for an HttpOnly cookie, and every frame and
    map shows red's side only. Without the cookie the page asks for a token; blue's, typed in, shows blue's."""
    client = server.app.test_client()
    r = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"}})
    game_id, tokens = r.json["game_id"], r.json["tokens"]
    for seat, order in [("red", None), ("blue", None), ("red", "move R1 0202"), ("red", "end"), ("red", "end"),
                        ("blue", "move B3 0604"), ("blue", "end")]:
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        r = (client.post(f"/games/{game_id}/join", json={"seed_text": seat}, headers=headers) if order is None
             else client.post(f"/games/{game_id}/orders", data=order, content_type="text/plain", headers=headers))
        assert r.status_code == 201, r.json
    key = server.app.extensions["hexledger_service"]().seats.replay_key(game_id, "red")
    failed, errors = [], []
    page.on("response", lambda resp: failed.append(f"{resp.status} {resp.url}") if resp.status >= 400 else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(f"{server.url}/replay/{game_id}/?key={key}", wait_until="commit")
    page.wait_for_selector("body[data-ready='1']")
    assert page.url == f"{server.url}/replay/{game_id}/"  # the sign-in page took the key out of the address
    assert page.locator("#viewer").inner_text() == "as red sees it"
    assert page.evaluate("document.cookie") == ""  # HttpOnly: no script on the page can read the key
    page.keyboard.press("End")
    last = page.locator("#history li").last.get_attribute("value")
    page.wait_for_selector(f"body[data-map-seq='{last}']")
    assert page.locator("#map .counter[data-side='red']").count() == 3
    assert page.locator("#map .counter[data-side='blue']").count() == 0  # far from every red unit: fog
    assert page.locator("#history li.hidden").count() >= 1
    assert "0604" not in page.locator("#history").inner_text()
    for _ in range(6):  # step back through hidden runs: every map the page asks for is one red may see
        page.keyboard.press("ArrowLeft")
    page.wait_for_selector("body[data-map-seq]:not([data-map-seq='" + last + "'])")
    page.wait_for_selector("#charts figure[data-chart='luck']")
    assert failed == [] and errors == []

    page.context.clear_cookies()
    page.goto(f"{server.url}/replay/{game_id}/", wait_until="commit")
    expect(page.locator("#error-text")).to_contain_text("in progress")
    page.fill("input[name='token']", tokens["blue"])
    page.click("button[type='submit']")
    page.wait_for_selector("body[data-ready='1']")
    assert page.url == f"{server.url}/replay/{game_id}/"
    assert page.locator("#viewer").inner_text() == "as blue sees it"
    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-map-seq='{last}']")
    assert page.locator("#map .counter[data-unit='B3']").count() == 1
    assert "0604" in page.locator("#history").inner_text()  # blue's own move, in full
    assert page.locator("#map .counter[data-side='red']").count() == 0
    assert page.outside_requests == []


def test_a_request_to_any_other_address_never_leaves_the_browser_and_is_recorded(page):
    """The bound every browser test's pages keep and assert (tests/browsing.py `confine`): a page asking anything
    of another address than the test server's, 127.0.0.1 (a host name, a public address, even another loopback
    address, where this test listens), gets nothing, and the address is recorded; nothing reaches the listener."""
    listener = socket.create_server(("127.0.0.2", 0))
    reached: list[bytes] = []

    def answer() -> None:  # what reaches it is recorded and closed at once (the page's load never hangs on it)
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:  # shut down: the test is over
                return
            with conn:
                reached.append(conn.recv(100))

    accepting = threading.Thread(target=answer, daemon=True)
    accepting.start()
    port = listener.getsockname()[1]
    asked = [f"http://127.0.0.2:{port}/a.png", f"http://localhost:{port}/b.png", "http://example.org/c.png",
             "https://192.0.2.1/d.png"]
    try:
        page.set_content("".join(f'<img src="{url}" alt="">' for url in asked), wait_until="load")
    finally:
        listener.shutdown(socket.SHUT_RDWR)
        listener.close()
        accepting.join(5)
    assert reached == []
    assert sorted(page.outside_requests) == sorted(asked)


def test_the_api_reference_at_docs_draws_every_route_from_this_server_alone(server, page):
    """Issue 14: /docs is an interactive reference (Swagger UI, vendored) with request and response bodies, run
    under the page's Content-Security-Policy, asking nothing of any other host."""
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server.url + "/docs", wait_until="commit")
    expect(page.locator(".opblock-summary-path[data-path='/games/{game_id}/preview']")).to_be_visible()
    page.locator(".opblock-summary-path[data-path='/games/{game_id}/preview']").click()
    body = page.locator(".opblock-body").first  # the request body (an order) and the response body (a preview)
    expect(body).to_contain_text('"expected_seq"')
    expect(body).to_contain_text('"preview"')
    assert page.outside_requests == [] and not [e for e in errors if "Content Security Policy" in e]


# every text the map box showed instead of a map, recorded as it appears (a wait is shown for a second or more)
RECORD_MAP_TEXTS = """
window.mapTexts = [];
new MutationObserver(() => {
  const p = document.querySelector("#map > p.empty");
  if (p && window.mapTexts[window.mapTexts.length - 1] !== p.textContent) window.mapTexts.push(p.textContent);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def test_the_viewer_waits_out_the_rate_limit_and_then_draws_the_map(store, finished, page):
    """Stepping faster than the viewer's rate limit allows gets 429 with Retry-After: the page says it is waiting,
    sends nothing more until then, and draws the map of the step it is on once the wait is over (it used to say
    "map unavailable" for good). The limit is low here so that it trips: the page itself takes about ten requests."""
    with serving(store, "14 per 10 seconds") as server:
        answers = []
        page.on("response", lambda r: answers.append((r.status, r.url)) if "/replay/" in r.url else None)
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.add_init_script(RECORD_MAP_TEXTS)
        page.goto(f"{server.url}/replay/{finished}/", wait_until="commit")
        page.wait_for_selector("body[data-ready='1']")
        last = store.head(finished)[0]
        seq = "1"
        # step while each map arrives, until the server has answered a map request with 429
        while not any(status == 429 and "/map/" in url for status, url in answers) and seq != str(last):
            page.wait_for_selector(f"body[data-map-seq='{seq}']")
            page.keyboard.press("ArrowRight")
            seq = page.locator("body").get_attribute("data-seq")
        page.keyboard.press("ArrowRight")  # one step more, while the page waits
        seq = page.locator("body").get_attribute("data-seq")
        page.wait_for_selector(f"body[data-map-seq='{seq}'] #map svg .counter")

        too_many = [url for status, url in answers if status == 429]
        assert too_many, "the limit never tripped: nothing was tested"
        waits = [t for t in page.evaluate("window.mapTexts") if "slow down" in t]
        assert waits and re.fullmatch(r"map: the server asks the viewer to slow down; trying again in \d+ s",
                                      waits[0])
        assert not any("unavailable" in t for t in page.evaluate("window.mapTexts"))
        # waiting, the page asks nothing: a 429 is answered at most to the requests already on their way (a map
        # and the next one's prefetch) and to the first requests after a wait that the server's window (whole
        # seconds) had not yet reopened; retrying at once would be dozens a second
        assert len(too_many) <= 6, too_many
        assert errors == [] and page.outside_requests == []


def test_the_chances_of_victory_of_a_finished_game_in_the_browser(store, finished, server, page, monkeypatch):
    """Issue 29: the page starts the run of playouts, shows its progress, then the chart and the turning points."""
    from app.web import chances as web_chances

    monkeypatch.setattr(web_chances, "PLAYOUTS", 8)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.url}/replay/{finished}/", wait_until="commit")
    page.wait_for_selector("body[data-ready='1']")
    page.click("#chances-start")
    page.wait_for_selector("#chances-result img[alt='chances of victory chart']")
    expect(page.locator("#chances-state")).to_contain_text("8 playouts")
    points = page.locator("#turning-points li")
    assert points.count() >= 1 and points.first.inner_text().startswith("turn ")
    chart = page.locator("#chances-result img")
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=chart.element_handle())
    assert not page.locator("#chances-progress").is_visible() and page.locator("#chances-start").is_enabled()
    assert errors == [] and page.outside_requests == []


def test_an_analysis_board_opened_and_played_in_the_browser(store, server, page):
    """Issue 29: a player of a finished game opens an analysis board at an attack from the viewer, gives the
    attack again with the die they choose, and lets a policy play; the board's page says it is analysis."""
    import random

    from app.projections import state as projection
    from tests.conftest import play_random

    client = server.app.test_client()
    made = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example",
                                                                         "blue": "b@x.example"}}).json
    game_id, tokens = made["game_id"], made["tokens"]
    for side in ("red", "blue"):
        client.post(f"/games/{game_id}/join", json={"seed_text": side},
                    headers={"Authorization": f"Bearer {tokens[side]}"})
    rules = CATALOG.rules("skirmish")
    for seed in range(20):
        play_random(store, game_id, random.Random(seed))
        if rules.outcome(projection.load(store, CATALOG, game_id).game) is not None:
            break
    attack = next(e for e in store.events(game_id) if e.type == "core.OrderGiven"
                  and e.payload["text"].startswith("attack"))
    real = list(store.events(game_id))
    key = server.app.extensions["hexledger_service"]().seats.replay_key(game_id, "red")
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(f"{server.url}/replay/{game_id}/?key={key}", wait_until="commit")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#board-mark").count() == 0
    while int(page.evaluate("document.body.dataset.seq")) < attack.seq - 1:
        page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"body[data-seq='{attack.seq - 1}']")
    page.click("#board-open")
    page.wait_for_selector("#board-mark")
    board = page.url.rstrip("/").rsplit("/", 1)[1]
    assert board.startswith("b-") and f"analysis board from {game_id}" in page.locator("#board-mark").inner_text()
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#board-side", attack.payload["side"])
    page.fill("#board-order", attack.payload["text"])
    page.fill("#board-dice", "6")
    page.click("#board-give")
    page.wait_for_selector("body[data-board-done]")
    rolled = [e for e in store.events(board) if e.type == "core.DieRolled" and e.seq > attack.seq]
    assert rolled and rolled[0].payload["value"] == 6 and rolled[0].actor == "analyst"
    side = rules.prompt(projection.load(store, CATALOG, board).game).side
    page.fill("#board-side", side)
    page.fill("#board-orders", "2")
    page.click("#board-play")
    page.wait_for_selector("body[data-board-played]")
    assert int(page.evaluate("document.body.dataset.boardPlayed")) >= 1
    page.reload(wait_until="commit")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#history")).to_contain_text("ANALYSIS BOARD opened from")
    assert list(store.events(game_id)) == real  # the game itself is untouched
    assert errors == [] and page.outside_requests == []
