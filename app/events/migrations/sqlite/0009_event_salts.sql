-- Salted events (app/events/envelope.py, docs/core.md "Salted events"): each event sealed from now on carries a
-- random salt, hashed with its body, so no hash tells anything of a payload a player may not see. NULL: a legacy
-- event, hashed over its fields in one step as before.
ALTER TABLE events ADD COLUMN salt TEXT;
