"""Reliability runs (issue 8): concurrent writers against the event store, and SIGKILLs of the HTTP server.

- race: writers in threads of this process submit orders to the same games at once (expected-sequence
  conflicts, retried), beside a baseline: the same writers doing raw sqlite3 inserts with the same durability.
- crashes: `python cli.py serve` (waitress serving app.web.create_app on 127.0.0.1) in its own process (or several
  processes on one PostgreSQL database), HTTP clients playing games on it, a server SIGKILLed at random moments
  mid-traffic and restarted on the same database, many times; a write counts as acknowledged only when its 2xx
  answer arrived. Snapshots are taken
  every few events (HEXLEDGER_SNAPSHOT_EVERY) so the games cross many snapshot boundaries between kills.

The CI tests (tests/reliability/) call these routines with small budgets; run this script for the larger runs
whose figures are kept in docs/reliability.md.

Each routine takes a database location: a SQLite file, or a postgresql:// URL (app/events/backends.py).

- faults (`--faults`, bench/faults.py): `tick` and `ingest-email` SIGKILLed at every step and run again, and a
  full disk on SQLite and on PostgreSQL (issue 25).

Usage: python bench/reliability.py [--games 20] [--writers 3] [--crash-rounds 30] [--clients 4]
       [--max-delay 1.0] [--snapshot-every 10] [--postgres --servers 3]
       python bench/reliability.py --faults
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import atexit  # noqa: E402
import http.client  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import sqlite3  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402

from app.events.backends import open_store  # noqa: E402
from app.events.store import Conflict, EventStore  # noqa: E402
from app.projections import state as projection  # noqa: E402
from app.rules.catalog import installed  # noqa: E402
from app.service import audit, games  # noqa: E402
from bench import pg_cluster  # noqa: E402

CATALOG = installed()  # the rule sets installed here

RED_MOVES = ("move R1 0202", "move R2 0203", "move R3 0204")


@dataclass
class RaceResult:
    games: int
    writers: int
    accepted: int = 0
    conflicts: int = 0
    seconds: float = 0.0
    lost: list = field(default_factory=list)
    unverified: list = field(default_factory=list)


def race(path: str, n_games: int, writers_per_game: int = 3) -> RaceResult:
    """Writers race to move the red units of each game (one unit each); a loser reloads and retries. Each writer
    has its own connection to the database at `path` (a SQLite file or a postgresql:// URL)."""
    setup = open_store(path)
    game_ids = [games.create_game(setup, CATALOG, "skirmish") for _ in range(n_games)]
    moves = RED_MOVES[:writers_per_game]
    result = RaceResult(n_games, n_games * len(moves))
    lock = threading.Lock()
    barrier = threading.Barrier(result.writers)

    def writer(game_id: str, order: str) -> None:
        store = open_store(path)
        barrier.wait()
        while True:
            seen = projection.load(store, CATALOG, game_id).meta.seq
            try:
                games.submit(store, CATALOG, game_id, "red", order, expected_seq=seen)
                with lock:
                    result.accepted += 1
                return
            except Conflict:
                with lock:
                    result.conflicts += 1

    threads = [threading.Thread(target=writer, args=(g, o)) for g in game_ids for o in moves]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    result.seconds = time.perf_counter() - start
    for game_id in game_ids:
        events = list(setup.events(game_id))
        orders = sorted(e.payload["text"] for e in events if e.type == "core.OrderGiven")
        if orders != sorted(moves) or [e.seq for e in events] != list(range(1, len(events) + 1)):
            result.lost.append(game_id)
        if not audit.verify(CATALOG, events).ok:
            result.unverified.append(game_id)
    setup.close()
    return result


def raw_race(path: str, writers: int, rows_each: int) -> float:
    """Baseline: the same number of writers inserting rows with raw sqlite3 (WAL, FULL); seconds taken."""
    init = sqlite3.connect(path, isolation_level=None)
    init.execute("PRAGMA journal_mode=WAL")
    init.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, w INTEGER, payload TEXT)")
    barrier = threading.Barrier(writers)

    def writer(w: int) -> None:
        conn = sqlite3.connect(path, isolation_level=None, timeout=30)
        conn.execute("PRAGMA synchronous=FULL")
        barrier.wait()
        for _ in range(rows_each):
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO t (w, payload) VALUES (?, ?)", (w, "x" * 200))
            conn.execute("COMMIT")

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(writers)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - start


ORDERS = (("red", "move R1 0202"), ("red", "move R2 0203"), ("red", "end"), ("red", "end"),
          ("blue", "move B1 0602"), ("blue", "move B2 0603"), ("blue", "end"), ("blue", "end"))
HTTP_ERRORS = (OSError, http.client.HTTPException)  # refused, reset, closed mid-answer, timed out: no answer


# The process each `serve` is forked from (`Launcher`): it imported the command line and the web app's modules
# and loaded the rule sets once; a request line {"start": ARGS, "env", "log"} forks a child that runs `cli.py ARGS`
# as `python cli.py ARGS` would (its own environment, the log as its standard output and error, no standard input)
# and answers its pid; {"wait": PID, "timeout": S} reaps it, answering its exit status (negative: the signal), or
# null while it runs.
LAUNCHER = """
import json, os, sys, time
sys.path.insert(0, {root!r})
os.chdir({root!r})
from bench.forked_cli import run_cli
import app.cli, app.events.postgres, app.web, app.web.access, app.web.server
from app.web import headers, play, players, replay, routes
from app.rules.catalog import installed
from app.service import games

games.rule_sets(installed())  # every rule set's modules and data loaded, as a server's first GET /rules loads them

for line in sys.stdin:
    ask = json.loads(line)
    if "start" in ask:
        pid = os.fork()
        if pid == 0:
            run_cli(ask["start"], ask["env"], ask["log"], ask["log"], append=True)
        answer = pid
    else:
        deadline, answer = time.monotonic() + ask["timeout"], None
        while True:
            done, status = os.waitpid(ask["wait"], os.WNOHANG)
            if done:
                answer = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() >= deadline:
                break
            time.sleep(0.01)
    print(json.dumps(answer), flush=True)
"""


class Launcher:
    """Starts `python cli.py ARGS` processes forked from one that imported the command line and the web app once
    (LAUNCHER), so a server started again after a kill serves in a fraction of a second instead of paying Python's
    start and the imports again (most of a restart's time: the other servers and the clients run on meanwhile).
    What runs, and what a SIGKILL or SIGTERM of it does, is the command's own; only the imports are shared. One a
    process (`shared`), ended with it."""

    _one: Launcher | None = None

    def __init__(self):
        self.lock = threading.Lock()
        self.process = subprocess.Popen([sys.executable, "-c", LAUNCHER.format(root=str(ROOT))], cwd=ROOT, text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    @classmethod
    def shared(cls) -> Launcher:
        if cls._one is None or cls._one.process.poll() is not None:
            cls._one = cls()
            atexit.register(cls._one.close)
        return cls._one

    def ask(self, request: dict):
        with self.lock:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait()


class Forked:
    """A `cli.py` process the Launcher forked, seen as a subprocess.Popen is (pid, poll, wait, kill, terminate)."""

    def __init__(self, launcher: Launcher, args: list[str], env: dict, log_path: str):
        self.launcher, self.returncode = launcher, None
        self.pid = launcher.ask({"start": args, "env": env, "log": log_path})

    def poll(self) -> int | None:
        return self.wait(0, quiet=True)

    def wait(self, timeout: float | None = None, quiet: bool = False) -> int | None:
        while self.returncode is None:
            self.returncode = self.launcher.ask({"wait": self.pid, "timeout": 60 if timeout is None else timeout})
            if self.returncode is None and timeout is not None:
                if quiet:
                    return None
                raise subprocess.TimeoutExpired(["cli.py"], timeout)
        return self.returncode

    def terminate(self) -> None:
        if self.returncode is None:
            os.kill(self.pid, signal.SIGTERM)


class Server:
    """`python cli.py --db DB serve` (waitress serving app.web.create_app) in its own process, on 127.0.0.1, forked
    from the Launcher's process."""

    def __init__(self, db: str, port: int, env: dict, log_path: str, threads: int = 4):
        self.args = ["--db", db, "serve", "--host", "127.0.0.1", "--port", str(port), "--threads", str(threads)]
        self.port, self.env, self.log_path = port, env, log_path
        self.proc: Forked | None = None

    def start(self, timeout: float = 120) -> None:
        self.proc = Forked(Launcher.shared(), self.args, self.env, self.log_path)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}; see {self.log_path}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/rules")
                if conn.getresponse().status == 200:
                    conn.close()
                    return
            except HTTP_ERRORS:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"the server did not answer within {timeout} s; see {self.log_path}")

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass(frozen=True)
class Ack:
    """A 2xx answer the client received: the event `kind` by `side` (with `text`, for an order) ends at `seq`."""

    game_id: str
    seq: int
    kind: str
    side: str = ""
    text: str = ""


@dataclass
class CrashResult:
    crashes: int = 0
    restarts_accepting: int = 0  # restarts after which the server answered and stored orders again
    acknowledged: int = 0  # 2xx answers received: game creations, joins and orders
    orders_acknowledged: int = 0
    in_doubt: int = 0  # requests that got no answer (the kill came while they were in flight)
    stored_unacknowledged: int = 0  # orders stored whose answer the kill swallowed (allowed: never told)
    lost: int = 0  # acknowledged but missing or different in the stream: must be 0
    games: int = 0
    unverified: int = 0  # games whose chain or re-run of orders fails (half-written): must be 0
    seatless: int = 0  # games stored without their seats (a half-done create): must be 0
    snapshot_every: int = 0
    snapshots: int = 0  # snapshots the killed servers left behind
    snapshot_boundaries: int = 0  # boundaries the games crossed; the difference is snapshots a kill prevented
    snapshots_match: bool = True  # every snapshot, and every head loaded through them, equals a full rebuild
    rebuilt_match: bool = True  # the same after rebuild_snapshots
    unexpected: list = field(default_factory=list)  # any answer but 2xx or 422 (e.g. a 5xx): must be empty
    problems: list = field(default_factory=list)  # what went wrong, for the failure message
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return (self.lost == 0 and self.unverified == 0 and self.seatless == 0 and not self.unexpected
                and not self.problems and self.snapshots_match and self.rebuilt_match
                and self.restarts_accepting == self.crashes)

    def summary(self) -> str:
        return (f"crashes: {self.crashes} SIGKILLs of the HTTP server (python cli.py serve) mid-traffic, "
                f"{self.restarts_accepting} restarts accepting orders again; {self.acknowledged} writes "
                f"acknowledged (2xx; {self.orders_acknowledged} orders) in {self.games} games, {self.lost} lost; "
                f"{self.in_doubt} requests cut off, {self.stored_unacknowledged} of them stored unacknowledged; "
                f"{self.unverified} games failed verify, {self.seatless} without seats, {len(self.unexpected)} "
                f"unexpected answers; snapshots every {self.snapshot_every} events: {self.snapshots} left by the "
                f"killed servers at {self.snapshot_boundaries} boundaries, equal full rebuild: "
                f"{self.snapshots_match}, rebuilt equal: {self.rebuilt_match}; {self.seconds:.1f} s")


class _Driver(threading.Thread):
    """One client playing skirmish games over HTTP, one after another, both seats by their tokens. It counts a
    write as acknowledged only when its 2xx answer arrived; a request cut off by a kill is in doubt and the
    client goes on (no retry of the same request) once the server is back."""

    def __init__(self, port: int, up: threading.Event, stop: threading.Event, n: int):
        super().__init__(daemon=True)
        self.port, self.up, self.stop, self.n = port, up, stop, n
        self.acks: list[Ack] = []
        self.in_doubt = 0
        self.unexpected: list = []
        self.conn: http.client.HTTPConnection | None = None

    def _call(self, method: str, path: str, body, token: str | None = None, text: bool = False):
        """(status, parsed body), or None when the server went away before answering."""
        headers = {"Content-Type": "text/plain" if text else "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            self.conn.request(method, path, body=body if text else json.dumps(body), headers=headers)
            response = self.conn.getresponse()
            data = response.read()
            return response.status, (json.loads(data) if data else None)
        except HTTP_ERRORS:
            self.in_doubt += 1
            if self.conn is not None:
                self.conn.close()
            self.conn = None
            self.up.wait(300)  # the controller restarts the server; then go on
            return None

    def _new_game(self) -> tuple[str, dict] | None:
        answer = self._call("POST", "/games", {"rules": "skirmish", "players": {
            "red": f"red{self.n}@crash.example", "blue": f"blue{self.n}@crash.example"}})
        if answer is None or answer[0] != 201:
            if answer is not None:
                self.unexpected.append(answer)
            return None
        game_id, tokens = answer[1]["game_id"], answer[1]["tokens"]
        self.acks.append(Ack(game_id, 1, "core.GameCreated"))
        for side in ("red", "blue"):
            while not self.stop.is_set():
                answer = self._call("POST", f"/games/{game_id}/join", {"seed_text": side}, tokens[side])
                if answer is None:
                    continue  # in doubt: ask again; 'already taken' then means the cut-off join was stored
                if answer[0] == 201:
                    self.acks.append(Ack(game_id, answer[1]["seq"], "core.PlayerJoined", side))
                elif not (answer[0] == 400 and "already taken" in answer[1]["message"]):
                    self.unexpected.append(answer)
                break
        return game_id, tokens

    def run(self) -> None:
        game = None
        refused = 0
        for attempt in itertools.count():
            if self.stop.is_set():
                break
            if game is None:
                game, refused = self._new_game(), 0
                continue
            game_id, tokens = game
            side, order = ORDERS[attempt % len(ORDERS)]  # both sides' orders in turn: the one to act gets its in
            answer = self._call("POST", f"/games/{game_id}/orders", order, tokens[side], text=True)
            if answer is None:
                refused += 1
                continue
            status, body = answer
            if status == 201:
                self.acks.append(Ack(game_id, body["seq"], "core.OrderGiven", side, order))
                refused = 0
            elif status == 422:  # illegal here (not that side's turn, unit already moved) or the game is over
                refused += 1
                if refused > 2 * len(ORDERS):  # every order of both sides refused twice over: the game ended
                    game = None
            else:
                self.unexpected.append(answer)
                refused += 1
        if self.conn is not None:
            self.conn.close()


def _acknowledged_at(ack: Ack, by_seq: dict) -> int | None:
    """The seq where the acknowledged write is in the stream (its events ending at the seq its answer gave),
    or None if it is not there."""
    last = by_seq.get(ack.seq)
    if last is None:
        return None
    if ack.kind != "core.OrderGiven":
        same = last.type == ack.kind and (not ack.side or last.payload.get("side") == ack.side)
        return ack.seq if same else None
    seq = ack.seq
    while seq in by_seq and by_seq[seq].type != "core.OrderGiven":
        seq -= 1  # back from the order's last event to the order itself
    order = by_seq.get(seq)
    same = order is not None and order.payload["side"] == ack.side and order.payload["text"] == ack.text
    return seq if same else None


def _check_snapshots(store: EventStore, game_id: str, every: int, result: CrashResult) -> None:
    rules = CATALOG.rules(store.game(game_id)["rules"])
    head = store.head(game_id)[0]
    seqs = _snapshot_seqs(store, game_id, projection.rules_key(rules), head)
    result.snapshots += len(seqs)
    result.snapshot_boundaries += head // every

    def same(at: int) -> bool:
        return (projection.encode(rules, projection.load(store, CATALOG, game_id, at)) ==
                projection.encode(rules, projection.load(store, CATALOG, game_id, at, use_snapshots=False)))

    if not all(same(at) for at in [*seqs, head]):
        result.snapshots_match = False
        result.problems.append(f"{game_id}: a snapshot differs from the full rebuild")
    projection.rebuild_snapshots(store, CATALOG, game_id, every)
    if not same(head):
        result.rebuilt_match = False
        result.problems.append(f"{game_id}: after rebuild_snapshots the head differs from the full rebuild")


def result_unexpected(drivers: list[_Driver]) -> list:
    return [u for d in drivers for u in d.unexpected]


def _snapshot_seqs(store: EventStore, game_id: str, rules_key: str, head: int) -> list[int]:
    """Every seq the game has a snapshot at, through the store's interface (any backend)."""
    seqs: list[int] = []
    found = store.latest_snapshot(game_id, head, rules_key)
    while found is not None:
        seqs.append(found[0])
        found = store.latest_snapshot(game_id, found[0] - 1, rules_key)
    return seqs


def crash_rounds(path: str, rounds: int, rng: random.Random, clients: int = 3, max_delay: float = 0.5,
                 snapshot_every: int = 10, servers: int = 1, work_dir: str | None = None) -> CrashResult:
    """Serve `path` with `servers` processes of `python cli.py serve` (several need a PostgreSQL database) while
    `clients` HTTP clients play games on them (client n on server n % servers); `rounds` times, once a server has
    acknowledged a write, SIGKILL one of them (in turn) after a random delay (up to `max_delay` s) and restart it on
    the same database and port, the others serving on. After the last restart has acknowledged writes from every
    client, stop and check the database: every acknowledged write present, every game verifying and seated, and
    the snapshots the servers left (every `snapshot_every` events) equal to a full rebuild. Logs and mail files go
    to `work_dir` (default: the SQLite file's folder)."""
    if clients < servers:
        raise ValueError("at least one client per server")
    work = Path(work_dir) if work_dir else Path(path).parent
    env = {**os.environ, "HEXLEDGER_SNAPSHOT_EVERY": str(snapshot_every), "HEXLEDGER_RATE_LIMIT": "1000000 per minute",
           "HEXLEDGER_OPEN_GAME_CREATION": "1",
           "HEXLEDGER_OUTBOX": str(work / "crash-outbox"), "HEXLEDGER_DB": path, "PYTHONPATH": str(ROOT)}
    env.pop("HEXLEDGER_SMTP_HOST", None)
    processes = [Server(path, free_port(), env, str(work / f"crash-server-{n}.log")) for n in range(servers)]
    result = CrashResult(snapshot_every=snapshot_every)
    ups, stop = [threading.Event() for _ in processes], threading.Event()
    drivers = [_Driver(processes[n % servers].port, ups[n % servers], stop, n) for n in range(clients)]

    def acks(on: int | None = None) -> list[int]:
        return [len(d.acks) for n, d in enumerate(drivers) if on is None or n % servers == on]

    def wait_for_acks(since: list[int], every_client: bool, on: int | None = None, timeout: float = 300) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            now = acks(on)
            grew = [a > b for a, b in zip(now, since, strict=True)]
            if all(grew) if every_client else any(grew):
                return True
            time.sleep(0.01)
        return False

    start = time.perf_counter()
    try:
        for server, up in zip(processes, ups, strict=True):
            server.start()
            up.set()
        for d in drivers:
            d.start()
        for round_ in range(rounds):
            victim = round_ % servers
            since = acks(victim)
            if not wait_for_acks(since, every_client=False, on=victim):
                result.problems.append(f"server {victim} stored nothing within 300 s")
                break
            time.sleep(rng.uniform(0, max_delay))  # mid-traffic, at a random moment
            ups[victim].clear()
            processes[victim].kill()
            result.crashes += 1
            processes[victim].start()
            restarted = acks(victim)
            ups[victim].set()
            if wait_for_acks(restarted, every_client=False, on=victim):
                result.restarts_accepting += 1
        if not wait_for_acks(acks(), every_client=True):  # the last servers are back for every client
            result.problems.append("after the last restart not every client got an order in")
    finally:
        stop.set()
        for up in ups:
            up.set()
        for d in drivers:
            d.join(timeout=120)
        for server in processes:
            server.stop()
    result.seconds = time.perf_counter() - start
    if any(status >= 500 for status, _ in result_unexpected(drivers)):  # the servers' own account of a 5xx
        for server in processes:
            log = Path(server.log_path).read_text(errors="replace")
            if "Traceback" in log:
                result.problems.append(f"{server.log_path}: {log[log.rindex('Traceback'):][:2000]}")

    store = open_store(path)
    try:
        all_acks = [a for d in drivers for a in d.acks]
        result.acknowledged = len(all_acks)
        result.orders_acknowledged = sum(a.kind == "core.OrderGiven" for a in all_acks)
        result.in_doubt = sum(d.in_doubt for d in drivers)
        result.unexpected = result_unexpected(drivers)
        by_game: dict[str, dict] = {}
        for game in store.games():
            game_id = game["id"]
            events = list(store.events(game_id))
            by_game[game_id] = {e.seq: e for e in events}
            result.games += 1
            report = audit.verify(CATALOG, events)
            if not report.ok or [e.seq for e in events] != list(range(1, len(events) + 1)):
                result.unverified += 1
                result.problems.append(f"{game_id}: {report.problems[:1]}")
            if not store.members(game_id):
                result.seatless += 1
                result.problems.append(f"{game_id}: stored without its seats")
            _check_snapshots(store, game_id, snapshot_every, result)
        told: set[tuple[str, int]] = set()
        for ack in all_acks:
            at = _acknowledged_at(ack, by_game.get(ack.game_id, {}))
            if at is None:
                result.lost += 1
                result.problems.append(f"lost: {ack}")
            told.add((ack.game_id, at))
        result.stored_unacknowledged = sum(1 for game_id, events in by_game.items() for e in events.values()
                                           if e.type == "core.OrderGiven" and (game_id, e.seq) not in told)
    finally:
        store.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--writers", type=int, default=3)
    parser.add_argument("--crash-rounds", type=int, default=30, help="SIGKILLs of the server")
    parser.add_argument("--clients", type=int, default=4, help="HTTP clients playing games during the crashes")
    parser.add_argument("--max-delay", type=float, default=1.0,
                        help="a kill lands up to this many seconds after the server's first acknowledged write")
    parser.add_argument("--snapshot-every", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", action="store_true",
                        help="run the race and the crashes on a PostgreSQL server started for the run "
                             "(bench/pg_cluster.py) instead of SQLite files")
    parser.add_argument("--servers", type=int, default=1, help="serve processes on the one database (--postgres)")
    parser.add_argument("--faults", action="store_true",
                        help="instead: tick and ingest-email killed at every step, a full disk on both backends")
    args = parser.parse_args()
    if args.faults:
        from bench import faults

        with tempfile.TemporaryDirectory() as tmp:
            results = [faults.kill_tick(tmp), faults.kill_ingest(tmp), faults.disk_full_sqlite(tmp),
                       faults.disk_full_postgres()]
        for result in results:
            print(result.summary())
            for problem in result.problems[:10]:
                print("  problem:", problem)
        sys.exit(0 if all(r.ok for r in results) else 1)
    if args.servers > 1 and not args.postgres:
        parser.error("several servers on one database need --postgres")
    with tempfile.TemporaryDirectory() as tmp:
        cluster = pg_cluster.start() if args.postgres else None
        try:
            race_db = cluster.create_database("race") if cluster else os.path.join(tmp, "race.sqlite3")
            crash_db = cluster.create_database("crash") if cluster else os.path.join(tmp, "crash.sqlite3")
            r = race(race_db, args.games, args.writers)
            baseline = raw_race(os.path.join(tmp, "raw.sqlite3"), r.writers, 1)
            c = crash_rounds(crash_db, args.crash_rounds, random.Random(args.seed), args.clients, args.max_delay,
                             args.snapshot_every, servers=args.servers, work_dir=tmp)
        finally:
            if cluster:
                cluster.stop()
    print(f"database: {'PostgreSQL, ' + str(args.servers) + ' serve processes' if args.postgres else 'SQLite'}")
    print(f"race: {r.writers} writers on {r.games} games, {r.accepted} orders accepted, {r.conflicts} conflicts "
          f"told and retried, {len(r.lost)} games lost an order, {len(r.unverified)} failed verify; "
          f"{r.seconds:.2f} s (baseline: {r.writers} raw sqlite3 writers, one durable insert each: {baseline:.2f} s)")
    print(c.summary())
    for problem in c.problems[:20]:
        print("  problem:", problem)
    for answer in c.unexpected[:5]:
        print("  unexpected answer:", answer)
    sys.exit(0 if c.ok and not r.lost and not r.unverified else 1)


if __name__ == "__main__":
    main()
