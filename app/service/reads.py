"""What a seat may read: view, prompt, history, export, verify, and the replay's bookkeeping, each through the rule
set's `view(state, side)` and the per-side history filter. `sees_all` is the one place that says "the arbiter, or
anyone after the game ends, sees everything". Every read of a position counts as seen (`seats.mark_seen`)."""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from app.events.envelope import canonical_json
from app.events.interface import Store
from app.events.registry import decode_stored
from app.projections import history, render
from app.projections import state as projection
from app.projections.cache import VIEWS
from app.projections.sight import Sight
from app.projections.sight import sees_all as sight_sees_all
from app.rules import legal
from app.rules.base import Catalog, optional
from app.service import audit, games, replays, transfer
from app.service.receipts import Receipts, as_dict, view_fields
from app.service.seats import Seat, mark_seen

T = TypeVar("T")


class Reads:
    """Reads as one seat, on one store; `receipts`: what signs the chain's head."""

    def __init__(self, store: Store, catalog: Catalog, receipts: Receipts):
        self.store = store
        self.catalog = catalog
        self.receipts = receipts

    def rule_sets(self) -> list[dict]:
        """The rule sets this server runs (games.rule_sets)."""
        return games.rule_sets(self.catalog)

    def games(self, after: str | None = None, limit: int | None = None, finished_only: bool = False) -> list[dict]:
        """The games on this server (games.listed)."""
        return games.listed(self.store, after, limit, finished_only)

    def head(self, game_id: str) -> int:
        """The game's last event."""
        return self.store.head(game_id)[0]

    def moved_since(self, game_id: str, seq: int) -> bool:
        """Whether the game moved on since event `seq` (table talk aside: games.moved_since)."""
        return games.moved_since(self.store, game_id, seq, self.head(game_id))

    def rules_of(self, game_id: str):
        return self.catalog.rules(self.store.game(game_id)["rules"])

    def sees_all(self, seat: Seat, state: projection.GameState | None = None) -> bool:
        """The arbiter, or anyone after the game ends, sees everything (`sight.sees_all`): every channel asks
        here. `state`: a state of the game the caller holds (loaded again unless it is at the head)."""
        if seat.is_arbiter:
            return True
        if state is None or state.meta.seq != self.store.head(seat.game_id)[0]:
            state = projection.load(self.store, self.catalog, seat.game_id)
        return sight_sees_all(False, self.catalog.rules(state.meta.rules), state.game)

    def replay_viewer(self, seat: Seat) -> str | None:
        """Who `seat` replays the game as: everything (replays.ALL) if it sees all, else its side."""
        return replays.ALL if self.sees_all(seat) else seat.side

    def replayed(self, seat: Seat, head: int) -> None:
        """`seat` read the replay (its frames, maps or analysis) up to event `head`: seen, as far as undo goes."""
        mark_seen(self.store, seat, head)

    def replay_reads(self) -> replays.Replays:
        """The replay viewer's reads, on this service's database."""
        return replays.Replays(self.store, self.catalog)

    def view(self, seat: Seat, at: int | None = None) -> dict:
        state = projection.load(self.store, self.catalog, seat.game_id, at)
        mark_seen(self.store, seat, state.meta.seq)  # a rewound position shows every event up to it (undo's "seen")
        return view_dict(self.catalog, seat, state)

    def view_now(self, seat: Seat, render: Callable[[dict], T]) -> T:
        """`view` at the head as `render` makes it (the HTTP answer's bytes). The rendering is kept in VIEWS per
        database, game, seat and `render` (a module-level function) and reused while the stored head is the (seq,
        hash) it was made at: the view is a function of the events up to the head and the seat (its side), so
        another seat never gets it, and any append, by whichever process, retires it."""
        return self._kept_at_head(seat, render, lambda state: render(view_dict(self.catalog, seat, state)))

    def map_now(self, seat: Seat, render: Callable[[str, str], T]) -> T | None:
        """The map picture of the position at the head as `seat` sees it (`map_picture`: the turn emails' and the
        replay viewer's renderer, from the one view), as `render(picture, shown)` makes it (the HTTP answer; `shown`:
        the picture without its title, which names the event it was drawn after: what it shows, whose entity tag
        holds while the seat's picture stays the same, however many events it did not show), kept as `view_now`'s
        is; None when the rules draw no map."""
        return self._kept_at_head(seat, ("map", render),
                                  lambda state: _maybe(lambda drawn: render(*drawn),
                                                       map_picture(self.catalog, seat, state)))

    def _kept_at_head(self, seat: Seat, what, make: Callable[[projection.GameState], T]) -> T:
        """`make(state at the head)`, kept in VIEWS per database, game, seat and `what` while the stored head is the
        (seq, hash) it was made at; the read counts as seen. The head is not read again while the database's commit
        mark is the one it was read under (`Tables.commit_mark`: on SQLite, nothing was committed since, by any
        connection or process): the read then runs no statement (issue 26: its head query was half the CPU it
        spends beyond a bare endpoint's)."""
        key = (projection.store_key(self.store), seat.game_id, seat.seat, what)
        mark = self.store.commit_mark()  # before the head: a commit after this changes it
        kept = VIEWS.since(key, mark)
        if kept is not None:
            head, rendered = kept
        else:
            head = self.store.head(seat.game_id)
            rendered = VIEWS.get(key, head, mark)
            if rendered is None:  # the state at that very seq: another append since then changes nothing here
                rendered = make(projection.load(self.store, self.catalog, seat.game_id, head=head))  # head read once
                VIEWS.put(key, head, rendered, mark)
        mark_seen(self.store, seat, head[0])
        return rendered

    def prompt(self, seat: Seat, naming: str | None = None) -> dict:
        """Where the game stands for `seat` and what it may order; `naming`: only the orders that name this unit or
        hex, all of them (legal.naming: what the play page offers for the counter a player points at)."""
        state = projection.load(self.store, self.catalog, seat.game_id)
        mark_seen(self.store, seat, state.meta.seq)
        return prompt_dict(self.catalog.rules(state.meta.rules), state, seat, naming)

    def history_rows(self, seat: Seat, from_seq: int = 1, to_seq: int | None = None,
                     state: projection.GameState | None = None) -> list[dict]:
        """The history as `seat` may see it; `state`: the game as the caller holds it (spares a load at the head).
        Read from `from_seq` only: a retraction comes after what it takes back, so every core.Retracted that marks
        a line shown is among them (a page near the head costs the page, not the game)."""
        rules = self.rules_of(seat.game_id)
        shown = list(self.store.events(seat.game_id, from_seq, to_seq))
        retracted = projection.retracted_seqs(shown)
        # after the game nothing is hidden any more (as for export and fork)
        side = history.ALL_SIDES if self.sees_all(seat, state) else seat.side
        return history.lines(rules, shown, retracted, side)

    def history(self, seat: Seat, from_seq: int = 1, limit: int = 100) -> dict:
        rows = self.history_rows(seat, from_seq)
        page = rows[:limit]
        mark_seen(self.store, seat, page[-1]["seq"] if page else 0)
        return {"events": page, "next_from": rows[limit]["seq"] if len(rows) > limit else None}

    def export(self, seat: Seat) -> tuple[list[str], bool]:
        """(JSON lines, full?): the whole stream for the arbiter or after the game; else the seat's filtered view."""
        if self.sees_all(seat):
            return list(transfer.export_lines(self.store, seat.game_id)), True
        sight = Sight(self.rules_of(seat.game_id), seat.side)
        events = list(self.store.events(seat.game_id))
        mark_seen(self.store, seat, events[-1].seq)
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
            row.update(view_fields(e, shown=not isinstance(seen, str)))
            lines.append(canonical_json(row) + "\n")
        return lines, False

    def verify(self, seat: Seat) -> dict:
        report = audit.verify_stored(self.store, self.catalog, seat.game_id,
                                     parents=transfer.parents_in(self.store)).to_dict()
        if not self.sees_all(seat):
            # problem texts quote orders, which may be hidden from this side: only where the audit failed
            report["problems"] = [{"seq": p["seq"], "check": p["check"]} for p in report["problems"]]
        return report

    def disputes(self, game_id: str) -> list[dict]:
        """The game's disputes, read from its events (core.DisputeRaised / DisputeAnswered / Retracted)."""
        return disputes_of(self.store, game_id)

    def receipt(self, game_id: str) -> dict | None:
        """The signed receipt for the game's head now (app/service/receipts.py): every answer to a write has one."""
        return as_dict(self.receipts.at(game_id))

    def receipt_keys(self) -> dict:
        """The receipt keys this server publishes (receipts.published): the well-known document."""
        return self.receipts.published()

    def chain(self, seat: Seat, from_seq: int = 1) -> dict:
        """The chain of hashes as `seat` may have it, with the receipt for its head (receipts.chain)."""
        return self.receipts.chain(seat.game_id, seat.side, self.sees_all(seat), from_seq)


def view_dict(catalog: Catalog, seat: Seat, state: projection.GameState) -> dict:
    return {"game_id": seat.game_id, "seq": state.meta.seq, "you": seat.seat,
            "players": state.meta.players, "view": catalog.rules(state.meta.rules).view(state.game, seat.side)}


def map_picture(catalog: Catalog, seat: Seat, state: projection.GameState) -> tuple[str, str] | None:
    """The map of `state` with what `seat` sees (its side's view, render.render_map), and the same picture without
    its title ("after event N"): what it shows, the same after every event that changes nothing `seat` sees (table
    talk, the other side's hidden moves); None for rules without a map."""
    rules = catalog.rules(state.meta.rules)
    game_map = optional(rules, "game_map")
    if game_map is None:
        return None
    title = f"{seat.game_id} after event {state.meta.seq}, as {seat.seat}"
    picture = render.render_map(game_map(state.game), rules.view(state.game, seat.side), rules.sides, title=title)
    return picture, picture.replace(render.title_markup(title), "", 1)


def _maybe(fn: Callable[[str], T], value: str | None) -> T | None:
    return None if value is None else fn(value)


def prompt_dict(rules, state: projection.GameState, seat: Seat, naming: str | None = None) -> dict:
    """Where the game stands for `seat`: whose turn, and if it is theirs, what they may order: every order the
    rules accept now by kind, with how many units each kind may still take (`kinds`, app/rules/legal.py
    `by_kind`), and the same orders in one list (`legal_orders`); `naming`: instead, every order that names this
    unit or hex (legal.naming), and no kinds."""
    outcome = rules.outcome(state.game)
    prompt = rules.prompt(state.game)
    mine = outcome is None and prompt.side == seat.side and seat.side is not None
    missing = [s for s in state.meta.sides if s not in state.meta.players]
    kinds = legal.by_kind(rules, state.game, seat.side) if mine and not naming else []
    return {"seq": state.meta.seq, "to_act": prompt.side, "step": prompt.step, "your_turn": mine and not missing,
            "waiting_for_players": missing,
            "outcome": {"winner": outcome.winner, "reason": outcome.reason} if outcome else None,
            "actions": [{"name": a.name, "syntax": a.syntax, "case": a.case, "help": a.help, "subjects": a.subjects}
                        for a in prompt.actions] if mine else [],
            "owed": prompt.owed.to_dict() if mine and prompt.owed is not None else None,
            "kinds": kinds, "legal_orders": ([] if not mine else legal.naming(rules, state.game, seat.side, naming)
                                             if naming else [o for kind in kinds for o in kind["orders"]])}


def disputes_of(store: Store, game_id: str) -> list[dict]:
    """A game's disputes, read from its events (core.DisputeRaised / core.DisputeAnswered / core.Retracted)."""
    out: dict[int, dict] = {}
    settling = None
    for e in store.events(game_id):
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
