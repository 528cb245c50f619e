"""The play page in a real browser (issue 28): time to the first interactive map, and to a submitted order, beside
the replay viewer's page load and the same order through the API alone, in interleaved rounds of one run.

The real app (create_app, as `cli.py serve` builds it) through waitress on 127.0.0.1 serves an SNC game in progress
(random legal orders through the service up to Game-Turn `--turn`, then to the Chinese player's movement); Debian's
Chromium (Playwright) is signed in by the Chinese seat's play link. Each round:

- the replay viewer's page load: navigation to the page showing its first map (`body[data-ready][data-map-seq]`),
  the baseline of
- the play page's load: navigation to the first interactive map (`body[data-interactive]`: the map drawn, the
  orders listed, the counters that may act marked);
- an order by clicks: a counter clicked on the map, a hex marked for it clicked (not timed), then "send" clicked to
  the order's answer shown (`body[data-accepted]`), and on to the new position drawn and the orders listed again
  (`body[data-seq]` moves on: the state, the legal orders, the map picture, the history and the receipt asked
  again), beside the same order given by `POST /games/G/orders` on a kept-alive connection (the API alone); each
  taken back by `POST .../undo` after.

    python bench/play_page.py [--rounds 5] [--turn 3]

No test runs this; no test asserts a time. Figures: docs/benchmarks.md, "The play page".
"""
from __future__ import annotations

import argparse
import http.client
import json
import logging
import os
import platform
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from playwright.sync_api import sync_playwright  # noqa: E402
from waitress import create_server  # noqa: E402

from app.mail.transport import MailConfig  # noqa: E402
from app.web import create_app  # noqa: E402
from tests.outbox import Outbox  # noqa: E402
from tests.play.clicking import CHROMIUM, DESKTOP, FLAGS, click_hex, marked  # noqa: E402

UNLIMITED = "1000000 per minute"


class Row:
    """One line of the table: per round, the page's figure and its baseline's."""

    def __init__(self, name: str, baseline: str):
        self.name, self.baseline = name, baseline
        self.ours: list[float] = []
        self.theirs: list[float] = []

    def line(self) -> str:
        ours, theirs = statistics.median(self.ours), statistics.median(self.theirs)
        ratios = [o / t for o, t in zip(self.ours, self.theirs, strict=True)]
        return (f"{self.name:58} {ours:9.1f} {theirs:9.1f} ms {ours / theirs:7.2f}x {min(ratios):5.2f}-"
                f"{max(ratios):<5.2f}  baseline: {self.baseline}")


def serve(db: str):
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # "Task queue depth": the bench's own load
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": db, "MAIL_TRANSPORT": Outbox(), "MAIL": MailConfig(),
                      "HEXLEDGER_RATE_LIMIT": UNLIMITED, "HEXLEDGER_REPLAY_RATE_LIMIT": UNLIMITED})
    httpd = create_server(app, host="127.0.0.1", port=0, threads=4)
    threading.Thread(target=httpd.run, daemon=True).start()
    return app, httpd


def snc_in_progress(app, turn: int, seed: int = 0) -> tuple[str, dict[str, str]]:
    """An SNC game played by random legal orders through the API up to Game-Turn `turn`, then to a Chinese
    Operations Phase for movement (declared so), with units that may move."""
    client = app.test_client()
    r = client.post("/games", json={"rules": "snc", "players": {"chinese": "c@x.example", "japanese": "j@x.example"}})
    game_id, tokens = r.json["game_id"], r.json["tokens"]
    auth = {side: {"Authorization": f"Bearer {token}"} for side, token in tokens.items()}
    for side in ("chinese", "japanese"):
        client.post(f"/games/{game_id}/join", json={"seed_text": side}, headers=auth[side])
    rng = random.Random(seed)
    for _ in range(5000):
        prompt = client.get(f"/games/{game_id}/actions", headers=auth["chinese"]).json
        side = prompt["to_act"]
        orders = [o["order"] for o in client.get(f"/games/{game_id}/actions", headers=auth[side]).json["legal_orders"]]
        turn_now = client.get(f"/games/{game_id}/state", headers=auth["chinese"]).json["view"]["turn"]
        moving = side == "chinese" and "(move)" in prompt["step"] and any(o.startswith("move ") for o in orders)
        if turn_now >= turn and moving:
            return game_id, tokens
        if turn_now >= turn and "declare move move" in orders:
            pick = "declare move move"
        else:
            acting = [o for o in orders if o != "end"]
            pick = rng.choice(acting) if acting and rng.random() < 0.7 else ("end" if "end" in orders else orders[0])
        assert client.post(f"/games/{game_id}/orders", json={"order": pick}, headers=auth[side]).status_code == 201
    raise RuntimeError("no Chinese movement phase reached")


def ms_since(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--turn", type=int, default=3, help="the SNC Game-Turn the game in progress is in")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="bench-play-")
    app, httpd = serve(os.path.join(tmp, "play.sqlite3"))
    url = f"http://127.0.0.1:{httpd.effective_port}"
    game_id, tokens = snc_in_progress(app, args.turn)
    seats = app.extensions["hexledger_service"]().seats
    head = app.test_client().get(f"/games/{game_id}/state", headers={"Authorization": f"Bearer {tokens['chinese']}"})
    events = head.json["seq"]
    api = http.client.HTTPConnection("127.0.0.1", httpd.effective_port)
    token = {"Authorization": f"Bearer {tokens['chinese']}", "Content-Type": "application/json"}

    def api_call(method: str, path: str, body: dict | None = None) -> dict:
        api.request(method, f"/games/{game_id}{path}", body=json.dumps(body) if body is not None else None,
                    headers=token)
        r = api.getresponse()
        data = r.read()
        assert r.status < 300, data
        return json.loads(data)

    rows = {"load": Row("play page: load to the first interactive map", "the replay viewer's page load, first map"),
            "accepted": Row("play page: an order, 'send' clicked to its answer shown",
                            "the same order by POST .../orders"),
            "order": Row("  and to the new position drawn, the orders listed again",
                         "the same order by POST .../orders")}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        page = browser.new_context(viewport=DESKTOP).new_page()
        page.goto(f"{url}/play/{game_id}/?key={seats.play_key(game_id, 'chinese')}")  # the cookies: both pages
        page.wait_for_selector("body[data-interactive='1']")
        for n in range(args.rounds + 1):  # a first round warms both up (the browser's cache, the server's)
            start = time.perf_counter()
            page.goto(f"{url}/replay/{game_id}/", wait_until="commit")
            page.wait_for_selector("body[data-ready='1'][data-map-seq] #map svg .counter")
            replay_ms = ms_since(start)
            start = time.perf_counter()
            page.goto(f"{url}/play/{game_id}/", wait_until="commit")
            page.wait_for_selector("body[data-interactive='1'] #map svg .counter")
            play_ms = ms_since(start)

            click_hex(page, marked(page, "may-act"))  # a counter, then a hex marked for it: not timed
            page.wait_for_selector("#map polygon.reach")
            click_hex(page, marked(page, "reach"))
            page.wait_for_selector("body[data-composed]")
            order = page.locator("body").get_attribute("data-composed")
            old = page.locator("body").get_attribute("data-seq")
            start = time.perf_counter()
            page.click("#send")
            page.wait_for_function("(order) => document.body.dataset.accepted === order", arg=order)
            accepted_ms = ms_since(start)
            page.wait_for_function("(old) => document.body.dataset.seq !== old && !document.body.dataset.busy",
                                   arg=old)
            sent_ms = ms_since(start)
            api_call("POST", "/undo")
            start = time.perf_counter()
            api_call("POST", "/orders", {"order": order})
            api_ms = ms_since(start)
            api_call("POST", "/undo")
            if n:
                rows["load"].ours.append(play_ms)
                rows["load"].theirs.append(replay_ms)
                rows["accepted"].ours.append(accepted_ms)
                rows["accepted"].theirs.append(api_ms)
                rows["order"].ours.append(sent_ms)
                rows["order"].theirs.append(api_ms)
            print(f"round {n} of {args.rounds}{' (warm-up)' if not n else ''}: {order}", flush=True)
        browser.close()
    httpd.close()
    load = os.getloadavg()
    print(f"\nmachine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, Chromium "
          f"{CHROMIUM}; load average at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; SNC game in progress, "
          f"Game-Turn {args.turn}, {events} events; median of {args.rounds} interleaved rounds")
    print(f"{'workload':58} {'page':>9} {'baseline':>9} {'':2} {'ratio':>8} {'spread':>11}")
    for row in rows.values():
        print(row.line())


if __name__ == "__main__":
    main()
