"""Each of the five games in the replay viewer, in a real headless Chromium (issue 28): its counters as the printed
game draws them, in its nations' colours, readable at the default zoom; its own measure of victory as the first
chart, every chart listed drawn or saying why not; no script error, no console error, no Content-Security-Policy
violation, no request off this server. Every wait is on a condition the page sets. `KEEP_SHOTS=DIR` keeps a
screenshot of each game's map and charts (docs/images/ holds the ones docs/replay.md shows)."""
import os

import pytest

from app.projections import analysis, replay
from app.projections import counters as pieces
from app.rules.catalog import installed
from tests.replay import test_browser
from tests.replay.conftest import import_real

CATALOG = installed()  # the rule sets installed here

server, chromium, page = test_browser.server, test_browser.chromium, test_browser.page  # the real server, Chromium
pytestmark = [pytest.mark.browser, pytest.mark.slow]

# the chart of each game's own measure of victory: Olympic's American Casualty Points, Formosa's victory points,
# the victory hexes SNC (4.3), Ichi-Go (4.1-4.5) and Dai Senso's scenario (D16) count
OWN_MEASURE = {"snc": "control", "ichigo": "control", "olympic": "score", "formosa": "score", "daisenso": "control"}

WATCH = """window.violations = [];
document.addEventListener("securitypolicyviolation", (e) => window.violations.push(e.violatedDirective));"""

COUNTERS = """() => [...document.querySelectorAll("#map g.units .counter")].map((g) => ({
  unit: g.dataset.unit, type: g.dataset.type, nation: g.dataset.nation,
  fill: g.querySelector("rect").getAttribute("fill"),
  factors: [...g.querySelectorAll("text.factors")].map((t) => t.textContent)}))"""

# the top counter of each hex wholly inside the map box: the screen height of its id and factors, and whether
# anything is drawn over them
READABLE = """() => {
  const box = document.getElementById("map").getBoundingClientRect(), tops = new Map();
  for (const c of document.querySelectorAll("#map g.units .counter")) tops.set(c.dataset.hex, c);
  const out = [];
  for (const c of tops.values()) {
    const r = c.querySelector("rect").getBoundingClientRect();
    if (r.left < box.left || r.right > box.right || r.top < box.top || r.bottom > box.bottom) continue;
    const h = (cls) => [...c.querySelectorAll("text." + cls)].map((t) => t.getBoundingClientRect().height);
    const covered = [...c.querySelectorAll("text.id, text.factors")].filter((t) => {
      const b = t.getBoundingClientRect();
      return !c.contains(document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2)); }).length;
    out.push({unit: c.dataset.unit, id: h("id"), factors: h("factors"), covered});
  }
  return out;
}"""


def busiest_combat(frames) -> int:
    """The frame to look at: a combat about a few hexes (the viewer keeps the default zoom) from the middle of the
    game on, the one with the most counters on the map."""
    middle = [f for f in frames[len(frames) // 3:] if 0 < len(f.focus) <= 4]
    combats = [f for f in middle if f.combat] or middle
    return max(combats, key=lambda f: sum(1 for u in f.view.get("units", []) if u.get("hex"))).seq


@pytest.mark.parametrize("rules", list(OWN_MEASURE))
def test_each_game_shows_its_counters_and_its_own_measure_first(store, five_games, server, page, rules):
    game_id = import_real(store, five_games, rules)
    rep = replay.build(store, CATALOG, game_id, None)  # a finished game: everything, for everyone
    seq = busiest_combat(rep.frames)
    frame = rep.frame_at(seq)
    charts = analysis.chart_list(analysis.analyse(rep))
    errors, console = [], []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.add_init_script(WATCH)

    page.goto(f"{server.url}/replay/{game_id}/", wait_until="commit")
    page.wait_for_selector("body[data-ready='1']")
    page.locator(f"#history li[value='{seq}']").click()
    page.wait_for_selector(f"body[data-seq='{seq}'][data-map-seq='{seq}'] #map g.units .counter")

    shown = {u["id"]: u for u in frame.view["units"] if u.get("hex")}
    drawn = page.evaluate(COUNTERS)
    assert drawn and {d["unit"] for d in drawn} <= set(shown)  # Dai Senso draws one map sheet of two
    for d in drawn:
        u = shown[d["unit"]]
        if pieces.face_down(u):  # Ichi-Go 11.27: an untried counter is its handle, even after the game
            assert d["type"] == "" and d["factors"] == ([u["factors"]] if u.get("factors") else []), (d, u)
        else:
            assert d["type"] == pieces.type_of(u.get("type")) and d["factors"] == [u["factors"]], (d, u)
        assert d["fill"] == pieces.NATIONS[d["nation"]].field, d
    assert "japanese" in {d["nation"] for d in drawn}
    assert float(page.locator("body").get_attribute("data-zoom")) >= 1.5  # the default zoom, or closer
    readable = page.evaluate(READABLE)
    assert readable, "no counter wholly on screen at the default zoom"
    for counter in readable:  # at the default zoom: ids 10 px high or more, factors 13 px, nothing over them
        assert min(counter["id"]) >= 10 and min(counter["factors"] or [13]) >= 13 and counter["covered"] == 0, counter

    page.wait_for_selector("body[data-charts]")
    listed = page.locator("body").get_attribute("data-charts").split()
    assert listed == [c.name for c in charts] and listed[0] == OWN_MEASURE[rules]
    drawn_charts = [c.name for c in charts if c.why is None]
    assert OWN_MEASURE[rules] in drawn_charts
    page.wait_for_function("(n) => { const imgs = [...document.querySelectorAll('#charts img')]; return imgs.length"
                           " === n && imgs.every((i) => i.complete && i.naturalWidth > 0); }", arg=len(drawn_charts))
    assert page.evaluate("() => [...document.querySelectorAll('#charts figure:not(.left-out)')].map("
                         "(f) => f.dataset.chart)") == drawn_charts
    for c in charts:
        if c.why:  # nothing to draw yet: the page says why
            assert page.locator(f"#charts figure[data-chart='{c.name}']").inner_text() == f"{c.title}: {c.why}"

    if os.environ.get("KEEP_SHOTS"):
        page.locator("#board").screenshot(path=os.path.join(os.environ["KEEP_SHOTS"], f"{rules}-map.png"))
        page.locator("#analysis").screenshot(path=os.path.join(os.environ["KEEP_SHOTS"], f"{rules}-charts.png"))
    assert errors == [] and console == [] and page.evaluate("window.violations") == []
    assert page.outside_requests == []
