"""Mail as the service sends it: rows in the transactional outbox (app/service/outbox.py), queued in the caller's
transaction (the reactions' outputs, and a request's direct answer: an email's reply), delivered after the commit
through the transport port, with retries; and the record of incoming mail processed, with the answer each got."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from app.events.interface import Store
from app.events.store import utc_parse, utc_text
from app.service import outbox, strangers
from app.service.ports import Mail, Transport


class Mailroom:
    """The outbox of one store connection; `letters` lays rows out (outbox.Composer: app/service/letters.py)."""

    def __init__(self, store: Store, mail: Mail, transport: Transport, clock: Callable[[], datetime],
                 letters: outbox.Composer, keep: timedelta):
        """`keep`: how long a superseded row stays listed after it fell due (HEXLEDGER_OUTBOX_KEEP_DAYS)."""
        self.store = store
        self.mail = mail
        self.transport = transport
        self.clock = clock
        self.letters = letters
        self.keep = keep
        self._queued: list[int] = []  # rows this service queued, not yet handed to a sender

    def queue(self, kind: str, to: str, game_id: str | None, seat: str | None, data: dict) -> None:
        """An outbox row in the caller's transaction: 'message' (subject, body, in_reply_to) or 'turn' (seq,
        headline: laid out at delivery); its Message-ID fixed now, so a retry is the same message."""
        self._queued += self.store.queue_mail([{
            "kind": kind, "recipient": to, "game_id": game_id, "seat": seat,
            "message_id": self.mail.new_message_id(), "data": data}], utc_text(self.clock()))

    def message(self, to: str, game_id: str | None, subject: str, body: str, seat: str | None = None,
                in_reply_to: str | None = None) -> None:
        """Email `to` (for a seat of the game, its Reply-To carries that seat's reply tag), in the caller's
        transaction: a reaction's notice, or a request's direct answer."""
        self.queue("message", to, game_id, seat, {"subject": subject, "body": body, "in_reply_to": in_reply_to})

    def answer(self, to: str, game_id: str, seat: str, data: dict) -> dict:
        """The answer to a seat's email (data: headline, lines, seq, in_reply_to; since: where its history starts,
        by default after the seat's last email, fixed now so that a repeat says the same), in the message's
        transaction: laid out at delivery with the seat's report at `seq` (app/service/letters.py), which it has
        seen from now on (its opponent's undo of what it shows is refused). It supersedes a turn email to the seat
        from that position or an earlier one: the answer carries it (Outbox.supersede_mail). Returns the data
        queued (to repeat it)."""
        data = {**data, "since": data.get("since") or self._told(game_id, seat) + 1}
        self.queue("answer", to, game_id, seat, data)
        self.store.mark_seen(game_id, seat, data["seq"])
        return data

    def _told(self, game_id: str, seat: str) -> int:
        """The last event the seat's emails have told it of (its "since your last email" starts after it)."""
        return next(m["last_notified_seq"] for m in self.store.members(game_id) if m["seat"] == seat)

    def take_queued(self) -> list[int]:
        """The rows queued since the last call: what this service's write caused, for the sender to deliver."""
        ids, self._queued = self._queued, []
        return ids

    def deliver(self, ids: list[int] | None = None) -> outbox.Report:
        """Send the queued mail that is due (of `ids` only, if given), recording failures for a retry; a full round
        (no `ids`: the sender's, `tick`'s) also deletes the superseded rows kept long enough."""
        return outbox.deliver(self.store, self.letters, self.transport, self.clock(), self.mail.retry_seconds, ids,
                              self.keep if ids is None else None)

    def next_due(self) -> datetime | None:
        due = self.store.next_mail_due()
        return utc_parse(due) if due else None

    def retry_failed(self) -> int:
        """Queue the mail refused for good (5xx) again, due now; returns how many."""
        return self.store.retry_failed_mail(utc_text(self.clock()))

    def mail_queue(self) -> list[dict]:
        """The mail not yet delivered: each row's recipient, attempts and last error, never its text."""
        return self.store.mail_queue()

    def processed(self, message_id: str) -> bool:
        """An incoming message with this Message-ID was processed already."""
        return self.store.mail_processed(message_id)

    def record(self, message_id: str, game_id: str | None, outcome: str, answer: dict | None = None) -> None:
        """Mark an incoming message processed, with the answer it got (to, subject, body, seat), inside the
        transaction of the orders it carried."""
        self.store.record_mail(message_id, game_id, outcome)
        if answer is not None:
            self.store.keep_answer(message_id, answer)

    def may_answer_stranger(self, address: str, period: timedelta) -> bool:
        """May a message that opens no seat be answered at `address` now (once a `period` an address:
        app/service/strangers.py)? Recorded when it may."""
        return strangers.may_answer(self.store, address, self.clock(), period)

    def answer_of(self, message_id: str) -> dict | None:
        """The answer a processed message got (`record`), to repeat it."""
        return self.store.answer_of(message_id)
