"""Reliability runs (issue 8): concurrent writers and SIGKILL crashes against the event store.

The CI tests (tests/reliability/) call these routines with small budgets; run this script for the larger runs
whose figures are kept in docs/reliability.md. The race runs beside a baseline: the same writers doing raw
sqlite3 inserts with the same durability, no expected-sequence check.

Usage: python bench/reliability.py [--games 20] [--writers 3] [--crash-rounds 30]
"""
from __future__ import annotations

import argparse
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.events.store import Conflict, EventStore  # noqa: E402
from app.projections import state as projection  # noqa: E402
from app.service import audit, games  # noqa: E402

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
    """Writers race to move the red units of each game (one unit each); a loser reloads and retries."""
    setup = EventStore(path)
    game_ids = [games.create_game(setup, "skirmish") for _ in range(n_games)]
    moves = RED_MOVES[:writers_per_game]
    result = RaceResult(n_games, n_games * len(moves))
    lock = threading.Lock()
    barrier = threading.Barrier(result.writers)

    def writer(game_id: str, order: str) -> None:
        store = EventStore(path)
        barrier.wait()
        while True:
            seen = projection.load(store, game_id).meta.seq
            try:
                games.submit(store, game_id, "red", order, expected_seq=seen)
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
        if not audit.verify(events).ok:
            result.unverified.append(game_id)
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


WRITER = r"""
import sys
sys.path.insert(0, {root!r})
from app.events.store import EventStore
from app.rules.errors import OrderError
from app.service import games
store = EventStore({db!r})
orders = [("red", "move R1 0202"), ("red", "move R2 0203"), ("red", "end"), ("red", "end"),
          ("blue", "move B1 0602"), ("blue", "move B2 0603"), ("blue", "end"), ("blue", "end")]
for side, order in orders * 100:
    try:
        accepted = games.submit(store, {game!r}, side, order)
    except OrderError:
        continue  # illegal in this position (the unit already moved): the next order
    print("ACK", accepted.events[-1].seq, flush=True)
"""


@dataclass
class CrashResult:
    crashes: int = 0
    acknowledged: int = 0
    stored: int = 0
    lost: int = 0
    verified: bool = True
    snapshots_match: bool = True
    problems: list = field(default_factory=list)  # what went wrong, game by game, for the failure message


def _first_line(proc: subprocess.Popen, timeout: float) -> str:
    """The writer's first output line (its first acknowledgement), or '' if it says nothing within `timeout`."""
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    return proc.stdout.readline().strip() if ready else ""


def crash_rounds(path: str, rounds: int, rng: random.Random, kills_per_round: int = 3) -> CrashResult:
    """Start a writer process, SIGKILL it at a random moment, repeat; then check nothing acknowledged is lost."""
    result = CrashResult()
    for _ in range(rounds):
        store = EventStore(path)
        game_id = games.create_game(store, "skirmish")
        store.close()
        acked = 0
        for _ in range(kills_per_round):
            proc = subprocess.Popen([sys.executable, "-c", WRITER.format(root=str(ROOT), db=path, game=game_id)],
                                    stdout=subprocess.PIPE, text=True)
            first = _first_line(proc, timeout=60)  # the writer is up and writing, however loaded the machine
            time.sleep(rng.random() * 0.4)  # then the kill lands at a random moment of its writing
            os.kill(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
            result.crashes += 1
            lines = [first, *out.splitlines()]
            acked = max([acked, *(int(line.split()[1]) for line in lines if line.startswith("ACK"))])
        reopened = EventStore(path)
        events = list(reopened.events(game_id))
        result.acknowledged += acked
        result.stored += len(events)
        result.lost += max(0, acked - (events[-1].seq if events else 0))
        report = audit.verify(events)
        result.verified &= report.ok
        if not report.ok or acked > (events[-1].seq if events else 0):
            result.problems.append(f"{game_id}: acknowledged {acked}, stored {len(events)}, {report.problems[:1]}")
        projection.rebuild_snapshots(reopened, game_id)
        rules = projection.get_rules("skirmish")
        result.snapshots_match &= projection.encode(rules, projection.load(reopened, game_id)) == \
            projection.encode(rules, projection.load(reopened, game_id, use_snapshots=False))
        reopened.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--writers", type=int, default=3)
    parser.add_argument("--crash-rounds", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        r = race(os.path.join(tmp, "race.sqlite3"), args.games, args.writers)
        baseline = raw_race(os.path.join(tmp, "raw.sqlite3"), r.writers, 1)
        c = crash_rounds(os.path.join(tmp, "crash.sqlite3"), args.crash_rounds, random.Random(1))
    print(f"race: {r.writers} writers on {r.games} games, {r.accepted} orders accepted, {r.conflicts} conflicts "
          f"told and retried, {len(r.lost)} games lost an order, {len(r.unverified)} failed verify; "
          f"{r.seconds:.2f} s (baseline: {r.writers} raw sqlite3 writers, one durable insert each: {baseline:.2f} s)")
    print(f"crashes: {c.crashes} SIGKILLs in {args.crash_rounds} games, {c.acknowledged} acknowledged events, "
          f"{c.lost} lost, every game verifies: {c.verified}, snapshots rebuilt equal full rebuild: "
          f"{c.snapshots_match}")


if __name__ == "__main__":
    main()
