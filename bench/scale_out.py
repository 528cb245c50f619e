"""Orders a second through N `serve` processes on one PostgreSQL database, beside SQLite with one `serve` process, in
the same run (issue 26; docs/architecture.md, "Past one machine"). Every server is `cli.py serve` as an operator
runs it (its own mail sender process, turn emails to a folder); the clients are threads of a process of their own
(this script, run again as `--clients-of FILE`), each on its own kept-alive connection, giving 'end' orders in its
own skirmish games (24 to a game, then the next), so the servers' cores are not the clients'.

For each configuration: orders a second, p50 and p99 of an order, answers that were not 201, the CPU the servers
(with their sender processes) and PostgreSQL spent an order, and then what follows the orders: how long until every
reaction and email has caught up (`drain`), how many turn emails were sent or superseded, and whether any email went
twice (Message-ID). `--spread` also runs the largest PostgreSQL configuration with every client's requests spread
over all the processes in turn (no affinity: each process folds what the others appended), beside the same with
each client kept to one process. `--limiter` shows the per-process rate limiter: one seat's requests spread over two
processes, each counting for itself.

    python bench/scale_out.py [--processes 1,2,4] [--clients 16] [--seconds 20] [--threads 8] [--rounds 1]
                              [--spread] [--limiter]

No test runs it; figures in docs/benchmarks.md and docs/architecture.md.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import email  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from dataclasses import dataclass  # noqa: E402

from app.events.backends import open_store  # noqa: E402
from app.service.application import SUBSCRIBERS  # noqa: E402
from bench import pg_cluster, test_cpu  # noqa: E402
from bench.serve_load import ENDS_PER_GAME, free_port, seat_games, start  # noqa: E402

signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # killed: the servers and PostgreSQL are stopped on the way out



@dataclass
class Result:
    name: str
    orders: int
    seconds: float
    p50_ms: float
    p99_ms: float
    refused: dict
    server_cpu_ms: float  # serve processes and their senders, an order
    db_cpu_ms: float  # PostgreSQL's processes, an order (0 for SQLite)
    drain_s: float
    mail: dict
    duplicates: int

    def line(self) -> str:
        return (f"{self.name:44} {self.orders / self.seconds:9.0f} {self.p50_ms:7.1f} {self.p99_ms:7.1f} "
                f"{sum(self.refused.values()):7} {self.server_cpu_ms:9.2f} {self.db_cpu_ms:7.2f} {self.drain_s:7.1f} "
                f"{self.mail.get('sent', 0):6} {self.mail.get('superseded', 0):6} {self.duplicates:5}")


# -- the clients' process -------------------------------------------------------------------------------------
def clients_of(spec_file: str) -> None:
    """The load: spec {ports, games, clients, seconds, spread}; prints the tally as JSON."""
    spec = json.loads(Path(spec_file).read_text())
    ports, games, clients, spread = spec["ports"], spec["games"], spec["clients"], spec["spread"]
    latencies: list[float] = []
    refused: Counter = Counter()
    lock = threading.Lock()
    barrier = threading.Barrier(clients + 1)
    stop = [False]

    def client(c: int) -> None:
        mine = games[c::clients]
        conns: dict[int, http.client.HTTPConnection] = {}
        sent = 0
        barrier.wait()
        for game_id, tokens in mine:
            for ends in range(ENDS_PER_GAME):
                if stop[0]:
                    return
                port = ports[(c + sent) % len(ports)] if spread else ports[c % len(ports)]
                conn = conns.get(port) or conns.setdefault(port, http.client.HTTPConnection("127.0.0.1", port,
                                                                                             timeout=60))
                side = "red" if (ends // 2) % 2 == 0 else "blue"
                started = time.perf_counter()
                conn.request("POST", f"/games/{game_id}/orders", body=json.dumps({"order": "end"}),
                             headers={"Authorization": f"Bearer {tokens[side]}", "Content-Type": "application/json"})
                response = conn.getresponse()
                response.read()
                took = time.perf_counter() - started
                sent += 1
                with lock:
                    if response.status == 201:
                        latencies.append(took)
                    else:
                        refused[response.status] += 1
                if response.status != 201:
                    break  # this game is off its turn now: the next one
        with lock:
            refused["games ran out"] += 1  # seat more (--max-rate) if this comes before the end

    threads = [threading.Thread(target=client, args=(c,), daemon=True) for c in range(clients)]
    for t in threads:
        t.start()
    barrier.wait()
    began = time.perf_counter()
    time.sleep(spec["seconds"])
    stop[0] = True
    with lock:
        done, seconds = list(latencies), time.perf_counter() - began
    for t in threads:
        t.join(60)
    ms = sorted(x * 1000 for x in done) or [float("nan")]
    print(json.dumps({"orders": len(done), "seconds": seconds, "p50_ms": statistics.median(ms),
                      "p99_ms": ms[min(len(ms) - 1, int(len(ms) * 0.99))],
                      "refused": {str(k): v for k, v in refused.items() if v}}))


# -- the servers ------------------------------------------------------------------------------------------------
def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU of these processes and of their living children (the senders, PostgreSQL's backends)."""
    wanted = set(pids)
    return sum(own for pid, (parent, own, _) in test_cpu.processes().items() if pid in wanted or parent in wanted)


def postmaster(cluster: pg_cluster.Cluster) -> list[int]:
    return [int((cluster.data / "postmaster.pid").read_text().split()[0])]


def drained(location: str, seconds: float = 300.0) -> float:
    """Seconds until no reaction is behind and no mail is pending (the senders' work after the orders)."""
    store = open_store(location)
    began = time.monotonic()
    try:
        while time.monotonic() - began < seconds:
            if not store.reactions_behind(list(SUBSCRIBERS)) and not any(
                    m["status"] == "pending" for m in store.mail_queue()):
                break
            time.sleep(0.25)
        return time.monotonic() - began
    finally:
        store.close()


def mail_counts(location: str, outbox: str) -> tuple[dict, int]:
    """The outbox rows by status, and how many emails in the folder repeat a Message-ID."""
    store = open_store(location)
    try:
        statuses = Counter(m["status"] for m in store.mail_queue())
    finally:
        store.close()
    ids = Counter()
    for path in Path(outbox).glob("*.eml"):
        with open(path, "rb") as fh:
            ids[email.message_from_binary_file(fh).get("Message-ID")] += 1
    return {"pending": statuses.get("pending", 0), "superseded": statuses.get("superseded", 0),
            "sent": sum(ids.values())}, sum(n - 1 for n in ids.values() if n > 1)


def serve(location: str, outbox: str, processes: int, threads: int) -> list[tuple[subprocess.Popen, int]]:
    env = {**os.environ, "HEXLEDGER_DB": location, "HEXLEDGER_OUTBOX": outbox,
           "HEXLEDGER_RATE_LIMIT": "1000000 per minute"}
    started = []
    for _ in range(processes):
        port = free_port()
        started.append((start([sys.executable, "cli.py", "serve", "--port", str(port), "--threads", str(threads)],
                              env, port), port))
    return started


def stop(servers: list[tuple[subprocess.Popen, int]]) -> None:
    for process, _ in servers:
        process.terminate()
    for process, _ in servers:
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()


def seated(location: str, work: Path, count: int) -> list[tuple[str, dict]]:
    """`count` skirmish games, both sides joined, their invitations and first turn emails sent (to a folder that
    is then dropped), on the database at `location`: the template every configuration of a backend starts from."""
    made = seat_games(location, str(work / "seating-outbox"), count)
    if not location.startswith("postgresql"):
        store = open_store(location)
        store.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the file alone holds it all: copied as it is
        store.close()
    return made


def copy_of(template: str, name: str, work: Path, cluster: pg_cluster.Cluster) -> str:
    """A new database holding what the template holds (SQLite: a copy of the file; PostgreSQL: CREATE DATABASE
    ... TEMPLATE)."""
    if not template.startswith("postgresql"):
        copy = work / f"{name}.sqlite3"
        shutil.copyfile(template, copy)
        return str(copy)
    import psycopg

    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template.rsplit("/", 1)[1]}"')
    return cluster.url(name)


def measure(name: str, location: str, games: list, work: Path, processes: int, args, spread: bool,
            db_pids: list[int]) -> Result:
    outbox = str(work / f"outbox-{time.monotonic_ns()}")
    print(f"{name}: {args.seconds:.0f} s ...", flush=True)
    servers = serve(location, outbox, processes, args.threads)
    try:
        spec = work / "spec.json"
        spec.write_text(json.dumps({"ports": [p for _, p in servers], "games": games, "clients": args.clients,
                                    "seconds": args.seconds, "spread": spread}))
        pids = [p.pid for p, _ in servers]
        cpu_before, db_before = cpu_seconds(pids), cpu_seconds(db_pids)
        done = subprocess.run([sys.executable, __file__, "--clients-of", str(spec)], cwd=ROOT, capture_output=True,
                              text=True, check=True)
        cpu_after, db_after = cpu_seconds(pids), cpu_seconds(db_pids)
        tally = json.loads(done.stdout.strip().splitlines()[-1])
        drain = drained(location)
        time.sleep(1.5)  # a sender's last round: its files written
    finally:
        stop(servers)
    mail, duplicates = mail_counts(location, outbox)
    orders = max(1, tally["orders"])
    refused = {k: v for k, v in tally["refused"].items() if k != "games ran out"}
    return Result(name, tally["orders"], tally["seconds"], tally["p50_ms"], tally["p99_ms"], refused,
                  (cpu_after - cpu_before) * 1e3 / orders, (db_after - db_before) * 1e3 / orders, drain, mail,
                  duplicates)


def limiter(location: str, work: Path) -> str:
    """One seat's 120 state reads spread over two processes whose limit is 30 a minute: how many are answered."""
    outbox = str(work / "limiter-outbox")
    game_id, tokens = seat_games(location, outbox, 1)[0]
    env = {**os.environ, "HEXLEDGER_DB": location, "HEXLEDGER_OUTBOX": outbox, "HEXLEDGER_RATE_LIMIT": "30 per minute"}
    servers = []
    try:
        for _ in range(2):
            port = free_port()
            servers.append((start([sys.executable, "cli.py", "serve", "--port", str(port)], env, port), port))
        answered = Counter()
        for i in range(120):
            conn = http.client.HTTPConnection("127.0.0.1", servers[i % 2][1], timeout=30)
            conn.request("GET", f"/games/{game_id}/state", headers={"Authorization": f"Bearer {tokens['red']}"})
            answered[conn.getresponse().status] += 1
            conn.close()
    finally:
        stop(servers)
    return (f"rate limit '30 per minute' per seat, memory:// storage, one seat's 120 reads spread over 2 processes: "
            f"{answered[200]} answered, {answered[429]} refused 429 (one process alone answers 30)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", default="1,2,4", help="numbers of serve processes on PostgreSQL")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--threads", type=int, default=8, help="each serve process's worker threads")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--max-rate", type=float, default=600.0, help="orders a second the games are seated for")
    parser.add_argument("--spread", action="store_true", help="also the largest configuration without affinity")
    parser.add_argument("--limiter", action="store_true", help="also the per-process rate limiter")
    parser.add_argument("--clients-of", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.clients_of:
        clients_of(args.clients_of)
        return
    counts = [int(n) for n in args.processes.split(",")]
    cluster = pg_cluster.start(max_connections=100 + 20 * max(counts) * args.threads)
    results: list[Result] = []
    notes = []
    load_start = os.getloadavg()
    try:
        with tempfile.TemporaryDirectory() as folder:
            work = Path(folder)
            count = math.ceil(args.max_rate * args.seconds / ENDS_PER_GAME)
            count += -count % args.clients
            templates = {"sqlite": str(work / "template.sqlite3"), "pg": cluster.create_database("template")}
            games = {}
            for kind, template in templates.items():
                print(f"seating {count} games on {kind} ...", flush=True)
                games[kind] = seated(template, work, count)
                drained(template)
            for r in range(args.rounds):
                configs = [("SQLite, 1 serve process", "sqlite", 1, False)]
                configs += [(f"PostgreSQL, {n} serve process{'es' if n > 1 else ''}", "pg", n, False) for n in counts]
                if args.spread:
                    configs.append((f"PostgreSQL, {max(counts)} processes, no affinity", "pg", max(counts), True))
                for name, kind, n, spread in configs:
                    location = copy_of(templates[kind], f"r{r}_{n}_{int(spread)}", work, cluster)
                    db_pids = [] if kind == "sqlite" else postmaster(cluster)
                    results.append(measure(name, location, games[kind], work, n, args, spread, db_pids))
                    print("  " + results[-1].line(), flush=True)
            if args.limiter:
                notes.append(limiter(cluster.create_database("limiter"), work))
    finally:
        cluster.stop()
    load = os.getloadavg()
    print(f"\nmachine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; load average "
          f"{load_start[0]:.1f} at the start, {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} at the end; {args.clients} "
          f"clients in a process of their own, {args.seconds:.0f} s each, serve --threads {args.threads}")
    print(f"{'configuration':44} {'orders/s':>9} {'p50 ms':>7} {'p99 ms':>7} {'not 201':>7} {'srv CPU':>9} "
          f"{'db CPU':>7} {'drain s':>7} {'mails':>6} {'supers':>6} {'twice':>5}")
    for result in results:
        print(result.line())
    print("(srv CPU, db CPU: ms of CPU an order, the serve processes with their senders, and PostgreSQL; drain: "
          "seconds after the last order until every reaction and email had caught up; mails: emails written, "
          "supers: turn emails superseded unsent, twice: emails sent more than once)")
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()
