"""The server's own records (app/events/interface.py, ServerRecords), written once over the dialect layer: its
secrets (made once, kept) and the clocks `tick` reads."""
from __future__ import annotations

from app.events.dialect import Tables
from app.events.envelope import utc_now


class RecordTables(Tables):
    """The server_secrets and tick_clock tables."""

    def secret(self, name: str, fresh: str) -> str:
        """The server secret `name`, made `fresh` on first use and kept from then on."""
        self.db.write("INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) "
                      "DO NOTHING", [name, fresh, utc_now()])
        return self.db.one("SELECT value FROM server_secrets WHERE name = ?", [name])[0]

    def swap_clock(self, name: str, at: str) -> str | None:
        """Record `at` as the clock `name`'s last reading; returns the one before (None the first time)."""
        with self.db.transaction():
            row = self.db.one(f"SELECT at FROM tick_clock WHERE name = ?{self.db.for_update}", [name])
            self.db.write("INSERT INTO tick_clock (name, at) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET "
                          "at = excluded.at", [name, at])
        return row[0] if row else None
