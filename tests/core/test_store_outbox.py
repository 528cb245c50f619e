"""The store's outbox and processed-mail interface (app/events/store.py), as a sender and ingest use it: rows
commit or roll back with the write that queued them; a claimed row is leased, so a second sender does not take it;
sent rows are gone; failed ones wait for their time or for an operator."""
from __future__ import annotations

import pytest

from app.events.store import EventStore, StoreError

T0, T1, T2, T3 = "2030-01-01T00:00:00.000000Z", "2030-01-01T00:01:00.000000Z", "2030-01-01T00:05:00.000000Z", \
    "2030-01-01T01:00:00.000000Z"


def mail(n: int) -> dict:
    return {"kind": "message", "recipient": f"p{n}@x.example", "game_id": None, "seat": None,
            "message_id": f"<{n}@x.example>", "data": {"subject": "s", "body": "b", "in_reply_to": None}}


def test_queued_mail_commits_or_rolls_back_with_its_write(store):
    with pytest.raises(StoreError):
        with store.transaction():
            store.queue_mail([mail(1)], T0)
            raise StoreError("the write failed")
    assert store.mail_queue() == []
    with store.transaction():
        [queued] = store.queue_mail([mail(2)], T0)
    assert [m["id"] for m in store.mail_queue()] == [queued]


def test_a_claimed_row_is_leased_sent_ones_go_failed_ones_wait(store):
    first, second = store.queue_mail([mail(1), mail(2)], T0)
    other = EventStore(store.path)  # another sender (a thread, or cron's tick in another process)
    try:
        assert [r["id"] for r in store.claim_mail(T1, T2)] == [first, second]
        assert other.claim_mail(T1, T2) == []  # leased: not taken twice
        store.mail_sent(first)
        store.mail_failed(second, "451 try later", T3)
        assert other.claim_mail(T2, T2) == []  # not due before its retry
        [row] = other.claim_mail(T3, "2030-01-01T01:05:00.000000Z")
        assert row["id"] == second and row["attempts"] == 1 and row["data"]["subject"] == "s"
        other.mail_failed(second, "554 refused", None)  # for good
        assert store.claim_mail("2031-01-01T00:00:00.000000Z", "2031-01-01T00:05:00.000000Z") == []
        assert [(m["status"], m["last_error"]) for m in store.mail_queue()] == [("failed", "554 refused")]
        assert store.retry_failed_mail(T3) == 1 and [r["id"] for r in store.claim_mail(T3, T3)] == [second]
    finally:
        other.close()


def test_processed_mail_is_recorded_once(store):
    assert not store.mail_processed("<m@x>")
    store.record_mail("<m@x>", None, "0 applied, refused")
    store.record_mail("<m@x>", None, "1 applied")
    assert store.mail_processed("<m@x>")
