-- The server's secret for per-seat reply tags (HMAC(secret, game id, seat) in the Reply-To plus-address).
-- Written once, on first use, unless HEXLEDGER_SECRET is set; never part of any event or export.
CREATE TABLE IF NOT EXISTS server_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at TEXT NOT NULL
);
