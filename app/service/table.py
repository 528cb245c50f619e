"""A seat's table: what one seat may read (view, prompt, history, export, verify, preview) and do (join, orders,
fork), each through the rule set's `view(state, side)` and the per-side history filter (a concern of
`app.service.pbem.Pbem`). `sees_all` is the one place that says "the arbiter, or anyone after the game ends, sees
everything"."""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from app.events.envelope import canonical_json
from app.events.registry import decode_stored
from app.events.store import utc_now
from app.projections import history
from app.projections import state as projection
from app.projections.cache import VIEWS
from app.projections.sight import Sight, sees_all
from app.rules import legal
from app.rules.catalog import UnknownRules, get_rules
from app.rules.errors import AmbiguousOrder, InvalidOrder, OrderError
from app.service import audit, autoplay, games, receipts, replays, transfer
from app.service.errors import AccessDenied
from app.service.seats import ARBITER, Seat, hash_token, new_token

T = TypeVar("T")


class Table:
    """Reads and orders as one seat."""

    def replayed(self, seat: Seat, head: int) -> None:
        """`seat` read the replay (its frames, maps or analysis) up to event `head`: seen, as far as undo goes."""
        self._mark_seen(seat, head)

    def _rules(self, game_id: str):
        return get_rules(self.store.game(game_id)["rules"])

    def sees_all(self, seat: Seat, state: projection.GameState | None = None) -> bool:
        """The arbiter, or anyone after the game ends, sees everything (`sight.sees_all`): every channel asks
        here. `state`: a state of the game the caller holds (loaded again unless it is at the head)."""
        if seat.is_arbiter:
            return True
        if state is None or state.meta.seq != self.store.head(seat.game_id)[0]:
            state = projection.load(self.store, seat.game_id)
        return sees_all(False, get_rules(state.meta.rules), state.game)

    def replay_viewer(self, seat: Seat) -> str:
        """Who `seat` replays the game as: everything (replays.ALL) if it sees all, else its side."""
        return replays.ALL if self.sees_all(seat) else seat.side

    def replay_reads(self) -> replays.Replays:
        """The replay viewer's reads, on this service's database."""
        return replays.Replays(self.store)

    def head(self, game_id: str) -> int:
        """The game's last event."""
        return self.store.head(game_id)[0]

    def view(self, seat: Seat, at: int | None = None) -> dict:
        state = projection.load(self.store, seat.game_id, at)
        self._mark_seen(seat, state.meta.seq)  # a rewound position shows every event up to it (undo's "seen")
        return self._view_dict(seat, state)

    def view_now(self, seat: Seat, render: Callable[[dict], T]) -> T:
        """`view` at the head as `render` makes it (the HTTP answer's bytes). The rendering is kept in VIEWS per
        database, game, seat and `render` (a module-level function) and reused while the stored head is the (seq,
        hash) it was made at: the view is a function of the events up to the head and the seat (its side), so
        another seat never gets it, and any append, by whichever process, retires it."""
        head = self.store.head(seat.game_id)
        key = (projection.store_key(self.store), seat.game_id, seat.seat, render)
        rendered = VIEWS.get(key, head)
        if rendered is None:  # the state at that very seq: another append since then changes nothing here
            rendered = render(self._view_dict(seat, projection.load(self.store, seat.game_id, head[0])))
            VIEWS.put(key, head, rendered)
        self._mark_seen(seat, head[0])
        return rendered

    @staticmethod
    def _view_dict(seat: Seat, state: projection.GameState) -> dict:
        return {"game_id": seat.game_id, "seq": state.meta.seq, "you": seat.seat,
                "players": state.meta.players, "view": get_rules(state.meta.rules).view(state.game, seat.side)}

    def prompt(self, seat: Seat) -> dict:
        state = projection.load(self.store, seat.game_id)
        rules = get_rules(state.meta.rules)
        self._mark_seen(seat, state.meta.seq)
        return self._prompt_dict(rules, state, seat)

    def _prompt_dict(self, rules, state, seat: Seat) -> dict:
        outcome = rules.outcome(state.game)
        prompt = rules.prompt(state.game)
        mine = outcome is None and prompt.side == seat.side and seat.side is not None
        missing = [s for s in state.meta.sides if s not in state.meta.players]
        return {"seq": state.meta.seq, "to_act": prompt.side, "step": prompt.step, "your_turn": mine and not missing,
                "waiting_for_players": missing,
                "outcome": {"winner": outcome.winner, "reason": outcome.reason} if outcome else None,
                "actions": [{"name": a.name, "syntax": a.syntax, "case": a.case, "help": a.help}
                            for a in prompt.actions] if mine else [],
                "owed": prompt.owed.to_dict() if mine and prompt.owed is not None else None,
                "legal_orders": legal.legal_orders(rules, state.game, seat.side) if mine else []}

    def history_rows(self, seat: Seat, from_seq: int = 1, to_seq: int | None = None,
                     state: projection.GameState | None = None) -> list[dict]:
        """The history as `seat` may see it; `state`: the game as the caller holds it (spares a load at the head)."""
        rules = self._rules(seat.game_id)
        events = list(self.store.events(seat.game_id, 1, to_seq))
        retracted = projection.retracted_seqs(events)
        shown = [e for e in events if e.seq >= from_seq]
        # after the game nothing is hidden any more (as for export and fork)
        side = history.ALL_SIDES if self.sees_all(seat, state) else seat.side
        return history.lines(rules, shown, retracted, side)

    def history(self, seat: Seat, from_seq: int = 1, limit: int = 100) -> dict:
        rows = self.history_rows(seat, from_seq)
        page = rows[:limit]
        self._mark_seen(seat, page[-1]["seq"] if page else 0)
        return {"events": page, "next_from": rows[limit]["seq"] if len(rows) > limit else None}

    def export(self, seat: Seat) -> tuple[list[str], bool]:
        """(JSON lines, full?): the whole stream for the arbiter or after the game; else the seat's filtered view."""
        if self.sees_all(seat):
            return list(transfer.export_lines(self.store, seat.game_id)), True
        sight = Sight(self._rules(seat.game_id), seat.side)
        events = list(self.store.events(seat.game_id))
        self._mark_seen(seat, events[-1].seq)
        retracted = projection.retracted_seqs(events)
        lines = [canonical_json({"filtered_for": seat.seat, "game_id": seat.game_id,
                                 "note": "a player's view before the game ends: hidden events are left out, "
                                         "redacted ones carry only their text and salted digest; "
                                         "old events' hashes are omitted"}) + "\n"]
        for e in events:
            seen = sight.event(decode_stored(e.type, e.version, e.payload))
            if seen is False:
                continue
            row = {"seq": e.seq, "type": e.type, "actor": e.actor, "at": e.at, "retracted": e.seq in retracted}
            row.update({"redacted": seen} if isinstance(seen, str) else {"payload": e.payload,
                                                                        "causation": e.causation})
            row.update(receipts.view_fields(e, shown=not isinstance(seen, str)))
            lines.append(canonical_json(row) + "\n")
        return lines, False

    def verify(self, seat: Seat) -> dict:
        report = audit.verify_stored(self.store, seat.game_id, parents=transfer.parents_in(self.store)).to_dict()
        if not self.sees_all(seat):
            # problem texts quote orders, which may be hidden from this side: only where the audit failed
            report["problems"] = [{"seq": p["seq"], "check": p["check"]} for p in report["problems"]]
        return report

    def preview(self, seat: Seat, text: str) -> dict:
        state = projection.load(self.store, seat.game_id)
        rules = get_rules(state.meta.rules)
        result = games.preview(rules, state, self._player(seat), text)
        self._mark_seen(seat, state.meta.seq)  # a preview reads the position as it stands
        return {"order": text.strip(), "seq": state.meta.seq, "preview": result}

    def join(self, seat: Seat, seed_text: str = "", name: str | None = None) -> dict:
        with self.writing():
            event = games.join(self.store, seat.game_id, self._player(seat), name or seat.email, seed_text)
            self.notify(seat.game_id)
        self._answer_automated(seat)  # the last player in: an automated side may open the game
        return {"seq": event.seq, "side": seat.seat, "seed_text": event.payload["seed_text"]}

    def submit(self, seat: Seat, text: str, expected_seq: int | None = None, notify: bool = True):
        """The order, what its seat has now seen and the turn email it causes: one transaction; then the automated
        seats' answer (app/service/autoplay.py), each of its orders a transaction of its own."""
        def bookkeeping(accepted: games.Accepted) -> None:
            self._mark_seen(seat, accepted.state.meta.seq)
            if notify:
                self.notify(seat.game_id, accepted.state)

        accepted = games.submit(self.store, seat.game_id, self._player(seat), text, expected_seq,
                                within=bookkeeping)
        accepted = autoplay.merged(accepted, self._answer_automated(seat, notify, accepted.state))
        self._kick()
        return accepted

    def order(self, seat: Seat, text: str, expected_seq: int | None = None, notify: bool = True) -> dict:
        """`submit`, answered as the seat sees it: the new events' lines and its view of the new position."""
        accepted = self.submit(seat, text, expected_seq, notify)
        rules = get_rules(accepted.state.meta.rules)
        return {"accepted": True, "seq": accepted.state.meta.seq,
                "events": history.lines(rules, accepted.events, side=seat.side),
                "view": rules.view(accepted.state.game, seat.side),
                "receipt": receipts.as_dict(receipts.stamp(self.store, accepted.events[-1]))}

    def receipt(self, game_id: str) -> dict | None:
        """The signed receipt for the game's head now (app/service/receipts.py): every answer to a write has one."""
        return receipts.as_dict(receipts.at(self.store, game_id))

    def receipt_keys(self) -> dict:
        """The receipt keys this server publishes (receipts.published): the well-known document."""
        return receipts.published(self.store)

    def chain(self, seat: Seat, from_seq: int = 1) -> dict:
        """The chain of hashes as `seat` may have it, with the receipt for its head (receipts.chain)."""
        return receipts.chain(self.store, seat.game_id, seat.side, self.sees_all(seat), from_seq)

    def unreadable(self, seat: Seat, lines: list[str]) -> list[str]:
        """Why each of `lines` cannot be read as an order (InvalidOrder, AmbiguousOrder) against the position now;
        a line that reads but the rules refuse (answered when its turn comes) is not listed, nor any line of a game
        whose rules this server lacks (played, each is refused with the reason)."""
        try:
            state = projection.load(self.store, seat.game_id)
            rules = get_rules(state.meta.rules)
        except UnknownRules:
            return []
        bad = []
        for line in lines:
            try:
                rules.parse(line, seat.side, state.game)
            except (InvalidOrder, AmbiguousOrder) as exc:
                bad.append(str(exc))
            except (OrderError, games.GameError, ValueError):
                continue
        return bad

    def _answer_automated(self, seat: Seat, notify: bool = True, state: projection.GameState | None = None) -> list:
        """The automated seats play while the states table prompts them; what they did counts as seen by `seat`
        (it comes back in the answer) and the turn email it leads to is queued. `state`: the game at its head."""
        answered = autoplay.play(self.store, seat.game_id, state=state)
        if answered:
            with self.writing():
                self._mark_seen(seat, answered[-1].state.meta.seq)
                if notify:
                    self.notify(seat.game_id, answered[-1].state)
        return answered

    def fork(self, seat: Seat, at_seq: int) -> tuple[str, dict[str, str]]:
        """A sandbox branch; the caller gets every seat's token for it. Players may fork only a finished game
        (a fork of a running one would show them the other side's hidden information)."""
        if not self.sees_all(seat):
            raise AccessDenied("only the arbiter may fork a game before it ends")
        rules = self._rules(seat.game_id)
        tokens = {s: new_token() for s in [*rules.sides, ARBITER]}
        now = utc_now()
        with self.store.transaction():  # the branch and its seats together, or neither
            new_id = games.fork(self.store, seat.game_id, at_seq)
            self.store.add_pbem_game(new_id, {"created_at": now}, [
                {"seat": s, "email": seat.email, "token_hash": hash_token(t), "created_at": now}
                for s, t in tokens.items()])
        return new_id, tokens
