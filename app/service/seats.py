"""Seats and credentials: a game's seats and settings, tokens, reply tags and replay keys (a concern of
`app.service.pbem.Pbem`). A player's seat is their side; the arbiter's seat sees everything (side None)."""
from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from app.events.store import UnknownGame, utc_now
from app.rules import practice
from app.rules.catalog import get_rules
from app.service import games, receipts
from app.service.errors import AccessDenied, NotAuthenticated, PbemError

ARBITER = "arbiter"
LOCAL_SERVER = "http://127.0.0.1:8080/"  # where `cli.py serve` listens by default
DEADLINE_ACTIONS = ("notify-arbiter", "auto-pass")


@dataclass(frozen=True)
class Seat:
    game_id: str
    seat: str
    email: str
    owner: bool = False  # the database's owner viewing as this seat (`owner_key`), not its player

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


class Seats:
    """Who holds which seat, and how a request proves it (token, reply tag, replay key)."""

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
        return self._seat_by(game_id, tag, "reply address", lambda row: self.reply_tag(game_id, row["seat"]),
                             "no token line and no reply tag: reply to a game email, or add 'token: ...'")
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
        """The seat whose replay key this is, or the view an owner's key opens (`owner_key`); compared in constant
        time against every seat's key and every view's owner key."""
        if key:
            found = None
            for view in self._views(game_id):
                if hmac.compare_digest(self.owner_key(game_id, view).encode(), key.strip().lower().encode()):
                    found = view
            if found is not None:
                return Seat(game_id, found, "", owner=True)
        return self._seat_by(game_id, key, "replay key",
                             lambda row: self._replay_key(game_id, row["seat"], row["token_hash"]),
                             "no replay key: open the replay link from your game email")

    def _views(self, game_id: str) -> list[str]:
        """The seats a game's viewer can be opened as: the arbiter (everything) and each side; none for no game."""
        try:
            rules = self.store.game(game_id)["rules"]
        except UnknownGame:
            return []
        return [ARBITER, *get_rules(rules).sides]

    def owner_key(self, game_id: str, seat: str) -> str:
        """HMAC-SHA256(server secret, game id, seat), 128 bits as hex: opens the replay viewer of this game as this
        seat (a side, or ARBITER: the referee's view) for whoever holds the database, in which the secret is
        kept (or HEXLEDGER_SECRET), and so can read every game in it anyway: a game made on the command line has
        no seats, so no player's key. Like a replay key it opens the viewer only and gives no orders; unlike one,
        it names no player, so what it reads marks no seat as having seen the game."""
        mac = hmac.new(self.server_secret(), f"owner-view\x00{game_id}\x00{seat}".encode(), hashlib.sha256)
        return mac.hexdigest()[:32]

    def owner_link(self, game_id: str, side: str | None = None, server: str | None = None) -> str:
        """The link that opens the viewer of `game_id` as `side` (None: the referee's view) on `server` (default:
        HEXLEDGER_PUBLIC_URL, else where `cli.py serve` listens by default)."""
        views = self._views(game_id)
        if not views:
            raise UnknownGame(game_id)
        seat = ARBITER if side is None else side
        if side is not None and side not in views[1:]:
            raise PbemError(f"no side {side!r} in game {game_id}; sides: {', '.join(views[1:])}")
        base = (server or self.config.public_url or LOCAL_SERVER).rstrip("/")
        return f"{base}/replay/{game_id}/?key={self.owner_key(game_id, seat)}"

    def viewer_key(self, seat: Seat) -> str:
        """The key the replay cookie holds for this seat: its owner key, or its player's replay key."""
        return self.owner_key(seat.game_id, seat.seat) if seat.owner else self.replay_key(seat.game_id, seat.seat)
    def replay_link(self, game_id: str, seat: str) -> str | None:
        """The seat's link to the replay viewer, if the server knows its public address (HEXLEDGER_PUBLIC_URL)."""
        if not self.config.public_url:
            return None
        return f"{self.config.public_url.rstrip('/')}/replay/{game_id}/?key={self.replay_key(game_id, seat)}"

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
        receipts.signer(self.store)  # and their receipt key, likewise
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
        return self._seat_by(game_id, token, "token", lambda row: row["token_hash"],
                             "a token is needed: 'Authorization: Bearer <token>' (from your invitation)", hash_token)

    def _seat_by(self, game_id: str, given: str | None, what: str, expected: Callable[[dict], str], missing: str,
                 presented: Callable[[str], str] = lambda text: text.strip().lower()) -> Seat:
        """The seat whose credential (`what`) `given` is: `presented(given)` against every seat's `expected(row)`,
        each compared in constant time. None given: NotAuthenticated(`missing`). A game that does not exist is
        refused in the same words as one the credential opens no seat of: no refusal tells a stranger which game ids
        exist (issue 25)."""
        if not given:
            raise NotAuthenticated(missing)
        wanted = presented(given).encode()
        found = None
        for row in self.store.members(game_id):  # no rows: no such game, or one without seats
            if hmac.compare_digest(expected(row).encode(), wanted):
                found = row
        if found is None:
            raise AccessDenied(f"this {what} opens no seat in game {game_id!r}")
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
        fails with StoreUnavailable rather than show it. The database's owner (`owner_key`) is no player: their
        reads count as no seat's."""
        if not seat.owner:
            self.store.mark_seen(seat.game_id, seat.seat, seq)

    def _player(self, seat: Seat) -> str:
        if seat.is_arbiter:
            raise AccessDenied("the arbiter does not play a side")
        return seat.seat
