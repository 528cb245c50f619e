"""Outbox rows as emails (outbox.Composer): a turn row becomes the seat's turn report (`TurnReport`, every part
filtered for that seat through the rule set's view and history filter), which app/mail lays out through the Mail
port; a message row is wrapped as it is. Delivered turn emails move the seat's "since your last email" mark."""
from __future__ import annotations

from email.message import EmailMessage

from app.events.interface import Store
from app.projections import render, textmap
from app.projections import state as projection
from app.rules.base import optional
from app.rules.catalog import get_rules
from app.service import clocks, receipts, standing
from app.service.ports import Mail, TurnReport
from app.service.reads import Reads, prompt_dict
from app.service.seats import Credentials, Seat, members


class Letters:
    """Lays out the outbox's rows, on one store."""

    def __init__(self, store: Store, reads: Reads, credentials: Credentials, mail: Mail):
        self.store = store
        self.reads = reads
        self.credentials = credentials
        self.mail = mail

    def outgoing(self, row: dict) -> EmailMessage:
        """An outbox row as the email to send: a turn row is laid out now, from the position at its `seq`."""
        data, game_id, seat = row["data"], row["game_id"], row["seat"]
        if row["kind"] == "turn":
            report = self.report(Seat(game_id, seat, row["recipient"]), data["seq"], data["headline"])
            return self.mail.turn_email(report, row["recipient"], self.credentials.reply_tag(game_id, seat),
                                        row["message_id"])
        receipt = receipts.as_text(receipts.at(self.store, game_id)) if game_id and seat else ""
        return self.mail.message(row["recipient"], game_id or "unknown", data["subject"],
                                 data["body"] + (f"\n\n{receipt}" if receipt else ""),
                                 self.credentials.reply_tag(game_id, seat) if seat else None, data["in_reply_to"],
                                 message_id=row["message_id"])

    def delivered(self, row: dict) -> None:
        """A turn email went: the seat's next one tells the history from here."""
        if row["kind"] == "turn":
            self.store.mark_notified(row["game_id"], row["seat"], row["data"]["seq"])

    def report(self, seat: Seat, seq: int, headline: str) -> TurnReport:
        """What `seat`'s email at event `seq` says: the history since its last email, and after the game the result;
        else the position and map as it sees them, and what it owes and may order."""
        game_id = seat.game_id
        state = projection.load(self.store, game_id, seq)
        rules = get_rules(state.meta.rules)
        prompt = prompt_dict(rules, state, seat)
        base = {"game_id": game_id, "title": rules.title, "seat": seat.seat, "headline": headline, "seq": seq,
                "step": prompt["step"], "replay_link": self.credentials.replay_link(game_id, seat.seat),
                "receipt": receipts.as_text(receipts.at(self.store, game_id, seq))}
        member = members(self.store, game_id)[seat.seat]
        since = self.reads.history_rows(seat, member["last_notified_seq"] + 1, seq, state)
        outcome = rules.outcome(state.game)
        if outcome is not None:  # how it ended, since the seat's last email: not the whole history, no map
            return TurnReport(**base, outcome=f"{outcome.winner or 'a draw'}: {outcome.reason}", since=since)
        view = rules.view(state.game, seat.side)  # the one view: the text, the text map and the picture
        game_map = optional(rules, "game_map")
        area = picture = None
        if game_map is not None and view.get("units") is not None:
            the_map = game_map(state.game)
            filename = f"{game_id}-event-{seq}-{seat.seat}.svg"
            svg = render.render_map(the_map, view, rules.sides, title=f"{game_id} after event {seq}, as {seat.seat}")
            picture = (filename, "image/svg+xml", svg.encode("utf-8"))
            area = textmap.render_area(the_map, view, seat.side, since, filename)
        return TurnReport(**base, since=since, position=textmap.render_view(view), map_area=area, map_file=picture,
                          owed=prompt["owed"]["text"] if prompt["owed"] else None, actions=prompt["actions"],
                          legal_orders=prompt["legal_orders"],
                          standing=standing.lines_of(state.meta.standing.get(seat.side, {}))
                          if seat.side and standing.kinds_of(rules) else None,
                          clock=clocks.described(self.store, game_id, seat.side))
