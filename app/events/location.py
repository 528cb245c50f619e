"""Where the store is: a database location (`--db`, HEXLEDGER_DB) is a postgresql:// URL (PostgreSQL) or else a
SQLite file; the default is db/hexledger.sqlite3 in the folder the program runs in."""
from __future__ import annotations

import os
from urllib.parse import urlsplit

DEFAULT_DB = "db/hexledger.sqlite3"


def default_db_path() -> str:
    """`HEXLEDGER_DB` if set, else db/hexledger.sqlite3 in the current folder."""
    return os.environ.get("HEXLEDGER_DB") or DEFAULT_DB


def is_url(location: str) -> bool:
    """Does the location name a PostgreSQL database rather than a SQLite file?"""
    return location.startswith(("postgresql://", "postgres://"))


def shown(location: str) -> str:
    """The location without its password, for banners and error messages."""
    parts = urlsplit(location) if is_url(location) else None
    if parts is None or parts.password is None:
        return location
    return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)).geturl()
