"""Which event store a database location names (`--db`, HEXLEDGER_DB): a postgresql:// URL is PostgreSQL
(app/events/pg_store.py, for several server processes or machines on one database), anything else a SQLite file
(app/events/store.py, the embedded default). Both implement the same interface (app/events/interface.py, checked
by tests/core/test_store_contract.py)."""
from __future__ import annotations

from urllib.parse import urlsplit

from app.events.interface import Store
from app.events.store import EventStore, StoreUnavailable, default_db_path


def is_url(location: str) -> bool:
    """Does the location name a PostgreSQL database rather than a SQLite file?"""
    return location.startswith(("postgresql://", "postgres://"))


def shown(location: str) -> str:
    """The location without its password, for banners and error messages."""
    parts = urlsplit(location) if is_url(location) else None
    if parts is None or parts.password is None:
        return location
    return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)).geturl()


def open_store(location: str | None = None, busy_timeout: float = 30.0) -> Store:
    """The store at `location` (default HEXLEDGER_DB, else db/hexledger.sqlite3): an EventStore or a PgEventStore."""
    location = location or default_db_path()
    if not is_url(location):
        return EventStore(location, busy_timeout=busy_timeout)
    try:
        from app.events.pg_store import PgEventStore
    except ImportError as exc:
        raise StoreUnavailable(f"{shown(location)} is a PostgreSQL database, and PostgreSQL needs psycopg ({exc}): "
                               "pip install 'hexledger[postgres]'", "refused") from exc
    return PgEventStore(location, busy_timeout=busy_timeout)
