"""Where the store is: a database location (`--db`, HEXLEDGER_DB) is a postgresql:// URL (PostgreSQL) or else a
SQLite file; the default is db/hexledger.sqlite3 in the folder the program runs in."""
from __future__ import annotations

import os
import re
from urllib.parse import urlsplit

DEFAULT_DB = "db/hexledger.sqlite3"


def default_db_path() -> str:
    """`HEXLEDGER_DB` if set, else db/hexledger.sqlite3 in the current folder."""
    return os.environ.get("HEXLEDGER_DB") or DEFAULT_DB


def is_url(location: str) -> bool:
    """Does the location name a PostgreSQL database rather than a SQLite file?"""
    return location.startswith(("postgresql://", "postgres://"))


_SECRET_PARAMETER = re.compile(r"(?i)((?:^|&)[^=&]*password=)[^&]*")  # libpq's password=, sslpassword=


def shown(location: str) -> str:
    """The location with every password masked, for banners and the operator's log: the URL's (user:PASSWORD@)
    and libpq's query parameters (?password=, &sslpassword=). Never shown to a client at all (StoreUnavailable's
    `detail`)."""
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
