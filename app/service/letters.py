"""Outbox rows as emails (outbox.Composer): a turn row becomes the seat's turn report, an answer row the answer to
the seat's email with its report (`TurnReport`, every part filtered for that seat through the rule set's view and
history filter), which app/mail lays out through the Mail port; a message row is wrapped as it is. Delivered turn
emails and answers move the seat's "since your last email" mark.

`report` is the one account of where a game stands for a seat (docs/architecture.md practice 16): the turn email,
the answer to an email or to `status`, and the API's answer to an order all say what it says."""
from __future__ import annotations

from email.message import EmailMessage

from app.events.interface import Store
from app.projections import render, textmap
from app.projections import state as projection
from app.rules import standing
from app.rules.base import Catalog, optional
from app.service import clocks
from app.service.player_keys import PlayerKeys
from app.service.ports import Mail, TurnReport
from app.service.reads import Reads, prompt_dict
from app.service.receipts import Receipts, as_text
from app.service.seats import Credentials, Seat, members

SINCE_SHOWN = 300  # history rows a report shows at most (the newest): the rest is in the history and the replay


class Letters:
    """Lays out the outbox's rows, on one store."""

    def __init__(self, store: Store, catalog: Catalog, reads: Reads, credentials: Credentials, mail: Mail,
                 receipts: Receipts):
        self.store = store
        self.catalog = catalog
        self.reads = reads
        self.credentials = credentials
        self.keys = PlayerKeys(credentials)
        self.mail = mail
        self.receipts = receipts

    def outgoing(self, row: dict) -> EmailMessage:
        """An outbox row as the email to send: a turn row or an answer is laid out now, from the position at its
        `seq`."""
        data, game_id, seat = row["data"], row["game_id"], row["seat"]
        if row["kind"] in ("turn", "answer"):
            report = self.report(Seat(game_id, seat, row["recipient"]), data["seq"], data["headline"],
                                 data.get("lines", ()), data.get("since"))
            return self.mail.turn_email(report, row["recipient"], self.credentials.reply_tag(game_id, seat),
                                        row["message_id"], data.get("in_reply_to"))
        receipt = as_text(self.receipts.at(game_id)) if game_id and seat else ""
        page = self.keys.page_link(row["recipient"]) if game_id and seat else None
        footer = (f"\n\nAll your games, and where else you are told of your turn: {page}" if page else "") + (
            f"\n\n{receipt}" if receipt else "")
        return self.mail.message(row["recipient"], game_id or "unknown", data["subject"], data["body"] + footer,
                                 self.credentials.reply_tag(game_id, seat) if seat else None, data["in_reply_to"],
                                 message_id=row["message_id"])

    def delivered(self, row: dict) -> None:
        """A turn email or an answer went: the seat's next one tells the history from here."""
        if row["kind"] in ("turn", "answer"):
            self.store.mark_notified(row["game_id"], row["seat"], row["data"]["seq"])

    def report(self, seat: Seat, seq: int, headline: str, answer: tuple[str, ...] | list[str] = (),
               since_seq: int | None = None) -> TurnReport:
        """What `seat` is told at event `seq`: the history from `since_seq` (default: since its last email), and
        after the game the result; else, when it is to act, its position and map as it sees them, what it owes and
        every order it may give, by kind; when it is not, who is to act and why. `answer`: the lines answering
        its message."""
        game_id = seat.game_id
        now = projection.load(self.store, self.catalog, game_id)  # the clocks run at the head (mostly `seq`)
        state = now if now.meta.seq == seq else projection.load(self.store, self.catalog, game_id, seq)
        rules = self.catalog.rules(state.meta.rules)
        prompt = prompt_dict(rules, state, seat)
        if since_seq is None:
            since_seq = members(self.store, game_id)[seat.seat]["last_notified_seq"] + 1
        since = self.reads.history_rows(seat, since_seq, seq, state)
        earlier = max(len(since) - SINCE_SHOWN, 0)
        base = {"game_id": game_id, "title": rules.title, "seat": seat.seat, "headline": headline, "seq": seq,
                "step": prompt["step"], "since": since[earlier:], "earlier": earlier, "answer": list(answer),
                "replay_link": self.credentials.replay_link(game_id, seat.seat),
                "play_link": self.credentials.play_link(game_id, seat.seat),
                "export_link": self._link(f"games/{game_id}/export"),
                "page_link": self.keys.page_link(seat.email),
                "receipt": as_text(self.receipts.at(game_id, seq))}
        outcome = rules.outcome(state.game)
        if outcome is not None:  # how it ended, since the seat's last email: not the whole history, no map
            return TurnReport(**base, outcome=f"{outcome.winner or 'a draw'}: {outcome.reason}",
                              summary=self._summary(game_id, seq))
        view = rules.view(state.game, seat.side)  # the one view: the text, the text map and the picture
        game_map = optional(rules, "game_map")
        area = picture = None
        if game_map is not None and view.get("units") is not None:
            the_map = game_map(state.game)
            if prompt["your_turn"]:  # the picture goes with the turn: a waiting seat has the text
                svg = render.render_map(the_map, view, rules.sides,
                                        title=f"{game_id} after event {seq}, as {seat.seat}")
                picture = (f"{game_id}-event-{seq}-{seat.seat}.svg", "image/svg+xml",
                           svg.encode("ascii", "xmlcharrefreplace"))  # any name as a character reference
            area = textmap.render_area(the_map, view, seat.side, since[earlier:], picture[0] if picture else None)
        deadline = self._deadline(game_id, prompt["to_act"], seat, now.meta)
        mine = {"deadline": deadline,
                "clock": clocks.described(self.store, self.catalog, game_id, seat.side, due=False, meta=now.meta),
                "standing": standing.as_lines(state.meta.standing.get(seat.side, {}))
                if seat.side and standing.kinds(rules) else None}
        if not prompt["your_turn"]:
            to_act, why = _waiting(rules, state, prompt)
            return TurnReport(**base, **mine, position=textmap.render_view(view), map_area=area, to_act=to_act,
                              waiting=why)
        return TurnReport(**base, **mine, your_turn=True, position=textmap.render_view(view), map_area=area,
                          map_file=picture, owed=prompt["owed"]["text"] if prompt["owed"] else None,
                          actions=prompt["actions"], kinds=prompt["kinds"])

    def _summary(self, game_id: str, seq: int) -> str:
        """How long a finished game ran: its events, the orders that stand by side, its die rolls, its talk."""
        events = list(self.store.events(game_id, 1, seq))
        retracted = projection.retracted_seqs(events)
        kept = [e for e in events if e.seq not in retracted]
        orders: dict[str, int] = {}
        for e in kept:
            if e.type == "core.OrderGiven":
                orders[e.payload["side"]] = orders.get(e.payload["side"], 0) + 1
        rolls = sum(e.type == "core.DieRolled" for e in kept)
        talk = sum(e.type == "core.MessageSent" for e in events)
        return (f"{len(events)} events: {sum(orders.values())} orders ("
                + ", ".join(f"{side} {n}" for side, n in orders.items()) + f"), {rolls} die rolls"
                + (f", {talk} message(s) of table talk" if talk else "")
                + (f", {len(retracted)} event(s) retracted" if retracted else ""))

    def _link(self, path: str) -> str | None:
        base = self.credentials.public_url
        return f"{base.rstrip('/')}/{path}" if base else None

    def _deadline(self, game_id: str, to_act: str | None, seat: Seat, meta) -> str | None:
        """When the turn of the side to act runs out, if the game has a clock and it runs for that side now: its
        fixed deadline or its time bank, vacations left out (app/service/clocks.py `running`; `meta`: the game's at
        its head)."""
        row = self.store.pbem_settings(game_id)
        clock = clocks.running(self.store, self.catalog, row, meta) if row and to_act else None
        if clock is None or clock.side != to_act:
            return None
        whose = "your" if to_act == seat.seat else f"{to_act}'s"
        if row["deadline_hours"] is not None:
            return f"{whose} move is due by {clock.due:%Y-%m-%d %H:%M} UTC ({row['deadline_hours']:g} hours a turn)"
        return f"{whose} time bank runs out at {clock.due:%Y-%m-%d %H:%M} UTC"

def _waiting(rules, state: projection.GameState, prompt: dict) -> tuple[str | None, str]:
    """Who the game waits for and why: the players still to join, or the side to act, its step and what its decision
    owes (its kind only: the candidates may be hidden from this seat)."""
    if prompt["waiting_for_players"]:
        return None, f"waiting for {', '.join(prompt['waiting_for_players'])} to join"
    side = prompt["to_act"]
    if side is None:
        return None, f"nobody acts now ({prompt['step']})"
    owed = rules.prompt(state.game).owed
    why = f"{side} to act" + (f", who owes a decision: {owed.what}" if owed else "")
    if side in state.meta.automated:
        why += " (the server plays it)"
    return side, why
