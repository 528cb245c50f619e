"""The application service: the one door the command line, the HTTP API and email come through (hexagonal
architecture, docs/architecture.md practice 13). The adapters import this module (and app.service.errors and
app.service.ports) and nothing else of the service; lint-imports holds them to it.

An `Application` is one object per use-case family, each built here with what it needs passed in (the store, the
rules catalog, the clock, the notifier, the settings: app/settings.py), on one store connection (one per thread):

    seats      Credentials  tokens, reply tags, replay and owner keys and links
    setup      Setup        create, join, fork
    orders     Orders       submit / order, several from one email (play), preview, undo
    standing   StandingOrders  a seat's standing orders: set, shown (app/rules/standing.py)
    reads      Reads        view, prompt, history, export, verify, the replay's reads
    disputes   Disputes     raise, answer, rule
    deadlines  Deadlines    tick: reminders, passed deadlines, the catch-ups
    clocks     Clocks       a seat's clock: shown, vacation, resign, draw offered and answered
    mailroom   Mailroom     the outbox: direct answers, delivery (email, and the players' channels), the record
                            of incoming mail
    reactions  Reactor      the subscribers that derive every notice from the stored events (docs/reactions.md)
    talk       Talk         table talk: say, and an email's lines sorted into orders and talk
    letters    Letters      what a seat is told (its report): turn emails, answers, the API's answer to an order
    players    Players      the player's page, sign-in by mailed link, notification channels (docs/players.md)
    boards     Boards       analysis boards: open one on a game, its orders with chosen dice, edits, a policy's play

Every write goes through one `Writes` (app/service/writes.py): after its commit, the reactions to the games it
wrote run and their mail goes (inline), or `notifier` is kicked (`serve`'s sender process runs them).
The operator's console (`Console`, app/service/console.py) is the command line's: no seats, no mail.
A program's composition root (create_app, the command line, the sender process) reads the settings once and calls
`size_caches` with them: the caches are the process's, shared by its threads' services. It makes the rules catalog
once too (`installed`: the rule sets installed here, app/rules/catalog.py) and passes it to every service it opens;
this module is the only one of the service that imports the catalog's module (lint-imports).
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from app.events.backends import open_store, sync_to_disk
from app.events.interface import Store
from app.projections import cache
from app.rules.base import Catalog
from app.rules.catalog import installed
from app.service import audit, evidence, receipts, replays
from app.service.boards import Boards
from app.service.clock_records import ClockRecords
from app.service.clocks import Clocks
from app.service.console import Console
from app.service.deadlines import PASS_ACTIONS, Deadlines
from app.service.disputes import Disputes
from app.service.games import rule_sets
from app.service.letters import Letters
from app.service.mailroom import Mailroom
from app.service.notices import (
    DEADLINE_ACTOR,
    DeadlineNotices,
    DisputeNotices,
    Invitations,
    StallNotices,
    TurnEmails,
    answered_by_standing,
    boundaries,
)
from app.service.notifications import Delivery, Routes, TurnNotifications
from app.service.orders import Orders
from app.service.outbox import BackgroundSender, SenderProcess
from app.service.player_keys import PlayerKeys
from app.service.players import SIGN_IN_MINUTES, GameRow, Players
from app.service.ports import Mail, Notifier, Transport
from app.service.reactions import Dispatch, Reactor
from app.service.reads import Reads
from app.service.receipts import Receipts
from app.service.seats import ARBITER, Credentials, Seat, hash_token, new_token
from app.service.setup import DEADLINE_ACTIONS, Setup
from app.service.standing import StandingOrders
from app.service.talk import Talk
from app.service.writes import Writes
from app.settings import Settings

__all__ = ["ARBITER", "DEADLINE_ACTIONS", "DEADLINE_ACTOR", "PASS_ACTIONS", "SIGN_IN_MINUTES", "SUBSCRIBERS",
           "Application", "BackgroundSender", "Console", "GameRow", "Seat", "SenderProcess", "Settings", "evidence",
           "hash_token", "installed", "new_token", "receipts", "replays", "rule_sets", "sender_round", "size_caches"]

SUBSCRIBERS = tuple(s.name for s in (Invitations, TurnEmails, DisputeNotices, DeadlineNotices,
                                     TurnNotifications, StallNotices, ClockRecords))  # in their order


def _now() -> datetime:
    return datetime.now(UTC)


class Application:
    """The use-case families on one store connection (one per thread, as the store is)."""

    def __init__(self, store: Store, mail: Mail, transport: Transport | None = None,
                 clock: Callable[[], datetime] = _now, notifier: Notifier | None = None,
                 settings: Settings | None = None, catalog: Catalog | None = None):
        """`mail`: outgoing mail (the port app/mail's MailConfig implements); `transport`: where it goes (default:
        the one `mail` names); `notifier`: told after each write (`serve`'s sender); without one, a write's
        reactions run and their mail is delivered right after its commit, in the caller's thread; `settings`: the
        keys (the reply tags' secret, the receipt key; default: each made once and kept in the database) and how long
        the outbox keeps superseded mail; `catalog`:
        the rule sets it runs (default: those installed, `installed()`)."""
        settings = settings or Settings()
        catalog = catalog or installed()
        self.store = store
        self.catalog = catalog
        self.mail = mail
        self.settings = settings
        self.seats = Credentials(store, catalog, mail, settings.secret)
        self.receipts = Receipts(store, catalog, settings.receipt_key, settings.receipt_retired)
        self.reads = Reads(store, catalog, self.receipts)
        self.letters = Letters(store, catalog, self.reads, self.seats, mail, self.receipts)
        keys = PlayerKeys(self.seats)
        channels = mail.channels()
        self.mailroom = Mailroom(store, mail, Routes(transport or mail.transport(), channels), clock,
                                 Delivery(store, catalog, keys, self.letters),
                                 timedelta(days=settings.outbox_keep_days))
        self.reactions = Reactor(store, [Invitations(store, catalog, self.mailroom, self.seats, self.receipts),
                                         TurnEmails(store, catalog, self.mailroom),
                                         DisputeNotices(store, self.mailroom, self.reads),
                                         DeadlineNotices(store, self.mailroom),
                                         TurnNotifications(store, catalog, self.mailroom),
                                         StallNotices(store, self.mailroom),
                                         ClockRecords(store, catalog, self.mailroom, boundaries, answered_by_standing)])
        self.writes = Writes(store, Dispatch(self.reactions, self.mailroom, notifier))
        self.orders = Orders(store, catalog, self.writes, self.receipts, self.letters.report)
        self.standing = StandingOrders(store, catalog, self.writes, self.orders)
        self.talk = Talk(store, catalog, self.writes, self.receipts)
        self.setup = Setup(store, catalog, self.writes, self.seats, self.reads, self.orders, self.receipts)
        self.boards = Boards(store, catalog, self.writes, self.reads)
        self.disputes = Disputes(store, self.writes, clock)
        self.deadlines = Deadlines(store, catalog, self.writes, clock, self.reactions, self.mailroom)
        self.clocks = Clocks(store, catalog, self.writes, clock)
        self.players = Players(store, catalog, self.writes, self.seats, keys, self.mailroom, channels, clock)

    @classmethod
    def open(cls, settings: Settings | str, mail: Mail, transport: Transport | None = None,
             **options) -> Application:
        """The service on its own connection (one per thread) to the database the settings name (`settings.db`, a
        SQLite file or a postgresql:// URL; a location alone: the default settings on it)."""
        settings = settings if isinstance(settings, Settings) else Settings(db=settings)
        if settings.fsync is not None:
            sync_to_disk(settings.fsync)
        store = open_store(settings.db, busy_timeout=settings.busy_timeout, snapshot_every=settings.snapshot_every)
        return cls(store, mail, transport, settings=settings, **options)

    def sender_round(self) -> datetime | None:
        """One round of a background sender: every reaction some game is behind on, then the mail that is due;
        returns when the next mail falls due."""
        self.reactions.catch_up()
        self.mailroom.deliver()
        return self.mailroom.next_due()


def sender_round(settings: Settings, mail: Mail) -> Callable[[], datetime | None]:
    """A sender's round (`Application.sender_round`) on a service of its own: what the outbox's sender process makes
    when it starts (outbox.SenderProcess; module-level, so it can be handed to the process with the server's
    settings)."""
    size_caches(settings)
    return Application.open(settings, mail).sender_round


def size_caches(settings: Settings) -> None:
    """The process's caches (each shared by every thread's service) sized as the settings say: folded states,
    state reads' answers, verify reports, replays, replay access, replay builds at once."""
    cache.STATES.capacity = settings.state_cache
    cache.VIEWS.capacity = settings.view_cache
    audit.REPORTS.capacity = settings.audit_cache
    replays.KEPT.capacity = settings.replay_cache
    replays.OPEN.capacity = settings.replay_access_cache
    replays.BUILDS.max_builds = settings.replay_builds
