"""Retractions: undo, disputes and rulings, all appended events (a concern of `app.service.pbem.Pbem`)."""
from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta

from app.events import core
from app.events.store import BackendError, StoreUnavailable, utc_parse
from app.projections import state as projection
from app.service import games, retractions
from app.service.errors import AccessDenied, PbemError
from app.service.seats import ARBITER, Seat
from app.text import player_text, quoted

LOG = logging.getLogger("hexledger.service")


class Disputes:
    """Takebacks: by the player before the opponent saw them, by consent, or by the arbiter's ruling."""

    def _after_write(self, game_id: str, what: str, step: Callable[[], object]) -> None:
        """A cache step after a write that stands (dropping stale snapshots): a locked database or a full disk here
        is logged and the step skipped, never reported as a failure of the write, which a caller would repeat."""
        try:
            step()
        except (BackendError, StoreUnavailable) as exc:
            LOG.warning("game %s: %s deferred, the database refused it: %s", game_id, what, exc)

    def _orders(self, game_id: str) -> list:
        events = list(self.store.events(game_id))
        retracted = projection.retracted_seqs(events)
        return events, retracted

    def _retraction(self, game_id: str, from_seq: int, reason: str, by: str):
        """A core.Retracted of `from_seq` up to the game's last event, checked; the caller appends it."""
        events, retracted = self._orders(game_id)
        head = events[-1].seq
        start = next((e for e in events if e.seq == from_seq), None)
        if start is None or start.type != "core.OrderGiven" or from_seq in retracted:
            raise PbemError(f"event {from_seq} is not an order that stands")
        if any(e.type == "core.SeedRevealed" for e in events if e.seq >= from_seq):
            raise PbemError("the dice seed was revealed after that order: the game cannot go on with these dice; "
                            "fork it before the order instead")
        return games._new(core.Retracted(from_seq=from_seq, to_seq=head, reason=reason, by=by), by)

    def _retract(self, game_id: str, from_seq: int, reason: str, by: str) -> int:
        event = self._retraction(game_id, from_seq, reason, by)
        stored = self.store.append(game_id, event.payload["to_seq"], [event])[0]  # a newer event: Conflict
        # a cache: later loads fold past the retraction anyway (projection.load skips a stale snapshot)
        self._after_write(game_id, "dropping snapshots", lambda: self.store.drop_snapshots(game_id))
        return stored.seq

    def undo(self, seat: Seat) -> dict:
        """Take back your own latest orders, with no one's consent, while your opponent has not seen them;
        never a die roll or a reveal."""
        side = self._player(seat)
        events, retracted = self._orders(seat.game_id)
        # the latest of your orders: undo one order at a time (app/service/retractions.py, which the audit holds too)
        order = retractions.latest_order((e for e in events if e.seq not in retracted), side)
        if order is None:
            raise PbemError("you have no order of yours to undo since your opponent's last order")
        seen = max((m["last_seen_seq"] for s, m in self.members(seat.game_id).items() if s not in (side, ARBITER)),
                   default=0)
        if seen >= order.seq:
            raise PbemError(f"your opponent has already seen event {order.seq}: dispute it instead")
        refused = retractions.undo_refusal(self._rules(seat.game_id), (e for e in events if e.seq >= order.seq))
        if refused:
            raise PbemError(refused)
        seq = self._retract(seat.game_id, order.seq, f"undo of {order.payload['text']!r}", retractions.by_undo(side))
        return {"retraction_seq": seq, "undone": order.seq}

    def disputes(self, game_id: str) -> list[dict]:
        """The game's disputes, read from its events (core.DisputeRaised / core.DisputeAnswered / core.Retracted)."""
        out: dict[int, dict] = {}
        settling = None
        for e in self.store.events(game_id):
            p = e.payload
            if e.type == "core.DisputeRaised":
                out[p["dispute"]] = {"id": p["dispute"], "game_id": game_id, "order_seq": p["order_seq"],
                                     "raised_by": p["side"], "reason": p["reason"], "status": "open",
                                     "raised_at": e.at, "raised_seq": e.seq, "resolved_by": None,
                                     "resolved_at": None, "note": None, "retraction_seq": None}
            elif e.type == "core.DisputeAnswered" and p["dispute"] in out:
                d = out[p["dispute"]]
                d.update(status=p["status"], note=p["note"])
                if p["status"] != "referred":
                    d.update(resolved_by=p["by"], resolved_at=e.at)
                settling = d if p["status"] in ("accepted", "upheld") else None
                continue
            elif e.type == "core.Retracted" and settling is not None:
                settling["retraction_seq"] = e.seq
            settling = None
        return [out[n] for n in sorted(out)]

    def _dispute(self, seat: Seat, dispute_id: int) -> dict:
        found = [d for d in self.disputes(seat.game_id) if d["id"] == dispute_id]
        if not found:
            raise PbemError(f"no dispute {dispute_id} in game {seat.game_id}")
        return found[0]

    def _order_text_for(self, game_id: str, seat: str, email: str, order_seq: int) -> str:
        """The disputed order as this seat may see it (the rule set's filter): never the other side's secret."""
        rows = self.history_rows(Seat(game_id, seat, email), order_seq, order_seq)
        return rows[0]["text"] if rows else "an order hidden from you"

    def raise_dispute(self, seat: Seat, order_seq: int, reason: str) -> dict:
        side = self._player(seat)
        reason = player_text(reason, "reason")
        if not reason:
            raise PbemError("a dispute needs a reason")
        known = self.disputes(seat.game_id)
        if any(d["status"] in ("open", "referred") for d in known):
            raise PbemError("a dispute is already open in this game; it must be settled first")
        events, retracted = self._orders(seat.game_id)
        order = next((e for e in events if e.seq == order_seq), None)
        if order is None or order.type != "core.OrderGiven" or order_seq in retracted:
            raise PbemError(f"event {order_seq} is not an order that stands")
        window = self.settings(seat.game_id)["dispute_window_hours"]
        if self.clock() - utc_parse(order.at) > timedelta(hours=window):
            raise PbemError(f"event {order_seq} is older than the dispute window of {window:g} hours")
        number = len(known) + 1
        raised = core.DisputeRaised(dispute=number, order_seq=order_seq, side=side, reason=reason)
        arbiter = ARBITER in self.members(seat.game_id)
        with self.writing():
            stored = self.store.append(seat.game_id, events[-1].seq, [games._new(raised, f"player:{side}")])[0]
            for s, m in self.members(seat.game_id).items():
                what = self._order_text_for(seat.game_id, s, m["email"], order_seq)
                text = (f"{side} disputes event {order_seq} ({what}):\n  {quoted(reason)}\n\n"
                        "If it is upheld, that order and everything after it is retracted "
                        f"(kept in the log, marked).\nThe other player may reply 'accept dispute {number}' "
                        f"(take it back) or 'reject dispute {number}'" +
                        ("; the arbiter then rules." if arbiter else "."))
                self._send(m["email"], seat.game_id, f"Dispute {number} on event {order_seq}", text, s)
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
        if ARBITER in self.members(seat.game_id):
            head = self.store.head(seat.game_id)[0]
            answered = core.DisputeAnswered(dispute=d["id"], by=seat.seat, status="referred", note=note)
            arb = self.members(seat.game_id)[ARBITER]
            with self.writing():
                self.store.append(seat.game_id, head, [games._new(answered, f"player:{seat.seat}")])
                self._send(arb["email"], seat.game_id, f"Dispute {d['id']} needs your ruling",
                           f"{d['raised_by']} disputes event {d['order_seq']}: {quoted(d['reason'])}\n{seat.seat} "
                           f"rejects it{': ' + quoted(note) if note else ''}.\nReply 'uphold dispute {d['id']}' or "
                           f"'reject dispute {d['id']}'.", ARBITER)
            return {**d, "status": "referred", "note": note}
        return self._settle(seat, d, "rejected", note)

    def _settle(self, seat: Seat, d: dict, status: str, note: str) -> dict:
        """The answer, and for a takeback the retraction after it, in one write (both or neither)."""
        actor = ARBITER if seat.is_arbiter else f"player:{seat.seat}"
        head = self.store.head(seat.game_id)[0]
        batch = [games._new(core.DisputeAnswered(dispute=d["id"], by=seat.seat, status=status, note=note), actor)]
        if status in retractions.AUTHORITIES:
            batch.append(self._retraction(seat.game_id, d["order_seq"], f"dispute {d['id']}: {d['reason']}",
                                          retractions.by_dispute(seat.seat, status, d["id"], d["raised_by"])))
        with self.writing():  # the answer, its retraction and the emails they cause
            stored = self.store.append(seat.game_id, head, batch)
            retraction = stored[1].seq if len(stored) > 1 else None
            text = f"Dispute {d['id']} on event {d['order_seq']} is {status} by {seat.seat}" + (
                f": {quoted(note)}" if note else ".")
            if retraction:
                text += f"\nEvents {d['order_seq']} onwards are retracted (event {retraction}); the log keeps them."
            for s, m in self.members(seat.game_id).items():
                self._send(m["email"], seat.game_id, f"Dispute {d['id']} {status}", text, s)
            if retraction:
                self.notify(seat.game_id, force=True)
        if retraction:
            # a cache: later loads fold past the retraction anyway (projection.load skips a stale snapshot)
            self._after_write(seat.game_id, "dropping snapshots", lambda: self.store.drop_snapshots(seat.game_id))
        return {**d, "status": status, "resolved_by": seat.seat, "note": note, "retraction_seq": retraction}
