-- Reactions (SQLite's 0010; app/service/reactions.py, docs/reactions.md): each subscriber's position in each game's
-- stream. A game without a row starts at its fork point (games.parent_seq) or at 0.
CREATE TABLE reaction_positions (
    subscriber TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    PRIMARY KEY (subscriber, game_id)
);
-- The games that exist now have had their mail sent by the write paths that caused it: each subscriber of this
-- release starts at their heads.
INSERT INTO reaction_positions (subscriber, game_id, seq)
    SELECT s.name, e.game_id, max(e.seq) FROM events e,
        (VALUES ('turns'), ('invitations'), ('disputes'), ('deadlines')) AS s (name)
    GROUP BY s.name, e.game_id;
-- A new game's raw tokens until the invitation subscriber has queued them (deleted in that same transaction).
CREATE TABLE pending_invitations (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    token TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
-- The answer an incoming message got, repeated if the same message comes again.
CREATE TABLE message_answers (
    message_id TEXT PRIMARY KEY,
    answer TEXT NOT NULL
);
