-- A due turn email or notification is superseded by a later row of its game of any kind (SQLite's 0013;
-- app/events/outbox.py, supersede_mail): 0002's partial index holds turn rows only and served no lookup, so each
-- sender round read the whole outbox (superseded rows are kept). This one holds every row.
DROP INDEX IF EXISTS outbox_turns;
CREATE INDEX outbox_by_game ON outbox (game_id, id);
