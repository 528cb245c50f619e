"""The event store: every part of it (app/events/interface.py, Store) on one connection to one database, a SQLite
file (the embedded default) or a PostgreSQL database named by a postgresql:// URL. Each part is written once over
the dialect layer (app/events/dialect.py); this module puts them together and is what the rest of the program
imports of the store: EventStore, the events to append (NewEvent), the store's errors and its clock texts.

Guarantees, on both backends (docs/core.md, "Two store backends"; tests/core/test_contract_*.py): events are
append-only (triggers refuse UPDATE and DELETE) and hash-chained; a stale writer gets Conflict and nothing is
written; `transaction()` commits an order with its outbox rows or nothing; a write is on disk before it returns
(SQLite: an fsync of the WAL after the commit, shared by the writers that committed meanwhile; PostgreSQL:
synchronous_commit); a database that cannot take a write is StoreUnavailable."""
from __future__ import annotations

from app.events.dialect import Database
from app.events.envelope import NewEvent, seal, utc_now, utc_parse, utc_text
from app.events.errors import Conflict, NoPbemSettings, StoreError, StoreUnavailable, UnknownGame
from app.events.location import is_url, shown
from app.events.outbox import OutboxTables
from app.events.players import PlayerTables
from app.events.reactions import ReactionTables
from app.events.records import RecordTables
from app.events.seats import SeatTables
from app.events.snapshots import SnapshotTables
from app.events.sqlite import BackendError, SqliteDatabase, unavailable
from app.events.streams import StreamTables

__all__ = ["BackendError", "Conflict", "EventStore", "NewEvent", "NoPbemSettings", "StoreError", "StoreUnavailable",
           "UnknownGame", "connect", "seal", "unavailable", "utc_now", "utc_parse", "utc_text"]


class EventStore(StreamTables, SeatTables, OutboxTables, SnapshotTables, RecordTables, ReactionTables,
                 PlayerTables):
    """The store at `location` (a SQLite file or a postgresql:// URL), opened and migrated; a write waits up to
    `busy_timeout` seconds for another writer's lock; a loader saves a snapshot every `snapshot_every` events
    (app/projections/state.py). Its parts share only the connection (`db`): none calls another."""

    def __init__(self, location: str, busy_timeout: float = 30.0, snapshot_every: int = 50):
        super().__init__(connect(location, busy_timeout))
        self.snapshot_every = snapshot_every


def connect(location: str, busy_timeout: float = 30.0) -> Database:
    """The dialect's connection for a location: a postgresql:// URL is PostgreSQL, anything else a SQLite file."""
    if not is_url(location):
        return SqliteDatabase(location, busy_timeout)
    try:
        from app.events.postgres import PostgresDatabase
    except ImportError as exc:
        raise StoreUnavailable("cannot open the database: its driver is not installed; nothing was written",
                               "refused", f"{shown(location)} is a PostgreSQL database, and PostgreSQL needs psycopg "
                               f"({exc}): pip install 'hexledger[postgres]'") from exc
    return PostgresDatabase(location, busy_timeout)
