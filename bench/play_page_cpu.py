"""What an order costs the player's browser on the play page: Chromium's CPU (every process of it, from /proc) and the
layouts and style recalculations of the page (DevTools Performance metrics) per order, with this checkout's scripts
(play.js, map.js) beside the same page with another revision's scripts, in interleaved rounds of one run.

The real app through waitress on 127.0.0.1 (bench/play_page.py `serve`) serves an SNC game played by random legal
orders through the API until a side may both move and attack or overrun (the page marks its counters and its targets
with their odds). Each round, for each version of the scripts, a new browser context signed in as that side plays
`--orders` orders the way a player does: a counter clicked on the map, a hex marked for it clicked, Enter (the focus
is on "send") and the new position drawn; then the order is taken back through the API (POST .../undo) and the page,
asked again, draws the position before it. The baseline's scripts are served in place of this checkout's (a route of
the browser context, the same address, so the same Content-Security-Policy). Every wait is on a condition the page
sets; the clicks are the tests' (tests/play/clicking.py `click_hex`).

    python bench/play_page_cpu.py [--rounds 5] [--orders 4] [--baseline ff04526f]

No test runs this; no test asserts a time. Figures: docs/benchmarks.md, "The play page's CPU per order".
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.play_page import serve  # noqa: E402
from bench.test_cpu import descendants_cpu  # noqa: E402
from tests.play.clicking import CHROMIUM, DESKTOP, FLAGS, ask_again, click_hex, marked  # noqa: E402

SCRIPTS = {"/play/static/play.js": "app/web/play/static/play.js",
           "/replay/static/map.js": "app/web/replay/static/map.js"}
METRICS = ("LayoutCount", "RecalcStyleCount", "LayoutDuration")


def moving_and_attacking(app, seed: int = 0) -> tuple[str, str, dict[str, str]]:
    """An SNC game by random legal orders through the API to a step where the side to act may move counters and
    attack or overrun hexes: the game, that side, the tokens."""
    client = app.test_client()
    r = client.post("/games", json={"rules": "snc", "players": {"chinese": "c@x.example", "japanese": "j@x.example"}})
    game_id, tokens = r.json["game_id"], r.json["tokens"]
    auth = {side: {"Authorization": f"Bearer {token}"} for side, token in tokens.items()}
    for side in auth:
        client.post(f"/games/{game_id}/join", json={"seed_text": side}, headers=auth[side])
    rng = random.Random(seed)
    for _ in range(3000):
        side = client.get(f"/games/{game_id}/actions", headers=auth["chinese"]).json["to_act"]
        if side is None:
            break
        orders = [o["order"] for o in client.get(f"/games/{game_id}/actions", headers=auth[side]).json["legal_orders"]]
        if any(o.startswith("move ") for o in orders) and any(o.split()[0] in ("attack", "overrun") for o in orders):
            return game_id, side, tokens
        acting = [o for o in orders if o != "end"]
        pick = rng.choice(acting) if acting and rng.random() < 0.7 else ("end" if "end" in orders else orders[0])
        assert client.post(f"/games/{game_id}/orders", json={"order": pick}, headers=auth[side]).status_code == 201
    raise RuntimeError("no step with moves and attacks reached")


def serving(source: str):
    """A route's handler that answers with `source` as a script."""
    return lambda route: route.fulfill(status=200, body=source, headers={"Content-Type": "text/javascript"})


def one_round(browser, url: str, play_link: str, undo, scripts: dict[str, str] | None, orders: int) -> list[dict]:
    """`orders` orders by clicks and their undos on a new page; per order: Chromium's CPU seconds and the page's
    metrics' increase. `scripts`: address -> the text served in place of this checkout's script."""
    context = browser.new_context(viewport=DESKTOP, device_scale_factor=1)
    for address, source in (scripts or {}).items():
        context.route(f"**{address}", serving(source))
    page = context.new_page()
    devtools = context.new_cdp_session(page)
    devtools.send("Performance.enable")
    page.goto(play_link, wait_until="commit")
    page.wait_for_selector("body[data-interactive='1'][data-your-turn='1']", state="attached")

    def metrics() -> dict:
        got = {m["name"]: m["value"] for m in devtools.send("Performance.getMetrics")["metrics"]}
        return {name: got[name] for name in METRICS} | {"cpu": descendants_cpu(os.getpid())}

    out = []
    for _ in range(orders):
        head = page.locator("body").get_attribute("data-seq")
        before = metrics()
        click_hex(page, marked(page, "may-act"))
        page.wait_for_selector("#map polygon.reach", state="attached")
        click_hex(page, marked(page, "reach"))
        page.wait_for_selector("body[data-composed]", state="attached")
        page.keyboard.press("Enter")  # the focus is on "send"
        page.wait_for_function("(old) => document.body.dataset.seq !== old && !document.body.dataset.busy",
                               arg=head, polling=50)
        seq = undo()
        ask_again(page)
        page.wait_for_selector(f"body[data-seq='{seq}'][data-your-turn='1']", state="attached")
        after = metrics()
        out.append({k: after[k] - before[k] for k in after})
    context.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--orders", type=int, default=4, help="orders (each taken back) a round, per version")
    parser.add_argument("--baseline", default="ff04526f", help="the revision whose scripts are the baseline "
                        "(default: main before the page stopped laying itself out for each hex it marked)")
    args = parser.parse_args()
    baseline = {address: subprocess.run(["git", "show", f"{args.baseline}:{path}"], cwd=ROOT, check=True,
                                        capture_output=True, text=True).stdout for address, path in SCRIPTS.items()}
    app, httpd = serve(os.path.join(tempfile.mkdtemp(prefix="bench-play-cpu-"), "play.sqlite3"))
    url = f"http://127.0.0.1:{httpd.effective_port}"
    game_id, side, tokens = moving_and_attacking(app)
    client, auth = app.test_client(), {"Authorization": f"Bearer {tokens[side]}"}

    def undo() -> int:  # the order taken back: the head after it
        assert client.post(f"/games/{game_id}/undo", headers=auth).status_code == 201
        return client.get(f"/games/{game_id}/state", headers=auth).json["seq"]

    link = f"{url}/play/{game_id}/?key={app.extensions['hexledger_service']().seats.play_key(game_id, side)}"
    results: dict[str, list[dict]] = {"this checkout": [], f"baseline {args.baseline}": []}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        for n in range(args.rounds + 1):  # a first round warms both up
            versions = [("this checkout", None), (f"baseline {args.baseline}", baseline)]
            for name, scripts in versions if n % 2 else versions[::-1]:
                got = one_round(browser, url, link, undo, scripts, args.orders)
                if n:
                    results[name] += got
            print(f"round {n} of {args.rounds}{' (warm-up)' if not n else ''}", flush=True)
        browser.close()
    httpd.close()
    load = os.getloadavg()
    print(f"\nmachine: {platform.machine()}, {os.cpu_count()} cores, Chromium {CHROMIUM}; load average at the end "
          f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; SNC, the {side} side moving and attacking; median per order "
          f"(the order by clicks, its new position drawn, its undo drawn) of {args.rounds} interleaved rounds of "
          f"{args.orders}")
    print(f"{'scripts':24} {'Chromium CPU ms':>16} {'layouts':>8} {'style recalcs':>14} {'layout ms':>10}")
    for name, rows in results.items():
        med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
        print(f"{name:24} {med['cpu'] * 1000:16.0f} {med['LayoutCount']:8.0f} {med['RecalcStyleCount']:14.0f} "
              f"{med['LayoutDuration'] * 1000:10.1f}")


if __name__ == "__main__":
    main()
