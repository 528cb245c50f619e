"""Where a PostgreSQL append's time goes, beside eventsourcing's PostgreSQL recorder (bench/writers.py), on a server
this script starts (bench/pg_cluster.py): the CPU the server's backend spends on one append of a 3-event command
(its own /proc/PID/schedstat, in nanoseconds, so other load on the machine adds little), the client's CPU for
sending it, and the WAL it writes, one connection, samples of N appends interleaved in a rotating order:

- `INSERT (outside a transaction)`: the store's append when it is its own transaction (postgres.append_statement);
- `append_events (0010)`: the store's append inside a transaction (postgres.append_call);
- `recorder INSERT`: eventsourcing's aggregate recorder's statement (INSERT ... SELECT FROM unnest of its row type)
  into a table like its own, for the same events (their payloads as its state).

The store's batches are sealed before the clock starts (envelope.seal: measured apart, in `seal`), as the
recorder's rows are made. `--sync off` leaves the WAL flush out (what the statements cost); `on` is the store's
durability, each commit waiting for its own flush.

Usage: python bench/pg_append.py [--appends 1000] [--samples 4] [--sync off|on]
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

from app.events.backends import open_store  # noqa: E402
from app.events.envelope import GENESIS_HASH, seal  # noqa: E402
from app.events.postgres import _params, append_call, append_statement  # noqa: E402
from bench import pg_cluster  # noqa: E402
from bench.store import command_batch  # noqa: E402

RECORDER_TABLE = ("CREATE TABLE recorded (originator_id text, originator_version bigint, topic text, state bytea, "
                  "PRIMARY KEY (originator_id, originator_version))")
RECORDER_ROW = "CREATE TYPE recorded_row AS (originator_id text, originator_version bigint, topic text, state bytea)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--appends", type=int, default=1000, help="appends a sample (default 1000)")
    parser.add_argument("--samples", type=int, default=4, help="samples of each (default 4)")
    parser.add_argument("--sync", choices=("off", "on"), default="off", help="synchronous_commit (default off)")
    args = parser.parse_args()
    import psycopg
    from psycopg.types.composite import CompositeInfo, register_composite

    cluster = pg_cluster.start()
    try:
        url = cluster.create_database("bench")
        store = open_store(url)
        conn = psycopg.connect(url, autocommit=True)
        conn.execute(f"SET synchronous_commit = {args.sync}")
        conn.execute(RECORDER_TABLE)
        conn.execute(RECORDER_ROW)
        info = CompositeInfo.fetch(conn, "recorded_row")
        register_composite(info, conn)
        row = info.python_type
        backend = conn.info.backend_pid

        def sample(send: Callable) -> tuple[float, float, float]:
            game_id = f"g{time.monotonic_ns()}"
            store.create_game(game_id, "skirmish", "meeting", command_batch(0)[:1], None)
            after, last = store.head(game_id)
            batches = []
            for i in range(args.appends):
                sealed, payloads = seal(game_id, after, last, command_batch(i))
                batches.append((game_id, after, last, sealed, payloads))
                after, last = sealed[-1].seq, sealed[-1].hash
            wal, server, client = _wal(conn), _cpu_ns(backend), time.process_time()
            for batch in batches:
                send(*batch)
            server, client = _cpu_ns(backend) - server, time.process_time() - client
            return server / args.appends / 1000, client / args.appends * 1e6, (_wal(conn) - wal) / args.appends

        def statement(*batch) -> None:
            conn.execute(*_prepared(append_statement(*batch)), prepare=True)

        def function(*batch) -> None:
            conn.execute(*_prepared(append_call(*batch)), prepare=True)

        def recorder(game_id, after, last, sealed, payloads) -> None:
            rows = [row(game_id, e.seq, e.type, text.encode()) for e, text in zip(sealed, payloads, strict=True)]
            conn.execute("INSERT INTO recorded SELECT * FROM unnest(%s::recorded_row[])", (rows,), prepare=True)

        variants = {"INSERT (outside a transaction)": statement,
                    "append_events (0010, inside a transaction)": function, "recorder INSERT": recorder}
        found: dict[str, list[tuple[float, float, float]]] = {name: [] for name in variants}
        for n in range(args.samples):
            names = list(variants)
            for name in names[n % len(names):] + names[:n % len(names)]:
                found[name].append(sample(variants[name]))
        sealing = min(_seal_us() for _ in range(3))
    finally:
        cluster.stop()
    print(f"one connection, synchronous_commit={args.sync}, {args.appends} appends of a 3-event command a sample, "
          f"median of {args.samples} samples; envelope.seal of such a command: {sealing:.1f} us of CPU")
    print(f"{'append':44} {'server CPU':>11} {'client CPU':>11} {'WAL':>8}")
    for name, rows in found.items():
        server, client, wal = (statistics.median(r[k] for r in rows) for k in range(3))
        print(f"{name:44} {server:8.1f} us {client:8.1f} us {wal:6.0f} B")


def _prepared(call: tuple[str, list]) -> tuple[str, list]:
    return call[0], _params(call[1])


def _cpu_ns(pid: int) -> int:
    with open(f"/proc/{pid}/schedstat") as stat:
        return int(stat.read().split()[0])


def _wal(conn) -> int:
    return conn.execute("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn").fetchone()[0]


def _seal_us(times: int = 2000) -> float:
    batch = command_batch(1)
    start = time.process_time()
    for _ in range(times):
        seal("g", 10, GENESIS_HASH, batch)
    return (time.process_time() - start) / times * 1e6


if __name__ == "__main__":
    main()
