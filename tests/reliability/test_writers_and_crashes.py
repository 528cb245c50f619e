"""Issue 8, in-process and process-level: concurrent writers, SIGKILL mid-write, locked and full databases."""
from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app.events.store import Conflict, EventStore, NewEvent, StoreUnavailable
from app.projections import state as projection
from app.service import audit, games

ROOT = Path(__file__).resolve().parents[2]


def test_concurrent_writers_lose_nothing_and_every_loser_is_told(tmp_path):
    """Three writers per game race to move the three red units of 6 games; each retries after a conflict."""
    path = str(tmp_path / "race.sqlite3")
    setup = EventStore(path)
    game_ids = [games.create_game(setup, "skirmish") for _ in range(6)]
    moves = {"R1": "move R1 0202", "R2": "move R2 0203", "R3": "move R3 0204"}
    conflicts, accepted = [], []
    barrier = threading.Barrier(len(game_ids) * len(moves))

    def writer(game_id: str, order: str) -> None:
        store = EventStore(path)
        barrier.wait()
        while True:
            seen = projection.load(store, game_id).meta.seq
            try:
                games.submit(store, game_id, "red", order, expected_seq=seen)
                accepted.append((game_id, order))
                return
            except Conflict as exc:
                conflicts.append((game_id, exc.expected, exc.actual))

    threads = [threading.Thread(target=writer, args=(g, o)) for g in game_ids for o in moves.values()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(accepted) == len(threads)
    for game_id in game_ids:
        events = list(setup.events(game_id))
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        orders = sorted(e.payload["text"] for e in events if e.type == "core.OrderGiven")
        assert orders == sorted(moves.values())
        assert audit.verify(events).ok
    assert all(actual > expected for _, expected, actual in conflicts)


WRITER = r"""
import sys
sys.path.insert(0, {root!r})
from app.events.store import EventStore
from app.service import games
store = EventStore({db!r})
game_id = {game!r}
orders = [("red", "move R1 0202"), ("red", "move R2 0203"), ("red", "end"), ("red", "end"),
          ("blue", "move B1 0602"), ("blue", "move B2 0603"), ("blue", "end"), ("blue", "end")]
for side, order in orders * 100:
    try:
        accepted = games.submit(store, game_id, side, order)
    except Exception as exc:  # an order illegal in this position (e.g. unit already moved): try the next
        continue
    print("ACK", accepted.events[-1].seq, flush=True)
"""


@pytest.mark.parametrize("round_", range(8))
def test_sigkill_mid_write_loses_no_acknowledged_order(tmp_path, round_):
    path = str(tmp_path / "crash.sqlite3")
    store = EventStore(path)
    game_id = games.create_game(store, "skirmish")
    store.close()
    acked = 0
    rng = random.Random(round_)
    for _ in range(3):
        proc = subprocess.Popen([sys.executable, "-c", WRITER.format(root=str(ROOT), db=path, game=game_id)],
                                stdout=subprocess.PIPE, text=True)
        time.sleep(0.35 + rng.random() * 0.5)
        os.kill(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        seqs = [int(line.split()[1]) for line in out.splitlines() if line.startswith("ACK")]
        acked = max([acked, *seqs])
    reopened = EventStore(path)
    events = list(reopened.events(game_id))
    assert events[-1].seq >= acked
    report = audit.verify(events)
    assert report.ok, report.problems
    projection.rebuild_snapshots(reopened, game_id)
    assert projection.encode(projection.get_rules("skirmish"), projection.load(reopened, game_id)) == \
        projection.encode(projection.get_rules("skirmish"), projection.load(reopened, game_id, use_snapshots=False))


def test_locked_database_is_a_clear_error_and_changes_nothing(tmp_path):
    path = str(tmp_path / "locked.sqlite3")
    store = EventStore(path, busy_timeout=0.2)
    game_id = games.create_game(store, "skirmish")
    head = store.head(game_id)[0]
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreUnavailable, match="locked"):
            games.submit(store, game_id, "red", "move R1 0202")
    finally:
        blocker.execute("ROLLBACK")
    assert store.head(game_id)[0] == head
    games.submit(store, game_id, "red", "move R1 0202")  # works again once the lock is gone
    assert store.head(game_id)[0] == head + 2


def test_full_disk_is_a_clear_error_and_changes_nothing(tmp_path):
    path = str(tmp_path / "full.sqlite3")
    store = EventStore(path)
    game_id = games.create_game(store, "skirmish")
    head = store.head(game_id)[0]
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count = {pages}")  # the database may not grow: a full disk
    big = NewEvent("core.PlayerJoined", 1, {"side": "red", "name": "x" * 200_000, "seed_text": ""}, "t")
    with pytest.raises(StoreUnavailable, match="full"):
        store.append(game_id, head, [big])
    assert store.head(game_id)[0] == head
    assert audit.verify(list(store.events(game_id))).ok


def test_cli_reports_a_locked_database_without_a_traceback(tmp_path):
    path = str(tmp_path / "cli.sqlite3")
    store = EventStore(path)
    game_id = games.create_game(store, "skirmish")
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    env = {**os.environ, "HEXLEDGER_DB": path, "HEXLEDGER_BUSY_TIMEOUT": "0.2"}
    try:
        out = subprocess.run([sys.executable, str(ROOT / "cli.py"), "do", game_id, "--as", "red",
                              "move R1 0202", "--json"], capture_output=True, text=True, env=env, timeout=60)
    finally:
        blocker.execute("ROLLBACK")
    assert out.returncode == 1
    assert "locked" in json.loads(out.stdout)["message"] and "Traceback" not in out.stderr
