"""The outbox and processed incoming mail (app/events/interface.py, Outbox), written once over the dialect layer.
Outgoing mail is a row written in the transaction of the write that causes it; a sender claims rows (a lease in
`next_attempt_at`), sends them, and deletes them or records the failure (app/service/outbox.py). The outbox's own
bookkeeping (a claim, sent, failed, superseded) commits without waiting for the disk: delivery is at least once, so
a mark lost in a power cut means the mail goes again, as it would after a crash between sending and marking; the
next durable write covers it anyway. Incoming mail is remembered by Message-ID, so a replayed message is refused."""
from __future__ import annotations

import json

from app.events.dialect import Tables
from app.events.envelope import canonical_json, utc_now


class OutboxTables(Tables):
    """The outbox and pbem_messages tables."""

    def queue_mail(self, rows: list[dict], now: str) -> list[int]:
        """Add outgoing mail (kind, recipient, game_id, seat, message_id, data: a dict), due at `now`. Called
        inside the transaction of the write that causes it, it commits or rolls back with that write. Returns the
        row ids."""
        with self.db.transaction():
            return [self.db.one(
                "INSERT INTO outbox (game_id, kind, recipient, seat, message_id, data, created_at, next_attempt_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                [row.get("game_id"), row["kind"], row["recipient"], row.get("seat"), row["message_id"],
                 canonical_json(row["data"]), now, now])[0] for row in rows]

    def claim_mail(self, now: str, lease_until: str, ids: list[int] | None = None, limit: int = 50) -> list[dict]:
        """Pending mail due at `now` (of `ids` only, if given), oldest first, each claimed until `lease_until`
        in one transaction, so that no other sender (another thread, process or `tick`) takes it meanwhile: under
        SQLite's writer lock; on PostgreSQL rows another sender is claiming at this moment are skipped (FOR UPDATE
        SKIP LOCKED), never sent twice."""
        if ids == []:
            return []
        sql = "SELECT * FROM outbox WHERE status = 'pending' AND next_attempt_at <= ?"
        args: list = [now]
        if ids is not None:
            sql += f" AND id IN ({', '.join('?' * len(ids))})"
            args += ids
        with self.db.transaction(durable=False):
            rows = self.db.rows(f"{sql} ORDER BY id LIMIT ?{self.db.skip_locked}", [*args, limit])
            if rows:
                self.db.write(f"UPDATE outbox SET next_attempt_at = ? WHERE id IN ({', '.join('?' * len(rows))})",
                              [lease_until, *(row["id"] for row in rows)])
        return [{**row, "data": json.loads(row["data"])} for row in rows]

    def supersede_mail(self, now: str) -> int:
        """Mark superseded every pending turn email due at `now` that a later turn email of its game makes stale
        (app/service/outbox.py's docstring: one to the same seat, or one from a later position to anyone), or that an
        answer to the same seat from its position or a later one carries (queued before it or after), with the
        newest such row's id; the row stays, never laid out nor sent. A turn notification (kind 'notify',
        app/service/notifications.py) is superseded alike by a later notification. Returns how many."""
        newer_seq, old_seq = self.db.json_int("newer.data", "seq"), self.db.json_int("old.data", "seq")
        with self.db.transaction(durable=False):
            return self.db.write(
                "UPDATE outbox SET status = 'superseded', superseded_by = newest.id FROM ("
                " SELECT old.id AS old_id, max(newer.id) AS id FROM outbox AS old JOIN outbox AS newer"
                " ON newer.game_id = old.game_id AND newer.id <> old.id"
                " AND ((newer.kind = old.kind AND newer.id > old.id"
                f" AND (newer.seat = old.seat OR {newer_seq} > {old_seq}))"
                " OR (old.kind = 'turn' AND newer.kind = 'answer' AND newer.seat = old.seat"
                f" AND {newer_seq} >= {old_seq}))"
                " WHERE old.kind IN ('turn', 'notify') AND old.status = 'pending' AND old.next_attempt_at <= ?"
                " GROUP BY old.id"
                ") AS newest WHERE outbox.id = newest.old_id"  # checked again after waiting for a claim's row locks
                " AND outbox.status = 'pending' AND outbox.next_attempt_at <= ?", [now, now])

    def prune_mail(self, due_before: str) -> int:
        """Delete the superseded rows that fell due before `due_before` (a superseded row's `next_attempt_at` is
        when it was last due: the sender superseded it then or at its next round), except one that could still
        supersede a row its game has not delivered: a pending or failed row older than it (a retry, or a failed
        row an operator queues again, is superseded when it falls due by any later row of its game, superseded or
        not). Pending and failed rows themselves are never deleted; sent rows are gone already (`mail_sent`).
        Returns how many."""
        return self.db.write(
            "DELETE FROM outbox WHERE status = 'superseded' AND next_attempt_at < ? AND NOT EXISTS ("
            " SELECT 1 FROM outbox AS older WHERE older.game_id = outbox.game_id AND older.id < outbox.id"
            " AND older.status IN ('pending', 'failed'))", [due_before], durable=False)

    def mail_sent(self, mail_id: int) -> None:
        self.db.write("DELETE FROM outbox WHERE id = ?", [mail_id], durable=False)

    def mail_failed(self, mail_id: int, error: str, retry_at: str | None) -> None:
        """Record a failed attempt: try again at `retry_at`, or (None) never without an operator."""
        self.db.write("UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = "
                      "coalesce(CAST(? AS TEXT), next_attempt_at), status = ? WHERE id = ?",
                      [error[:500], retry_at, "pending" if retry_at else "failed", mail_id], durable=False)

    def retry_failed_mail(self, now: str) -> int:
        """Every failed row pending again, due now; returns how many."""
        return self.db.write("UPDATE outbox SET status = 'pending', next_attempt_at = ? WHERE status = 'failed'",
                             [now])

    def mail_queue(self) -> list[dict]:
        """Every undelivered row (pending, failed, superseded), without its content (an invitation's carries a
        token)."""
        return self.db.rows("SELECT id, game_id, kind, recipient, seat, status, created_at, attempts, "
                            "next_attempt_at, last_error, superseded_by FROM outbox ORDER BY id")

    def next_mail_due(self) -> str | None:
        return self.db.one("SELECT min(next_attempt_at) FROM outbox WHERE status = 'pending'")[0]

    def mail_processed(self, message_id: str) -> bool:
        return self.db.one("SELECT 1 FROM pbem_messages WHERE message_id = ?", [message_id]) is not None

    def record_mail(self, message_id: str, game_id: str | None, outcome: str) -> None:
        """Mark an incoming message processed; inside the transaction of the orders it carried."""
        self.db.write("INSERT INTO pbem_messages (message_id, game_id, received_at, outcome) VALUES (?, ?, ?, ?) "
                      "ON CONFLICT (message_id) DO NOTHING", [message_id, game_id, utc_now(), outcome])
