-- The stall notices subscriber (app/service/notices.py StallNotices) came after the games that exist now: it starts
-- at their heads, as every subscriber added since 0010 did, instead of reading each of them from its first event
-- (a stall stored before it, never told then, is not told long after either).
INSERT OR IGNORE INTO reaction_positions (subscriber, game_id, seq)
    SELECT 'stalls', e.game_id, max(e.seq) FROM events e GROUP BY e.game_id;
