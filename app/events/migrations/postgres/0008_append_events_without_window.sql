-- append_events (0004) as the store calls it inside a transaction (app/events/postgres.py; outside one an append is
-- a single INSERT): the same lock, head check and insert, each event's prev_hash taken from the batch's hash array
-- (the one before it; the first's is p_prev_hash) instead of a window over the rows, which cost the server a sort
-- on every append.
CREATE OR REPLACE FUNCTION append_events(p_game TEXT, p_after INTEGER, p_prev_hash TEXT, p_at TEXT, p_types TEXT[],
                              p_versions INTEGER[], p_payloads TEXT[], p_actors TEXT[], p_causations INTEGER[],
                              p_hashes TEXT[], p_salts TEXT[], OUT head_seq INTEGER, OUT head_hash TEXT)
    RETURNS SETOF record LANGUAGE plpgsql AS $$
DECLARE
    n INTEGER := coalesce(cardinality(p_hashes), 0);
BEGIN
    PERFORM 1 FROM games WHERE id = p_game FOR UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    -- a statement of its own: under read committed it sees what the writer this one waited for committed
    SELECT seq, hash INTO head_seq, head_hash FROM events WHERE game_id = p_game ORDER BY seq DESC LIMIT 1;
    IF NOT FOUND THEN
        head_seq := 0;
        head_hash := p_prev_hash;
    END IF;
    IF head_seq = p_after AND head_hash = p_prev_hash THEN
        INSERT INTO events (game_id, seq, type, version, payload, actor, at, causation, prev_hash, hash, salt)
        SELECT p_game, p_after + e.i, e.type, e.version, e.payload, e.actor, p_at, e.causation,
               coalesce(p_hashes[e.i - 1], p_prev_hash), e.hash, e.salt
        FROM unnest(p_types, p_versions, p_payloads, p_actors, p_causations, p_hashes, p_salts)
            WITH ORDINALITY AS e(type, version, payload, actor, causation, hash, salt, i);
        IF n > 0 THEN
            head_seq := p_after + n;
            head_hash := p_hashes[n];
        END IF;
    ELSIF n > 0 AND head_seq >= p_after + n AND EXISTS (
            SELECT 1 FROM events WHERE game_id = p_game AND seq = p_after + 1 AND hash = p_hashes[1]) THEN
        head_seq := p_after + n;
        head_hash := p_hashes[n];
    END IF;
    RETURN NEXT;
END;
$$;
