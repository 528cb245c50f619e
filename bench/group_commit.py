"""What group commit saves (docs/architecture.md, "The write path"): per durable write, the SQLite COMMITs, the WAL
fsyncs and the process's CPU time, with 4 writer threads appending to the store (bench/table.py's durable-writers
workload) and with 1 and 4 HTTP clients giving orders through waitress (bench/table.py's submit rows). Counts and
CPU time a write are steady on a shared machine, where rates are not; the rates are printed all the same.

    python bench/group_commit.py [--appends 300] [--submits 120]

Run it in two checkouts to compare them: it counts COMMIT statements through SQLite's trace callback on every
connection the program opens, so it needs nothing of the store's own code. No test runs it.
"""
from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

COUNTS = {"commits": 0, "fsyncs": 0}
_connect, _fdatasync = sqlite3.connect, os.fdatasync


def _counting_connect(*args, **kwargs):
    conn = _connect(*args, **kwargs)
    conn.set_trace_callback(lambda sql: COUNTS.__setitem__("commits", COUNTS["commits"] + (sql == "COMMIT")))
    return conn


def _counting_fdatasync(fd: int) -> None:
    if os.readlink(f"/proc/self/fd/{fd}").endswith("-wal"):
        COUNTS["fsyncs"] += 1
    _fdatasync(fd)


sqlite3.connect, os.fdatasync = _counting_connect, _counting_fdatasync

from bench.table import WRITERS, Server, store_writers  # noqa: E402


def measured(label: str, writes: int, run) -> None:
    COUNTS.update(commits=0, fsyncs=0)
    cpu = time.process_time()
    rate = run()
    cpu = time.process_time() - cpu
    print(f"{label:28s} {rate:7.0f}/s  process CPU {cpu / writes * 1e6:5.0f} us  "
          f"COMMITs {COUNTS['commits'] / writes:.2f}  WAL fsyncs {COUNTS['fsyncs'] / writes:.2f}  (a write)",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=300, help="appends a writer thread")
    parser.add_argument("--submits", type=int, default=120, help="orders an HTTP client")
    args = parser.parse_args()
    print(f"{Path.cwd().name}, load average {os.getloadavg()[0]:.1f}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = f"{tmp}/writers.sqlite3"
        store_writers(path, 20)  # warm
        measured(f"store, {WRITERS} writer threads", WRITERS * args.appends, lambda: store_writers(path, args.appends))
        for clients in (1, WRITERS):
            (Path(tmp) / f"http{clients}").mkdir()
            server = Server(Path(tmp) / f"http{clients}", 2 * args.submits, clients)
            server.rate(server.submit, args.submits // 4, clients)  # warm
            measured(f"HTTP submit, {clients} client{'s' if clients > 1 else ''}", clients * args.submits,
                     lambda server=server, clients=clients: server.rate(server.submit, args.submits, clients)[0])
            server.close()


if __name__ == "__main__":
    main()
