"""An order's answer is made while its fsync runs, and given only once the fsync has ended (app/service/writes.py
`Writes.answering`, the store's `disk_later`, app/events/sqlite.py `GroupCommit.sync_soon`; issue 26): the receipt,
the event lines and the view are ready when the disk is, and no answer (nor the turn email's kick) leaves before
the order is on disk. A failed fsync is told to the writer whose commit it covered, never tried again into a
success."""
from __future__ import annotations

import errno
import os
import threading

import pytest

from app.events.receipts import Signer
from app.events.store import EventStore, NewEvent
from tests.core.test_commit_mark_part14 import world


def _journal(fd: int, path: str) -> bool:
    return os.readlink(f"/proc/self/fd/{fd}") == os.path.realpath(path) + "-wal"


def test_the_answer_is_made_during_the_fsync_and_given_after_it(tmp_path, monkeypatch, disk_sync):
    """The order's fsync held open: its receipt is signed meanwhile, and the answer does not come until the fsync
    ends (201, the order stored). Answered after its fsync as before, the receipt would wait for the disk."""
    path = str(tmp_path / "api.sqlite3")
    _, client, game, tokens = world(path)  # a skirmish game through the API, both seats joined
    steps: list[str] = []
    held, release, signed = threading.Event(), threading.Event(), threading.Event()
    real_fdatasync, real_sign = os.fdatasync, Signer.sign

    def slow_disk(fd):
        if _journal(fd, path) and not release.is_set():
            steps.append("fsync begins")
            held.set()
            release.wait(30)
        real_fdatasync(fd)
        if _journal(fd, path):
            steps.append("fsync ends")

    def signing(self, *args):
        receipt = real_sign(self, *args)
        steps.append("receipt signed")
        signed.set()
        return receipt

    monkeypatch.setattr(os, "fdatasync", slow_disk)
    monkeypatch.setattr(Signer, "sign", signing)
    answered = {}

    def submit():
        answered["response"] = client.post(f"/games/{game}/orders", json={"order": "end"},
                                           headers={"Authorization": f"Bearer {tokens['red']}"})
        steps.append("answered")

    giving = threading.Thread(target=submit)
    giving.start()
    assert held.wait(30)
    made_meanwhile = signed.wait(5)
    assert giving.is_alive()  # nothing answered while the order is not on disk
    release.set()
    giving.join(30)
    assert made_meanwhile, steps
    assert steps.index("receipt signed") < steps.index("fsync ends") < steps.index("answered"), steps
    assert answered["response"].status_code == 201
    assert [e.type for e in EventStore(path).events(game)][-1] == answered["response"].json["events"][-1]["type"]


@pytest.mark.parametrize("who", ["the syncing thread", "the writer"])
def test_a_failed_fsync_is_told_to_the_writer_and_never_retried_into_a_success(tmp_path, monkeypatch, disk_sync, who):
    """The journal's fsync fails once (EIO): the writer that put its wait off (`disk_later`) is told when it waits,
    whether the syncing thread ran that fsync or the writer itself, even though the next fsync succeeds (after a
    failed fsync the kernel may have dropped the pages: a retry's success proves nothing)."""
    path = str(tmp_path / "store.sqlite3")
    store = EventStore(path)
    store.create_game("g-1", "skirmish", "meeting", [NewEvent("core.X", 1, {"n": 0}, "t")], None)
    group = store.db.group
    if who == "the writer":
        monkeypatch.setattr(group, "sync_soon", lambda ticket: None)  # the thread never begins it
    failures = []
    real_fdatasync = os.fdatasync

    def failing_once(fd):
        if _journal(fd, path) and not failures:
            failures.append(fd)
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real_fdatasync(fd)

    monkeypatch.setattr(os, "fdatasync", failing_once)
    with pytest.raises(OSError) as told:
        with store.disk_later():
            store.append("g-1", 1, [NewEvent("core.X", 1, {"n": 1}, "t")])
            ticket = group.committed
    assert told.value.errno == errno.EIO and failures
    store.append("g-1", 2, [NewEvent("core.X", 1, {"n": 2}, "t")])  # a new write: its own fsync succeeds
    assert group.synced_up_to > ticket
    with pytest.raises(OSError):
        group.synced(ticket)  # and the failed one is still told, not passed
    store.close()
