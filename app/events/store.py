"""The event store: append-only, hash-chained streams per game in SQLite (the standard library's sqlite3).

Durability: a transaction is on disk (fsynced) before `append` (or any write transaction) returns, so an order
acknowledged to a player survives a power cut. The WAL journal is fsynced after the commit rather than inside it
(synchronous=NORMAL plus `_GroupSync`), which is what synchronous=FULL does, except that concurrent writers, to
different games, share one fsync instead of each waiting for its own under the write lock (group commit).
Concurrency: `append` takes the writer lock first
(BEGIN IMMEDIATE), checks the caller's expected last sequence number, and writes all events or none.
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from app.events.envelope import GENESIS_HASH, EventBody, StoredEvent, canonical_json, envelope_json, sha256_hex

MIGRATIONS = Path(__file__).resolve().parents[2] / "db" / "migrations"
DEFAULT_DB = Path(__file__).resolve().parents[2] / "db" / "hexledger.sqlite3"


def default_db_path() -> str:
    """`HEXLEDGER_DB` if set, else db/hexledger.sqlite3 in the checkout."""
    return os.environ.get("HEXLEDGER_DB") or str(DEFAULT_DB)


class StoreError(Exception):
    """Base of the store's errors."""


class Conflict(StoreError):
    """A stale writer: the stream moved on since the caller read it. Nothing was written."""

    def __init__(self, game_id: str, expected: int, actual: int):
        super().__init__(f"game {game_id}: expected last event {expected}, but the game is at {actual}; "
                         "reload and try again")
        self.game_id, self.expected, self.actual = game_id, expected, actual


class StoreUnavailable(StoreError):
    """The database could not take the write (locked by another process, or the disk is full). Nothing was
    written; the caller may try again later. `reason` is "locked", "full" or "refused" (any other refusal)."""

    def __init__(self, message: str, reason: str = "refused"):
        super().__init__(message)
        self.reason = reason


class UnknownGame(StoreError):
    def __init__(self, game_id: str):
        super().__init__(f"unknown game {game_id!r}")
        self.game_id = game_id


class NoPbemSettings(StoreError):
    """A change to the play-by-email settings of a game that has none (a local game). Nothing was written."""

    def __init__(self, game_id: str):
        super().__init__(f"game {game_id!r} is not played by email here (it has no play-by-email settings); "
                         "nothing was written")
        self.game_id = game_id


@dataclass(frozen=True)
class NewEvent:
    """An event to append: its body is already encoded and validated (app.events.registry.encode)."""

    type: str
    version: int
    payload: dict
    actor: str
    causation: int | None = None


def seal(game_id: str, after_seq: int, prev_hash: str, events: list[NewEvent]) -> tuple[list[StoredEvent], list[str]]:
    """`events` as the stream's next events after `after_seq` (whose hash is `prev_hash`), chained and sealed, one
    time of writing for the batch, and their payloads as stored (canonical JSON, encoded once for the row and the
    hash); every backend appends what this returns."""
    at = utc_now()
    sealed: list[StoredEvent] = []
    payloads: list[str] = []
    seq = after_seq
    for new in events:
        seq += 1
        payload_json = canonical_json(new.payload)
        hash_ = sha256_hex(envelope_json(game_id, seq, new.type, new.version, payload_json, new.actor, at,
                                         new.causation, prev_hash))
        sealed.append(StoredEvent(game_id, seq, new.type, new.version, new.payload, new.actor, at, new.causation,
                                  prev_hash, hash_))
        payloads.append(payload_json)
        prev_hash = hash_
    return sealed, payloads


def utc_now() -> str:
    return utc_text(datetime.now(UTC))


def utc_parse(text: str) -> datetime:
    """A time as the store (or an ISO 8601 clock reading) wrote it."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def utc_text(moment: datetime) -> str:
    """A UTC time as the store writes it (ISO 8601, microseconds, Z): such texts sort as the times do."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


BackendError = sqlite3.OperationalError
"""What this backend raises when it refuses an operation outside `transaction()` (a read under a lock, a full
disk): callers that map it to StoreUnavailable (`unavailable`) catch it by this name."""


class EventStore:
    """The store's interface: streams (create_game, append, import_stream, game, games, game_exists, head, events,
    event, retractions, dice_seed, transaction), snapshots, play-by-email seats and settings, the tick clock and
    server secrets, the outbox and processed incoming mail. All its SQL is here: a second backend implements these
    methods (tests/core/test_store_contract.py)."""

    def __init__(self, path: str | None = None, busy_timeout: float = 30.0):
        self.path = path or default_db_path()
        self.busy_timeout = busy_timeout
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=busy_timeout)
        conn.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
        _when_unlocked(lambda: conn.execute("PRAGMA journal_mode=WAL"), busy_timeout)
        conn.execute("PRAGMA synchronous=NORMAL")  # the WAL is fsynced after each commit by _GroupSync
        conn.execute("PRAGMA foreign_keys=ON")
        self.db = conn
        self._sync = None if self.path == ":memory:" else _GroupSync.of(self.path)
        self._heads = _heads_of(self.path)
        self._new_heads: dict[str, tuple[int, str]] = {}  # this transaction's appends, kept once it commits
        self._lock_depth = 0
        self._wants_fsync = False
        self._marks: dict[tuple[str, str, str], int] = {}  # seat marks known committed at or above a seq
        self._migrate()

    def close(self) -> None:
        self.db.close()

    # -- schema -----------------------------------------------------------------------------------------
    def _migrate(self) -> None:
        """Apply the pending scripts of db/migrations, each with its record in one transaction. Several
        connections may open a new database at once (a server's threads): the pending list is read again under
        the write lock, so each script runs once and the others find it done."""
        self.db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT)")
        scripts = sorted(MIGRATIONS.glob("*.sql"))

        def pending() -> list[Path]:
            done = {r[0] for r in self.db.execute("SELECT name FROM schema_migrations")}
            return [s for s in scripts if s.name not in done]

        if not pending():
            return
        for script in scripts:
            with self._write_lock():
                if script not in pending():
                    continue
                for statement in _split_sql(script.read_text()):
                    self.db.execute(statement)
                self._insert("schema_migrations", {"name": script.name, "applied_at": utc_now()})

    def _rows(self, sql: str, args: Iterable = ()) -> list[dict]:
        cursor = self.db.execute(sql, list(args))
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor]

    def _insert(self, table: str, row: dict) -> None:
        self.db.execute(f"INSERT INTO {_column(table)} ({', '.join(_column(c) for c in row)}) "
                        f"VALUES ({', '.join('?' * len(row))})", list(row.values()))

    # -- writing ----------------------------------------------------------------------------------------
    def create_game(self, game_id: str, rules: str, scenario: str, first_events: list[NewEvent],
                    seed: str | None, parent: tuple[str, int] | None = None) -> list[StoredEvent]:
        """Register a new game and append its first events, in one transaction."""
        with self._write_lock():
            self._register_game(game_id, rules, scenario, parent)
            if seed is not None:
                self._insert("dice_seeds", {"game_id": game_id, "seed": seed})
            return self._append_locked(game_id, 0, first_events, (0, GENESIS_HASH))

    def append(self, game_id: str, expected_seq: int, events: list[NewEvent]) -> list[StoredEvent]:
        """Append `events` after `expected_seq`, or raise Conflict and write nothing.

        The head this process last committed for the game (seq, hash) is kept (`_heads_of`): when the caller
        expects that seq, the new events are chained to it without reading the head. The stream is append-only, so
        that event is still there with that hash; if another process appended since, the first new event's seq is
        taken, the insert fails on the key (game_id, seq), and that is the Conflict, as if the head had been read."""
        with self._write_lock():
            known = self._heads.get(game_id)
            if known is not None and known[0] == expected_seq:
                return self._append_locked(game_id, expected_seq, events, known)
            head = self._head_unlocked(game_id)
            if head[0] == 0 and not self.game_exists(game_id):  # every game has its first events
                raise UnknownGame(game_id)
            return self._append_locked(game_id, expected_seq, events, head)

    def import_stream(self, game_id: str, rules: str, scenario: str, events: list[StoredEvent],
                      parent: tuple[str, int] | None = None) -> None:
        """Store an already sealed, verified stream (an imported export) as a new game, all or nothing."""
        with self._write_lock():
            self._register_game(game_id, rules, scenario, parent)
            self._insert_events(events)

    def _insert_events(self, events: list[StoredEvent], payloads: list[str] | None = None) -> None:
        """Insert sealed events; `payloads`: their payloads as canonical JSON, if the caller has them (`seal`)."""
        texts = payloads if payloads is not None else [canonical_json(e.payload) for e in events]
        self.db.executemany(f"INSERT INTO events ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            [(e.game_id, e.seq, e.type, e.version, text, e.actor, e.at, e.causation, e.prev_hash,
                              e.hash) for e, text in zip(events, texts, strict=True)])

    def _register_game(self, game_id: str, rules: str, scenario: str, parent: tuple[str, int] | None) -> None:
        if self.game_exists(game_id):
            raise StoreError(f"game {game_id!r} already exists here; nothing written")
        self._insert("games", {
            "id": game_id, "rules": rules, "scenario": scenario, "created_at": utc_now(),
            "parent_id": parent[0] if parent else None, "parent_seq": parent[1] if parent else None,
        })

    def _append_locked(self, game_id: str, expected_seq: int, events: list[NewEvent],
                       head: tuple[int, str]) -> list[StoredEvent]:
        last_seq, last_hash = head
        if last_seq != expected_seq:
            raise Conflict(game_id, expected_seq, last_seq)
        sealed, payloads = seal(game_id, expected_seq, last_hash, events)
        try:
            self._insert_events(sealed, payloads)
        except sqlite3.IntegrityError as exc:
            self._heads.pop(game_id, None)
            raise Conflict(game_id, expected_seq, self._head_unlocked(game_id)[0]) from exc
        if sealed:
            self._new_heads[game_id] = (sealed[-1].seq, sealed[-1].hash)
        return sealed

    class _Lock:
        """BEGIN IMMEDIATE ... COMMIT; a lock taken inside another of the same store joins it (one commit). The
        commit returns once fsynced unless every lock in the transaction was taken with durable=False."""

        def __init__(self, store: EventStore, durable: bool = True):
            self.store, self.conn, self.durable = store, store.db, durable
            self.queued: threading.Lock | None = None

        def __enter__(self):
            self.store._lock_depth += 1
            if self.store._lock_depth > 1:
                self.store._wants_fsync |= self.durable
                return
            self.store._wants_fsync = self.durable
            self.store._new_heads.clear()
            # this process's writers queue here, woken as soon as the writer before them commits; SQLite's own
            # busy handler (for other processes) sleeps a millisecond or more between tries
            queue = self.store._sync.writers if self.store._sync is not None else None
            if queue is not None and not queue.acquire(timeout=self.store.busy_timeout):
                self.store._lock_depth -= 1
                raise StoreUnavailable("the database is locked by another writer (of this process); nothing was "
                                       "written, try again", "locked")
            try:
                self.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                self.store._lock_depth -= 1
                if queue is not None:
                    queue.release()
                raise unavailable(exc) from exc
            self.queued = queue

        def __exit__(self, exc_type, exc, tb):
            self.store._lock_depth -= 1
            if self.store._lock_depth:
                return False  # the outermost lock commits, or rolls back everything
            try:
                if exc_type is None:
                    if not self.conn.in_transaction:  # SQLite rolled it back under a statement (full, I/O)
                        raise StoreUnavailable("the database rolled the write back (the disk is full, or it could "
                                               "not be written); nothing was written", "full")
                    try:
                        self.conn.execute("COMMIT")
                    except sqlite3.OperationalError as commit_error:
                        _roll_back(self.conn)  # a failed COMMIT may have rolled back already: the cause is told
                        raise unavailable(commit_error) from commit_error
                    self.store._heads.update(self.store._new_heads)  # committed: the games' heads now
                else:
                    _roll_back(self.conn)
            finally:
                self.store._new_heads.clear()
                if self.queued is not None:
                    self.queued.release()  # the next writer goes on while this one waits for its fsync
                    self.queued = None
            if exc_type is None:
                if self.store._wants_fsync:
                    self.store._durable()
                return False
            if exc_type is sqlite3.OperationalError:
                raise unavailable(exc) from exc
            return False

    def _write_lock(self, durable: bool = True) -> EventStore._Lock:
        return EventStore._Lock(self, durable)

    def _durable(self) -> None:
        """Return once what this connection committed is fsynced (outside a transaction: it commits later)."""
        if self._sync is not None and not self._lock_depth:
            self._sync.after_commit()

    def transaction(self) -> EventStore._Lock:
        """One write transaction for several writes (events and the service's own tables): all or none.
        Appends inside it join it; a locked database or a full disk raises StoreUnavailable and writes nothing."""
        return self._write_lock()

    # -- reading ----------------------------------------------------------------------------------------
    def _head_unlocked(self, game_id: str) -> tuple[int, str]:
        row = self.db.execute(
            "SELECT seq, hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1", [game_id]
        ).fetchone()
        return (row[0], row[1]) if row else (0, GENESIS_HASH)

    def head(self, game_id: str) -> tuple[int, str]:
        """(last sequence number, its hash) of a game's stream."""
        head = self._head_unlocked(game_id)
        if head[0] == 0:
            self.game(game_id)  # UnknownGame (every game has its first events)
        return head

    def game_exists(self, game_id: str) -> bool:
        return self.db.execute("SELECT 1 FROM games WHERE id = ?", [game_id]).fetchone() is not None

    def retractions(self, game_id: str, to_seq: int) -> list[tuple[int, dict]]:
        """(seq, payload) of the game's core.Retracted events up to `to_seq`, in order."""
        return [(row[0], json.loads(row[1])) for row in self.db.execute(
            "SELECT seq, payload FROM events WHERE game_id = ? AND type = 'core.Retracted' AND seq <= ? "
            "ORDER BY seq", [game_id, to_seq])]

    def game(self, game_id: str) -> dict:
        rows = self._rows("SELECT * FROM games WHERE id = ?", [game_id])
        if not rows:
            raise UnknownGame(game_id)
        return rows[0]

    def games(self, after: str | None = None, limit: int | None = None, finished_only: bool = False) -> list[dict]:
        """Games in the order they were created, from just after the game `after`, at most `limit`; with
        `finished_only` only games that ended (their dice seed revealed because the game was over)."""
        where, args = [], []
        if after is not None:
            where.append("(g.created_at, g.id) > (SELECT created_at, id FROM games WHERE id = ?)")
            args.append(after)
        if finished_only:
            where.append("EXISTS (SELECT 1 FROM events e WHERE e.game_id = g.id AND e.type = 'core.SeedRevealed' "
                         "AND json_extract(e.payload, '$.reason') = 'game over')")
        sql = ("SELECT g.*, (SELECT max(seq) FROM events e WHERE e.game_id = g.id) AS last_seq FROM games g"
               + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY g.created_at, g.id")
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return self._rows(sql, args)

    def events(self, game_id: str, from_seq: int = 1, to_seq: int | None = None) -> Iterator[StoredEvent]:
        """A game's events in order, from `from_seq` through `to_seq` (inclusive)."""
        sql = f"SELECT {_COLUMNS} FROM events WHERE game_id = ? AND seq >= ?"
        args: list = [game_id, from_seq]
        if to_seq is not None:
            sql += " AND seq <= ?"
            args.append(to_seq)
        for game, seq, type_, version, payload, actor, at, causation, prev_hash, hash_ in self.db.execute(
                sql + " ORDER BY seq", args):
            yield StoredEvent(game, seq, type_, version, json.loads(payload), actor, at, causation, prev_hash, hash_)

    def bodies(self, game_id: str, from_seq: int = 1, to_seq: int | None = None) -> Iterator[EventBody]:
        """What a fold reads of a game's events (seq, type, version, payload), in order, `from_seq` through
        `to_seq` (inclusive): `events` without the envelope's provenance and chain fields."""
        sql = "SELECT seq, type, version, payload FROM events WHERE game_id = ? AND seq >= ?"
        args: list = [game_id, from_seq]
        if to_seq is not None:
            sql += " AND seq <= ?"
            args.append(to_seq)
        for seq, type_, version, payload in self.db.execute(sql + " ORDER BY seq", args):
            yield EventBody(game_id, seq, type_, version, json.loads(payload))

    def event(self, game_id: str, seq: int) -> StoredEvent | None:
        return next(self.events(game_id, seq, seq), None)

    def dice_seed(self, game_id: str) -> str | None:
        row = self.db.execute("SELECT seed FROM dice_seeds WHERE game_id = ?", [game_id]).fetchone()
        return row[0] if row else None

    @property
    def in_transaction(self) -> bool:
        """Inside `transaction()` (or an append): what is written now is not committed yet."""
        return self._lock_depth > 0

    # -- play by email: a game's settings and seats (app/service/seats.py) ---------------------------------
    def add_pbem_game(self, game_id: str, settings: dict, members: list[dict]) -> None:
        """A game's play-by-email settings (columns of pbem_games) and its seats (game_id, seat, email, token_hash,
        created_at), in the caller's transaction."""
        with self._write_lock():
            self._insert("pbem_games", {"game_id": game_id, **settings})
            for m in members:
                self._insert("pbem_members", {"game_id": game_id, **m})

    def members(self, game_id: str) -> list[dict]:
        """A game's seats, each a dict (seat, email, token_hash, last_seen_seq, last_notified_seq, ...)."""
        return self._rows("SELECT * FROM pbem_members WHERE game_id = ? ORDER BY rowid", [game_id])

    def pbem_settings(self, game_id: str) -> dict | None:
        rows = self._rows("SELECT * FROM pbem_games WHERE game_id = ?", [game_id])
        return rows[0] if rows else None

    def update_pbem_game(self, game_id: str, changes: dict) -> None:
        """Change columns of a game's play-by-email settings; a game without settings is NoPbemSettings."""
        with self._write_lock():
            updated = self.db.execute(f"UPDATE pbem_games SET {', '.join(f'{_column(c)} = ?' for c in changes)} "
                                      "WHERE game_id = ?", [*changes.values(), game_id]).rowcount
            if not updated:
                raise NoPbemSettings(game_id)

    def pbem_games(self, running_only: bool = True, on_clock_only: bool = False) -> list[dict]:
        """Play-by-email games' settings: not yet over (`running_only`), with a deadline running (`on_clock_only`)."""
        where = ["over_notified = 0"] if running_only else []
        if on_clock_only:
            where += ["deadline_hours IS NOT NULL", "turn_side IS NOT NULL"]
        return self._rows("SELECT * FROM pbem_games" + (" WHERE " + " AND ".join(where) if where else "")
                          + " ORDER BY rowid")

    def mark_seen(self, game_id: str, seat: str, seq: int) -> None:
        """The seat has read the game up to `seq` (never lowered). A refusal raises StoreUnavailable."""
        self._seat_mark("last_seen_seq", game_id, seat, seq)

    def mark_notified(self, game_id: str, seat: str, seq: int) -> None:
        """The seat's turn email up to `seq` went (never lowered)."""
        self._seat_mark("last_notified_seq", game_id, seat, seq)

    def _seat_mark(self, column: str, game_id: str, seat: str, seq: int) -> None:
        """A mark only rises, whoever writes it, so one this connection saw committed at or above `seq` needs no
        statement: a player reading an unchanged game again takes no write lock (and waits for no writer)."""
        key = (column, game_id, seat)
        if self._marks.get(key, -1) >= seq:
            return
        try:  # a mark already there writes nothing (a player reading an unchanged game: no commit, no fsync)
            changed = self.db.execute(f"UPDATE pbem_members SET {column} = ? WHERE game_id = ? AND seat = ? "
                                      f"AND {column} < ?", [seq, game_id, seat, seq]).rowcount
        except sqlite3.OperationalError as exc:
            raise unavailable(exc) from exc
        if changed:
            self._durable()
            if not self.in_transaction:  # inside one, a rollback could take the mark back
                self._marks[key] = seq

    # -- the server's own records -----------------------------------------------------------------------
    def secret(self, name: str, fresh: str) -> str:
        """The server secret `name`, made `fresh` on first use and kept from then on."""
        self.db.execute("INSERT OR IGNORE INTO server_secrets (name, value, created_at) VALUES (?, ?, ?)",
                        [name, fresh, utc_now()])
        self._durable()
        return self.db.execute("SELECT value FROM server_secrets WHERE name = ?", [name]).fetchone()[0]

    def swap_clock(self, name: str, at: str) -> str | None:
        """Record `at` as the clock `name`'s last reading; returns the one before (None the first time)."""
        row = self.db.execute("SELECT at FROM tick_clock WHERE name = ?", [name]).fetchone()
        self.db.execute("INSERT OR REPLACE INTO tick_clock (name, at) VALUES (?, ?)", [name, at])
        self._durable()
        return row[0] if row else None

    # -- the outbox (app/service/outbox.py) -------------------------------------------------------------
    def queue_mail(self, rows: list[dict], now: str) -> list[int]:
        """Add outgoing mail (kind, recipient, game_id, seat, message_id, data: a dict), due at `now`. Called
        inside the transaction of the write that causes it, it commits or rolls back with that write. Returns the
        row ids."""
        ids = []
        with self._write_lock():
            for row in rows:
                cursor = self.db.execute(
                    "INSERT INTO outbox (game_id, kind, recipient, seat, message_id, data, created_at, "
                    "next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [row.get("game_id"), row["kind"], row["recipient"], row.get("seat"), row["message_id"],
                     canonical_json(row["data"]), now, now])
                ids.append(cursor.lastrowid)
        return ids

    def claim_mail(self, now: str, lease_until: str, ids: list[int] | None = None, limit: int = 50) -> list[dict]:
        """Pending mail due at `now` (of `ids` only, if given), oldest first, each claimed until `lease_until`
        (in one write, under the writer lock) so that no other sender (another thread, process or `tick`) takes it
        meanwhile. The outbox's own bookkeeping (this claim, `mail_sent`, `mail_failed`) commits without waiting
        for an fsync: delivery is at least once, so a mark lost in a power cut means the mail goes again, as it
        would after a crash between sending and marking; the next durable write's fsync covers it anyway."""
        if ids == []:
            return []
        sql = "SELECT * FROM outbox WHERE status = 'pending' AND next_attempt_at <= ?"
        args: list = [now]
        if ids is not None:
            sql += f" AND id IN ({', '.join('?' * len(ids))})"
            args += ids
        with self._write_lock(durable=False):
            rows = self._rows(sql + " ORDER BY id LIMIT ?", [*args, limit])
            for row in rows:
                self.db.execute("UPDATE outbox SET next_attempt_at = ? WHERE id = ?", [lease_until, row["id"]])
        return [{**row, "data": json.loads(row["data"])} for row in rows]

    def supersede_mail(self, now: str) -> int:
        """Mark superseded every pending turn email due at `now` that a later turn email of its game makes stale
        (app/service/outbox.py's docstring: one to the same seat, or one from a later position to anyone), with the
        newest such row's id; the row stays, never laid out nor sent. Bookkeeping like the claim (no fsync).
        Returns how many."""
        with self._write_lock(durable=False):
            return self.db.execute(
                "UPDATE outbox SET status = 'superseded', superseded_by = newest.id FROM ("
                " SELECT old.id AS old_id, max(newer.id) AS id FROM outbox AS old JOIN outbox AS newer"
                " ON newer.game_id = old.game_id AND newer.kind = 'turn' AND newer.id > old.id"
                " AND (newer.seat = old.seat OR json_extract(newer.data, '$.seq') > json_extract(old.data, '$.seq'))"
                " WHERE old.kind = 'turn' AND old.status = 'pending' AND old.next_attempt_at <= ? GROUP BY old.id"
                ") AS newest WHERE outbox.id = newest.old_id", [now]).rowcount

    def mail_sent(self, mail_id: int) -> None:
        with self._write_lock(durable=False):
            self.db.execute("DELETE FROM outbox WHERE id = ?", [mail_id])

    def mail_failed(self, mail_id: int, error: str, retry_at: str | None) -> None:
        """Record a failed attempt: try again at `retry_at`, or (None) never without an operator."""
        with self._write_lock(durable=False):
            self.db.execute("UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = "
                            "coalesce(?, next_attempt_at), status = ? WHERE id = ?",
                            [error[:500], retry_at, "pending" if retry_at else "failed", mail_id])

    def retry_failed_mail(self, now: str) -> int:
        """Every failed row pending again, due now; returns how many."""
        with self._write_lock():
            return self.db.execute("UPDATE outbox SET status = 'pending', next_attempt_at = ? "
                                   "WHERE status = 'failed'", [now]).rowcount

    def mail_queue(self) -> list[dict]:
        """Every undelivered row (pending, failed, superseded), without its content (an invitation's carries a
        token)."""
        return self._rows("SELECT id, game_id, kind, recipient, seat, status, created_at, attempts, "
                          "next_attempt_at, last_error, superseded_by FROM outbox ORDER BY id")

    def next_mail_due(self) -> str | None:
        return self.db.execute("SELECT min(next_attempt_at) FROM outbox WHERE status = 'pending'").fetchone()[0]

    # -- processed incoming mail ------------------------------------------------------------------------
    def mail_processed(self, message_id: str) -> bool:
        return self.db.execute("SELECT 1 FROM pbem_messages WHERE message_id = ?", [message_id]).fetchone() is not None

    def record_mail(self, message_id: str, game_id: str | None, outcome: str) -> None:
        """Mark an incoming message processed; inside the transaction of the orders it carried."""
        with self._write_lock():
            self.db.execute("INSERT OR IGNORE INTO pbem_messages (message_id, game_id, received_at, outcome) "
                            "VALUES (?, ?, ?, ?)", [message_id, game_id, utc_now(), outcome])

    # -- reactions (app/service/reactions.py): subscribers' positions, held invitations, answers kept -------
    def reaction_position(self, subscriber: str, game_id: str) -> int:
        """The last event of `game_id` that `subscriber` has reacted to; inside the caller's write transaction,
        which holds it (SQLite's one writer) until the new position commits with the subscriber's outputs. A game
        without a position starts at its fork point (a fork's copied events were its parent's) or 0."""
        row = self.db.execute("SELECT seq FROM reaction_positions WHERE subscriber = ? AND game_id = ?",
                              [subscriber, game_id]).fetchone()
        if row is not None:
            return row[0]
        start = self.db.execute("SELECT coalesce(parent_seq, 0) FROM games WHERE id = ?", [game_id]).fetchone()
        if start is None:
            raise UnknownGame(game_id)
        return start[0]

    def set_reaction_position(self, subscriber: str, game_id: str, seq: int) -> None:
        with self._write_lock():
            self.db.execute("INSERT INTO reaction_positions (subscriber, game_id, seq) VALUES (?, ?, ?) "
                            "ON CONFLICT (subscriber, game_id) DO UPDATE SET seq = excluded.seq",
                            [subscriber, game_id, seq])

    def reactions_behind(self, subscribers: list[str], games: list[str] | None = None) -> list[str]:
        """The games (of `games` only, if given) whose stream goes past some subscriber's position, oldest first."""
        only = "" if games is None else f" WHERE g.id IN ({', '.join('?' * len(games))})"
        heads = self._rows("SELECT g.id, coalesce(g.parent_seq, 0) AS start, (SELECT max(seq) FROM events e "
                           f"WHERE e.game_id = g.id) AS head FROM games g{only} ORDER BY g.rowid", games or [])
        marks = {(r["subscriber"], r["game_id"]): r["seq"] for r in self._rows(
            f"SELECT * FROM reaction_positions WHERE subscriber IN ({', '.join('?' * len(subscribers))})",
            subscribers)}
        return [g["id"] for g in heads if any((g["head"] or 0) > marks.get((s, g["id"]), g["start"])
                                              for s in subscribers)]

    def hold_invitations(self, game_id: str, tokens: dict[str, str]) -> None:
        """Keep a new game's raw tokens (seat -> token) until its invitations are queued (`take_invitations`)."""
        with self._write_lock():
            self.db.executemany("INSERT INTO pending_invitations (game_id, seat, token) VALUES (?, ?, ?)",
                                [(game_id, seat, token) for seat, token in tokens.items()])

    def take_invitations(self, game_id: str) -> dict[str, str]:
        """The raw tokens held for `game_id` (seat -> token), deleted in the caller's transaction."""
        with self._write_lock():
            held = dict(self.db.execute("SELECT seat, token FROM pending_invitations WHERE game_id = ?",
                                        [game_id]).fetchall())
            self.db.execute("DELETE FROM pending_invitations WHERE game_id = ?", [game_id])
        return held

    def keep_answer(self, message_id: str, answer: dict) -> None:
        """The answer an incoming message got, in the transaction that processed it."""
        with self._write_lock():
            self.db.execute("INSERT OR IGNORE INTO message_answers (message_id, answer) VALUES (?, ?)",
                            [message_id, canonical_json(answer)])

    def answer_of(self, message_id: str) -> dict | None:
        row = self.db.execute("SELECT answer FROM message_answers WHERE message_id = ?", [message_id]).fetchone()
        return json.loads(row[0]) if row else None

    # -- snapshots (a cache) ----------------------------------------------------------------------------
    def save_snapshot(self, game_id: str, seq: int, rules_version: str, state: dict) -> bool:
        """Cache a folded state. A cache write that fails (disk full, locked) is skipped, never an error:
        the events are already stored and the loader folds from an earlier snapshot instead."""
        try:
            self.db.execute("INSERT OR REPLACE INTO snapshots (game_id, seq, rules_version, state) "
                            "VALUES (?, ?, ?, ?)", [game_id, seq, rules_version, canonical_json(state)])
            return True
        except sqlite3.OperationalError as exc:
            if self._lock_depth and not self.db.in_transaction:  # the failure took the caller's transaction with it
                raise unavailable(exc) from exc
            return False

    def latest_snapshot(self, game_id: str, at_or_before: int, rules_version: str) -> tuple[int, dict] | None:
        row = self.db.execute(
            "SELECT seq, state FROM snapshots WHERE game_id = ? AND seq <= ? AND rules_version = ? "
            "ORDER BY seq DESC LIMIT 1", [game_id, at_or_before, rules_version]).fetchone()
        return (row[0], json.loads(row[1])) if row else None

    def drop_snapshots(self, game_id: str | None = None) -> None:
        """Drop the cached states (of one game); a refusal raises StoreUnavailable."""
        try:
            if game_id is None:
                self.db.execute("DELETE FROM snapshots")
            else:
                self.db.execute("DELETE FROM snapshots WHERE game_id = ?", [game_id])
        except sqlite3.OperationalError as exc:
            raise unavailable(exc) from exc


class _GroupSync:
    """Group commit for one database file, shared by every connection of this process to it.

    A writer commits (the WAL frames are written, not yet fsynced), takes a ticket, and waits until an fsync of
    the WAL that began after its commit has finished; the first waiter runs that fsync for everyone committed by
    then, so writers that commit while an fsync is running share the next one. fsync flushes the file whoever
    wrote it, so commits of other processes are covered too; each process acknowledges only its own."""

    _all: dict[str, _GroupSync] = {}
    _all_lock = threading.Lock()

    def __init__(self, path: str):
        self.file, self.wal, self.folder = path, path + "-wal", os.path.dirname(path) or "."
        self.cond = threading.Condition()
        self.writers = threading.Lock()  # EventStore._Lock: one write transaction of this process at a time
        self.committed = self.synced = 0
        self.syncing = False
        self.folder_synced = False

    @classmethod
    def of(cls, path: str) -> _GroupSync:
        key = os.path.realpath(path)
        with cls._all_lock:
            return cls._all.setdefault(key, cls(key))

    def after_commit(self) -> None:
        with self.cond:
            self.committed += 1
            ticket = self.committed
            while self.synced < ticket:
                if self.syncing:
                    self.cond.wait()
                    continue
                self.syncing, covered, done = True, self.committed, False
                self.cond.release()
                try:
                    self._fsync()
                    done = True
                finally:
                    self.cond.acquire()
                    self.syncing = False
                    if done:
                        self.synced = max(self.synced, covered)
                    self.cond.notify_all()

    def _fsync(self) -> None:
        wal = self.wal if os.path.exists(self.wal) else self.file  # no WAL: a file system that refused the mode
        # the journal's data (and its size) as SQLite's own sync does it, fdatasync; the folder, once, in full:
        # it holds a new journal's name
        for path, sync in [(wal, os.fdatasync)] + ([] if self.folder_synced else [(self.folder, os.fsync)]):
            fd = os.open(path, os.O_RDONLY)
            try:
                sync(fd)
            finally:
                os.close(fd)
        self.folder_synced = True


def unavailable(exc: sqlite3.OperationalError) -> StoreUnavailable:
    """The StoreUnavailable for a refused write (its text says which: locked, full, or other)."""
    text = str(exc)
    if "locked" in text or "busy" in text:
        return StoreUnavailable(f"the database is locked by another writer ({text}); nothing was written, "
                                "try again", "locked")
    if "full" in text:
        return StoreUnavailable(f"the database disk is full ({text}); nothing was written", "full")
    return StoreUnavailable(f"the database refused the write ({text}); nothing was written", "refused")


def _roll_back(conn: sqlite3.Connection) -> None:
    """Roll back what is left of a transaction. SQLite rolls one back by itself when a statement or the COMMIT fails
    with a full disk or an I/O error: a ROLLBACK then would fail ("no transaction is active") and hide the cause."""
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.OperationalError:
            pass  # the connection's transaction ended with the error being raised; that error is the one told


def _column(name: str) -> str:
    """A table or column name the store's own code passes (never a player's text), checked all the same."""
    if not name.replace("_", "").isalnum() or not name.isascii():
        raise ValueError(f"not a column name: {name!r}")
    return name


_COLUMNS = "game_id, seq, type, version, payload, actor, at, causation, prev_hash, hash"


_HEADS: dict[tuple[int, int], dict[str, tuple[int, str]]] = {}


def _heads_of(path: str) -> dict[str, tuple[int, str]]:
    """The heads (seq, hash) of the games this process has appended to, by game, shared by its connections to one
    database file: the file itself (device and inode), so a file put in another's place starts with none."""
    if path == ":memory:":
        return {}
    found = os.stat(path)
    return _HEADS.setdefault((found.st_dev, found.st_ino), {})



def _when_unlocked(step, timeout: float):
    """Run `step`, retrying while the database is locked, up to `timeout` seconds. Switching a new database to
    WAL takes a lock that SQLite's busy handler does not wait for: connections opening it at once collide."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return step()
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.01)


def _split_sql(script: str) -> Iterable[str]:
    """Split a migration into statements, keeping trigger bodies (BEGIN ... END;) whole."""
    statement: list[str] = []
    in_trigger = False
    for line in script.splitlines():
        if line.strip().startswith("--") and not statement:
            continue
        statement.append(line)
        upper = line.upper()
        if "CREATE TRIGGER" in upper:
            in_trigger = True
        if (in_trigger and upper.rstrip().endswith("END;")) or (not in_trigger and line.rstrip().endswith(";")):
            yield "\n".join(statement)
            statement, in_trigger = [], False
    if "".join(statement).strip():
        yield "\n".join(statement)
