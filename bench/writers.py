"""Concurrent writers for the benches: `together` times threads that start at once, and the PostgreSQL store's
baseline at equal durability, the eventsourcing library's own PostgreSQL recorder (eventsourcing.postgres, psycopg 3
and its pool) on the same server, so the store is compared with another event store that waits for the same WAL
flush (the server's fsync on, synchronous_commit on), not only with SQLite.

Its aggregate recorder inserts a batch of events as one INSERT ... SELECT FROM unnest(...) in autocommit, one round
trip; its optimistic concurrency is the primary key (originator_id, originator_version). It keeps no hash chain and
checks no expected head under a lock: what the store does beyond it is the price of those.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable

from app.events.envelope import canonical_json
from app.events.store import NewEvent


def together(work: Callable[[int, threading.Barrier], None], threads: int) -> float:
    """Seconds for `threads` threads to run `work(n, barrier)`, timed from when all of them pass the barrier; an
    exception in any of them is raised here once all have ended."""
    barrier = threading.Barrier(threads + 1)
    failures: list[BaseException] = []

    def run(n: int) -> None:
        try:
            work(n, barrier)
        except BaseException as exc:  # reported after the run
            failures.append(exc)
            barrier.abort()

    running = [threading.Thread(target=run, args=(n,)) for n in range(threads)]
    for t in running:
        t.start()
    barrier.wait()
    start = time.perf_counter()
    for t in running:
        t.join()
    if failures:
        raise failures[0]
    return time.perf_counter() - start


def eventsourcing_pg_writers(url: str, writers: int, each: int, batch: Callable[[int], list[NewEvent]]) -> float:
    """Commands (batches of events, one transaction each) per second of the eventsourcing PostgreSQL recorder on the
    database at `url`: `writers` threads, each inserting `each` batches into its own aggregate, on a pool of its own
    connections. Refuses to measure unless its connections commit with synchronous_commit on."""
    from eventsourcing.persistence import StoredEvent
    from eventsourcing.postgres import PostgresAggregateRecorder, PostgresDatastore
    from psycopg.conninfo import conninfo_to_dict

    where = conninfo_to_dict(url)
    datastore = PostgresDatastore(where["dbname"], where.get("host", "127.0.0.1"), where.get("port", 5432),
                                  where["user"], where.get("password", ""), pool_size=writers + 1,
                                  originator_id_type="text")
    try:
        with datastore.get_connection() as conn:
            setting = conn.execute("SHOW synchronous_commit").fetchone()["synchronous_commit"]
        if setting != "on":
            raise RuntimeError(f"eventsourcing's connections commit with synchronous_commit={setting}: not the "
                               "store's durability, so not a baseline")
        recorder = PostgresAggregateRecorder(datastore)
        recorder.create_table()
        tag = time.monotonic_ns()

        def writer(w: int, barrier: threading.Barrier) -> None:
            barrier.wait()
            version = 0
            for i in range(each):
                events = batch(i)
                recorder.insert_events([StoredEvent(f"es-{tag}-{w}", version + k + 1, e.type,
                                                    canonical_json(e.payload).encode()) for k, e in enumerate(events)])
                version += len(events)

        return writers * each / together(writer, writers)
    finally:
        datastore.close()
