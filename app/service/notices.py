"""The subscribers (app/service/reactions.py): what players are told, derived from the stored events.

- `TurnEmails`: whoever must act changed (or a takeback by consent or ruling moved the position under them): a
  turn email to that seat; the game over: a short result to every seat, once.
- `Invitations`: a new game or an arbiter's fork: each seat's invitation with its token (held until now by
  Setup, deleted here in the same transaction).
- `DisputeNotices`: a dispute raised, referred to the arbiter, or settled.
- `DeadlineNotices`: a deadline passed (core.DeadlinePassed), and what the server did about it.
- `StallNotices`: an automated seat can give no order (core.SeatStalled): every seat is told the game waits.

Every text is filtered for its seat: the disputed order as that seat's history shows it, turn reports laid out from
its view (app/service/letters.py). Mail goes to a game's seats only: a game made on the command line has none.
"""
from __future__ import annotations

from app.events.envelope import StoredEvent
from app.events.interface import Store
from app.projections import state as projection
from app.rules.base import Catalog
from app.service.mailroom import Mailroom
from app.service.reads import Reads
from app.service.receipts import Receipts
from app.service.seats import ARBITER, Credentials, Seat, members
from app.text import quoted

DEADLINE_ACTOR = "server:deadline"  # who gives an auto-pass's orders (app/service/deadlines.py)


def boundaries(events: list[StoredEvent]) -> list[StoredEvent]:
    """The events after which a write (or one order of it) is complete: the positions a player could face. An
    order's events follow it (their causation), and the seed's reveal follows the order that ended the game."""
    return [e for e, after in zip(events, [*events[1:], None], strict=True)
            if after is None or (after.causation is None and after.type != "core.SeedRevealed")]


class TurnEmails:
    """A turn email whenever whoever must act changes; the game over, a short result to every seat. Its records
    are the game's turn_side, turn_started_at (the time of the event that made it that side's turn: the
    deadline's clock), reminded, expired and over_notified; the seat emailed counts as having seen the position
    (undo is refused from then on)."""

    name = "turns"

    def __init__(self, store: Store, catalog: Catalog, mailroom: Mailroom):
        self.store = store
        self.catalog = catalog
        self.mailroom = mailroom

    def react(self, game_id: str, events: list[StoredEvent]) -> None:
        settings = self.store.pbem_settings(game_id)
        if settings is None or settings["over_notified"]:
            return
        forced = _settled_takebacks(events)
        answered = answered_by_standing(events)
        turn_side = settings["turn_side"]
        seats = None
        for event in boundaries(events):
            if event.seq in answered:
                continue  # the side's standing order answered this position at once: nobody was asked
            state = projection.load(self.store, self.catalog, game_id, event.seq)
            if state.meta.board is not None:
                return  # an analysis board's seats are its analyst's, who plays at the board: nobody is told
            rules = self.catalog.rules(state.meta.rules)
            seats = seats or members(self.store, game_id)
            outcome = rules.outcome(state.game)
            if outcome is not None:
                self.store.update_pbem_game(game_id, {"over_notified": 1, "turn_side": None})
                for seat, member in seats.items():
                    self._queue(game_id, seat, member["email"], f"Game over: {outcome.winner or 'draw'}", event.seq)
                return
            if any(s not in state.meta.players for s in state.meta.sides):
                continue
            side = rules.prompt(state.game).side
            if side is None or side in state.meta.automated or side not in seats:
                continue  # an automated side is told nothing: the server plays it (autoplay)
            if side == turn_side and event.seq not in forced:
                continue
            turn_side = side
            self.store.update_pbem_game(game_id, {"turn_side": side, "turn_started_at": event.at, "reminded": 0,
                                                  "expired": 0})
            self._queue(game_id, side, seats[side]["email"], "Your turn", event.seq)

    def _queue(self, game_id: str, seat: str, email: str, headline: str, seq: int) -> None:
        """A turn (or game-over) email, laid out when it is delivered (app/service/letters.py) from the position
        at `seq`. The seat counts as having seen it from now: undo is refused once queued."""
        self.mailroom.queue("turn", email, game_id, seat, {"headline": headline, "seq": seq})
        self.store.mark_seen(game_id, seat, seq)


def answered_by_standing(events: list[StoredEvent]) -> set[int]:
    """The positions a standing order answered (the next event is its order, by `standing:SIDE`): the side to act
    was not asked, so it is not emailed (app/service/autoplay.py)."""
    return {e.seq for e, after in zip(events, events[1:], strict=False)
            if after.type == "core.OrderGiven" and after.actor.startswith("standing:")}


def _settled_takebacks(events: list[StoredEvent]) -> set[int]:
    """The retractions that settle a dispute (by consent or ruling): the position changed under both players, so
    whoever acts after it is told again, even if it was their turn before."""
    return {e.seq for before, e in zip(events, events[1:], strict=False)
            if e.type == "core.Retracted" and before.type == "core.DisputeAnswered"
            and before.payload["status"] in ("accepted", "upheld")}


class Invitations:
    """Each seat of a new game, or of an arbiter's fork, is invited with its token: the raw tokens Setup held
    (`Store.hold_invitations`) are taken and deleted in the transaction that queues the invitations."""

    name = "invitations"

    def __init__(self, store: Store, catalog: Catalog, mailroom: Mailroom, credentials: Credentials,
                 receipts: Receipts):
        self.store = store
        self.catalog = catalog
        self.mailroom = mailroom
        self.credentials = credentials
        self.receipts = receipts

    def react(self, game_id: str, events: list[StoredEvent]) -> None:
        start = next((e for e in events if e.type in ("core.GameCreated", "core.GameForked")), None)
        if start is None:
            return
        tokens = self.store.take_invitations(game_id)
        if not tokens:
            return
        rules = self.catalog.rules(self.store.game(game_id)["rules"])
        seats = {s: m["email"] for s, m in members(self.store, game_id).items()}
        fork = start.payload if start.type == "core.GameForked" else None
        for seat, token in tokens.items():
            self.mailroom.message(seats[seat], game_id, f"Invitation: {rules.title}, you play {seat}",
                                  self._text(game_id, rules, seat, token, seats, fork), seat)

    def _text(self, game_id: str, rules, seat: str, token: str, seats: dict[str, str], fork: dict | None) -> str:
        who = "\n".join(f"  {s}: {e}" for s, e in seats.items())
        role = "the arbiter (you rule on disputes)" if seat == ARBITER else f"side {seat}"
        what = (f"game {game_id}: {rules.title}, as {role}" if fork is None else
                f"game {game_id}, a fork of game {fork['parent_id']} after its event {fork['parent_seq']} "
                f"({rules.title}), as {role}; it goes on from there, with its own dice")
        join = ("" if seat == ARBITER or fork is not None else
                "To take your seat, reply with a line\n  join: <any text of yours>\nwhich is mixed into every later "
                "die roll, so nobody (not even the server) can pick the dice alone. Type words of your own: "
                "with none, the server makes a random text for you and shows it in its answer.\n\n")
        link = self.credentials.replay_link(game_id, seat)
        replay = f"Watch the game in your browser (as you see it; the link is yours):\n  {link}\n\n" if link else ""
        play = self.credentials.play_link(game_id, seat)
        if play:
            replay = (f"Play in your browser, pointing at the map (the link gives your orders: do not share it):\n"
                      f"  {play}\n\n{replay}")
        orders = self.credentials.mail.orders_address if self.credentials.mail is not None else "the orders address"
        return (f"You are invited to {what}.\n\nSeats:\n{who}\n\n"
                f"Your secret token (shown once; it is your password for this game):\n  token: {token}\n\n{join}"
                f"{replay}{self.receipts.announcement()}\n"
                f"Orders go to {orders}; replying to this email or any later game email works as it is (the reply "
                f"address carries the game and your seat's reply tag). Or use the HTTP API with\n"
                f"  Authorization: Bearer {token}\n")


class DisputeNotices:
    """A dispute raised: every seat is told, the disputed order as that seat may see it; referred: the arbiter is
    asked to rule; settled: every seat is told how, and of the retraction a takeback made."""

    name = "disputes"

    def __init__(self, store: Store, mailroom: Mailroom, reads: Reads):
        self.store = store
        self.mailroom = mailroom
        self.reads = reads

    def react(self, game_id: str, events: list[StoredEvent]) -> None:
        if not any(e.type in ("core.DisputeRaised", "core.DisputeAnswered") for e in events):
            return
        seats = members(self.store, game_id)
        if not seats:
            return
        disputes = {d["id"]: d for d in self.reads.disputes(game_id)}
        for i, e in enumerate(events):
            if e.type == "core.DisputeRaised":
                self._raised(game_id, e.payload, seats)
            elif e.type == "core.DisputeAnswered":
                after = events[i + 1] if i + 1 < len(events) else None
                retraction = after.seq if after is not None and after.type == "core.Retracted" else None
                self._answered(game_id, e.payload, disputes[e.payload["dispute"]], seats, retraction)

    def _raised(self, game_id: str, p: dict, seats: dict[str, dict]) -> None:
        number, order_seq, reason = p["dispute"], p["order_seq"], p["reason"]
        for seat, member in seats.items():
            rows = self.reads.history_rows(Seat(game_id, seat, member["email"]), order_seq, order_seq)
            what = rows[0]["text"] if rows else "an order hidden from you"  # never the other side's secret
            text = (f"{p['side']} disputes event {order_seq} ({what}):\n  {quoted(reason)}\n\n"
                    "If it is upheld, that order and everything after it is retracted "
                    f"(kept in the log, marked).\nThe other player may reply 'accept dispute {number}' "
                    f"(take it back) or 'reject dispute {number}'" +
                    ("; the arbiter then rules." if ARBITER in seats else "."))
            self.mailroom.message(member["email"], game_id, f"Dispute {number} on event {order_seq}", text, seat)

    def _answered(self, game_id: str, p: dict, dispute: dict, seats: dict[str, dict], retraction: int | None) -> None:
        number, status, note, by = p["dispute"], p["status"], p["note"], p["by"]
        if status == "referred":
            if ARBITER in seats:
                self.mailroom.message(
                    seats[ARBITER]["email"], game_id, f"Dispute {number} needs your ruling",
                    f"{dispute['raised_by']} disputes event {dispute['order_seq']}: {quoted(dispute['reason'])}\n{by} "
                    f"rejects it{': ' + quoted(note) if note else ''}.\nReply 'uphold dispute {number}' or 'reject "
                    f"dispute {number}'.",
                    ARBITER)
            return
        text = f"Dispute {number} on event {dispute['order_seq']} is {status} by {by}" + (
            f": {quoted(note)}" if note else ".")
        if retraction:
            text += f"\nEvents {dispute['order_seq']} onwards are retracted (event {retraction}); the log keeps them."
        for seat, member in seats.items():
            self.mailroom.message(member["email"], game_id, f"Dispute {number} {status}", text, seat)


class DeadlineNotices:
    """A passed deadline: with the server's passes, every seat is told what it gave; without, the arbiter (or,
    without one, every seat) is told who has not moved and what the game's rule says."""

    name = "deadlines"

    def __init__(self, store: Store, mailroom: Mailroom):
        self.store = store
        self.mailroom = mailroom

    def react(self, game_id: str, events: list[StoredEvent]) -> None:
        for i, e in enumerate(events):
            if e.type != "core.DeadlinePassed":
                continue
            seats = members(self.store, game_id)
            p = e.payload
            late = seats.get(p["side"])
            if late is None:
                continue
            passed = [f.payload["text"] for f in _run_of(events[i + 1:], DEADLINE_ACTOR)
                      if f.type == "core.OrderGiven"]
            if passed:
                text = (f"{p['side']} ({late['email']}) did not move in game {game_id} by the deadline, {p['due']}. "
                        f"As this game's deadline rule says (auto-pass), the server gave "
                        f"{', '.join(repr(x) for x in passed)} for {p['side']}, as '{DEADLINE_ACTOR}'.")
                for seat, member in seats.items():
                    self.mailroom.message(member["email"], game_id,
                                          f"Deadline passed: the server passed for {p['side']}", text, seat)
                continue
            action = p["note"] or p["action"]
            to = {ARBITER: seats[ARBITER]} if ARBITER in seats else seats
            for seat, member in to.items():
                self.mailroom.message(member["email"], game_id, f"Deadline passed: {p['side']} has not moved",
                                      f"{p['side']} ({late['email']}) has not moved in game {game_id}; the deadline "
                                      f"was {p['due']}. Action: {action}.", seat)


class StallNotices:
    """An automated seat that can give no order (core.SeatStalled, app/service/autoplay.py): every seat, the
    arbiter too, is told which side, its policy, what went wrong (the event's fixed text, never the cause's
    message) and that the game waits for the arbiter."""

    name = "stalls"

    def __init__(self, store: Store, mailroom: Mailroom):
        self.store = store
        self.mailroom = mailroom

    def react(self, game_id: str, events: list[StoredEvent]) -> None:
        stalls = [e for e in events if e.type == "core.SeatStalled"]
        if not stalls:
            return
        seats = members(self.store, game_id)
        for e in stalls:
            p = e.payload
            text = (f"The automated {p['side']} ({p['policy']}) cannot give an order in game {game_id} (event "
                    f"{e.seq}): {p['problem']}. The game waits for the arbiter, who may fork it or take the seat "
                    "over; the operator's log has the detail.")
            for seat, member in seats.items():
                self.mailroom.message(member["email"], game_id, f"Game {game_id} waits: the automated "
                                                                 f"{p['side']} cannot give an order", text, seat)


def _run_of(events: list[StoredEvent], actor: str) -> list[StoredEvent]:
    """The events from the start of `events` written by `actor` (a deadline's passes follow its record)."""
    run = []
    for e in events:
        if e.actor != actor:
            break
        run.append(e)
    return run
