-- A turn email superseded by a newer one (SQLite's 0008; app/service/outbox.py, EventStore.supersede_mail): its row
-- stays, status 'superseded', with the id of the row that superseded it; it is neither laid out nor sent.
ALTER TABLE outbox ADD COLUMN superseded_by BIGINT;
CREATE INDEX outbox_turns ON outbox (game_id, id) WHERE kind = 'turn';
