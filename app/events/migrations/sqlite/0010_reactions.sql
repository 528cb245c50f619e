-- Reactions (app/service/reactions.py, docs/reactions.md): each subscriber's position in each game's stream, the
-- last event it has reacted to. A subscriber writes its outputs (outbox rows) and its new position in one
-- transaction, so a crash never loses a reaction and never makes one twice. A game without a row starts at its
-- fork point (games.parent_seq: a fork's copied events were the parent's) or at 0.
CREATE TABLE IF NOT EXISTS reaction_positions (
    subscriber TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    PRIMARY KEY (subscriber, game_id)
);
-- The games that exist now have had their mail sent by the write paths that caused it: each subscriber of this
-- release starts at their heads.
INSERT OR IGNORE INTO reaction_positions (subscriber, game_id, seq)
    SELECT s.name, e.game_id, max(e.seq) FROM events e,
        (SELECT 'turns' AS name UNION ALL SELECT 'invitations' UNION ALL SELECT 'disputes'
         UNION ALL SELECT 'deadlines') AS s
    GROUP BY s.name, e.game_id;
-- A new game's raw tokens, from its creation until the invitation subscriber has queued them (then deleted in that
-- same transaction): the one place a raw token is kept, for that moment only.
CREATE TABLE IF NOT EXISTS pending_invitations (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    token TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
-- The answer an incoming message got (recipient, subject, body, seat), repeated if the same message comes again
-- (an ingest killed after its commit and before it moved the file; a resend).
CREATE TABLE IF NOT EXISTS message_answers (
    message_id TEXT PRIMARY KEY,
    answer TEXT NOT NULL
);
