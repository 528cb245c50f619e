"""The event store on PostgreSQL (psycopg 3), for operators who outgrow one machine: the interface of
app/events/store.py's EventStore, method for method, with the same guarantees (tests/core/test_store_contract.py
runs against both).

- Append-only: triggers refuse UPDATE, DELETE and TRUNCATE of events (db/postgres/0001_schema.sql).
- Optimistic concurrency: an append is one call of the database's append_events (db/postgres/0003), which locks
  the game's row (SELECT ... FOR UPDATE), so writers to one game queue while writers to different games run side
  by side, reads the head once the lock is granted, and inserts the sealed batch only onto the head it was sealed
  after; a writer whose expected last seq is stale gets Conflict and nothing is written. Outside `transaction()`
  that call is its own transaction: an append is one round trip.
- One transaction per write: `transaction()` and every append inside it commit together (an order with its outbox
  rows), or roll back together.
- Durable: synchronous_commit is set on for every connection, so a commit is flushed to the server's WAL before
  `append` returns (the server's own fsync must stay on: docs/core.md).

- Any text, as SQLite keeps it: PostgreSQL's TEXT cannot hold NUL, so a text with a NUL (or one that starts with
  MARK) is stored marked and escaped, and read back as it was (`to_db`, `from_db`); every other text, the canonical
  JSON of payloads among them, is stored as it is.

A connection per store object, as with SQLite (the web server opens one per thread). A refusal by the server (a
lock not granted within the busy timeout, a full disk, a lost connection, a serialization failure or deadlock) is
StoreUnavailable (HTTP 503), a write that lost a race for a unique key is Conflict (HTTP 409), never a raw driver
error; a lost connection is opened again by the next call outside a transaction.
"""
from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from pathlib import Path

import psycopg
from psycopg import errors, sql
from psycopg.rows import RowFactory, RowMaker, dict_row, tuple_row

from app.events.backends import shown
from app.events.envelope import GENESIS_HASH, EventBody, StoredEvent, canonical_json
from app.events.store import (
    Conflict,
    NewEvent,
    NoPbemSettings,
    StoreError,
    StoreUnavailable,
    UnknownGame,
    seal,
    utc_now,
)

MIGRATIONS = Path(__file__).resolve().parents[2] / "db" / "postgres"
MIGRATION_LOCK = 0x4845584C  # pg_advisory_xact_lock key: servers opening a new database apply each script once
EVENT_COLUMNS = ("game_id", "seq", "type", "version", "payload", "actor", "at", "causation", "prev_hash", "hash")
LOCKED = ("55P03", "40P01", "40001", "53300")  # lock not granted, deadlock, serialization, too many connections
FULL = ("53100",)  # disk full


def refused(exc: psycopg.Error) -> StoreUnavailable:
    """The StoreUnavailable for a refusal by the server (its text says which: locked, full, or other)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    state = getattr(exc, "sqlstate", None) or ""
    if state in LOCKED:
        return StoreUnavailable(f"the database is locked by another writer ({text}); nothing was written, "
                                "try again", "locked")
    if state in FULL:
        return StoreUnavailable(f"the database disk is full ({text}); nothing was written", "full")
    return StoreUnavailable(f"the database refused the write ({text}); nothing was written", "refused")


class PgEventStore:
    """EventStore's interface on a PostgreSQL database named by a postgresql:// URL."""

    def __init__(self, url: str, busy_timeout: float = 30.0):
        self.path = url
        self.busy_timeout = busy_timeout
        self._lock_depth = 0
        self._tx: psycopg.Transaction | None = None
        self._heads = _heads_of(url)
        self._new_heads: dict[str, tuple[int, str]] = {}  # this transaction's appends, kept once it commits
        self.conn = self._connect()
        self._migrate()

    def _connect(self) -> psycopg.Connection:
        options = f"-c synchronous_commit=on -c lock_timeout={max(1, int(self.busy_timeout * 1000))}"
        try:
            return psycopg.connect(self.path, autocommit=True, row_factory=_text_row, options=options,
                                   application_name="hexledger", connect_timeout=max(1, int(self.busy_timeout)))
        except psycopg.OperationalError as exc:
            raise StoreUnavailable(f"cannot reach the PostgreSQL database {shown(self.path)} "
                                   f"({str(exc).strip()[:300]}); nothing was written, try again", "refused") from exc

    def close(self) -> None:
        self.conn.close()

    def _q(self, query, args=None, rows: RowFactory | None = None) -> psycopg.Cursor:
        """Run one statement (its rows made by `rows`, default the connection's: dicts of texts as they were sent);
        a refusal by the server is StoreUnavailable. Outside a transaction, a connection the server dropped since
        the last statement (a restart, its backend killed) is opened again and the statement run once more on it:
        what the store runs outside a transaction may run twice (reads, marks that only rise, idempotent inserts, an
        append: append_events answers a batch sent again as stored)."""
        if self._lock_depth == 0 and (self.conn.closed or self.conn.broken):
            self.conn = self._connect()
        try:
            return (self.conn.cursor(row_factory=rows) if rows else self.conn).execute(query, _params(args))
        except psycopg.OperationalError as exc:
            if self._lock_depth or not self.conn.broken:
                raise refused(exc) from exc
        self.conn = self._connect()
        try:
            return (self.conn.cursor(row_factory=rows) if rows else self.conn).execute(query, _params(args))
        except psycopg.OperationalError as exc:
            raise refused(exc) from exc

    # -- schema -----------------------------------------------------------------------------------------
    def _migrate(self) -> None:
        """Apply the pending scripts of db/postgres, each with its record, under an advisory lock."""
        scripts = sorted(MIGRATIONS.glob("*.sql"))
        if self._applied() >= {s.name for s in scripts}:
            return
        with self._write_lock():
            self._q("SELECT pg_advisory_xact_lock(%s)", [MIGRATION_LOCK])
            self._q("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
            done = self._applied()
            for script in scripts:
                if script.name not in done:
                    self._q(script.read_text())
                    self._q("INSERT INTO schema_migrations (name, applied_at) VALUES (%s, %s)",
                            [script.name, utc_now()])

    def _applied(self) -> set[str]:
        if self._q("SELECT to_regclass('schema_migrations') AS t").fetchone()["t"] is None:
            return set()
        return {row["name"] for row in self._q("SELECT name FROM schema_migrations")}

    # -- writing ----------------------------------------------------------------------------------------
    def create_game(self, game_id: str, rules: str, scenario: str, first_events: list[NewEvent],
                    seed: str | None, parent: tuple[str, int] | None = None) -> list[StoredEvent]:
        """Register a new game and append its first events, in one transaction."""
        with self._write_lock():
            self._register_game(game_id, rules, scenario, parent)
            if seed is not None:
                self._q("INSERT INTO dice_seeds (game_id, seed) VALUES (%s, %s)", [game_id, seed])
            return self._append_locked(game_id, 0, first_events, (0, GENESIS_HASH))

    def append(self, game_id: str, expected_seq: int, events: list[NewEvent]) -> list[StoredEvent]:
        """Append `events` after `expected_seq`, or raise Conflict and write nothing: one call of the database's
        append_events (db/postgres/0003), which takes the game's row lock (queueing the writers of one game), reads
        the head once it is granted and inserts the batch only onto the head it was sealed after. Outside a
        transaction that call is the whole transaction: one round trip, answered once the commit is flushed.

        The batch is sealed onto the head this process last saw committed for the game (`_heads_of`) when the
        caller expects that seq, else onto a head read first; the call checks it under the lock either way."""
        known = self._heads.get(game_id)
        head = known if known is not None and known[0] == expected_seq else self._head_unlocked(game_id)
        if head[0] != expected_seq:
            if head[0] == 0 and not self.game_exists(game_id):  # every game has its first events
                raise UnknownGame(game_id)
            raise Conflict(game_id, expected_seq, head[0])
        return self._append_locked(game_id, expected_seq, events, head)

    def import_stream(self, game_id: str, rules: str, scenario: str, events: list[StoredEvent],
                      parent: tuple[str, int] | None = None) -> None:
        """Store an already sealed, verified stream (an imported export) as a new game, all or nothing."""
        with self._write_lock():
            self._register_game(game_id, rules, scenario, parent)
            self._insert_events(events)

    def _register_game(self, game_id: str, rules: str, scenario: str, parent: tuple[str, int] | None) -> None:
        inserted = self._q(
            "INSERT INTO games (id, rules, scenario, created_at, parent_id, parent_seq) VALUES (%s, %s, %s, %s, %s, "
            "%s) ON CONFLICT (id) DO NOTHING",
            [game_id, rules, scenario, utc_now(), parent[0] if parent else None, parent[1] if parent else None])
        if inserted.rowcount == 0:
            raise StoreError(f"game {game_id!r} already exists here; nothing written")

    def _append_locked(self, game_id: str, expected_seq: int, events: list[NewEvent],
                       head: tuple[int, str]) -> list[StoredEvent]:
        """Seal `events` onto `head` (the caller's expected seq) and store them by append_events; a head whose hash
        is not the stored one's (remembered from a database since replaced under the same URL) is replaced by the
        stored one and the batch sealed again."""
        for _ in range(2):
            sealed, payloads = seal(game_id, expected_seq, head[1], events)
            wanted = (sealed[-1].seq, sealed[-1].hash) if sealed else head
            try:
                found = self._q(*append_call(game_id, expected_seq, head[1], sealed, payloads), tuple_row).fetchone()
            except errors.UniqueViolation as exc:  # a writer that took no game lock inserted the seq meanwhile
                raise Conflict(game_id, expected_seq, expected_seq + 1) from exc
            if found is None:
                raise UnknownGame(game_id)
            found = (found[0], from_db(found[1]))
            if found == wanted:
                self._committed(game_id, found)
                return sealed
            if found[0] != expected_seq:
                break
            head = found
        self._heads.pop(game_id, None)
        raise Conflict(game_id, expected_seq, found[0])

    def _committed(self, game_id: str, head: tuple[int, str]) -> None:
        """Remember `head` as the game's once it is committed (now, outside a transaction)."""
        if self._lock_depth:
            self._new_heads[game_id] = head
        else:
            self._heads[game_id] = head

    def _insert_events(self, events: list[StoredEvent], payloads: list[str] | None = None) -> None:
        """Insert sealed events; `payloads`: their payloads as canonical JSON, if the caller has them (`seal`)."""
        texts = payloads if payloads is not None else [canonical_json(e.payload) for e in events]
        rows = [_params([getattr(e, c) if c != "payload" else text for c in EVENT_COLUMNS])
                for e, text in zip(events, texts, strict=True)]
        try:
            with self.conn.cursor() as cursor:
                cursor.executemany(f"INSERT INTO events ({', '.join(EVENT_COLUMNS)}) VALUES "
                                   f"({', '.join(['%s'] * len(EVENT_COLUMNS))})", rows)
        except psycopg.OperationalError as exc:
            raise refused(exc) from exc

    class _Lock:
        """One transaction; a lock taken inside another of the same store joins it (one commit)."""

        def __init__(self, store: PgEventStore):
            self.store = store

        def __enter__(self):
            store = self.store
            store._lock_depth += 1
            if store._lock_depth > 1:
                return
            store._new_heads.clear()
            try:
                if store.conn.closed or store.conn.broken:
                    store.conn = store._connect()
                try:
                    store._tx = store.conn.transaction()
                    store._tx.__enter__()
                except psycopg.OperationalError:
                    if not store.conn.broken:
                        raise
                    store.conn = store._connect()  # dropped since the last statement: nothing began, begin again
                    store._tx = store.conn.transaction()
                    store._tx.__enter__()
            except StoreUnavailable:
                store._lock_depth -= 1
                raise
            except psycopg.OperationalError as exc:
                store._lock_depth -= 1
                raise refused(exc) from exc

        def __exit__(self, exc_type, exc, tb):
            store = self.store
            store._lock_depth -= 1
            if store._lock_depth:
                return False  # the outermost lock commits, or rolls back everything
            tx, store._tx = store._tx, None
            new_heads, store._new_heads = store._new_heads, {}
            try:
                tx.__exit__(exc_type, exc, tb)
            except psycopg.OperationalError as commit_error:
                if exc_type is None:
                    raise refused(commit_error) from commit_error
                return False
            if exc_type is None:
                store._heads.update(new_heads)  # committed: the games' heads now
            return False

    def _write_lock(self) -> PgEventStore._Lock:
        return PgEventStore._Lock(self)

    def transaction(self) -> PgEventStore._Lock:
        """One write transaction for several writes (events and the service's own tables): all or none."""
        return self._write_lock()

    @property
    def in_transaction(self) -> bool:
        return self._lock_depth > 0

    # -- reading ----------------------------------------------------------------------------------------
    def _head_unlocked(self, game_id: str) -> tuple[int, str]:
        row = self._q("SELECT seq, hash FROM events WHERE game_id = %s ORDER BY seq DESC LIMIT 1",
                      [game_id]).fetchone()
        return (row["seq"], row["hash"]) if row else (0, GENESIS_HASH)

    def head(self, game_id: str) -> tuple[int, str]:
        """(last sequence number, its hash) of a game's stream; read outside a transaction, it is a committed
        head, remembered for the next append (`_heads_of`)."""
        head = self._head_unlocked(game_id)
        if head[0] == 0:
            self.game(game_id)  # UnknownGame (every game has its first events)
        elif not self._lock_depth:
            self._heads[game_id] = head
        return head

    def game_exists(self, game_id: str) -> bool:
        return self._q("SELECT 1 FROM games WHERE id = %s", [game_id]).fetchone() is not None

    def retractions(self, game_id: str, to_seq: int) -> list[tuple[int, dict]]:
        """(seq, payload) of the game's core.Retracted events up to `to_seq`, in order."""
        return [(row["seq"], json.loads(row["payload"])) for row in self._q(
            "SELECT seq, payload FROM events WHERE game_id = %s AND type = 'core.Retracted' AND seq <= %s "
            "ORDER BY seq", [game_id, to_seq])]

    def game(self, game_id: str) -> dict:
        row = self._q("SELECT * FROM games WHERE id = %s", [game_id]).fetchone()
        if row is None:
            raise UnknownGame(game_id)
        return row

    def games(self, after: str | None = None, limit: int | None = None, finished_only: bool = False) -> list[dict]:
        """Games in the order they were created, from just after the game `after`, at most `limit`; with
        `finished_only` only games that ended (their dice seed revealed because the game was over)."""
        where, args = [], []
        if after is not None:
            where.append("(g.created_at, g.id) > (SELECT created_at, id FROM games WHERE id = %s)")
            args.append(after)
        if finished_only:
            where.append("EXISTS (SELECT 1 FROM events e WHERE e.game_id = g.id AND e.type = 'core.SeedRevealed' "
                         "AND CASE WHEN e.type = 'core.SeedRevealed' THEN e.payload::jsonb ->> 'reason' END "
                         "= 'game over')")  # CASE: only these payloads are cast (jsonb refuses \u0000 elsewhere)
        query = ("SELECT g.*, (SELECT max(seq) FROM events e WHERE e.game_id = g.id) AS last_seq FROM games g"
                 + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY g.created_at, g.id")
        if limit is not None:
            query += " LIMIT %s"
            args.append(limit)
        return self._q(query, args).fetchall()

    def events(self, game_id: str, from_seq: int = 1, to_seq: int | None = None) -> Iterator[StoredEvent]:
        """A game's events in order, from `from_seq` through `to_seq` (inclusive)."""
        query = f"SELECT {', '.join(EVENT_COLUMNS)} FROM events WHERE game_id = %s AND seq >= %s"
        args: list = [game_id, from_seq]
        if to_seq is not None:
            query += " AND seq <= %s"
            args.append(to_seq)
        for row in self._q(query + " ORDER BY seq", args).fetchall():
            yield StoredEvent(**{**row, "payload": json.loads(row["payload"])})

    def bodies(self, game_id: str, from_seq: int = 1, to_seq: int | None = None) -> Iterator[EventBody]:
        """What a fold reads of a game's events (seq, type, version, payload), in order, `from_seq` through
        `to_seq` (inclusive): `events` without the envelope's provenance and chain fields."""
        query = "SELECT seq, type, version, payload FROM events WHERE game_id = %s AND seq >= %s"
        args: list = [game_id, from_seq]
        if to_seq is not None:
            query += " AND seq <= %s"
            args.append(to_seq)
        # plain tuples, the payload as read: canonical JSON of an object starts with "{" and escapes NUL, so to_db
        # stored it as it was (no MARK); a type is a registry name, read back as any text is
        for seq, type_, version, payload in self._q(query + " ORDER BY seq", args, tuple_row).fetchall():
            yield EventBody(game_id, seq, from_db(type_), version, json.loads(payload))

    def event(self, game_id: str, seq: int) -> StoredEvent | None:
        return next(self.events(game_id, seq, seq), None)

    def dice_seed(self, game_id: str) -> str | None:
        row = self._q("SELECT seed FROM dice_seeds WHERE game_id = %s", [game_id]).fetchone()
        return row["seed"] if row else None

    # -- play by email: a game's settings and seats (app/service/seats.py) ---------------------------------
    def add_pbem_game(self, game_id: str, settings: dict, members: list[dict]) -> None:
        """A game's play-by-email settings (columns of pbem_games) and its seats, in the caller's transaction."""
        with self._write_lock():
            self._insert("pbem_games", {"game_id": game_id, **settings})
            for member in members:
                self._insert("pbem_members", {"game_id": game_id, **member})

    def _insert(self, table: str, row: dict) -> None:
        self._q(sql.SQL("INSERT INTO {} ({}) VALUES ({})").format(
            sql.Identifier(table), sql.SQL(", ").join(map(sql.Identifier, row)),
            sql.SQL(", ").join(sql.Placeholder() * len(row))), list(row.values()))

    def members(self, game_id: str) -> list[dict]:
        """A game's seats, each a dict (seat, email, token_hash, last_seen_seq, last_notified_seq, ...)."""
        rows = self._q("SELECT * FROM pbem_members WHERE game_id = %s ORDER BY position", [game_id]).fetchall()
        return [_without_position(row) for row in rows]

    def pbem_settings(self, game_id: str) -> dict | None:
        row = self._q("SELECT * FROM pbem_games WHERE game_id = %s", [game_id]).fetchone()
        return _without_position(row) if row else None

    def update_pbem_game(self, game_id: str, changes: dict) -> None:
        """Change columns of a game's play-by-email settings; a game without settings is NoPbemSettings."""
        with self._write_lock():
            updated = self._q(sql.SQL("UPDATE pbem_games SET {} WHERE game_id = %s").format(sql.SQL(", ").join(
                sql.SQL("{} = %s").format(sql.Identifier(column)) for column in changes)),
                [*changes.values(), game_id])
            if updated.rowcount == 0:
                raise NoPbemSettings(game_id)

    def pbem_games(self, running_only: bool = True, on_clock_only: bool = False) -> list[dict]:
        """Play-by-email games' settings: not yet over (`running_only`), with a deadline running (`on_clock_only`)."""
        where = ["over_notified = 0"] if running_only else []
        if on_clock_only:
            where += ["deadline_hours IS NOT NULL", "turn_side IS NOT NULL"]
        rows = self._q("SELECT * FROM pbem_games" + (" WHERE " + " AND ".join(where) if where else "")
                       + " ORDER BY position").fetchall()
        return [_without_position(row) for row in rows]

    def mark_seen(self, game_id: str, seat: str, seq: int) -> None:
        """The seat has read the game up to `seq` (never lowered). A refusal raises StoreUnavailable."""
        self._seat_mark("last_seen_seq", game_id, seat, seq)

    def mark_notified(self, game_id: str, seat: str, seq: int) -> None:
        """The seat's turn email up to `seq` went (never lowered)."""
        self._seat_mark("last_notified_seq", game_id, seat, seq)

    def _seat_mark(self, column: str, game_id: str, seat: str, seq: int) -> None:
        """Written only when the mark moves forward: a player reading an unchanged game writes no row version."""
        self._q(sql.SQL("UPDATE pbem_members SET {0} = %s WHERE game_id = %s AND seat = %s AND {0} < %s").format(
            sql.Identifier(column)), [seq, game_id, seat, seq])

    # -- the server's own records -----------------------------------------------------------------------
    def secret(self, name: str, fresh: str) -> str:
        """The server secret `name`, made `fresh` on first use and kept from then on."""
        self._q("INSERT INTO server_secrets (name, value, created_at) VALUES (%s, %s, %s) ON CONFLICT (name) "
                "DO NOTHING", [name, fresh, utc_now()])
        return self._q("SELECT value FROM server_secrets WHERE name = %s", [name]).fetchone()["value"]

    def swap_clock(self, name: str, at: str) -> str | None:
        """Record `at` as the clock `name`'s last reading; returns the one before (None the first time)."""
        with self._write_lock():
            row = self._q("SELECT at FROM tick_clock WHERE name = %s FOR UPDATE", [name]).fetchone()
            self._q("INSERT INTO tick_clock (name, at) VALUES (%s, %s) ON CONFLICT (name) DO UPDATE SET at = "
                    "excluded.at", [name, at])
        return row["at"] if row else None

    # -- the outbox (app/service/outbox.py) -------------------------------------------------------------
    def queue_mail(self, rows: list[dict], now: str) -> list[int]:
        """Add outgoing mail, due at `now`, in the transaction of the write that causes it. Returns the row ids."""
        with self._write_lock():
            return [self._q(
                "INSERT INTO outbox (game_id, kind, recipient, seat, message_id, data, created_at, next_attempt_at) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
                [row.get("game_id"), row["kind"], row["recipient"], row.get("seat"), row["message_id"],
                 canonical_json(row["data"]), now, now]).fetchone()["id"] for row in rows]

    def claim_mail(self, now: str, lease_until: str, ids: list[int] | None = None, limit: int = 50) -> list[dict]:
        """Pending mail due at `now` (of `ids` only, if given), oldest first, each claimed until `lease_until`;
        rows another sender is claiming at this moment are skipped (FOR UPDATE SKIP LOCKED), never sent twice."""
        if ids == []:
            return []
        query = "SELECT * FROM outbox WHERE status = 'pending' AND next_attempt_at <= %s"
        args: list = [now]
        if ids is not None:
            query += " AND id = ANY(%s)"
            args.append(ids)
        with self._write_lock():
            rows = self._q(query + " ORDER BY id LIMIT %s FOR UPDATE SKIP LOCKED", [*args, limit]).fetchall()
            if rows:
                self._q("UPDATE outbox SET next_attempt_at = %s WHERE id = ANY(%s)",
                        [lease_until, [row["id"] for row in rows]])
        return [{**row, "data": json.loads(row["data"])} for row in rows]

    def supersede_mail(self, now: str) -> int:
        """Mark superseded every pending turn email due at `now` that a later turn email of its game makes stale
        (EventStore.supersede_mail). Returns how many."""
        with self._write_lock():
            return self._q(
                "UPDATE outbox SET status = 'superseded', superseded_by = newest.id FROM ("
                " SELECT old.id AS old_id, max(newer.id) AS id FROM outbox AS old JOIN outbox AS newer"
                " ON newer.game_id = old.game_id AND newer.kind = 'turn' AND newer.id > old.id"
                " AND (newer.seat = old.seat"
                " OR (newer.data::jsonb->>'seq')::bigint > (old.data::jsonb->>'seq')::bigint)"
                " WHERE old.kind = 'turn' AND old.status = 'pending' AND old.next_attempt_at <= %s GROUP BY old.id"
                ") AS newest WHERE outbox.id = newest.old_id"  # checked again after waiting for a claim's row locks:
                " AND outbox.status = 'pending' AND outbox.next_attempt_at <= %s", [now, now]).rowcount

    def mail_sent(self, mail_id: int) -> None:
        self._q("DELETE FROM outbox WHERE id = %s", [mail_id])

    def mail_failed(self, mail_id: int, error: str, retry_at: str | None) -> None:
        """Record a failed attempt: try again at `retry_at`, or (None) never without an operator."""
        self._q("UPDATE outbox SET attempts = attempts + 1, last_error = %s, next_attempt_at = "
                "coalesce(%s::text, next_attempt_at), status = %s WHERE id = %s",
                [error[:500], retry_at, "pending" if retry_at else "failed", mail_id])

    def retry_failed_mail(self, now: str) -> int:
        """Every failed row pending again, due now; returns how many."""
        return self._q("UPDATE outbox SET status = 'pending', next_attempt_at = %s WHERE status = 'failed'",
                       [now]).rowcount

    def mail_queue(self) -> list[dict]:
        """Every undelivered row (pending, failed, superseded), without its content (an invitation's carries a
        token)."""
        return self._q("SELECT id, game_id, kind, recipient, seat, status, created_at, attempts, next_attempt_at, "
                       "last_error, superseded_by FROM outbox ORDER BY id").fetchall()

    def next_mail_due(self) -> str | None:
        return self._q("SELECT min(next_attempt_at) AS due FROM outbox WHERE status = 'pending'").fetchone()["due"]

    # -- processed incoming mail ------------------------------------------------------------------------
    def mail_processed(self, message_id: str) -> bool:
        return self._q("SELECT 1 FROM pbem_messages WHERE message_id = %s",
                       [message_id]).fetchone() is not None

    def record_mail(self, message_id: str, game_id: str | None, outcome: str) -> None:
        """Mark an incoming message processed; inside the transaction of the orders it carried."""
        self._q("INSERT INTO pbem_messages (message_id, game_id, received_at, outcome) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (message_id) DO NOTHING", [message_id, game_id, utc_now(), outcome])

    # -- reactions (app/service/reactions.py): subscribers' positions, held invitations, answers kept -------
    def reaction_position(self, subscriber: str, game_id: str) -> int:
        """The last event of `game_id` that `subscriber` has reacted to, locked (FOR UPDATE) in the caller's
        transaction until the new position commits with the subscriber's outputs: two runners (the sender
        processes of several `serve`s, `tick`) never react to one event twice. The game's row is held too (FOR
        SHARE): a reaction and an append to that game do not overlap (an undo checks what was seen after its
        append). A game without a position starts at its fork point or 0."""
        start = self._q("SELECT coalesce(parent_seq, 0) AS start FROM games WHERE id = %s FOR SHARE",
                        [game_id]).fetchone()
        if start is None:
            raise UnknownGame(game_id)
        self._q("INSERT INTO reaction_positions (subscriber, game_id, seq) VALUES (%s, %s, %s) "
                "ON CONFLICT (subscriber, game_id) DO NOTHING", [subscriber, game_id, start["start"]])
        return self._q("SELECT seq FROM reaction_positions WHERE subscriber = %s AND game_id = %s FOR UPDATE",
                       [subscriber, game_id]).fetchone()["seq"]

    def set_reaction_position(self, subscriber: str, game_id: str, seq: int) -> None:
        with self._write_lock():
            self._q("INSERT INTO reaction_positions (subscriber, game_id, seq) VALUES (%s, %s, %s) "
                    "ON CONFLICT (subscriber, game_id) DO UPDATE SET seq = excluded.seq", [subscriber, game_id, seq])

    def reactions_behind(self, subscribers: list[str], games: list[str] | None = None) -> list[str]:
        """The games (of `games` only, if given) whose stream goes past some subscriber's position, oldest first."""
        only = "" if games is None else " WHERE g.id = ANY(%s)"
        heads = self._q("SELECT g.id, coalesce(g.parent_seq, 0) AS start, (SELECT max(seq) FROM events e "
                        f"WHERE e.game_id = g.id) AS head FROM games g{only} ORDER BY g.created_at, g.id",
                        None if games is None else [list(games)]).fetchall()
        marks = {(r["subscriber"], r["game_id"]): r["seq"] for r in self._q(
            "SELECT * FROM reaction_positions WHERE subscriber = ANY(%s)", [list(subscribers)]).fetchall()}
        return [g["id"] for g in heads if any((g["head"] or 0) > marks.get((s, g["id"]), g["start"])
                                              for s in subscribers)]

    def hold_invitations(self, game_id: str, tokens: dict[str, str]) -> None:
        """Keep a new game's raw tokens (seat -> token) until its invitations are queued (`take_invitations`)."""
        with self._write_lock():
            for seat, token in tokens.items():
                self._q("INSERT INTO pending_invitations (game_id, seat, token) VALUES (%s, %s, %s)",
                        [game_id, seat, token])

    def take_invitations(self, game_id: str) -> dict[str, str]:
        """The raw tokens held for `game_id` (seat -> token), deleted in the caller's transaction."""
        with self._write_lock():
            rows = self._q("DELETE FROM pending_invitations WHERE game_id = %s RETURNING seat, token",
                           [game_id]).fetchall()
        return {r["seat"]: r["token"] for r in rows}

    def keep_answer(self, message_id: str, answer: dict) -> None:
        """The answer an incoming message got, in the transaction that processed it."""
        self._q("INSERT INTO message_answers (message_id, answer) VALUES (%s, %s) ON CONFLICT (message_id) "
                "DO NOTHING", [message_id, canonical_json(answer)])

    def answer_of(self, message_id: str) -> dict | None:
        row = self._q("SELECT answer FROM message_answers WHERE message_id = %s", [message_id]).fetchone()
        return json.loads(row["answer"]) if row else None

    # -- snapshots (a cache) ----------------------------------------------------------------------------
    def save_snapshot(self, game_id: str, seq: int, rules_version: str, state: dict) -> bool:
        """Cache a folded state. A cache write that fails is skipped, never an error (inside a transaction it is
        a savepoint, so its failure leaves the caller's writes standing)."""
        try:
            with self.conn.transaction():
                self.conn.execute(
                    "INSERT INTO snapshots (game_id, seq, rules_version, state) VALUES (%s, %s, %s, %s) "
                    "ON CONFLICT (game_id, seq) DO UPDATE SET rules_version = excluded.rules_version, "
                    "state = excluded.state", [game_id, seq, rules_version, canonical_json(state)])
            return True
        except psycopg.Error:
            return False

    def latest_snapshot(self, game_id: str, at_or_before: int, rules_version: str) -> tuple[int, dict] | None:
        row = self._q("SELECT seq, state FROM snapshots WHERE game_id = %s AND seq <= %s AND rules_version = %s "
                      "ORDER BY seq DESC LIMIT 1", [game_id, at_or_before, rules_version]).fetchone()
        return (row["seq"], json.loads(row["state"])) if row else None

    def drop_snapshots(self, game_id: str | None = None) -> None:
        """Drop the cached states (of one game); a refusal raises StoreUnavailable."""
        if game_id is None:
            self._q("DELETE FROM snapshots")
        else:
            self._q("DELETE FROM snapshots WHERE game_id = %s", [game_id])


MARK = "\x01"  # starts a stored text that was escaped (to_db): it held a NUL, or itself started with MARK


def to_db(value: str) -> str:
    """A text as a PostgreSQL TEXT value, which cannot hold NUL (SQLite's can): a text with a NUL, or starting with
    MARK, is MARK and the text with backslash doubled and NUL written \\0; any other text is kept as it is. One
    stored value per text, so equality in a WHERE clause still means equal texts."""
    if "\x00" not in value and not value.startswith(MARK):
        return value
    return MARK + value.replace("\\", "\\\\").replace("\x00", "\\0")


_ESCAPED = re.compile(r"\\(.)", re.DOTALL)


def from_db(value: str) -> str:
    """The text `to_db` stored as `value`."""
    if not value.startswith(MARK):
        return value
    return _ESCAPED.sub(lambda m: "\x00" if m.group(1) == "0" else m.group(1), value[1:])


def _params(args):
    """A statement's parameters with each text as `to_db` stores it."""
    if args is None:
        return None
    return [to_db(a) if isinstance(a, str) else a for a in args]


def _text_row(cursor: psycopg.Cursor) -> RowMaker[dict]:
    """Rows as dicts (psycopg's dict_row), each text as it was before `to_db`."""
    make = dict_row(cursor)

    def row(values) -> dict:
        return {k: from_db(v) if isinstance(v, str) else v for k, v in make(values).items()}

    return row


def append_call(game_id: str, after: int, prev_hash: str, sealed: list[StoredEvent],
                payloads: list[str]) -> tuple[str, list]:
    """The statement calling append_events (db/postgres/0003) for a batch sealed after (`after`, `prev_hash`), and
    its parameters (texts as given: `_q` stores them as `to_db` does). Its arrays are built by the server from one
    parameter per value (ARRAY[%s, ...]), which psycopg adapts in C, where a list parameter is adapted in Python."""
    return _append_query(len(sealed)), [
        game_id, after, prev_hash, sealed[0].at if sealed else utc_now(), *(e.type for e in sealed),
        *(e.version for e in sealed), *payloads, *(e.actor for e in sealed), *(e.causation for e in sealed),
        *(e.hash for e in sealed)]


@functools.cache
def _append_query(events: int) -> str:
    """append_events' call for a batch of `events` events (one prepared statement per batch size)."""
    values = ", ".join(["%s"] * events)
    arrays = ", ".join(f"ARRAY[{values}]::{kind}[]" for kind in ("text", "integer", "text", "text", "integer", "text"))
    return f"SELECT head_seq, head_hash FROM append_events(%s, %s, %s, %s, {arrays})"


_HEADS: dict[str, dict[str, tuple[int, str]]] = {}


def _heads_of(url: str) -> dict[str, tuple[int, str]]:
    """The heads (seq, hash) of games this process saw committed on the database at `url`, by game, shared by
    its connections to it. Only a shortcut: append_events checks the head under the game's lock, so a head
    remembered wrongly (the database replaced under the same URL) costs one more call, never a wrong chain."""
    return _HEADS.setdefault(url, {})


def _without_position(row: dict) -> dict:
    return {k: v for k, v in row.items() if k != "position"}
