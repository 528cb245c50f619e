"""Snapshots (app/events/interface.py, Snapshots), written once over the dialect layer: folded states kept as a
pure cache (deleting them changes no answer: docs/core.md)."""
from __future__ import annotations

import json

from app.events.dialect import Tables
from app.events.envelope import canonical_json


class SnapshotTables(Tables):
    """The snapshots table."""

    def save_snapshot(self, game_id: str, seq: int, rules_version: str, state: dict) -> bool:
        """Cache a folded state. A cache write that fails (disk full, locked) is skipped, never an error: the
        events are already stored and the loader folds from an earlier snapshot instead."""
        return self.db.cache_write(
            "INSERT INTO snapshots (game_id, seq, rules_version, state) VALUES (?, ?, ?, ?) ON CONFLICT (game_id, seq) "
            "DO UPDATE SET rules_version = excluded.rules_version, state = excluded.state",
            [game_id, seq, rules_version, canonical_json(state)])

    def latest_snapshot(self, game_id: str, at_or_before: int, rules_version: str) -> tuple[int, dict] | None:
        row = self.db.one("SELECT seq, state FROM snapshots WHERE game_id = ? AND seq <= ? AND rules_version = ? "
                          "ORDER BY seq DESC LIMIT 1", [game_id, at_or_before, rules_version])
        return (row[0], json.loads(row[1])) if row else None

    def drop_snapshots(self, game_id: str | None = None) -> None:
        """Drop the cached states (of one game); a refusal raises StoreUnavailable."""
        if game_id is None:
            self.db.write("DELETE FROM snapshots", durable=False)
        else:
            self.db.write("DELETE FROM snapshots WHERE game_id = ?", [game_id], durable=False)
