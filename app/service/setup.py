"""Setting games up: create one with its seats, take a seat (join), branch one (fork). Who is told is not decided
here: the new game's raw tokens are held for the invitation subscriber (app/service/notices.py), which queues the
invitations and deletes them in one transaction (docs/reactions.md)."""
from __future__ import annotations

from app.events.interface import Store
from app.events.store import utc_now
from app.rules import practice
from app.rules.base import Catalog
from app.service import clocks, games
from app.service.errors import AccessDenied, PbemError
from app.service.orders import Orders
from app.service.reads import Reads
from app.service.receipts import Receipts
from app.service.seats import ARBITER, Credentials, Seat, fork_seats, hash_token, new_token, player
from app.service.writes import Writes

DEADLINE_ACTIONS = clocks.TIMEOUT_ACTIONS


class Setup:
    """Games made and joined, on one store."""

    def __init__(self, store: Store, catalog: Catalog, writes: Writes, credentials: Credentials, reads: Reads,
                 orders: Orders,
                 receipts: Receipts):
        self.store = store
        self.catalog = catalog
        self.writes = writes
        self.credentials = credentials
        self.reads = reads
        self.orders = orders
        self.receipts = receipts

    def create(self, rules_name: str, players: dict[str, str], scenario: str | None = None,
               arbiter: str | None = None, deadline_hours: float | None = None,
               reminder_hours: float | None = None, dispute_window_hours: float = 24,
               options: dict | None = None, on_deadline: str = "notify-arbiter",
               auto: dict | list | None = None, bank_hours: float | None = None,
               increment_hours: float | None = None, max_hours: float | None = None,
               vacation_days: int | None = None) -> tuple[str, dict[str, str]]:
        """Create a game with a seat per side (and the arbiter's); each seat is invited with its token (a
        reaction). `auto`: the sides the server plays (app/service/autoplay.py; None: the rule set's own), which
        take no player. The clock (app/service/clocks.py): `deadline_hours` a turn, or a time bank of
        `bank_hours` with `increment_hours` after each turn up to `max_hours`; `vacation_days` each player may
        take; `on_deadline`, what a clock that runs out does. Returns the game id and the tokens (shown once; only
        their hashes are kept)."""
        rules = self.catalog.rules(rules_name)
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
        clock = clocks.checked(bank_hours, increment_hours, max_hours, vacation_days, deadline_hours)
        seats = dict(players)
        if arbiter:
            seats[ARBITER] = arbiter
        tokens = {seat: new_token() for seat in seats}
        now = utc_now()
        self.credentials.server_secret()  # the invitations' reply tags need it: made before the game, never after it
        self.receipts.signer()  # and their receipt key, likewise
        with self.writes():  # the game, its seats and its invitations' tokens, or none of them
            game_id = games.create_game(self.store, self.catalog, rules.name, scenario, options, auto=automated)
            self.store.add_pbem_game(game_id, {
                "deadline_hours": deadline_hours, "reminder_hours": reminder_hours,
                "dispute_window_hours": dispute_window_hours, "on_deadline": on_deadline, "created_at": now,
                "clock": clock.to_json(), "clock_state": clocks.first_state(clock, list(rules.sides))},
                [{"seat": seat, "email": email, "token_hash": hash_token(tokens[seat]), "created_at": now}
                 for seat, email in seats.items()])
            self.store.hold_invitations(game_id, tokens)
            self.writes.wrote(game_id)
        return game_id, tokens

    def join(self, seat: Seat, seed_text: str = "", name: str | None = None) -> dict:
        """Take the seat's side, with the player's seed text; the last player in may let an automated side open
        the game (its orders answer here)."""
        with self.writes.group():
            with self.writes(seat.game_id):
                event = games.join(self.store, self.catalog, seat.game_id, player(seat), name or seat.email, seed_text)
            self.orders.answer_automated(seat)
        return {"seq": event.seq, "side": seat.seat, "seed_text": event.payload["seed_text"]}

    def fork(self, seat: Seat, at_seq: int, invite: bool = True) -> tuple[str, dict[str, str]]:
        """A branch after event `at_seq`; the caller gets every seat's token for it. The arbiter's fork goes on
        with the game's players: each seat keeps its address and settings and is invited (a reaction; a reply to
        the invitation plays in the fork), unless `invite` is False: then, like a player's fork of a finished game
        (a fork of a running one would show them the other side's hidden information), it is the caller's
        sandbox, every seat at the caller's address, nobody invited."""
        if not self.reads.sees_all(seat):
            raise AccessDenied("only the arbiter may fork a game before it ends")
        sandbox = not (seat.is_arbiter and invite)
        with self.writes():  # the branch, its seats and its invitations' tokens, or none of them
            new_id = games.fork(self.store, seat.game_id, at_seq)
            tokens = fork_seats(self.store, self.catalog, seat.game_id, new_id, seat.email if sandbox else None)
            clock = clocks.Settings.of(self.store.pbem_settings(new_id) or {})
            if clock.bank:  # the fork's banks start full, as a new game's
                sides = list(self.reads.rules_of(new_id).sides)
                self.store.update_pbem_game(new_id, {"clock_state": clocks.first_state(clock, sides)})
            self.writes.wrote(new_id)
        return new_id, tokens

