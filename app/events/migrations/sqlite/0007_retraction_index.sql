-- Loading a game asks for its core.Retracted events (app/projections/state.py, load): a partial index holds just
-- those rows, so the question reads them instead of scanning the whole game's stream (issue 15).
CREATE INDEX IF NOT EXISTS events_retracted ON events (game_id, seq) WHERE type = 'core.Retracted';
