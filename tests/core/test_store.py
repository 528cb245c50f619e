"""Event store: append-only, hash-chained, optimistic concurrency, durable (issue 2 item 2)."""
import os
import sqlite3
import threading
import time

import pytest

from app.events.envelope import GENESIS_HASH
from app.events.sqlite import GroupCommit
from app.events.store import Conflict, EventStore, NewEvent, UnknownGame
from app.rules.catalog import installed
from app.service import games
from app.service.console import Console
from app.settings import Settings

CATALOG = installed()  # the rule sets installed here


def _rows(path):
    return sqlite3.connect(path).execute("SELECT game_id, seq, hash FROM events ORDER BY game_id, seq").fetchall()


def test_stale_append_conflicts_and_writes_nothing(store, skirmish):
    head, _ = store.head(skirmish)
    store.append(skirmish, head, [NewEvent("core.X", 1, {"n": 1}, "test")])
    before = _rows(store.path)
    with pytest.raises(Conflict) as err:
        store.append(skirmish, head, [NewEvent("core.X", 1, {"n": 2}, "test"), NewEvent("core.X", 1, {}, "t")])
    assert err.value.expected == head and err.value.actual == head + 1
    assert _rows(store.path) == before


def test_stale_order_submission_conflicts(store, skirmish):
    head, _ = store.head(skirmish)
    games.submit(store, CATALOG, skirmish, "red", "move R1 0202", expected_seq=head)
    with pytest.raises(Conflict):
        games.submit(store, CATALOG, skirmish, "red", "move R2 0203", expected_seq=head)
    assert store.head(skirmish)[0] == head + 2


def test_second_writer_on_another_connection_conflicts(tmp_path):
    path = str(tmp_path / "two.sqlite3")
    a, b = EventStore(path), EventStore(path)
    game_id = games.create_game(a, CATALOG, "skirmish")
    head = b.head(game_id)[0]
    a.append(game_id, head, [NewEvent("core.X", 1, {}, "a")])
    with pytest.raises(Conflict):
        b.append(game_id, head, [NewEvent("core.X", 1, {}, "b")])
    assert [e.actor for e in b.events(game_id)][-1] == "a"


def test_events_form_a_hash_chain(store, skirmish):
    events = list(store.events(skirmish))
    assert events[0].prev_hash == GENESIS_HASH
    for prev, event in zip(events, events[1:], strict=False):
        assert event.prev_hash == prev.hash
        assert event.hash == event.computed_hash()
    assert [e.seq for e in events] == list(range(1, len(events) + 1))


@pytest.mark.parametrize("sql", ["UPDATE events SET actor = 'mallory'", "DELETE FROM events",
                                 "UPDATE events SET payload = '{}' WHERE seq = 1"])
def test_schema_refuses_update_and_delete(store, skirmish, sql):
    before = _rows(store.path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        sqlite3.connect(store.path).execute(sql)
    assert _rows(store.path) == before


def test_durable_settings(store):
    assert store.db.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL: the store fsyncs the WAL itself


@pytest.mark.parametrize("setting, fsyncs", [({}, True), ({"HEXLEDGER_FSYNC": "on"}, True),
                                             ({"HEXLEDGER_FSYNC": "off"}, False)])
def test_hexledger_fsync_off_commits_without_waiting_for_the_disk(tmp_path, monkeypatch, disk_sync, setting, fsyncs):
    """HEXLEDGER_FSYNC=off (a database nobody keeps): the command's orders are committed, readable by any other
    connection, without an fsync of the journal; unset or on, each waits for one."""
    synced: list[int] = []
    real_fdatasync = os.fdatasync
    monkeypatch.setattr(os, "fdatasync", lambda fd: (synced.append(fd), real_fdatasync(fd))[1])
    path = str(tmp_path / "kept.sqlite3")
    console = Console(Settings.from_env({"HEXLEDGER_DB": path, **setting}), CATALOG)
    game_id = console.create("skirmish", None, None, None, None)["game_id"]
    assert bool(synced) is fsyncs
    assert sqlite3.connect(path).execute("SELECT count(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()[0]


def test_hexledger_fsync_is_on_or_off():
    with pytest.raises(ValueError, match="HEXLEDGER_FSYNC: expected on or off, got 'sometimes'"):
        Settings.from_env({"HEXLEDGER_FSYNC": "sometimes"})
    assert Settings.from_env({"HEXLEDGER_FSYNC": "0"}).fsync is False and Settings.from_env({}).fsync is None


def test_an_acknowledged_append_is_fsynced_and_concurrent_writers_share_the_fsync(tmp_path, monkeypatch, disk_sync):
    """Acknowledged means durable under group commit: every append returns only after an fsync of the WAL that
    began when its event was already committed (visible to a new connection), and appends made while an fsync runs
    share the next one (and one transaction: app/events/sqlite.py GroupCommit)."""
    path = str(tmp_path / "group.sqlite3")
    writers = 4
    setup = EventStore(path)
    for n in range(writers):
        setup.create_game(f"g-{n}", "skirmish", "meeting", [NewEvent("core.X", 1, {"n": 0}, "t")], None)
    synced_heads: list[dict] = []
    real_fdatasync = os.fdatasync
    first = threading.Event()

    def heads() -> dict:
        return dict(sqlite3.connect(path).execute("SELECT game_id, max(seq) FROM events GROUP BY game_id"))

    def recording_fdatasync(fd):
        if os.readlink(f"/proc/self/fd/{fd}") == os.path.realpath(path) + "-wal":
            if not first.is_set():  # the first fsync waits (on a condition) until every other writer has made
                first.set()  # its append, which waits in the open batch for this fsync's end
                group = GroupCommit.of(path, 30.0)
                deadline = time.monotonic() + 30
                while (group.batch is None or group.batch.kept < writers - 1) and time.monotonic() < deadline:
                    time.sleep(0.01)
                group.close()
            synced_heads.append(heads())
        return real_fdatasync(fd)

    monkeypatch.setattr(os, "fdatasync", recording_fdatasync)
    acknowledged: list[tuple[str, int]] = []

    def write(n: int) -> None:
        store = EventStore(path)
        stored = store.append(f"g-{n}", 1, [NewEvent("core.X", 1, {"n": 1}, "t")])
        acknowledged.append((f"g-{n}", stored[-1].seq))
        store.close()

    threads = [threading.Thread(target=write, args=(n,)) for n in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(acknowledged) == [(f"g-{n}", 2) for n in range(writers)]
    for game_id, seq in acknowledged:
        assert any(synced.get(game_id, 0) >= seq for synced in synced_heads), (game_id, synced_heads)
    assert len(synced_heads) < writers  # the writers that committed during the first fsync shared the next


def test_unknown_game(store):
    with pytest.raises(UnknownGame, match="nope"):
        store.append("nope", 0, [NewEvent("core.X", 1, {}, "t")])


def test_migrations_run_once(tmp_path):
    path = str(tmp_path / "m.sqlite3")
    EventStore(path).close()
    again = EventStore(path)
    from app.events.migrations import scripts

    applied = again.db.conn.execute("SELECT count(*) FROM schema_migrations").fetchone()[0]
    assert applied == len(scripts("sqlite")) >= 2


def test_connections_opening_a_new_database_at_once_migrate_it_once(tmp_path):
    """A server's threads each open their connection on first use: on a new database they all find migrations
    pending at once (found by the HTTP crash run: one of them failed with a duplicate schema_migrations row)."""
    import threading

    from app.events.migrations import scripts

    for attempt in range(5):
        path = str(tmp_path / f"race{attempt}.sqlite3")
        barrier, errors = threading.Barrier(8), []

        def open_store(path=path, barrier=barrier, errors=errors):
            barrier.wait()
            try:
                EventStore(path).close()
            except Exception as exc:  # any failure is the finding
                errors.append(exc)

        threads = [threading.Thread(target=open_store) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)  # a bound on a hang, checked: a thread still opening is a failure, not a pass
        assert errors == [] and not any(t.is_alive() for t in threads)
        store = EventStore(path)
        applied = store.db.conn.execute("SELECT count(*) FROM schema_migrations").fetchone()[0]
        assert applied == len(scripts("sqlite"))
        store.close()
