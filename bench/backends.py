"""The two event stores side by side, in the same run: durable appends per second with 1 and with 4 concurrent
writers, PostgreSQL (app/events/postgres.py, on a server this script starts: bench/pg_cluster.py) vs SQLite
(app/events/store.py, WAL + synchronous=FULL), and beside them the eventsourcing library's PostgreSQL recorder on
the same server (bench/writers.py): an event store at the same durability. Each writer is a thread with its own
store connection appending commands (an order and two events, one transaction each, its expected seq checked) to
its own game; every one waits for its commit to be on disk (fsync on, synchronous_commit on) before an append
returns. Rounds alternate between the backends; the best round of each is shown.

Usage: python bench/backends.py [--commands 150] [--rounds 3]
"""
from __future__ import annotations

import sys
from pathlib import Path

# run as `python bench/backends.py`, this file's folder comes first on sys.path; bench/http.py would shadow the
# stdlib's http
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import sqlite3  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

from app.events.backends import open_store  # noqa: E402
from app.events.store import NewEvent  # noqa: E402
from bench import pg_cluster  # noqa: E402
from bench.writers import eventsourcing_pg_writers, together  # noqa: E402


def command(i: int) -> list[NewEvent]:
    """An order and the two events it caused, sized like a skirmish move."""
    return [NewEvent("core.OrderGiven", 1, {"side": "red", "text": f"move R1 {i % 90:04d}",
                                            "command": {"side": "red", "action": "move", "args": {"i": i}}},
                     "player:red"),
            NewEvent("skirmish.UnitMoved", 1, {"unit": "R1", "path": [f"{i % 90:04d}"]}, "player:red"),
            NewEvent("skirmish.StepEnded", 1, {"side": "red", "step": "movement"}, "player:red")]


def appends_per_second(location: str, writers: int, commands: int) -> float:
    """Commands appended per second by `writers` threads, each to its own game on its own connection."""
    setup = open_store(location)
    suffix = f"{time.monotonic_ns()}"
    game_ids = [f"bench-{writers}-{suffix}-{w}" for w in range(writers)]
    for game_id in game_ids:
        setup.create_game(game_id, "skirmish", "meeting", command(0), None)
    stores = [open_store(location) for _ in range(writers)]

    def writer(w: int, barrier: threading.Barrier) -> None:
        store, game_id = stores[w], game_ids[w]
        seq = store.head(game_id)[0]
        barrier.wait()
        for i in range(commands):
            seq = store.append(game_id, seq, command(i))[-1].seq

    seconds = together(writer, writers)
    assert all(setup.head(g)[0] == 3 * (commands + 1) for g in game_ids)
    for store in [setup, *stores]:
        store.close()
    return writers * commands / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commands", type=int, default=150, help="commands per writer per round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    cluster = pg_cluster.start()
    best: dict[tuple[str, int], float] = {}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            locations = {"sqlite": str(Path(tmp) / "bench.sqlite3"), "postgresql": cluster.create_database("bench")}
            for _ in range(args.rounds):
                for writers in (1, 4):
                    for name, location in locations.items():  # interleaved: a busy moment hits all three
                        rate = appends_per_second(location, writers, args.commands)
                        best[name, writers] = max(best.get((name, writers), 0.0), rate)
                    rate = eventsourcing_pg_writers(locations["postgresql"], writers, args.commands, command)
                    best["eventsourcing", writers] = max(best.get(("eventsourcing", writers), 0.0), rate)
            version = _server_version(locations["postgresql"])
    finally:
        cluster.stop()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"SQLite {sqlite3.sqlite_version}, PostgreSQL {version}; best of {args.rounds} interleaved rounds")
    print(f"{'durable appends/s, one command (3 events) per transaction':58} {'PostgreSQL':>11} {'SQLite':>9} "
          f"{'ratio':>7} {'es PostgreSQL':>14} {'ratio':>7}")
    for writers in (1, 4):
        pg, lite, es = best["postgresql", writers], best["sqlite", writers], best["eventsourcing", writers]
        label = f"{writers} writer{'s' if writers > 1 else ''}, each on its own game and connection"
        print(f"{label:58} {pg:11.0f} {lite:9.0f} {pg / lite:6.2f}x {es:14.0f} {pg / es:6.2f}x")


def _server_version(url: str) -> str:
    store = open_store(url)
    try:
        return store.db.conn.execute("SHOW server_version").fetchone()["server_version"].split()[0]
    finally:
        store.close()


if __name__ == "__main__":
    main()
