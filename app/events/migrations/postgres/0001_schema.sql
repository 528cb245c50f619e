-- The PostgreSQL event store (app/events/postgres.py): the same tables as app/events/migrations/sqlite/0001-0006 reach on SQLite,
-- in one script. A later change to the schema adds a script here beside its SQLite one.

-- Event store: one append-only stream per game, hash-chained (app/events/envelope.py). The payload is kept as
-- the exact canonical JSON text the hash was taken over.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    scenario TEXT NOT NULL,
    created_at TEXT NOT NULL,
    parent_id TEXT,
    parent_seq INTEGER
);
CREATE INDEX games_by_creation ON games (created_at, id);

CREATE TABLE events (
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
);
-- The few events a load or a listing looks for by type, without a scan of the game.
CREATE INDEX events_retractions ON events (game_id, seq) WHERE type = 'core.Retracted';
CREATE INDEX events_seed_revealed ON events (game_id) WHERE type = 'core.SeedRevealed';

-- Events are never changed or removed: the schema refuses it (row by row, and TRUNCATE).
CREATE FUNCTION events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % refused', TG_OP USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
CREATE TRIGGER events_are_append_only_update BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_are_append_only();
CREATE TRIGGER events_are_append_only_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_are_append_only();

-- The server's secret dice seed per game, kept out of the event stream until it is revealed.
CREATE TABLE dice_seeds (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    seed TEXT NOT NULL
);

-- A pure cache of folded states: deleting every row changes no answer.
CREATE TABLE snapshots (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    rules_version TEXT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Play by email (SQLite's 0002): settings per game, one row per seat (the token as its SHA-256 only), processed
-- incoming mail by Message-ID. `position` keeps the order rows were added in (SQLite's rowid).
CREATE TABLE pbem_games (
    position BIGSERIAL UNIQUE,
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    deadline_hours DOUBLE PRECISION,
    reminder_hours DOUBLE PRECISION,
    dispute_window_hours DOUBLE PRECISION NOT NULL DEFAULT 24,
    on_deadline TEXT NOT NULL DEFAULT 'notify-arbiter',
    turn_side TEXT,
    turn_started_at TEXT,
    reminded INTEGER NOT NULL DEFAULT 0,
    expired INTEGER NOT NULL DEFAULT 0,
    over_notified INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);

CREATE TABLE pbem_members (
    position BIGSERIAL UNIQUE,
    game_id TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    email TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    last_seen_seq INTEGER NOT NULL DEFAULT 0,
    last_notified_seq INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE pbem_messages (
    message_id TEXT PRIMARY KEY,
    game_id TEXT,
    received_at TEXT NOT NULL,
    outcome TEXT NOT NULL
);

-- The server's secrets (SQLite's 0003) and the tick clock (0006).
CREATE TABLE server_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE tick_clock (
    name TEXT PRIMARY KEY,
    at TEXT NOT NULL
);

-- The transactional outbox (SQLite's 0005; app/service/outbox.py): rows written in the transaction of the write
-- that causes them; `next_attempt_at` is also a claiming sender's lease.
CREATE TABLE outbox (
    id BIGSERIAL PRIMARY KEY,
    game_id TEXT,
    kind TEXT NOT NULL,
    recipient TEXT NOT NULL,
    seat TEXT,
    message_id TEXT NOT NULL,
    data TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    created_at TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    last_error TEXT
);
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
