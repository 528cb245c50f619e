"""Seats and credentials: a game's seats and settings, tokens, reply tags and replay keys (`Credentials`), and the
seat bookkeeping every use case shares (`mark_seen`, `player`, `members`, `settings`). A player's seat is their
side; the arbiter's seat sees everything (side None)."""
from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from app.events.interface import Store
from app.events.store import UnknownGame, utc_now
from app.rules.base import Catalog
from app.service.errors import AccessDenied, NotAuthenticated, PbemError
from app.service.ports import Mail

ARBITER = "arbiter"
FORK_KEEPS = ("deadline_hours", "reminder_hours", "dispute_window_hours", "on_deadline", "clock")  # a fork's settings
LOCAL_SERVER = "http://127.0.0.1:8080/"  # where `cli.py serve` listens by default


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


class Credentials:
    """Who holds which seat, and how a request proves it (token, reply tag, replay key); the keys and links made
    from the server secret. `mail`: the public address links are made on (Mail.public_url)."""

    def __init__(self, store: Store, catalog: Catalog, mail: Mail | None = None, secret: str | None = None):
        self.store = store
        self.catalog = catalog
        self.mail = mail
        self._secret = (secret or "").encode("utf-8") or None

    def server_secret(self) -> bytes:
        """The key of the reply tags: `secret` (HEXLEDGER_SECRET) if given, else a random one made on first use
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
        return [ARBITER, *self.catalog.rules(rules).sides]

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
        base = (server or self.public_url or LOCAL_SERVER).rstrip("/")
        return f"{base}/replay/{game_id}/?key={self.owner_key(game_id, seat)}"

    @property
    def public_url(self) -> str | None:
        return self.mail.public_url if self.mail is not None else None

    def viewer_key(self, seat: Seat) -> str:
        """The key the replay cookie holds for this seat: its owner key, or its player's replay key."""
        return self.owner_key(seat.game_id, seat.seat) if seat.owner else self.replay_key(seat.game_id, seat.seat)
    def replay_link(self, game_id: str, seat: str) -> str | None:
        """The seat's link to the replay viewer, if the server knows its public address (HEXLEDGER_PUBLIC_URL)."""
        if not self.public_url:
            return None
        return f"{self.public_url.rstrip('/')}/replay/{game_id}/?key={self.replay_key(game_id, seat)}"

    def play_key(self, game_id: str, seat: str) -> str:
        """HMAC-SHA256(server secret, game id, seat, the seat's token hash), 128 bits as hex, of another purpose than
        the replay key: it opens the play page (app/web/play.py) as that seat, whose orders it may give, as a reply
        to the seat's game email may (docs/playing-in-the-browser.md, "The play link"). Recomputed for every email;
        it changes with the seat's token."""
        member = self.members(game_id).get(seat)
        if member is None:
            raise AccessDenied(f"game {game_id} has no seat {seat!r}")
        return self._play_key(game_id, seat, member["token_hash"])

    def _play_key(self, game_id: str, seat: str, token_hash: str) -> str:
        mac = hmac.new(self.server_secret(), f"play-key\x00{game_id}\x00{seat}\x00{token_hash}".encode(),
                       hashlib.sha256)
        return mac.hexdigest()[:32]

    def authenticate_play_key(self, game_id: str, key: str | None) -> Seat:
        """The seat whose play key this is; compared in constant time against every seat's key. No owner's key
        opens the play page: a game made on the command line has no player to give its orders."""
        return self._seat_by(game_id, key, "play key",
                             lambda row: self._play_key(game_id, row["seat"], row["token_hash"]),
                             "no play key: open the play link from your game email, or give your seat's token")

    def play_link(self, game_id: str, seat: str) -> str | None:
        """The seat's link to the play page, if the server knows its public address (HEXLEDGER_PUBLIC_URL)."""
        if not self.public_url or seat == ARBITER:
            return None
        return f"{self.public_url.rstrip('/')}/play/{game_id}/?key={self.play_key(game_id, seat)}"

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
        for row in self.store.credentials(game_id):  # no rows: no such game, or one without seats
            if hmac.compare_digest(expected(row).encode(), wanted):
                found = row
        if found is None:
            raise AccessDenied(f"this {what} opens no seat in game {game_id!r}")
        return Seat(game_id, found["seat"], found["email"])

    def members(self, game_id: str) -> dict[str, dict]:
        return members(self.store, game_id)


def members(store: Store, game_id: str) -> dict[str, dict]:
    """A game's seats by name."""
    return {r["seat"]: r for r in store.members(game_id)}


def settings(store: Store, game_id: str) -> dict:
    """A play-by-email game's settings (PbemError: a game made on the command line has none)."""
    found = store.pbem_settings(game_id)
    if found is None:
        raise PbemError(f"game {game_id} is not a play-by-email game")
    return found


def mark_seen(store: Store, seat: Seat, seq: int) -> None:
    """Record that a seat read the game up to event `seq`: undo is refused once the opponent saw an order, and
    every read of a position counts (state, `state?at=`, history, export, preview, the replay and its frames, maps
    and analysis, turn emails). A read whose seeing cannot be recorded (locked database, full disk) fails with
    StoreUnavailable rather than show it. The database's owner (`owner_key`) is no player: their reads count as
    no seat's."""
    if not seat.owner:
        store.mark_seen(seat.game_id, seat.seat, seq)


def player(seat: Seat) -> str:
    """The side a seat plays (AccessDenied for the arbiter's)."""
    if seat.is_arbiter:
        raise AccessDenied("the arbiter does not play a side")
    return seat.seat


def fork_seats(store: Store, catalog: Catalog, parent_id: str, new_id: str,
               sandbox: str | None = None) -> dict[str, str]:
    """The seats of the fork `new_id` of `parent_id` and their new tokens, in the caller's transaction. Without
    `sandbox`, the game's players go on in it: each seat keeps its address and the game's settings, and its
    invitation's token is held for the invitation subscriber; with it, every seat is at that address (the caller's
    own sandbox) and nobody is invited."""
    parent = members(store, parent_id)
    seats = [*catalog.rules(store.game(parent_id)["rules"]).sides, ARBITER]
    tokens = {s: new_token() for s in seats}
    address = {s: sandbox if sandbox or s not in parent else parent[s]["email"] for s in seats}
    kept = {} if sandbox else {k: v for k, v in (store.pbem_settings(parent_id) or {}).items() if k in FORK_KEEPS}
    now = utc_now()
    store.add_pbem_game(new_id, {**kept, "created_at": now}, [
        {"seat": s, "email": address[s], "token_hash": hash_token(t), "created_at": now} for s, t in tokens.items()])
    if not sandbox:
        store.hold_invitations(new_id, {s: t for s, t in tokens.items() if s in parent})
    return tokens
