"""SQLite, the embedded default (the standard library's sqlite3): the dialect of app/events/dialect.py.

Durability: a transaction is on disk (fsynced) before it returns, so an order acknowledged to a player survives a
power cut. The WAL journal is fsynced after the commit rather than inside it (synchronous=NORMAL plus
`GroupSync`), which is what synchronous=FULL does, except that concurrent writers, to different games, share one
fsync instead of each waiting for its own under the write lock (group commit). Concurrency: a write transaction
takes the writer lock first (BEGIN IMMEDIATE), so an append reads the head it checks under the lock; this
process's writers queue for it in the process (woken as soon as the writer before them commits), other processes
through SQLite's busy handler. A refusal outside a transaction is the raw `sqlite3.OperationalError`
(`BackendError`), which callers map with `unavailable`; inside one, and on a write, it is StoreUnavailable."""
from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path

from app.events import migrations
from app.events.dialect import Database
from app.events.envelope import StoredEvent, utc_now
from app.events.errors import StoreUnavailable

BackendError = sqlite3.OperationalError
"""What this backend raises when it refuses an operation outside a transaction (a read under a lock, a full
disk): callers that map it to StoreUnavailable (`unavailable`) catch it by this name."""

EVENT_COLUMNS = "game_id, seq, type, version, payload, actor, at, causation, prev_hash, hash, salt"


def unavailable(exc: sqlite3.OperationalError) -> StoreUnavailable:
    """The StoreUnavailable for a refused write (its text says which: locked, full, or other)."""
    text = str(exc)
    if "locked" in text or "busy" in text:
        return StoreUnavailable("the database is locked by another writer; nothing was written, try again", "locked",
                                text)
    if "full" in text:
        return StoreUnavailable("the database disk is full; nothing was written", "full", text)
    return StoreUnavailable("the database refused the write; nothing was written", "refused", text)


class SqliteDatabase(Database):
    """A connection to a SQLite file (or ":memory:"), migrated on opening."""

    def __init__(self, path: str, busy_timeout: float = 30.0):
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=busy_timeout)
        conn.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
        _when_unlocked(lambda: conn.execute("PRAGMA journal_mode=WAL"), busy_timeout)
        conn.execute("PRAGMA synchronous=NORMAL")  # the WAL is fsynced after each commit by GroupSync
        conn.execute("PRAGMA foreign_keys=ON")
        super().__init__(path, _heads_of(path))
        self.conn = conn
        self.busy_timeout = busy_timeout
        self.group = None if path == ":memory:" else GroupSync.of(path)
        self._queued: threading.Lock | None = None
        self._migrate()

    def close(self) -> None:
        self.conn.close()

    def _migrate(self) -> None:
        """Apply the pending scripts of app/events/migrations/sqlite, each with its record in one transaction.
        Several connections may open a new database at once (a server's threads): the pending list is read again
        under the write lock, so each script runs once and the others find it done."""
        self.conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT)")
        scripts = migrations.scripts("sqlite")

        def pending() -> set[str]:
            done = {r[0] for r in self.conn.execute("SELECT name FROM schema_migrations")}
            return {name for name, _ in scripts if name not in done}

        if not pending():
            return
        for name, text in scripts:
            with self.transaction():
                if name not in pending():
                    continue
                for statement in _split_sql(text):
                    self.conn.execute(statement)
                self.conn.execute("INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)", [name, utc_now()])

    # -- queries --------------------------------------------------------------------------------------------
    def rows(self, sql: str, args: Sequence = ()) -> list[dict]:
        cursor = self.conn.execute(sql, args)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor]

    def tuples(self, sql: str, args: Sequence = ()) -> Iterable[tuple]:
        return self.conn.execute(sql, args)

    def one(self, sql: str, args: Sequence = ()) -> tuple | None:
        return self.conn.execute(sql, args).fetchone()

    def write(self, sql: str, args: Sequence = (), durable: bool = True) -> int:
        try:
            changed = self.conn.execute(sql, args).rowcount
        except sqlite3.OperationalError as exc:
            raise unavailable(exc) from exc
        if durable and changed and not self._depth:
            self._sync()
        return changed

    def many(self, sql: str, rows: list[Sequence]) -> None:
        self.conn.executemany(sql, rows)

    def cache_write(self, sql: str, args: Sequence) -> bool:
        try:
            self.conn.execute(sql, args)
            return True
        except sqlite3.OperationalError as exc:
            if self._depth and not self.conn.in_transaction:  # SQLite rolled the caller's transaction back with it
                raise unavailable(exc) from exc
            return False

    def appending(self) -> AbstractContextManager:
        return self.transaction()

    def append(self, game_id: str, after: int, prev_hash: str, sealed: list[StoredEvent],
               payloads: list[str]) -> tuple[int, str] | None:
        """Insert the batch (under the writer lock, onto the head the caller read or remembered): the key (game_id,
        seq) refuses it if another process appended since, and the head found then is the answer."""
        if not sealed:
            return after, prev_hash
        try:
            self.conn.executemany(f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                  [(e.game_id, e.seq, e.type, e.version, text, e.actor, e.at, e.causation,
                                    e.prev_hash, e.hash, e.salt) for e, text in zip(sealed, payloads, strict=True)])
        except sqlite3.IntegrityError:
            return self.one("SELECT seq, hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1", [game_id])
        return sealed[-1].seq, sealed[-1].hash

    def json_text(self, column: str, key: str) -> str:
        return f"json_extract({column}, '$.{key}')"

    json_int = json_text

    # -- transactions ---------------------------------------------------------------------------------------
    def _begin(self) -> None:
        queue = self.group.writers if self.group is not None else None
        if queue is not None and not queue.acquire(timeout=self.busy_timeout):
            raise StoreUnavailable("the database is locked by another writer (of this process); nothing was "
                                   "written, try again", "locked")
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if queue is not None:
                queue.release()
            raise unavailable(exc) from exc
        self._queued = queue

    def _commit(self) -> None:
        """SQLite rolls a transaction back by itself when a statement or the COMMIT fails with a full disk or an I/O
        error: then there is nothing to commit or roll back, and the answer is what happened, never "cannot
        rollback - no transaction is active"."""
        if not self.conn.in_transaction:
            raise StoreUnavailable("the database rolled the write back (the disk is full, or it could not be "
                                   "written); nothing was written", "full")
        try:
            self.conn.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            self._rollback()
            raise unavailable(exc) from exc

    def _rollback(self) -> None:
        if self.conn.in_transaction:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.OperationalError:
                pass  # the transaction ended with the error being raised: that error is the one told

    def _release(self) -> None:
        if self._queued is not None:
            self._queued.release()
            self._queued = None

    def _sync(self) -> None:
        if self.group is not None:
            self.group.after_commit()

    def _refusal(self, exc: BaseException) -> Exception | None:
        return unavailable(exc) if isinstance(exc, sqlite3.OperationalError) else None


class GroupSync:
    """Group commit for one database file, shared by every connection of this process to it.

    A writer commits (the WAL frames are written, not yet fsynced), takes a ticket, and waits until an fsync of
    the WAL that began after its commit has finished; the first waiter runs that fsync for everyone committed by
    then, so writers that commit while an fsync is running share the next one. fsync flushes the file whoever
    wrote it, so commits of other processes are covered too; each process acknowledges only its own."""

    _all: dict[str, GroupSync] = {}
    _all_lock = threading.Lock()

    def __init__(self, path: str):
        self.file, self.wal, self.folder = path, path + "-wal", os.path.dirname(path) or "."
        self.cond = threading.Condition()
        self.writers = threading.Lock()  # one write transaction of this process at a time
        self.committed = self.synced = 0
        self.syncing = False
        self.folder_synced = False

    @classmethod
    def of(cls, path: str) -> GroupSync:
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
