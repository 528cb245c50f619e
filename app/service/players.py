"""The player's page and their channels (docs/players.md): a player is their email address, which their seats
carry. `Players` lists every game of an address across the server (whose turn, what they owe, the deadline, open
or over, table talk not yet read), signs a browser in by a link mailed to the address, and sets each seat's
notification channel (from the page, or a `notify:` line in an email: app/mail/inbound.py).

Fog: a game's row says what that seat's prompt says (whose turn and the step, which every seat is shown; what is
owed only to the seat that owes it; the result once it is over), when the turn of the side to act runs out (as
every turn email of the game says it) and the seat's own clock as its turn email words it, nothing of the
position. Showing it counts as a read of the game (`seats.mark_seen`): undo is refused after it, as after any read.

Sign-in links: a request names an address; only an address that holds a seat here is mailed, at most once a period
per mailbox, the period and the clock shared with ingest's answers to strangers (app/service/strangers.py), so no
one can make the server mail an address more than once a period; and whatever happened, the request's answer is
the same. A link's code is single use, expires after SIGN_IN_MINUTES and opens the page of the address it was
mailed to; the server keeps its hash only.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from app.events.interface import Store
from app.events.store import utc_text
from app.projections import state as projection
from app.projections.sight import sees_all
from app.rules.base import Catalog
from app.service import clocks, talk
from app.service.errors import AccessDenied, PbemError
from app.service.mailroom import Mailroom
from app.service.player_keys import PAGE_PATH, PlayerKeys, address, code_hash, new_code
from app.service.ports import ChannelRefused, Channels
from app.service.seats import LOCAL_SERVER, Credentials, Seat, mark_seen, members
from app.service.writes import Writes

SIGN_IN_MINUTES = 15
ADDRESS = re.compile(r"[^\s@<>()\[\]\\,;:\"]{1,64}@[^\s@<>()\[\]\\,;:\"]{1,255}")
SIGN_IN_ANSWER = ("If that address holds a seat in a game here, a sign-in link is on its way to it (one in {hours:g} "
                  "hour(s) at most). It works once, for {minutes} minutes.")


@dataclass(frozen=True)
class GameRow:
    """One seat's game as its player's page shows it (the seat's prompt, never the position)."""

    game_id: str
    seat: str
    title: str
    scenario: str
    over: bool
    result: str | None  # "winner: reason" once over
    to_act: str | None
    your_turn: bool
    step: str
    owed: str | None  # only the seat's own
    waiting_for: tuple[str, ...]  # sides without a player yet
    deadline: str | None  # when the turn of the side to act runs out (UTC): its deadline or its time bank
    clock: str | None  # the seat's own clock in words, as its turn email says it (time bank, vacations, draw offer)
    channel: str | None  # the seat's notification channel, shown without its secrets
    unread_talk: int  # the others' table talk it may read that no email has told it yet
    replay: str  # the replay viewer, signed in as this seat (a path on this server)
    play: str | None  # the play page, signed in as this seat, which gives its orders (none for the arbiter)


class Players:
    """The player's page, sign-in by mailed link, and channel settings, on one store."""

    def __init__(self, store: Store, catalog: Catalog, writes: Writes, credentials: Credentials, keys: PlayerKeys,
                 mailroom: Mailroom, channels: Channels, clock: Callable[[], datetime]):
        self.store = store
        self.catalog = catalog
        self.writes = writes
        self.credentials = credentials
        self.keys = keys
        self.mailroom = mailroom
        self.channels = channels
        self.clock = clock

    # -- the page ---------------------------------------------------------------------------------------------
    def games(self, email: str) -> list[GameRow]:
        """Every seat `email` holds, newest game first, open games before finished ones."""
        rows = [self._row(Seat(s["game_id"], s["seat"], s["email"])) for s in self.store.seats_of(address(email))]
        return sorted(rows, key=lambda r: r.over)  # stable: newest first within each

    def _row(self, seat: Seat) -> GameRow:
        state = projection.load(self.store, self.catalog, seat.game_id)
        mark_seen(self.store, seat, state.meta.seq)
        rules = self.catalog.rules(state.meta.rules)
        outcome = rules.outcome(state.game)
        prompt = rules.prompt(state.game)
        missing = tuple(s for s in state.meta.sides if s not in state.meta.players)
        mine = outcome is None and not missing and seat.side is not None and prompt.side == seat.side
        settings = self.store.pbem_settings(seat.game_id) or {}
        channel = self.store.channels(seat.game_id).get(seat.seat)
        told = members(self.store, seat.game_id)[seat.seat]["last_notified_seq"]
        return GameRow(
            game_id=seat.game_id, seat=seat.seat, title=rules.title, scenario=self.store.game(seat.game_id)["scenario"],
            over=outcome is not None,
            result=f"{outcome.winner or 'a draw'}: {outcome.reason}" if outcome is not None else None,
            to_act=None if outcome is not None else prompt.side, your_turn=mine, step=prompt.step,
            owed=prompt.owed.to_dict()["text"] if mine and prompt.owed is not None else None,
            waiting_for=missing if outcome is None else (),
            deadline=_deadline(self.store, self.catalog, settings, prompt.side) if outcome is None else None,
            clock=None if outcome is not None else clocks.described(self.store, self.catalog, seat.game_id, seat.side,
                                                                    due=False),
            channel=self._shown(channel) if channel else None,
            unread_talk=talk.unread(self.store, seat, told, sees_all(seat.is_arbiter, rules, state.game)),
            replay=f"/replay/{seat.game_id}/?key={self.credentials.replay_key(seat.game_id, seat.seat)}",
            play=None if seat.is_arbiter else
            f"/play/{seat.game_id}/?key={self.credentials.play_key(seat.game_id, seat.seat)}")

    def _shown(self, url: str) -> str:
        try:
            return self.channels.checked(url)
        except ChannelRefused as exc:  # allowed when set, refused now (the operator's rule changed, a host moved)
            return f"(not called now: {exc})"

    # -- signing in -------------------------------------------------------------------------------------------
    def email_of(self, key: str | None) -> str:
        """The address a page key opens (PlayerKeys.email_of)."""
        return self.keys.email_of(key)

    def page_key(self, email: str) -> str:
        return self.keys.key(email)

    def request_sign_in(self, given: str, period: timedelta) -> str:
        """Mail a sign-in link to `given` if it holds a seat here and was not mailed (a link, or an answer to a
        stranger's email) in the last `period`; returns the answer, the same whatever happened."""
        answer = SIGN_IN_ANSWER.format(minutes=SIGN_IN_MINUTES, hours=period.total_seconds() / 3600)
        email = address(given)
        if not ADDRESS.fullmatch(email):
            raise PbemError("that is not an email address")
        with self.writes():
            if not self.store.seats_of(email) or not self.mailroom.may_answer_stranger(email, period):
                return answer
            code, now = new_code(), self.clock()
            self.store.keep_sign_in(code_hash(code), email, utc_text(now + timedelta(minutes=SIGN_IN_MINUTES)),
                                    utc_text(now))
            base = (self.credentials.public_url or LOCAL_SERVER).rstrip("/")
            self.mailroom.message(email, None, "Sign in to your games", (
                f"Someone (you, we hope) asked to sign in to {email}'s games on this server. This link signs a "
                f"browser in; it works once, within {SIGN_IN_MINUTES} minutes:\n  {base}{PAGE_PATH}sign-in?key={code}"
                "\n\nIf it was not you, ignore this email: nothing happens without the link."))
        return answer

    def sign_in(self, code: str | None) -> str:
        """The address a sign-in code was mailed to; the code is spent (AccessDenied: used, expired, or none)."""
        if not code:
            raise AccessDenied("no sign-in code: open the link from the sign-in email")
        with self.writes():
            email = self.store.take_sign_in(code_hash(code), utc_text(self.clock()))
        if email is None:
            raise AccessDenied("this sign-in link was used already or has expired: ask for a new one")
        return email

    # -- channels ---------------------------------------------------------------------------------------------
    def set_channel(self, seat: Seat, url: str | None) -> str | None:
        """The seat's channel beside email from now: `url` (an Apprise URL the server may call: PbemError saying
        why not, nothing changed) or None (email only). Returns the channel as shown (no secrets)."""
        return self._set([seat], url)

    def seats(self, email: str, game_id: str | None = None, seat: str | None = None) -> list[Seat]:
        """`email`'s seats: all, those of `game_id`, or that one seat (AccessDenied if the address holds none)."""
        held = [Seat(s["game_id"], s["seat"], s["email"]) for s in self.store.seats_of(address(email))
                if game_id is None or (s["game_id"] == game_id and (seat is None or s["seat"] == seat))]
        if not held:
            raise AccessDenied("you hold no such seat")
        return held

    def set_channels(self, email: str, url: str | None, game_id: str | None = None,
                     seat: str | None = None) -> str | None:
        """Set the channel of `email`'s seats (all of them, or those `seats` picks), all or none."""
        return self._set(self.seats(email, game_id, seat), url)

    def _set(self, seats: list[Seat], url: str | None) -> str | None:
        shown = None
        if url is not None:
            try:
                shown = self.channels.checked(url)
            except ChannelRefused as exc:
                raise PbemError(f"notify: {exc}; nothing was changed") from None
        with self.writes():
            for seat in seats:
                self.store.set_channel(seat.game_id, seat.seat, url.strip() if url else None, utc_text(self.clock()))
        return shown


def _deadline(store: Store, catalog: Catalog, settings: dict, to_act: str | None) -> str | None:
    """When the turn of the side to act runs out (UTC), if a clock runs for it now: its fixed deadline or its time
    bank, vacations left out (app/service/clocks.py `running`, as the turn emails say it)."""
    clock = clocks.running(store, catalog, settings) if settings and to_act else None
    return utc_text(clock.due) if clock is not None and clock.side == to_act else None

