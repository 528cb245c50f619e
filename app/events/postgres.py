"""PostgreSQL (psycopg 3), for operators who outgrow one machine: the dialect of app/events/dialect.py.

- Append-only: triggers refuse UPDATE, DELETE and TRUNCATE of events (migrations/postgres/0001_schema.sql).
- An append takes the game's row lock (SELECT ... FOR UPDATE), so writers to one game queue while writers to
  different games run side by side, and an append and a reaction to that game do not overlap
  (app/events/reactions.py); it inserts the sealed batch only if the stream's last event is the one it was sealed
  after (that seq with that hash), and the primary key (game_id, seq) refuses a second batch onto one head. Either
  way it is one round trip: outside a transaction one INSERT (`append_statement`), which is its own transaction
  (only an append that stored nothing asks once more why: `_found`); inside one, where a failed statement would
  end the caller's transaction, a call of the database's append_events (migrations/postgres/0010), which reads the
  head once the lock is granted, so a writer that lost the race gets its answer without an error.
- Durable: synchronous_commit is set on for every connection, so a commit is flushed to the server's WAL before it
  returns (the server's own fsync must stay on: docs/core.md).
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
import re
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext

import psycopg
from psycopg import errors
from psycopg.rows import RowFactory, RowMaker, dict_row

from app.events import migrations
from app.events.dialect import Database, digest, head_of
from app.events.envelope import StoredEvent, utc_now
from app.events.errors import Conflict, StoreUnavailable
from app.events.location import shown

MIGRATION_LOCK = 0x4845584C  # pg_advisory_xact_lock key: servers opening a new database apply each script once
LOCKED = ("55P03", "40P01", "40001", "53300")  # lock not granted, deadlock, serialization, too many connections
FULL = ("53100",)  # disk full


def refused(exc: psycopg.Error) -> StoreUnavailable:
    """The StoreUnavailable for a refusal by the server (its text says which: locked, full, or other)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    state = getattr(exc, "sqlstate", None) or ""
    if state in LOCKED:
        return StoreUnavailable("the database is locked by another writer; nothing was written, try again", "locked",
                                text)
    if state in FULL:
        return StoreUnavailable("the database disk is full; nothing was written", "full", text)
    return StoreUnavailable("the database refused the write; nothing was written", "refused", text)


class PostgresDatabase(Database):
    """A connection to the PostgreSQL database named by a postgresql:// URL, migrated on opening."""

    order = "position"  # pbem_games' and pbem_members' own column: PostgreSQL has no rowid
    for_update = " FOR UPDATE"
    skip_locked = " FOR UPDATE SKIP LOCKED"

    def __init__(self, url: str, busy_timeout: float = 30.0):
        super().__init__(url, _HEADS.setdefault(url, {}))
        self.busy_timeout = busy_timeout
        self._tx: psycopg.Transaction | None = None
        self.conn = self._connect()
        self._migrate()

    def _connect(self) -> psycopg.Connection:
        options = f"-c synchronous_commit=on -c lock_timeout={max(1, int(self.busy_timeout * 1000))}"
        try:
            return psycopg.connect(self.path, autocommit=True, row_factory=_text_dict, options=options,
                                   application_name="hexledger", connect_timeout=max(1, int(self.busy_timeout)))
        except psycopg.OperationalError as exc:
            raise StoreUnavailable("cannot reach the database; nothing was written, try again", "refused",
                                   f"cannot reach the PostgreSQL database {shown(self.path)}: "
                                   f"{str(exc).strip()[:300]}") from exc

    def close(self) -> None:
        self.conn.close()

    def _q(self, query: str, args: Sequence | None = None, rows: RowFactory | None = None) -> psycopg.Cursor:
        """Run one statement (its rows made by `rows`, default the connection's: dicts of texts as they were sent);
        a refusal by the server is StoreUnavailable. Outside a transaction, a connection the server dropped since
        the last statement (a restart, its backend killed) is opened again and the statement run once more on it:
        what the store runs outside a transaction may run twice (reads, marks that only rise, idempotent inserts, an
        append: inserted once, then found stored)."""
        params = _params(args)
        if self._depth == 0 and (self.conn.closed or self.conn.broken):
            self.conn = self._connect()
        try:
            return (self.conn.cursor(row_factory=rows) if rows else self.conn).execute(query, params)
        except psycopg.OperationalError as exc:
            if self._depth or not self.conn.broken:
                raise refused(exc) from exc
        self.conn = self._connect()
        try:
            return (self.conn.cursor(row_factory=rows) if rows else self.conn).execute(query, params)
        except psycopg.OperationalError as exc:
            raise refused(exc) from exc

    def _migrate(self) -> None:
        """Apply the pending scripts of app/events/migrations/postgres, each with its record, under an advisory
        lock."""
        scripts = migrations.scripts("postgres")
        if self._applied() >= {name for name, _ in scripts}:
            return
        with self.transaction():
            self._q("SELECT pg_advisory_xact_lock(%s)", [MIGRATION_LOCK])
            self._q("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
            done = self._applied()
            for name, text in scripts:
                if name not in done:
                    self._q(text)
                    self._q("INSERT INTO schema_migrations (name, applied_at) VALUES (%s, %s)", [name, utc_now()])

    def _applied(self) -> set[str]:
        if self._q("SELECT to_regclass('schema_migrations') AS t").fetchone()["t"] is None:
            return set()
        return {row["name"] for row in self._q("SELECT name FROM schema_migrations")}

    # -- queries --------------------------------------------------------------------------------------------
    def rows(self, sql: str, args: Sequence = ()) -> list[dict]:
        return self._q(_dialect(sql), args).fetchall()

    def tuples(self, sql: str, args: Sequence = ()) -> Iterable[tuple]:
        return self._q(_dialect(sql), args, _text_tuple).fetchall()

    def one(self, sql: str, args: Sequence = ()) -> tuple | None:
        return self._q(_dialect(sql), args, _text_tuple).fetchone()

    def write(self, sql: str, args: Sequence = (), durable: bool = True) -> int:
        return self._q(_dialect(sql), args).rowcount

    def many(self, sql: str, rows: list[Sequence]) -> None:
        try:
            with self.conn.cursor() as cursor:
                cursor.executemany(_dialect(sql), [_params(row) for row in rows])
        except psycopg.OperationalError as exc:
            raise refused(exc) from exc

    def cache_write(self, sql: str, args: Sequence) -> bool:
        """Inside a transaction a savepoint, so that its failure leaves the caller's writes standing."""
        try:
            with self.conn.transaction():
                self.conn.execute(_dialect(sql), _params(args))
            return True
        except psycopg.Error:
            return False

    def appending(self) -> AbstractContextManager:
        return nullcontext()

    def append(self, game_id: str, after: int, prev_hash: str, sealed: list[StoredEvent],
               payloads: list[str]) -> tuple[int, str] | None:
        """Outside a transaction, one `append_statement`, its own transaction: if it inserted nothing, or lost the
        seq to a writer that committed while it waited for the game's lock (its head check read what was committed
        when it began), nothing is written and `_found` says what the stream holds. Inside a transaction, whose
        writes a failed statement would end, one call of append_events (`append_call`), whose head read is a
        statement of its own once the lock is granted, so a lost race is found before any insert; a unique key
        violated there is a writer that took no game lock (an import): Conflict."""
        if self._depth:
            try:
                found = self._q(*append_call(game_id, after, prev_hash, sealed, payloads), _text_tuple).fetchone()
            except errors.UniqueViolation as exc:
                raise Conflict(game_id, after, after + 1) from exc
            return head_of(found)
        if sealed:
            try:
                if self._q(*append_statement(game_id, after, prev_hash, sealed, payloads)).rowcount == len(sealed):
                    return sealed[-1].seq, sealed[-1].hash
            except errors.UniqueViolation:
                pass  # the statement was its own transaction: nothing of it is stored
        return self._found(game_id, prev_hash, sealed)

    def _found(self, game_id: str, prev_hash: str, sealed: list[StoredEvent]) -> tuple[int, str] | None:
        """Why an append inserted nothing: None for no such game; the batch's own last event if its first is stored
        (the same append sent again after its answer was lost); else the stream's head (an empty stream's is seq 0
        with the hash the batch was sealed after)."""
        first = sealed[0] if sealed else None
        exists, seq, hash_, stored = self._q(FOUND, [game_id, first.seq if first else 0,
                                                      digest(first.hash) if first else b"", game_id, game_id],
                                             _text_tuple).fetchone()
        if not exists:
            return None
        if stored and seq >= sealed[-1].seq:
            return sealed[-1].seq, sealed[-1].hash
        return (seq, hash_.hex()) if seq is not None else (0, prev_hash)

    def json_text(self, column: str, key: str) -> str:
        return f"({column}::jsonb ->> '{key}')"

    def json_int(self, column: str, key: str) -> str:
        return f"({column}::jsonb ->> '{key}')::bigint"

    # -- transactions ---------------------------------------------------------------------------------------
    def _begin(self) -> None:
        try:
            if self.conn.closed or self.conn.broken:
                self.conn = self._connect()
            try:
                self._tx = self.conn.transaction()
                self._tx.__enter__()
            except psycopg.OperationalError:
                if not self.conn.broken:
                    raise
                self.conn = self._connect()  # dropped since the last statement: nothing began, begin again
                self._tx = self.conn.transaction()
                self._tx.__enter__()
        except psycopg.OperationalError as exc:
            raise refused(exc) from exc

    def _commit(self) -> None:
        tx, self._tx = self._tx, None
        try:
            tx.__exit__(None, None, None)
        except psycopg.OperationalError as exc:
            raise refused(exc) from exc

    def _rollback(self) -> None:
        tx, self._tx = self._tx, None
        try:
            tx.__exit__(Exception, Exception(), None)
        except psycopg.OperationalError:
            pass  # the connection is gone, and its transaction with it


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


@functools.lru_cache(maxsize=512)
def _dialect(sql: str) -> str:
    """The tables' SQL (`?` placeholders) as psycopg takes it (`%s`, and a literal % doubled)."""
    return sql.replace("%", "%%").replace("?", "%s")


def _params(args):
    """A statement's parameters with each text as `to_db` stores it: as they are, unless a text among them holds a NUL
    or MARK (looked for once in all of them together)."""
    if args is None:
        return None
    texts = "".join([a for a in args if isinstance(a, str)])
    if "\x00" not in texts and MARK not in texts:
        return args
    return [to_db(a) if isinstance(a, str) else a for a in args]


def _text_dict(cursor: psycopg.Cursor) -> RowMaker[dict]:
    """Rows as dicts (psycopg's dict_row), each text as it was before `to_db`."""
    make = dict_row(cursor)

    def row(values) -> dict:
        return {k: from_db(v) if isinstance(v, str) else v for k, v in make(values).items()}

    return row


def _text_tuple(cursor: psycopg.Cursor) -> RowMaker[tuple]:
    """Rows as tuples, each text as it was before `to_db` (a row with no escaped text is taken as it is)."""

    def row(values) -> tuple:
        for value in values:
            if value.__class__ is str and value.startswith(MARK):
                return tuple(from_db(v) if isinstance(v, str) else v for v in values)
        return tuple(values)

    return row


EVENT_ROW = "(%s::integer, %s, %s::integer, %s, %s, %s::integer, %s, %s, %s)"
FOUND = ("SELECT EXISTS (SELECT FROM games WHERE id = %s), h.seq, h.hash, EXISTS (SELECT FROM events e WHERE "
         "e.game_id = g.id AND e.seq = %s AND e.hash = %s) FROM (SELECT %s::text AS id) AS g LEFT JOIN LATERAL ("
         "SELECT seq, hash FROM events WHERE game_id = %s ORDER BY seq DESC LIMIT 1) AS h ON true")


def append_statement(game_id: str, after: int, prev_hash: str, sealed: list[StoredEvent],
                     payloads: list[str]) -> tuple[str, list]:
    """The INSERT of a batch sealed after (`after`, `prev_hash`), one row of values an event, and its parameters
    (texts as given: `_q` stores them as `to_db` does; hashes and salts as `digest` stores them). It inserts every
    event or none: none unless the game's row is there (and locked), its event `after` has the hash `prev_hash` (or
    `after` is 0) and no event follows it."""
    values = []
    for e, payload in zip(sealed, payloads, strict=True):
        values += (e.seq, e.type, e.version, payload, e.actor, e.causation, digest(e.prev_hash), digest(e.hash),
                   digest(e.salt))
    return _insert_query(len(sealed)), [game_id, sealed[0].at, *values, game_id, after, game_id, after,
                                        digest(prev_hash), game_id, after]


@functools.cache
def _insert_query(events: int) -> str:
    """`append_statement`'s SQL for a batch of `events` events (one prepared statement per batch size)."""
    return ("INSERT INTO events (game_id, seq, type, version, payload, actor, at, causation, prev_hash, hash, salt) "
            "SELECT %s, v.seq, v.type, v.version, v.payload, v.actor, %s, v.causation, v.prev_hash, v.hash, v.salt "
            f"FROM (VALUES {', '.join([EVENT_ROW] * events)}) AS v(seq, type, version, payload, actor, causation, "
            "prev_hash, hash, salt) WHERE EXISTS (SELECT FROM games WHERE id = %s FOR UPDATE) "
            "AND (%s::integer = 0 OR EXISTS (SELECT FROM events WHERE game_id = %s AND seq = %s AND hash = %s)) "
            "AND NOT EXISTS (SELECT FROM events WHERE game_id = %s AND seq = %s::integer + 1)")


def append_call(game_id: str, after: int, prev_hash: str, sealed: list[StoredEvent],
                 payloads: list[str]) -> tuple[str, list]:
    """The statement calling append_events (postgres/0010) for a batch sealed after (`after`, `prev_hash`), and its
    parameters (texts as given: `_q` stores them as `to_db` does; hashes and salts as `digest` stores them). Its
    arrays are built by the server from one parameter per value (ARRAY[%s, ...]), which psycopg adapts in C, where a
    list parameter is adapted in Python."""
    return _append_query(len(sealed)), [
        game_id, after, digest(prev_hash), sealed[0].at if sealed else utc_now(), *(e.type for e in sealed),
        *(e.version for e in sealed), *payloads, *(e.actor for e in sealed), *(e.causation for e in sealed),
        *(digest(e.hash) for e in sealed), *(digest(e.salt) for e in sealed)]


@functools.cache
def _append_query(events: int) -> str:
    """append_events' call for a batch of `events` events (one prepared statement per batch size)."""
    values = ", ".join(["%s"] * events)
    kinds = ("text", "integer", "text", "text", "integer", "bytea", "bytea")  # types .. causations, hashes, salts
    arrays = ", ".join(f"ARRAY[{values}]::{kind}[]" for kind in kinds)
    return f"SELECT head_seq, head_hash FROM append_events(%s, %s, %s, %s, {arrays})"


_HEADS: dict[str, dict[str, tuple[int, str]]] = {}
"""The heads of games this process saw committed on the database at each URL. Only a shortcut: an append
checks the stored head, so a head remembered wrongly (the database replaced under the same URL)
costs one more call, never a wrong chain."""
