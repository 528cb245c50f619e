-- The players' own records (SQLite's 0011; app/events/players.py): a seat's notification channel, and the
-- sign-in links mailed to an address (single use, short-lived, kept as their SHA-256 only).
CREATE TABLE seat_channels (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    url TEXT NOT NULL,
    set_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE sign_in_links (
    code_hash TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
-- A player is their address, in any case: their page lists the seats that carry it.
CREATE INDEX pbem_members_by_email ON pbem_members (lower(email));
-- The notifications subscriber starts every existing game at its head: no channel is set in any of them yet.
INSERT INTO reaction_positions (subscriber, game_id, seq)
    SELECT 'notifications', game_id, max(seq) FROM events GROUP BY game_id
    ON CONFLICT DO NOTHING;
