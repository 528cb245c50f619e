-- An event's hashes and salt as the bytes their hexadecimal texts spell (bytea; SQLite's 0014 makes them BLOB):
-- 32 bytes a hash and 16 a salt instead of 64 and 32 characters, about a sixth of the WAL an append writes. The
-- store writes and reads them through app/events/dialect.py (event_row, stored_event), so every hash is still shown,
-- exported and chained as its text. Changing a column's type rewrites the table; no row trigger fires for it.
ALTER TABLE events
    ALTER COLUMN prev_hash TYPE bytea USING decode(prev_hash, 'hex'),
    ALTER COLUMN hash TYPE bytea USING decode(hash, 'hex'),
    ALTER COLUMN salt TYPE bytea USING decode(salt, 'hex');

-- append_events (0004, its body as of 0008) with the hashes and salts as bytes: the same lock, head check and insert.
DROP FUNCTION append_events(TEXT, INTEGER, TEXT, TEXT, TEXT[], INTEGER[], TEXT[], TEXT[], INTEGER[], TEXT[], TEXT[]);
CREATE FUNCTION append_events(p_game TEXT, p_after INTEGER, p_prev_hash BYTEA, p_at TEXT, p_types TEXT[],
                              p_versions INTEGER[], p_payloads TEXT[], p_actors TEXT[], p_causations INTEGER[],
                              p_hashes BYTEA[], p_salts BYTEA[], OUT head_seq INTEGER, OUT head_hash BYTEA)
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
