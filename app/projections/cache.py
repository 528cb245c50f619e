"""Folded states, and views rendered from them, kept in memory: caches beside the stored snapshots (docs/architecture.md
practice 5).

Each entry is a game's state after event `seq` together with that event's hash. The stream is append-only and
hash-chained, so an entry is still right exactly while the stored event at `seq` carries the same hash: `load`
(app/projections/state.py) checks the head's (seq, hash) against an entry at the head, or the `prev_hash` of the
first event it folds after an entry, and so notices what another process or connection appended or a transaction
that rolled back. Entries are immutable states (frozen dataclasses), shared by the readers. The cache holds at
most `HEXLEDGER_STATE_CACHE` states (default 256), the least recently used going first, and at most `PER_GAME` of
one game (its earliest going first): every order caches the state after it, so without that bound a few busy games'
histories would push every other game's head out; the latest few serve undo and a reader a little behind.

`VIEWS` keeps what a reader was shown at a game's head (the HTTP state read's answer): each entry is valid for the
head (seq, hash) it was made at, and the caller checks it against the stored head on every use, so an append by
any process or connection retires it; or, on SQLite, against the database's commit mark, which any commit changes
(app/events/sqlite.py `commit_mark`): while it is the one the head was read under, the head is that one still. At
most `HEXLEDGER_VIEW_CACHE` entries (default 512).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

Key = tuple[str, str, int]  # (store, game, seq)
PER_GAME = 8  # states kept of one game: the latest ones


class StateCache:
    """Least recently used states by (store, game, seq), each with the hash of its last event."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self._entries: OrderedDict[Key, tuple[str, Any]] = OrderedDict()
        self._seqs: dict[tuple[str, str], set[int]] = {}
        self._lock = threading.Lock()

    def put(self, store: str, game_id: str, seq: int, hash_: str, state: Any) -> None:
        if not self.capacity:
            return
        with self._lock:
            self._entries[(store, game_id, seq)] = (hash_, state)
            self._entries.move_to_end((store, game_id, seq))
            seqs = self._seqs.setdefault((store, game_id), set())
            seqs.add(seq)
            if len(seqs) > PER_GAME:
                earliest = min(seqs)
                del self._entries[(store, game_id, earliest)]
                self._forget(store, game_id, earliest)
            while len(self._entries) > self.capacity:
                (s, g, q), _ = self._entries.popitem(last=False)
                self._forget(s, g, q)

    def nearest(self, store: str, game_id: str, at_most: int | None = None) -> tuple[int, str, Any] | None:
        """The cached (seq, hash, state) of the game with the greatest seq <= `at_most` (None: the newest)."""
        with self._lock:
            seqs = [q for q in self._seqs.get((store, game_id), ()) if at_most is None or q <= at_most]
            if not seqs:
                return None
            key = (store, game_id, max(seqs))
            self._entries.move_to_end(key)
            hash_, state = self._entries[key]
            return key[2], hash_, state

    def drop(self, store: str, game_id: str, seq: int) -> None:
        """Forget an entry found stale (its event's hash differs from the stored one)."""
        with self._lock:
            if self._entries.pop((store, game_id, seq), None) is not None:
                self._forget(store, game_id, seq)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._seqs.clear()

    def _forget(self, store: str, game_id: str, seq: int) -> None:
        seqs = self._seqs[(store, game_id)]
        seqs.discard(seq)
        if not seqs:
            del self._seqs[(store, game_id)]


class HeadCache:
    """Least recently used values by key, each with the game's head (seq, hash) it was made at: `get` gives it only
    for that same head, and forgets it for any other (the game moved on: it will not come back). An entry may also
    carry the database's commit mark (`Tables.commit_mark`) read before that head was: `since` gives it, with its
    head, while the mark is that one (nothing was committed since, so the head is still that one)."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self._entries: OrderedDict[Hashable, tuple[tuple[int, str], Any, bytes | None]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, head: tuple[int, str], mark: bytes | None = None) -> Any | None:
        """The value made at `head`; `mark`: the commit mark read before that head was, kept with it."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if entry[0] != head:
                del self._entries[key]
                return None
            if mark is not None and entry[2] != mark:
                self._entries[key] = (head, entry[1], mark)
            self._entries.move_to_end(key)
            return entry[1]

    def since(self, key: Hashable, mark: bytes | None) -> tuple[tuple[int, str], Any] | None:
        """(head, value) of the entry whose head was read under the commit mark `mark` (None: none)."""
        if mark is None:
            return None
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[2] != mark:
                return None
            self._entries.move_to_end(key)
            return entry[0], entry[1]

    def put(self, key: Hashable, head: tuple[int, str], value: Any, mark: bytes | None = None) -> None:
        if not self.capacity:
            return
        with self._lock:
            self._entries[key] = (head, value, mark)
            self._entries.move_to_end(key)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)


# one of each per process, sized by the settings when a program starts (app/service/application.py `size_caches`)
STATES = StateCache(256)
VIEWS = HeadCache(512)
