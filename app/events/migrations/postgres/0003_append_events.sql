-- An append in one round trip (app/events/postgres.py, PostgresDatabase.append): the game's row lock, the head read
-- after it is granted, the expected-seq and chain check and the insert of a whole batch, in one call. Outside a
-- transaction the call is its own transaction, so with synchronous_commit on it answers once its commit is flushed.
--
-- The caller has sealed the batch (app/events/envelope.py `seal`) after (p_after, p_prev_hash): event i is seq
-- p_after + i, chained to the one before it (the first to p_prev_hash), all written at p_at. The batch is inserted
-- only if the head, read under the lock, is exactly (p_after, p_prev_hash); an empty stream's head is seq 0 (its
-- first event chains to the genesis hash the caller sealed with). The answer is the head after the call: the
-- batch's last (seq, hash) if it was written, or is already stored (the same call made again after its answer
-- was lost: the first event's hash is in place); else the head found, which the caller reports as Conflict, or
-- seals again onto when only the hash differed (a head it remembered wrongly). No row: no such game.
CREATE FUNCTION append_events(p_game TEXT, p_after INTEGER, p_prev_hash TEXT, p_at TEXT, p_types TEXT[],
                              p_versions INTEGER[], p_payloads TEXT[], p_actors TEXT[], p_causations INTEGER[],
                              p_hashes TEXT[], OUT head_seq INTEGER, OUT head_hash TEXT)
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
        INSERT INTO events (game_id, seq, type, version, payload, actor, at, causation, prev_hash, hash)
        SELECT p_game, p_after + e.i, e.type, e.version, e.payload, e.actor, p_at, e.causation,
               coalesce(lag(e.hash) OVER (ORDER BY e.i), p_prev_hash), e.hash
        FROM unnest(p_types, p_versions, p_payloads, p_actors, p_causations, p_hashes)
            WITH ORDINALITY AS e(type, version, payload, actor, causation, hash, i);
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
