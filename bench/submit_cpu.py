"""Where an HTTP order submit's and a state read's CPU go, beside the bare endpoint's: thread CPU time (so a busy
shared machine changes it less than wall time), requests through the real app (create_app, Flask's test client, no
socket), each step's inclusive time per request from counters wrapped around the order path's and the read's
functions (each counter adds about 1 us to the steps around it). Then the turn-email
sender's CPU per submit: a burst of orders through waitress, the sender process as `cli.py serve` runs it, its CPU
read from /proc once it has sent what the burst queued.

    python bench/submit_cpu.py [--requests 480] [--no-sender]
    python bench/submit_cpu.py --read-floor [--requests 1000]: the state read beside plain routes doing part of it
    python bench/submit_cpu.py --submit-floor [--requests 200]: the submit beside the same order on a plain route
    python bench/submit_cpu.py --submit-floor --read-floor: both, one after the other, in one run
    python bench/submit_cpu.py --kept-state [--requests 200]: an order decided on the kept state against on a load
    python bench/submit_cpu.py --counts [--requests 200]: what one submit does, counted (statements, JSON, digests)
    python bench/submit_cpu.py --overlap [CLIENTS] [--requests 100] [--device-us 220]: the answer made while the
        fsync runs, or after it (--device-us: a modelled disk, the database in memory)

Issue 15's submit rows (bench/table.py) are wall-clock ratios; this says what is left inside them. No test runs it.
"""
from __future__ import annotations

import argparse
import collections
import functools
import http.client
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.events.store import EventStore  # noqa: E402
from app.mail.transport import MailConfig  # noqa: E402
from app.service.application import SUBSCRIBERS  # noqa: E402
from app.web import create_app  # noqa: E402

ENDS_PER_GAME = 24  # skirmish: 6 turns x 2 sides x 2 steps, each closed by 'end' (as bench/table.py)
SPENT: collections.Counter = collections.Counter()


def counted(owner, name: str, label: str) -> None:
    """Wrap `owner.name` so that each call adds its thread CPU time to SPENT[label] (none: a step this code has not,
    such as main's before it was added, counted as 0)."""
    fn = getattr(owner, name, None)
    if fn is None:
        return

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        start = time.thread_time_ns()
        try:
            return fn(*args, **kwargs)
        finally:
            SPENT[label] += time.thread_time_ns() - start

    setattr(owner, name, wrapper)


def app_for(work: str, sender: str):
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": f"{work}/bench.sqlite3", "MAIL_SENDER": sender,
                      "MAIL": MailConfig(outbox=f"{work}/outbox"), "HEXLEDGER_RATE_LIMIT": "1000000 per minute"})
    app.add_url_rule("/bench/bare", "bare", lambda: {"ok": True})
    return app


def games_for(client, count: int) -> list[tuple[str, dict]]:
    made = []
    for _ in range(count // ENDS_PER_GAME + 1):
        r = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"}})
        game_id, tokens = r.json["game_id"], r.json["tokens"]
        for seat in ("red", "blue"):
            client.post(f"/games/{game_id}/join", json={"seed_text": seat},
                        headers={"Authorization": f"Bearer {tokens[seat]}"})
        made.append((game_id, tokens))
    return made


def order(games: list, i: int) -> tuple[str, dict]:
    game_id, tokens = games[i // ENDS_PER_GAME]
    side = "red" if (i % ENDS_PER_GAME // 2) % 2 == 0 else "blue"
    return f"/games/{game_id}/orders", {"Authorization": f"Bearer {tokens[side]}", "Content-Type": "application/json"}


class LimiterHook:
    """Where `breakdown` keeps flask-limiter's before-request check, to count it."""

    check = None


def breakdown(count: int) -> None:
    from flask_limiter import Limiter

    from app import web as web_layer
    from app.events import seats as seat_tables
    from app.events import sqlite, store, streams
    from app.projections import history
    from app.projections import state as projection
    from app.service import games, orders, reads, receipts, seats, writes
    from app.web import routes

    app = app_for(tempfile.mkdtemp(prefix="hexledger-bench-"), "background")
    app.extensions["hexledger_sender"].stop()  # the turn emails stay queued: this part measures the request only
    client = app.test_client()
    made = games_for(client, count + ENDS_PER_GAME)
    steps = [
        (app, "wsgi_app", "request (Flask's wsgi_app)"),
        (app, "preprocess_request", "  before-request hooks (limiter, body checks)"),
        (LimiterHook, "check", "    rate limit (flask-limiter, its key)"),
        (seats.Credentials, "authenticate", "      token -> seat (rate key; the route reuses it)"),
        (web_layer, "text_problem_in_request", "    text rule (path, query, cookies, body)"),
        (app, "dispatch_request", "  the route (smorest, webargs, service, JSON)"),
        (routes, "order_body", "    order body (JSON schema)"),
        (orders.Orders, "order", "    service.order (submit + answer)"),
        (games, "submit", "      games.submit"),
        (games, "_decided", "        decided (parse, decide, encode, fold)"),
        (games, "_stored", "        stored (transaction, fsync, caches)"),
        (projection, "load", "        load (state cache, head read)"),
        (projection, "newest", "        kept state (no head read)"),
        (games, "parse_order", "        parse"),
        (games, "refuse_without_dice", "        dice seed"),
        (games, "decide_checked", "        decide"),
        (games, "new_event", "        encode events (schema)"),
        (games, "_fold_new", "        fold the new events (game over?)"),
        (sqlite.Batch, "open", "        BEGIN IMMEDIATE"),
        (store.EventStore, "append", "        append (seal, insert)"),
        (streams, "seal", "          hash chain (salts, SHA-256)"),
        (sqlite.SqliteDatabase, "append", "          INSERT"),
        (seat_tables.SeatTables, "mark_seen", "        read mark (UPDATE)"),
        (sqlite.GroupCommit, "_close", "        COMMIT"),
        (sqlite.SqliteDatabase, "_sync", "        fsync (kernel CPU)"),
        (sqlite.GroupCommit, "sync_soon", "        fsync begun on the syncing thread (its wait)"),
        (projection, "remember", "        state cache put"),
        (orders.Orders, "_answer_automated", "      automated seats (none here)"),
        (writes.Writes, "_run_after", "      after the write (the sender's kick)"),
        (history, "lines", "      answer: event lines"),
        (receipts.Receipts, "stamp", "      answer: receipt (Ed25519)"),
        (sqlite.SqliteDatabase, "_settle", "      the answer waits for the disk (fsync's end)"),
        (reads.Reads, "view_now", "    the read's view (head check, kept rendering)"),
        (routes, "conditional", "    the read's answer (ETag, 200 or 304)"),
        (app, "finalize_request", "  after-request hooks"),
    ]
    hooks = app.before_request_funcs[None]
    for n, hook in enumerate(hooks):  # the limiter's check is registered as a bound method: counted where it is kept
        if getattr(hook, "__func__", None) is Limiter._check_request_limit:
            LimiterHook.check = staticmethod(hook)
            hooks[n] = lambda: LimiterHook.check()
    for owner, name, label in steps:
        counted(owner, name, label)
    reader_id, reader_tokens = made[-1]  # the last game's blue seat reads its state (no order reaches it)
    half = count // 2
    for rep in range(2):  # the first half warms up; the second is measured
        SPENT.clear()
        start = time.thread_time_ns()
        for _ in range(half):
            client.get("/bench/bare")
        bare, bare_spent = (time.thread_time_ns() - start) / half, dict(SPENT)
        SPENT.clear()
        start = time.thread_time_ns()
        for _ in range(half):
            assert client.get(f"/games/{reader_id}/state",
                              headers={"Authorization": f"Bearer {reader_tokens['blue']}"}).status_code == 200
        read, read_spent = (time.thread_time_ns() - start) / half, dict(SPENT)
        SPENT.clear()
        start = time.thread_time_ns()
        for i in range(rep * half, (rep + 1) * half):
            path, headers = order(made, i)
            assert client.post(path, data=json.dumps({"order": "end"}), headers=headers).status_code == 201
        submit = (time.thread_time_ns() - start) / half
    print(f"thread CPU per request, microseconds (test client included; {half} requests each, load average "
          f"{os.getloadavg()[0]:.1f})")
    print(f"{'step':52} {'submit':>8} {'read':>8} {'bare':>8}")
    print(f"{'whole request, with the test client':52} {submit / 1e3:8.0f} {read / 1e3:8.0f} {bare / 1e3:8.0f}")
    for _, _, label in steps:
        print(f"{label:52} {SPENT[label] / half / 1e3:8.0f} {read_spent.get(label, 0) / half / 1e3:8.0f} "
              f"{bare_spent.get(label, 0) / half / 1e3:8.0f}")


def sender_cpu(count: int) -> None:
    """The sender process's CPU per submit for a burst of `count` orders from one client through waitress."""
    from waitress import create_server

    work = tempfile.mkdtemp(prefix="hexledger-bench-")
    app = app_for(work, "process")
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    threading.Thread(target=server.run, daemon=True).start()
    made = games_for(app.test_client(), count)
    sender = app.extensions["hexledger_sender"]
    store = EventStore(f"{work}/bench.sqlite3")

    def pending() -> bool:
        return any(m["status"] == "pending" for m in store.mail_queue()) or bool(store.reactions_behind(SUBSCRIBERS))

    def spent() -> float:
        fields = Path(f"/proc/{sender.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    deadline = time.monotonic() + 120
    while pending() and time.monotonic() < deadline:  # the invitations and first turn emails go first
        time.sleep(0.1)
    before = spent()
    conn = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=30)
    start = time.perf_counter()
    for i in range(count):
        path, headers = order(made, i)
        conn.request("POST", path, body=json.dumps({"order": "end"}), headers=headers)
        response = conn.getresponse()
        response.read()
        assert response.status == 201
    burst = time.perf_counter() - start
    deadline = time.monotonic() + 120
    while pending() and time.monotonic() < deadline:
        time.sleep(0.1)
    queue, cpu_ms = store.mail_queue(), (spent() - before) * 1e3 / count
    print(f"\nsender process: {count} orders in {burst:.2f} s from one client; its CPU {cpu_ms:.2f} ms a submit; "
          f"{sum(m['status'] == 'superseded' for m in queue)} turn emails superseded, "
          f"{sum(m['status'] == 'pending' for m in queue)} left pending")
    server.close()
    sender.stop()


def thread_cpu_spent(app) -> list[int]:
    """The list each request's thread CPU in Flask's `wsgi_app` (nanoseconds) is appended to, from now on."""
    spent: list[int] = []
    inner = app.wsgi_app

    def timed(environ, start_response):
        started = time.thread_time_ns()
        try:
            return list(inner(environ, start_response))
        finally:
            spent.append(time.thread_time_ns() - started)

    app.wsgi_app = timed
    return spent


def print_medians(medians: dict[str, list[float]], rounds: int, count: int, title: str, goal: str = "") -> None:
    """Each label's median thread CPU a request over the rounds, and its ratio to the bare endpoint's."""
    bare = sorted(medians["the bare endpoint"])[rounds // 2]
    print(f"\n{title}: wsgi_app thread CPU a request, microseconds (median of {rounds} rounds of {count} requests "
          f"each, interleaved; load average {os.getloadavg()[0]:.1f}){goal}")
    for label, values in medians.items():
        us = sorted(values)[rounds // 2]
        print(f"{label:52} {us:6.0f}  {us / bare:5.2f}x")


def read_floor(count: int, rounds: int = 7) -> None:
    """The state read's CPU in Flask's `wsgi_app` (what bench/table.py's read CPU row measures, the test client left
    out) beside the bare endpoint's and beside plain Flask routes (no flask-smorest wrappers, no blueprint) that do
    part of the read: how much of the goal (<= 1.11x the bare endpoint) each part of the read's work takes."""
    from flask import Response, current_app

    from app.web import authenticated, routes

    app = app_for(tempfile.mkdtemp(prefix="hexledger-bench-"), "background")
    app.extensions["hexledger_sender"].stop()
    fixed: list = []  # the reader's seat, authenticated once, for the routes that skip the token check

    def answer(seat):
        return routes.conditional(current_app.extensions["hexledger_service"]().reads.view_now(seat, routes.view_body))

    plain = {"plain": lambda game_id: answer(authenticated(game_id)),
             "token": lambda game_id: (authenticated(game_id), Response(b"{}", content_type="application/json"))[1],
             "answer": lambda game_id: answer(fixed[0]),
             "nothing": lambda game_id: Response(b"{}", content_type="application/json")}
    for name, view in plain.items():
        app.add_url_rule(f"/{name}/games/<game_id>/state", name, view)
    spent = thread_cpu_spent(app)
    client = app.test_client()
    game_id, tokens = games_for(client, 1)[0]
    token = {"Authorization": f"Bearer {tokens['blue']}"}
    with app.test_request_context(f"/games/{game_id}/state", headers=token):
        fixed.append(authenticated(game_id))
    assert client.get(f"/plain/games/{game_id}/state", headers=token).data == \
        client.get(f"/games/{game_id}/state", headers=token).data
    asks = {"the state read (the API's route)": (f"/games/{game_id}/state", token),
            "the same read on a plain route": (f"/plain/games/{game_id}/state", token),
            "  plain: the token check, a fixed answer": (f"/token/games/{game_id}/state", token),
            "  plain: the head check and kept answer, no token": (f"/answer/games/{game_id}/state", {}),
            "  plain: a fixed answer, no token": (f"/nothing/games/{game_id}/state", {}),
            "the bare endpoint": ("/bench/bare", {})}
    medians: dict[str, list[float]] = {label: [] for label in asks}
    for _ in range(rounds):
        for label, (path, headers) in asks.items():
            spent.clear()
            for _ in range(count):
                client.get(path, headers=headers)
            medians[label].append(sorted(spent)[len(spent) // 2] / 1e3)
    print_medians(medians, rounds, count, "the state read's floor", "; goal <= 1.11x the bare one")


def submit_floor(count: int, rounds: int = 7) -> None:
    """The order submit's CPU in Flask's `wsgi_app` beside the same order on a plain Flask route (no flask-smorest or
    webargs wrappers, no blueprint: the token check, the body, the service's order and its answer cut to the
    declared schema, as JSON) and beside the bare endpoint: what the API's framework layers cost a submit."""
    from flask import jsonify

    from app.web import authenticated, routes
    from app.web.declared import keep_declared

    app = app_for(tempfile.mkdtemp(prefix="hexledger-bench-"), "background")
    app.extensions["hexledger_sender"].stop()
    cut = keep_declared(routes.OrderDone)

    def plain(game_id):
        seat = authenticated(game_id)
        text, expected = routes.order_body()
        return jsonify(cut(routes.svc().orders.order(seat, text, expected))), 201

    app.add_url_rule("/plain/games/<game_id>/orders", "plain_submit", plain, methods=["POST"])
    spent = thread_cpu_spent(app)
    client = app.test_client()
    pools = {route: games_for(client, count * (rounds + 1)) for route in ("", "/plain")}
    given = {route: 0 for route in pools}

    def submit(route: str) -> None:
        path, headers = order(pools[route], given[route])
        given[route] += 1
        assert client.post(route + path, data=json.dumps({"order": "end"}), headers=headers).status_code == 201

    asks = {"the order submit (the API's route)": lambda: submit(""),
            "the same order on a plain route": lambda: submit("/plain"),
            "the bare endpoint": lambda: client.get("/bench/bare")}
    for ask in asks.values():  # warm up
        for _ in range(count // 4):
            ask()
    medians: dict[str, list[float]] = {label: [] for label in asks}
    for _ in range(rounds):
        for label, ask in asks.items():
            spent.clear()
            for _ in range(count):
                ask()
            medians[label].append(sorted(spent)[len(spent) // 2] / 1e3)
    print_medians(medians, rounds, count, "the submit's framework")


def kept_state(count: int, rounds: int = 9) -> None:
    """An order decided on the state this process keeps, its head confirmed by the append (app/service/games.py
    `play`), against the same order decided on a load that reads the head first (the path before it: `newest`
    made to find nothing), in one process, alternated in rounds of `count` submits: wsgi_app thread CPU a submit.
    The pairs share the machine's load minute by minute, which a main-against-branch run cannot."""
    from app.projections import state as projection

    newest = getattr(projection, "newest", None)
    if newest is None:
        print("\nthis code decides every order on a load (no projection.newest): nothing to compare")
        return
    app = app_for(tempfile.mkdtemp(prefix="hexledger-bench-"), "background")
    app.extensions["hexledger_sender"].stop()
    spent = thread_cpu_spent(app)
    client = app.test_client()
    made = games_for(client, count * (2 * rounds + 1))
    given = [0]

    def submit() -> None:
        path, headers = order(made, given[0])
        given[0] += 1
        assert client.post(path, data=json.dumps({"order": "end"}), headers=headers).status_code == 201

    kept, loaded = "the order decided on the kept state", "the same, on a load reading the head"
    asks = {kept: (newest, submit), loaded: (lambda store, game_id: None, submit),
            "the bare endpoint": (newest, lambda: client.get("/bench/bare"))}
    for _ in range(count // 4):
        submit()
    medians: dict[str, list[float]] = {label: [] for label in asks}
    try:
        for _ in range(rounds):
            for label, (finder, ask) in asks.items():
                projection.newest = finder
                spent.clear()
                for _ in range(count):
                    ask()
                medians[label].append(sorted(spent)[len(spent) // 2] / 1e3)
    finally:
        projection.newest = newest
    print_medians(medians, rounds, count, "the order on the kept state")
    differences = sorted(a - b for a, b in zip(medians[loaded], medians[kept], strict=True))
    print(f"{'the load minus the kept state, round by round':52} {differences[rounds // 2]:6.1f}  "
          f"(lowest {differences[0]:.1f}, highest {differences[-1]:.1f})")


def overlap(count: int, rounds: int = 7, clients: int = 1, device_us: int | None = None) -> None:
    """An order's answer made while its fsync runs (app/service/writes.py `Writes.answering`) against the same order
    answered only once its fsync has ended (`answering` made a plain `group`: the path before it), through waitress
    on 127.0.0.1 with `clients` clients, the commits waiting for the disk as `serve`'s do (the turn emails left
    queued: the sender's CPU is not this one's), in one process alternated with the bare endpoint in rounds of
    `count` requests a client: wall time a request (its median) and the rate, each beside the bare endpoint's of
    the same round. The pairs share the machine's load minute by minute, which a main-against-branch run cannot.
    `device_us`: the database on /dev/shm (memory: its fsync waits for nothing) and each fsync followed by a sleep
    of that many microseconds, a disk whose every fsync waits that long (a quiet machine's: 130 us, docs/
    benchmarks.md part 7), so a busy shared disk's swings (2-12 ms here) do not drown what is measured."""
    from waitress import create_server

    from app.events.sqlite import GroupCommit
    from app.service import writes
    from bench.writers import together

    GroupCommit.to_disk = True
    answering = getattr(writes.Writes, "answering", None)
    if answering is None:
        print("\nthis code answers every order after its fsync (no Writes.answering): nothing to compare")
        return
    folder = None
    if device_us is not None:
        folder = "/dev/shm"
        real_fdatasync = os.fdatasync

        def device(fd: int) -> None:
            real_fdatasync(fd)
            time.sleep(device_us / 1e6)

        os.fdatasync = device
    app = app_for(tempfile.mkdtemp(prefix="hexledger-bench-", dir=folder), "background")
    app.extensions["hexledger_sender"].stop()
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    threading.Thread(target=server.run, daemon=True).start()
    pools = [games_for(app.test_client(), count * (2 * rounds + 1)) for _ in range(clients)]
    given = [0] * clients

    def run(ask) -> tuple[float, float]:
        """(requests a second, median seconds a request) of `count` requests from each client."""
        waits: list[float] = []

        def client(n: int, barrier) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=30)
            barrier.wait()
            for _ in range(count):
                method, path, body, headers = ask(n)
                started = time.perf_counter()
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                waits.append(time.perf_counter() - started)
                assert response.status in (200, 201), response.status
            conn.close()

        took = together(client, clients)
        return clients * count / took, sorted(waits)[len(waits) // 2]

    def submit(n: int):
        path, headers = order(pools[n], given[n])
        given[n] += 1
        return "POST", path, json.dumps({"order": "end"}), headers

    def bare(n: int):
        return "GET", "/bench/bare", None, {}

    def plain_group(self):
        return self.group()

    after, before = "answered while its fsync runs", "answered after its fsync (before)"
    asks = {after: (answering, submit), before: (plain_group, submit), "the bare endpoint": (answering, bare)}
    run(submit)  # warm up
    rates: dict[str, list[float]] = {label: [] for label in asks}
    waits: dict[str, list[float]] = {label: [] for label in asks}
    try:
        for _ in range(rounds):
            for label, (how, ask) in asks.items():
                writes.Writes.answering = how
                rate, wait = run(ask)
                rates[label].append(rate)
                waits[label].append(wait)
    finally:
        writes.Writes.answering = answering
        server.close()
    bare_rates = rates["the bare endpoint"]
    disk = "this machine's disk" if device_us is None else f"a disk whose fsync waits {device_us} us"
    print(f"\nthe order's answer and its fsync, {clients} client(s), {disk}, {count} requests each a round, median "
          f"of {rounds} rounds (load average {os.getloadavg()[0]:.1f}): wall ms a request, rate, rate beside the "
          "bare endpoint's of the same round")
    for label in asks:
        ratios = sorted(r / b for r, b in zip(rates[label], bare_rates, strict=True))
        print(f"{label:52} {sorted(waits[label])[rounds // 2] * 1e3:6.2f} ms  {sorted(rates[label])[rounds // 2]:7.1f}"
              f" req/s  {ratios[rounds // 2]:5.2f}x ({ratios[0]:.2f}-{ratios[-1]:.2f})")
    differences = sorted(b - a for a, b in zip(waits[after], waits[before], strict=True))
    print(f"{'before minus after, median wait, round by round':52} {differences[rounds // 2] * 1e3:6.2f} ms "
          f"(lowest {differences[0] * 1e3:.2f}, highest {differences[-1] * 1e3:.2f})")


COUNTED = {  # what `counts` counts a request: label -> a part of the profiler's "file:(function)" for it
    "JSON texts parsed (json.loads)": "json/__init__.py:(loads)",
    "JSON texts made (json.dumps: the answer)": "json/__init__.py:(dumps)",
    "canonical JSON texts (payloads, snapshots)": "envelope.py:(canonical_json)",
    "SHA-256 digests (chain, token)": "_hashlib.openssl_sha256",
    "Ed25519 signatures (receipt)": "Ed25519PrivateKey' objects",
    "payloads decoded to events (decode_stored)": "registry.py:(decode_stored)",
    "states folded (fold_all)": "state.py:(fold_all)",
    "prompts worked out (states table)": "table.py:(_prompt)",
    "orders parsed (states table)": "table.py:(_parse)",
    "os.stat on the request's thread": "posix.stat",
}


def _counting(tally: collections.Counter, name: str, real):
    """`real`, each call counted in tally[name]."""
    def call(*args):
        tally[name] += 1
        return real(*args)
    return call


def counts(count: int) -> None:
    """What one order submit does, counted (no time): the SQL statements each connection runs, by kind, and the
    calls of COUNTED, a request, over `count` submits through the test client after as many to warm up (the same
    requests as bench/table.py; deterministic, so a busy machine changes nothing)."""
    import cProfile
    import pstats
    import re

    app = app_for(tempfile.mkdtemp(prefix="hexledger-bench-"), "background")
    app.extensions["hexledger_sender"].stop()
    client = app.test_client()
    made = games_for(client, 2 * count + ENDS_PER_GAME)
    given, body = [0], json.dumps({"order": "end"})
    synced: collections.Counter = collections.Counter()  # on any thread (the fsync runs on the syncing thread)
    for name in ("fdatasync", "open"):
        setattr(os, name, _counting(synced, name, getattr(os, name)))

    def submit() -> None:
        path, headers = order(made, given[0])
        given[0] += 1
        assert client.post(path, data=body, headers=headers).status_code == 201

    for _ in range(count):
        submit()
    synced.clear()
    store = app.extensions["hexledger_service"]().orders.store
    statements: collections.Counter = collections.Counter()
    words = re.compile(r"^\s*(\w+(?:\s+(?:INTO|FROM|IMMEDIATE)\s+\w+|\s+\w+)?)", re.IGNORECASE)
    for conn in {store.db.conn, store.db.writer}:
        conn.set_trace_callback(lambda sql: statements.update([words.match(sql).group(1).upper()]))
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(count):
        submit()
    profile.disable()
    for conn in {store.db.conn, store.db.writer}:
        conn.set_trace_callback(None)
    calls = {f"{file}:({name})" if line else name: stats[1]  # by file and name: line numbers move between versions
             for (file, line, name), stats in pstats.Stats(profile).stats.items()}
    print(f"\none order submit ('end', skirmish, as bench/table.py gives it), counted over {count} submits (SQL: "
          "each statement run, an executemany's once a row):")
    for kind, n in sorted(statements.items(), key=lambda item: -item[1]):
        print(f"{'SQL: ' + kind:52} {n / count:6.2f}")
    for label, part in COUNTED.items():
        print(f"{label:52} {sum(n for name, n in calls.items() if part in name) / count:6.2f}")
    for name, label in (("fdatasync", "fdatasync (any thread)"), ("open", "files opened (os.open, any thread)")):
        print(f"{label:52} {synced[name] / count:6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=480)
    parser.add_argument("--no-sender", action="store_true", help="skip the sender process's part")
    parser.add_argument("--read-floor", action="store_true",
                        help="only the state read against plain routes doing part of its work (`read_floor`)")
    parser.add_argument("--kept-state", action="store_true",
                        help="only the order decided on the kept state against one on a load (`kept_state`)")
    parser.add_argument("--overlap", type=int, nargs="?", const=1, default=0, metavar="CLIENTS",
                        help="only the answer made during the fsync against after it, through waitress (`overlap`)")
    parser.add_argument("--device-us", type=int, default=None,
                        help="with --overlap: the database in memory, each fsync followed by this long a wait")
    parser.add_argument("--counts", action="store_true",
                        help="only what one submit does, counted: SQL statements, JSON, digests, signatures (`counts`)")
    parser.add_argument("--submit-floor", action="store_true",
                        help="only the order submit against the same order on a plain route (`submit_floor`)")
    args = parser.parse_args()
    if args.overlap:
        overlap(args.requests, clients=args.overlap, device_us=args.device_us)
        return
    if args.counts:
        counts(args.requests)
        return
    if args.kept_state:
        kept_state(args.requests)
    if args.submit_floor:
        submit_floor(args.requests)
    if args.read_floor:
        read_floor(args.requests)
    if args.read_floor or args.submit_floor or args.kept_state:
        return
    breakdown(args.requests)
    if not args.no_sender:
        sender_cpu(args.requests // 2)


if __name__ == "__main__":
    main()
