-- Clocks (app/service/clocks.py, docs/play-by-email.md "Clocks"): a game's clock beside its fixed move deadline
-- (`clock`, JSON: a time bank's hours to start, increment per turn and ceiling, the vacation days each player may
-- take; NULL: the fixed deadline alone, as before) and the clock subscriber's record of it (`clock_state`, JSON:
-- whose clock runs since when, each side's bank, the turn's reminder and expiry marks).
ALTER TABLE pbem_games ADD COLUMN clock TEXT;
ALTER TABLE pbem_games ADD COLUMN clock_state TEXT;
-- The games that exist now have no clock event to react to: the clock subscriber starts at their heads.
INSERT OR IGNORE INTO reaction_positions (subscriber, game_id, seq)
    SELECT 'clocks', e.game_id, max(e.seq) FROM events e GROUP BY e.game_id;
