"""Where the store is: a database location (`--db`, HEXLEDGER_DB: app/settings.py) is a postgresql:// URL
(PostgreSQL) or else a SQLite file."""
from __future__ import annotations

import re
from urllib.parse import urlsplit


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
