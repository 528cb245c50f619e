-- Play by email: who sits where, their access tokens (hashed), per-game settings, disputes, processed mail.
-- None of this is an event: tokens must never reach an export, and the game-relevant facts (a player joined,
-- an order, a retraction) are events already.
CREATE TABLE IF NOT EXISTS pbem_games (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    deadline_hours REAL,
    reminder_hours REAL,
    dispute_window_hours REAL NOT NULL DEFAULT 24,
    on_deadline TEXT NOT NULL DEFAULT 'notify-arbiter',
    turn_side TEXT,
    turn_started_at TEXT,
    reminded INTEGER NOT NULL DEFAULT 0,
    expired INTEGER NOT NULL DEFAULT 0,
    over_notified INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);

-- One row per seat: a side of the game, or 'arbiter'. The token is stored as its SHA-256 only.
CREATE TABLE IF NOT EXISTS pbem_members (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    email TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    last_seen_seq INTEGER NOT NULL DEFAULT 0,
    last_notified_seq INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE IF NOT EXISTS pbem_disputes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL REFERENCES games(id),
    order_seq INTEGER NOT NULL,
    raised_by TEXT NOT NULL,
    reason TEXT NOT NULL,
    status TEXT NOT NULL,
    raised_at TEXT NOT NULL,
    resolved_by TEXT,
    resolved_at TEXT,
    note TEXT,
    retraction_seq INTEGER
);

-- Every incoming email by Message-ID: a replayed message is refused.
CREATE TABLE IF NOT EXISTS pbem_messages (
    message_id TEXT PRIMARY KEY,
    game_id TEXT,
    received_at TEXT NOT NULL,
    outcome TEXT NOT NULL
);
