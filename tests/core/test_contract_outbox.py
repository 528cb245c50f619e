"""The contract of Outbox (app/events/interface.py), on both backends: outgoing mail claimed, leased, sent,
failed, retried and superseded; processed incoming mail remembered."""
from __future__ import annotations

import pytest

from app.events.outbox import OutboxTables
from tests.core.store_contract import NUL_TEXTS, T0, T1, T2, mail, opened, turn


@pytest.fixture
def backend(db_location):
    part = opened(OutboxTables, db_location)
    yield part
    part.close()


def test_the_outbox_claims_leases_and_retries(backend):
    [one, two] = backend.queue_mail([mail(1), mail(2)], T0)
    assert backend.next_mail_due() == T0
    claimed = backend.claim_mail(T0, T1, ids=[one])
    assert [r["id"] for r in claimed] == [one] and claimed[0]["data"]["body"] == "1"
    assert [r["id"] for r in backend.claim_mail(T0, T1)] == [two]  # `one` is leased
    assert backend.claim_mail(T0, T1) == [] and backend.claim_mail(T0, T1, ids=[]) == []
    backend.mail_sent(one)
    backend.mail_failed(two, "refused", None)
    [row] = backend.mail_queue()
    assert (row["id"], row["status"], row["attempts"], row["last_error"]) == (two, "failed", 1, "refused")
    assert "data" not in row and backend.next_mail_due() is None
    assert backend.retry_failed_mail(T2) == 1
    assert [r["id"] for r in backend.claim_mail(T2, T2)] == [two]
    backend.mail_failed(two, "later", T2)
    assert backend.mail_queue()[0]["status"] == "pending" and backend.next_mail_due() == T2


def test_a_turn_email_is_superseded_by_a_newer_one_and_kept(backend):
    """app/service/outbox.py: a later turn email of the game to the same seat, or from a later position to anyone,
    supersedes a due one; game-over emails (every seat, one position) and other games' mail do not."""
    [red3, blue5, red7, other, note] = backend.queue_mail(
        [turn("red", 3), turn("blue", 5), turn("red", 7), turn("red", 2, "g-2"), mail(1, "g-1")], T0)
    [over_red, over_blue] = backend.queue_mail([turn("red", 9, "g-3"), turn("blue", 9, "g-3")], T0)
    leased = backend.queue_mail([turn("blue", 4, "g-4")], T0)[0]
    assert [r["id"] for r in backend.claim_mail(T0, T2, ids=[leased])] == [leased]  # being sent: left alone
    backend.queue_mail([turn("red", 6, "g-4")], T0)
    assert backend.supersede_mail(T0) == 2
    rows = {r["id"]: r for r in backend.mail_queue()}
    assert (rows[red3]["status"], rows[red3]["superseded_by"]) == ("superseded", red7)
    assert (rows[blue5]["status"], rows[blue5]["superseded_by"]) == ("superseded", red7)
    assert all(rows[i]["status"] == "pending" and rows[i]["superseded_by"] is None
               for i in (red7, other, note, over_red, over_blue, leased))
    assert red3 not in [r["id"] for r in backend.claim_mail(T0, T1)]
    assert backend.supersede_mail(T0) == 0


def test_a_turn_notification_is_superseded_by_a_newer_notification_only(backend):
    """A turn notification (kind 'notify', app/service/notifications.py) is superseded as a turn email is, by a
    later notification; a notification and an email never supersede each other."""
    def notify(seat: str, seq: int) -> dict:
        return {**turn(seat, seq), "kind": "notify", "message_id": f"<n.{seat}.{seq}@x.example>"}

    [red3, email_red5, red7, blue7] = backend.queue_mail(
        [notify("red", 3), turn("red", 5), notify("red", 7), notify("blue", 7)], T0)
    assert backend.supersede_mail(T0) == 1
    rows = {r["id"]: r for r in backend.mail_queue()}
    # superseded by the newest row that makes it stale
    assert (rows[red3]["status"], rows[red3]["superseded_by"]) == ("superseded", blue7)
    assert all(rows[i]["status"] == "pending" for i in (email_red5, red7, blue7))


def test_superseded_rows_past_their_keeping_are_deleted_and_no_unsent_mail(backend):
    """Outbox.prune_mail: superseded rows that fell due before the cutoff go; pending, failed and other mail stays,
    and so does a superseded row while an older row of its game is undelivered: a failed row queued again is still
    superseded by it rather than sent stale."""
    [red3, blue5, red7, note] = backend.queue_mail([turn("red", 3), turn("blue", 5), turn("red", 7), mail(1, "g-1")],
                                                  T0)
    [stuck] = backend.queue_mail([turn("red", 2, "g-2")], T0)
    backend.claim_mail(T0, T1, ids=[stuck])
    backend.mail_failed(stuck, "refused", None)  # waits for an operator
    [blue4, red6] = backend.queue_mail([turn("blue", 4, "g-2"), turn("red", 6, "g-2")], T0)
    assert backend.supersede_mail(T0) == 3  # red3, blue5 by red7; blue4 by red6
    assert backend.prune_mail(T0) == 0  # fell due at T0, not before
    assert backend.prune_mail(T1) == 2
    rows = {r["id"]: r["status"] for r in backend.mail_queue()}
    assert rows == {red7: "pending", note: "pending", stuck: "failed", blue4: "superseded", red6: "pending"}
    [sent] = backend.claim_mail(T1, T2, ids=[red6])
    backend.mail_sent(sent["id"])
    assert backend.retry_failed_mail(T2) == 1 and backend.supersede_mail(T2) == 1
    assert {r["id"]: (r["status"], r["superseded_by"]) for r in backend.mail_queue()}[stuck] == ("superseded", blue4)
    assert backend.prune_mail(T2) == 1  # blue4 now; `stuck` fell due at T2
    assert [r["id"] for r in backend.mail_queue()] == [red7, note, stuck]


def test_processed_mail_is_remembered(backend):
    assert not backend.mail_processed("<m1@x>")
    backend.record_mail("<m1@x>", None, "refused")
    backend.record_mail("<m1@x>", None, "again")
    assert backend.mail_processed("<m1@x>") and not backend.mail_processed("<m2@x>")
    backend.record_mail("<m\x00@x>", None, "refused")  # a hostile header: PostgreSQL's TEXT cannot hold NUL
    assert backend.mail_processed("<m\x00@x>") and not backend.mail_processed("<m\\0@x>")


def test_texts_that_differ_stay_different(backend):
    """A NUL and what it is written as on PostgreSQL (backslash zero, after MARK) are different texts there too."""
    for n, text in enumerate(NUL_TEXTS):
        backend.record_mail(text, None, str(n))
    assert all(backend.mail_processed(text) for text in NUL_TEXTS)
    assert not backend.mail_processed("\x01a\\0b") and not backend.mail_processed("a\\\\0b")
