-- A due turn email or notification is superseded by a later row of its game of any kind (app/events/outbox.py,
-- supersede_mail: a later turn, notification or answer), so each pending row looks up its game's rows. 0008's
-- partial index holds turn rows only and can serve no such lookup: SQLite built a temporary index over the whole
-- outbox (superseded rows are kept) on every sender round, PostgreSQL read it all. This one holds every row.
DROP INDEX IF EXISTS outbox_turns;
CREATE INDEX IF NOT EXISTS outbox_by_game ON outbox (game_id, id);
