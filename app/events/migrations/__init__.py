"""The store's schema, one numbered tree of SQL scripts per backend (`sqlite/`, `postgres/`), shipped inside the
package as data so that an installed wheel creates its tables as a checkout does. A script's file name is its
record in the database's schema_migrations table: a script once shipped is never renamed and its statements never
change; a change to the schema is a new script with the next number (docs/core.md, "Schema")."""
from __future__ import annotations

from importlib import resources

BACKENDS = ("sqlite", "postgres")


def scripts(backend: str) -> list[tuple[str, str]]:
    """(file name, SQL text) of the backend's scripts, in the order they apply."""
    if backend not in BACKENDS:
        raise ValueError(f"no migrations for {backend!r}")
    folder = resources.files(__package__).joinpath(backend)
    found = sorted((entry.name, entry) for entry in folder.iterdir() if entry.name.endswith(".sql"))
    return [(name, entry.read_text(encoding="utf-8")) for name, entry in found]
