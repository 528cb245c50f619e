"""Disputes: raised, answered, referred to the arbiter and ruled, all appended events. Who is told is not decided
here: the dispute subscriber (app/service/notices.py) reacts to core.DisputeRaised and core.DisputeAnswered, and a
takeback's turn email is the turn subscriber's (docs/reactions.md)."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from app.events import core
from app.events.interface import Store
from app.events.store import utc_parse
from app.service import retractions
from app.service.errors import AccessDenied, PbemError
from app.service.games import new_event
from app.service.reads import disputes_of
from app.service.seats import ARBITER, Seat, members, player, settings
from app.service.writes import Writes
from app.text import player_text


class Disputes:
    """Takebacks by consent or by the arbiter's ruling, on one store; `clock`: now, for the dispute window."""

    def __init__(self, store: Store, writes: Writes, clock: Callable[[], datetime]):
        self.store = store
        self.writes = writes
        self.clock = clock

    def disputes(self, game_id: str) -> list[dict]:
        """The game's disputes, read from its events."""
        return disputes_of(self.store, game_id)

    def _dispute(self, seat: Seat, dispute_id: int) -> dict:
        found = [d for d in self.disputes(seat.game_id) if d["id"] == dispute_id]
        if not found:
            raise PbemError(f"no dispute {dispute_id} in game {seat.game_id}")
        return found[0]

    def raise_dispute(self, seat: Seat, order_seq: int, reason: str) -> dict:
        side = player(seat)
        reason = player_text(reason, "reason")
        if not reason:
            raise PbemError("a dispute needs a reason")
        known = self.disputes(seat.game_id)
        if any(d["status"] in ("open", "referred") for d in known):
            raise PbemError("a dispute is already open in this game; it must be settled first")
        events, retracted = retractions.stream(self.store, seat.game_id)
        order = next((e for e in events if e.seq == order_seq), None)
        if order is None or order.type != "core.OrderGiven" or order_seq in retracted:
            raise PbemError(f"event {order_seq} is not an order that stands")
        window = settings(self.store, seat.game_id)["dispute_window_hours"]
        if self.clock() - utc_parse(order.at) > timedelta(hours=window):
            raise PbemError(f"event {order_seq} is older than the dispute window of {window:g} hours")
        number = len(known) + 1
        raised = core.DisputeRaised(dispute=number, order_seq=order_seq, side=side, reason=reason)
        with self.writes(seat.game_id):
            stored = self.store.append(seat.game_id, events[-1].seq, [new_event(raised, f"player:{side}")])[0]
        return self._dispute(seat, number) | {"raised_seq": stored.seq}

    def answer_dispute(self, seat: Seat, dispute_id: int, accept: bool, note: str = "") -> dict:
        """The opponent of whoever raised it accepts (takeback) or rejects; the arbiter rules either way."""
        note = player_text(note, "note")
        d = self._dispute(seat, dispute_id)
        if d["status"] not in ("open", "referred"):
            raise PbemError(f"dispute {dispute_id} is already {d['status']}")
        if seat.is_arbiter:
            return self._settle(seat, d, "upheld" if accept else "rejected", note)
        if seat.seat == d["raised_by"]:
            raise AccessDenied("only the other player or the arbiter answers a dispute")
        if d["status"] == "referred":
            raise AccessDenied(f"dispute {dispute_id} is with the arbiter")
        if accept:
            return self._settle(seat, d, "accepted", note)
        if ARBITER in members(self.store, seat.game_id):
            head = self.store.head(seat.game_id)[0]
            answered = core.DisputeAnswered(dispute=d["id"], by=seat.seat, status="referred", note=note)
            with self.writes(seat.game_id):
                self.store.append(seat.game_id, head, [new_event(answered, f"player:{seat.seat}")])
            return {**d, "status": "referred", "note": note}
        return self._settle(seat, d, "rejected", note)

    def _settle(self, seat: Seat, d: dict, status: str, note: str) -> dict:
        """The answer, and for a takeback the retraction after it, in one append (both or neither)."""
        events, retracted = retractions.stream(self.store, seat.game_id)
        batch = [new_event(core.DisputeAnswered(dispute=d["id"], by=seat.seat, status=status, note=note),
                           retractions.actor(seat.seat))]
        if status in retractions.AUTHORITIES:
            batch.append(retractions.retraction_event(
                events, retracted, d["order_seq"], f"dispute {d['id']}: {d['reason']}",
                retractions.by_dispute(seat.seat, status, d["id"], d["raised_by"])))
        with self.writes(seat.game_id):
            stored = self.store.append(seat.game_id, events[-1].seq, batch)
        retraction = stored[1].seq if len(stored) > 1 else None
        if retraction:
            retractions.drop_snapshots(self.store, seat.game_id)
        return {**d, "status": status, "resolved_by": seat.seat, "note": note, "retraction_seq": retraction}
