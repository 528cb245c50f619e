"""The store's SQLite queries read through the indexes made for them, on a database of a server that has run a while
(thousands of outbox rows, most of them superseded turn emails, kept for days; games with long streams). SQLite
plans without statistics (no ANALYZE: docs/architecture.md, "Indexes and the planner"), so a query it would walk a
whole table for shows as a SCAN in its EXPLAIN QUERY PLAN. The queries are the ones the store runs
(traced), not copies."""
from __future__ import annotations

import random
import sqlite3

import pytest

from app.events.store import EventStore

NOW, LEASE = "2030-01-15T00:00:00.000000Z", "2030-01-15T00:05:00.000000Z"
GAMES = [f"g{n:03d}" for n in range(200)]


@pytest.fixture(scope="module")
def busy(tmp_path_factory):
    """A store with 200 games of two seats, a 3,000-event stream with a few retractions, and 5,000 outbox rows:
    superseded turn emails and notifications, some failed, a few pending and due."""
    path = str(tmp_path_factory.mktemp("plans") / "busy.sqlite3")
    store = EventStore(path)
    rnd = random.Random(7)
    with sqlite3.connect(path) as conn:
        conn.executemany("INSERT INTO games (id, rules, scenario, created_at) VALUES (?, 'skirmish', 'x', ?)",
                         [(g, f"2030-01-01T00:{n % 60:02d}:00Z") for n, g in enumerate(GAMES)])
        conn.executemany("INSERT INTO pbem_members (game_id, seat, email, token_hash, created_at) "
                         "VALUES (?, ?, ?, ?, 'x')",
                         [(g, seat, f"p{rnd.randrange(150)}@x.example", g + seat) for g in GAMES
                          for seat in ("red", "blue")])
        conn.executemany("INSERT INTO events (game_id, seq, type, version, payload, actor, at, prev_hash, hash, salt) "
                         "VALUES ('g000', ?, ?, 1, '{}', 'red', 'x', x'00', x'00', x'00')",
                         [(seq, "core.Retracted" if seq % 500 == 0 else "core.OrderGiven") for seq in range(1, 3001)])
        rows = []
        for n in range(5000):
            kind = rnd.choice(["turn", "turn", "turn", "notify", "answer", "message"])
            status = ("superseded" if n < 4900 and kind in ("turn", "notify") else "failed" if n % 50 == 0
                      else "pending")
            rows.append((rnd.choice(GAMES), kind, rnd.choice(["red", "blue"]), f"<{n}@x.example>",
                         f'{{"seq": {rnd.randrange(1, 400)}}}', status, NOW if n >= 4980 else "2030-02-01T00:00:00Z"))
        conn.executemany("INSERT INTO outbox (game_id, kind, recipient, seat, message_id, data, status, created_at, "
                         "next_attempt_at) VALUES (?, ?, 'p@x.example', ?, ?, ?, ?, 'x', ?)", rows)
    yield store, path
    store.close()


def planned(store: EventStore, path: str, call) -> list[str]:
    """EXPLAIN QUERY PLAN of every statement `call` runs on the store, one text per statement."""
    traced: list[str] = []
    connections = {store.db.conn, getattr(store.db.group, "conn", None)} - {None}
    for conn in connections:
        conn.set_trace_callback(traced.append)
    try:
        call(store)
    finally:
        for conn in connections:
            conn.set_trace_callback(None)
    with sqlite3.connect(path) as conn:
        return ["\n".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
                for sql in traced if sql.split()[0].upper() in ("SELECT", "UPDATE", "DELETE")]


@pytest.mark.parametrize("call, index", [
    (lambda s: s.retractions("g000", 2500), "SEARCH events USING INDEX events_retracted (game_id=? AND seq<?)"),
    (lambda s: s.supersede_mail(NOW), "SEARCH newer USING INDEX outbox_by_game (game_id=?)"),
    (lambda s: s.supersede_mail(NOW), "SEARCH old USING INDEX outbox_due (status=? AND next_attempt_at<?)"),
    (lambda s: s.claim_mail(NOW, LEASE), "SEARCH outbox USING INDEX outbox_due (status=? AND next_attempt_at<?)"),
    (lambda s: s.next_mail_due(), "SEARCH outbox USING COVERING INDEX outbox_due (status=?)"),
    (lambda s: s.retry_failed_mail(NOW), "SEARCH outbox USING INDEX outbox_due (status=?)"),
    (lambda s: s.prune_mail(NOW), "SEARCH outbox USING INDEX outbox_due (status=? AND next_attempt_at<?)"),
    (lambda s: s.prune_mail(NOW), "SEARCH older USING INDEX outbox_by_game (game_id=? AND id<?)"),
    (lambda s: s.seats_of("P7@x.example"), "SEARCH m USING INDEX pbem_members_by_email (<expr>=?)"),
], ids=["retractions", "supersede-newer", "supersede-old", "claim", "next-due", "retry-failed", "prune",
        "prune-older", "seats-of"])
def test_each_query_reads_its_index_and_walks_no_table(busy, call, index):
    plans = planned(*busy, call)
    assert plans and any(index in plan for plan in plans), plans
    for plan in plans:  # no table read whole, nor an index SQLite builds for one statement over a whole table
        assert "SCAN" not in plan and "AUTOMATIC COVERING INDEX (game_id" not in plan, plan
