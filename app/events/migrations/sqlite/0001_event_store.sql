-- Event store: one append-only stream per game, hash-chained (app/events/envelope.py).
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    scenario TEXT NOT NULL,
    created_at TEXT NOT NULL,
    parent_id TEXT,
    parent_seq INTEGER
);

CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    type TEXT NOT NULL,
    version INTEGER NOT NULL,
    payload TEXT NOT NULL,
    actor TEXT NOT NULL,
    at TEXT NOT NULL,
    causation INTEGER,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

-- Events are never changed or removed: the schema refuses it.
CREATE TRIGGER IF NOT EXISTS events_are_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END;
CREATE TRIGGER IF NOT EXISTS events_are_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END;

-- The server's secret dice seed per game, kept out of the event stream until it is revealed.
CREATE TABLE IF NOT EXISTS dice_seeds (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    seed TEXT NOT NULL
);

-- A pure cache of folded states: deleting every row changes no answer.
CREATE TABLE IF NOT EXISTS snapshots (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    rules_version TEXT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE IF NOT EXISTS schema_migrations (
    name TEXT PRIMARY KEY,
    applied_at TEXT NOT NULL
);
