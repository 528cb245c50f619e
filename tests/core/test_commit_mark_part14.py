"""A state read runs no statement while nothing was committed to the database since its kept answer's head was read
(issue 26, part 14): SQLite's wal-index header, which every commit rewrites whoever makes it, is read as the
database's commit mark (app/events/sqlite.py `commit_mark`), and a kept answer (app/projections/cache.py VIEWS) is
given again while the mark is the one its head was read under. Any commit, by any connection, sends the read back
to the stored head; the answer is the fresh one whenever the game moved."""
import json
import sqlite3

from app.events.store import EventStore
from app.mail.transport import MailConfig
from app.projections.cache import HeadCache
from app.rules.catalog import installed
from app.service import games
from app.web import create_app
from tests.outbox import Outbox


def test_the_commit_mark_changes_with_every_commit_by_any_connection_and_only_then(tmp_path):
    path = str(tmp_path / "marks.sqlite3")
    store = EventStore(path)
    other = sqlite3.connect(path, isolation_level=None)  # another connection, as another process's would be
    try:
        first = store.commit_mark()
        assert first is not None and store.commit_mark() == first
        assert other.execute("SELECT count(*) FROM games").fetchone() == (0,)  # a read commits nothing
        other.execute("BEGIN IMMEDIATE")
        other.execute("INSERT INTO tick_clock (name, at) VALUES ('t', 'x')")
        other.execute("ROLLBACK")  # nor does a write taken back
        assert store.commit_mark() == first
        seen = {first}
        for n in range(3):  # each commit, by another connection or this store, gives a mark never seen before
            other.execute("INSERT INTO tick_clock (name, at) VALUES (?, 'x')", [f"o{n}"])
            assert store.commit_mark() not in seen
            seen.add(store.commit_mark())
            games.create_game(store, installed(), "skirmish")
            assert store.commit_mark() not in seen
            seen.add(store.commit_mark())
        other.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the log copied back and emptied: the next commit
        seen.add(store.commit_mark())  # starts it again from its first frame, and still a mark never seen
        other.execute("INSERT INTO tick_clock (name, at) VALUES ('after', 'x')")
        assert store.commit_mark() not in seen
        with store.transaction():
            assert store.commit_mark() is None  # what a transaction reads may be its own writes
    finally:
        other.close()
        store.close()
    memory = EventStore(":memory:")
    assert memory.commit_mark() is None  # no wal-index: every head is read
    memory.close()


def world(path):
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": path, "MAIL_TRANSPORT": Outbox(),
                      "MAIL": MailConfig()})
    client = app.test_client()
    r = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"}})
    g, tokens = r.json["game_id"], r.json["tokens"]
    for seat in ("red", "blue"):
        client.post(f"/games/{g}/join", json={"seed_text": seat}, headers={"Authorization": f"Bearer {tokens[seat]}"})
    return app, client, g, tokens


def test_a_state_read_runs_no_statement_until_something_is_committed(tmp_path):
    path = str(tmp_path / "reads.sqlite3")
    app, client, g, tokens = world(path)
    auth = {"Authorization": f"Bearer {tokens['blue']}"}
    statements: list[str] = []
    service = app.extensions["hexledger_service"]()  # this thread's: the test client's requests run here
    service.store.db.conn.set_trace_callback(statements.append)

    def read():
        statements.clear()
        answer = client.get(f"/games/{g}/state", headers=auth)
        assert answer.status_code == 200
        return answer, list(statements)

    first, _ = read()  # its seat's read mark written: a commit
    assert read()[0].data == first.data
    again, ran = read()
    assert again.data == first.data and ran == []  # nothing committed since: not even the head is read
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("INSERT INTO tick_clock (name, at) VALUES ('another', 'x')")  # a commit that moves no game
    other.close()
    kept, ran = read()
    assert kept.data == first.data and len(ran) == 1 and "FROM events" in ran[0]  # the head, read once
    assert read()[1] == []
    writer = EventStore(path)  # another writer's order (another process's, or another thread's)
    games.submit(writer, installed(), g, "red", "move R1 0202")
    writer.close()
    moved, _ = read()
    assert moved.json["seq"] > first.json["seq"] and moved.headers["ETag"] != first.headers["ETag"]
    assert {u["id"]: u["hex"] for u in moved.json["view"]["units"]}["R1"] == "0202"
    fresh = service.reads.view(service.seats.authenticate(g, tokens["blue"]))
    assert moved.json == json.loads(json.dumps(fresh))


def test_a_kept_view_is_given_under_the_commit_mark_its_head_was_read_under_only():
    cache = HeadCache(4)
    cache.put("a", (3, "h3"), "A", b"m1")
    assert cache.since("a", b"m1") == ((3, "h3"), "A")
    assert cache.since("a", b"m2") is None and cache.since("a", None) is None and cache.since("b", b"m1") is None
    assert cache.get("a", (3, "h3"), b"m2") == "A"  # the head read again under a new mark: the same answer, kept
    assert cache.since("a", b"m2") == ((3, "h3"), "A") and cache.since("a", b"m1") is None
    cache.put("c", (1, "h1"), "C")  # no mark (PostgreSQL): given only against the head read
    assert cache.since("c", None) is None and cache.get("c", (1, "h1")) == "C"
