"""Play by email: seats and tokens, every read and order as one seat, turn emails, disputes, deadlines.

Every output to a seat goes through `rules.view(state, side)` and the per-side history filter (the rule set's
optional `visible` hook): `Pbem.view`, `Pbem.history`, `Pbem.export` and every email are built here, from
those two functions only. A player's seat is their side; the arbiter's seat sees everything (side None).
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

from app.events import core
from app.events.envelope import canonical_json
from app.events.registry import decode
from app.events.store import (
    BackendError,
    Conflict,
    EventStore,
    StoreUnavailable,
    UnknownGame,
    utc_now,
    utc_text,
)
from app.projections import history, render, textmap
from app.projections import state as projection
from app.projections.sight import Sight
from app.rules import practice
from app.rules.base import event_reveals, has_preview, optional
from app.rules.catalog import get_rules
from app.rules.errors import OrderError
from app.service import audit, autoplay, games, mailing, outbox, transfer
from app.service.ports import Mail, Notifier, Transport

ARBITER = "arbiter"
DEADLINE_ACTIONS = ("notify-arbiter", "auto-pass")
DEADLINE_ACTOR = "server:deadline"
LOG = logging.getLogger("hexledger.service")
PASS_ACTIONS = ("end", "pass")


class AccessDenied(Exception):
    """No valid token for this game, or the seat may not do this. Nothing is written."""

    status = 403


class NotAuthenticated(AccessDenied):
    status = 401


class PbemError(games.GameError):
    """A play-by-email request that cannot be carried out (a dispute out of its window, ...)."""


@dataclass(frozen=True)
class Seat:
    game_id: str
    seat: str
    email: str

    @property
    def side(self) -> str | None:
        """The side this seat plays; None for the arbiter, who sees everything."""
        return None if self.seat == ARBITER else self.seat

    @property
    def is_arbiter(self) -> bool:
        return self.seat == ARBITER


def hash_token(token: str) -> str:
    return hashlib.sha256(token.strip().lower().encode("utf-8")).hexdigest()


def new_token() -> str:
    """128 random bits, lower-case hex: safe in an email address's local part, which some servers fold."""
    return secrets.token_hex(16)


def _parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _now() -> datetime:
    return datetime.now(UTC)


class Pbem:
    def __init__(self, store: EventStore, config: Mail, transport: Transport | None = None,
                 clock: Callable[[], datetime] = _now, secret: str | None = None, notifier: Notifier | None = None):
        """`config`: outgoing mail (the port app/mail's MailConfig implements); `transport`: where it goes (default:
        the one `config` names). `notifier`: told after each write that queued mail (`serve`'s background sender);
        without one, the write's own mail is delivered right after its commit, in the caller's thread."""
        self.store = store
        self.config = config
        self.transport = transport or config.transport()
        self.clock = clock
        self.notifier = notifier
        self._queued: list[int] = []
        self._loaded: dict[tuple[str, int], projection.GameState] = {}  # states this request's queued mail is at
        self._secret = (secret or os.environ.get("HEXLEDGER_SECRET") or "").encode("utf-8") or None

    # -- reply tags: a seat's own reply address, without a token --------------------------------------------
    def server_secret(self) -> bytes:
        """The key of the reply tags: `secret` / HEXLEDGER_SECRET if given, else a random one made on first use
        and kept in the database (table server_secrets), so tags stay valid across restarts."""
        if self._secret is None:
            self._secret = self.store.secret("reply_tags", secrets.token_hex(32)).encode("utf-8")
        return self._secret

    def reply_tag(self, game_id: str, seat: str) -> str:
        """HMAC-SHA256(server secret, game id and seat), 128 bits as hex: the plus-address of that seat's replies.
        The server can recompute it for every email, unlike a token, of which it keeps only a hash."""
        mac = hmac.new(self.server_secret(), f"reply-tag\x00{game_id}\x00{seat}".encode(), hashlib.sha256)
        return mac.hexdigest()[:32]

    def authenticate_tag(self, game_id: str, tag: str | None) -> Seat:
        """The seat whose reply tag this is (email only); compared in constant time against every seat's tag."""
        if not tag:
            raise NotAuthenticated("no token line and no reply tag: reply to a game email, or add 'token: ...'")
        try:
            self.store.game(game_id)
        except UnknownGame:
            raise AccessDenied(f"no game {game_id!r} for this reply address") from None
        found = None
        for seat, row in self.members(game_id).items():
            if hmac.compare_digest(self.reply_tag(game_id, seat).encode(), tag.strip().lower().encode()):
                found = row
        if found is None:
            raise AccessDenied(f"this reply address opens no seat in game {game_id}")
        return Seat(game_id, found["seat"], found["email"])

    # -- replay keys: a seat's read-only pass to the replay viewer ------------------------------------------
    def _replay_key(self, game_id: str, seat: str, token_hash: str) -> str:
        mac = hmac.new(self.server_secret(), f"replay-key\x00{game_id}\x00{seat}\x00{token_hash}".encode(),
                       hashlib.sha256)
        return mac.hexdigest()[:32]

    def replay_key(self, game_id: str, seat: str) -> str:
        """HMAC-SHA256(server secret, game id, seat, the seat's token hash), 128 bits as hex: opens the replay
        viewer (app/web/replay.py) as that seat and nothing else: it gives no orders. The server keeps only token
        hashes, so emails cannot carry a token; this key it can recompute for every email."""
        member = self.members(game_id).get(seat)
        if member is None:
            raise AccessDenied(f"game {game_id} has no seat {seat!r}")
        return self._replay_key(game_id, seat, member["token_hash"])

    def authenticate_replay_key(self, game_id: str, key: str | None) -> Seat:
        """The seat whose replay key this is; compared in constant time against every seat's key."""
        if not key:
            raise NotAuthenticated("no replay key: open the replay link from your game email")
        try:
            self.store.game(game_id)
        except UnknownGame:
            raise AccessDenied(f"no game {game_id!r} for this replay key") from None
        found = None
        for seat, row in self.members(game_id).items():
            if hmac.compare_digest(self._replay_key(game_id, seat, row["token_hash"]).encode(),
                                   key.strip().lower().encode()):
                found = row
        if found is None:
            raise AccessDenied(f"this replay key opens no seat in game {game_id}")
        return Seat(game_id, found["seat"], found["email"])

    def replayed(self, seat: Seat, head: int) -> None:
        """`seat` read the replay (its frames, maps or analysis) up to event `head`: seen, as far as undo goes."""
        self._mark_seen(seat, head)

    def replay_link(self, game_id: str, seat: str) -> str | None:
        """The seat's link to the replay viewer, if the server knows its public address (HEXLEDGER_PUBLIC_URL)."""
        if not self.config.public_url:
            return None
        return f"{self.config.public_url.rstrip('/')}/replay/{game_id}/?key={self.replay_key(game_id, seat)}"

    # -- seats and tokens ---------------------------------------------------------------------------------
    def create(self, rules_name: str, players: dict[str, str], scenario: str | None = None,
               arbiter: str | None = None, deadline_hours: float | None = None,
               reminder_hours: float | None = None, dispute_window_hours: float = 24,
               options: dict | None = None, on_deadline: str = "notify-arbiter",
               auto: dict | list | None = None) -> tuple[str, dict[str, str]]:
        """Create a game with a seat per side (and the arbiter's); email each seat its invitation and token.
        `auto`: the sides the server plays (app/service/autoplay.py; None: the rule set's own), which take no
        player. Returns the game id and the tokens (shown once; only their hashes are kept)."""
        rules = get_rules(rules_name)
        try:
            automated = practice.seats(rules, auto)
        except ValueError as exc:
            raise PbemError(str(exc)) from None
        human = [s for s in rules.sides if s not in automated]
        if set(players) != set(human):
            raise PbemError(f"{rules.name} needs one player for each side: {', '.join(human)}"
                            + (f" ({', '.join(automated)} played by the server)" if automated else ""))
        if deadline_hours is not None and deadline_hours <= 0:
            raise PbemError("the move deadline must be a positive number of hours")
        if on_deadline not in DEADLINE_ACTIONS:
            raise PbemError(f"on_deadline must be one of {', '.join(DEADLINE_ACTIONS)}, not {on_deadline!r}")
        seats = dict(players)
        if arbiter:
            seats[ARBITER] = arbiter
        tokens = {seat: new_token() for seat in seats}
        now = utc_now()
        self.server_secret()  # the invitations' reply tags need it: made before the game, never after it
        with self.store.transaction():  # the game and its seats together: no game without seats after a crash
            game_id = games.create_game(self.store, rules.name, scenario, options, auto=automated)
            self.store.add_pbem_game(game_id, {
                "deadline_hours": deadline_hours, "reminder_hours": reminder_hours,
                "dispute_window_hours": dispute_window_hours, "on_deadline": on_deadline, "created_at": now},
                [{"seat": seat, "email": email, "token_hash": hash_token(tokens[seat]), "created_at": now}
                 for seat, email in seats.items()])
            for seat, email in seats.items():  # the outbox delivers the tokens: no game without its invitations
                self._send(email, game_id, f"Invitation: {rules.title}, you play {seat}",
                           self._invitation(game_id, rules, seat, tokens[seat], seats), seat)
        self._kick()
        return game_id, tokens

    def authenticate(self, game_id: str, token: str | None) -> Seat:
        """The seat this token opens in this game. Every seat's hash is compared, in constant time."""
        if not token:
            raise NotAuthenticated("a token is needed: 'Authorization: Bearer <token>' (from your invitation)")
        try:
            self.store.game(game_id)
        except UnknownGame:
            raise AccessDenied(f"no game {game_id!r} for this token") from None
        wanted = hash_token(token)
        found = None
        for row in self.store.members(game_id):
            if hmac.compare_digest(row["token_hash"], wanted):
                found = row
        if found is None:
            raise AccessDenied(f"this token opens no seat in game {game_id}")
        return Seat(game_id, found["seat"], found["email"])

    def members(self, game_id: str) -> dict[str, dict]:
        return {r["seat"]: r for r in self.store.members(game_id)}

    def settings(self, game_id: str) -> dict:
        settings = self.store.pbem_settings(game_id)
        if settings is None:
            raise PbemError(f"game {game_id} is not a play-by-email game")
        return settings

    def _mark_seen(self, seat: Seat, seq: int) -> None:
        """Record that a seat read the game up to event `seq`: undo is refused once the opponent saw an order, and
        every read of a position counts (state, `state?at=`, history, export, preview, the replay and its frames,
        maps and analysis, turn emails). A read whose seeing cannot be recorded (locked database, full disk)
        fails with StoreUnavailable rather than show it."""
        self.store.mark_seen(seat.game_id, seat.seat, seq)

    def _after_write(self, game_id: str, what: str, step: Callable[[], object]) -> None:
        """A cache step after a write that stands (dropping stale snapshots): a locked database or a full disk here
        is logged and the step skipped, never reported as a failure of the write, which a caller would repeat."""
        try:
            step()
        except (BackendError, StoreUnavailable) as exc:
            LOG.warning("game %s: %s deferred, the database refused it: %s", game_id, what, exc)

    def _player(self, seat: Seat) -> str:
        if seat.is_arbiter:
            raise AccessDenied("the arbiter does not play a side")
        return seat.seat

    # -- reading, as one seat -------------------------------------------------------------------------
    def _rules(self, game_id: str):
        return get_rules(self.store.game(game_id)["rules"])

    def is_over(self, game_id: str, state: projection.GameState | None = None) -> bool:
        """The game has ended; `state`: a state of it the caller holds (loaded again unless it is at the head)."""
        if state is None or state.meta.seq != self.store.head(game_id)[0]:
            state = projection.load(self.store, game_id)
        return get_rules(state.meta.rules).outcome(state.game) is not None

    def sees_all(self, seat: Seat, state: projection.GameState | None = None) -> bool:
        """The arbiter, or anyone after the game ends, sees everything: every channel asks here."""
        return seat.is_arbiter or self.is_over(seat.game_id, state)

    def view(self, seat: Seat, at: int | None = None) -> dict:
        state = projection.load(self.store, seat.game_id, at)
        rules = get_rules(state.meta.rules)
        self._mark_seen(seat, state.meta.seq)  # a rewound position shows every event up to it (undo's "seen")
        return {"game_id": seat.game_id, "seq": state.meta.seq, "you": seat.seat,
                "players": state.meta.players, "view": rules.view(state.game, seat.side)}

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
                            for a in prompt.actions] if mine else []}

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
                                         "redacted ones carry only their text; hashes are omitted"}) + "\n"]
        for e in events:
            seen = sight.event(decode(e.type, e.version, e.payload))
            if seen is False:
                continue
            row = {"seq": e.seq, "type": e.type, "actor": e.actor, "at": e.at, "retracted": e.seq in retracted}
            row.update({"redacted": seen} if isinstance(seen, str) else {"payload": e.payload,
                                                                        "causation": e.causation})
            lines.append(canonical_json(row) + "\n")
        return lines, False

    def verify(self, seat: Seat) -> dict:
        report = audit.verify(list(self.store.events(seat.game_id)), parents=transfer.parents_in(self.store)).to_dict()
        if not self.sees_all(seat):
            # problem texts quote orders, which may be hidden from this side: only where the audit failed
            report["problems"] = [{"seq": p["seq"], "check": p["check"]} for p in report["problems"]]
        return report

    def preview(self, seat: Seat, text: str) -> dict:
        state = projection.load(self.store, seat.game_id)
        rules = get_rules(state.meta.rules)
        if not has_preview(rules):
            raise PbemError(f"{rules.name} offers no preview")
        command = games.parse_order(rules, state, self._player(seat), text)
        self._mark_seen(seat, state.meta.seq)  # a preview reads the position as it stands
        return {"order": text.strip(), "seq": state.meta.seq, "preview": rules.preview(state.game, command)}

    # -- acting, as one seat ----------------------------------------------------------------------------
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

    def order(self, seat: Seat, text: str, expected_seq: int | None = None) -> dict:
        """`submit`, answered as the seat sees it: the new events' lines and its view of the new position."""
        accepted = self.submit(seat, text, expected_seq)
        rules = get_rules(accepted.state.meta.rules)
        return {"accepted": True, "seq": accepted.state.meta.seq,
                "events": history.lines(rules, accepted.events, side=seat.side),
                "view": rules.view(accepted.state.game, seat.side)}

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

    # -- retractions: undo, disputes, rulings -------------------------------------------------------------
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
        standing = [e for e in events if e.seq not in retracted]
        mine = []
        for e in reversed(standing):
            if e.type == "core.OrderGiven":
                if e.payload["side"] != side:
                    break
                mine.append(e)
            elif e.type in ("core.Retracted", "core.PlayerJoined", "core.GameCreated", "core.GameForked"):
                break
        if not mine:
            raise PbemError("you have no order of yours to undo since your opponent's last order")
        # the latest of your orders: undo one order at a time
        order = mine[0]
        seen = max((m["last_seen_seq"] for s, m in self.members(seat.game_id).items() if s not in (side, ARBITER)),
                   default=0)
        if seen >= order.seq:
            raise PbemError(f"your opponent has already seen event {order.seq}: dispute it instead")
        rules = self._rules(seat.game_id)
        for e in events:
            if e.seq < order.seq:
                continue
            body = decode(e.type, e.version, e.payload)
            if isinstance(body, core.DieRolled):
                raise PbemError(f"event {e.seq} is a die roll: only your opponent or the arbiter can take it back")
            if event_reveals(rules, body):
                raise PbemError(f"event {e.seq} revealed something: only your opponent or the arbiter can take it "
                                "back")
        seq = self._retract(seat.game_id, order.seq, f"undo of {order.payload['text']!r}", f"player:{side} (undo)")
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
        if not reason.strip():
            raise PbemError("a dispute needs a reason")
        known = self.disputes(seat.game_id)
        if any(d["status"] in ("open", "referred") for d in known):
            raise PbemError("a dispute is already open in this game; it must be settled first")
        events, retracted = self._orders(seat.game_id)
        order = next((e for e in events if e.seq == order_seq), None)
        if order is None or order.type != "core.OrderGiven" or order_seq in retracted:
            raise PbemError(f"event {order_seq} is not an order that stands")
        window = self.settings(seat.game_id)["dispute_window_hours"]
        if self.clock() - _parse_time(order.at) > timedelta(hours=window):
            raise PbemError(f"event {order_seq} is older than the dispute window of {window:g} hours")
        number = len(known) + 1
        raised = core.DisputeRaised(dispute=number, order_seq=order_seq, side=side, reason=reason.strip())
        arbiter = ARBITER in self.members(seat.game_id)
        with self.writing():
            stored = self.store.append(seat.game_id, events[-1].seq, [games._new(raised, f"player:{side}")])[0]
            for s, m in self.members(seat.game_id).items():
                what = self._order_text_for(seat.game_id, s, m["email"], order_seq)
                text = (f"{side} disputes event {order_seq} ({what}):\n  {reason.strip()}\n\n"
                        "If it is upheld, that order and everything after it is retracted "
                        f"(kept in the log, marked).\nThe other player may reply 'accept dispute {number}' "
                        f"(take it back) or 'reject dispute {number}'" +
                        ("; the arbiter then rules." if arbiter else "."))
                self._send(m["email"], seat.game_id, f"Dispute {number} on event {order_seq}", text, s)
        return self._dispute(seat, number) | {"raised_seq": stored.seq}

    def answer_dispute(self, seat: Seat, dispute_id: int, accept: bool, note: str = "") -> dict:
        """The opponent of whoever raised it accepts (takeback) or rejects; the arbiter rules either way."""
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
                           f"{d['raised_by']} disputes event {d['order_seq']}: {d['reason']}\n{seat.seat} rejects "
                           f"it{': ' + note if note else ''}.\nReply 'uphold dispute {d['id']}' or "
                           f"'reject dispute {d['id']}'.", ARBITER)
            return {**d, "status": "referred", "note": note}
        return self._settle(seat, d, "rejected", note)

    def _settle(self, seat: Seat, d: dict, status: str, note: str) -> dict:
        """The answer, and for a takeback the retraction after it, in one write (both or neither)."""
        actor = ARBITER if seat.is_arbiter else f"player:{seat.seat}"
        head = self.store.head(seat.game_id)[0]
        batch = [games._new(core.DisputeAnswered(dispute=d["id"], by=seat.seat, status=status, note=note), actor)]
        if status in ("accepted", "upheld"):
            authority = "consent" if status == "accepted" else "ruling"
            batch.append(self._retraction(seat.game_id, d["order_seq"], f"dispute {d['id']}: {d['reason']}",
                                          f"{seat.seat} ({authority}, dispute {d['id']} raised by {d['raised_by']})"))
        with self.writing():  # the answer, its retraction and the emails they cause
            stored = self.store.append(seat.game_id, head, batch)
            retraction = stored[1].seq if len(stored) > 1 else None
            text = f"Dispute {d['id']} on event {d['order_seq']} is {status} by {seat.seat}" + (
                f": {note}" if note else ".")
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

    # -- notifications --------------------------------------------------------------------------------
    def notify(self, game_id: str, state: projection.GameState | None = None, force: bool = False) -> list[str]:
        """Queue a turn email to whoever must act now, if that changed since the last one (or `force`), in the
        caller's transaction; `state`: the game's state at its head, if the caller has it. Returns seats."""
        try:
            settings = self.settings(game_id)
        except PbemError:
            return []
        state = state or projection.load(self.store, game_id)
        rules = get_rules(state.meta.rules)
        members = self.members(game_id)
        outcome = rules.outcome(state.game)
        if outcome is not None:
            if settings["over_notified"]:
                return []
            self.store.update_pbem_game(game_id, {"over_notified": 1, "turn_side": None})
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
        self._queue_turn(state, side, members[side]["email"], "Your turn")
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
                 "Since your last email", mailing.render_history(since), ""]
        game_map = optional(rules, "game_map")
        attachments = ()
        if game_map is not None and view.get("units") is not None:
            the_map = game_map(state.game)
            filename = f"{game_id}-event-{state.meta.seq}-{seat.seat}.svg"
            svg = render.render_map(the_map, view, rules.sides,
                                    title=f"{game_id} after event {state.meta.seq}, as {seat.seat}")
            attachments = ((filename, "image/svg+xml", svg.encode("utf-8")),)
            parts += ["Map near the action", textmap.render_area(the_map, view, seat.side, since, filename), ""]
        parts += ["The position (as you see it)", mailing.render_view(view), ""]
        if prompt["actions"]:
            parts += ["Your orders now", mailing.render_actions(prompt["actions"]), ""]
        link = self.replay_link(game_id, seat.seat)
        if link:
            parts += ["Replay in your browser (as you see it; the link is yours, do not share it)", f"  {link}", ""]
        parts.append(self.config.how_to_reply(game_id, state.meta.seq, prompt["actions"]))
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
                f"{replay}"
                f"Orders go to {self.config.orders_address}; replying to this email or any later game email works as "
                f"it is (the reply address carries the game and your seat's reply tag). Or use the HTTP API with\n"
                f"  Authorization: Bearer {token}\n")

    def _send(self, to: str, game_id: str | None, subject: str, body: str, seat: str | None,
              in_reply_to: str | None = None) -> None:
        """Email `to`, through the outbox (in the caller's transaction); for a seat of the game its Reply-To
        carries that seat's reply tag (orders+GAME.TAG@...)."""
        self._queue("message", to, game_id, seat, {"subject": subject, "body": body, "in_reply_to": in_reply_to})

    # -- the outbox (app/service/outbox.py) --------------------------------------------------------------
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

    def mail_round(self) -> datetime | None:
        """One round of the background sender: deliver what is due; when the next mail falls due."""
        self.deliver()
        due = self.store.next_mail_due()
        return _parse_time(due) if due else None

    def outgoing(self, row: dict) -> EmailMessage:
        """An outbox row as the email to send (outbox.Composer): a turn email is laid out now, from `seq`."""
        data, game_id, seat = row["data"], row["game_id"], row["seat"]
        if row["kind"] == "turn":
            state = self._loaded.get((game_id, data["seq"])) or projection.load(self.store, game_id, data["seq"])
            return self._turn_email(game_id, Seat(game_id, seat, row["recipient"]), state,
                                    get_rules(state.meta.rules), data["headline"], row["message_id"])
        return self.config.message(row["recipient"], game_id or "unknown", data["subject"], data["body"],
                               self.reply_tag(game_id, seat) if seat else None, data["in_reply_to"],
                               message_id=row["message_id"])

    def delivered(self, row: dict) -> None:
        """A turn email went: the seat's next one tells the history from here (outbox.Composer)."""
        if row["kind"] == "turn":
            self.store.mark_notified(row["game_id"], row["seat"], row["data"]["seq"])

    # -- deadlines ------------------------------------------------------------------------------------
    def _auto_pass(self, game_id: str, side: str, limit: int = 20) -> list[str]:
        """Give the rule set's end/pass action for `side` while it is still theirs to act (at most `limit` steps),
        each an ordinary order by the actor server:deadline. Stops at once if anyone else wrote meanwhile."""
        rules = self._rules(game_id)
        passed: list[str] = []
        for _ in range(limit):
            state = projection.load(self.store, game_id)
            if rules.outcome(state.game) is not None:
                break
            prompt = rules.prompt(state.game)
            action = next((a for a in prompt.actions if a.name in PASS_ACTIONS), None)
            if prompt.side != side or action is None:
                break
            try:
                games.submit(self.store, game_id, side, action.name, expected_seq=state.meta.seq,
                             actor=DEADLINE_ACTOR)
            except (Conflict, OrderError, games.GameError):
                break  # the player moved at the last moment, or the rules refuse: nothing more is passed
            passed.append(action.name)
        autoplay.play(self.store, game_id)  # an automated opponent answers the pass at once
        return passed

    def _since_last_tick(self, now: datetime) -> timedelta | None:
        """How far the clock moved since the last tick (None on the first), and record this one."""
        last = self.store.swap_clock("tick", now.isoformat())
        return now - _parse_time(last) if last else None

    def tick(self) -> list[str]:
        """Reminders before a move deadline, the configured action when it passes, and the outbox's mail that is
        due (retries included). Run it from cron, often (every few minutes), on a host whose clock is right: a run
        that finds the clock moved by more than a game's deadline since the last run (a clock jump, or the server
        down that long) does not auto-pass for anyone in that game; it logs it and leaves it to the arbiter."""
        now = self.clock()
        moved = self._since_last_tick(now)
        done = []
        for g in self.store.pbem_games():
            caught_up = autoplay.play(self.store, g["game_id"])  # a turn the limit or a refused write left
            if caught_up:
                done.append(f"{g['game_id']}: the automated seats caught up, {len(caught_up)} order(s)")
                with self.writing():
                    self.notify(g["game_id"])
        for g in self.store.pbem_games(on_clock_only=True):
            due = _parse_time(g["turn_started_at"]) + timedelta(hours=g["deadline_hours"])
            members = self.members(g["game_id"])
            player = members.get(g["turn_side"])
            if player is None:
                continue
            if not g["reminded"] and g["reminder_hours"] and due - timedelta(hours=g["reminder_hours"]) <= now < due:
                with self.writing():
                    self._send(player["email"], g["game_id"], "Reminder: your move is due",
                               f"Your move in game {g['game_id']} is due by {due.isoformat(timespec='minutes')} "
                               f"({g['deadline_hours']:g} hours from the start of your turn).", g["turn_side"])
                    self.store.update_pbem_game(g["game_id"], {"reminded": 1})
                done.append(f"{g['game_id']}: reminded {g['turn_side']}")
            if not g["expired"] and now >= due:
                side = g["turn_side"]
                self.store.update_pbem_game(g["game_id"], {"expired": 1})  # once, whatever follows
                jumped = moved is not None and not timedelta(0) <= moved <= timedelta(hours=g["deadline_hours"])
                if jumped and g["on_deadline"] == "auto-pass":
                    LOG.warning("game %s: no auto-pass for %s: the clock moved %s since the last tick, more than "
                                "the %g-hour deadline; over to the arbiter", g["game_id"], side, moved,
                                g["deadline_hours"])
                passed = self._auto_pass(g["game_id"], side) if g["on_deadline"] == "auto-pass" and not jumped \
                    else []
                when = due.isoformat(timespec="minutes")
                if passed:
                    text = (f"{side} ({player['email']}) did not move in game {g['game_id']} by the deadline, "
                            f"{when}. As this game's deadline rule says (auto-pass), the server gave "
                            f"{', '.join(repr(p) for p in passed)} for {side}, as '{DEADLINE_ACTOR}'.")
                    with self.writing():
                        for s, m in members.items():
                            self._send(m["email"], g["game_id"], f"Deadline passed: the server passed for {side}",
                                       text, s)
                        self.notify(g["game_id"])
                    done.append(f"{g['game_id']}: deadline passed for {side}, passed: {' '.join(passed)}")
                    continue
                action = g["on_deadline"] if g["on_deadline"] != "auto-pass" else \
                    (f"auto-pass withheld: the server's clock moved {moved} since its last deadline check, more "
                     "than the deadline (a clock jump, or the server was down): over to the arbiter" if jumped else
                     "auto-pass, but no end or pass was open to them: over to the arbiter")
                to = {ARBITER: members[ARBITER]} if ARBITER in members else members
                with self.writing():
                    for s, m in to.items():
                        self._send(m["email"], g["game_id"], f"Deadline passed: {side} has not moved",
                                   f"{side} ({player['email']}) has not moved in game {g['game_id']}; the "
                                   f"deadline was {when}. Action: {action}.", s)
                done.append(f"{g['game_id']}: deadline passed for {side}")
        sent = self.deliver()
        if sent.sent or sent.failed:
            done.append(f"outbox: {sent.sent} email(s) sent, {len(sent.failed)} failed (kept for a retry)")
        return done
