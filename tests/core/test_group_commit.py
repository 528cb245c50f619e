"""SQLite group commit (app/events/sqlite.py, GroupCommit; docs/architecture.md, "The write path"): writers of one
process arriving together share one transaction and one fsync, each keeps its own game's chain and optimistic
concurrency, a refused one takes back only its own writes, and a kill before the shared commit loses nothing that
was acknowledged."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from app.events.envelope import GENESIS_HASH
from app.events.sqlite import GroupCommit
from app.events.store import Conflict, EventStore, NewEvent

ROOT = Path(__file__).resolve().parents[2]


def _event(n: int) -> NewEvent:
    return NewEvent("core.X", 1, {"n": n}, "t")


def _chained(events) -> bool:
    """Each event sealed onto the one before it (GENESIS first), its hash its own."""
    before = GENESIS_HASH
    for event in events:
        if event.prev_hash != before or event.hash != event.computed_hash():
            return False
        before = event.hash
    return True


def _until(condition, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.005)
    assert condition()


def test_writers_queued_together_share_one_commit_and_one_fsync_and_each_keeps_its_chain(tmp_path, monkeypatch,
                                                                                         disk_sync):
    """One writer holds the turn while five queue: one on a game of its own, one stale on the holder's game, two on
    one game from the same seq, and one whose transaction fails after its append. They commit in one transaction
    and one fsync of the WAL; the stale writer and the later of the same-game pair are told Conflict, the failed
    one its error, and none of the three wrote anything; the others' events all stand, chained."""
    path = str(tmp_path / "group.sqlite3")
    setup = EventStore(path)
    for game in ("g-0", "g-1", "g-2", "g-3"):
        setup.create_game(game, "skirmish", "meeting", [_event(0)], None)
    group = GroupCommit.of(path, 30.0)
    commits: list[str] = []
    group.conn.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
    wal_syncs: list[int] = []
    real_fdatasync = os.fdatasync

    def counting_fdatasync(fd):
        if os.readlink(f"/proc/self/fd/{fd}") == os.path.realpath(path) + "-wal":
            wal_syncs.append(fd)
        return real_fdatasync(fd)

    monkeypatch.setattr(os, "fdatasync", counting_fdatasync)
    holding, go = threading.Event(), threading.Event()
    told: dict[str, object] = {}

    def holder() -> None:
        store = EventStore(path)
        with store.transaction():
            told["holder"] = store.append("g-0", 1, [_event(1)])[-1].seq
            holding.set()
            go.wait(30)
        store.close()

    def writer(name: str, game: str, expected: int) -> None:
        store = EventStore(path)
        try:
            with store.transaction():
                told[name] = store.append(game, expected, [_event(2), _event(3)])[-1].seq
                if name == "refused":
                    raise ValueError("refused after its append (a check after the write failed)")
        except (Conflict, ValueError) as exc:
            told[name] = exc
        store.close()

    first = threading.Thread(target=holder)
    first.start()
    holding.wait(30)
    queued = [threading.Thread(target=writer, args=args) for args in
              [("other-1", "g-1", 1), ("other-2", "g-2", 1), ("stale", "g-0", 1), ("same-a", "g-1", 1),
               ("refused", "g-3", 1)]]
    for t in queued:
        t.start()
    _until(lambda: group.waiting == len(queued))
    commits.clear()
    go.set()
    for t in [first, *queued]:
        t.join(30)
    assert commits == ["COMMIT"]  # the five writers' transactions committed as one
    assert len(wal_syncs) == 1  # and on disk with one fsync
    assert told["holder"] == 2 and told["other-2"] == 3
    assert isinstance(told["stale"], Conflict)  # optimistic concurrency inside the batch: the holder's seq 2 won
    g1 = [told["other-1"], told["same-a"]]
    assert sorted(g1, key=lambda x: isinstance(x, Conflict))[0] == 3 and any(isinstance(x, Conflict) for x in g1)
    fresh = EventStore(path)
    assert [e.seq for e in fresh.events("g-0")] == [1, 2]  # the stale writer's events are nowhere
    assert [e.seq for e in fresh.events("g-1")] == [1, 2, 3]  # one of the same-game pair, once
    assert [e.seq for e in fresh.events("g-2")] == [1, 2, 3]
    assert isinstance(told["refused"], ValueError) and [e.seq for e in fresh.events("g-3")] == [1]  # taken back alone
    for game in ("g-0", "g-1", "g-2", "g-3"):
        assert _chained(fresh.events(game))
    group.close()


KILLED_IN_THE_BATCH = r"""
import os, signal, sys, threading, time
from app.events import sqlite
from app.events.store import EventStore, NewEvent

path = sys.argv[1]
def event(n):
    return NewEvent("core.X", 1, {"n": n}, "t")
store = EventStore(path)
store.create_game("g-0", "skirmish", "meeting", [event(0)], None)
store.create_game("g-1", "skirmish", "meeting", [event(0)], None)
print("acknowledged g-0", store.append("g-0", 1, [event(1)])[-1].seq, flush=True)  # a batch of its own
real_close = sqlite.GroupCommit._close
def dies(self, batch):
    if batch.kept >= 2:  # two writers' parts kept in the batch, its commit not made: the process dies here
        print("killed", batch.kept, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    return real_close(self, batch)
sqlite.GroupCommit._close = dies
holding, go = threading.Event(), threading.Event()
def holder():
    s = EventStore(path)
    with s.transaction():
        s.append("g-0", 2, [event(2)])
        holding.set()
        go.wait()
    print("acknowledged g-0 3", flush=True)
def writer():
    s = EventStore(path)
    print("acknowledged g-1", s.append("g-1", 1, [event(1)])[-1].seq, flush=True)
first = threading.Thread(target=holder); first.start(); holding.wait()
second = threading.Thread(target=writer); second.start()
group = sqlite.GroupCommit.of(path, 30.0)
while group.waiting < 1:  # the writer waits for its turn behind the holder
    time.sleep(0.001)
go.set()
first.join(); second.join()
"""


def test_a_process_killed_after_the_batch_formed_and_before_its_commit_loses_nothing_acknowledged(tmp_path):
    """A writer process is SIGKILLed with two writers' parts kept in a batch and its commit not made: neither of
    those was acknowledged, and after it the database holds every acknowledged append (the batch before it), none of
    the killed batch's events, every chain intact, and takes the next append onto the head it kept."""
    path = str(tmp_path / "killed.sqlite3")
    child = subprocess.run([sys.executable, "-c", KILLED_IN_THE_BATCH, path], cwd=ROOT, capture_output=True,
                           text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert child.returncode == -signal.SIGKILL, child.stderr
    lines = child.stdout.splitlines()
    assert lines == ["acknowledged g-0 2", "killed 2"]  # nothing of the killed batch was acknowledged
    store = EventStore(path)
    assert [e.seq for e in store.events("g-0")] == [1, 2]  # acknowledged: there; the killed batch's: not
    assert [e.seq for e in store.events("g-1")] == [1]
    for game in ("g-0", "g-1"):
        assert _chained(store.events(game))
    assert store.append("g-1", 1, [_event(5)])[-1].seq == 2
