"""A seat's orders: given (from any channel: parse, load the game once, decide, append once, answer from the
resulting state), previewed, and taken back (undo). The automated seats answer after the seat's orders, each
automated order a write of its own (app/service/autoplay.py). What an order causes beyond its answer (turn
emails, notices) is not decided here: the reactions derive it from the stored events (docs/reactions.md)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.events.interface import Store
from app.projections import history
from app.projections import state as projection
from app.rules.base import Catalog, UnknownRules
from app.service import autoplay, games, retractions
from app.service.errors import PbemError
from app.service.receipts import Receipts, as_dict
from app.service.seats import ARBITER, Seat, mark_seen, members, player
from app.service.writes import Writes


@dataclass
class Answered:
    """A seat's orders as `play` gave them: per accepted order, its history lines as the seat sees them; the
    refusal that stopped the rest; the server's answer after the last (the automated seats' and the standing
    orders' orders, as history lines); the state after it all. `between[i]`: what the server answered after
    order i when the seat's orders went on after it (the other side's standing orders, an automated seat)."""

    orders: list[list[dict]]
    refused: Exception | None
    automated: list[dict]
    state: projection.GameState
    between: list[list[dict]] = field(default_factory=list)


class Orders:
    """Orders as one seat, on one store; `writes`: the unit of work the other use cases share; `receipts`: what
    signs the answer; `report`: what a seat is told at an event (Letters.report), which the answer to an order can
    carry."""

    def __init__(self, store: Store, catalog: Catalog, writes: Writes, receipts: Receipts,
                 report: Callable[..., Any] | None = None):
        self.store = store
        self.catalog = catalog
        self.writes = writes
        self.receipts = receipts
        self.report = report

    def submit(self, seat: Seat, text: str, expected_seq: int | None = None) -> games.Accepted:
        """The order and what its seat has now seen, one transaction; then the automated seats' answer, each of
        its orders a transaction of its own; returned as one (every event, the last state)."""
        with self.writes.group():
            accepted = games.submit(self.store, self.catalog, seat.game_id, player(seat), text, expected_seq,
                                    within=lambda done: mark_seen(self.store, seat, done.state.meta.seq))
            self.writes.wrote(seat.game_id)
            return autoplay.merged(accepted, self._answer_automated(seat, accepted.state))

    def order(self, seat: Seat, text: str, expected_seq: int | None = None, report: bool = False) -> dict:
        """`submit`, answered as the seat sees it: the new events' lines and its view of the new position; with
        `report`, also what a turn email would tell it now (Letters.report: its turn and every order it may give,
        or who is to act and why), its history from the order on. The answer is made while the order's fsync runs
        (`Writes.answering`) and returned once the order is on disk."""
        with self.writes.answering():
            accepted = self.submit(seat, text, expected_seq)
            rules = self.catalog.rules(accepted.state.meta.rules)
            answer = {"accepted": True, "seq": accepted.state.meta.seq,
                      "events": history.lines(rules, accepted.events, side=seat.side),
                      "view": rules.view(accepted.state.game, seat.side),
                      "receipt": as_dict(self.receipts.stamp(accepted.events[-1]))}
            if report and self.report is not None:
                answer["report"] = self.report(seat, accepted.state.meta.seq, "Orders received",
                                               since_seq=accepted.events[0].seq).as_dict()
        return answer

    def play(self, seat: Seat, texts: Sequence[str], expected_seq: int | None = None,
             talk: Sequence[Any] = ()) -> Answered:
        """Several orders of one message, each run of them from one load and one append (games.play): every line
        is read first (one that cannot be read plays nothing, its table talk neither: the refusal is
        games.Unreadable), the first refused stops the rest and those before it stand; then the server answers
        (automated seats, standing orders). An order that finds the other side to act waits for the server's
        answer: when it gives the seat the turn again (the other side's standing orders answered its decision), the
        seat's orders go on from there (docs/play-by-email.md, "Standing orders"); else that order is refused, it
        is not the seat's turn. `talk`: the message's table talk (core.MessageSent), stored ahead of its orders in
        the first append if one of them stands (or there are none)."""
        side = player(seat)
        texts = list(texts)
        done: list[list[dict]] = []
        between: list[list[dict]] = []
        with self.writes.group():
            played = games.play(self.store, self.catalog, seat.game_id, side, texts, expected_seq, all_readable=True,
                                within=lambda done: mark_seen(self.store, seat, done.state.meta.seq),
                                before=talk, alone=not texts)
            if talk and not texts and played.refused is None:
                self.writes.wrote(seat.game_id)  # stored: talk alone
            if not played.accepted:
                return Answered([], played.refused, [], played.state)
            rules = self.catalog.rules(played.state.meta.rules)
            while True:
                self.writes.wrote(seat.game_id)
                done += [history.lines(rules, a.events, side=seat.side) for a in played.accepted]
                automated = self._answer_automated(seat, played.state)
                answer = history.lines(rules, [e for a in automated for e in a.events], side=seat.side)
                state = automated[-1].state if automated else played.state
                texts = texts[len(played.accepted):]
                if played.refused is None or not automated or not _to_act(rules, state, side):
                    return Answered(done, played.refused, answer, state, between)
                between += [[] for _ in played.accepted[1:]] + [answer]  # the answer came after the last of them
                played = games.play(self.store, self.catalog, seat.game_id, side, texts, state.meta.seq,
                                    within=lambda done: mark_seen(self.store, seat, done.state.meta.seq))
                if not played.accepted:
                    return Answered(done, played.refused, [], played.state, between)

    def unreadable(self, seat: Seat, texts: Sequence[str]) -> list[str]:
        """Why each of `texts` cannot be read as an order against the position now (games.unreadable); none for a
        game whose rules this server lacks (played, each is refused with the reason)."""
        try:
            state = projection.load(self.store, self.catalog, seat.game_id)
            rules = self.catalog.rules(state.meta.rules)
        except UnknownRules:
            return []
        return games.unreadable(rules, state, seat.side, texts)

    def preview(self, seat: Seat, text: str) -> dict:
        state = projection.load(self.store, self.catalog, seat.game_id)
        result = games.preview(self.catalog.rules(state.meta.rules), state, player(seat), text)
        mark_seen(self.store, seat, state.meta.seq)  # a preview reads the position as it stands
        return {"order": text.strip(), "seq": state.meta.seq, "preview": result}

    def answer_automated(self, seat: Seat) -> list[games.Accepted]:
        """The automated seats play while the states table prompts them (after a join: the last player in may
        let an automated side open the game)."""
        with self.writes.group():
            return self._answer_automated(seat)

    def _answer_automated(self, seat: Seat, state: projection.GameState | None = None) -> list[games.Accepted]:
        """What the automated seats did counts as seen by `seat` (it comes back in the answer). `state`: the game
        at its head."""
        answered = autoplay.play(self.store, self.catalog, seat.game_id, state=state)
        if answered:
            self.writes.wrote(seat.game_id)
            with self.writes(seat.game_id):
                mark_seen(self.store, seat, answered[-1].state.meta.seq)
        return answered

    def undo(self, seat: Seat) -> dict:
        """Take back your own latest order, with no one's consent, while your opponent has not seen it; never a die
        roll or a reveal (who may retract what: app/service/retractions.py, which the audit holds streams to)."""
        side = player(seat)
        events, retracted = retractions.stream(self.store, seat.game_id)
        order = retractions.latest_order((e for e in events if e.seq not in retracted), side)
        if order is None:
            raise PbemError("you have no order of yours to undo since your opponent's last order")
        _unseen(self.store, seat, order.seq)
        refused = retractions.undo_refusal(self.catalog.rules(self.store.game(seat.game_id)["rules"]),
                                           (e for e in events if e.seq >= order.seq))
        if refused:
            raise PbemError(refused)
        by = retractions.by_undo(side)
        event = retractions.retraction_event(events, retracted, order.seq, f"undo of {order.payload['text']!r}", by)
        with self.writes(seat.game_id):
            stored = self.store.append(seat.game_id, events[-1].seq, [event])[0]  # a newer event: Conflict
            _unseen(self.store, seat, order.seq)  # again under the game's lock: a turn email queued meanwhile
        retractions.drop_snapshots(self.store, seat.game_id)
        return {"retraction_seq": stored.seq, "undone": order.seq}


def _to_act(rules, state: projection.GameState, side: str) -> bool:
    return rules.outcome(state.game) is None and rules.prompt(state.game).side == side


def _unseen(store: Store, seat: Seat, seq: int) -> None:
    """Refuse the undo of the order at `seq` once any other player has seen it (read it, or been emailed it)."""
    seen = max((m["last_seen_seq"] for s, m in members(store, seat.game_id).items() if s not in (seat.seat, ARBITER)),
               default=0)
    if seen >= seq:
        raise PbemError(f"your opponent has already seen event {seq}: dispute it instead")
