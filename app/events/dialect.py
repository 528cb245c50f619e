"""The dialect layer: what the store's tables (app/events/tables.py) ask of a database, written once, and where
SQLite (app/events/sqlite.py) and PostgreSQL (app/events/postgres.py) differ, each in a subclass of `Database`.

The tables write their SQL once, with `?` placeholders; a dialect runs it (PostgreSQL's turns `?` into `%s`),
gives rows back as the texts were written (PostgreSQL's TEXT cannot hold NUL: it escapes and unescapes), and
supplies the few words that differ (row locks, JSON fields, the column that keeps insertion order). Each dialect
owns its connection, its transactions (SQLite: BEGIN IMMEDIATE behind a queue of this process's writers and the
group-commit fsync; PostgreSQL: psycopg's transaction with synchronous_commit on), its refusals (StoreUnavailable,
or the raw driver error `BackendError` where SQLite raises it outside a transaction), its migrations, and the one
step an append leaves to it: storing a sealed batch onto the head it was sealed after (`append`).

An event's row is the same on both (`event_row`, `stored_event`): its hashes and salt are stored as the bytes
their hexadecimal texts spell (BLOB, bytea: migrations sqlite/0014, postgres/0010), half the bytes of the texts,
and read back as those texts, which is all the rest of the program (the chain, exports, receipts) ever sees."""
from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager

from app.events.envelope import StoredEvent, made_event

EVENT_COLUMNS = "game_id, seq, type, version, payload, actor, at, causation, prev_hash, hash, salt"
"""The events table's columns, in the order of `event_row`."""


def digest(text: str | None) -> bytes | None:
    """A hash or salt (its hexadecimal text) as the events table holds it: the bytes the text spells."""
    return None if text is None else bytes.fromhex(text)


def event_row(e: StoredEvent, payload: str) -> tuple:
    """`e` as a row of the events table (EVENT_COLUMNS), its payload as the canonical JSON `payload` and each hash
    and the salt as `digest` stores it."""
    return (e.game_id, e.seq, e.type, e.version, payload, e.actor, e.at, e.causation, digest(e.prev_hash),
            digest(e.hash), digest(e.salt))


def stored_event(row: Sequence) -> StoredEvent:
    """The event of a row of EVENT_COLUMNS, each hash and the salt as its hexadecimal text again."""
    game, seq, type_, version, payload, actor, at, causation, prev_hash, hash_, salt = row
    return made_event(game, seq, type_, version, json.loads(payload), actor, at, causation, prev_hash.hex(),
                      hash_.hex(), None if salt is None else salt.hex())


def head_of(row: Sequence | None) -> tuple[int, str] | None:
    """(seq, hash as its hexadecimal text) of a row (seq, hash) read from the events table; None for no row."""
    return None if row is None else (row[0], row[1].hex())


class Database(ABC):
    """One connection to the store's database. `heads`: the games' heads (seq, hash) this process saw committed
    there, shared by its connections to that database; an append seals onto a remembered head without reading it
    (the append checks it all the same: a stale one is a Conflict, never a broken chain)."""

    order = "rowid"  # the column that keeps the order rows were added in
    for_update = ""  # locks rows read in a transaction against other writers, where the backend has row locks
    skip_locked = ""  # the same, skipping rows another transaction holds (an outbox claim)
    retractions_from = "events"  # where a game's core.Retracted events are read from: their partial index (migrations)

    def __init__(self, path: str, heads: dict[str, tuple[int, str]]):
        self.path = path
        self.heads = heads
        self.marks: dict[tuple[str, str, str], int] = {}  # seat marks this connection saw committed at or above
        self.credentials: dict[str, list[dict]] = {}  # games' seats as committed (SeatTables.credentials)
        self.seeds: dict[str, str] = {}  # games' dice seeds as committed (StreamTables.dice_seed)
        self._depth = 0
        self._durable = False
        self._later = 0  # inside `disk_later`: commits wait for the disk only when it ends
        self._new_heads: dict[str, tuple[int, str]] = {}  # this transaction's appends, kept once it commits
        self._new_marks: dict[tuple[str, str, str], int] = {}  # this transaction's seat marks, kept once it commits

    # -- what each dialect provides -------------------------------------------------------------------------
    @abstractmethod
    def close(self) -> None:
        ...

    @abstractmethod
    def rows(self, sql: str, args: Sequence = ()) -> list[dict]:
        """The rows of a query as dicts, texts as they were written."""

    @abstractmethod
    def tuples(self, sql: str, args: Sequence = ()) -> Iterable[tuple]:
        """The rows of a query as tuples, texts as they were written."""

    @abstractmethod
    def one(self, sql: str, args: Sequence = ()) -> tuple | None:
        """The first row of a query as a tuple, texts as they were written; None if it has none."""

    @abstractmethod
    def write(self, sql: str, args: Sequence = (), durable: bool = True) -> int:
        """Run one writing statement; returns how many rows it changed. Outside a transaction it commits by itself,
        on disk before this returns if `durable`; a refusal is StoreUnavailable, nothing written."""

    @abstractmethod
    def many(self, sql: str, rows: list[Sequence]) -> None:
        """Run one writing statement once per row of parameters (inside a transaction)."""

    @abstractmethod
    def cache_write(self, sql: str, args: Sequence) -> bool:
        """A write to a cache: one the database refuses is skipped (False), never an error, and inside a
        transaction leaves the transaction's other writes standing."""

    @abstractmethod
    def appending(self) -> AbstractContextManager:
        """What an append runs in: the write transaction where the head must be read under the writer lock
        (SQLite), or nothing where `append` checks the head under the game's lock itself (PostgreSQL)."""

    @abstractmethod
    def append(self, game_id: str, after: int, prev_hash: str, sealed: list[StoredEvent],
               payloads: list[str]) -> tuple[int, str] | None:
        """Store `sealed` (the batch sealed onto (after, prev_hash), its payloads as canonical JSON) if the stream's
        head is that; returns the head after the call, which is the batch's last event only if it was stored (or
        already was: a call made again after its answer was lost). None: no such game."""

    @abstractmethod
    def json_text(self, column: str, key: str) -> str:
        """SQL for the text at `key` of the JSON object in `column`."""

    @abstractmethod
    def json_int(self, column: str, key: str) -> str:
        """SQL for the integer at `key` of the JSON object in `column`."""

    @abstractmethod
    def _begin(self) -> None:
        ...

    @abstractmethod
    def _commit(self) -> None:
        """Commit; a commit the database refuses is rolled back and raised as StoreUnavailable."""

    @abstractmethod
    def _rollback(self) -> None:
        ...

    def _release(self) -> None:  # noqa: B027 - a hook: SQLite releases its process lock, PostgreSQL has none
        """After the commit or rollback, whichever way it went: let this process's next writer go."""

    def _sync(self, durable: bool = True) -> None:  # noqa: B027 - a hook: SQLite fsyncs here, PostgreSQL at commit
        """Return once the transaction just ended is committed (on disk if `durable`); raise StoreUnavailable if
        it was not (SQLite's group commit: `_commit` only keeps a transaction's part of a batch)."""

    def _refusal(self, exc: BaseException) -> Exception | None:
        """The StoreUnavailable for a driver's refusal that ended a transaction, if it is one."""
        return None

    def _settle(self) -> None:  # noqa: B027 - a hook: SQLite waits here for the fsyncs `disk_later` put off
        """Return once every transaction committed inside `disk_later` is on disk."""

    def commit_mark(self) -> bytes | None:
        """A value that changes with every transaction committed to the database, by any connection of any
        process, read without a statement (no lock, no call into the driver); None where the dialect has none or
        cannot read it now. Whatever this connection reads after reading the mark is still so while the mark is
        the same: nothing was committed since (`Tables.commit_mark`)."""
        return None

    # -- transactions, the same on every backend --------------------------------------------------------------
    @property
    def in_transaction(self) -> bool:
        """Inside `transaction()` (or an append): what is written now is not committed yet."""
        return self._depth > 0

    def transaction(self, durable: bool = True) -> Transaction:
        """One write transaction; one begun inside another of the same connection joins it (one commit). The
        commit returns once on disk unless every part of the transaction was begun with durable=False (the
        outbox's bookkeeping: docs/core.md)."""
        return Transaction(self, durable)

    @contextmanager
    def disk_later(self) -> Iterator[None]:
        """Writes whose answer is built while the disk takes them: inside, a durable transaction returns once
        committed, its fsync begun at once where the dialect can run it beside this thread (SQLite's group commit:
        its syncing thread); leaving, this returns only once every transaction committed inside is on disk, and
        raises if one could not be put there. Nothing built inside may leave the process before then (an answer,
        an email): what it tells of is committed but not yet durable. PostgreSQL's commits are on disk as they
        return: nothing is put off."""
        self._later += 1
        try:
            yield
        finally:
            self._later -= 1
            if not self._later:
                self._settle()

    def remember_mark(self, key: tuple[str, str, str], seq: int) -> None:
        """The seat mark `key` is at least `seq` once what this connection wrote is committed (`marks`)."""
        if self._depth:
            self._new_marks[key] = max(seq, self._new_marks.get(key, -1))
        else:
            self.marks[key] = max(seq, self.marks.get(key, -1))

    def remember_head(self, game_id: str, head: tuple[int, str]) -> None:
        """`head` is the game's once what this connection wrote is committed (now, outside a transaction)."""
        if self._depth:
            self._new_heads[game_id] = head
        else:
            self.heads[game_id] = head


class Tables:
    """What every part of the store shares: its database (one connection), and the transaction writes of several
    parts join (an order's events with its outbox rows)."""

    db: Database

    def __init__(self, db: Database):
        self.db = db

    @property
    def path(self) -> str:
        """The SQLite file or the postgresql:// URL the store was opened on."""
        return self.db.path

    def close(self) -> None:
        self.db.close()

    def transaction(self) -> Transaction:
        """One write transaction for several writes (events and the service's own tables): all or none.
        Appends inside it join it; a locked database or a full disk raises StoreUnavailable and writes nothing."""
        return self.db.transaction()

    @property
    def in_transaction(self) -> bool:
        """Inside `transaction()` (or an append): what is written now is not committed yet."""
        return self.db.in_transaction

    def disk_later(self) -> AbstractContextManager:
        """Writes that commit without waiting for the disk until this ends, which waits for all of them
        (`Database.disk_later`): the answer to an order is built while its fsync runs."""
        return self.db.disk_later()

    def commit_mark(self) -> bytes | None:
        """The database's commit mark (`Database.commit_mark`) now: what this connection reads after it, outside a
        transaction, holds while the mark is the same (a reader keeps its answer without reading the head again:
        app/service/reads.py). None inside a transaction (what it reads may be its own uncommitted writes) and
        where the dialect has none (PostgreSQL)."""
        return None if self.db.in_transaction else self.db.commit_mark()


class Transaction:
    """`Database.transaction()`: the outermost one begins, commits (or rolls back everything) and, once committed,
    keeps the heads its appends made and the seat marks it wrote, and waits for the disk."""

    __slots__ = ("db", "durable")

    def __init__(self, db: Database, durable: bool):
        self.db, self.durable = db, durable

    def __enter__(self) -> None:
        db = self.db
        db._depth += 1
        if db._depth > 1:
            db._durable |= self.durable
            return
        db._durable = self.durable
        db._new_heads.clear()
        db._new_marks.clear()
        try:
            db._begin()
        except BaseException:
            db._depth -= 1
            raise

    def __exit__(self, exc_type, exc, tb) -> bool:
        db = self.db
        db._depth -= 1
        if db._depth:
            return False  # the outermost commits, or rolls back everything
        new_heads, db._new_heads = db._new_heads, {}
        new_marks, db._new_marks = db._new_marks, {}
        try:
            if exc_type is None:
                db._commit()
            else:
                db._rollback()
        finally:
            db._release()  # the next writer goes on while this one waits for the disk
        if exc_type is None:
            db._sync(db._durable)
            db.heads.update(new_heads)  # committed: the games' heads now
            for key, seq in new_marks.items():  # and the seats' marks at least these
                db.remember_mark(key, seq)
            return False
        refusal = db._refusal(exc)
        if refusal is not None:
            raise refusal from exc
        return False


def identifier(name: str) -> str:
    """A table or column name the store's own code passes (never a player's text), checked all the same."""
    if not name.replace("_", "").isalnum() or not name.isascii():
        raise ValueError(f"not a column name: {name!r}")
    return name
