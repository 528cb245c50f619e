"""Mail: turn emails composed from a seat's view, history and orders (laid out as plain text here; app/mail wraps
them), invitations and notices, queued in the outbox and delivered after the commit (a concern of
`app.service.pbem.Pbem`). Everything in them is already filtered for the seat."""
from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from email.message import EmailMessage

from app.events.store import utc_now, utc_parse, utc_text
from app.projections import render, textmap
from app.projections import state as projection
from app.rules.base import optional
from app.rules.catalog import get_rules
from app.service import outbox, receipts
from app.service.errors import PbemError
from app.service.seats import ARBITER, Seat

LOG = logging.getLogger("hexledger.service")


def render_history(rows: list[dict]) -> str:
    return "\n".join(f"  {r['seq']:>5}  {r['text']}" for r in rows) or "  (nothing new)"


SHOWN_ORDERS = 40


def render_legal_orders(orders: list[dict], shown: int = SHOWN_ORDERS) -> str:
    """Concrete legal orders (app/rules/legal.py), an attack with its odds column; the first `shown` of them."""
    lines = [f"  {o['order']}" + (f"   (odds column {o['odds']})" if o.get("odds") else "") for o in orders[:shown]]
    if len(orders) > shown:
        lines.append(f"  ... and {len(orders) - shown} more (the API's GET /games/GAME/actions lists them all)")
    return "\n".join(lines)


def render_actions(actions: list[dict]) -> str:
    return "\n".join(f"  {a['syntax']:40} [{a['case']}] {a.get('help', '')}".rstrip() for a in actions)

class Mailing:
    """Turn emails and other mail: composed here from the seat's view, queued in the outbox in the caller's
    transaction, delivered after the commit (app/service/outbox.py) through the Mail port (app/service/ports.py)."""

    def notify(self, game_id: str, state: projection.GameState | None = None, force: bool = False) -> list[str]:
        """Queue a turn email to whoever must act now, if that changed since the last one (or `force`), in the
        caller's transaction; `state`: the game's state at its head, if the caller has it. Returns seats."""
        try:
            settings = self.settings(game_id)
        except PbemError:
            return []
        state = state or projection.load(self.store, game_id)
        rules = get_rules(state.meta.rules)
        outcome = rules.outcome(state.game)
        if outcome is not None:
            if settings["over_notified"]:
                return []
            self.store.update_pbem_game(game_id, {"over_notified": 1, "turn_side": None})
            members = self.members(game_id)
            for seat, m in members.items():
                self._queue_turn(state, seat, m["email"], f"Game over: {outcome.winner or 'draw'}")
            return list(members)
        if any(s not in state.meta.players for s in state.meta.sides):
            return []
        side = rules.prompt(state.game).side
        if side is None or side in state.meta.automated or (side == settings["turn_side"] and not force):
            return []  # an automated side is told nothing: the server plays it (autoplay)
        self.store.update_pbem_game(game_id, {"turn_side": side, "turn_started_at": utc_now(),
                                              "reminded": 0, "expired": 0})
        self._queue_turn(state, side, self.members(game_id)[side]["email"], "Your turn")
        return [side]

    def _queue_turn(self, state: projection.GameState, seat: str, email: str, headline: str) -> None:
        """A turn (or game-over) email into the outbox, laid out when it is delivered (`outgoing`) from the
        position `state` (at its seq). The seat counts as having seen it from now: undo is refused once queued."""
        game_id, seq = state.meta.game_id, state.meta.seq
        self._loaded[(game_id, seq)] = state  # delivered by this service (inline): laid out without a load
        self._queue("turn", email, game_id, seat, {"headline": headline, "seq": seq})
        self.store.mark_seen(game_id, seat, seq)

    def _turn_email(self, game_id: str, seat: Seat, state, rules, headline: str, message_id: str):
        member = self.members(game_id)[seat.seat]
        since = self.history_rows(seat, member["last_notified_seq"] + 1, state.meta.seq, state)
        prompt = self._prompt_dict(rules, state, seat)
        view = rules.view(state.game, seat.side)  # the one view: the text, the text map and the picture
        parts = [f"{headline} - game {game_id}, {rules.title}. You play {seat.seat}.",
                 f"The game is at event {state.meta.seq}; now: {prompt['step']}.", "",
                 "Since your last email", render_history(since), ""]
        game_map = optional(rules, "game_map")
        attachments = ()
        if game_map is not None and view.get("units") is not None:
            the_map = game_map(state.game)
            filename = f"{game_id}-event-{state.meta.seq}-{seat.seat}.svg"
            svg = render.render_map(the_map, view, rules.sides,
                                    title=f"{game_id} after event {state.meta.seq}, as {seat.seat}")
            attachments = ((filename, "image/svg+xml", svg.encode("utf-8")),)
            parts += ["Map near the action", textmap.render_area(the_map, view, seat.side, since, filename), ""]
        parts += ["The position (as you see it)", textmap.render_view(view), ""]
        if prompt["owed"]:
            parts += ["What you owe now", prompt["owed"]["text"], ""]
        if prompt["actions"]:
            parts += ["Your orders now", render_actions(prompt["actions"]), ""]
        if prompt["legal_orders"]:
            parts += ["You may, for instance", render_legal_orders(prompt["legal_orders"]), ""]
        link = self.replay_link(game_id, seat.seat)
        if link:
            parts += ["Replay in your browser (as you see it; the link is yours, do not share it)", f"  {link}", ""]
        parts.append(self.config.how_to_reply(game_id, state.meta.seq, prompt["actions"]))
        parts += ["", receipts.as_text(receipts.at(self.store, game_id, state.meta.seq))]
        return self.config.message(seat.email, game_id, f"{headline}: {prompt['step']}", "\n".join(parts),
                               self.reply_tag(game_id, seat.seat), attachments=attachments, message_id=message_id)

    def _invitation(self, game_id: str, rules, seat: str, token: str, seats: dict[str, str]) -> str:
        who = "\n".join(f"  {s}: {e}" for s, e in seats.items())
        role = "the arbiter (you rule on disputes)" if seat == ARBITER else f"side {seat}"
        join = ("" if seat == ARBITER else
                "To take your seat, reply with a line\n  join: <any text of yours>\nwhich is mixed into every later "
                "die roll, so nobody (not even the server) can pick the dice alone. Type words of your own: "
                "with none, the server makes a random text for you and shows it in its answer.\n\n")
        link = self.replay_link(game_id, seat)
        replay = f"Watch the game in your browser (as you see it; the link is yours):\n  {link}\n\n" if link else ""
        return (f"You are invited to game {game_id}: {rules.title}, as {role}.\n\nSeats:\n{who}\n\n"
                f"Your secret token (shown once; it is your password for this game):\n  token: {token}\n\n{join}"
                f"{replay}{receipts.announcement(self.store)}\n"
                f"Orders go to {self.config.orders_address}; replying to this email or any later game email works as "
                f"it is (the reply address carries the game and your seat's reply tag). Or use the HTTP API with\n"
                f"  Authorization: Bearer {token}\n")

    def _send(self, to: str, game_id: str | None, subject: str, body: str, seat: str | None,
              in_reply_to: str | None = None) -> None:
        """Email `to`, through the outbox (in the caller's transaction); for a seat of the game its Reply-To
        carries that seat's reply tag (orders+GAME.TAG@...)."""
        self._queue("message", to, game_id, seat, {"subject": subject, "body": body, "in_reply_to": in_reply_to})

    def email(self, to: str, game_id: str | None, subject: str, body: str, seat: str | None = None,
              in_reply_to: str | None = None) -> None:
        """Queue an email (ingest's replies) in the caller's transaction (`writing`); it goes after the commit."""
        self._send(to, game_id, subject, body, seat, in_reply_to)

    def _queue(self, kind: str, to: str, game_id: str | None, seat: str | None, data: dict) -> None:
        self._queued += self.store.queue_mail([{
            "kind": kind, "recipient": to, "game_id": game_id, "seat": seat,
            "message_id": self.config.new_message_id(), "data": data}], utc_text(self.clock()))

    @contextmanager
    def writing(self) -> Iterator[None]:
        """One transaction for a write and the mail it causes; the mail goes after the commit (`_kick`)."""
        with self.store.transaction():
            yield
        self._kick()

    def _kick(self) -> None:
        """After a commit: tell the background sender, or deliver the mail this service just queued. Nothing here
        fails the write, which stands: mail not delivered stays queued for the next sender run."""
        if self.store.in_transaction or not self._queued:
            return
        ids, self._queued = self._queued, []
        if self.notifier is not None:
            self._loaded.clear()
            self.notifier.kick()
            return
        try:
            self.deliver(ids)
        except Exception:  # noqa: BLE001 - the write is committed: its mail waits in the outbox, logged
            LOG.exception("outbox: delivery after a write failed; the mail stays queued")
        finally:
            self._loaded.clear()

    def deliver(self, ids: list[int] | None = None) -> outbox.Report:
        """Send the queued mail that is due (of `ids` only, if given), recording failures for a retry."""
        return outbox.deliver(self.store, self, self.transport, self.clock(), self.config.retry_seconds, ids)

    def retry_failed(self) -> int:
        """Queue the mail refused for good (5xx) again, due now; returns how many."""
        return self.store.retry_failed_mail(utc_text(self.clock()))

    def mail_queue(self) -> list[dict]:
        """The mail not yet delivered: each row's recipient, attempts and last error, never its text."""
        return self.store.mail_queue()

    def mail_processed(self, message_id: str) -> bool:
        """An incoming message with this Message-ID was processed already."""
        return self.store.mail_processed(message_id)

    def record_mail(self, message_id: str, game_id: str | None, outcome: str) -> None:
        """Mark an incoming message processed, inside the transaction of the orders it carried (`writing`)."""
        self.store.record_mail(message_id, game_id, outcome)

    def mail_round(self) -> datetime | None:
        """One round of the background sender: deliver what is due; when the next mail falls due."""
        self.deliver()
        due = self.store.next_mail_due()
        return utc_parse(due) if due else None

    def outgoing(self, row: dict) -> EmailMessage:
        """An outbox row as the email to send (outbox.Composer): a turn email is laid out now, from `seq`."""
        data, game_id, seat = row["data"], row["game_id"], row["seat"]
        if row["kind"] == "turn":
            state = self._loaded.get((game_id, data["seq"])) or projection.load(self.store, game_id, data["seq"])
            return self._turn_email(game_id, Seat(game_id, seat, row["recipient"]), state,
                                    get_rules(state.meta.rules), data["headline"], row["message_id"])
        receipt = receipts.as_text(receipts.at(self.store, game_id)) if game_id and seat else ""
        return self.config.message(row["recipient"], game_id or "unknown", data["subject"],
                               data["body"] + (f"\n\n{receipt}" if receipt else ""),
                               self.reply_tag(game_id, seat) if seat else None, data["in_reply_to"],
                               message_id=row["message_id"])

    def delivered(self, row: dict) -> None:
        """A turn email went: the seat's next one tells the history from here (outbox.Composer)."""
        if row["kind"] == "turn":
            self.store.mark_notified(row["game_id"], row["seat"], row["data"]["seq"])
