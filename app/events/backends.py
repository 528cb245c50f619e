"""Which event store a database location names (`--db`, HEXLEDGER_DB): a postgresql:// URL is PostgreSQL (for
several server processes or machines on one database), anything else a SQLite file (the embedded default). One
store either way (app/events/store.py), its parts written once over the dialect of the backend."""
from __future__ import annotations

from app.events.interface import Store
from app.events.location import is_url, shown
from app.events.sqlite import GroupCommit
from app.events.store import EventStore

__all__ = ["is_url", "open_store", "shown", "sync_to_disk"]


def open_store(location: str, busy_timeout: float = 30.0, snapshot_every: int = 50) -> Store:
    """The store at `location`, a SQLite file or a postgresql:// URL (EventStore)."""
    return EventStore(location, busy_timeout=busy_timeout, snapshot_every=snapshot_every)


def sync_to_disk(on: bool) -> None:
    """Whether this process's SQLite commits wait for an fsync before they are acknowledged (HEXLEDGER_FSYNC; on
    unless a composition root turns it off). Off, a commit is still in the database file's journal when the write
    returns, so a killed process loses nothing; only the machine losing power may. PostgreSQL's durability is
    its server's (synchronous_commit is always on)."""
    GroupCommit.to_disk = on
