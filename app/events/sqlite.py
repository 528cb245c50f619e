"""SQLite, the embedded default (the standard library's sqlite3): the dialect of app/events/dialect.py.

Durability: a transaction is on disk (fsynced) before it returns, so an order acknowledged to a player survives a
power cut. The WAL journal is fsynced after the commit rather than inside it (synchronous=NORMAL plus
`GroupCommit`), which is what synchronous=FULL does, except that this process's concurrent writers share one
transaction and one fsync instead of each committing and waiting for its own under the write lock (group
commit: docs/architecture.md, "The write path"). A writer that has an answer to make (an order's: `disk_later`) has
its fsync begun on the group's syncing thread (`GroupCommit.sync_soon`) and waits for it only once the answer is
made: nothing is handed on before the disk has it. Concurrency: a write transaction takes the writer lock first
(BEGIN IMMEDIATE), so an append reads the head it checks under the lock; this process's writers take turns on
one connection (a writer's transaction is a savepoint of the batch, taken back alone if it fails), other
processes wait through SQLite's busy handler. A refusal outside a transaction is the raw `sqlite3.OperationalError`
(`BackendError`), which callers map with `unavailable`; inside one, and on a write, it is StoreUnavailable."""
from __future__ import annotations

import ctypes
import os
import sqlite3
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path

from app.events import migrations
from app.events.dialect import EVENT_COLUMNS, Database, event_row, head_of
from app.events.envelope import StoredEvent, utc_now
from app.events.errors import StoreUnavailable

BackendError = sqlite3.OperationalError
"""What this backend raises when it refuses an operation outside a transaction (a read under a lock, a full
disk): callers that map it to StoreUnavailable (`unavailable`) catch it by this name."""

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

    # without statistics (no ANALYZE) SQLite's planner prefers the primary key's range to the partial index and
    # reads every event of the game up to the load's seq: 2 ms of a 20,000-event load, for what is mostly none
    retractions_from = "events INDEXED BY events_retracted"

    def __init__(self, path: str, busy_timeout: float = 30.0):
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=busy_timeout)
        conn.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
        _when_unlocked(lambda: conn.execute("PRAGMA journal_mode=WAL"), busy_timeout)
        conn.execute("PRAGMA synchronous=NORMAL")  # the WAL is fsynced after each commit by GroupCommit
        conn.execute("PRAGMA foreign_keys=ON")
        super().__init__(path, _heads_of(path))
        self.conn = conn
        self.busy_timeout = busy_timeout
        self.group = None if path == ":memory:" else GroupCommit.of(path, busy_timeout)
        self._batch: Batch | None = None  # the group's batch this connection's transaction is a part of
        self._owed = 0  # the latest commit `disk_later` has yet to see on disk (its place in the fsync order)
        self._own = conn
        self._migrate()
        self._index = _wal_index(path) if _in_wal_mode(conn) else None  # after a read: the connection uses it

    def close(self) -> None:
        self._index = None  # before the connection closes: its mapping may go with it
        self.conn.close()
        if self.group is not None:
            self.group.close()

    def commit_mark(self) -> bytes | None:
        """The wal-index header (`_wal_index`) as it reads now, if both its copies agree (a writer is not halfway
        through it): SQLite rewrites it at every commit, by any connection or process (its change counter, its
        last frame and their checksums), and a reader's transaction starts from it; None without one."""
        index = self._index
        if index is None:
            return None
        header = ctypes.string_at(index, WAL_HEADER * 2)
        first = header[:WAL_HEADER]
        if first != header[WAL_HEADER:] or not first[12] or int.from_bytes(first[:4], sys.byteorder) != WAL_VERSION:
            return None
        return first

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
                if sqlite3.sqlite_version_info < (3, 41):  # SQLite's own unhex() came in 3.41 (0014 reads with it)
                    self.conn.create_function("unhex", 1, _unhex, deterministic=True)
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
                                  [event_row(e, text) for e, text in zip(sealed, payloads, strict=True)])
        except sqlite3.IntegrityError:
            return head_of(self.one("SELECT seq, hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                                    [game_id]))
        return sealed[-1].seq, sealed[-1].hash

    def json_text(self, column: str, key: str) -> str:
        return f"json_extract({column}, '$.{key}')"

    json_int = json_text

    # -- transactions ---------------------------------------------------------------------------------------
    @property
    def writer(self) -> sqlite3.Connection:
        """The connection this database's write transactions run on: the group's, shared by this process's
        connections to the file (`GroupCommit`), or its own (":memory:")."""
        return self.conn if self.group is None else self.group.conn

    def _begin(self) -> None:
        if self.group is None:
            try:
                self.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise unavailable(exc) from exc
            return
        self._batch, self._kept = self.group.join(self.busy_timeout), False
        self._own, self.conn = self.conn, self.group.conn  # the transaction's reads see the batch's writes

    def _commit(self) -> None:
        """SQLite rolls a transaction back by itself when a statement or the COMMIT fails with a full disk or an I/O
        error: then there is nothing to commit or roll back, and the answer is what happened, never "cannot
        rollback - no transaction is active". In a batch, this transaction's part is kept (its savepoint released);
        the batch commits when its last writer leaves (`_sync` says how that went)."""
        if not self.conn.in_transaction:
            if self._batch is not None:
                self._batch.lost = True
            raise StoreUnavailable("the database rolled the write back (the disk is full, or it could not be "
                                   "written); nothing was written", "full")
        try:
            if self._batch is None:
                self.conn.execute("COMMIT")
            else:
                self._batch.keep()
                self._kept = True
        except sqlite3.OperationalError as exc:
            self._rollback()
            raise unavailable(exc) from exc

    def _rollback(self) -> None:
        if self._batch is not None:
            self._batch.drop()
        elif self.conn.in_transaction:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.OperationalError:
                pass  # the transaction ended with the error being raised: that error is the one told

    def _release(self) -> None:
        batch = self._batch
        if batch is not None:
            self.conn = self._own
            self.group.leave(batch)
            if not self._kept:
                self._batch = None  # nothing of this transaction is in the batch: nothing to wait for

    def _sync(self, durable: bool = True) -> None:
        batch, self._batch = self._batch, None
        later = durable and self._later and self.group is not None  # inside `disk_later`: its end waits
        if batch is not None:
            self.group.settled(batch, durable and not later)
            ticket = batch.ticket
        elif durable and self.group is not None:
            ticket = self.group.ticket()
            if not later:
                self.group.synced(ticket)
        if later and ticket:
            self._owed = max(self._owed, ticket)
            self.group.sync_soon(ticket)

    def _settle(self) -> None:
        owed, self._owed = self._owed, 0
        if owed:
            self.group.synced(owed)

    def _refusal(self, exc: BaseException) -> Exception | None:
        return unavailable(exc) if isinstance(exc, sqlite3.OperationalError) else None


class Batch:
    """One write transaction on a `GroupCommit`'s connection holding the parts of several writers' transactions,
    one after another: the first part is the transaction's start, each later one a savepoint, so a writer whose
    part fails (a Conflict, a refused order) takes back its own writes and no one else's. `ticket`: the commit's
    place in the fsync order once committed; `error`: why it did not commit (every writer in it is told)."""

    __slots__ = ("group", "parts", "kept", "lost", "closed", "ticket", "error")

    def __init__(self, group: GroupCommit):
        self.group = group
        self.parts = self.kept = 0
        self.lost = self.closed = False
        self.ticket = 0
        self.error: StoreUnavailable | None = None

    def open(self) -> None:
        """The next writer's part: the transaction's start (the first), else a savepoint."""
        self.group.conn.execute("BEGIN IMMEDIATE" if not self.parts else "SAVEPOINT part")
        self.parts += 1

    def keep(self) -> None:
        if self.parts > 1:
            self.group.conn.execute("RELEASE part")
        self.kept += 1

    def drop(self) -> None:
        """Take back the current part: its savepoint, or, for the first, the whole transaction (nothing else is in
        it yet). A transaction SQLite ended by itself (a full disk) took the parts kept before with it."""
        conn = self.group.conn
        if not conn.in_transaction:
            self.lost = self.lost or self.kept > 0
            self.kept = 0
            return
        try:
            if self.parts > 1:
                conn.execute("ROLLBACK TO part")
                conn.execute("RELEASE part")
            else:
                conn.execute("ROLLBACK")
                self.parts = 0  # nothing begun: the next writer begins again
        except sqlite3.OperationalError:
            if not conn.in_transaction:
                self.lost = self.lost or self.kept > 0
                self.kept = 0


class GroupCommit:
    """Group commit for one database file, shared by every connection of this process to it (docs/architecture.md,
    "The write path").

    Transactions: this process's writers take turns on one connection. A writer's transaction runs there as a part
    of the open batch (`Batch`); when it is done and other writers wait for their turn, it leaves the batch open
    for them, and while an fsync runs it leaves it open for the writers that arrive before that fsync ends (a
    commit then would only wait for the next one); the last writer with none waiting behind it and no fsync
    running (or the `BATCH_PARTS`th) commits it, or, once the fsync ends, one of the batch's writers does: several
    requests' appends in one transaction, formed only by writers arriving together, never by a timer. Each writer
    returns only once its batch has committed and an fsync of the WAL that began after that commit has finished
    (`settled`): the first writer to wait runs that fsync for every commit made by then, so batches that commit
    while an fsync runs share the next one. fsync flushes the file whoever wrote it, so commits of other
    processes are covered too; each process acknowledges only its own."""

    BATCH_PARTS = 16  # at most this many writers' transactions in one commit (other processes wait for the lock)
    to_disk = True  # this process's commits wait for the disk (HEXLEDGER_FSYNC, app/events/backends.sync_to_disk)

    _all: weakref.WeakValueDictionary[str, GroupCommit] = weakref.WeakValueDictionary()  # while a connection
    # holds it: a store dropped without close() lets its group, and the shared connection, go with it
    _all_lock = threading.Lock()

    SYNCER_IDLE = 1.0  # seconds the syncing thread waits for another fsync to run before it ends
    BEGIN_WAIT = 0.0002  # seconds a writer waits for the syncing thread to begin its fsync (then goes on without)

    def __init__(self, path: str, busy_timeout: float):
        self.file, self.wal, self.folder = path, path + "-wal", os.path.dirname(path) or "."
        lock = threading.RLock()
        self.cond = threading.Condition(lock)
        self.wake = threading.Condition(lock)  # the syncing thread's (`sync_soon`), on the same lock
        self.began = threading.Condition()  # an fsync is about to begin (`sync_soon` waits for it): a lock of its
        # own, so a writer timing out there never queues for the group's lock behind a thread not yet running
        self.users = 0
        self.conn: sqlite3.Connection | None = None
        self.identity: tuple[int, int] | None = None
        self.timeout = busy_timeout
        self.taken = False  # a writer's part runs on `conn`
        self.waiting = 0  # writers waiting for their turn
        self.batch: Batch | None = None
        self.committed = self.synced_up_to = 0
        self.syncing = False
        self.folder_synced = False
        self.wanted = 0  # the latest commit whose fsync a writer asked to begin without waiting (`sync_soon`)
        self.covering = self.began_up_to = 0  # the commits the running fsync covers; those of the last begun
        self.failed: list[tuple[int, int, OSError]] = []  # fsyncs that failed: (synced before, covered, why)
        self.syncer: threading.Thread | None = None

    @classmethod
    def _forked(cls) -> None:
        """In a forked child: none of the parent's groups (their connections, their locks as they were held)."""
        cls._all, cls._all_lock = weakref.WeakValueDictionary(), threading.Lock()

    @classmethod
    def of(cls, path: str, busy_timeout: float) -> GroupCommit:
        key = os.path.realpath(path)
        with cls._all_lock:
            group = cls._all.get(key)
            if group is None:
                group = cls._all[key] = cls(key, busy_timeout)
            if group.conn is None:
                group._connect(busy_timeout)
            group.users += 1
            return group

    def close(self) -> None:
        """A connection to the file closed: the last one closes the shared connection."""
        with GroupCommit._all_lock:
            self.users -= 1
            if self.users or self.taken:
                return
            GroupCommit._all.pop(self.file, None)
            if self.conn is not None:
                self.conn.close()
                self.conn = None

    # -- turns ----------------------------------------------------------------------------------------------
    def join(self, timeout: float) -> Batch:
        """Wait for this writer's turn and begin its part of the open batch (or a new one)."""
        with self.cond:
            self.waiting += 1
            try:
                if not self.cond.wait_for(lambda: not self.taken, timeout):
                    raise StoreUnavailable("the database is locked by another writer (of this process); nothing "
                                           "was written, try again", "locked")
            finally:
                self.waiting -= 1
            self.taken = True
        try:
            if self.batch is None or self.batch.parts == 0:
                self._connect(timeout)
                self.batch = self.batch or Batch(self)
            self.batch.open()
            return self.batch
        except BaseException as exc:
            batch = self.batch
            if batch is not None and batch.parts == 0:
                self.batch = None
            with self.cond:
                self.taken = False
                self.cond.notify_all()
            if isinstance(exc, sqlite3.OperationalError):
                raise unavailable(exc) from exc
            raise

    def leave(self, batch: Batch) -> None:
        """This writer's part is over (kept or taken back): leave the batch open for the writers waiting (deciding
        so and giving the turn at once: a waiter then cannot miss it), or commit it (none waiting, the batch full,
        or lost), then give the next writer its turn."""
        with self.cond:
            if batch.parts < self.BATCH_PARTS and not batch.lost and (self.waiting or (self.syncing and batch.kept)):
                self.taken = False  # (an fsync runs: the batch waits for its end, `settled`, taking more writers)
                self.cond.notify_all()
                return
        self._commit(batch)

    def _commit(self, batch: Batch) -> None:
        """Commit (or roll back) `batch` in this writer's turn, then give the turn on."""
        self.batch = None
        try:
            self._close(batch)
        finally:
            with self.cond:
                self.taken = False
                batch.closed = True
                self.cond.notify_all()

    def _close(self, batch: Batch) -> None:
        conn = self.conn
        if batch.lost:
            batch.error = StoreUnavailable("the database rolled the write back (the disk is full, or it could not "
                                           "be written); nothing was written", "full")
        if not conn.in_transaction:
            return
        if batch.lost or not batch.kept:
            conn.execute("ROLLBACK")
            return
        try:
            conn.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            if conn.in_transaction:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.OperationalError:
                    pass
            batch.error = unavailable(exc)
            return
        batch.ticket = self.ticket()

    def _connect(self, timeout: float) -> None:
        """The shared connection, opened again if the file at the path is not the one it has open (a database
        put in its place: a restored backup, a test's new file)."""
        found = os.stat(self.file)
        if self.conn is not None and self.identity == (found.st_dev, found.st_ino):
            if timeout != self.timeout:
                self.conn.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
                self.timeout = timeout
            return
        if self.conn is not None:
            self.conn.close()
        conn = sqlite3.connect(self.file, isolation_level=None, check_same_thread=False, timeout=timeout)
        conn.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
        conn.execute("PRAGMA synchronous=NORMAL")  # the WAL is fsynced after each commit by `synced`
        conn.execute("PRAGMA foreign_keys=ON")
        self.conn, self.identity, self.timeout = conn, (found.st_dev, found.st_ino), timeout

    # -- durability -----------------------------------------------------------------------------------------
    def settled(self, batch: Batch, durable: bool) -> None:
        """Return once `batch` has committed (and, if `durable`, is on disk); raise why it did not commit."""
        with self.cond:
            while not batch.closed:
                if self.batch is batch and not (self.taken or self.waiting or self.syncing):  # left open for an
                    # fsync, which is over, and no writer is on it or about to take its turn
                    self.taken = True
                    break
                self.cond.wait()
        if not batch.closed:
            self._commit(batch)
        if batch.error is not None:
            raise batch.error
        if durable:
            self.synced(batch.ticket)

    def ticket(self) -> int:
        """A commit just made (by this process): its place in the fsync order."""
        with self.cond:
            self.committed += 1
            return self.committed

    def synced(self, ticket: int) -> None:
        """Wait until an fsync that began after commit `ticket` has finished, running it if none runs."""
        with self.cond:
            while True:
                for low, high, exc in self.failed:  # never passed by a later success: the disk may have lost it
                    if low < ticket <= high:
                        raise OSError(exc.errno, f"the journal's fsync failed: {exc.strerror}")
                if self.synced_up_to >= ticket:
                    return
                if self.syncing:
                    self.cond.wait()
                    continue
                self._run_fsync()

    def _run_fsync(self) -> None:
        """An fsync of every commit made by now, the lock (held on entry) let go while it runs: the writers waiting
        for it to begin (`sync_soon`) are told just before it does, those waiting for it when it has ended."""
        self.syncing, self.covering = True, self.committed
        covered, before, error, done = self.covering, self.synced_up_to, None, False
        self.cond.release()
        try:
            self._fsync(covered)
            done = True
        except OSError as exc:  # every commit it covered is told, whoever waits for it (`synced`)
            error = exc
            raise
        finally:
            self.cond.acquire()
            self.syncing = False
            if error is not None:
                self.failed.append((before, covered, error))
            if done:
                self.synced_up_to = max(self.synced_up_to, covered)
            self.cond.notify_all()
            self.wake.notify()

    def sync_soon(self, ticket: int) -> None:
        """Have an fsync covering commit `ticket` begin now on the group's syncing thread, and return once it has
        begun (or one already under way will be followed by it): the writer builds its answer while the disk
        works, then waits for the end in `synced`, which runs the fsync itself if the thread has not begun it. The
        fsync must be under way before the writer goes on: this thread would otherwise hold the interpreter lock
        through its answer and the syncing thread could not begin. The thread is started on demand and ends after
        SYNCER_IDLE seconds with nothing to do."""
        if not GroupCommit.to_disk:
            return  # nothing to wait for: `synced` returns at once
        with self.cond:
            if ticket <= self.synced_up_to:
                return
            self.wanted = max(self.wanted, ticket)
            if self.syncer is None or not self.syncer.is_alive():
                self.syncer = threading.Thread(target=self._syncing, name="hexledger-fsync", daemon=True)
                self.syncer.start()
            elif not self.syncing:
                self.wake.notify()
        with self.began:
            self.began.wait_for(lambda: self.began_up_to >= ticket or self.synced_up_to >= ticket
                                or (self.syncing and self.covering < ticket), self.BEGIN_WAIT)

    def _syncing(self) -> None:
        """The syncing thread: an fsync whenever a commit asked for by `sync_soon` is not yet covered and none
        runs; it ends once idle for SYNCER_IDLE seconds."""
        me = threading.current_thread()
        with self.cond:
            while self.syncer is me:
                if self.wanted > self.synced_up_to and not self.syncing:
                    try:
                        self._run_fsync()
                    except OSError:  # told to the writers waiting for it (`synced`)
                        self.wanted = self.synced_up_to
                    continue
                if not self.wake.wait(self.SYNCER_IDLE) and self.wanted <= self.synced_up_to:
                    self.syncer = None

    def _fsync(self, covered: int = 0) -> None:
        """fsync the journal (and the folder, the first time), telling `sync_soon`'s waiters that the fsync of the
        commits up to `covered` is under way once nothing is left to do before it but the call itself."""
        if not GroupCommit.to_disk:  # committed all the same: a killed process loses nothing, a power cut may
            return
        wal = self.wal if os.path.exists(self.wal) else self.file  # no WAL: a file system that refused the mode
        # the journal's data (and its size) as SQLite's own sync does it, fdatasync; the folder, once, in full:
        # it holds a new journal's name
        opened: list[tuple[int, Callable[[int], None]]] = []
        try:
            for path, sync in [(wal, os.fdatasync)] + ([] if self.folder_synced else [(self.folder, os.fsync)]):
                opened.append((os.open(path, os.O_RDONLY), sync))
            with self.began:
                self.began_up_to = max(self.began_up_to, covered)
                self.began.notify_all()
            for fd, sync in opened:
                sync(fd)
        finally:
            for fd, _ in opened:
                os.close(fd)
        self.folder_synced = True


os.register_at_fork(after_in_child=GroupCommit._forked)

WAL_HEADER = 48  # bytes of one copy of the wal-index header; the file begins with two (sqlite.org/walformat.html)
WAL_VERSION = 3007000  # its iVersion, the same since WAL came (3.7.0): any other is a format this does not read


def _in_wal_mode(conn: sqlite3.Connection) -> bool:
    """The connection's journal is the WAL (not a file system's refusal of it, not ":memory:"); False when it cannot
    say now (another connection's lock): then its heads are read, as without a wal-index."""
    try:
        return str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal"
    except sqlite3.OperationalError:
        return False


def _wal_index(path: str) -> int | None:
    """Where SQLite has mapped the database's wal-index (its "-shm" file, which every connection in WAL mode shares)
    in this process, read from /proc/self/maps, for `SqliteDatabase.commit_mark`; None where there is none or it
    cannot be found (no WAL, SQLite keeping it in its own memory, no /proc). Its own mapping is read, never a file
    descriptor of ours: closing any descriptor of a file drops every lock the process holds on it (POSIX), SQLite's
    included. Looked up once this connection has read the database, so SQLite has mapped it whole, and used only
    while this connection is open: SQLite unmaps it when no connection of the process has the database open."""
    shm = os.path.realpath(path) + "-shm"
    try:
        inode = os.stat(shm).st_ino
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            for line in maps:
                fields = line.split(maxsplit=5)
                if len(fields) == 6 and fields[5].rstrip("\n") == shm and int(fields[2], 16) == 0 \
                        and int(fields[4]) == inode:
                    start, end = (int(x, 16) for x in fields[0].split("-"))
                    return start if end - start >= 2 * WAL_HEADER else None
    except (OSError, ValueError):
        return None
    return None


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


def _unhex(text: str | None) -> bytes | None:
    """SQLite's unhex() (3.41) for the texts of hexadecimal digits a migration reads."""
    return None if text is None else bytes.fromhex(text)


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
