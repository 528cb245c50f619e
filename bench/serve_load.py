"""Many concurrent clients through a real server (issue 25, "Load"): `cli.py serve` in a process of its own on
127.0.0.1, the clients threads of this process, each on its own kept-alive connection, playing skirmish over HTTP
(its game's state read, then an 'end' order for the side to act, in turn) for --seconds. Beside it, in the same
run and with the same clients, the baseline: waitress with its own limits serving the same app
(`waitress.serve(create_app(...), threads=...)`, what `serve --threads 8` ran before issue 25).

For each server: answers by status, the 503s with Retry-After among them, client timeouts (--timeout seconds
without an answer, 60 as in the issue), broken connections, and the p50 / p99 / worst time of an answered request.
A client told 503 waits its Retry-After and connects again. Goal: no timeout, every refusal a 503 with
Retry-After. Turn emails go to a folder, laid out by the server's sender process as `serve` runs it.

    python bench/serve_load.py [--clients 256] [--seconds 60] [--timeout 60] [--threads 8] [--only serve]
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402

from app.mail.transport import MailConfig  # noqa: E402
from app.web import create_app  # noqa: E402

ENDS_PER_GAME = 24  # skirmish: 6 turns x 2 sides x 2 steps, each closed by 'end'
WAITRESS_ALONE = ("import os, waitress; from app.web import create_app; "
                  "waitress.serve(create_app({'HEXLEDGER_DB': os.environ['HEXLEDGER_DB'], 'MAIL_SENDER': 'process'}), "
                  "host='127.0.0.1', port=int(os.environ['BENCH_PORT']), threads=int(os.environ['BENCH_THREADS']))")


@dataclass
class Tally:
    statuses: Counter = field(default_factory=Counter)
    refusals_with_retry_after: int = 0
    timeouts: int = 0
    broken: int = 0
    latencies: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def line(self, name: str) -> str:
        ms = sorted(x * 1000 for x in self.latencies) or [float("nan")]
        answered = sum(self.statuses.values())
        others = {s: n for s, n in sorted(self.statuses.items()) if s // 100 != 2 and s != 503}
        refused = self.statuses[503]
        verdict = ("met" if self.timeouts == 0 and self.broken == 0 and not others
                   and refused == self.refusals_with_retry_after else "NOT MET")
        return (f"{name:34} {answered:9} {sum(n for s, n in self.statuses.items() if s // 100 == 2):7} "
                f"{refused:6} {self.refusals_with_retry_after:8} {str(others or '-'):>12} {self.timeouts:9} "
                f"{self.broken:7} {statistics.median(ms):8.0f} {ms[min(len(ms) - 1, int(len(ms) * 0.99))]:8.0f} "
                f"{ms[-1]:8.0f}  {verdict}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def seat_games(db: str, outbox: str, clients: int) -> list[tuple[str, dict]]:
    """A skirmish game a client, both sides joined, made through the app on `db` before any server runs."""
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": db, "MAIL": MailConfig(outbox=outbox),
                      "HEXLEDGER_RATE_LIMIT": "1000000 per minute"})
    client = app.test_client()
    made = []
    for _ in range(clients):
        r = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@bench.example",
                                                                          "blue": "b@bench.example"}})
        game_id, tokens = r.json["game_id"], r.json["tokens"]
        for seat in ("red", "blue"):
            client.post(f"/games/{game_id}/join", json={"seed_text": seat},
                        headers={"Authorization": f"Bearer {tokens[seat]}"})
        made.append((game_id, tokens))
    app.extensions["hexledger_service"]().store.close()  # this thread's connection: a database copied next is idle
    return made


def start(command: list[str], env: dict, port: int, seconds: float = 60) -> subprocess.Popen:
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/rules")
            if conn.getresponse().status == 200:
                conn.close()
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit(f"the server ({' '.join(command[:3])}...) did not answer within {seconds} s")


def play(port: int, game: tuple[str, dict], until: float, timeout: float, tally: Tally,
         barrier: threading.Barrier) -> None:
    """One client: its game's state, then the next 'end', in turn, until `until`; after a 503, its Retry-After."""
    game_id, tokens = game
    ends = turn = 0
    conn = None
    barrier.wait()
    while time.monotonic() < until:
        turn += 1
        if ends < ENDS_PER_GAME and turn % 2 == 0:
            side = "red" if (ends // 2) % 2 == 0 else "blue"
            request = ("POST", f"/games/{game_id}/orders", json.dumps({"order": "end"}),
                       {"Authorization": f"Bearer {tokens[side]}", "Content-Type": "application/json"})
        else:
            request = ("GET", f"/games/{game_id}/state", None, {"Authorization": f"Bearer {tokens['red']}"})
        conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        started = time.perf_counter()
        try:
            conn.request(*request[:2], body=request[2], headers=request[3])
            response = conn.getresponse()
            response.read()
        except TimeoutError:
            with tally.lock:
                tally.timeouts += 1
            conn.close()
            conn = None
            continue
        except (OSError, http.client.HTTPException):
            with tally.lock:
                tally.broken += 1
            conn.close()
            conn = None
            continue
        took = time.perf_counter() - started
        with tally.lock:
            tally.statuses[response.status] += 1
            tally.latencies.append(took)
            if response.status == 503 and response.getheader("Retry-After"):
                tally.refusals_with_retry_after += 1
        if request[0] == "POST" and response.status == 201:
            ends += 1
        if response.status == 503 or response.getheader("Connection", "").lower() == "close":
            conn.close()
            conn = None
            if response.status == 503:
                time.sleep(min(float(response.getheader("Retry-After") or 1), max(0.0, until - time.monotonic())))


def run(name: str, command: list[str], env: dict, port: int, games: list, seconds: float, timeout: float) -> Tally:
    server = start(command, env, port)
    tally = Tally()
    try:
        barrier = threading.Barrier(len(games))
        until = time.monotonic() + seconds
        clients = [threading.Thread(target=play, args=(port, g, until, timeout, tally, barrier), daemon=True)
                   for g in games]
        for c in clients:
            c.start()
        for c in clients:
            c.join(seconds + timeout + 30)
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
    print(f"  {name}: done", flush=True)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=256)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a client waits for an answer")
    parser.add_argument("--threads", type=int, default=8, help="the server's worker threads (both servers)")
    parser.add_argument("--only", choices=["serve", "waitress"], default=None, help="run one server only")
    parser.add_argument("serve_options", nargs="*", help="more options for `serve` (after --)")
    args = parser.parse_args()
    threading.stack_size(256 * 1024)  # hundreds of client threads
    results = []
    with tempfile.TemporaryDirectory() as work:
        servers = {"serve": [sys.executable, "cli.py", "serve", "--port", "{port}", "--threads", str(args.threads),
                             *args.serve_options],
                   "waitress": [sys.executable, "-c", WAITRESS_ALONE]}
        names = {"serve": " ".join(["cli.py serve --threads", str(args.threads), *args.serve_options]),
                 "waitress": f"waitress alone, threads={args.threads}"}
        for key in ([args.only] if args.only else ["waitress", "serve"]):
            db, outbox, port = f"{work}/{key}.sqlite3", f"{work}/{key}-outbox", free_port()
            print(f"{names[key]}: seating {args.clients} games ...", flush=True)
            games = seat_games(db, outbox, args.clients)
            env = {**os.environ, "HEXLEDGER_DB": db, "HEXLEDGER_OUTBOX": outbox, "BENCH_PORT": str(port),
                   "BENCH_THREADS": str(args.threads), "HEXLEDGER_RATE_LIMIT": "1000000 per minute"}
            command = [part.replace("{port}", str(port)) for part in servers[key]]
            results.append((names[key], run(names[key], command, env, port, games, args.seconds, args.timeout)))
        load = os.getloadavg()
    print(f"\nmachine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; load average "
          f"at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; {args.clients} clients for {args.seconds:.0f} s, "
          f"client timeout {args.timeout:.0f} s")
    print(f"{'server':34} {'answered':>9} {'2xx':>7} {'503':>6} {'with R-A':>8} {'other':>12} {'timeouts':>9} "
          f"{'broken':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  goal: no timeout, every refusal a 503")
    for name, tally in results:
        print(tally.line(name))


if __name__ == "__main__":
    main()
