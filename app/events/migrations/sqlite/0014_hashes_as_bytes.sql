-- An event's hashes and salt as the bytes their hexadecimal texts spell (BLOB; PostgreSQL's 0010 makes them bytea):
-- 32 bytes a hash and 16 a salt instead of 64 and 32 characters. The store writes and reads them through
-- app/events/dialect.py (event_row, stored_event), so every hash is still shown, exported and chained as its text.
-- SQLite changes a column's type only by copying the table: the copy has every event, and then the index and the
-- append-only triggers of the table it replaces (0001, 0007).
CREATE TABLE events_as_bytes (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    type TEXT NOT NULL,
    version INTEGER NOT NULL,
    payload TEXT NOT NULL,
    actor TEXT NOT NULL,
    at TEXT NOT NULL,
    causation INTEGER,
    prev_hash BLOB NOT NULL,
    hash BLOB NOT NULL,
    salt BLOB,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
INSERT INTO events_as_bytes (game_id, seq, type, version, payload, actor, at, causation, prev_hash, hash, salt)
    SELECT game_id, seq, type, version, payload, actor, at, causation, unhex(prev_hash), unhex(hash), unhex(salt)
    FROM events ORDER BY game_id, seq;
DROP TABLE events;
ALTER TABLE events_as_bytes RENAME TO events;
CREATE INDEX events_retracted ON events (game_id, seq) WHERE type = 'core.Retracted';
CREATE TRIGGER events_are_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END;
CREATE TRIGGER events_are_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END;
