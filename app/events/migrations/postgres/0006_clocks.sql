-- Clocks (SQLite's 0011; app/service/clocks.py): a game's clock settings and the clock subscriber's record, JSON.
ALTER TABLE pbem_games ADD COLUMN clock TEXT;
ALTER TABLE pbem_games ADD COLUMN clock_state TEXT;
-- The games that exist now have no clock event to react to: the clock subscriber starts at their heads.
INSERT INTO reaction_positions (subscriber, game_id, seq)
    SELECT 'clocks', e.game_id, max(e.seq) FROM events e GROUP BY e.game_id
    ON CONFLICT DO NOTHING;
