"""Event store figures, each beside a baseline measured in the same run.

1. Appends per second, one command (an order and two events) per transaction, durable (WAL, synchronous=FULL):
   the store vs raw sqlite3 inserting the same rows with the same settings.
2. Loading the head of a 20,000-event game: from the latest snapshot, and by a full rebuild (every event read as
   play reads the store's sealed events, registry.decode_stored), vs a bare SELECT + json.loads + fold.

bench/table.py prints issue 15's whole table, each row beside its baseline, in interleaved rounds.

Usage: python bench/store.py [--commands 400] [--events 20000]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.events.backends import open_store  # noqa: E402
from app.events.envelope import canonical_json  # noqa: E402
from app.events.registry import _BY_NAME, encode  # noqa: E402
from app.events.store import EventStore, NewEvent  # noqa: E402
from app.projections import state as projection  # noqa: E402
from app.rules.catalog import installed  # noqa: E402
from app.rules.skirmish.events import StepEnded, UnitMoved  # noqa: E402
from app.service import games  # noqa: E402

CATALOG = installed()  # the rule sets installed here


def timed(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def command_batch(i: int) -> list[NewEvent]:
    hexes = ["0202", "0102"]
    order = NewEvent("core.OrderGiven", 1, {"side": "red", "text": f"move R1 {hexes[i % 2]}",
                                            "command": {"side": "red", "action": "move", "args": {}}}, "player:red")
    name, version, payload = encode(UnitMoved("R1", [hexes[i % 2]]))
    moved = NewEvent(name, version, payload, "player:red", None)
    name, version, payload = encode(StepEnded("red", "movement"))
    return [order, moved, NewEvent(name, version, payload, "player:red", None)]


def bench_appends(tmp: Path, commands: int) -> tuple[float, float]:
    store = EventStore(str(tmp / "appends.sqlite3"))
    game_id = games.create_game(store, CATALOG, "skirmish")
    seq = store.head(game_id)[0]
    start = time.perf_counter()
    for i in range(commands):
        seq = store.append(game_id, seq, command_batch(i))[-1].seq
    store_rate = commands / (time.perf_counter() - start)

    conn = sqlite3.connect(str(tmp / "raw.sqlite3"), isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE events (game_id TEXT, seq INTEGER, type TEXT, version INTEGER, payload TEXT, "
                 "actor TEXT, at TEXT, causation INTEGER, prev_hash TEXT, hash TEXT, "
                 "PRIMARY KEY (game_id, seq)) WITHOUT ROWID")
    start = time.perf_counter()
    seq = 0
    for i in range(commands):
        conn.execute("BEGIN IMMEDIATE")
        for e in command_batch(i):
            seq += 1
            conn.execute("INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?,?)",
                         ("g", seq, e.type, e.version, canonical_json(e.payload), e.actor, "t", None, "p", "h"))
        conn.execute("COMMIT")
    raw_rate = commands / (time.perf_counter() - start)
    return store_rate, raw_rate


def long_game(tmp: Path, events: int, location: str | None = None) -> tuple[EventStore, str]:
    """A skirmish game of `events` events with its snapshots, in tmp/long.sqlite3 or at `location` (a URL)."""
    store = open_store(location or str(tmp / "long.sqlite3"))
    game_id = games.create_game(store, CATALOG, "skirmish")
    seq = store.head(game_id)[0]
    i = 0
    while seq < events:
        batch = [e for k in range(100) for e in command_batch(i + k)][: events - seq]
        seq = store.append(game_id, seq, batch)[-1].seq
        i += 100
    projection.rebuild_snapshots(store, CATALOG, game_id)
    return store, game_id


def bare_rebuild(store: EventStore, game_id: str):
    rules = CATALOG.rules("skirmish")
    state = None
    for type_, payload in store.db.conn.execute(
            "SELECT type, payload FROM events WHERE game_id = ? ORDER BY seq", [game_id]):
        body = json.loads(payload)
        if type_ == "core.GameCreated":
            state = rules.initial_state(body["scenario"], body["options"])
        elif not type_.startswith("core."):
            state = rules.evolve(state, _BY_NAME[type_].cls(**body))
    return state


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--commands", type=int, default=400)
    parser.add_argument("--events", type=int, default=20000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        store_rate, raw_rate = bench_appends(tmp_path, args.commands)
        store, game_id = long_game(tmp_path, args.events)
        head = store.head(game_id)[0]
        with_snap = timed(lambda: projection.load(store, CATALOG, game_id))
        worst = timed(lambda: projection.load(store, CATALOG, game_id, head - 1))  # fold snapshot_every - 1 events
        without = timed(lambda: projection.load(store, CATALOG, game_id, use_snapshots=False), repeat=2)
        bare = timed(lambda: bare_rebuild(store, game_id), repeat=2)
        folded = projection.load(store, CATALOG, game_id, use_snapshots=False)
        assert projection.load(store, CATALOG, game_id).game == folded.game
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"SQLite {sqlite3.sqlite_version}")
    print(f"{'measure':58} {'hexledger':>12} {'baseline':>12}")
    print(f"{'appends/s, one command (3 rows) per durable transaction':58} {store_rate:12.0f} {raw_rate:12.0f}"
          "   (baseline: raw sqlite3, same rows, WAL + synchronous=FULL)")
    label_snap = f"load head of a {head}-event game, from snapshot (ms)"
    label_worst = f"load event {head - 1}, snapshot + {store.snapshot_every - 1} events folded (ms)"
    label_full = f"load head of a {head}-event game, full rebuild (ms)"
    print(f"{label_snap:58} {with_snap * 1000:12.1f}")
    print(f"{label_worst:58} {worst * 1000:12.1f}")
    print(f"{label_full:58} {without * 1000:12.1f} {bare * 1000:12.1f}"
          "   (baseline: bare SELECT + json.loads + fold, no schema validation)")
    print(f"worst-case snapshot load vs full rebuild: {without / worst:.0f}x faster "
          f"(snapshot every {store.snapshot_every} events)")


if __name__ == "__main__":
    main()
