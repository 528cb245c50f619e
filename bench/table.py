"""Issue 15's table: every workload beside a baseline measured in the same run, in interleaved rounds.

Each round measures every row once, the row's own figure and its baseline one after the other, so a busy
moment on a shared machine falls on both; the table prints the median of the rounds and the spread (the lowest and
highest ratio of one sample to its own baseline). The durable-writers rows take --alternations samples a round, the
SQLite store, eventsourcing and PostgreSQL in turn, their order rotating. Baselines: raw sqlite3 (same rows), the
eventsourcing library (its SQLite recorder at the same durability: WAL, synchronous=FULL; beside the PostgreSQL
store, also its PostgreSQL recorder on the same server: bench/writers.py), a bare endpoint on the same waitress
server, the same order submit with its receipt not signed (issue 31: signed and unsigned in turn, request by
request), a bare fold without the store, a bare Python process; the PostgreSQL rows run on a server the script
starts (bench/pg_cluster.py), beside SQLite's.
The replay rows (issue 25) are a stranger's refused replay read beside a refused read of a game that does not
exist (same server), and the first replay build and a `verify` of a game of 600 move+undo cycles beside a bare fold
of the same events.

    python bench/table.py [--rounds 3] [--events 20000] [--big 100000] [--undos 600] [--only http,read,replay,...]

Needs the bench extra (pip install -e '.[bench]': eventsourcing, with its postgres extra) and, for the PostgreSQL
rows, Debian's postgresql (as the tests do). No test runs this; no test asserts a time.
"""
from __future__ import annotations

import argparse
import http.client
import importlib.util
import json
import logging
import os
import platform
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "snc")]

from app.events import dice  # noqa: E402
from app.events.backends import is_url, open_store  # noqa: E402
from app.events.envelope import canonical_json  # noqa: E402
from app.events.registry import decode_stored  # noqa: E402
from app.events.store import EventStore  # noqa: E402
from app.projections import state as projection  # noqa: E402
from app.projections.cache import STATES  # noqa: E402
from app.rules.catalog import installed  # noqa: E402
from app.service import games, receipts  # noqa: E402
from bench import pg_cluster  # noqa: E402
from bench.http_api import requests  # noqa: E402
from bench.store import bare_rebuild, command_batch, long_game  # noqa: E402
from bench.writers import eventsourcing_pg_writers, together  # noqa: E402

CATALOG = installed()  # the rule sets installed here

SNC_DICE_SEED = "hexledger-bench-dice-seed"  # the bench's SNC games: this seed and random orders (`snc_game`)
WRITERS = 4


def median_ms(fn: Callable[[], object], repeat: int = 3, pick=statistics.median,
              clock: Callable[[], float] = time.perf_counter) -> float:
    """`fn`'s time in ms, the median (`pick`) of `repeat` runs, on `clock` (wall time; time.thread_time: the CPU
    time of this thread, which other work on a busy machine changes less)."""
    times = []
    for _ in range(repeat):
        start = clock()
        fn()
        times.append(clock() - start)
    return pick(times) * 1000


class Row:
    """One line of the table: per round, our figure and the baseline's; `better` says which way is good."""

    def __init__(self, name: str, unit: str, baseline: str, goal: str,
                 check: Callable[[float, float], bool] | None):
        """`check` None: a row to read beside another, with no goal of its own (its verdict column stays empty)."""
        self.name, self.unit, self.baseline, self.goal, self.check = name, unit, baseline, goal, check
        self.ours: list[float] = []
        self.theirs: list[float] = []

    def add(self, ours: float, theirs: float) -> None:
        self.ours.append(ours)
        self.theirs.append(theirs)

    def line(self) -> str:
        """The medians, their ratio, and the spread: the lowest and highest ratio of one sample to its baseline."""
        ours, theirs = statistics.median(self.ours), statistics.median(self.theirs)
        ratio = ours / theirs if theirs else float("nan")
        ratios = [o / t for o, t in zip(self.ours, self.theirs, strict=True) if t]
        spread = f"{min(ratios):.2f}-{max(ratios):.2f}" if ratios else "-"
        met = "" if self.check is None else "met" if self.check(ours, theirs) else "NOT MET"
        return (f"{self.name:54} {ours:10.3f} {theirs:10.3f} {self.unit:9} {ratio:7.2f}x {spread:>11}  {self.goal:22}"
                f" {met:8} baseline: {self.baseline}")


# -- SQLite store rows ------------------------------------------------------------------------------------
def appends_cpu(tmp: Path, commands: int) -> tuple[float, float]:
    """Commands (3 rows) per second at synchronous=NORMAL, no fsync: the store's CPU path vs raw sqlite3."""
    store = EventStore(str(tmp / f"cpu-{time.monotonic_ns()}.sqlite3"))
    store.db.conn.execute("PRAGMA synchronous=NORMAL")
    store.db.group = None  # the CPU path only: no fsync after the commit
    game_id = store.create_game("g", "skirmish", "meeting", command_batch(0)[:1], None)[0].game_id
    seq = 1
    batches = [command_batch(i) for i in range(commands)]
    start = time.perf_counter()
    for batch in batches:
        seq = store.append(game_id, seq, batch)[-1].seq
    ours = commands / (time.perf_counter() - start)
    store.close()
    conn = sqlite3.connect(str(tmp / f"raw-{time.monotonic_ns()}.sqlite3"), isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("CREATE TABLE events (game_id TEXT, seq INTEGER, type TEXT, version INTEGER, payload TEXT, "
                 "actor TEXT, at TEXT, causation INTEGER, prev_hash TEXT, hash TEXT, "
                 "PRIMARY KEY (game_id, seq)) WITHOUT ROWID")
    seq = 0
    start = time.perf_counter()
    for batch in batches:
        conn.execute("BEGIN IMMEDIATE")
        for e in batch:
            seq += 1
            conn.execute("INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?,?)",
                         ("g", seq, e.type, e.version, canonical_json(e.payload), e.actor, "t", None, "p", "h"))
        conn.execute("COMMIT")
    theirs = commands / (time.perf_counter() - start)
    conn.close()
    return ours, theirs


def store_writers(location: str, each: int) -> float:
    """Durable commands per second of the store (`location`: a SQLite file or a postgresql:// URL), WRITERS
    threads each appending `each` commands to its own game on its own connection, one transaction each."""
    setup = open_store(location)
    names = [f"w{time.monotonic_ns()}-{w}" for w in range(WRITERS)]
    for name in names:
        setup.create_game(name, "skirmish", "meeting", command_batch(0)[:1], None)

    def ours(w: int, barrier: threading.Barrier) -> None:
        store, seq = open_store(location), 1
        barrier.wait()
        for i in range(each):
            seq = store.append(names[w], seq, command_batch(i))[-1].seq
        store.close()

    rate = WRITERS * each / together(ours, WRITERS)
    setup.close()
    return rate


def eventsourcing_writers(tmp: Path, each: int) -> float:
    """The baseline of `store_writers`: eventsourcing's SQLite recorder at synchronous=FULL (WAL), WRITERS threads,
    each insert of a command's events one transaction."""
    from eventsourcing.persistence import StoredEvent as ESEvent
    from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteConnectionPool, SQLiteDatastore

    class FullSync(SQLiteConnectionPool):
        def _create_connection(self):
            connection = super()._create_connection()
            connection._sqlite_conn.execute("PRAGMA synchronous=FULL")
            return connection

    es_path = str(tmp / f"es-{time.monotonic_ns()}.sqlite3")
    datastore = SQLiteDatastore(es_path, originator_id_type="text", pool_size=WRITERS + 1)
    datastore.pool = FullSync(db_name=es_path, pool_size=WRITERS + 1)
    recorder = SQLiteAggregateRecorder(datastore)
    recorder.create_table()

    def theirs(w: int, barrier: threading.Barrier) -> None:
        barrier.wait()
        for i in range(each):
            recorder.insert_events([ESEvent(f"g{w}", i * 3 + k + 1, e.type, canonical_json(e.payload).encode())
                                    for k, e in enumerate(command_batch(i))])

    rate = WRITERS * each / together(theirs, WRITERS)
    datastore.close()
    return rate


def writer_samples(tmp: Path, pg_url: str | None, each: int, alternations: int) -> list[dict[str, float]]:
    """`alternations` samples of the durable-writers rows, each measuring SQLite's store, eventsourcing and (with
    `pg_url`) PostgreSQL's store and eventsourcing's PostgreSQL recorder on the same server back to back, in an
    order that rotates from one sample to the next, so a busy moment of the machine falls on each of them in turn."""
    runs = {"sqlite": lambda: store_writers(str(tmp / f"writers-{time.monotonic_ns()}.sqlite3"), each),
            "eventsourcing": lambda: eventsourcing_writers(tmp, each)}
    if pg_url is not None:
        runs["postgresql"] = lambda: store_writers(pg_url, each)
        runs["eventsourcing_pg"] = lambda: eventsourcing_pg_writers(pg_url, WRITERS, each, command_batch)
    order = list(runs)
    samples = []
    for n in range(alternations):
        turn = order[n % len(order):] + order[:n % len(order)]
        sync = sync_ms(tmp)
        samples.append({"sync_ms": sync, **{name: runs[name]() for name in turn}})
    return samples


def sync_ms(tmp: Path, times: int = 5) -> float:
    """The median time of an fdatasync of a freshly written 4 KiB page, now: what a durable commit waits for."""
    path = tmp / "sync-probe"
    took = []
    with open(path, "wb") as probe:
        for _ in range(times):
            probe.write(os.urandom(4096))
            probe.flush()
            start = time.perf_counter()
            os.fdatasync(probe.fileno())
            took.append(time.perf_counter() - start)
    path.unlink()
    return statistics.median(took) * 1000


def head_loads(store: EventStore, game_id: str) -> tuple[float, float, float]:
    """State at the head: from the in-memory cache (hit), from the latest snapshot (miss); the baseline is the
    bare query for the head row (raw sqlite3; on PostgreSQL, on the store's connection)."""
    projection.load(store, CATALOG, game_id)
    hit = median_ms(lambda: projection.load(store, CATALOG, game_id), repeat=20)

    def miss():
        STATES.clear()
        projection.load(store, CATALOG, game_id)

    cold = median_ms(miss, repeat=10)
    sqlite = not is_url(store.path)
    raw = sqlite3.connect(store.path) if sqlite else store.db.conn
    head = f"SELECT seq, hash FROM events WHERE game_id = {'?' if sqlite else '%s'} ORDER BY seq DESC LIMIT 1"
    query = median_ms(lambda: raw.execute(head, [game_id]).fetchone(), repeat=20)
    if sqlite:
        raw.close()
    return hit, cold, query


def pg_bare_rebuild(store: EventStore, game_id: str):
    """bench/store.py's bare_rebuild on PostgreSQL: SELECT, json.loads and fold, nothing else."""
    from psycopg.rows import tuple_row


    with store.db.conn.cursor(row_factory=tuple_row) as cursor:
        return bare_fold(CATALOG.rules("skirmish"), cursor.execute(
            "SELECT type, version, payload FROM events WHERE game_id = %s ORDER BY seq", [game_id]).fetchall())


def bare_fold(rules, rows):
    """A game's state from its (type, version, payload text) rows: json.loads and the rules' fold, nothing else."""
    state = None
    for type_, version, payload in rows:
        body = json.loads(payload)
        if type_ == "core.GameCreated":
            state = rules.initial_state(body["scenario"], body["options"])
        elif not type_.startswith("core."):
            state = rules.evolve(state, decode_stored(type_, version, body))
    return state


# -- the SNC game -------------------------------------------------------------------------------------------
def snc_game(path: str, chooser: int = 0, game_id: str = "g-snc") -> str:
    """An SNC game through the service to its end, the same every run: a fixed dice seed (for the bench only) and
    random orders from random.Random(chooser). It may end early by sudden death: `snc_twelve_turns`."""
    from snc_randomplay import play  # tests/snc: the SNC fuzzer's order chooser

    made = dice.new_seed
    dice.new_seed = lambda: SNC_DICE_SEED
    try:
        store = EventStore(path)
        game_id = games.create_game(store, CATALOG, "snc", game_id=game_id)
        for side in ("chinese", "japanese"):
            games.join(store, CATALOG, game_id, side, f"{side}@bench.example", f"{side} text")
        play(random.Random(chooser), max_orders=5000,
             submit=lambda side, text: games.submit(store, CATALOG, game_id, side, text).state.game)
        store.close()
    finally:
        dice.new_seed = made
    return game_id


def snc_twelve_turns(path: str) -> str:
    """The first of the games `snc_game` makes (chooser 0, 1, ...) that runs all 12 Game-Turns: a random game may
    end early by sudden death (SNC 4.1, 4.2). Every row that reads an SNC game reads this one, so a row described
    as a 12-turn game measures one."""
    from app.projections import state as projection

    for chooser in range(40):
        game_id = snc_game(path, chooser, f"g-snc12-{chooser}")
        store = EventStore(path)
        state = projection.load(store, CATALOG, game_id)
        store.close()
        if CATALOG.rules("snc").outcome(state.game) is not None and state.game.turn >= 12:
            return game_id
    raise RuntimeError("no random SNC game of 12 Game-Turns in 40 tries")


def any_seq(store: EventStore, game_id: str, seqs: list[int]) -> tuple[float, float]:
    """The worst, over `seqs`, of a cold load at that seq (no state in memory: from a snapshot; the fastest of
    three tries, the cost of that seq without this machine's spikes) vs a bare fold from the first event to the
    same seq."""

    rules = CATALOG.rules("snc")

    def cold(at: int):
        STATES.clear()
        projection.load(store, CATALOG, game_id, at)

    def bare(at: int):
        return bare_fold(rules, store.db.conn.execute(
            "SELECT type, version, payload FROM events WHERE game_id = ? AND seq <= ? ORDER BY seq", [game_id, at]))

    worst, worst_at = 0.0, seqs[0]
    for at in seqs:
        ms = median_ms(lambda at=at: cold(at), repeat=3, pick=min)
        if ms > worst:
            worst, worst_at = ms, at
    return worst, median_ms(lambda: bare(worst_at), repeat=3)


def process(args: list[str], env: dict) -> tuple[float, float]:
    """Wall seconds and CPU seconds of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


# -- HTTP -----------------------------------------------------------------------------------------------------
class Server:
    """waitress on 127.0.0.1 with the app and a bare endpoint; per client, skirmish games ready for 'end' orders."""

    ENDS_PER_GAME = 24

    def __init__(self, tmp: Path, orders_per_client: int, clients: int):
        from waitress import create_server

        logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # "task queue depth" is the load it is here for

        from app.mail.transport import MailConfig
        from app.web import create_app

        # as `cli.py serve` runs: turn emails sent by the outbox's sender process, the answer waits for its own commit;
        # the per-token rate limit stays on, lifted to a rate the benchmark cannot reach
        self.db = str(tmp / "http.sqlite3")
        self.app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": self.db,
                               "MAIL_SENDER": "process",
                               "MAIL": MailConfig(outbox=str(tmp / "outbox")),
                               "HEXLEDGER_RATE_LIMIT": "1000000 per minute"})
        self.app.add_url_rule("/bench/bare", "bare", lambda: {"ok": True})
        self.app_cpu: list[float] = []
        self.server = create_server(self._timed(self.app.wsgi_app), host="127.0.0.1", port=0, threads=4)
        threading.Thread(target=self.server.run, daemon=True).start()
        self.client = self.app.test_client()
        per_client = orders_per_client // self.ENDS_PER_GAME + 1
        self.games = [[self._new_game() for _ in range(per_client)] for _ in range(clients)]
        self.reader = self._new_game()
        self.next_order = [0] * clients

    def _timed(self, app):
        """The WSGI app, each request's thread CPU time appended to `app_cpu`."""
        def timed(environ, start_response):
            started = time.thread_time()
            body = app(environ, start_response)
            try:
                yield from body
            finally:
                if hasattr(body, "close"):
                    body.close()
                self.app_cpu.append(time.thread_time() - started)
        return timed

    def _new_game(self) -> tuple[str, dict]:
        r = self.client.post("/games", json={"rules": "skirmish",
                                             "players": {"red": "r@bench.example", "blue": "b@bench.example"}})
        game_id, tokens = r.json["game_id"], r.json["tokens"]
        for seat in ("red", "blue"):
            self.client.post(f"/games/{game_id}/join", json={"seed_text": seat},
                             headers={"Authorization": f"Bearer {tokens[seat]}"})
        return game_id, tokens

    def rate(self, make_request, count: int, clients: int = 1) -> tuple[float, float]:
        """Requests per second and p50 ms: `clients` threads, each `count` requests on its keep-alive connection;
        `make_request(client)` gives each request. Sets `cpu_ms`: the app's CPU time a request (its thread's, from
        the WSGI call to the last byte of the answer; waitress's own work and the client's are left out), steadier
        than the rate on a busy machine."""
        latencies: list[float] = []
        self.app_cpu.clear()

        failures: list[SystemExit] = []

        def client(n: int, barrier: threading.Barrier) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", self.server.effective_port, timeout=30)
            barrier.wait()
            try:
                latencies.extend(requests(conn, lambda i: make_request(n), count, float("inf")))
            except SystemExit as failed:  # an HTTP error: the run is void
                failures.append(failed)
            conn.close()

        elapsed = together(client, clients)
        self.latencies = latencies
        self.cpu_ms = statistics.median(self.app_cpu) * 1e3
        if failures:
            raise failures[0]
        return clients * count / elapsed, statistics.median(latencies) * 1000

    def drained(self, seconds: float = 120.0) -> None:
        """Wait until the sender process has sent the turn emails the submits queued: their layout is the submits'
        cost (measured while they run), not that of the measurement that follows."""
        store = EventStore(self.db)
        deadline = time.monotonic() + seconds
        while any(m["status"] == "pending" for m in store.mail_queue()) and time.monotonic() < deadline:
            time.sleep(0.05)
        store.close()

    def close(self) -> None:
        """Stop serving and stop the mail sender (it may still be writing turn emails into the folder)."""
        self.server.close()
        self.app.extensions["hexledger_sender"].stop()

    def bare(self, client: int):
        return "GET", "/bench/bare", None, {}

    def read(self, client: int):
        game_id, tokens = self.reader
        return "GET", f"/games/{game_id}/state", None, {"Authorization": f"Bearer {tokens['blue']}"}

    def submit(self, client: int):
        i = self.next_order[client]
        self.next_order[client] += 1
        game_id, tokens = self.games[client][i // self.ENDS_PER_GAME]
        side = "red" if (i % self.ENDS_PER_GAME // 2) % 2 == 0 else "blue"
        return ("POST", f"/games/{game_id}/orders", json.dumps({"order": "end"}),
                {"Authorization": f"Bearer {tokens[side]}", "Content-Type": "application/json"})


# -- replays (issue 25) ----------------------------------------------------------------------------------------
class ReplayWorld:
    """On one database served by `serve`'s server (waitress, app/web/server.py) on 127.0.0.1: a running skirmish game
    of `undos` move+undo cycles by red, and another played on to its end after as many (a finished game)."""

    def __init__(self, tmp: Path, undos: int):
        from app.mail.transport import MailConfig
        from app.web import create_app
        from app.web.server import Limits, make_server
        from tests.conftest import play_random

        self.db = str(tmp / "replay.sqlite3")
        self.app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": self.db,
                               "MAIL": MailConfig(outbox=str(tmp / "replay-outbox")),
                               "HEXLEDGER_RATE_LIMIT": "1000000 per minute",
                               "HEXLEDGER_REPLAY_RATE_LIMIT": "1000000 per minute"})
        client = self.app.test_client()
        self.running, self.tokens = self._undone(client, undos)
        self.finished, _ = self._undone(client, undos)
        store = EventStore(self.db)
        play_random(store, self.finished, random.Random(1), max_orders=1000)
        self.store = store
        self.server = make_server(self.app, "127.0.0.1", 0, Limits(threads=8, connection_limit=512, request_queue=128,
                                                                   backlog=1024, channel_timeout=120, retry_after=1))
        threading.Thread(target=self.server.run, daemon=True).start()

    @staticmethod
    def _undone(client, undos: int) -> tuple[str, dict]:
        r = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@bench.example",
                                                                          "blue": "b@bench.example"}})
        game_id, tokens = r.json["game_id"], r.json["tokens"]
        red = {"Authorization": f"Bearer {tokens['red']}"}
        for seat in ("red", "blue"):
            client.post(f"/games/{game_id}/join", json={"seed_text": seat},
                        headers={"Authorization": f"Bearer {tokens[seat]}"})
        for _ in range(undos):
            client.post(f"/games/{game_id}/orders", json={"order": "move R1 0202"}, headers=red)
            client.post(f"/games/{game_id}/undo", headers=red)
        return game_id, tokens

    def refused_ms(self, requests: int) -> tuple[float, float]:
        """The median time of a stranger's refused replay read of the running game, and of one of a game that does
        not exist, alternately on one kept-alive connection. Both answer the same refusal (401: an unknown game and
        a forbidden one are told apart by nobody), so the reads are told apart by the game asked for."""
        conn = http.client.HTTPConnection("127.0.0.1", self.server.effective_port, timeout=60)
        took: dict[str, list[float]] = {self.running: [], "g-nosuchgame": []}
        answered = set()
        for i in range(2 * requests):
            game = self.running if i % 2 else "g-nosuchgame"
            start = time.perf_counter()
            conn.request("GET", f"/replay/{game}/frames.json")
            response = conn.getresponse()
            response.read()
            took[game].append(time.perf_counter() - start)
            answered.add(response.status)
        conn.close()
        if not answered <= {401, 404}:
            raise SystemExit(f"refused reads answered {sorted(answered)}, not a refusal (401 or 404)")
        return statistics.median(took[self.running]) * 1000, statistics.median(took["g-nosuchgame"]) * 1000

    def first_build_s(self, game_id: str, store: EventStore | None = None) -> tuple[float, float]:
        """A replay's first build as the viewer's reads make it (nothing kept: no replay, no state), vs a bare fold
        of the same events."""
        from app.service import replays

        store = store or self.store
        reads = replays.Replays(store, CATALOG)

        def build():
            replays.KEPT.clear()
            STATES.clear()
            head = reads.head(game_id)
            reads.replay(game_id, head, reads.viewer_at(game_id, head, replays.ALL))

        rules = CATALOG.rules(store.game(game_id)["rules"])
        bare = median_ms(lambda: bare_fold(rules, store.db.conn.execute(
            "SELECT type, version, payload FROM events WHERE game_id = ? ORDER BY seq", [game_id])), repeat=1)
        return median_ms(build, repeat=1) / 1000, bare / 1000

    def verify_s(self) -> tuple[float, float]:
        """`verify` of the running game (every order re-run, nothing kept) vs a bare fold of the same events."""
        from app.service import audit

        events = list(self.store.events(self.running))
        report = None

        def run():
            nonlocal report
            report = audit.verify(CATALOG, events)

        took = median_ms(run, repeat=1) / 1000
        if not report.ok:
            raise SystemExit(f"the 600-undo game does not verify: {report.problems[:1]}")
        return took, median_ms(lambda: bare_fold(CATALOG.rules("skirmish"), self.store.db.conn.execute(
            "SELECT type, version, payload FROM events WHERE game_id = ? ORDER BY seq", [self.running])),
                               repeat=1) / 1000

    def close(self) -> None:
        from app.web.server import stop
        stop(self.server)
        self.store.close()


def signed_and_not(server: Server, count: int, measure: str) -> tuple[float, float]:
    """Issue 31: the order submit with its receipt signed and the same submit unsigned (Receipts.stamp answering
    None), request by request on one connection, so a busy moment of the machine falls on both alike: the medians of
    the app's CPU time a request, or of its latency (ms), signed and unsigned. The orders of a game differ (an 'end'
    that passes the turn does more), so each place in a game is signed in one game and unsigned in the next, the
    places signed in a game drawn at random (seeded), half of them."""
    real, signing, flags = receipts.Receipts.stamp, [True], []
    places = [True, False] * (Server.ENDS_PER_GAME // 2)
    random.Random(31).shuffle(places)

    def submit(client: int):
        i = server.next_order[client]
        signing[0] = places[i % Server.ENDS_PER_GAME] != bool(i // Server.ENDS_PER_GAME % 2)
        flags.append(signing[0])
        return server.submit(client)

    time.sleep(0.5)  # the last request before this may still be adding its CPU time: let it, before `rate` clears
    with mock.patch.object(receipts.Receipts, "stamp", lambda self, event: real(self, event) if signing[0] else None):
        _, _ = server.rate(submit, count)
        deadline = time.monotonic() + 10  # each request adds its CPU time once its answer is out: wait for the last
        while len(server.app_cpu) < count and time.monotonic() < deadline:
            time.sleep(0.01)
    figures = server.app_cpu if measure == "cpu" else server.latencies
    on = [x for x, flag in zip(figures, flags, strict=True) if flag]
    off = [x for x, flag in zip(figures, flags, strict=True) if not flag]
    return statistics.median(on) * 1e3, statistics.median(off) * 1e3


# -- the fuzzer -----------------------------------------------------------------------------------------------
def fuzz(tmp: Path, seeds: range) -> tuple[float, float]:
    """SNC games per minute: random legal orders to the end through the service (store, dice, audit at the end)
    vs the same chooser on the rules alone."""
    from fuzz_snc import Tally, through_service
    from snc_randomplay import play

    tally = Tally("service")
    start = time.perf_counter()
    through_service(tally, "snc", seeds, 1e9, str(tmp), fog=False)
    service = tally.games / (time.perf_counter() - start) * 60
    if tally.problems:
        raise SystemExit(f"fuzzer problems: {tally.problems[:2]}")
    start = time.perf_counter()
    for seed in seeds:
        play(random.Random(seed), max_orders=5000)
    alone = len(seeds) / (time.perf_counter() - start) * 60
    return service, alone


# -- the chances of victory ----------------------------------------------------------------------------------
def chances_minutes(store: EventStore, game_id: str, seed: int, playouts: int = 100,
                    policy: str | None = None) -> tuple[float, float, float]:
    """Minutes to work out the chances of victory after every Game-Turn of the finished SNC game, 100 playouts a
    Game-Turn (app/projections/chances.py: by default the strong opponent's search at each Game-Turn; `policy`
    greedy or random: playouts through the whole next Game-Turn), vs minutes for one SNC fuzzer game on the rules
    alone; and the run's CPU minutes (what the wall time is on an idle core). With fewer `playouts` (a busy
    machine), the run's minutes times 100 / playouts: for greedy an over-estimate, since the orders the playouts of
    a position share before a die parts them are worked out once however many there are (said beside the row). How
    the playouts ended (`CHANCES_ENDINGS`) is printed under the table."""
    from snc_randomplay import play

    from app.projections import chances, replay

    built = replay.build(store, CATALOG, game_id, replay.ALL)
    assert built.over and max(f.turn or 0 for f in built.frames) >= 12, "the bench's SNC game is a 12-GT game"
    start, cpu = time.perf_counter(), time.process_time()
    found = chances.forecast(built, playouts=playouts, policy=policy or chances.POLICY)
    scale = 100 / playouts
    minutes = (time.perf_counter() - start) / 60 * scale
    cpu_minutes = (time.process_time() - cpu) / 60 * scale
    CHANCES_ENDINGS.update(playouts=playouts, points=len(found["points"]), endings=found["endings"],
                           policy=found["policy"])
    start = time.perf_counter()
    play(random.Random(seed), max_orders=5000)
    return minutes, (time.perf_counter() - start) / 60, cpu_minutes


CHANCES_ENDINGS: dict = {}  # the chances row's run: playouts a point, points, how the playouts ended


GROUPS = {  # --only: a group's rows are measured (and their data prepared) only when it is asked for
    "http": ("submit1", "submit", "submit_p50", "submit_cpu", "read", "read_cpu"), "read": ("read", "read_cpu"),
    "rebuild": ("rebuild", "rebuild_cpu"),
    "head": ("hit", "miss"),
    "anyseq": ("anyseq",), "writers": ("writers",), "cpu": ("cpu",),
    "pg": ("pg_writers", "pg_vs_es_pg", "pg_vs_sqlite", "pg_rebuild", "pg_hit", "pg_miss"),
    "cli": ("verify", "verify_cpu", "show", "state", "do", "do_cpu"), "fuzz": ("fuzz",),
    "chances": ("chances", "chances_cpu"),
    "receipts": ("signed_cpu", "signed"),
    "replay": ("replay_refused", "replay_build", "replay_build_snc", "replay_verify"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--events", type=int, default=20000, help="events of the game rebuilt in full")
    parser.add_argument("--big", type=int, default=100000, help="events of the game whose head is loaded")
    parser.add_argument("--requests", type=int, default=100, help="HTTP requests per measurement per round")
    parser.add_argument("--fuzz-games", type=int, default=2, help="SNC fuzz games per round")
    parser.add_argument("--chances-playouts", type=int, default=100,
                        help="playouts a Game-Turn of the chances row's run; fewer: its minutes scaled to 100")
    parser.add_argument("--chances-policy", default=None,
                        help="the chances row's policy (default: the chances' own, the strong opponent's search; "
                             "greedy or random: playouts through the whole next Game-Turn)")
    parser.add_argument("--undos", type=int, default=600, help="move+undo cycles of the replay rows' games")
    parser.add_argument("--alternations", type=int, default=3,
                        help="samples a round of the durable-writers rows (SQLite, eventsourcing, PostgreSQL), "
                             "and of the read rows with --only read")
    parser.add_argument("--only", default="", help="comma-separated groups of rows to measure (default: all): "
                                                   + ", ".join(GROUPS))
    args = parser.parse_args()
    rows = {
        # the goals of issue 26 ("a faster order path"): 0.5x, 0.9x, 1.2x and 0.9x (issue 15's were 0.3x, 0.6x,
        # 1.5x and none)
        "submit1": Row("HTTP order submit, 1 client (req/s)", "req/s", "bare endpoint, same waitress",
                       ">= 0.5x", lambda o, t: o >= 0.5 * t),
        "submit": Row(f"HTTP order submit, {WRITERS} clients (req/s)", "req/s", "bare endpoint, same waitress",
                      ">= 0.5x", lambda o, t: o >= 0.5 * t),
        "submit_p50": Row(f"  p50 of a submit, {WRITERS} clients (ms)", "ms", "bare endpoint, same waitress",
                          "(issue: 52 ms on main)", lambda o, t: True),
        "submit_cpu": Row("  the submit's app CPU time a request, 1 client (ms)", "ms", "bare endpoint, same waitress",
                          "(beside the rate)", None),
        "signed_cpu": Row("HTTP order submit, signed receipt: app CPU a request (ms)", "ms",
                          "the same submit, receipt not signed", "<= 1.05x", lambda o, t: o <= 1.05 * t),
        "signed": Row("  the same, latency of a submit, 1 client (ms)", "ms", "the same submit, receipt not signed",
                      "<= 1.05x", lambda o, t: o <= 1.05 * t),
        "read": Row("HTTP state read, 1 client (req/s)", "req/s", "bare endpoint, same waitress",
                    ">= 0.9x", lambda o, t: o >= 0.9 * t),
        "read_cpu": Row("  the same, the app's CPU time a request (ms)", "ms", "bare endpoint, same waitress",
                        "<= 1.11x (0.9x)", lambda o, t: o <= t / 0.9),
        "rebuild": Row(f"full rebuild of {args.events} events (ms)", "ms", "bare SELECT + json.loads + fold",
                       "<= 1.2x", lambda o, t: o <= 1.2 * t),
        "rebuild_cpu": Row("  the same, CPU time (ms)", "ms", "bare SELECT + json.loads + fold",
                           "<= 1.2x", lambda o, t: o <= 1.2 * t),
        "hit": Row(f"state at head, {args.big}-event game, cache hit (ms)", "ms", "raw sqlite3 head query",
                   "<= 1 ms", lambda o, t: o <= 1),
        "miss": Row(f"state at head, {args.big}-event game, miss (ms)", "ms", "raw sqlite3 head query",
                    "<= 5 ms", lambda o, t: o <= 5),
        "anyseq": Row("state at any seq, 12-turn SNC game, worst (ms)", "ms", "bare fold from event 1 to that seq",
                      "<= 20 ms", lambda o, t: o <= 20),
        "writers": Row(f"append, durable, {WRITERS} writers (commands/s)", "cmd/s",
                       "eventsourcing SQLite, WAL+FULL", ">= 1.3x", lambda o, t: o >= 1.3 * t),
        "cpu": Row("append CPU path, synchronous=NORMAL (commands/s)", "cmd/s", "raw sqlite3, same rows",
                   ">= 0.6x", lambda o, t: o >= 0.6 * t),
        "pg_writers": Row(f"PostgreSQL: append, durable, {WRITERS} writers (commands/s)", "cmd/s",
                          "eventsourcing SQLite, WAL+FULL", ">= 1.3x", lambda o, t: o >= 1.3 * t),
        "pg_vs_es_pg": Row(f"  PostgreSQL vs eventsourcing's PostgreSQL, {WRITERS} writers", "cmd/s",
                           "eventsourcing PostgreSQL, same server", ">= 0.9x", lambda o, t: o >= 0.9 * t),
        "pg_vs_sqlite": Row(f"  PostgreSQL vs SQLite store, {WRITERS} writers (commands/s)", "cmd/s",
                            "the SQLite store, same samples", "(issue: 2.8x)", None),
        "pg_rebuild": Row(f"PostgreSQL: full rebuild of {args.events} events (ms)", "ms",
                          "bare SELECT + json.loads + fold, PostgreSQL", "<= 1.5x", lambda o, t: o <= 1.5 * t),
        "pg_hit": Row(f"PostgreSQL: state at head, {args.events}-event game, hit (ms)", "ms",
                      "head query, PostgreSQL", "<= 1 ms", lambda o, t: o <= 1),
        "pg_miss": Row(f"PostgreSQL: state at head, {args.events}-event game, miss (ms)", "ms",
                       "head query, PostgreSQL", "<= 5 ms", lambda o, t: o <= 5),
        "verify": Row("audit (cli.py verify) of a 12-turn SNC game (s)", "s", "python -c pass",
                      "< 1 s", lambda o, t: o < 1),
        "verify_cpu": Row("  the same, CPU time (s)", "s", "python -c pass", "< 1 s", lambda o, t: o < 1),
        "show": Row("CLI show as a process (s)", "s", "python -c pass", "< 0.5 s", lambda o, t: o < 0.5),
        "state": Row("CLI state as a process (s)", "s", "python -c pass", "< 0.5 s", lambda o, t: o < 0.5),
        "do": Row("CLI do as a process (s)", "s", "python -c pass", "< 0.5 s", lambda o, t: o < 0.5),
        "do_cpu": Row("  CLI do, CPU time (s)", "s", "python -c pass", "< 0.5 s", lambda o, t: o < 0.5),
        "fuzz": Row("SNC fuzzer through the service (games/min)", "games/min", "the rules alone",
                    ">= 10/min", lambda o, t: o >= 10),
        "chances": Row("chances of victory, 12-GT SNC game, 100 playouts a GT (min)", "min",
                       "one SNC fuzzer game, rules alone", "< 10 min", lambda o, t: o < 10),
        "chances_cpu": Row("  the same, CPU time (min; the wall time on an idle core)", "min",
                           "one SNC fuzzer game, rules alone", "< 10 min", lambda o, t: o < 10),
        "replay_refused": Row(f"stranger's refused replay read, {args.undos} undos (ms)", "ms",
                              "refused read of a game that does not exist", "<= 3x", lambda o, t: o <= 3 * t),
        "replay_build": Row("first replay build, finished game (s)", "s", "bare SELECT + json.loads + fold",
                            "< 0.5 s", lambda o, t: o < 0.5),
        "replay_build_snc": Row("  the same, SNC 12-turn game (s)", "s", "bare SELECT + json.loads + fold",
                                "(no goal)", None),
        "replay_verify": Row(f"verify of a game of {args.undos} undos (s)", "s", "bare SELECT + json.loads + fold",
                             "< 0.5 s", lambda o, t: o < 0.5),
    }
    wanted = set(args.only.split(",")) if args.only else set(GROUPS)
    unknown = wanted - set(GROUPS)
    if unknown:
        parser.error(f"--only: no group {', '.join(sorted(unknown))}; groups: {', '.join(GROUPS)}")
    if wanted & {"writers", "pg"} and importlib.util.find_spec("eventsourcing") is None:
        parser.error("the writers and pg rows compare with eventsourcing's recorders: "
                     "pip install -e '.[bench]' first (or leave them out with --only)")
    rows = {key: row for key, row in rows.items() if any(key in GROUPS[g] for g in wanted)}
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        print(f"preparing: {', '.join(g for g in GROUPS if g in wanted)} ...", flush=True)
        if "rebuild" in wanted:
            long_store, long_id = long_game(tmp, args.events)
        if "head" in wanted:
            (tmp / "big").mkdir()
            big_store, big_id = long_game(tmp / "big", args.big)
        if wanted & {"anyseq", "cli", "replay", "chances"}:
            snc_path = str(tmp / "snc.sqlite3")
            snc_id = snc_twelve_turns(snc_path)
            snc_store = EventStore(snc_path)
            projection.rebuild_snapshots(snc_store, CATALOG, snc_id)
            snc_head = snc_store.head(snc_id)[0]
            env = {**os.environ, "HEXLEDGER_DB": snc_path}
            do_store = EventStore(snc_path)
            do_games = [games.create_game(do_store, CATALOG, "skirmish") for _ in range(args.rounds * 3)]
            for g in do_games:
                for side in ("red", "blue"):
                    games.join(do_store, CATALOG, g, side, f"{side}@bench.example", side)
            do_store.close()
        if wanted & {"http", "read", "receipts"}:  # "read" alone: the state read and its bare endpoint, no submits
            signed_orders = args.requests * args.rounds * 4 * args.alternations if "receipts" in wanted else 0
            server = (Server(tmp, args.requests * args.rounds * 2 + signed_orders, WRITERS)
                      if wanted & {"http", "receipts"} else Server(tmp, 0, 1))
        if "replay" in wanted:
            replay_world = ReplayWorld(tmp, args.undos)
            finished_events = replay_world.store.head(replay_world.finished)[0]
            rows["replay_build"].name = f"first replay build, finished game of {finished_events} events (s)"
            rows["replay_build_snc"].name = f"  the same, SNC 12-turn game of {snc_head} events (s)"
        pg_url = None
        if "pg" in wanted:  # a server of its own (bench/pg_cluster.py: fsync and synchronous_commit on)
            cluster = pg_cluster.start()
            pg_url = cluster.create_database("bench")
            pg_store, pg_id = long_game(tmp, args.events, pg_url)
        fuzz_seed = 1000
        writer_log: list[dict[str, float]] = []
        for r in range(args.rounds):
            print(f"round {r + 1} of {args.rounds}", flush=True)
            if "http" in wanted:
                bare_rps, _ = server.rate(server.bare, args.requests)
                bare_cpu = server.cpu_ms
                submit_rps, _ = server.rate(server.submit, args.requests)
                rows["submit_cpu"].add(server.cpu_ms, bare_cpu)
                server.drained()
                read_rps, _ = server.rate(server.read, args.requests)
                rows["submit1"].add(submit_rps, bare_rps)
                rows["read"].add(read_rps, bare_rps)
                rows["read_cpu"].add(server.cpu_ms, bare_cpu)
                bare_rps, bare_p50 = server.rate(server.bare, args.requests, WRITERS)
                submit_rps, submit_p50 = server.rate(server.submit, args.requests, WRITERS)
                server.drained()
                rows["submit"].add(submit_rps, bare_rps)
                rows["submit_p50"].add(submit_p50, bare_p50)
            if "receipts" in wanted:
                rows["signed_cpu"].add(*signed_and_not(server, args.requests * 2 * args.alternations, "cpu"))
                rows["signed"].add(*signed_and_not(server, args.requests * 2 * args.alternations, "latency"))
                server.drained()
            elif "read" in wanted:  # --alternations pairs a round: a busy moment of the machine falls on both
                for _ in range(args.alternations):
                    bare_rps, _ = server.rate(server.bare, args.requests)
                    bare_cpu = server.cpu_ms
                    rows["read"].add(server.rate(server.read, args.requests)[0], bare_rps)
                    rows["read_cpu"].add(server.cpu_ms, bare_cpu)
            if "rebuild" in wanted:
                STATES.clear()
                for _ in range(3):  # alternately, three times each, in wall time and in CPU time
                    for row, clock in (("rebuild", time.perf_counter), ("rebuild_cpu", time.thread_time)):
                        STATES.clear()
                        rows[row].add(
                            median_ms(lambda: projection.load(long_store, CATALOG, long_id, use_snapshots=False), 1,
                                      clock=clock),
                            median_ms(lambda: bare_rebuild(long_store, long_id), 1, clock=clock))
            if "head" in wanted:
                hit, miss, query = head_loads(big_store, big_id)
                rows["hit"].add(hit, query)
                rows["miss"].add(miss, query)
            if "anyseq" in wanted:
                rows["anyseq"].add(*any_seq(snc_store, snc_id, list(range(1 + r, snc_head + 1, 3))))
            if wanted & {"writers", "pg"}:
                for sample in writer_samples(tmp, pg_url, 100, args.alternations):
                    writer_log.append(sample)
                    if "writers" in wanted:
                        rows["writers"].add(sample["sqlite"], sample["eventsourcing"])
                    if "pg" in wanted:
                        rows["pg_writers"].add(sample["postgresql"], sample["eventsourcing"])
                        rows["pg_vs_es_pg"].add(sample["postgresql"], sample["eventsourcing_pg"])
                        rows["pg_vs_sqlite"].add(sample["postgresql"], sample["sqlite"])
            if "pg" in wanted:
                STATES.clear()
                for _ in range(3):
                    rows["pg_rebuild"].add(
                        median_ms(lambda: projection.load(pg_store, CATALOG, pg_id, use_snapshots=False), 1),
                        median_ms(lambda: pg_bare_rebuild(pg_store, pg_id), 1))
                hit, miss, query = head_loads(pg_store, pg_id)
                rows["pg_hit"].add(hit, query)
                rows["pg_miss"].add(miss, query)
            if "cpu" in wanted:
                rows["cpu"].add(*appends_cpu(tmp, 500))
            if "cli" in wanted:
                python = sys.executable
                bare_wall, bare_cpu = process([python, "-c", "pass"], env)
                wall, cpu = process([python, "cli.py", "verify", snc_id], env)
                rows["verify"].add(wall, bare_wall)
                rows["verify_cpu"].add(cpu, bare_cpu)
                rows["show"].add(process([python, "cli.py", "show", snc_id], env)[0], bare_wall)
                rows["state"].add(process([python, "cli.py", "state", snc_id], env)[0], bare_wall)
                wall, cpu = process([python, "cli.py", "do", do_games[r], "end", "--as", "red"], env)
                rows["do"].add(wall, bare_wall)
                rows["do_cpu"].add(cpu, bare_cpu)
            if "fuzz" in wanted:
                rows["fuzz"].add(*fuzz(tmp, range(fuzz_seed, fuzz_seed + args.fuzz_games)))
                fuzz_seed += args.fuzz_games
            if "chances" in wanted and r == 0:  # minutes a run: once, whatever --rounds says
                wall, baseline, cpu = chances_minutes(snc_store, snc_id, fuzz_seed, args.chances_playouts,
                                                        args.chances_policy)
                rows["chances"].add(wall, baseline)
                rows["chances_cpu"].add(cpu, baseline)
            if "replay" in wanted:
                rows["replay_refused"].add(*replay_world.refused_ms(args.requests))
                rows["replay_build"].add(*replay_world.first_build_s(replay_world.finished))
                rows["replay_build_snc"].add(*replay_world.first_build_s(snc_id, snc_store))
                rows["replay_verify"].add(*replay_world.verify_s())
        if wanted & {"http", "read", "receipts"}:
            server.close()
        if "pg" in wanted:
            pg_store.close()
            cluster.stop()
        if "replay" in wanted:
            replay_world.close()
        load = os.getloadavg()
    print(f"\nmachine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"SQLite {sqlite3.sqlite_version}; load average at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; "
          f"median of {args.rounds} interleaved rounds ({args.alternations} samples a round for the durable writers"
          + (", and for the read rows" if "read" in wanted and "http" not in wanted else "") + ")")
    print(f"{'workload':54} {'hexledger':>10} {'baseline':>10} {'unit':9} {'ratio':>8} {'spread':>11}  {'goal':22}")
    for row in rows.values():
        print(row.line())
    if CHANCES_ENDINGS:
        ran = CHANCES_ENDINGS
        through = ("the strong opponent's search at each point" if ran["policy"] == "search" else
                   f"{ran['policy']} for both sides, each through the whole next Game-Turn")
        print(f"\nchances row: {ran['playouts']} playouts after each of {ran['points']} points (the start and every "
              f"Game-Turn), {through}; how they ended: "
              + ", ".join(f"{how} {n}" for how, n in ran["endings"].items())
              + ("" if ran["playouts"] == 100 else f"; minutes scaled by 100 / {ran['playouts']}"
                 + ("" if ran["policy"] == "search" else " (an over-estimate: the orders a position's playouts share "
                                                         "before a die parts them are worked out once)")))

    if writer_log:
        print(f"\ndurable writers, each sample (commands/s; sync: an fdatasync just before it): {WRITERS} writers")
        print(f"{'sync ms':>8} {'SQLite store':>13} {'eventsourcing':>14} {'ratio':>7}"
              + (f" {'PostgreSQL':>11} {'ratio':>7} {'es PostgreSQL':>14} {'ratio':>7}" if pg_url else ""))
        for sample in sorted(writer_log, key=lambda x: x["sync_ms"]):
            line = (f"{sample['sync_ms']:8.2f} {sample['sqlite']:13.0f} {sample['eventsourcing']:14.0f} "
                    f"{sample['sqlite'] / sample['eventsourcing']:6.2f}x")
            if pg_url:
                pg, es_pg = sample["postgresql"], sample["eventsourcing_pg"]
                line += f" {pg:11.0f} {pg / sample['eventsourcing']:6.2f}x {es_pg:14.0f} {pg / es_pg:6.2f}x"
            print(line)


if __name__ == "__main__":
    main()
