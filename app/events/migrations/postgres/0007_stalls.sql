-- The stall notices subscriber (SQLite's 0012; app/service/notices.py StallNotices) starts every existing game at
-- its head, as every subscriber added since 0005 did.
INSERT INTO reaction_positions (subscriber, game_id, seq)
    SELECT 'stalls', e.game_id, max(e.seq) FROM events e GROUP BY e.game_id
    ON CONFLICT DO NOTHING;
