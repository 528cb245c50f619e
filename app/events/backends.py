"""Which event store a database location names (`--db`, HEXLEDGER_DB): a postgresql:// URL is PostgreSQL (for
several server processes or machines on one database), anything else a SQLite file (the embedded default). One
store either way (app/events/store.py), its parts written once over the dialect of the backend."""
from __future__ import annotations

from app.events.interface import Store
from app.events.location import is_url, shown
from app.events.store import EventStore

__all__ = ["is_url", "open_store", "shown"]


def open_store(location: str, busy_timeout: float = 30.0, snapshot_every: int = 50) -> Store:
    """The store at `location`, a SQLite file or a postgresql:// URL (EventStore)."""
    return EventStore(location, busy_timeout=busy_timeout, snapshot_every=snapshot_every)
