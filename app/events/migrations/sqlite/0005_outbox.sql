-- The transactional outbox (app/service/outbox.py): every email a write causes is a row here, written in the same
-- transaction as that write's events, and deleted once the mail server (or the .eml folder) took it. `kind` is
-- 'message' (a text composed at the write: invitation, dispute, reminder, reply) or 'turn' (a turn or game-over
-- email, laid out at delivery from the position at `data`'s seq). The Message-ID is fixed here, so a retry is the
-- same message. `next_attempt_at` is also the lease of a sender that claimed the row; 'failed' rows were
-- refused for good (5xx) and wait for an operator (`cli.py outbox --retry`).
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
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
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (status, next_attempt_at);
