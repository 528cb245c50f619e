"""What a forger can do: with an export file, edit events and seal the chain again, so that only the audit's other
checks (replay, dice, the rules of the core events) can find the edit; with the server itself, put such a stream
in place of the stored one, past the append-only triggers, as a compromised server would (only a player's
receipts can then tell)."""
from __future__ import annotations

import dataclasses
import sqlite3

from app.events.dialect import EVENT_COLUMNS, event_row
from app.events.envelope import GENESIS_HASH, StoredEvent, canonical_json


def reseal(events: list[StoredEvent]) -> list[StoredEvent]:
    """The events renumbered from 1 and chained again, every hash recomputed (salted events keep their salts)."""
    out: list[StoredEvent] = []
    for seq, e in enumerate(events, start=1):
        fields = dataclasses.replace(e, seq=seq, prev_hash=out[-1].hash if out else GENESIS_HASH).hashed_fields()
        out.append(StoredEvent.sealed(**fields))
    return out


def replace_stream(location: str, game_id: str, events: list[StoredEvent]) -> None:
    """Store `events` as the game's whole stream on the database at `location` (a SQLite file or a postgresql://
    URL), past the triggers that refuse it to anyone playing by the rules."""
    rows = [event_row(e, canonical_json(e.payload)) for e in events]
    if location.startswith(("postgresql://", "postgres://")):
        import psycopg

        with psycopg.connect(location, autocommit=False) as conn:
            conn.execute("SET session_replication_role = replica")  # no trigger fires for this session
            conn.execute("DELETE FROM snapshots WHERE game_id = %s", [game_id])
            conn.execute("DELETE FROM events WHERE game_id = %s", [game_id])
            with conn.cursor() as cursor:
                cursor.executemany(f"INSERT INTO events ({EVENT_COLUMNS}) VALUES ({', '.join(['%s'] * 11)})", rows)
        return
    conn = sqlite3.connect(location)
    with conn:
        triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'"
                                ).fetchall()
        for name, _ in triggers:
            conn.execute(f'DROP TRIGGER "{name}"')
        conn.execute("DELETE FROM snapshots WHERE game_id = ?", [game_id])
        conn.execute("DELETE FROM events WHERE game_id = ?", [game_id])
        conn.executemany(f"INSERT INTO events ({EVENT_COLUMNS}) VALUES ({', '.join('?' * 11)})", rows)
        for _, sql in triggers:
            conn.execute(sql)
    conn.close()
