"""Play by email: the service's one door for a game's seats, as the class `Pbem`, made of its concerns: seats and
credentials (seats.py), a seat's table of reads and orders (table.py), disputes (disputes.py), mail (mailing.py) and
deadlines (deadlines.py).

Every output to a seat goes through `rules.view(state, side)` and the per-side history filter (the rule set's
optional `visible` hook): views, histories, exports and every email are built in these modules, from those two
functions only. A player's seat is their side; the arbiter's seat sees everything (side None).
"""
from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime

from app.events.backends import open_store
from app.events.interface import Store
from app.events.store import default_db_path
from app.projections import state as projection
from app.service import games
from app.service.deadlines import DEADLINE_ACTOR, PASS_ACTIONS, Deadlines
from app.service.disputes import Disputes
from app.service.errors import AccessDenied, NotAuthenticated, PbemError
from app.service.mailing import Mailing
from app.service.ports import Mail, Notifier, Transport
from app.service.seats import ARBITER, DEADLINE_ACTIONS, Seat, Seats, hash_token, new_token
from app.service.table import Table

__all__ = ["ARBITER", "DEADLINE_ACTIONS", "DEADLINE_ACTOR", "PASS_ACTIONS", "AccessDenied", "NotAuthenticated",
           "Pbem", "PbemError", "Seat", "default_db_path", "hash_token", "new_token"]


def _now() -> datetime:
    return datetime.now(UTC)


class Pbem(Seats, Table, Disputes, Mailing, Deadlines):
    """The play-by-email service on one store connection (one per thread); its concerns are its bases."""

    def __init__(self, store: Store, config: Mail, transport: Transport | None = None,
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

    def games(self, after: str | None = None, limit: int | None = None, finished_only: bool = False) -> list[dict]:
        """The games on this server (games.listed)."""
        return games.listed(self.store, after, limit, finished_only)

    @classmethod
    def open(cls, db_path: str, config: Mail, transport: Transport | None = None, busy_timeout: float = 30.0,
             **options) -> Pbem:
        """The service on its own connection to the database at `db_path`, a SQLite file or a postgresql:// URL (one
        per thread)."""
        return cls(open_store(db_path, busy_timeout=busy_timeout), config, transport, **options)


def sender_round(db_path: str, config: Mail, busy_timeout: float, secret: str | None) -> Callable[[], datetime | None]:
    """A sender's round (`Pbem.mail_round`) on a service of its own: what the outbox's sender process makes when it
    starts (outbox.SenderProcess; module-level, so it can be handed to the process)."""
    return Pbem.open(db_path, config, busy_timeout=busy_timeout, secret=secret).mail_round
