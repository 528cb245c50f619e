"""The replay viewer follows the action (docs/replay.md, "Following the action"), in a real headless Chromium.

A whole SNC game is stepped through event by event: at every step each hex its event touches (every hex label
in the event's payload: a move's path, a battle's hex, a die roll's battle, an order's destination) is drawn
whole inside the map box and is what the browser finds at its centre, so nothing covers it. Then the user's
own moves of the map: the wheel zooms about the cursor, a drag pans, the keys zoom and pan, "fit all" shows the
whole map, "action" brings the step back; and at the default zoom counter ids and factors are readable and
nothing is drawn over them. Every wait is on a condition the page sets (data-seq, data-map-seq, data-zoom).
"""
import re

import pytest

from app.rules.catalog import installed
from app.rules.kernel.hexgrid import Hex
from tests.replay import test_browser
from tests.replay.conftest import import_real

CATALOG = installed()  # the rule sets installed here

server, chromium, page = test_browser.server, test_browser.chromium, test_browser.page  # the real server, Chromium
pytestmark = [pytest.mark.browser, pytest.mark.slow]

BOOKKEEPING = ("core.GameCreated", "core.PlayerJoined", "core.SeedRevealed")  # about the game, not the map
LABEL = re.compile(r"(?<![\w#])\d{4}(?!\d)")

OFF_SCREEN = """(hexes) => {
  const box = document.getElementById("map"), b = box.getBoundingClientRect();
  const off = [];
  for (const label of hexes) {
    const poly = box.querySelector('.terrain polygon[data-hex="' + label + '"]');
    if (!poly) { off.push(label + " (not drawn)"); continue; }
    const r = poly.getBoundingClientRect();
    const whole = r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!whole || !hit || !box.contains(hit)) off.push(label);
  }
  return off;
}"""


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    return [s for v in value for s in _strings(v)] if isinstance(value, list) else []


def touched(event, game_map) -> set[str]:
    """The map hexes an event touches, read from what it stores (not from the viewer's own focus)."""
    if event.type in BOOKKEEPING:
        return set()
    labels = {m for s in _strings(event.payload) for m in LABEL.findall(s)}
    return {label for label in labels if game_map.on_map(Hex.parse(label))}


def open_replay(page, server, game_id: str) -> None:
    page.goto(f"{server.url}/replay/{game_id}/", wait_until="commit")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("body[data-map-seq='1']")


def zoom(page) -> float:
    return float(page.locator("body").get_attribute("data-zoom"))


def wait_zoom(page, than: str, value: float) -> None:
    """Until the page's zoom is above (">"), below ("<") or within 0.5 % ("~") of `value` (a function, not a
    string the page's CSP would have to eval)."""
    page.wait_for_function("([than, v]) => { const z = Number(document.body.dataset.zoom); "
                           "return than === '>' ? z > v : than === '<' ? z < v : Math.abs(z / v - 1) < 0.005; }",
                           arg=[than, value])


def view_box(page) -> list[float]:
    return [float(n) for n in page.locator("#map svg").get_attribute("viewBox").split()]


def screen_of(page, label: str) -> dict:
    return page.evaluate("(l) => { const r = document.querySelector('#map .terrain polygon[data-hex=\"' + l + "
                         "'\"]').getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2};"
                         " }", label)


def test_every_step_of_a_whole_snc_game_is_on_screen(store, real_games, server, page):
    game_id = import_real(store, real_games, "snc")
    events = list(store.events(game_id))
    game_map = CATALOG.rules("snc").game_map(None)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    open_replay(page, server, game_id)
    assert page.locator("#history li").count() == len(events)  # a finished game: one frame per event

    off_screen, about_the_map = {}, 0
    for n, event in enumerate(events):
        if n:
            page.keyboard.press("ArrowRight")
        hexes = sorted(touched(event, game_map))
        if not hexes and n + 1 < len(events):  # a step about no hex: nothing of it to find on the map, so the next
            continue  # key goes at once, as a key held down steps (the page draws the map where the steps pause)
        page.wait_for_selector(f"body[data-seq='{event.seq}'][data-map-seq='{event.seq}']")
        about_the_map += bool(hexes)
        missing = page.evaluate(OFF_SCREEN, hexes)
        if missing:
            off_screen[event.seq] = (event.type, missing)
    assert off_screen == {}
    assert about_the_map > len(events) / 3  # the check saw the game's moves and battles, not only its ends
    assert errors == [] and page.outside_requests == []


def test_the_snc_replay_opens_on_the_first_action_readable_and_uncovered(store, real_games, server, page):
    """Not the empty north-west: the first step is about no hex, so the viewer shows the first step that is, at a
    zoom where a counter's id is at least 10 px high, its factors 13 px and its size mark 7 px, and nothing covers
    the id or the factors."""
    game_id = import_real(store, real_games, "snc")
    events = list(store.events(game_id))
    game_map = CATALOG.rules("snc").game_map(None)
    first = next(sorted(touched(e, game_map)) for e in events if touched(e, game_map))
    open_replay(page, server, game_id)
    assert page.evaluate(OFF_SCREEN, first) == []
    report = page.evaluate("""() => {
      const box = document.getElementById("map"), b = box.getBoundingClientRect();
      const tops = new Map();       // the top counter of each hex: the one drawn last
      for (const c of box.querySelectorAll("g.units .counter")) tops.set(c.dataset.hex, c);
      const out = [];
      for (const c of tops.values()) {
        const texts = [...c.querySelectorAll("text.id, text.factors")];
        const rects = texts.map((t) => t.getBoundingClientRect());
        if (rects.some((r) => r.left < b.left || r.right > b.right || r.top < b.top || r.bottom > b.bottom)) continue;
        const counter = c.querySelector("rect").getBoundingClientRect();
        const height = (cls) => [...c.querySelectorAll("text." + cls)].map((t) => t.getBoundingClientRect().height);
        out.push({ unit: c.dataset.unit, ids: height("id"), factors: height("factors"), sizes: height("size"),
          inside: rects.every((r) => r.left >= counter.left - 0.5 && r.right <= counter.right + 0.5),
          covered: rects.filter((r) => !c.contains(document.elementFromPoint(r.left + r.width / 2,
            r.top + r.height / 2))).length });
      }
      return out;
    }""")
    assert len(report) >= 5  # the counters near Shanghai
    for counter in report:
        assert min(counter["ids"]) >= 10 and min(counter["factors"]) >= 13, counter
        assert all(h >= 7 for h in counter["sizes"]), counter  # XX, III: small, still read
        assert counter["inside"], counter  # an id never spills over its neighbours
        assert counter["covered"] == 0, counter  # no label, ring or badge drawn over an id or a strength


def test_wheel_drag_keys_fit_all_and_back_to_the_action(store, real_games, server, page):
    game_id = import_real(store, real_games, "snc")
    events = list(store.events(game_id))
    game_map = CATALOG.rules("snc").game_map(None)
    open_replay(page, server, game_id)
    box = page.locator("#map").bounding_box()
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    z0 = zoom(page)

    # the wheel zooms in about the cursor: the map point under it stays under it
    def under_cursor() -> tuple[float, float]:
        return tuple(page.evaluate("([x, y]) => { const svg = document.querySelector('#map svg'); "
                                   "const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM().inverse()); "
                                   "return [p.x, p.y]; }", [centre[0] - 100, centre[1] - 50]))

    page.mouse.move(centre[0] - 100, centre[1] - 50)
    before = under_cursor()
    page.mouse.wheel(0, -400)  # Chromium may deliver it as several events: wait for all of them
    wait_zoom(page, "~", z0 * 1.0015 ** 400)
    after = under_cursor()
    assert abs(after[0] - before[0]) < 1 and abs(after[1] - before[1]) < 1

    # a drag moves the map with the pointer
    label = "3512"  # Shanghai, on screen at the start
    start = screen_of(page, label)
    page.mouse.move(*centre)
    page.mouse.down()
    page.mouse.move(centre[0] - 150, centre[1] - 80, steps=5)
    page.mouse.up()
    moved = screen_of(page, label)
    assert abs(moved["x"] - (start["x"] - 150)) < 1.5 and abs(moved["y"] - (start["y"] - 80)) < 1.5

    # keys: - zooms out, + in, D pans east, W north
    z1 = zoom(page)
    page.keyboard.press("-")
    wait_zoom(page, "<", z1)
    z2 = zoom(page)
    page.keyboard.press("+")
    wait_zoom(page, ">", z2)
    x0, y0 = view_box(page)[:2]
    page.keyboard.press("d")
    page.keyboard.press("w")
    x1, y1 = view_box(page)[:2]
    assert x1 > x0 and y1 < y0

    # fit all: every hex of the map inside the box
    page.click("#map-tools button[data-view='fit']")
    corners = [str(h) for h in game_map.hexes()]
    wait_zoom(page, "<", z0)
    assert page.evaluate(OFF_SCREEN, [min(corners), max(corners)]) == []

    # the chosen zoom stays while the steps stay in view; "action" (F) brings a step's hexes back
    zoomed_out = zoom(page)
    target = next(n for n, e in enumerate(events) if touched(e, game_map))
    for _ in range(target):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"body[data-map-seq='{events[target].seq}']")
    assert zoom(page) == zoomed_out
    page.click("#map-tools button[data-view='in']")
    for _ in range(8):
        page.keyboard.press("a")  # far to the west of the action
    hexes = sorted(touched(events[target], game_map))
    assert page.evaluate(OFF_SCREEN, hexes) != []
    page.keyboard.press("f")
    page.wait_for_function(f"(hexes) => ({OFF_SCREEN})(hexes).length === 0", arg=hexes)
