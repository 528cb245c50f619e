-- A turn email superseded by a newer one (app/service/outbox.py, EventStore.supersede_mail): its row stays, status
-- 'superseded', with the id of the row that superseded it; it is neither laid out nor sent. The index finds a game's
-- later turn rows without scanning the outbox (superseded rows are kept).
ALTER TABLE outbox ADD COLUMN superseded_by INTEGER;
CREATE INDEX IF NOT EXISTS outbox_turns ON outbox (game_id, id) WHERE kind = 'turn';
