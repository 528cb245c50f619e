"""HTTP benchmark: requests per second and p50/p99 latency through waitress on 127.0.0.1.

Measures, in one run on one server: a bare Flask endpoint (the floor: WSGI + Flask only), reading a player's
state (token check, load, view), and submitting orders (parse, decide, fsynced append, turn-email check).
Bounded: at most --count requests and --seconds per measurement. Mail goes to a throwaway outbox folder.

    python bench/http_api.py [--count 500] [--seconds 10] [--threads 4]
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

from waitress import create_server  # noqa: E402

from app.mail.transport import MailConfig  # noqa: E402
from app.web import create_app  # noqa: E402

ENDS_PER_GAME = 24  # skirmish: 6 turns x 2 sides x 2 steps, each closed by 'end'


def requests(conn: http.client.HTTPConnection, make_request, count: int, seconds: float) -> list[float]:
    """Seconds each request took, `count` requests (or fewer once `seconds` are spent) on one keep-alive
    connection; an HTTP error stops the run."""
    latencies = []
    start = time.perf_counter()
    for i in range(count):
        if time.perf_counter() - start > seconds:
            break
        method, path, body, headers = make_request(i)
        t0 = time.perf_counter()
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        response.read()
        latencies.append(time.perf_counter() - t0)
        if response.status >= 400:
            raise SystemExit(f"{method} {path}: request {i} failed with HTTP {response.status}")
    return latencies


def measure(name: str, port: int, make_request, count: int, seconds: float) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    start = time.perf_counter()
    latencies = requests(conn, make_request, count, seconds)
    elapsed = time.perf_counter() - start
    conn.close()
    ms = sorted(x * 1000 for x in latencies)
    return {"name": name, "requests": len(ms), "rps": len(ms) / elapsed, "p50_ms": statistics.median(ms),
            "p99_ms": ms[min(len(ms) - 1, int(len(ms) * 0.99))]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="hexledger-bench-")
    # the per-token rate limit protects a live server; a benchmark measures throughput, so it lifts the limit
    app = create_app({"OPEN_GAME_CREATION": True,  # creating games is not what this tests
                      "HEXLEDGER_DB": f"{work}/bench.sqlite3", "MAIL": MailConfig(outbox=f"{work}/outbox"),
                      "HEXLEDGER_RATE_LIMIT": "1000000 per minute"})
    app.add_url_rule("/bench/bare", "bare", lambda: {"ok": True})
    server = create_server(app, host="127.0.0.1", port=0, threads=args.threads)
    port = server.effective_port
    threading.Thread(target=server.run, daemon=True).start()
    client = app.test_client()

    def new_game() -> tuple[str, dict]:
        players = {"red": "r@bench.example", "blue": "b@bench.example"}
        r = client.post("/games", json={"rules": "skirmish", "players": players})
        g, tokens = r.json["game_id"], r.json["tokens"]
        for seat in ("red", "blue"):
            client.post(f"/games/{g}/join", json={"seed_text": seat},
                        headers={"Authorization": f"Bearer {tokens[seat]}"})
        return g, tokens

    g, tokens = new_game()
    read_headers = {"Authorization": f"Bearer {tokens['blue']}"}
    games = [new_game() for _ in range(args.count // ENDS_PER_GAME + 1)]

    def submit(i: int):
        game, toks = games[i // ENDS_PER_GAME]
        side = "red" if (i % ENDS_PER_GAME // 2) % 2 == 0 else "blue"
        return ("POST", f"/games/{game}/orders", json.dumps({"order": "end"}),
                {"Authorization": f"Bearer {toks[side]}", "Content-Type": "application/json"})

    results = [
        measure("bare Flask endpoint", port, lambda i: ("GET", "/bench/bare", None, {}), args.count, args.seconds),
        measure("read state (player view)", port, lambda i: ("GET", f"/games/{g}/state", None, read_headers),
                args.count, args.seconds),
        measure("submit order", port, submit, args.count, args.seconds),
    ]
    print(f"waitress on 127.0.0.1:{port}, {args.threads} threads, one keep-alive client; db {work}")
    print(f"{'measurement':28} {'requests':>8} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
    for r in results:
        print(f"{r['name']:28} {r['requests']:>8} {r['rps']:>9.1f} {r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f}")


if __name__ == "__main__":
    main()
