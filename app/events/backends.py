"""Which event store a database location names (`--db`, HEXLEDGER_DB): a postgresql:// URL is PostgreSQL
(app/events/pg_store.py, for several server processes or machines on one database), anything else a SQLite file
(app/events/store.py, the embedded default). Both implement the same interface (app/events/interface.py, checked
by tests/core/test_store_contract.py)."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

from app.events.interface import Store
from app.events.store import EventStore, StoreUnavailable, default_db_path


def is_url(location: str) -> bool:
    """Does the location name a PostgreSQL database rather than a SQLite file?"""
    return location.startswith(("postgresql://", "postgres://"))


_SECRET_PARAMETER = re.compile(r"(?i)((?:^|&)[^=&]*password=)[^&]*")  # libpq's password=, sslpassword=


def shown(location: str) -> str:
    """The location with every password masked, for banners and the operator's log: the URL's (user:PASSWORD@)
    and libpq's query parameters (?password=, &sslpassword=). Never shown to a client at all (StoreUnavailable)."""
    if not is_url(location):
        return location
    parts = urlsplit(location)
    netloc = parts.netloc
    if parts.password is not None:
        userinfo, at, host = netloc.rpartition("@")
        netloc = userinfo.partition(":")[0] + ":***" + at + host
    query = _SECRET_PARAMETER.sub(r"\1***", parts.query)
    return (f"{parts.scheme}://{netloc}{parts.path}" + (f"?{query}" if parts.query else "")
            + (f"#{parts.fragment}" if parts.fragment else ""))


def open_store(location: str | None = None, busy_timeout: float = 30.0) -> Store:
    """The store at `location` (default HEXLEDGER_DB, else db/hexledger.sqlite3): an EventStore or a PgEventStore."""
    location = location or default_db_path()
    if not is_url(location):
        return EventStore(location, busy_timeout=busy_timeout)
    try:
        from app.events.pg_store import PgEventStore
    except ImportError as exc:
        raise StoreUnavailable("cannot open the database: its driver is not installed; nothing was written",
                               "refused", f"{shown(location)} is a PostgreSQL database, and PostgreSQL needs psycopg "
                               f"({exc}): pip install 'hexledger[postgres]'") from exc
    return PgEventStore(location, busy_timeout=busy_timeout)
