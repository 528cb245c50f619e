"""Stepping through a replay in a real headless Chromium redraws only what changed: a picture of the same map
(its `data-map` fingerprint, app/projections/render.py) keeps the terrain, hex numbers, routes and hexsides already
on screen and takes the position, the rings and the legend from the new picture (app/web/replay/static/map.js,
`draw`). What the page shows after each step is the new picture's, as if drawn afresh."""
import pytest

from app.events.registry import decode
from tests.replay.test_browser import chromium, page, server  # noqa: F401 - the served app and a browser page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

COUNTERS = "() => Array.from(document.querySelectorAll('#map svg .counter'))" \
           ".map((c) => c.getAttribute('data-unit') + '@' + c.getAttribute('data-hex')).sort()"


def test_a_step_keeps_the_drawn_map_and_shows_the_new_position(store, finished, server, page):  # noqa: F811
    attack = next(e for e in store.events(finished) if e.type == "skirmish.AttackResolved")
    body = decode(attack.type, attack.version, attack.payload)
    page.goto(f"{server.url}/replay/{finished}/", wait_until="commit")
    page.wait_for_selector("body[data-ready='1'][data-map-seq='1']")
    page.evaluate("() => { document.querySelector('#map svg g.terrain').kept = true; }")
    first = page.evaluate(COUNTERS)

    for _ in range(attack.seq - 1):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"body[data-seq='{attack.seq}'][data-map-seq='{attack.seq}']")
    assert page.evaluate("() => document.querySelector('#map svg g.terrain').kept") is True  # drawn once
    assert page.locator("#map svg g.terrain").count() == 1 and page.locator("#map svg g.labels").count() == 1
    assert page.locator("#map .combat-target").get_attribute("data-hex") == body.hex
    moved = page.evaluate(COUNTERS)
    assert moved != first  # the units moved since the first event, and the picture says where they are now
    svg = page.evaluate(f"() => fetch('{server.url}/replay/{finished}/map/{attack.seq}.svg').then((r) => r.text())")
    expected = sorted(f"{u}@{h}" for u, h in _counters(svg))
    assert moved == expected

    page.keyboard.press("Home")  # back to the first event: its position, and no ring of the combat left
    page.wait_for_selector("body[data-seq='1'][data-map-seq='1']")
    assert page.evaluate("() => document.querySelector('#map svg g.terrain').kept") is True
    assert page.evaluate(COUNTERS) == first and page.locator("#map .combat-target").count() == 0


def _counters(svg: str) -> list[tuple[str, str]]:
    import xml.etree.ElementTree as ET

    ns = "{http://www.w3.org/2000/svg}"
    return [(g.get("data-unit"), g.get("data-hex")) for g in ET.fromstring(svg).iter(f"{ns}g")
            if g.get("class") == "counter"]


def test_a_step_that_moves_no_counter_keeps_them_drawn_and_marks_only_its_own_attackers(  # noqa: F811
        store, finished, server, page):  # noqa: F811
    """A step whose picture has the same counters as the step before keeps them on screen (map.js `draw`), and the
    counters marked as attackers are the new step's only: none are left marked from the step before."""
    page.goto(f"{server.url}/replay/{finished}/", wait_until="commit")
    page.wait_for_selector("body[data-ready='1'][data-map-seq='1']")
    frames = page.evaluate(f"() => fetch('{server.url}/replay/{finished}/frames.json').then((r) => r.json())")["frames"]
    units = [page.evaluate(UNITS_OF, f"{server.url}/replay/{finished}/map/{f['seq']}.svg") for f in frames]
    same = [i for i in range(1, len(frames)) if units[i] == units[i - 1]]
    assert same, "no step of the game leaves every counter where it was"
    # a step after a combat's, where the game has one (its dice are the session's): its attackers marked, then not
    at = next((i for i in same if frames[i - 1]["combat"]), same[0])
    for _ in range(at - 1):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"body[data-map-seq='{frames[at - 1]['seq']}']")
    before = frames[at - 1]["combat"]
    assert page.locator("#map .counter.attacker").count() == len(before.get("attackers") or [] if before else [])
    page.evaluate("() => { document.querySelector('#map svg g.units').kept = true; }")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"body[data-map-seq='{frames[at]['seq']}']")
    assert page.evaluate("() => document.querySelector('#map svg g.units').kept") is True  # not drawn again
    combat = frames[at]["combat"]
    marked = page.eval_on_selector_all("#map .counter.attacker", "(cs) => cs.map((c) => c.dataset.unit).sort()")
    assert marked == sorted(combat.get("attackers") or [] if combat else [])


UNITS_OF = """(url) => fetch(url).then((r) => r.text()).then((t) => {
  const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
  return new XMLSerializer().serializeToString(doc.querySelector('g.units'));
})"""
